// The telemetry-gate report, wording and command parsing of exploration-guard.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	createExplorationGuardState,
	EXPLORATION_GUARD_DEFAULTS,
	EXPLORATION_GUARD_USAGE,
	EXPLORATION_NOTICES,
	type ExplorationAuditFields,
	type ExplorationGuardEvent,
	explorationActivatedFields,
	explorationBlockReason,
	explorationGateReport,
	parseExplorationGuardCommand,
	reduceExplorationGuard,
	renderExplorationGuardStatus,
} from "../src/exploration/index.js";
import { jsonValue } from "./arbitraries.js";

const WARN = { ...EXPLORATION_GUARD_DEFAULTS, mode: "warn" as const };
const BLOCK = { ...EXPLORATION_GUARD_DEFAULTS, mode: "block" as const };

let position = 0;
const broad = (): ExplorationGuardEvent => ({
	type: "broad-call",
	category: "grep",
	batch: { size: 1, position: ++position },
	delegationToolActive: true,
});
const launch: ExplorationGuardEvent[] = [
	{ type: "delegation-call", launch: true },
	{ type: "delegation-result", launch: true, isError: false },
];

/** The audit entries a session of these events writes, as the shell would (activated first). */
function sessionEntries(config: typeof WARN | typeof BLOCK, events: ExplorationGuardEvent[], child = false) {
	let state = createExplorationGuardState(config);
	const entries: Array<{ v: 1; ext: "exploration-guard" } & ExplorationAuditFields> = [
		{ v: 1, ext: "exploration-guard", ...explorationActivatedFields(state, child) },
	];
	for (const event of events) {
		const next = reduceExplorationGuard(state, event);
		state = next.state;
		for (const effect of next.effects)
			if (effect.type === "audit") entries.push({ v: 1, ext: "exploration-guard", ...effect.fields });
	}
	return entries;
}

function asSessionEntries(entries: unknown[], day: number) {
	return entries.map((data, i) => ({
		type: "custom",
		id: `e${i}`,
		parentId: null,
		timestamp: new Date(Date.UTC(2025, 0, 1 + day, 0, 0, i)).toISOString(),
		customType: "pi-policy.audit",
		data,
	}));
}

