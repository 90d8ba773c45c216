// The exploration-guard state machine: a pure reducer (state, event) => { state, effects } per root session.
// It keeps counts and flags only: never paths, patterns, arguments, tool-call ids or output.
import type { AuditCounters } from "../audit.js";
import type { ExplorationGuardConfig } from "./config.js";
import type { ExplorationCategory, ExplorationGuardStateName } from "./vocabulary.js";

export { EXPLORATION_GUARD_STATES, type ExplorationGuardStateName } from "./vocabulary.js";

/** The most otherwise-blocked calls one `allow` grants, and the most that can be banked. */
export const MAX_USER_ALLOWANCE = 20;

/** Aggregate counters of one session. */
export interface ExplorationGuardCounters {
	/** Broad events counted (a multi-tool batch counts once). */
	readonly broadAttempts: number;
	/** Counted broad calls that were allowed. */
	readonly allowedBroad: number;
	/** Broad calls blocked. */
	readonly blockedBroad: number;
	/** Nudges sent. */
	readonly warnings: number;
	/** Calls the guard would have blocked but a user `allow` permitted. */
	readonly userAllowed: number;
	/** Allowance granted by `allow` commands in total. */
	readonly allowanceGranted: number;
	/** Launching delegation calls seen. */
	readonly delegationsStarted: number;
	/** Launching delegation calls that succeeded. */
	readonly delegationsSucceeded: number;
	/** Launching delegation calls that failed. */
	readonly delegationsFailed: number;
	/** Times a block was replaced by warn-only fallback because the delegation tool was not active. */
	readonly delegationUnavailable: number;
	/** Broad events counted from bash exploration commands. */
	readonly bashBroad: number;
	/** Broad events counted from code-mode nested calls (one per parent call). */
	readonly nestedBroad: number;
	/** Pure bash exploration commands paused (block mode with `bashBlock`). */
	readonly bashBlocked: number;
	/** Nudges sent because the context window passed `nudgeAtContextShare`. */
	readonly pressureNudges: number;
}

/** The guard's in-memory state for one root session. */
export interface ExplorationGuardState {
	/** The effective config; `mode` is `warn` or `block` (an `off` config never builds a state). */
	readonly config: ExplorationGuardConfig;
	/** The streak phase; the reported state also reflects bypass, pending delegation and fallback. */
	readonly phase: "tracking" | "warned" | "blocking";
	/** Broad events counted since the session started or the last successful delegated launch. */
	readonly streak: number;
	/** The one nudge of this streak was sent. */
	readonly warningLatched: boolean;
	/** The streak reached `blockAfter` (recorded once per streak, for the telemetry gate). */
	readonly thresholdLatched: boolean;
	/** Warn-only for the rest of the session (delegation unavailable or a delegated launch failed). */
	readonly fallback: boolean;
	/** The user ran `off`: everything is permitted for the rest of the session. */
	readonly bypassed: boolean;
	/** Launching delegation calls still waiting for their result. */
	readonly pendingLaunches: number;
	/** Otherwise-blocked broad calls the user still permits. */
	readonly allowance: number;
	/**
	 * The last multi-tool batch or code-mode parent call that was counted, as a branch position (and, for a
	 * parent call, its index in that message); positions, not ids.
	 */
	readonly countedBatch: string | undefined;
	/** The once-per-session context-pressure nudge was sent. */
	readonly pressureLatched: boolean;
	readonly counters: ExplorationGuardCounters;
}

/**
 * Where a call sits in its assistant message: `size` tool calls, the message at branch position `position`.
 * For a code-mode nested call, the batch is its parent call's: `index` is the parent's place in the message.
 */
export interface ExplorationBatch {
	readonly size: number;
	readonly position: number;
	readonly index?: number;
	/** The assistant message's session entry id: unlike its position, never repeated after `/tree`. */
	readonly entryId?: string;
}

/**
 * Where a broad event came from: a read/grep/find/ls `tool` call, a pure exploration `bash` command (counted,
 * blocked only with `bashBlock`), or a `nested` call inside a code-mode parent (one count per parent, never
 * blocked: the script cannot see sibling results).
 */
export type ExplorationSource = "tool" | "bash" | "nested";

