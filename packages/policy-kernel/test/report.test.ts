// policy-kernel/report: config, gate criteria, line classification, the streaming report, OTLP mapping, the
// session view and the renderings, table-driven.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AuditEntryV1 } from "../src/audit.ts";
import { explorationGateReport } from "../src/exploration/gate.ts";
import {
	addGateReport,
	addSessionToReport,
	approximateTokens,
	auditEntryFromAttributes,
	auditLogAttributes,
	buildSessionView,
	bytesKeptOutBy,
	classifySessionLine,
	createReport,
	emptyGateFigures,
	emptySavingsCursor,
	evaluateGate,
	finishReport,
	formatAuditEntryLine,
	formatCriterionValue,
	formatReportText,
	formatSessionView,
	type GateFigures,
	guardianDecisionsBySource,
	isSessionHash,
	isTelemetryEnabled,
	layoutBars,
	readOtlpLogsLine,
	renderReportHtml,
	reportToJson,
	resolvePolicyReportConfig,
	resolvePolicyReportLayers,
	sessionGateReport,
	sessionHashInput,
	utcDay,
} from "../src/report/index.ts";

/** The shell's session hash (node:crypto over the kernel's input), for building fixtures. */
function hashSessionId(id: string): string {
	return createHash("sha256").update(sessionHashInput(id)).digest("hex").slice(0, 16);
}

const guard = (event: string, extra: Record<string, unknown> = {}) =>
	({ v: 1, ext: "exploration-guard", event, mode: "warn", ...extra }) as AuditEntryV1;

const PASSING: GateFigures = {
	...emptyGateFigures(),
	sessions: 30,
	rootSessions: 30,
	warnOnlySessions: 30,
	opportunities: 100,
	opportunitiesReachingFour: 20,
	warnings: 100,
	warnOnlyWarnings: 100,
	warningSessions: 20,
	bypassSessions: 1,
};

describe("config", () => {
	it.each([
		[undefined, { entryRenderer: false, telemetry: { enabled: false, exportIntervalMs: 60_000 } }],
		[{}, { entryRenderer: false, telemetry: { enabled: false, exportIntervalMs: 60_000 } }],
		[{ entryRenderer: true }, { entryRenderer: true, telemetry: { enabled: false, exportIntervalMs: 60_000 } }],
		[
			{ $schema: "./schema.json", telemetry: { enabled: true, exportIntervalMs: 5000 } },
			{ entryRenderer: false, telemetry: { enabled: true, exportIntervalMs: 5000 } },
		],
	])("%j resolves", (raw, expected) => {
		expect(resolvePolicyReportConfig(raw)).toEqual({ ok: true, value: expected });
	});

	it.each([
		[{ entryRenderer: "yes" }, "entryRenderer"],
		[{ telemetry: { exportIntervalMs: 10 } }, "telemetry.exportIntervalMs"],
		[{ telemetry: { endpoint: "http://secret.example" } }, "telemetry"],
		[{ other: 1 }, "config"],
		["text", "config"],
	])("%j is rejected naming %s, never the value", (raw, key) => {
		const result = resolvePolicyReportConfig(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error).toContain(key);
			expect(result.error).not.toContain("secret.example");
		}
	});

	it("a trusted project file replaces the global one; a loader error wins", () => {
		expect(resolvePolicyReportLayers({ global: { entryRenderer: true }, project: {}, errors: [] })).toMatchObject({
			ok: true,
			value: { entryRenderer: false },
		});
		expect(resolvePolicyReportLayers({ global: {}, errors: ["global config: invalid JSON"] })).toEqual({
			ok: false,
			error: "global config: invalid JSON",
		});
	});

	it.each([
		[false, {}, false],
		[false, { PI_POLICY_ENABLE_TELEMETRY: "1" }, true],
		[false, { PI_POLICY_ENABLE_TELEMETRY: "true" }, true],
		[false, { PI_POLICY_ENABLE_TELEMETRY: "0" }, false],
		[false, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, false],
		[true, {}, true],
	])("telemetry: config %s, env %j → %s", (enabled, env, expected) => {
		const config = { entryRenderer: false, telemetry: { enabled, exportIntervalMs: 60_000 } };
		expect(isTelemetryEnabled(config, env)).toBe(expected);
	});
});