describe("explorationGateReport", () => {
	it("counts opportunities, residual share, warnings and bypasses per session", () => {
		const sessions = [
			// Warned, then four broad operations without delegating: reaches four.
			sessionEntries(WARN, [broad(), broad(), broad(), broad(), broad()]),
			// Warned, then delegated successfully before the fourth: does not reach four.
			sessionEntries(WARN, [broad(), broad(), ...launch, broad()]),
			// Warned twice (reset in between), the second episode reaches four; the user bypassed.
			sessionEntries(BLOCK, [
				broad(),
				broad(),
				...launch,
				broad(),
				broad(),
				broad(),
				broad(),
				broad(),
				{ type: "user-allow", count: 1 },
			]),
			// Never warned.
			sessionEntries(WARN, [broad()]),
		];
		const report = explorationGateReport(sessions);
		expect(report).toMatchObject({
			sessions: 4,
			rootSessions: 4,
			warnOnlySessions: 3,
			opportunities: 4,
			opportunitiesReachingFour: 2,
			residualShare: 0.5,
			warnings: 4,
			warnOnlyWarnings: 2,
			warningSessions: 3,
			bypassSessions: 1,
			blocked: 1,
			blockedOtherTools: 0,
			childActivations: 0,
			handlerErrors: 0,
			observedDays: null,
			go: false,
		});
		expect(report.bypassRate).toBeCloseTo(1 / 3);
		expect(report.criteria).toMatchObject({
			observedDays: null,
			opportunities: false,
			residualShare: true,
			warnOnlyCohort: false,
			bypassRate: false,
			noChildActivation: true,
			noHandlerException: true,
		});
	});

	it("reports bash-blocked pauses apart, and a blocked entry without a category still fails the gate", () => {
		const bashBlock = { ...BLOCK, bashBlock: true };
		const bash = (): ExplorationGuardEvent => ({ ...broad(), source: "bash" }) as ExplorationGuardEvent;
		const opted = sessionEntries(bashBlock, [bash(), bash(), bash(), bash(), bash(), broad()]);
		expect(opted.map((entry) => entry.event)).toContain("bash-blocked");
		const report = explorationGateReport([opted]);
		expect(report.bashBlocked).toBe(1);
		expect(report.blocked).toBe(1);
		expect(report.blockedOtherTools).toBe(0);
		expect(report.criteria.noBlockedOtherTool).toBe(true);
		// Without bashBlock, bash is counted and never blocked: the fifth isolated bash exploration runs.
		const plain = sessionEntries(BLOCK, [bash(), bash(), bash(), bash(), bash()]);
		expect(plain.map((entry) => entry.event)).not.toContain("bash-blocked");
		expect(explorationGateReport([plain]).blocked).toBe(0);
		// A blocked or bash-blocked entry that names no exploration category means something else was blocked.
		for (const event of ["blocked", "bash-blocked"]) {
			const bad = [...plain, { v: 1, ext: "exploration-guard", event, mode: "block", state: "blocking" }];
			const figures = explorationGateReport([bad]);
			expect(figures.blockedOtherTools).toBe(1);
			expect(figures.criteria.noBlockedOtherTool).toBe(false);
		}
	});

	it("splits a flat list at each activated entry and gives the same figures", () => {
		const sessions = [
			sessionEntries(WARN, [broad(), broad(), broad(), broad()]),
			sessionEntries(WARN, [broad(), broad(), ...launch]),
		];
		const grouped = explorationGateReport(sessions);
		const flat = explorationGateReport(sessions.flat());
		expect(flat).toEqual(grouped);
		expect(flat.opportunities).toBe(2);
		expect(flat.opportunitiesReachingFour).toBe(1);
	});

	it("counts child activations and handler exceptions, and they fail the gate", () => {
		const child = sessionEntries(WARN, [], true);
		const root = [
			...sessionEntries(WARN, [broad()]),
			{ v: 1, ext: "exploration-guard", event: "handler-error", mode: "warn" },
		];
		const report = explorationGateReport([child, root]);
		expect(report.childActivations).toBe(1);
		expect(report.rootSessions).toBe(1);
		expect(report.handlerErrors).toBe(1);
		expect(report.criteria.noChildActivation).toBe(false);
		expect(report.criteria.noHandlerException).toBe(false);
	});

	it("says go when every criterion holds, with days taken from session-entry timestamps", () => {
		const sessions: unknown[][] = [];
		for (let i = 0; i < 100; i++) {
			const events = i % 4 === 0 ? [broad(), broad(), broad(), broad()] : [broad(), broad(), ...launch];
			sessions.push(asSessionEntries(sessionEntries(WARN, events), Math.floor(i / 6)));
		}
		const report = explorationGateReport(sessions);
		expect(report.opportunities).toBe(100);
		expect(report.opportunitiesReachingFour).toBe(25);
		expect(report.residualShare).toBe(0.25);
		expect(report.warnOnlySessions).toBe(100);
		expect(report.observedDays).toBeGreaterThanOrEqual(14);
		expect(report.criteria).toEqual({
			observedDays: true,
			opportunities: true,
			residualShare: true,
			warnOnlyCohort: true,
			bypassRate: true,
			noChildActivation: true,
			noHandlerException: true,
			noBlockedOtherTool: true,
		});
		expect(report.go).toBe(true);
		// One bypass in 100 warning sessions is 1%, still within 5%; six is not.
		const withBypass = sessions.map((s, i) =>
			i < 6 ? [...s, { v: 1, ext: "exploration-guard", event: "user-off", mode: "warn", state: "bypassed" }] : s,
		);
		expect(explorationGateReport(withBypass).criteria.bypassRate).toBe(false);
	});

	it("ignores other extensions and other session entries, and counts invalid guard entries", () => {
		const report = explorationGateReport([
			{ type: "message", message: { role: "user", content: "hi" } },
			{ v: 1, ext: "guardian-review", event: "allowed" },
			{ v: 1, ext: "exploration-guard", event: "warned", path: "/secret" },
			{ v: 1, ext: "exploration-guard", event: "activated", mode: "warn", counters: { childSession: 0 } },
		]);
		expect(report.invalidEntries).toBe(1);
		expect(report.rootSessions).toBe(1);
	});

	it("never throws for any input", () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(jsonValue, fc.array(jsonValue, { maxLength: 5 })), { maxLength: 20 }), (inputs) => {
				const report = explorationGateReport(inputs);
				expect(report.sessions).toBeGreaterThanOrEqual(0);
			}),
			{ numRuns: 300 },
		);
		expect(explorationGateReport(null as never).sessions).toBe(0);
	});
});