/** What the shell reports to the reducer. */
export type ExplorationGuardEvent =
	| {
			/** A call the classifier rated broad. `batch` undefined means the batch could not be read: never blocked. */
			readonly type: "broad-call";
			readonly category: ExplorationCategory;
			readonly batch: ExplorationBatch | undefined;
			/** Whether the delegation tool is among `pi.getActiveTools()` right now. */
			readonly delegationToolActive: boolean;
			/** Default `tool`. */
			readonly source?: ExplorationSource;
			/** The share of the context window in use (0..1), when known; only read with `nudgeAtContextShare`. */
			readonly contextShare?: number;
			/** Whether bash exploration counts in this session (for the nudge wording). */
			readonly bashCounted?: boolean;
	  }
	| { readonly type: "delegation-call"; readonly launch: boolean }
	| { readonly type: "delegation-result"; readonly launch: boolean; readonly isError: boolean }
	| { readonly type: "user-allow"; readonly count: number }
	| { readonly type: "user-off" }
	/** The turn ended: a launch still pending got no result (blocked by another extension or aborted). */
	| { readonly type: "turn-end" };

/** Audit events this reducer emits (a subset of the exploration-guard audit vocabulary). */
export type ExplorationAuditEvent =
	| "activated"
	| "warned"
	| "blocked"
	| "bash-blocked"
	| "threshold-reached"
	| "user-allow"
	| "user-off"
	| "delegation-started"
	| "delegation-succeeded"
	| "delegation-failed"
	| "delegation-unavailable";

/** The fields of one audit entry (`v` and `ext` are added by the audit writer). */
export interface ExplorationAuditFields {
	readonly event: ExplorationAuditEvent;
	readonly mode: "warn" | "block";
	readonly state: ExplorationGuardStateName;
	readonly counters: AuditCounters;
	readonly category?: ExplorationCategory;
}

/** Short UI notices; the shell shows them with `ctx.ui.notify` when a UI exists. */
export type ExplorationNotice = "warned" | "blocked" | "fallback-unavailable" | "fallback-failed";

/** Everything the nudge wording depends on (see `explorationNudgeText`): state, never arguments. */
export interface ExplorationNudgeState {
	/** `streak`: the count reached `warnAfter`; `context-pressure`: the context window passed the share. */
	readonly trigger: "streak" | "context-pressure";
	readonly delegationTool: string;
	/** Whether the delegation tool is active right now. */
	readonly delegationToolActive: boolean;
	/** Block mode, not in warn-only fallback. */
	readonly blockMode: boolean;
	/** Block mode may pause pure bash exploration too (`bashBlock`). */
	readonly bashBlock: boolean;
	/** Bash exploration counts in this session. */
	readonly bashCounted: boolean;
	/** Broad operations still allowed before isolated ones are paused (block mode), from this state. */
	readonly allowedBeforePause: number;
	readonly smallReadMaxLines: number;
	/** The configured context share (context-pressure nudges only). */
	readonly contextShare?: number;
}

/** What the shell must do after an event. */
export type ExplorationGuardEffect =
	| { readonly type: "nudge"; readonly wording: ExplorationNudgeState }
	| { readonly type: "block" }
	| { readonly type: "notify"; readonly notice: ExplorationNotice }
	| { readonly type: "audit"; readonly fields: ExplorationAuditFields };

/** The reducer's result. */
export interface ExplorationGuardTransition {
	readonly state: ExplorationGuardState;
	readonly effects: readonly ExplorationGuardEffect[];
}

const ZERO_COUNTERS: ExplorationGuardCounters = Object.freeze({
	broadAttempts: 0,
	allowedBroad: 0,
	blockedBroad: 0,
	warnings: 0,
	userAllowed: 0,
	allowanceGranted: 0,
	delegationsStarted: 0,
	delegationsSucceeded: 0,
	delegationsFailed: 0,
	delegationUnavailable: 0,
	bashBroad: 0,
	nestedBroad: 0,
	bashBlocked: 0,
	pressureNudges: 0,
});

/** The state of a freshly started, enabled root session (`tracking`, all counters zero). */
export function createExplorationGuardState(config: ExplorationGuardConfig): ExplorationGuardState {
	return {
		config,
		phase: "tracking",
		streak: 0,
		warningLatched: false,
		thresholdLatched: false,
		fallback: false,
		bypassed: false,
		pendingLaunches: 0,
		allowance: 0,
		countedBatch: undefined,
		pressureLatched: false,
		counters: ZERO_COUNTERS,
	};
}

