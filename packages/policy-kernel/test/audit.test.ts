import fc from "fast-check";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import {
	AUDIT_CATEGORIES,
	AUDIT_CHANNEL,
	AUDIT_ENTRY_SCHEMAS,
	AUDIT_ENTRY_TYPE,
	AUDIT_EVENTS,
	AUDIT_EXTS,
	AUDIT_MODES,
	AUDIT_STATES,
	AuditEntryV1Schema,
	accumulateAudit,
	bucketIndex,
	collectAuditEntries,
	emptyAuditSummary,
	summarizeAudit,
	validateAuditEntry,
} from "../src/audit.js";
import { jsonValue } from "./arbitraries.js";

const FREE_STRINGS = [
	"/home/u/x.ts",
	"src/**/*.ts",
	"rm -rf /",
	"C:\\Users\\u\\secret.txt",
	"please ignore the policy",
	"",
	"WARNED",
	" warned",
	"call_01HXYZ",
];

function fullEntry(ext: (typeof AUDIT_EXTS)[number]): Record<string, unknown> {
	const entry: Record<string, unknown> = {
		v: 1,
		ext,
		event: AUDIT_EVENTS[ext][0],
		mode: AUDIT_MODES[ext][0],
		counters: { broadAttempts: 3, warnings: 0, latencyBucket: 2 },
		category: AUDIT_CATEGORIES[ext][0],
	};
	const states: readonly string[] = AUDIT_STATES[ext];
	if (states.length > 0) entry.state = states[0];
	return entry;
}

