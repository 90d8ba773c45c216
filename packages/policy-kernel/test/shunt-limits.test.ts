import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	checkResultLimits,
	countContentLines,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	DEFAULT_SHUNT_LIMITS,
	limitsForScope,
	parseReaderModelRef,
	resolveContextShuntConfig,
	resolveContextShuntLayers,
} from "../src/shunt/index.js";
import { countLineBreaks, countLines } from "../src/text.js";
import { anyText } from "./arbitraries.js";

const lines = (n: number, terminator = "\n") =>
	Array.from({ length: n }, (_, i) => `line ${i + 1}${terminator}`).join("");

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
		["a\r\nb\rc\n", 3],
	])("counts %j as %i lines", (text, expected) => {
		expect(countContentLines(text)).toBe(expected);
	});

	it("counts a 350-line file ending in a newline as 350 lines, where countLines says 351", () => {
		expect(countContentLines(lines(350))).toBe(350);
		expect(countLines(lines(350))).toBe(351);
		expect(countContentLines(lines(350).slice(0, -1))).toBe(350);
	});

	it("equals breaks, plus one for a non-empty text without a final break", () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const endsWithBreak = /[\r\n]$/.test(text);
				return countContentLines(text) === countLineBreaks(text) + (text.length > 0 && !endsWithBreak ? 1 : 0);
			}),
			{ numRuns: 500 },
		);
	});

	it("is additive over concatenation at a line boundary", () => {
		fc.assert(
			fc.property(anyText, anyText, (a, b) => {
				const head = `${a}\n`;
				return (
					countContentLines(head + b) ===
					countContentLines(head) + countContentLines(b) - (b.startsWith("\n") && head.endsWith("\r") ? 1 : 0)
				);
			}),
			{ numRuns: 300 },
		);
	});

	it("counts 0 for a non-string", () => {
		expect(countContentLines(undefined as unknown as string)).toBe(0);
	});
});

describe("checkResultLimits", () => {
	const full = limitsForScope(DEFAULT_SHUNT_LIMITS, "full");
	const targeted = limitsForScope(DEFAULT_SHUNT_LIMITS, "targeted");

	it("uses 350 lines / 16384 bytes for a full read and 250 / 16384 otherwise", () => {
		expect(full).toEqual({ maxLines: 350, maxBytes: 16384 });
		expect(targeted).toEqual({ maxLines: 250, maxBytes: 16384 });
	});

	it("pins 350 and 351 returned lines for a full read", () => {
		expect(checkResultLimits(lines(350), full).over).toBe(false);
		expect(checkResultLimits(lines(351), full)).toMatchObject({ over: true, exceeded: "lines", lines: 351 });
	});

	it("pins 250 and 251 returned lines for a targeted result", () => {
		expect(checkResultLimits(lines(250), targeted).over).toBe(false);
		expect(checkResultLimits(lines(251), targeted)).toMatchObject({ over: true, exceeded: "lines" });
	});

	it("pins 16384 and 16385 bytes, counting UTF-8", () => {
		expect(checkResultLimits("a".repeat(16384), targeted)).toMatchObject({ over: false, bytes: 16384, lines: 1 });
		expect(checkResultLimits("a".repeat(16385), targeted)).toMatchObject({ over: true, exceeded: "bytes" });
		// 5461 three-byte characters are 16383 bytes; one more two-byte character crosses to 16385.
		expect(checkResultLimits("€".repeat(5461), targeted).over).toBe(false);
		expect(checkResultLimits(`${"€".repeat(5461)}é`, targeted)).toMatchObject({ over: true, bytes: 16385 });
	});

	it("applies the line limit to the declared range when there is one", () => {
		const text = `${lines(10)}\n[340 more lines in file. Use offset=11 to continue.]`;
		expect(checkResultLimits(text, full, 10)).toMatchObject({ over: false, lines: 10, returnedLines: 12 });
		expect(checkResultLimits(lines(5), full, 351)).toMatchObject({ over: true, exceeded: "lines" });
		expect(checkResultLimits(lines(5), full, 350).over).toBe(false);
	});

	it("reports both when both are over", () => {
		expect(checkResultLimits(lines(2000), targeted).exceeded).toBe("both");
	});
});

