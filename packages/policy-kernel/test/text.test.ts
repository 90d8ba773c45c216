import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	boundedSlice,
	countContentLines,
	countLineBreaks,
	countLines,
	sliceBytes,
	sliceLines,
	splitLines,
	utf8ByteLength,
} from "../src/text.js";
import { anyText, isWellFormed, linedText, wellFormedText } from "./arbitraries.js";

const REPLACEMENT = "\uFFFD";
const runs = { numRuns: 500 };

describe("utf8ByteLength", () => {
	it.each([
		["", 0],
		["a", 1],
		["é", 2],
		["€", 3],
		["😀", 4],
		["\uD800", 3],
		["\uDC00", 3],
		["\uDC00\uD800", 6],
		["a\uD83D", 4],
	])("counts %j as %i bytes", (text, bytes) => {
		expect(utf8ByteLength(text)).toBe(bytes);
		expect(Buffer.byteLength(text, "utf8")).toBe(bytes);
	});

	it("equals Buffer.byteLength for arbitrary strings, lone surrogates included", () => {
		fc.assert(
			fc.property(anyText, (text) => utf8ByteLength(text) === Buffer.byteLength(text, "utf8")),
			runs,
		);
	});

	it("treats a non-string as 0 bytes", () => {
		expect(utf8ByteLength(undefined as unknown as string)).toBe(0);
	});
});

describe("countLines and splitLines", () => {
	it.each([
		["", 1, 0],
		["a", 1, 0],
		["a\n", 2, 1],
		["a\r\nb", 2, 1],
		["a\rb\nc", 3, 2],
		["\r\n\r\n", 3, 2],
		["\n\r", 3, 2],
		["\r\r\n", 3, 2],
	])("counts %j as %i lines with %i breaks", (text, lines, breaks) => {
		expect(countLines(text)).toBe(lines);
		expect(countLineBreaks(text)).toBe(breaks);
	});

	it("countLines equals split(/\\r\\n|\\r|\\n/).length", () => {
		fc.assert(
			fc.property(linedText, (text) => countLines(text) === text.split(/\r\n|\r|\n/).length),
			runs,
		);
		fc.assert(
			fc.property(anyText, (text) => countLines(text) === text.split(/\r\n|\r|\n/).length),
			runs,
		);
	});

	it("splitLines equals split(/\\r\\n|\\r|\\n/) and has countLines entries", () => {
		fc.assert(
			fc.property(linedText, (text) => {
				const lines = splitLines(text);
				expect(lines).toEqual(text.split(/\r\n|\r|\n/));
				expect(lines.length).toBe(countLines(text));
			}),
			runs,
		);
	});

	it("treats a non-string as no lines", () => {
		expect(countLines(null as unknown as string)).toBe(0);
		expect(splitLines(42 as unknown as string)).toEqual([]);
	});
});