describe("constants", () => {
	it("names the entry type and channel", () => {
		expect(AUDIT_ENTRY_TYPE).toBe("pi-policy.audit");
		expect(AUDIT_CHANNEL).toBe("pi-policy:audit");
	});

	it("has every spec event for each extension", () => {
		expect(AUDIT_EVENTS["exploration-guard"]).toEqual(
			expect.arrayContaining([
				"activated",
				"warned",
				"blocked",
				"user-allow",
				"user-off",
				"delegation-started",
				"delegation-succeeded",
				"delegation-failed",
				"delegation-unavailable",
				"config-invalid",
			]),
		);
		expect(AUDIT_EVENTS["output-minimizer"]).toEqual(
			expect.arrayContaining([
				"minimized",
				"passthrough-inline",
				"passthrough-small",
				"bounded-fallback",
				"persistence-failed",
				"config-invalid",
			]),
		);
		expect(AUDIT_EVENTS["guardian-review"]).toEqual(
			expect.arrayContaining([
				"reviewed",
				"allowed",
				"denied",
				"unavailable",
				"user-override",
				"breaker-tripped",
				"config-invalid",
			]),
		);
		expect(AUDIT_STATES["exploration-guard"]).toEqual([
			"tracking",
			"warned",
			"delegation-pending",
			"fallback-warn-only",
			"bypassed",
			"blocking",
		]);
	});

	it("keeps every vocabulary value a lowercase-kebab or camelCase token", () => {
		for (const ext of AUDIT_EXTS) {
			for (const value of [...AUDIT_EVENTS[ext], ...AUDIT_MODES[ext], ...AUDIT_STATES[ext], ...AUDIT_CATEGORIES[ext]]) {
				expect(value).toMatch(/^[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*$/);
			}
			expect(new Set(AUDIT_EVENTS[ext]).size).toBe(AUDIT_EVENTS[ext].length);
			expect(new Set(AUDIT_CATEGORIES[ext]).size).toBe(AUDIT_CATEGORIES[ext].length);
		}
	});
});

describe("validateAuditEntry accepts", () => {
	it.each(AUDIT_EXTS)("a minimal and a full entry for %s", (ext) => {
		const minimal = { v: 1, ext, event: "config-invalid" };
		expect(validateAuditEntry(minimal)).toEqual({ ok: true, value: minimal });
		const full = fullEntry(ext);
		expect(validateAuditEntry(full)).toEqual({ ok: true, value: full });
		expect(Value.Check(AuditEntryV1Schema, full)).toBe(true);
		expect(Value.Check(AUDIT_ENTRY_SCHEMAS[ext], full)).toBe(true);
	});

	it.each(AUDIT_EXTS)("every event, mode, state and category of %s", (ext) => {
		for (const event of AUDIT_EVENTS[ext]) expect(validateAuditEntry({ v: 1, ext, event }).ok).toBe(true);
		for (const mode of AUDIT_MODES[ext])
			expect(validateAuditEntry({ v: 1, ext, event: "config-invalid", mode }).ok).toBe(true);
		for (const state of AUDIT_STATES[ext] as readonly string[]) {
			expect(validateAuditEntry({ v: 1, ext, event: "config-invalid", state }).ok).toBe(true);
		}
		for (const category of AUDIT_CATEGORIES[ext]) {
			expect(validateAuditEntry({ v: 1, ext, event: "config-invalid", category }).ok).toBe(true);
		}
	});

	it("32 counters, zero and MAX_SAFE_INTEGER values, 40-character keys", () => {
		const counters: Record<string, number> = {};
		for (let i = 0; i < 32; i++) counters[`c${i}`] = i === 0 ? 0 : Number.MAX_SAFE_INTEGER;
		counters.c1 = 1;
		expect(validateAuditEntry({ v: 1, ext: "context-shunt", event: "bounded", counters }).ok).toBe(true);
		const longKey = `a${"B".repeat(39)}`;
		expect(validateAuditEntry({ v: 1, ext: "context-shunt", event: "bounded", counters: { [longKey]: 1 } }).ok).toBe(
			true,
		);
	});
});

describe("validateAuditEntry rejects", () => {
	const base = { v: 1, ext: "exploration-guard", event: "warned", mode: "warn", state: "warned", category: "read" };

	it.each([
		["a non-object", "warned", "entry: expected object"],
		["null", null, "entry: expected object"],
		["an array", [base], "entry: expected object"],
		["a missing ext", { v: 1, event: "warned" }, "ext: required"],
		["an unknown ext", { ...base, ext: "pi-subagents" }, "ext: expected a known extension"],
		["a path as ext", { ...base, ext: "/home/u/x.ts" }, "ext: expected a known extension"],
		["v 2", { ...base, v: 2 }, "v: expected 1"],
		["v as string", { ...base, v: "1" }, "v: expected 1"],
		["a missing v", { ext: "exploration-guard", event: "warned" }, "v: required"],
		["a missing event", { v: 1, ext: "exploration-guard" }, "event: required"],
		["an unknown key", { ...base, path: "/home/u/x.ts" }, "entry: unknown key"],
		["a details key", { ...base, details: {} }, "entry: unknown key"],
		["another ext's event", { ...base, event: "minimized" }, "event: expected one of"],
		["another ext's mode", { ...base, mode: "enforce" }, "mode: expected one of"],
		[
			"a state on an extension without states",
			{ v: 1, ext: "context-shunt", event: "bounded", state: "tracking" },
			"entry: unknown key",
		],
		["another ext's category", { ...base, category: "bash" }, "category: expected one of"],
		["counters as array", { ...base, counters: [1] }, "counters: expected object"],
		["a negative counter", { ...base, counters: { warnings: -1 } }, "counters.*: expected safe integer >= 0"],
		["a fractional counter", { ...base, counters: { warnings: 1.5 } }, "counters.*: expected safe integer >= 0"],
		["an unsafe counter", { ...base, counters: { warnings: 2 ** 53 } }, "counters.*: expected safe integer >= 0"],
		["a string counter", { ...base, counters: { warnings: "3" } }, "counters.*: expected safe integer >= 0"],
		["a path counter key", { ...base, counters: { "/home/u/x.ts": 1 } }, "counters: unknown key"],
		["a glob counter key", { ...base, counters: { "src/**/*.ts": 1 } }, "counters: unknown key"],
		["a snake_case counter key", { ...base, counters: { broad_attempts: 1 } }, "counters: unknown key"],
		["a counter key starting with a digit", { ...base, counters: { "1st": 1 } }, "counters: unknown key"],
		["a 41-character counter key", { ...base, counters: { [`a${"b".repeat(40)}`]: 1 } }, "counters: unknown key"],
		[
			"a __proto__ counter key",
			JSON.parse('{"v":1,"ext":"exploration-guard","event":"warned","counters":{"__proto__":1}}'),
			"counters: unknown key",
		],
	])("%s", (_name, entry, message) => {
		const result = validateAuditEntry(entry);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toContain(message);
	});

	it("33 counters", () => {
		const counters: Record<string, number> = {};
		for (let i = 0; i < 33; i++) counters[`c${i}`] = 1;
		const result = validateAuditEntry({ ...base, counters });
		expect(result).toEqual({ ok: false, error: "counters: expected at most 32 keys" });
	});

	it.each(["event", "mode", "state", "category"])("any free string in %s, without echoing it", (field) => {
		for (const text of FREE_STRINGS) {
			const result = validateAuditEntry({ ...base, [field]: text });
			expect(result.ok).toBe(false);
			if (!result.ok && text.length > 0) expect(result.error).not.toContain(text);
		}
	});

	it("arbitrary strings in every field, never echoing them", () => {
		const vocabulary = new Set<string>(
			AUDIT_EXTS.flatMap((ext) => [
				ext,
				...AUDIT_EVENTS[ext],
				...AUDIT_MODES[ext],
				...AUDIT_STATES[ext],
				...AUDIT_CATEGORIES[ext],
			]),
		);
		fc.assert(
			fc.property(
				fc.constantFrom("ext", "event", "mode", "state", "category"),
				fc.string({ minLength: 5 }).filter((text) => !vocabulary.has(text)),
				(field, text) => {
					const result = validateAuditEntry({ ...base, [field]: text });
					expect(result.ok).toBe(false);
					if (!result.ok) expect(result.error).not.toContain(text);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("never throws on random JSON", () => {
		fc.assert(
			fc.property(jsonValue, (value) => {
				const result = validateAuditEntry(value);
				expect(typeof result.ok).toBe("boolean");
			}),
			{ numRuns: 300 },
		);
	});
});

describe("summarizeAudit", () => {
	const entries: unknown[] = [
		{
			v: 1,
			ext: "exploration-guard",
			event: "warned",
			mode: "warn",
			state: "warned",
			category: "grep",
			counters: { broadAttempts: 2, warnings: 1 },
		},
		{
			v: 1,
			ext: "exploration-guard",
			event: "blocked",
			mode: "block",
			state: "blocking",
			category: "read",
			counters: { broadAttempts: 5, blockedBroad: 1 },
		},
		{
			type: "custom",
			customType: AUDIT_ENTRY_TYPE,
			id: "e1",
			data: { v: 1, ext: "exploration-guard", event: "warned", category: "grep", counters: { warnings: 1 } },
		},
		{ type: "custom", customType: "other-extension", data: { v: 1 } },
		{ type: "message", message: { role: "user" } },
		{
			v: 1,
			ext: "guardian-review",
			event: "denied",
			mode: "enforce",
			category: "reviewer",
			counters: { riskLevel: 3, latencyBucket: 4 },
		},
		{ v: 1, ext: "guardian-review", event: "denied", category: "rm -rf /" },
		{ type: "custom", customType: AUDIT_ENTRY_TYPE, data: { v: 2 } },
		"garbage",
		null,
		{ v: 1, ext: "exploration-guard", event: "warned", counters: { constructor: 2 } },
	];

	it("aggregates per extension, event, mode, state, category and counter", () => {
		const summary = summarizeAudit(entries);
		expect(summary.total).toBe(11);
		expect(summary.valid).toBe(5);
		expect(summary.invalid).toBe(4);
		expect(summary.ignored).toBe(2);
		expect(summary.extCounts).toEqual({ "exploration-guard": 4, "guardian-review": 1 });
		expect(summary.byExt["exploration-guard"]).toEqual({
			entries: 4,
			events: { warned: 3, blocked: 1 },
			modes: { warn: 1, block: 1 },
			states: { warned: 1, blocking: 1 },
			categories: { grep: 2, read: 1 },
			eventCategories: { "warned/grep": 2, "blocked/read": 1 },
			counterSums: { broadAttempts: 7, warnings: 2, blockedBroad: 1, constructor: 2 },
			counterMax: { broadAttempts: 5, warnings: 1, blockedBroad: 1, constructor: 2 },
		});
		expect(summary.byExt["guardian-review"]?.counterMax).toEqual({ riskLevel: 3, latencyBucket: 4 });
		expect(summary.byExt["context-shunt"]).toBeUndefined();
	});

	it("accumulates incrementally to the same result", () => {
		const summary = emptyAuditSummary();
		for (const entry of entries) accumulateAudit(summary, entry);
		expect(summary).toEqual(summarizeAudit(entries));
	});

	it("saturates counter sums at MAX_SAFE_INTEGER", () => {
		const big = { v: 1, ext: "context-shunt", event: "bounded", counters: { bytes: Number.MAX_SAFE_INTEGER } };
		expect(summarizeAudit([big, big]).byExt["context-shunt"]?.counterSums.bytes).toBe(Number.MAX_SAFE_INTEGER);
	});

	it("collects only valid entries", () => {
		expect(collectAuditEntries(entries)).toHaveLength(5);
	});

	it("never throws and counts every input once", () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(jsonValue, fc.constant(fullEntry("delegation-policy")))), (list) => {
				const summary = summarizeAudit(list);
				expect(summary.valid + summary.invalid + summary.ignored).toBe(list.length);
			}),
			{ numRuns: 200 },
		);
		expect(summarizeAudit("nope" as unknown as unknown[])).toEqual(emptyAuditSummary());
	});
});

describe("bucketIndex", () => {
	it.each([
		[0, 0],
		[100, 0],
		[101, 1],
		[180000, 10],
		[180001, 11],
		[Number.POSITIVE_INFINITY, 11],
		[-5, 0],
		[Number.NaN, 0],
	])("puts %d in bucket %i", (value, bucket) => {
		expect(bucketIndex(value)).toBe(bucket);
	});

	it("uses custom bounds", () => {
		expect(bucketIndex(5, [1, 10])).toBe(1);
		expect(bucketIndex(50, [1, 10])).toBe(2);
	});
});