describe("resolveContextShuntConfig", () => {
	it("gives the defaults for a missing or empty layer", () => {
		expect(resolveContextShuntConfig(undefined)).toEqual({ ok: true, value: DEFAULT_CONTEXT_SHUNT_CONFIG });
		const empty = resolveContextShuntConfig({});
		expect(empty.ok && empty.value).toMatchObject({
			enabled: true,
			mode: "off",
			limits: { fullReadLines: 350, fullReadBytes: 16384, targetedReadLines: 250, targetedReadBytes: 16384 },
			previewLines: 10,
			reader: { enabled: false, source: { kind: "none" }, answerMaxBytes: 8192, timeoutMs: 120000 },
		});
	});

	it.each(["fullReadLines", "fullReadBytes", "targetedReadLines", "targetedReadBytes"])(
		"accepts %s from 1 to 1 MiB and rejects 0 and 1 MiB + 1",
		(key) => {
			expect(resolveContextShuntConfig({ [key]: 1 }).ok).toBe(true);
			expect(resolveContextShuntConfig({ [key]: 1_048_576 }).ok).toBe(true);
			const low = resolveContextShuntConfig({ [key]: 0 });
			const high = resolveContextShuntConfig({ [key]: 1_048_577 });
			expect(low).toEqual({ ok: false, error: `${key}: expected integer between 1 and 1048576` });
			expect(high.ok).toBe(false);
			expect(resolveContextShuntConfig({ [key]: 2.5 }).ok).toBe(false);
		},
	);

	it("pins answerMaxBytes at 1024..16384 and timeoutMs at 1000..600000", () => {
		for (const value of [1024, 8192, 16384])
			expect(resolveContextShuntConfig({ reader: { answerMaxBytes: value } }).ok).toBe(true);
		for (const value of [1023, 16385]) {
			expect(resolveContextShuntConfig({ reader: { answerMaxBytes: value } })).toEqual({
				ok: false,
				error: "reader.answerMaxBytes: expected integer between 1024 and 16384",
			});
		}
		expect(resolveContextShuntConfig({ reader: { timeoutMs: 1000 } }).ok).toBe(true);
		expect(resolveContextShuntConfig({ reader: { timeoutMs: 999 } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ reader: { timeoutMs: 600000 } }).ok).toBe(true);
		expect(resolveContextShuntConfig({ reader: { timeoutMs: 600001 } }).ok).toBe(false);
	});

	it("pins previewLines at 0..100", () => {
		expect(resolveContextShuntConfig({ previewLines: 0 }).ok).toBe(true);
		expect(resolveContextShuntConfig({ previewLines: 100 }).ok).toBe(true);
		expect(resolveContextShuntConfig({ previewLines: 101 }).ok).toBe(false);
		expect(resolveContextShuntConfig({ previewLines: -1 }).ok).toBe(false);
	});

	it("resolves the reader model or role, never both", () => {
		const model = resolveContextShuntConfig({ reader: { enabled: true, model: "faux/faux-reader" } });
		expect(model.ok && model.value.reader.source).toEqual({ kind: "model", provider: "faux", model: "faux-reader" });
		const role = resolveContextShuntConfig({ reader: { role: "small" } });
		expect(role.ok && role.value.reader.source).toEqual({ kind: "role", role: "small" });
		expect(resolveContextShuntConfig({ reader: { model: "a/b", role: "small" } })).toEqual({
			ok: false,
			error: "reader: set model or role, not both",
		});
		expect(resolveContextShuntConfig({ reader: { model: "no-slash" } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ reader: { role: "advisor" } }).ok).toBe(false);
		expect(parseReaderModelRef("openrouter/meta/llama-3.1:8b")).toEqual({
			provider: "openrouter",
			model: "meta/llama-3.1:8b",
		});
	});

	it("rejects unknown keys and wrong types without echoing values", () => {
		const result = resolveContextShuntConfig({ mode: "/secret/path", extra: "/secret/other" });
		expect(result.ok).toBe(false);
		expect(JSON.stringify(result)).not.toContain("secret");
	});

	it("merges a project layer over the global one, and names the failing layer", () => {
		const merged = resolveContextShuntLayers({
			global: { mode: "observe", reader: { enabled: true } },
			project: { mode: "enforce" },
		});
		expect(merged.ok && merged.value.mode).toBe("enforce");
		expect(merged.ok && merged.value.reader.enabled).toBe(true);
		expect(resolveContextShuntLayers({ global: {}, project: { mode: "loud" } })).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^project config: mode/),
		});
		expect(resolveContextShuntLayers({}).ok).toBe(true);
	});
});
