import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	buildReceipt,
	bumpShuntCounter,
	emptyShuntCounters,
	formatShuntStatus,
	latestValidMode,
	parseShuntCommand,
	planModeChange,
	SHUNT_COMMAND_USAGE,
	validateModeEntry,
} from "../src/shunt/index.js";
import { utf8ByteLength } from "../src/text.js";
import { anyText } from "./arbitraries.js";

const ID = "csa_0123456789abcdef01234567";

describe("parseShuntCommand", () => {
	it.each([
		["", { kind: "status" }],
		["status", { kind: "status" }],
		["off", { kind: "mode", mode: "off" }],
		[" observe ", { kind: "mode", mode: "observe" }],
		["enforce", { kind: "mode", mode: "enforce" }],
		["reset", { kind: "reset" }],
		["allow cst_0123456789ab 400 60000", { kind: "allow", token: "cst_0123456789ab", maxLines: 400, maxBytes: 60000 }],
		["allow cst_0123456789ab 1048576 1", { kind: "allow", token: "cst_0123456789ab", maxLines: 1048576, maxBytes: 1 }],
	])("parses %j", (args, expected) => {
		expect(parseShuntCommand(args)).toEqual({ ok: true, value: expected });
	});

	it.each([
		"loud",
		"enforce now",
		"allow",
		"allow cst_0123456789ab 400",
		"allow /etc/passwd 1 1",
		"allow cst_0123456789ab 0 10",
		"allow cst_0123456789ab 10 1048577",
		"allow cst_0123456789ab -1 10",
		"allow cst_0123456789ab 1e3 10",
		"allow cst_0123456789ab 10 10 extra",
	])("rejects %j without echoing it", (args) => {
		const result = parseShuntCommand(args);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).not.toMatch(/passwd|loud|now|extra|1e3/);
	});

	it("explains usage", () => {
		expect(parseShuntCommand("nope")).toEqual({ ok: false, error: SHUNT_COMMAND_USAGE });
	});
});

describe("mode entries", () => {
	it("accepts exactly { v: 1, mode }", () => {
		expect(validateModeEntry({ v: 1, mode: "enforce" }).ok).toBe(true);
		for (const bad of [
			{ v: 2, mode: "enforce" },
			{ v: 1, mode: "loud" },
			{ v: 1, mode: "off", extra: 1 },
			null,
			"enforce",
		]) {
			expect(validateModeEntry(bad).ok).toBe(false);
		}
	});

	it("restores only the latest valid entry", () => {
		expect(
			latestValidMode([
				{ v: 1, mode: "observe" },
				{ v: 1, mode: "enforce" },
			]),
		).toEqual({ mode: "enforce", skipped: 0 });
		expect(latestValidMode([{ v: 1, mode: "observe" }, { v: 9, mode: "enforce" }, "junk"])).toEqual({
			mode: "observe",
			skipped: 2,
		});
		expect(latestValidMode([{ v: 2 }])).toEqual({ mode: undefined, skipped: 1 });
		expect(latestValidMode([])).toEqual({ mode: undefined, skipped: 0 });
	});

	it("plans mode changes", () => {
		expect(planModeChange("off", "off").changed).toBe(false);
		expect(planModeChange("off", "observe")).toEqual({
			changed: true,
			persist: true,
			toolsActive: true,
			cancelReader: false,
			lapseExceptions: false,
		});
		expect(planModeChange("enforce", "off")).toMatchObject({
			toolsActive: false,
			cancelReader: true,
			lapseExceptions: true,
		});
		expect(planModeChange("enforce", "observe")).toMatchObject({ toolsActive: true, cancelReader: true });
	});
});

describe("buildReceipt", () => {
	const receipt = (text: string, previewLines = 10, offerReader = true) =>
		buildReceipt({
			artifactId: ID,
			source: "bash",
			bytes: utf8ByteLength(text),
			lines: 9999999,
			maxLines: 250,
			maxBytes: 16384,
			expiresAt: "2025-01-01T00:30:00.000Z",
			rangeBytes: 16384,
			offerReader,
			text,
			previewLines,
		});

	it("names the artifact, tool, size, expiry and both tools", () => {
		const text = receipt("first line\nsecond line\n");
		expect(text).toContain(ID);
		expect(text).toContain("This bash result");
		expect(text).toContain("2025-01-01T00:30:00.000Z");
		expect(text).toContain("context_shunt_recover");
		expect(text).toContain("context_shunt_delegate");
		expect(text).toContain("first line\nsecond line\n");
		expect(receipt("x", 10, false)).not.toContain("context_shunt_delegate");
		expect(receipt("first\nsecond", 0)).not.toContain("first");
	});

	it("stays within 2048 bytes with a preview of at most 1024 bytes and previewLines lines", () => {
		fc.assert(
			fc.property(anyText, fc.integer({ min: 0, max: 100 }), (body, previewLines) => {
				const text = body.repeat(200);
				const built = receipt(text, previewLines);
				const preview = built.split("Preview, first lines (untrusted data):\n")[1] ?? "";
				return utf8ByteLength(built) <= 2048 && utf8ByteLength(preview) <= 1024 && text.startsWith(preview);
			}),
			{ numRuns: 300 },
		);
		const wide = receipt(`${"é".repeat(5000)}\n`.repeat(20));
		expect(utf8ByteLength(wide)).toBeLessThanOrEqual(2048);
		expect(receipt("l\n".repeat(100), 10).split("Preview")[1]?.match(/l\n/g)).toHaveLength(9);
	});
});

describe("status", () => {
	it("shows the six counters and would-bound with counts only", () => {
		let counters = emptyShuntCounters();
		counters = bumpShuntCounter(counters, "blocked");
		counters = bumpShuntCounter(counters, "archiveFailures", 2);
		const text = formatShuntStatus({ mode: "enforce", counters, artifacts: 3, artifactBytes: 1234, reader: "ready" });
		expect(text).toContain("mode enforce");
		for (const label of [
			"blocked 1",
			"would-block 0",
			"bounded 0",
			"would-bound 0",
			"exceptions 0",
			"archive-failures 2",
			"uncovered 0",
		]) {
			expect(text).toContain(label);
		}
		expect(text).toContain("artifacts 3 (1234 bytes)");
	});
});
