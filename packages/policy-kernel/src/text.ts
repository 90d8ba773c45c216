// Text measuring and slicing: UTF-8 byte counts, LF/CRLF/CR lines, and bounded slices on UTF-8 boundaries.
//
// Conventions used throughout:
// - Byte offsets refer to the UTF-8 encoding that `Buffer.from(s, "utf8")` or `TextEncoder` produce. A
//   surrogate pair is one 4-byte code point; a lone surrogate encodes as U+FFFD, 3 bytes.
// - A line break is `\r\n`, `\r` or `\n`, in that order of preference, so `\r\n` is one break.
// - Lines are the segments between breaks: a string with n breaks has n + 1 lines. The empty string has one
//   (empty) line, and a trailing break is followed by one more, empty, line. This is exactly
//   `s.split(/\r\n|\r|\n/).length`. Use countLineBreaks for the number of breaks.

/**
 * Number of bytes in the UTF-8 encoding of `s`; equal to `Buffer.byteLength(s, "utf8")`, including a lone
 * surrogate counted as 3 bytes (U+FFFD). A non-string input counts as 0.
 */
export function utf8ByteLength(s: string): number {
	if (typeof s !== "string") return 0;
	let bytes = 0;
	for (let i = 0; i < s.length; i++) {
		const code = s.charCodeAt(i);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

/** UTF-8 byte length of the code point starting at UTF-16 index `i`, and its length in UTF-16 units. */
function codePointAt(s: string, i: number): { bytes: number; units: number } {
	const code = s.charCodeAt(i);
	if (code < 0x80) return { bytes: 1, units: 1 };
	if (code < 0x800) return { bytes: 2, units: 1 };
	if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) return { bytes: 4, units: 2 };
	return { bytes: 3, units: 1 };
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/** Number of line breaks in `s`, counting `\r\n`, `\r` and `\n` each as one. A non-string counts as 0. */
export function countLineBreaks(s: string): number {
	if (typeof s !== "string") return 0;
	let breaks = 0;
	for (let i = 0; i < s.length; i++) {
		const code = s.charCodeAt(i);
		if (code === 10) breaks++;
		else if (code === 13) {
			breaks++;
			if (s.charCodeAt(i + 1) === 10) i++;
		}
	}
	return breaks;
}

/**
 * Number of lines in `s`: line breaks plus one, so `""` has 1 line, `"a\n"` has 2 and `"a\r\nb"` has 2.
 * Equal to `s.split(/\r\n|\r|\n/).length`. A non-string counts as 0.
 */
export function countLines(s: string): number {
	if (typeof s !== "string") return 0;
	return countLineBreaks(s) + 1;
}

/**
 * Counts lines the way editors report a file: a final line break ends the last line instead of starting an
 * empty one. `""` is 0 lines, `"a"` and `"a\n"` are 1, `"a\r\nb"` is 2. LF, CRLF and
 * CR each count as one break.
 */
export function countContentLines(s: string): number {
	if (typeof s !== "string" || s.length === 0) return 0;
	const last = s.charCodeAt(s.length - 1);
	return countLineBreaks(s) + (last === 10 || last === 13 ? 0 : 1);
}

/**
 * Splits `s` into lines without their terminators; equal to `s.split(/\r\n|\r|\n/)`. A non-string gives `[]`.
 */
export function splitLines(s: string): string[] {
	if (typeof s !== "string") return [];
	return s.split(/\r\n|\r|\n/);
}

/** A slice of a string together with the UTF-8 byte range it covers in the original. */
export interface ByteSlice {
	/** The sliced text; a substring of the input. */
	readonly text: string;
	/** Start byte offset actually used, inclusive. */
	readonly start: number;
	/** End byte offset actually used, exclusive; `end - start` is the UTF-8 length of `text`. */
	readonly end: number;
}

/**
 * Slices `s` by UTF-8 byte offsets `[start, end)` without splitting a code point. Offsets are truncated to
 * integers and clamped to `[0, byteLength]` (a negative offset means 0, a missing or non-numeric `end` means
 * the end of the string, a non-numeric `start` means 0). A boundary inside a multi-byte sequence snaps
 * inward: `start` moves forward to the next code point, `end` moves back to the previous one, so the result
 * never exceeds the requested range. When `end <= start` after snapping, the result is empty at `start`.
 */
export function sliceBytes(s: string, start: number, end?: number): ByteSlice {
	if (typeof s !== "string") return { text: "", start: 0, end: 0 };
	const total = utf8ByteLength(s);
	const from = clampOffset(start, 0, total);
	const to = end === undefined ? total : clampOffset(end, total, total);
	const [startIndex, startByte] = locateByte(s, from, "after");
	const [endIndex, endByte] = locateByte(s, to, "before");
	if (endIndex <= startIndex) return { text: "", start: startByte, end: startByte };
	return { text: s.slice(startIndex, endIndex), start: startByte, end: endByte };
}

/**
 * Finds the code point boundary nearest to byte offset `target`: the first one at or after it, or the last
 * one at or before it. Returns `[utf16Index, byteOffset]`.
 */
function locateByte(s: string, target: number, direction: "after" | "before"): [number, number] {
	let byte = 0;
	let i = 0;
	while (i < s.length && byte < target) {
		const { bytes, units } = codePointAt(s, i);
		if (direction === "before" && byte + bytes > target) break;
		byte += bytes;
		i += units;
	}
	return [i, byte];
}

function clampOffset(value: number, fallback: number, total: number): number {
	if (typeof value !== "number" || Number.isNaN(value)) return fallback;
	const n = Math.trunc(value);
	return n < 0 ? 0 : Math.min(n, total);
}

/** A line range of a string. */
export interface LineSlice {
	/** The lines `startLine..endLine`, each with its original terminator, so adjacent slices concatenate. */
	readonly text: string;
	/** First line actually used, 1-indexed. */
	readonly startLine: number;
	/** Last line actually used, inclusive; `startLine - 1` when the slice is empty. */
	readonly endLine: number;
	/** {@link countLines} of the whole input. */
	readonly totalLines: number;
}

/**
 * Returns lines `startLine..endLine` of `s` (1-indexed, inclusive), keeping each line's own terminator so
 * that `sliceLines(s, 1, k).text + sliceLines(s, k + 1, n).text === s`. Line numbers are truncated to
 * integers and clamped to `[1, totalLines]`; a missing or non-numeric `endLine` means the last line. When
 * `startLine > endLine` or `startLine > totalLines` the slice is empty.
 */
export function sliceLines(s: string, startLine: number, endLine?: number): LineSlice {
	if (typeof s !== "string") return { text: "", startLine: 1, endLine: 0, totalLines: 0 };
	const starts = lineStartIndices(s);
	const totalLines = starts.length;
	const first = typeof startLine === "number" && !Number.isNaN(startLine) ? Math.max(1, Math.trunc(startLine)) : 1;
	const rawLast =
		typeof endLine === "number" && !Number.isNaN(endLine) ? Math.min(totalLines, Math.trunc(endLine)) : totalLines;
	if (first > totalLines || rawLast < first) {
		const at = Math.min(first, totalLines + 1);
		return { text: "", startLine: at, endLine: at - 1, totalLines };
	}
	const from = starts[first - 1] as number;
	const to = rawLast < totalLines ? (starts[rawLast] as number) : s.length;
	return { text: s.slice(from, to), startLine: first, endLine: rawLast, totalLines };
}

/** UTF-16 index at which each line starts; the first is always 0. */
function lineStartIndices(s: string): number[] {
	const starts = [0];
	for (let i = 0; i < s.length; i++) {
		const code = s.charCodeAt(i);
		if (code === 10) starts.push(i + 1);
		else if (code === 13) {
			if (s.charCodeAt(i + 1) === 10) i++;
			starts.push(i + 1);
		}
	}
	return starts;
}

/** Bounds for {@link boundedSlice}. */
export interface SliceBounds {
	/** Most lines (as {@link countLines} counts them) the prefix may have. Values below 1 act as 1. */
	readonly maxLines?: number;
	/** Most UTF-8 bytes the prefix may have. Values below 0 act as 0. */
	readonly maxBytes?: number;
}

/** The result of {@link boundedSlice}. */
export interface BoundedSlice {
	/** The longest prefix of the input within both bounds, cut on a code point boundary. */
	readonly text: string;
	/** True when `text` is shorter than the input. */
	readonly truncated: boolean;
	/** {@link countLines} of `text`. */
	readonly lines: number;
	/** UTF-8 bytes of `text`. */
	readonly bytes: number;
	/** Which bound cut the text, or `undefined` when nothing was cut. */
	readonly limitedBy: "lines" | "bytes" | undefined;
}

/**
 * Returns the longest prefix of `s` with at most `maxLines` lines and at most `maxBytes` UTF-8 bytes, never
 * splitting a code point. An omitted or infinite bound does not limit. Since lines are counted as
 * {@link countLines} does, a prefix cut by the line bound ends just before the `maxLines`-th break, without
 * that break. Non-integer bounds are truncated.
 */
export function boundedSlice(s: string, bounds: SliceBounds = {}): BoundedSlice {
	if (typeof s !== "string") return { text: "", truncated: false, lines: 0, bytes: 0, limitedBy: undefined };
	const maxLines = normalizeBound(bounds.maxLines, 1);
	const maxBytes = normalizeBound(bounds.maxBytes, 0);
	let bytes = 0;
	let breaks = 0;
	let i = 0;
	let limitedBy: "lines" | "bytes" | undefined;
	while (i < s.length) {
		const code = s.charCodeAt(i);
		if (code === 10 || code === 13) {
			if (breaks + 2 > maxLines) {
				limitedBy = "lines";
				break;
			}
		}
		const { bytes: size, units } = codePointAt(s, i);
		if (bytes + size > maxBytes) {
			limitedBy = "bytes";
			break;
		}
		bytes += size;
		if (code === 10 || (code === 13 && s.charCodeAt(i + 1) !== 10)) breaks++;
		else if (code === 13) {
			// A CRLF pair: the CR already forms a break on its own in a prefix, and the LF completes it.
			breaks++;
			if (bytes + 1 > maxBytes) {
				limitedBy = "bytes";
				i += units;
				break;
			}
			bytes += 1;
			i += 2;
			continue;
		}
		i += units;
	}
	const text = s.slice(0, i);
	return { text, truncated: i < s.length, lines: breaks + 1, bytes, limitedBy };
}

function normalizeBound(value: number | undefined, minimum: number): number {
	if (value === undefined || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
	if (typeof value !== "number" || Number.isNaN(value)) return minimum;
	return Math.max(minimum, Math.trunc(value));
}