/** The state to report: bypass wins, then a pending delegation, then fallback, then the streak phase. */
export function explorationGuardStateName(state: ExplorationGuardState): ExplorationGuardStateName {
	if (state.bypassed) return "bypassed";
	if (state.pendingLaunches > 0) return "delegation-pending";
	if (state.fallback) return "fallback-warn-only";
	return state.phase;
}

/** The aggregate counters written into audit entries: counts only, at most 16 keys. */
export function explorationAuditCounters(state: ExplorationGuardState): AuditCounters {
	const c = state.counters;
	return {
		broadAttempts: c.broadAttempts,
		allowedBroad: c.allowedBroad,
		blockedBroad: c.blockedBroad,
		warnings: c.warnings,
		streak: state.streak,
		allowance: state.allowance,
		userAllowed: c.userAllowed,
		delegationsStarted: c.delegationsStarted,
		delegationsSucceeded: c.delegationsSucceeded,
		delegationsFailed: c.delegationsFailed,
		delegationUnavailable: c.delegationUnavailable,
		bashBroad: c.bashBroad,
		nestedBroad: c.nestedBroad,
		bashBlocked: c.bashBlocked,
		pressureNudges: c.pressureNudges,
	};
}

/** Builds the audit fields for `event` from the state after the transition. */
export function explorationAuditFields(
	state: ExplorationGuardState,
	event: ExplorationAuditEvent,
	category?: ExplorationCategory,
): ExplorationAuditFields {
	const mode = state.config.mode === "block" ? "block" : "warn";
	return {
		event,
		mode,
		state: explorationGuardStateName(state),
		counters: explorationAuditCounters(state),
		...(category === undefined ? {} : { category }),
	};
}

function bumped(counters: ExplorationGuardCounters, changes: Partial<ExplorationGuardCounters>) {
	const next: Record<string, number> = { ...counters };
	for (const [key, by] of Object.entries(changes)) {
		next[key] = Math.min(Number.MAX_SAFE_INTEGER, (next[key] ?? 0) + (by ?? 0));
	}
	return next as unknown as ExplorationGuardCounters;
}

function validCount(value: unknown): number | undefined {
	return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_USER_ALLOWANCE
		? value
		: undefined;
}

function isCategory(value: unknown): value is ExplorationCategory {
	return value === "read" || value === "grep" || value === "find" || value === "ls";
}

function nudgeWording(
	state: ExplorationGuardState,
	trigger: ExplorationNudgeState["trigger"],
	delegationToolActive: boolean,
	bashCounted: boolean,
): ExplorationNudgeState {
	const { config } = state;
	return {
		trigger,
		delegationTool: config.delegationTool,
		delegationToolActive,
		blockMode: config.mode === "block" && !state.fallback,
		bashBlock: config.bashBlock,
		bashCounted,
		allowedBeforePause: Math.max(0, config.blockAfter - state.streak),
		smallReadMaxLines: config.smallReadMaxLines,
		...(trigger === "context-pressure" && config.nudgeAtContextShare !== undefined
			? { contextShare: config.nudgeAtContextShare }
			: {}),
	};
}

/**
 * The assistant message a batch belongs to. Every call of one message shares it, nested calls of any of its
 * `codemode` calls included: two scripts run side by side alternate their calls, and a message mixing a script with
 * direct broad calls is still one batch (a twenty-seventh review counted such a message 6 times).
 */
function batchKey(batch: ExplorationBatch): string {
	return batch.entryId ?? `${batch.position}`;
}