describe("gate criteria", () => {
	it("the passing figures pass every criterion", () => {
		const verdict = evaluateGate(PASSING, 14);
		expect(verdict.criteria.filter((c) => !c.pass)).toEqual([]);
		expect(verdict.pass).toBe(true);
	});

	it.each([
		["days", PASSING, 13.9],
		["days", PASSING, null],
		["opportunities", { ...PASSING, opportunities: 99, opportunitiesReachingFour: 20 }, 14],
		["residual-share", { ...PASSING, opportunitiesReachingFour: 19 }, 14],
		["warn-sessions", { ...PASSING, warnOnlySessions: 24 }, 14],
		["warnings", { ...PASSING, warnOnlyWarnings: 49 }, 14],
		["bypass-share", { ...PASSING, bypassSessions: 2 }, 14],
		["child-activations", { ...PASSING, childActivations: 1 }, 14],
		["handler-exceptions", { ...PASSING, handlerErrors: 1 }, 14],
		["blocked-other-tools", { ...PASSING, blockedOtherTools: 1 }, 14],
	] as const)("only %s fails just past its threshold", (id, figures, days) => {
		const verdict = evaluateGate(figures, days);
		expect(verdict.criteria.filter((c) => !c.pass).map((c) => c.id)).toEqual([id]);
		expect(verdict.pass).toBe(false);
	});

	it("summing per-session reports equals the kernel's report over the same sessions", () => {
		const a = [guard("activated", { counters: { childSession: 0 } }), guard("warned", { counters: { streak: 4 } })];
		const b = [guard("activated", { counters: { childSession: 0 } }), guard("warned"), guard("user-off")];
		const summed = addGateReport(addGateReport(emptyGateFigures(), sessionGateReport(a)), sessionGateReport(b));
		const whole = explorationGateReport([a, b]);
		for (const key of Object.keys(summed) as Array<keyof GateFigures>) expect(summed[key], key).toBe(whole[key]);
	});

	it.each([
		[{ id: "residual-share", value: 0.25 }, "25.0%"],
		[{ id: "days", value: 14.04 }, "14.0"],
		[{ id: "warnings", value: 50 }, "50"],
		[{ id: "bypass-share", value: null }, "n/a"],
	] as const)("%j is shown as %s", (criterion, text) => {
		expect(formatCriterionValue(criterion)).toBe(text);
	});
});

describe("session-file lines", () => {
	it.each([
		[
			{ type: "session", version: 3, id: "abc" },
			{ kind: "header", sessionId: "abc", known: true },
		],
		[
			{ type: "session", id: "abc" },
			{ kind: "header", sessionId: "abc", known: true },
		],
		[
			{ type: "session", version: 4, id: "abc" },
			{ kind: "header", sessionId: "abc", known: false },
		],
		[{ type: "message", message: {} }, { kind: "other" }],
		[{ type: "custom", customType: "other", data: {} }, { kind: "other" }],
		[
			{ type: "custom", customType: "pi-policy.audit", data: { v: 2, ext: "x" } },
			{ kind: "skip", reason: "unknown-version" },
		],
		[
			{ type: "custom", customType: "pi-policy.audit", data: { v: 1, ext: "exploration-guard", event: "nope" } },
			{ kind: "skip", reason: "invalid-entry" },
		],
		[[1, 2], { kind: "skip", reason: "invalid-entry" }],
	])("%j → %j", (line, expected) => {
		expect(classifySessionLine(line)).toEqual(expected);
	});

	it("an audit line keeps its entry and time", () => {
		const line = {
			type: "custom",
			customType: "pi-policy.audit",
			data: guard("warned"),
			timestamp: "2026-03-01T10:00:00.000Z",
		};
		expect(classifySessionLine(line)).toEqual({
			kind: "audit",
			entry: guard("warned"),
			time: Date.parse(line.timestamp),
		});
	});
});

