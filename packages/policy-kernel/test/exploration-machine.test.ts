// The exploration-guard reducer: scripted event tables and properties (total, privacy-free, never blocks batches).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateAuditEntry } from "../src/audit.js";
import {
	createExplorationGuardState,
	EXPLORATION_GUARD_DEFAULTS,
	type ExplorationGuardConfig,
	type ExplorationGuardEffect,
	type ExplorationGuardEvent,
	type ExplorationGuardState,
	explorationActivatedFields,
	explorationGuardStateName,
	MAX_USER_ALLOWANCE,
	reduceExplorationGuard,
} from "../src/exploration/index.js";

const WARN: ExplorationGuardConfig = { ...EXPLORATION_GUARD_DEFAULTS, mode: "warn" };
const BLOCK: ExplorationGuardConfig = { ...EXPLORATION_GUARD_DEFAULTS, mode: "block" };

let position = 100;
/** An isolated broad call (a one-call assistant message at a new branch position). */
function isolated(category: "read" | "grep" | "find" | "ls" = "grep", active = true): ExplorationGuardEvent {
	position += 3;
	return { type: "broad-call", category, batch: { size: 1, position }, delegationToolActive: active };
}

interface Run {
	state: ExplorationGuardState;
	effects: ExplorationGuardEffect[][];
}

function run(config: ExplorationGuardConfig, events: ExplorationGuardEvent[]): Run {
	let state = createExplorationGuardState(config);
	const effects: ExplorationGuardEffect[][] = [];
	for (const event of events) {
		const next = reduceExplorationGuard(state, event);
		state = next.state;
		effects.push([...next.effects]);
	}
	return { state, effects };
}

const blocked = (effects: ExplorationGuardEffect[]) => effects.some((e) => e.type === "block");
const nudges = (all: ExplorationGuardEffect[][]) => all.flat().filter((e) => e.type === "nudge").length;
const auditEvents = (all: ExplorationGuardEffect[][]) =>
	all.flat().flatMap((e) => (e.type === "audit" ? [e.fields.event] : []));