describe("sliceBytes", () => {
	it("snaps a boundary inside a multi-byte sequence inward", () => {
		// h=0 é=1..2 l=3 l=4 o=5 😀=6..9 x=10
		const text = "héllo😀x";
		expect(sliceBytes(text, 2, 8)).toEqual({ text: "llo", start: 3, end: 6 });
		expect(sliceBytes(text, 0, 10)).toEqual({ text: "héllo😀", start: 0, end: 10 });
		expect(sliceBytes(text, 7, 9)).toEqual({ text: "", start: 10, end: 10 });
		expect(sliceBytes(text, 5)).toEqual({ text: "o😀x", start: 5, end: 11 });
	});

	it("clamps and truncates offsets", () => {
		expect(sliceBytes("abc", -5, 99)).toEqual({ text: "abc", start: 0, end: 3 });
		expect(sliceBytes("abc", 1.9, 2.9)).toEqual({ text: "b", start: 1, end: 2 });
		expect(sliceBytes("abc", 2, 1)).toEqual({ text: "", start: 2, end: 2 });
		expect(sliceBytes("abc", Number.NaN, Number.NaN)).toEqual({ text: "abc", start: 0, end: 3 });
		expect(sliceBytes(undefined as unknown as string, 0, 1)).toEqual({ text: "", start: 0, end: 0 });
	});

	it("returns a substring whose encoding is exactly the reported byte range", () => {
		fc.assert(
			fc.property(anyText, fc.nat(200), fc.nat(200), (text, a, b) => {
				const slice = sliceBytes(text, a, b);
				const encoded = Buffer.from(text, "utf8");
				expect(text.includes(slice.text)).toBe(true);
				expect(Buffer.from(slice.text, "utf8").equals(encoded.subarray(slice.start, slice.end))).toBe(true);
				expect(slice.end - slice.start).toBe(utf8ByteLength(slice.text));
				const from = Math.min(a, encoded.length);
				const to = Math.min(b, encoded.length);
				if (slice.text !== "") {
					expect(slice.start).toBeGreaterThanOrEqual(from);
					expect(slice.end).toBeLessThanOrEqual(to);
				}
			}),
			runs,
		);
	});

	it("never introduces U+FFFD into well-formed text", () => {
		fc.assert(
			fc.property(wellFormedText, fc.nat(200), fc.nat(200), (text, a, b) => {
				const slice = sliceBytes(text, a, b);
				if (!text.includes(REPLACEMENT)) expect(slice.text.includes(REPLACEMENT)).toBe(false);
				expect(isWellFormed(slice.text)).toBe(true);
				expect(Buffer.from(slice.text, "utf8").toString("utf8")).toBe(slice.text);
			}),
			runs,
		);
	});

	it("adjacent slices at a shared boundary concatenate to the whole", () => {
		fc.assert(
			fc.property(anyText, fc.nat(200), (text, cut) => {
				const head = sliceBytes(text, 0, cut);
				const tail = sliceBytes(text, head.end);
				expect(head.text + tail.text).toBe(text);
			}),
			runs,
		);
	});
});

describe("sliceLines", () => {
	it.each([
		["a\r\nb\rc\n", 2, 3, "b\rc\n"],
		["a\nb\nc", 1, 1, "a\n"],
		["a\nb\nc", 3, 3, "c"],
		["a\nb\n", 3, 3, ""],
		["a\nb\nc", 0, 99, "a\nb\nc"],
		["a\nb\nc", 2, 1, ""],
		["a\nb\nc", 9, 12, ""],
	])("slices %j lines %i..%i as %j", (text, from, to, expected) => {
		expect(sliceLines(text, from, to).text).toBe(expected);
	});

	it("reports the range used", () => {
		expect(sliceLines("a\nb\nc", 0, 99)).toEqual({ text: "a\nb\nc", startLine: 1, endLine: 3, totalLines: 3 });
		expect(sliceLines("a\nb\nc", 9, 12)).toEqual({ text: "", startLine: 4, endLine: 3, totalLines: 3 });
		expect(sliceLines("a\nb\nc", 2)).toEqual({ text: "b\nc", startLine: 2, endLine: 3, totalLines: 3 });
	});

	it("splitting at any line concatenates back to the original", () => {
		fc.assert(
			fc.property(linedText, fc.nat(40), (text, k) => {
				const total = countLines(text);
				const head = sliceLines(text, 1, k);
				const tail = sliceLines(text, k + 1, total);
				expect(head.text + tail.text).toBe(text);
				expect(sliceLines(text, 1, total).text).toBe(text);
			}),
			runs,
		);
	});

	it("each single line, without its terminator, is the matching splitLines entry", () => {
		fc.assert(
			fc.property(linedText, (text) => {
				const lines = splitLines(text);
				const rebuilt = lines.map((_, index) => sliceLines(text, index + 1, index + 1).text);
				expect(rebuilt.join("")).toBe(text);
				rebuilt.forEach((line, index) => {
					expect(line.replace(/(\r\n|\r|\n)$/, "")).toBe(lines[index]);
				});
			}),
			runs,
		);
	});
});