describe("streaming report", () => {
	const t0 = Date.parse("2026-03-01T10:00:00Z");
	const day = 86_400_000;

	it("aggregates per extension, per day, per guardian source and bytes kept out", () => {
		const state = createReport();
		addSessionToReport(state, hashSessionId("one"), [
			{ entry: guard("activated", { counters: { childSession: 0 } }), time: t0 },
			{ entry: guard("warned"), time: t0 + 1000 },
			{
				entry: { v: 1, ext: "context-shunt", event: "bounded", category: "bash", counters: { bytes: 4000 } },
				time: t0 + 2000,
			},
			{
				entry: { v: 1, ext: "output-minimizer", event: "minimized", counters: { bytesKeptOutTotal: 100 } },
				time: t0 + 3000,
			},
			{
				entry: { v: 1, ext: "output-minimizer", event: "minimized", counters: { bytesKeptOutTotal: 250 } },
				time: t0 + day,
			},
		]);
		addSessionToReport(state, hashSessionId("two"), [
			{ entry: { v: 1, ext: "guardian-review", event: "denied", category: "floor" }, time: t0 + day },
			{ entry: { v: 1, ext: "guardian-review", event: "allowed", category: "reviewer" }, time: t0 + day },
			{ entry: { v: 1, ext: "guardian-review", event: "allowed", category: "floor" }, time: t0 + day },
		]);
		const report = finishReport(state);
		expect(report.sessions).toBe(2);
		expect(report.extensions["exploration-guard"]).toEqual({ activated: 1, warned: 1 });
		expect(report.bytesKeptOut).toBe(4250);
		expect(report.approxTokensKeptOut).toBe(1063);
		expect(report.days.map((d) => [d.day, d.sessions, d.bytesKeptOut])).toEqual([
			["2026-03-01", 1, 4100],
			["2026-03-02", 2, 150],
		]);
		expect(report.guardianDecisions).toEqual({ floor: { allowed: 1, denied: 1 }, reviewer: { allowed: 1, denied: 0 } });
		expect(report.observedDays).toBeCloseTo(1, 5);
		expect(report.topSessions.map((s) => s.entries)).toEqual([5, 3]);
		expect(Object.keys(reportToJson(report))).toEqual(["sessions", "skipped", "extensions", "gate"]);
	});

	it("the window drops records outside it, and records without a time when a window is set", () => {
		const state = createReport({ since: t0 + day, until: t0 + 2 * day });
		addSessionToReport(state, "a", [
			{ entry: guard("warned"), time: t0 },
			{ entry: guard("warned"), time: t0 + day },
			{ entry: guard("warned"), time: undefined },
		]);
		addSessionToReport(state, "b", [{ entry: guard("warned"), time: t0 + 3 * day }]);
		const report = finishReport(state);
		expect(report.sessions).toBe(1);
		expect(report.outsideWindow).toBe(3);
		expect(report.extensions["exploration-guard"]).toEqual({ warned: 1 });
	});

	it("an empty report fails the gate with unmeasurable days, and renders", () => {
		const report = finishReport(createReport());
		expect(report.observedDays).toBeNull();
		expect(report.gate.criteria[0]).toMatchObject({ id: "days", pass: false, value: null });
		expect(formatReportText(report)).toContain("Exploration gate: FAIL");
		expect(renderReportHtml(report)).toContain("no data");
	});

	it.each([
		[{ v: 1, ext: "output-minimizer", event: "minimized", counters: { bytesKeptOutTotal: 10 } }, 10],
		[{ v: 1, ext: "context-shunt", event: "bounded", counters: { bytes: 7 } }, 7],
		[{ v: 1, ext: "context-shunt", event: "recovered", counters: { bytes: 7 } }, 0],
		[{ v: 1, ext: "guardian-review", event: "allowed" }, 0],
	] as const)("bytesKeptOutBy(%j) = %d", (entry, bytes) => {
		expect(bytesKeptOutBy(entry as AuditEntryV1, emptySavingsCursor())).toBe(bytes);
	});

	it.each([
		[0, 0],
		[1, 1],
		[4, 1],
		[5, 2],
		[-3, 0],
		[Number.NaN, 0],
	])("approximateTokens(%d) = %d", (bytes, tokens) => {
		expect(approximateTokens(bytes)).toBe(tokens);
	});

	it("utcDay and guardianDecisionsBySource", () => {
		expect(utcDay(Date.parse("2026-03-01T23:59:59Z"))).toBe("2026-03-01");
		expect(guardianDecisionsBySource({ "denied/floor": 2, "reviewed/floor": 5, "allowed/user": 1 })).toEqual({
			floor: { allowed: 0, denied: 2 },
			user: { allowed: 1, denied: 0 },
		});
	});
});