function onBroadCall(
	state: ExplorationGuardState,
	category: ExplorationCategory,
	batch: ExplorationBatch | undefined,
	delegationToolActive: boolean,
	source: ExplorationSource,
	contextShare: number | undefined,
	bashCounted: boolean,
): ExplorationGuardTransition {
	// A code-mode parent counts once; with no readable parent there is no way to count it once: not counted.
	if (source === "nested" && batch === undefined) return { state, effects: [] };
	const grouped = batch !== undefined && (batch.size > 1 || source === "nested");
	const key = grouped ? batchKey(batch) : undefined;
	if (key !== undefined && state.countedBatch === key) return { state, effects: [] };
	const isolated = batch !== undefined && batch.size <= 1 && source !== "nested";
	const blockable = source === "tool" || (source === "bash" && state.config.bashBlock);
	const attempt = state.streak + 1;
	const { config } = state;
	const base: ExplorationGuardState = {
		...state,
		streak: attempt,
		countedBatch: key ?? state.countedBatch,
		counters: bumped(state.counters, {
			broadAttempts: 1,
			...(source === "bash" ? { bashBroad: 1 } : {}),
			...(source === "nested" ? { nestedBroad: 1 } : {}),
		}),
	};
	const effects: ExplorationGuardEffect[] = [];
	let next = base;
	const wouldBlock =
		config.mode === "block" &&
		blockable &&
		isolated &&
		attempt > config.blockAfter &&
		!state.fallback &&
		state.pendingLaunches === 0;
	if (wouldBlock) {
		if (!delegationToolActive) {
			next = {
				...next,
				fallback: true,
				counters: bumped(next.counters, { delegationUnavailable: 1 }),
			};
			effects.push(
				{ type: "audit", fields: explorationAuditFields(next, "delegation-unavailable", category) },
				{ type: "notify", notice: "fallback-unavailable" },
			);
		} else if (state.allowance > 0) {
			next = { ...next, allowance: state.allowance - 1, counters: bumped(next.counters, { userAllowed: 1 }) };
		} else {
			const bash = source === "bash";
			next = {
				...next,
				phase: "blocking",
				counters: bumped(next.counters, bash ? { blockedBroad: 1, bashBlocked: 1 } : { blockedBroad: 1 }),
			};
			effects.push(
				{ type: "block" },
				{ type: "audit", fields: explorationAuditFields(next, bash ? "bash-blocked" : "blocked", category) },
				{ type: "notify", notice: "blocked" },
			);
			return { state: next, effects };
		}
	}
	next = { ...next, counters: bumped(next.counters, { allowedBroad: 1 }) };
	const pressure =
		config.nudgeAtContextShare !== undefined &&
		!next.pressureLatched &&
		typeof contextShare === "number" &&
		Number.isFinite(contextShare) &&
		contextShare > config.nudgeAtContextShare;
	const streakNudge = !next.warningLatched && attempt >= config.warnAfter;
	if (pressure || streakNudge) {
		next = {
			...next,
			warningLatched: true,
			pressureLatched: next.pressureLatched || pressure,
			phase: next.phase === "blocking" ? "blocking" : "warned",
			counters: bumped(next.counters, pressure ? { warnings: 1, pressureNudges: 1 } : { warnings: 1 }),
		};
		effects.push(
			{
				type: "nudge",
				wording: nudgeWording(next, pressure ? "context-pressure" : "streak", delegationToolActive, bashCounted),
			},
			{ type: "notify", notice: "warned" },
			{ type: "audit", fields: explorationAuditFields(next, "warned", category) },
		);
	}
	if (!next.thresholdLatched && attempt >= config.blockAfter) {
		next = { ...next, thresholdLatched: true };
		effects.push({ type: "audit", fields: explorationAuditFields(next, "threshold-reached", category) });
	}
	return { state: next, effects };
}

function onDelegationResult(state: ExplorationGuardState, isError: boolean): ExplorationGuardTransition {
	const pendingLaunches = Math.max(0, state.pendingLaunches - 1);
	if (isError) {
		const next: ExplorationGuardState = {
			...state,
			pendingLaunches,
			fallback: true,
			counters: bumped(state.counters, { delegationsFailed: 1 }),
		};
		const effects: ExplorationGuardEffect[] = [
			{ type: "audit", fields: explorationAuditFields(next, "delegation-failed") },
		];
		if (!state.fallback) effects.push({ type: "notify", notice: "fallback-failed" });
		return { state: next, effects };
	}
	const next: ExplorationGuardState = {
		...state,
		pendingLaunches,
		phase: "tracking",
		streak: 0,
		warningLatched: false,
		thresholdLatched: false,
		counters: bumped(state.counters, { delegationsSucceeded: 1 }),
	};
	return { state: next, effects: [{ type: "audit", fields: explorationAuditFields(next, "delegation-succeeded") }] };
}