describe("wording", () => {
	it("uses the spec's block reason, naming the delegation tool and the user command", () => {
		expect(explorationBlockReason(BLOCK)).toBe(
			"Exploration guard: repeated broad repo exploration is paused. Delegate the remaining survey with subagent, or ask the user to run /exploration-guard allow or off. Small targeted reads remain allowed.",
		);
		expect(explorationBlockReason({ delegationTool: "delegate" })).toContain("with delegate,");
	});

	it("renders status with mode, state, counters, next threshold and fallback", () => {
		let state = createExplorationGuardState(BLOCK);
		expect(renderExplorationGuardStatus(state)).toContain("Next threshold: nudge after 2 more broad operation(s)");
		for (let i = 0; i < 3; i++) state = reduceExplorationGuard(state, broad()).state;
		const text = renderExplorationGuardStatus(state);
		expect(text).toContain("mode block, state warned");
		expect(text).toContain("Next threshold: block after 1 more broad operation(s)");
		expect(text).toContain("attempts 3, allowed 3, blocked 0, warnings 1");
		expect(text).toContain("Fallback (warn-only): inactive");
		const fallback = reduceExplorationGuard(reduceExplorationGuard(state, broad()).state, {
			...broad(),
			delegationToolActive: false,
		} as ExplorationGuardEvent).state;
		expect(renderExplorationGuardStatus(fallback)).toContain("Fallback (warn-only): active");
		expect(renderExplorationGuardStatus(fallback)).toContain("Next threshold: none (warn-only)");
	});

	it("has short fixed notices", () => {
		for (const text of Object.values(EXPLORATION_NOTICES)) expect(text.length).toBeLessThan(160);
	});
});

describe("parseExplorationGuardCommand", () => {
	it.each([
		["", { action: "status" }],
		["status", { action: "status" }],
		["  STATUS ", { action: "status" }],
		["allow", { action: "allow", count: 1 }],
		["allow 1", { action: "allow", count: 1 }],
		["allow 2", { action: "allow", count: 2 }],
		["allow 20", { action: "allow", count: 20 }],
		["off", { action: "off" }],
	])("%j parses", (args, expected) => {
		expect(parseExplorationGuardCommand(args)).toEqual({ ok: true, value: expected });
	});

	it.each([
		["allow 0", "allow: expected an integer between 1 and 20"],
		["allow 21", "allow: expected an integer between 1 and 20"],
		["allow 1.5", "allow: expected an integer between 1 and 20"],
		["allow -1", "allow: expected an integer between 1 and 20"],
		["allow two", "allow: expected an integer between 1 and 20"],
		["allow 2 3", EXPLORATION_GUARD_USAGE],
		["off now", EXPLORATION_GUARD_USAGE],
		["status verbose", EXPLORATION_GUARD_USAGE],
		["disable /secret/path", EXPLORATION_GUARD_USAGE],
	])("%j is rejected without echoing it", (args, error) => {
		const result = parseExplorationGuardCommand(args);
		expect(result).toEqual({ ok: false, error });
		if (!result.ok) expect(result.error).not.toContain("secret");
	});

	it("rejects non-strings", () => {
		expect(parseExplorationGuardCommand(42).ok).toBe(false);
	});
});