describe("reduceExplorationGuard", () => {
	it("starts in tracking with zero counters", () => {
		const state = createExplorationGuardState(WARN);
		expect(explorationGuardStateName(state)).toBe("tracking");
		expect(state.streak).toBe(0);
		expect(Object.values(state.counters).every((v) => v === 0)).toBe(true);
	});

	it("warns exactly once at warnAfter with defaults, and never blocks in warn mode", () => {
		const { state, effects } = run(
			WARN,
			Array.from({ length: 12 }, () => isolated()),
		);
		expect(nudges(effects)).toBe(1);
		expect(effects[1]?.map((e) => e.type)).toEqual(["nudge", "notify", "audit"]);
		expect(effects[0]).toEqual([]);
		expect(effects.some(blocked)).toBe(false);
		expect(explorationGuardStateName(state)).toBe("warned");
		expect(state.counters).toMatchObject({ broadAttempts: 12, allowedBroad: 12, warnings: 1, blockedBroad: 0 });
		expect(auditEvents(effects)).toEqual(["warned", "threshold-reached"]);
	});

	it("in block mode allows four and blocks the fifth isolated call, and the ones after", () => {
		const { state, effects } = run(
			BLOCK,
			Array.from({ length: 7 }, () => isolated()),
		);
		expect(effects.map(blocked)).toEqual([false, false, false, false, true, true, true]);
		expect(nudges(effects)).toBe(1);
		expect(explorationGuardStateName(state)).toBe("blocking");
		expect(state.counters).toMatchObject({ broadAttempts: 7, allowedBroad: 4, blockedBroad: 3 });
		expect(auditEvents(effects)).toEqual(["warned", "threshold-reached", "blocked", "blocked", "blocked"]);
		const blockedAudit = effects[4]?.find((e) => e.type === "audit");
		expect(blockedAudit?.type === "audit" && blockedAudit.fields).toMatchObject({
			event: "blocked",
			mode: "block",
			state: "blocking",
			category: "grep",
			counters: { streak: 5, blockedBroad: 1 },
		});
	});

	it("honours custom thresholds", () => {
		const config = { ...BLOCK, warnAfter: 1, blockAfter: 2 };
		const { effects } = run(config, [isolated(), isolated(), isolated()]);
		expect(effects.map(blocked)).toEqual([false, false, true]);
		expect(effects[0]?.some((e) => e.type === "nudge")).toBe(true);
	});

	it("counts a multi-tool batch once and never blocks it", () => {
		const events: ExplorationGuardEvent[] = [isolated(), isolated(), isolated(), isolated()];
		for (let i = 0; i < 3; i++) {
			events.push({
				type: "broad-call",
				category: "grep",
				batch: { size: 3, position: 500 },
				delegationToolActive: true,
			});
		}
		events.push({ type: "broad-call", category: "ls", batch: { size: 2, position: 600 }, delegationToolActive: true });
		const { state, effects } = run(BLOCK, events);
		expect(effects.slice(4).map(blocked)).toEqual([false, false, false, false]);
		// The first batch counted once (streak 5), the second batch once (streak 6).
		expect(state.streak).toBe(6);
		expect(state.counters.broadAttempts).toBe(6);
		// The next isolated call is still blocked.
		expect(blocked([...reduceExplorationGuard(state, isolated()).effects])).toBe(true);
	});

	it("never blocks when the batch could not be read", () => {
		const events = Array.from(
			{ length: 8 },
			(): ExplorationGuardEvent => ({
				type: "broad-call",
				category: "read",
				batch: undefined,
				delegationToolActive: true,
			}),
		);
		const { effects, state } = run(BLOCK, events);
		expect(effects.some(blocked)).toBe(false);
		expect(state.streak).toBe(8);
	});

	it("resets the streak and the warning latch after a successful launch", () => {
		const { state, effects } = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: false },
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			isolated(),
		]);
		expect(effects.map(blocked)).toEqual([false, false, false, false, false, false, false, false, false, true]);
		expect(nudges(effects)).toBe(2);
		expect(state.counters).toMatchObject({ delegationsStarted: 1, delegationsSucceeded: 1 });
		expect(auditEvents(effects)).toEqual([
			"warned",
			"delegation-started",
			"delegation-succeeded",
			"warned",
			"threshold-reached",
			"blocked",
		]);
	});

	it("reports delegation-pending while a launch waits for its result, and never blocks then", () => {
		const start = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			{ type: "delegation-call", launch: true },
		]);
		expect(explorationGuardStateName(start.state)).toBe("delegation-pending");
		const sibling = reduceExplorationGuard(start.state, isolated());
		expect(blocked([...sibling.effects])).toBe(false);
		const ended = reduceExplorationGuard(start.state, { type: "turn-end" });
		expect(ended.state.pendingLaunches).toBe(0);
		expect(ended.effects).toEqual([]);
		expect(explorationGuardStateName(ended.state)).toBe("warned");
	});

	it("does not reset on management calls such as list", () => {
		const { state, effects } = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			{ type: "delegation-call", launch: false },
			{ type: "delegation-result", launch: false, isError: false },
			isolated(),
		]);
		expect(blocked(effects[6] ?? [])).toBe(true);
		expect(state.counters.delegationsStarted).toBe(0);
		expect(effects[4]).toEqual([]);
		expect(effects[5]).toEqual([]);
	});

	it("falls back to warn-only when the delegation tool is not active", () => {
		const { state, effects } = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			isolated("grep", false),
			isolated(),
			isolated(),
		]);
		expect(effects.some(blocked)).toBe(false);
		expect(explorationGuardStateName(state)).toBe("fallback-warn-only");
		expect(state.counters.delegationUnavailable).toBe(1);
		expect(auditEvents(effects)).toEqual(["warned", "threshold-reached", "delegation-unavailable"]);
		expect(effects[4]?.some((e) => e.type === "notify" && e.notice === "fallback-unavailable")).toBe(true);
	});

	it("falls back to warn-only when a delegated launch fails, but keeps warning after a later reset", () => {
		const { state, effects } = run(BLOCK, [
			isolated(),
			isolated(),
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: true },
			isolated(),
			isolated(),
			isolated(),
			isolated(),
		]);
		expect(effects.some(blocked)).toBe(false);
		expect(explorationGuardStateName(state)).toBe("fallback-warn-only");
		expect(state.counters.delegationsFailed).toBe(1);
		expect(effects[3]?.some((e) => e.type === "notify" && e.notice === "fallback-failed")).toBe(true);
		// Still counting and recording.
		expect(state.counters.broadAttempts).toBe(6);
		const after = run(BLOCK, [
			isolated(),
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: true },
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: false },
			isolated(),
			isolated(),
		]);
		expect(nudges(after.effects)).toBe(1);
	});

	it("allow N permits exactly N otherwise-blocked calls", () => {
		const { effects, state } = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			{ type: "user-allow", count: 2 },
			isolated(),
			isolated(),
			isolated(),
		]);
		expect(effects.map(blocked)).toEqual([false, false, false, false, true, false, false, false, true]);
		expect(state.counters).toMatchObject({ userAllowed: 2, allowanceGranted: 2 });
		expect(state.allowance).toBe(0);
	});

	it("banks allowance up to 20 and ignores invalid counts", () => {
		let state = createExplorationGuardState(BLOCK);
		state = reduceExplorationGuard(state, { type: "user-allow", count: 15 }).state;
		state = reduceExplorationGuard(state, { type: "user-allow", count: 15 }).state;
		expect(state.allowance).toBe(MAX_USER_ALLOWANCE);
		for (const count of [0, 21, 1.5, -1, Number.NaN]) {
			const result = reduceExplorationGuard(state, { type: "user-allow", count });
			expect(result.state).toBe(state);
			expect(result.effects).toEqual([]);
		}
	});

	it("off bypasses everything for the rest of the session", () => {
		const { state, effects } = run(BLOCK, [
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			isolated(),
			{ type: "user-off" },
			isolated(),
			isolated(),
			{ type: "delegation-call", launch: true },
		]);
		expect(effects.slice(6).some(blocked)).toBe(false);
		expect(effects.slice(6).flat()).toEqual([]);
		expect(explorationGuardStateName(state)).toBe("bypassed");
		expect(auditEvents(effects).at(-1)).toBe("user-off");
	});

	it("ignores malformed events", () => {
		const state = createExplorationGuardState(BLOCK);
		for (const event of [null, {}, { type: "nope" }, { type: "broad-call", category: "bash" }] as unknown[]) {
			const result = reduceExplorationGuard(state, event as ExplorationGuardEvent);
			expect(result.state).toBe(state);
			expect(result.effects).toEqual([]);
		}
	});

	const eventArb: fc.Arbitrary<ExplorationGuardEvent> = fc.oneof(
		{
			weight: 6,
			arbitrary: fc.record({
				type: fc.constant("broad-call" as const),
				category: fc.constantFrom("read" as const, "grep" as const, "find" as const, "ls" as const),
				batch: fc.option(
					fc.record({ size: fc.integer({ min: 1, max: 4 }), position: fc.integer({ min: 0, max: 30 }) }),
					{
						nil: undefined,
					},
				),
				delegationToolActive: fc.boolean(),
			}),
		},
		{ weight: 1, arbitrary: fc.record({ type: fc.constant("delegation-call" as const), launch: fc.boolean() }) },
		{
			weight: 1,
			arbitrary: fc.record({
				type: fc.constant("delegation-result" as const),
				launch: fc.boolean(),
				isError: fc.boolean(),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({ type: fc.constant("user-allow" as const), count: fc.integer({ min: -2, max: 25 }) }),
		},
		{ weight: 1, arbitrary: fc.constant({ type: "turn-end" as const }) },
		{ weight: 1, arbitrary: fc.constant({ type: "user-off" as const }) },
	);

	it("never blocks in warn mode, never blocks a batch, warns at most once per streak, and audits only valid entries", () => {
		fc.assert(
			fc.property(fc.constantFrom(WARN, BLOCK), fc.array(eventArb, { maxLength: 60 }), (config, events) => {
				let state = createExplorationGuardState(config);
				let nudgesThisStreak = 0;
				for (const event of events) {
					const { state: next, effects } = reduceExplorationGuard(state, event);
					const didBlock = effects.some((e) => e.type === "block");
					if (didBlock) {
						expect(config.mode).toBe("block");
						expect(event.type).toBe("broad-call");
						if (event.type === "broad-call") expect(event.batch?.size).toBe(1);
						expect(state.fallback || state.bypassed).toBe(false);
						expect(next.streak).toBeGreaterThan(config.blockAfter);
					}
					if (next.streak < state.streak) nudgesThisStreak = 0;
					nudgesThisStreak += effects.filter((e) => e.type === "nudge").length;
					expect(nudgesThisStreak).toBeLessThanOrEqual(1);
					for (const effect of effects) {
						if (effect.type !== "audit") continue;
						const entry = { v: 1, ext: "exploration-guard", ...effect.fields };
						expect(validateAuditEntry(entry).ok).toBe(true);
						expect(Object.keys(effect.fields.counters).length).toBeLessThanOrEqual(32);
					}
					expect(next.allowance).toBeGreaterThanOrEqual(0);
					expect(next.allowance).toBeLessThanOrEqual(MAX_USER_ALLOWANCE);
					expect(next.pendingLaunches).toBeGreaterThanOrEqual(0);
					state = next;
				}
			}),
			{ numRuns: 400 },
		);
	});

	it("builds a valid activated entry with the child flag", () => {
		const state = createExplorationGuardState(BLOCK);
		const root = explorationActivatedFields(state, false);
		const child = explorationActivatedFields(state, true);
		expect(root).toMatchObject({ event: "activated", mode: "block", state: "tracking", counters: { childSession: 0 } });
		expect(child.counters.childSession).toBe(1);
		expect(validateAuditEntry({ v: 1, ext: "exploration-guard", ...child }).ok).toBe(true);
	});
});