/**
 * The exploration-guard reducer. Given the state and one event, returns the next state and the effects the
 * shell performs, in order (`block` means return `{ block: true, reason }` from `tool_call`).
 *
 * - `broad-call`: counts one broad event (a multi-tool batch counts once, identified by its branch position,
 *   and is never blocked; an unknown batch is never blocked either). At `warnAfter` it nudges once per streak.
 *   In block mode an isolated call beyond `blockAfter` is blocked, unless warn-only fallback is active, a
 *   delegated launch is pending, the user's allowance covers it, or the delegation tool is not active (then
 *   it falls back to warn-only and permits the call). A `bash` source is counted but blocked only with
 *   `bashBlock` (audit `bash-blocked`); a `nested` (code-mode) source counts once per parent call and is never
 *   blocked, and is not counted when its parent cannot be located. When `nudgeAtContextShare` is set and
 *   `contextShare` exceeds it, the first such broad call nudges even on a short streak, once per session.
 * - `delegation-call` with `launch`: marks a launch pending. Management calls change nothing.
 * - `delegation-result` of a launch: success resets the streak and the warning latch; an error moves to
 *   warn-only fallback for the rest of the session.
 * - `user-allow` (1..20): banks that many otherwise-blocked calls, at most 20 in total.
 * - `user-off`: bypasses the guard for the rest of the session.
 * - `turn-end`: forgets launches that never produced a result (neither success nor failure).
 *
 * After `user-off` every event is a no-op. Pure and total: malformed events return the state unchanged.
 */
export function reduceExplorationGuard(
	state: ExplorationGuardState,
	event: ExplorationGuardEvent,
): ExplorationGuardTransition {
	if (typeof event !== "object" || event === null) return { state, effects: [] };
	if (state.bypassed) return { state, effects: [] };
	switch (event.type) {
		case "broad-call": {
			if (!isCategory(event.category)) return { state, effects: [] };
			const batch =
				typeof event.batch === "object" &&
				event.batch !== null &&
				Number.isInteger(event.batch.size) &&
				Number.isInteger(event.batch.position)
					? event.batch
					: undefined;
			const source: ExplorationSource = event.source === "bash" || event.source === "nested" ? event.source : "tool";
			return onBroadCall(
				state,
				event.category,
				batch,
				event.delegationToolActive === true,
				source,
				typeof event.contextShare === "number" ? event.contextShare : undefined,
				event.bashCounted === true,
			);
		}
		case "delegation-call": {
			if (event.launch !== true) return { state, effects: [] };
			const next: ExplorationGuardState = {
				...state,
				pendingLaunches: state.pendingLaunches + 1,
				counters: bumped(state.counters, { delegationsStarted: 1 }),
			};
			return { state: next, effects: [{ type: "audit", fields: explorationAuditFields(next, "delegation-started") }] };
		}
		case "delegation-result":
			if (event.launch !== true) return { state, effects: [] };
			return onDelegationResult(state, event.isError === true);
		case "user-allow": {
			const count = validCount(event.count);
			if (count === undefined) return { state, effects: [] };
			const next: ExplorationGuardState = {
				...state,
				allowance: Math.min(MAX_USER_ALLOWANCE, state.allowance + count),
				counters: bumped(state.counters, { allowanceGranted: count }),
			};
			return { state: next, effects: [{ type: "audit", fields: explorationAuditFields(next, "user-allow") }] };
		}
		case "user-off": {
			const next: ExplorationGuardState = { ...state, bypassed: true };
			return { state: next, effects: [{ type: "audit", fields: explorationAuditFields(next, "user-off") }] };
		}
		case "turn-end":
			return state.pendingLaunches > 0
				? { state: { ...state, pendingLaunches: 0 }, effects: [] }
				: { state, effects: [] };
		default:
			return { state, effects: [] };
	}
}

/**
 * The `activated` audit fields written when an enabled session starts. `childSession` is 1 when a child
 * variable turned up set after the guard had registered (the guard then stays inert for that session); the
 * telemetry gate counts those as child activations.
 */
export function explorationActivatedFields(
	state: ExplorationGuardState,
	childSession: boolean,
): ExplorationAuditFields {
	const fields = explorationAuditFields(state, "activated");
	return { ...fields, counters: { ...fields.counters, childSession: childSession ? 1 : 0 } };
}