describe("boundedSlice", () => {
	it("cuts by lines before the maxLines-th break", () => {
		expect(boundedSlice("ab\r\ncd\ref\ngh", { maxLines: 3 })).toEqual({
			text: "ab\r\ncd\ref",
			truncated: true,
			lines: 3,
			bytes: 9,
			limitedBy: "lines",
		});
	});

	it("cuts by bytes on a code point boundary", () => {
		expect(boundedSlice("héllo😀x", { maxBytes: 7 })).toEqual({
			text: "héllo",
			truncated: true,
			lines: 1,
			bytes: 6,
			limitedBy: "bytes",
		});
	});

	it("keeps everything within the bounds", () => {
		expect(boundedSlice("a\nb", { maxLines: 2, maxBytes: 3 })).toEqual({
			text: "a\nb",
			truncated: false,
			lines: 2,
			bytes: 3,
			limitedBy: undefined,
		});
		expect(boundedSlice("a\nb").truncated).toBe(false);
		expect(boundedSlice("", { maxLines: 0, maxBytes: 0 }).text).toBe("");
		expect(boundedSlice("abc", { maxLines: 0 }).text).toBe("abc");
		expect(boundedSlice("a\nb", { maxLines: -3 }).text).toBe("a");
		expect(boundedSlice("abc", { maxBytes: -1 }).text).toBe("");
	});

	it("is the longest prefix within both bounds", () => {
		fc.assert(
			fc.property(
				anyText,
				fc.integer({ min: 1, max: 12 }),
				fc.integer({ min: 0, max: 120 }),
				(text, maxLines, maxBytes) => {
					const result = boundedSlice(text, { maxLines, maxBytes });
					expect(text.startsWith(result.text)).toBe(true);
					expect(result.lines).toBe(countLines(result.text));
					expect(result.bytes).toBe(utf8ByteLength(result.text));
					expect(result.lines).toBeLessThanOrEqual(maxLines);
					expect(result.bytes).toBeLessThanOrEqual(maxBytes);
					expect(result.truncated).toBe(result.text.length < text.length);
					if (result.truncated) {
						// The next code point would break a bound.
						const next = text.slice(0, result.text.length + (isPair(text, result.text.length) ? 2 : 1));
						expect(countLines(next) > maxLines || utf8ByteLength(next) > maxBytes).toBe(true);
						expect(result.limitedBy).toBeDefined();
					} else {
						expect(result.limitedBy).toBeUndefined();
					}
				},
			),
			runs,
		);
	});

	it("never splits a code point nor introduces U+FFFD", () => {
		fc.assert(
			fc.property(wellFormedText, fc.integer({ min: 0, max: 80 }), (text, maxBytes) => {
				const result = boundedSlice(text, { maxBytes });
				expect(isWellFormed(result.text)).toBe(true);
				if (!text.includes(REPLACEMENT)) expect(result.text.includes(REPLACEMENT)).toBe(false);
				expect(Buffer.from(text, "utf8").subarray(0, result.bytes).toString("utf8")).toBe(result.text);
			}),
			runs,
		);
	});
});

function isPair(text: string, index: number): boolean {
	const high = text.charCodeAt(index);
	const low = text.charCodeAt(index + 1);
	return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

describe("countContentLines", () => {
	it.each([
		["", 0],
		["a", 1],
		["a\n", 1],
		["a\r\n", 1],
		["a\r", 1],
		["a\nb", 2],
		["a\nb\n", 2],
		["\n", 1],
		["\n\n", 2],
	])("counts %j as %i lines", (text, lines) => {
		expect(countContentLines(text)).toBe(lines);
	});

	it("is the number of split segments, less an empty one after a final break", () => {
		fc.assert(
			fc.property(linedText, (text) => {
				const segments = text.split(/\r\n|\r|\n/);
				const expected = text === "" ? 0 : segments.at(-1) === "" ? segments.length - 1 : segments.length;
				return countContentLines(text) === expected;
			}),
		);
	});
});
