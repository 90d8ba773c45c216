import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	countContentLines,
	RECOVERY_MAX_LINES,
	sliceRecoveredRange,
	validateRecoverInput,
} from "../src/shunt/index.js";
import { utf8ByteLength } from "../src/text.js";
import { wellFormedText } from "./arbitraries.js";

const ID = "csa_0123456789abcdef01234567";
const CAP = 16384;

describe("validateRecoverInput", () => {
	it("pins lineLimit at 250 and 251", () => {
		expect(RECOVERY_MAX_LINES).toBe(250);
		expect(validateRecoverInput({ artifactId: ID, lineOffset: 1, lineLimit: 250 }, CAP)).toMatchObject({ ok: true });
		expect(validateRecoverInput({ artifactId: ID, lineOffset: 1, lineLimit: 251 }, CAP)).toEqual({
			ok: false,
			error: { code: "invalid-request", detail: "lineLimit: expected integer between 1 and 250" },
		});
	});

	it("pins maxBytes at the targeted byte limit and one more", () => {
		expect(validateRecoverInput({ artifactId: ID, byteOffset: 0, maxBytes: 16384 }, CAP).ok).toBe(true);
		expect(validateRecoverInput({ artifactId: ID, byteOffset: 0, maxBytes: 16385 }, CAP)).toMatchObject({
			ok: false,
			error: { code: "invalid-request" },
		});
	});

	it("defaults to the first 250 lines and to a whole byte window", () => {
		expect(validateRecoverInput({ artifactId: ID }, CAP)).toEqual({
			ok: true,
			value: { artifactId: ID, mode: "lines", lineOffset: 1, lineLimit: 250 },
		});
		expect(validateRecoverInput({ artifactId: ID, byteOffset: 5 }, CAP)).toEqual({
			ok: true,
			value: { artifactId: ID, mode: "bytes", byteOffset: 5, maxBytes: CAP },
		});
	});

	it.each([
		[{ artifactId: ID, lineOffset: 1, byteOffset: 0 }],
		[{ artifactId: ID, lineOffset: 0 }],
		[{ artifactId: ID, lineLimit: 0 }],
		[{ artifactId: ID, byteOffset: -1 }],
		[{ artifactId: ID, maxBytes: 0 }],
		[{ artifactId: ID, lineOffset: 1.5 }],
		[{ artifactId: "csa_../../etc/passwd" }],
		[{ artifactId: "/tmp/secret" }],
		[{}],
		[{ artifactId: ID, extra: 1 }],
		["nope"],
	])("rejects %j as invalid-request without echoing it", (input) => {
		const result = validateRecoverInput(input, CAP);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error.code).toBe("invalid-request");
			expect(result.error.detail ?? "").not.toMatch(/passwd|secret|tmp/);
		}
	});
});

describe("sliceRecoveredRange", () => {
	const text = "alpha\r\nbeta\rgamma\ndelta";

	it("returns whole lines with their terminators, 1-indexed", () => {
		const r = sliceRecoveredRange(text, { artifactId: ID, mode: "lines", lineOffset: 2, lineLimit: 2 }, CAP);
		expect(r).toMatchObject({ ok: true, value: { text: "beta\rgamma\n", startLine: 2, endLine: 3, totalLines: 4 } });
		expect(r.ok && r.value.byteStart).toBe(7);
	});

	it("rejects a start past the end", () => {
		expect(sliceRecoveredRange(text, { artifactId: ID, mode: "lines", lineOffset: 5, lineLimit: 1 }, CAP).ok).toBe(
			false,
		);
		expect(sliceRecoveredRange(text, { artifactId: ID, mode: "bytes", byteOffset: 23, maxBytes: 1 }, CAP).ok).toBe(
			false,
		);
		expect(
			sliceRecoveredRange(text, { artifactId: ID, mode: "bytes", byteOffset: 22, maxBytes: 9 }, CAP),
		).toMatchObject({
			ok: true,
			value: { text: "a" },
		});
	});

	it("takes one whole character where the window is narrower than it, so paging by byteEnd advances", () => {
		const s = "\u4e2d\u6587"; // two 3-byte characters
		const first = sliceRecoveredRange(s, { artifactId: ID, mode: "bytes", byteOffset: 0, maxBytes: 2 }, CAP);
		expect(first).toMatchObject({ ok: true, value: { text: "\u4e2d", byteStart: 0, byteEnd: 3 } });
		const next = sliceRecoveredRange(s, { artifactId: ID, mode: "bytes", byteOffset: 3, maxBytes: 1 }, CAP);
		expect(next).toMatchObject({ ok: true, value: { text: "\u6587", byteStart: 3, byteEnd: 6 } });
	});

	it("snaps byte ranges inward to code point boundaries", () => {
		const s = "a€b"; // bytes: a(0) €(1..3) b(4)
		expect(sliceRecoveredRange(s, { artifactId: ID, mode: "bytes", byteOffset: 2, maxBytes: 3 }, CAP)).toMatchObject({
			ok: true,
			value: { text: "b", byteStart: 4, byteEnd: 5 },
		});
		expect(sliceRecoveredRange(s, { artifactId: ID, mode: "bytes", byteOffset: 0, maxBytes: 3 }, CAP)).toMatchObject({
			ok: true,
			value: { text: "a", byteStart: 0, byteEnd: 1 },
		});
	});

	it("stops a line range at the byte cap on a whole line, and refuses a first line over the cap", () => {
		const long = `${"x".repeat(99)}\n`.repeat(300);
		const r = sliceRecoveredRange(long, { artifactId: ID, mode: "lines", lineOffset: 1, lineLimit: 250 }, 1000);
		expect(r).toMatchObject({ ok: true, value: { endLine: 10, cutByBytes: true } });
		expect(r.ok && utf8ByteLength(r.value.text)).toBe(1000);
		const wide = `${"y".repeat(2000)}\nshort\n`;
		expect(
			sliceRecoveredRange(wide, { artifactId: ID, mode: "lines", lineOffset: 1, lineLimit: 1 }, 1000),
		).toMatchObject({
			ok: false,
			error: { code: "invalid-request" },
		});
	});

	it("pages through any text in line ranges and in byte ranges, byte-identical", () => {
		fc.assert(
			fc.property(
				wellFormedText,
				fc.integer({ min: 1, max: 7 }),
				fc.integer({ min: 4, max: 20 }),
				(snapshot, lineLimit, maxBytes) => {
					if (snapshot.length === 0) return true;
					let byLines = "";
					for (let line = 1; line <= countContentLines(snapshot); line += lineLimit) {
						const r = sliceRecoveredRange(
							snapshot,
							{ artifactId: ID, mode: "lines", lineOffset: line, lineLimit },
							1 << 20,
						);
						if (!r.ok) return false;
						byLines += r.value.text;
					}
					let byBytes = "";
					let offset = 0;
					const total = utf8ByteLength(snapshot);
					while (offset < total) {
						const r = sliceRecoveredRange(
							snapshot,
							{ artifactId: ID, mode: "bytes", byteOffset: offset, maxBytes },
							1 << 20,
						);
						if (!r.ok) return false;
						byBytes += r.value.text;
						offset = r.value.byteEnd;
					}
					return byLines === snapshot && Buffer.from(byBytes).equals(Buffer.from(snapshot));
				},
			),
			{ numRuns: 300 },
		);
	});
});
