// Small text helpers shared by the minimize module: content text, one-line bounding, line counts, references.
import { isPlainObject } from "../config.js";
import { countContentLines, sliceBytes, utf8ByteLength } from "../text.js";

/** Joins the text blocks of a tool result or message content (a string is returned as is). Never throws. */
export function contentToText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (isPlainObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
	}
	return parts.join("\n");
}

/** The content blocks that are not text (for example images), kept as they are when text is replaced. */
export function nonTextBlocks(content: unknown): unknown[] {
	if (!Array.isArray(content)) return [];
	return content.filter((block) => !(isPlainObject(block) && block.type === "text"));
}

/**
 * Number of lines by text's `countContentLines` (`""` 0, `"a"` and `"a\n"` 1, `"a\nb"` 2). This is the convention of
 * pi-subagents' saved-output references, so a reused host reference and one written here agree.
 */
export const countOutputLines: (text: string) => number = countContentLines;

/**
 * Collapses `text` onto one line (breaks and tabs become spaces, control characters are dropped) and bounds
 * it to `maxBytes` UTF-8 bytes, ending with "…" when cut. Never splits a code point.
 */
export function boundOneLine(text: unknown, maxBytes: number): string {
	if (typeof text !== "string") return "";
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
	const flat = text.replace(/\r\n|\r|\n|\t/g, " ").replace(/[\u0000-\u001f\u007f]/g, "");
	const trimmed = flat.trim();
	if (utf8ByteLength(trimmed) <= maxBytes) return trimmed;
	const ellipsis = "…";
	return `${sliceBytes(trimmed, 0, Math.max(0, maxBytes - utf8ByteLength(ellipsis))).text}${ellipsis}`;
}

/**
 * The reference line for a saved output: `Output saved to: <path> (<bytes> bytes, <lines> lines). Read this
 * file if needed.` Bytes are exact UTF-8 bytes of the file; lines follow {@link countOutputLines}.
 */
export function formatOutputReference(path: string, bytes: number, lines: number): string {
	return `Output saved to: ${path} (${bytes} ${bytes === 1 ? "byte" : "bytes"}, ${lines} ${lines === 1 ? "line" : "lines"}). Read this file if needed.`;
}

/**
 * A safe file name for one saved output: `<seq>-<label>.md`, the sequence zero-padded to 4 digits and the
 * label reduced to lower-case `[a-z0-9._-]`, at most 48 characters (default `"child"`).
 */
export function outputFileName(seq: number, label: string): string {
	const n = Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
	const safe =
		(typeof label === "string" ? label : "")
			.toLowerCase()
			.replace(/[^a-z0-9._-]+/g, "-")
			.replace(/^[-.]+|[-.]+$/g, "")
			.slice(0, 48)
			.replace(/[-.]+$/g, "") || "child";
	return `${String(n).padStart(4, "0")}-${safe}.md`;
}

/** A session id reduced to a safe folder name: `[A-Za-z0-9_-]`, at most 128 characters (default `"session"`). */
export function outputSessionFolder(sessionId: unknown): string {
	if (typeof sessionId !== "string") return "session";
	const safe = sessionId.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 128);
	return safe.replace(/^-+|-+$/g, "") || "session";
}

/** UTF-8 bytes of `text`; a non-string counts as 0. */
export function textBytes(text: unknown): number {
	return typeof text === "string" ? utf8ByteLength(text) : 0;
}
