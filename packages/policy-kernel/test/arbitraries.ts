// Shared fast-check arbitraries for the kernel's property tests, and a collector of the strings they generate.
import fc from "fast-check";

/** Any single UTF-16 code unit, including lone surrogates. */
export const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Any code point, encoded as one or two UTF-16 units (never a lone surrogate unless it is one). */
export const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));

/** Line breaks in every flavour. */
export const lineBreak = fc.constantFrom("\n", "\r", "\r\n", "\n\r", "\r\r\n");

/** A string of arbitrary unicode, lone surrogates and line breaks of every kind. */
export const anyText = fc
	.array(
		fc.oneof(
			{ weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
			{ weight: 2, arbitrary: codePoint },
			{ weight: 1, arbitrary: codeUnit },
			{ weight: 2, arbitrary: lineBreak },
			{ weight: 2, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 6 }) },
		),
		{ maxLength: 40 },
	)
	.map((parts) => parts.join(""));

/** True when `text` has no lone surrogate. */
export function isWellFormed(text: string): boolean {
	return !/\p{Surrogate}/u.test(text);
}

/** A string with no lone surrogates (each replaced by "x"): well-formed UTF-16, free of U+FFFD unless generated. */
export const wellFormedText = anyText.map((text) => text.replace(/\p{Surrogate}/gu, "x"));

/** A line-heavy string: words separated by every kind of break. */
export const linedText = fc
	.array(fc.oneof(lineBreak, fc.string({ unit: "grapheme", maxLength: 5 }), codePoint), { maxLength: 30 })
	.map((parts) => parts.join(""));

/** An arbitrary JSON value. */
export const jsonValue = fc.jsonValue({ maxDepth: 4 });

/** Every string inside a JSON-like value, object keys included, in depth-first order. */
export function collectStrings(value: unknown, out: string[] = []): string[] {
	if (typeof value === "string") out.push(value);
	else if (Array.isArray(value)) for (const entry of value) collectStrings(entry, out);
	else if (typeof value === "object" && value !== null) {
		for (const [key, entry] of Object.entries(value)) {
			out.push(key);
			collectStrings(entry, out);
		}
	}
	return out;
}