describe("OTLP mapping", () => {
	const hash = hashSessionId("session-1");
	const entries: AuditEntryV1[] = [
		guard("warned", { state: "warned", category: "grep", counters: { streak: 3, warnings: 1 } }),
		{ v: 1, ext: "guardian-review", event: "denied", mode: "enforce", state: "armed", category: "floor" },
		{ v: 1, ext: "context-shunt", event: "config-invalid" },
	];

	it.each(entries)("%j round-trips through log attributes", (entry) => {
		const attributes = new Map(Object.entries(auditLogAttributes(entry, hash)));
		expect(auditEntryFromAttributes(attributes)).toEqual({ kind: "ok", entry, sessionHash: hash });
	});

	it.each([
		[{ "pi_policy.ext": "exploration-guard", "pi_policy.schema_version": 2 }, "unknown-version"],
		[{ "service.name": "x" }, "foreign"],
		[{ "pi_policy.ext": "exploration-guard", "pi_policy.schema_version": 1, "pi_policy.event": "warned" }, "invalid"],
		[
			{
				"pi_policy.ext": "exploration-guard",
				"pi_policy.schema_version": 1,
				"pi_policy.event": "warned",
				"session.id_hash": "/home/me",
			},
			"invalid",
		],
	])("%j is %s", (attributes, kind) => {
		expect(auditEntryFromAttributes(new Map(Object.entries(attributes))).kind).toBe(kind);
	});

	it("reads an OTLP/JSON logs line with int values as strings or numbers", () => {
		const attributes = (entry: AuditEntryV1, asString: boolean) =>
			Object.entries(auditLogAttributes(entry, hash)).map(([key, value]) => ({
				key,
				value: typeof value === "number" ? { intValue: asString ? String(value) : value } : { stringValue: value },
			}));
		const line = {
			resourceLogs: [
				{
					scopeLogs: [
						{
							logRecords: [
								{ timeUnixNano: "1772359200000000000", attributes: attributes(entries[0] as AuditEntryV1, true) },
								{ attributes: attributes(entries[1] as AuditEntryV1, false) },
								{ attributes: [{ key: "other", value: { stringValue: "x" } }] },
								"garbage",
							],
						},
					],
				},
			],
		};
		const result = readOtlpLogsLine(line);
		expect(result.records.map((r) => r.entry)).toEqual([entries[0], entries[1]]);
		expect(result.records[0]?.time).toBe(1772359200000);
		expect(result.records[1]?.time).toBeUndefined();
		expect({ invalid: result.invalid, foreign: result.foreign, unknown: result.unknownVersion }).toEqual({
			invalid: 1,
			foreign: 1,
			unknown: 0,
		});
		expect(readOtlpLogsLine({ resourceMetrics: [] }).records).toEqual([]);
	});

	it("session hashes are 16 hex characters, stable, and differ per id", () => {
		expect(isSessionHash(hash)).toBe(true);
		expect(hashSessionId("session-1")).toBe(hash);
		expect(hashSessionId("session-2")).not.toBe(hash);
	});
});