describe("bash, code mode and context pressure", () => {
	type BroadCall = Extract<ExplorationGuardEvent, { type: "broad-call" }>;
	const broadCall = (category: "read" | "grep" | "find" | "ls" = "grep", active = true): BroadCall =>
		isolated(category, active) as BroadCall;
	const BASH_BLOCK: ExplorationGuardConfig = { ...BLOCK, bashBlock: true };
	const PRESSURE: ExplorationGuardConfig = { ...WARN, nudgeAtContextShare: 0.5 };
	const bash = (active = true): BroadCall => ({ ...broadCall("grep", active), source: "bash" });
	const nested = (parentPosition: number, index = 0, category: "read" | "grep" = "read"): BroadCall => ({
		type: "broad-call",
		category,
		batch: { size: 1, position: parentPosition, index },
		delegationToolActive: true,
		source: "nested",
	});

	it("counts bash exploration toward the streak and nudge, and never blocks it without bashBlock", () => {
		const { state, effects } = run(
			BLOCK,
			Array.from({ length: 8 }, () => bash()),
		);
		expect(nudges(effects)).toBe(1);
		expect(effects.some(blocked)).toBe(false);
		expect(state.streak).toBe(8);
		expect(state.counters).toMatchObject({ broadAttempts: 8, bashBroad: 8, blockedBroad: 0, bashBlocked: 0 });
		// A read after the bash streak is an isolated tool call beyond blockAfter: blocked as before.
		const after = reduceExplorationGuard(state, isolated("read"));
		expect(blocked([...after.effects])).toBe(true);
		expect(after.effects.flatMap((e) => (e.type === "audit" ? [e.fields.event] : []))).toEqual(["blocked"]);
	});

	it("with bashBlock pauses the fifth isolated bash exploration with a distinct bash-blocked audit event", () => {
		const { state, effects } = run(
			BASH_BLOCK,
			Array.from({ length: 5 }, () => bash()),
		);
		expect(effects.slice(0, 4).some(blocked)).toBe(false);
		expect(blocked(effects[4] as ExplorationGuardEffect[])).toBe(true);
		expect(auditEvents([effects[4] as ExplorationGuardEffect[]])).toEqual(["bash-blocked"]);
		const entry = (effects[4] as ExplorationGuardEffect[]).find((e) => e.type === "audit");
		expect(entry?.type === "audit" && entry.fields).toMatchObject({ category: "grep", state: "blocking" });
		expect(state.counters).toMatchObject({ bashBlocked: 1, blockedBroad: 1 });
		expect(validateAuditEntry({ v: 1, ext: "exploration-guard", ...(entry as { fields: object }).fields }).ok).toBe(
			true,
		);
	});

	it("with bashBlock still never blocks bash in a multi-tool batch, and falls back without a delegation tool", () => {
		const batched = run(BASH_BLOCK, [
			...Array.from({ length: 4 }, () => bash()),
			{ ...bash(), batch: { size: 2, position: 9001 } },
		]);
		expect(batched.effects.some(blocked)).toBe(false);
		const unavailable = run(
			BASH_BLOCK,
			Array.from({ length: 6 }, () => bash(false)),
		);
		expect(unavailable.effects.some(blocked)).toBe(false);
		expect(unavailable.state.fallback).toBe(true);
	});

	it("counts a code-mode parent once, however many nested broad calls it makes, and never blocks them", () => {
		const events: ExplorationGuardEvent[] = [];
		for (let parent = 0; parent < 6; parent++) {
			for (let i = 0; i < 4; i++) events.push(nested(5000 + parent * 10, 0, i % 2 === 0 ? "read" : "grep"));
		}
		const { state, effects } = run(BLOCK, events);
		expect(state.streak).toBe(6);
		expect(state.counters).toMatchObject({ broadAttempts: 6, nestedBroad: 6, blockedBroad: 0 });
		expect(effects.some(blocked)).toBe(false);
		expect(nudges(effects)).toBe(1);
		// Two code-mode calls in one assistant message are one multi-tool batch: one count, also when Pi runs the two
		// scripts side by side and their calls alternate (a twenty-seventh review counted that 6 times).
		const two = run(WARN, [nested(7000, 0), nested(7000, 0), nested(7000, 1), nested(7000, 1)]);
		expect(two.state.streak).toBe(1);
		const alternating = run(WARN, [
			nested(7000, 0),
			nested(7000, 1),
			nested(7000, 0),
			nested(7000, 1),
			nested(7000, 0),
		]);
		expect(alternating.state.streak).toBe(1);
		expect(alternating.state.counters).toMatchObject({ broadAttempts: 1, nestedBroad: 1 });
	});

	it("does not count a nested call whose parent could not be located", () => {
		const { state } = run(WARN, [{ ...nested(1, 0), batch: undefined }]);
		expect(state.streak).toBe(0);
	});

	it("nudges once per session on the first broad call over the context share, even on a short streak", () => {
		const WIDE: ExplorationGuardConfig = { ...PRESSURE, warnAfter: 10, blockAfter: 20 };
		const over = (share: number | undefined): ExplorationGuardEvent => ({
			...broadCall(),
			...(share === undefined ? {} : { contextShare: share }),
		});
		const { state, effects } = run(WIDE, [over(0.2), over(undefined), over(0.5), over(0.51), over(0.9), over(0.95)]);
		expect(effects.map((step) => step.some((e) => e.type === "nudge"))).toEqual([
			false,
			false,
			false,
			true,
			false,
			false,
		]);
		const nudge = (effects[3] as ExplorationGuardEffect[]).find((e) => e.type === "nudge");
		expect(nudge?.type === "nudge" && nudge.wording.trigger).toBe("context-pressure");
		expect(state.counters).toMatchObject({ pressureNudges: 1, warnings: 1 });
		expect(state.pressureLatched).toBe(true);
	});

	it("has no pressure trigger when usage is unknown or the share is not configured", () => {
		const unknown = run(
			{ ...PRESSURE, warnAfter: 10, blockAfter: 20 },
			Array.from({ length: 5 }, () => isolated()),
		);
		expect(nudges(unknown.effects)).toBe(0);
		const unset = run({ ...WARN, warnAfter: 10, blockAfter: 20 }, [{ ...broadCall(), contextShare: 0.99 }]);
		expect(nudges(unset.effects)).toBe(0);
		const nonsense = run({ ...PRESSURE, warnAfter: 10, blockAfter: 20 }, [
			{ ...broadCall(), contextShare: Number.NaN },
			{ ...broadCall(), contextShare: "0.9" as unknown as number },
		]);
		expect(nudges(nonsense.effects)).toBe(0);
	});

	it("the pressure nudge survives a delegation reset only once per session", () => {
		const WIDE: ExplorationGuardConfig = { ...PRESSURE, warnAfter: 10, blockAfter: 20 };
		const { effects } = run(WIDE, [
			{ ...broadCall(), contextShare: 0.8 },
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: false },
			{ ...broadCall(), contextShare: 0.9 },
		]);
		expect(nudges(effects)).toBe(1);
	});
});