describe("session view and renderings", () => {
	const session = [
		{ type: "session", id: "x" },
		{ type: "custom", customType: "pi-policy.audit", data: guard("warned") },
		{ type: "custom", customType: "pi-policy.audit", data: guard("warned") },
		{
			type: "custom",
			customType: "pi-policy.audit",
			data: { v: 1, ext: "context-shunt", event: "bounded", mode: "enforce", counters: { bytes: 8000 } },
		},
		{
			type: "custom",
			customType: "pi-policy.audit",
			data: { v: 1, ext: "context-shunt", event: "mode-changed", mode: "off" },
		},
		{
			type: "custom",
			customType: "pi-policy.audit",
			data: { v: 1, ext: "guardian-review", event: "denied", category: "floor" },
		},
		{ type: "custom", customType: "pi-policy.audit", data: { v: 1, ext: "guardian-review", event: "breaker-tripped" } },
		{ type: "custom", customType: "pi-policy.audit", data: { v: 1, ext: "nobody", event: "x" } },
	];

	it("builds one row per suite extension with its facts", () => {
		const view = buildSessionView({ entries: session, loaded: ["output-minimizer"], liveEvents: 3 });
		const row = (ext: string) => view.extensions.find((e) => e.ext === ext);
		expect(view.entries).toBe(6);
		expect(view.invalidEntries).toBe(1);
		expect(view.bytesKeptOut).toBe(8000);
		expect(view.approxTokensKeptOut).toBe(2000);
		expect(row("exploration-guard")).toMatchObject({ loaded: true, active: true, mode: "warn" });
		expect(row("exploration-guard")?.facts.find((f) => f.label === "nudges")?.value).toBe(2);
		expect(row("context-shunt")).toMatchObject({ loaded: true, active: false, mode: "off" });
		expect(row("output-minimizer")).toMatchObject({ loaded: true, active: false, entries: 0 });
		expect(row("delegation-policy")).toMatchObject({ loaded: false, active: false });
		const guardian = row("guardian-review")?.facts ?? [];
		expect(guardian.find((f) => f.label === "denied by floor")?.value).toBe(1);
		expect(guardian.find((f) => f.label === "breaker trips")?.value).toBe(1);
		const text = formatSessionView(view).join("\n");
		expect(text).toContain("delegation-policy: not loaded");
		expect(text).toContain("context-shunt: inactive (mode off)");
		// Loaded with no entry and no mode: off until configured, or idle; not called active (a twenty-seventh review).
		expect(text).toContain("output-minimizer: loaded, no activity yet · 0 entries");
		expect(text).toContain("artifacts 1");
		expect(text).toContain("3 live events");
	});

	it.each([
		[
			guard("warned", { category: "grep", counters: { streak: 3 } }),
			false,
			"pi-policy · exploration-guard warned · mode warn · grep",
		],
		[
			guard("warned", { category: "grep", counters: { streak: 3 } }),
			true,
			"pi-policy · exploration-guard warned · mode warn · grep · streak=3",
		],
		[{ v: 1, ext: "x" }, false, undefined],
	])("formatAuditEntryLine(%j, %s)", (data, expanded, line) => {
		expect(formatAuditEntryLine(data, expanded)).toBe(line);
	});

	it.each([
		// The plot area is 164 px high (220 minus 16 above and 40 below).
		[[{ label: "a", value: 10, tone: "primary" as const }], 0, [164]],
		[
			[
				{ label: "a", value: 10, tone: "primary" as const },
				{ label: "b", value: 5, tone: "primary" as const },
				{ label: "c", value: 0, tone: "primary" as const },
			],
			0,
			[164, 82, 0],
		],
		[[{ label: "a", value: 1, tone: "pass" as const }], 2, [82]],
	])("layoutBars heights scale to the largest value or the marker", (bars, scaleMax, heights) => {
		const placed = layoutBars(bars, scaleMax);
		expect(placed.map((bar) => Math.round(bar.height))).toEqual(heights);
		for (const bar of placed) expect(bar.y + bar.height).toBeCloseTo(16 + 164);
	});

	it("the page escapes text and holds three charts", () => {
		const state = createReport();
		addSessionToReport(state, hashSessionId("s"), [
			{ entry: guard("warned"), time: Date.parse("2026-03-01T00:00:00Z") },
		]);
		const html = renderReportHtml(finishReport(state), { generatedAt: "<now>" });
		expect(html).toContain("&#60;now&#62;");
		expect(html.match(/<svg /g)).toHaveLength(3);
	});
});
