// guardian-review's decision order as a reducer with effects. One tool call goes: floor, breaker, allow-once,
// verdict cache, reviewer, then the user or the fallback. `planToolCall` decides what it can without I/O and
// otherwise asks the shell to run a review; `settleReview` applies the reviewer's answer and may ask the shell
// to ask the user; `settleUserAnswer` applies that answer. The shell carries out the effects, in order.
import { type AuditEntryFor, bucketIndex } from "../audit.js";
import type { RiskLevel, VerdictV1 } from "../events.js";
import {
	type AllowOnceState,
	initialAllowOnceState,
	type NothingToGrantReason,
	reduceAllowOnce,
	waitingGrantOf,
} from "./allow-once.js";
import { type BreakerState, initialBreakerState, reduceBreaker } from "./breaker.js";
import {
	type GuardianMode,
	type GuardianReviewConfig,
	isUnconfiguredReadOnlyTool,
	type OnUnavailablePolicy,
	resolveToolScope,
	type ToolFacts,
	type ToolScope,
} from "./config.js";
import { decideFloor, type FloorContext, type FloorDecision, HARD_DENY_RULES } from "./floor.js";
import {
	type DecisionSource,
	type GuardianStats,
	initialGuardianStats,
	recordDecision,
	recordLatency,
	recordPassedOn,
	recordUnavailable,
} from "./stats.js";
import {
	applyOutcomePolicy,
	authorizationCounter,
	type OutcomePolicyRule,
	type ReviewerVerdict,
	riskLevelCounter,
} from "./verdict.js";
import {
	breakerDenialReason,
	breakerNotification,
	denialNotification,
	floorDenialReason,
	REVIEW_IN_PROGRESS_STATUS,
	REVIEW_IN_PROGRESS_WORKING_MESSAGE,
	type ReviewFailureReason,
	riskDenialReason,
	unavailableDenialReason,
} from "./wording.js";

/** A verdict reused for an identical action within one turn. */
export interface CachedVerdict {
	readonly decision: "allow" | "deny";
	readonly reason?: string;
	readonly riskLevel?: RiskLevel;
}

/** The session state of the pipeline. */
export interface GuardianState {
	readonly breaker: BreakerState;
	readonly allowOnce: AllowOnceState;
	readonly stats: GuardianStats;
	/** Verdicts of this turn by action hash. */
	readonly turnCache: ReadonlyMap<string, CachedVerdict>;
	/** How many calls that may have changed files have ended this session ({@link noteToolCallEnded}). */
	readonly changedCalls: number;
	/**
	 * An allow-once grant was used this turn: the granted call may still run, so later calls of the turn that may
	 * change files are not decided by the floor, the cache or another grant (a fifty-ninth review).
	 */
	readonly grantUsedInTurn: boolean;
}

/** The fresh state of a session. */
export function initialGuardianState(): GuardianState {
	return {
		breaker: initialBreakerState(),
		allowOnce: initialAllowOnceState(),
		stats: initialGuardianStats(),
		turnCache: new Map(),
		changedCalls: 0,
		grantUsedInTurn: false,
	};
}

/** A new turn: verdicts are reused only within one turn, and a grant used in the last one has finished running. */
export function startTurn(state: GuardianState): GuardianState {
	return state.turnCache.size === 0 && !state.grantUsedInTurn
		? state
		: { ...state, turnCache: new Map(), grantUsedInTurn: false };
}

/**
 * A call finished running: `ended` when guardian allowed it and it may have changed files (any tool but Pi's
 * read-only built-ins and bash the floor allowed as read-only), else undefined. After such a call, the same action
 * may do something else (`sh build.sh` allowed, `write build.sh`, then `sh build.sh` again), and later calls of the
 * turn run after it: sibling calls Pi runs one after another when a tool asks for sequential execution, and code
 * mode's nested calls (a fifty-fifth review). So the turn's cached allows are dropped, and so are allow-once grants
 * and the denial waiting for one, unless the call that finished made that denied call (`madeLastDenied`: the
 * code-mode script around it). Cached denials stay: reusing one can only deny. A review still running when such a
 * call ends is not cached as an allow either ({@link PendingCall.changedCalls}). Decision 0025.
 */
export function noteToolCallEnded(
	state: GuardianState,
	ended: { readonly madeLastDenied: boolean } | undefined,
): GuardianState {
	if (ended === undefined) return state;
	const turnCache = new Map([...state.turnCache].filter(([, cached]) => cached.decision !== "allow"));
	const allowOnce = reduceAllowOnce(state.allowOnce, { type: "files-changed", madeDenied: ended.madeLastDenied }).state;
	return { ...state, turnCache, allowOnce, changedCalls: state.changedCalls + 1 };
}

/** Guardian was off for a while (`/guardian off`, then on): calls ran unseen, so no grant or denial waiting stays. */
export function forgetAllowOnce(state: GuardianState): GuardianState {
	return { ...state, allowOnce: reduceAllowOnce(state.allowOnce, { type: "forget" }).state };
}

/** A person's prompt re-arms the breaker and resets its consecutive count; extension-sent input does not. */
export function notePrompt(state: GuardianState, fromExtension: boolean): GuardianState {
	if (fromExtension) return state;
	return { ...state, breaker: reduceBreaker(state.breaker, { type: "user-prompt" }).state };
}

/**
 * `/guardian allow-once`: turns the most recently denied action into a grant; nothing while `changeRunning`, an
 * allowed call that may change files still running other than the calls that made the denied one. `fingerprint`:
 * the shell's fingerprint of the files the denied action names (see {@link ToolCallFacts.fingerprint}).
 */
export function grantAllowOnce(
	state: GuardianState,
	now: number,
	changeRunning = false,
	fingerprint?: string,
): { state: GuardianState; granted: boolean; nothingBecause?: NothingToGrantReason } {
	const next = reduceAllowOnce(state.allowOnce, {
		type: "grant",
		now,
		changeRunning,
		...(fingerprint === undefined ? {} : { fingerprint }),
	});
	const nothing = next.effects.find((effect) => effect.type === "nothing-to-grant");
	return {
		state: { ...state, allowOnce: next.state },
		granted: next.effects.some((effect) => effect.type === "granted"),
		...(nothing === undefined ? {} : { nothingBecause: nothing.reason }),
	};
}

/** Everything the pipeline needs to know about one tool call; the shell gathers it. */
export interface ToolCallFacts {
	readonly toolName: string;
	readonly input: unknown;
	/**
	 * SHA-256 of `actionIdentityText(toolName, input)`, computed by the shell: a string, or a function the pipeline
	 * calls at most once and only when it needs the hash (a floor deny, or a call past the floor), so a call that is
	 * out of scope or allowed by the floor is never hashed.
	 */
	readonly hash: string | (() => string);
	/** What Pi reports about the tool. */
	readonly tool: ToolFacts;
	readonly config: GuardianReviewConfig;
	/** The effective mode (a `/guardian` override, else the config's). */
	readonly mode: GuardianMode;
	readonly floorContext: FloorContext;
	readonly now: number;
	readonly hasUI: boolean;
	/**
	 * Another tool made the call (`parentToolCallId`: code mode's script, `ctx.executeTool`). Such calls may run
	 * while others of the turn run, so their verdicts are neither taken from nor kept in the turn's cache, which
	 * serves the sibling calls of one assistant message.
	 */
	readonly nested?: boolean;
	/**
	 * A call guardian allowed that may change files still runs, other than the calls that made this one (a code-mode
	 * script around its nested call). An allow-once grant is not used meanwhile: that call may be changing what this
	 * action does (a fifty-eighth review: `write build.sh` and the granted `sh build.sh` as siblings that run
	 * together).
	 */
	readonly changeRunning?: boolean;
	/**
	 * The call may change files (any tool but Pi's read-only built-ins). After a grant was used in the turn, such a
	 * call is not decided by the floor (unless it only reads), the cache or another grant.
	 */
	readonly mayChangeFiles?: boolean;
	/**
	 * The shell's fingerprint of the files the call names, when a grant is waiting: a grant made with one is used only
	 * while they match it (a sixtieth review: a background copy the reviewer allowed landed after the grant).
	 */
	readonly fingerprint?: string;
}

/** An audit entry without `v` and `ext`. */
export type GuardianAuditFields = Omit<AuditEntryFor<"guardian-review">, "v" | "ext">;

/** What the review log records about a decision (the shell adds the action, model, latency and prompt size). */
export interface ReviewLogFacts {
	readonly decision: "allow" | "deny" | "unavailable";
	readonly riskLevel?: RiskLevel;
	readonly userAuthorization?: ReviewerVerdict["user_authorization"];
	readonly rationale?: string;
	readonly failureReason?: ReviewFailureReason;
}

/** An effect for the shell to carry out. */
export type GuardianEffect =
	| { readonly type: "audit"; readonly entry: GuardianAuditFields }
	| { readonly type: "verdict"; readonly payload: Omit<VerdictV1, "v"> }
	| { readonly type: "notify"; readonly text: string; readonly level: "info" | "warning" | "error" }
	| { readonly type: "abort-turn" }
	/** Deep-freeze the tool input, so a later handler cannot change what was approved. */
	| { readonly type: "freeze-input" }
	/** Show (text) or clear (undefined) the review-in-progress footer status and working message. */
	| { readonly type: "review-status"; readonly status: string | undefined; readonly workingMessage: string | undefined }
	| { readonly type: "review-log"; readonly record: ReviewLogFacts };

/** What the tool call resolves to: run it, or block it with a reason for the agent. */
export type ToolCallResolution = { readonly kind: "allow" } | { readonly kind: "block"; readonly reason: string };

/** A call waiting for the reviewer (or then the user); pass it back to the settle functions. */
export interface PendingCall {
	readonly toolName: string;
	readonly hash: string;
	readonly scope: ToolScope;
	readonly observe: boolean;
	readonly hasUI: boolean;
	readonly onUnavailable: OnUnavailablePolicy;
	readonly now: number;
	/**
	 * {@link GuardianState.changedCalls} when the call was planned: its allow is cached only if no call that may
	 * have changed files ended while it was reviewed.
	 */
	readonly changedCalls: number;
	/** {@link ToolCallFacts.nested}. */
	readonly nested: boolean;
}

/** The next step after a reducer. */
export type PipelineNext =
	/** `readsOnly`: the floor allowed a bash call as read-only, so it changes no file. */
	| { readonly kind: "done"; readonly resolution: ToolCallResolution; readonly readsOnly?: true }
	| { readonly kind: "review"; readonly call: PendingCall }
	| { readonly kind: "ask-user"; readonly call: PendingCall; readonly failure: ReviewFailureReason };

/** A reducer's result. */
export interface PipelineStep {
	readonly state: GuardianState;
	readonly effects: readonly GuardianEffect[];
	readonly next: PipelineNext;
}

/** The reviewer's answer as the shell got it. */
export type ReviewResult =
	| {
			readonly ok: true;
			readonly verdict: ReviewerVerdict;
			readonly latencyMs: number;
			readonly attempts: number;
			readonly promptTokens: number;
	  }
	| {
			readonly ok: false;
			readonly reason: ReviewFailureReason;
			readonly latencyMs: number;
			readonly attempts: number;
	  };

const ALLOW: ToolCallResolution = Object.freeze({ kind: "allow" });

/** The verdict event's tool enum. */
export function verdictToolOf(toolName: string): VerdictV1["tool"] {
	return toolName === "bash" || toolName === "write" || toolName === "edit" ? toolName : "other";
}

function auditMode(observe: boolean): "observe" | "enforce" {
	return observe ? "observe" : "enforce";
}

function armed(state: GuardianState): "armed" | "tripped" {
	return state.breaker.tripped ? "tripped" : "armed";
}

/** Records a decision: the stats, the verdict event, and (enforcing) the freeze, denial notice and block. */
function finish(
	state: GuardianState,
	effects: GuardianEffect[],
	call: { toolName: string; observe: boolean; hasUI: boolean; hash?: string; now?: number },
	decision: "allow" | "deny",
	source: DecisionSource,
	reason: string | undefined,
	detail: string | undefined,
	extra: Partial<Omit<VerdictV1, "v" | "decision" | "source" | "mode" | "tool">> = {},
): { state: GuardianState; resolution: ToolCallResolution } {
	const next = { ...state, stats: recordDecision(state.stats, source, decision) };
	effects.push({
		type: "verdict",
		payload: { decision, source, mode: auditMode(call.observe), tool: verdictToolOf(call.toolName), ...extra },
	});
	if (call.observe) return { state: next, resolution: ALLOW };
	if (decision === "allow") {
		effects.push({ type: "freeze-input" });
		return { state: next, resolution: ALLOW };
	}
	if (call.hasUI) {
		// A grant the user made that did not let this call run: the notification says why.
		const waiting =
			call.hash === undefined || call.now === undefined
				? undefined
				: waitingGrantOf(state.allowOnce, call.hash, call.now);
		effects.push({
			type: "notify",
			text: denialNotification(call.toolName, source, detail, waiting),
			level: "warning",
		});
	}
	return { state: next, resolution: { kind: "block", reason: reason ?? "Blocked by guardian-review." } };
}

/** Feeds a decided review to the breaker; a trip aborts the turn and tells the user (unless observing). */
function noteBreaker(
	state: GuardianState,
	effects: GuardianEffect[],
	call: { observe: boolean; hasUI: boolean },
	decision: "allow" | "deny",
): GuardianState {
	const next = reduceBreaker(state.breaker, { type: "review-decided", decision });
	for (const trip of next.effects) {
		effects.push({
			type: "audit",
			entry: {
				event: "breaker-tripped",
				mode: auditMode(call.observe),
				state: "tripped",
				counters: { consecutive: trip.consecutive, windowDenials: trip.windowDenials },
			},
		});
		if (!call.observe) {
			if (call.hasUI) {
				effects.push({
					type: "notify",
					text: breakerNotification(trip.cause, trip.consecutive, trip.windowDenials),
					level: "warning",
				});
			}
			effects.push({ type: "abort-turn" });
		}
	}
	return { ...state, breaker: next.state };
}

function denied(state: GuardianState, hash: string, now: number, eligible: boolean): GuardianState {
	return { ...state, allowOnce: reduceAllowOnce(state.allowOnce, { type: "denied", hash, at: now, eligible }).state };
}

/** The action hash of a call's facts, computing it when the shell passed a function. */
function hashOf(facts: ToolCallFacts): string {
	return typeof facts.hash === "function" ? facts.hash() : facts.hash;
}

/**
 * Plans one tool call, in order: the floor (hard-deny, read-only allow, scope), the breaker (tripped: deny),
 * an allow-once grant, a verdict reused from this turn; anything left needs the reviewer (`next.kind` is
 * `review`, with a review-in-progress status effect). Mode `off` and out-of-scope tools resolve to allow with
 * no effects. Observe mode records everything and never blocks. Pure; never throws on odd input.
 */
export function planToolCall(before: GuardianState, facts: ToolCallFacts): PipelineStep {
	let state = before;
	if (facts.mode === "off") return { state, effects: [], next: { kind: "done", resolution: ALLOW } };
	const observe = facts.mode === "observe";
	const { toolName } = facts;
	const scope = resolveToolScope(facts.config, toolName, facts.tool, facts.input);
	if (scope === "off") return { state, effects: [], next: { kind: "done", resolution: ALLOW } };
	const scoped: GuardianReviewConfig = { ...facts.config, tools: Object.fromEntries([[toolName, scope]]) };
	// Only a read-only tool's own scope is `protected-only` without a config key (`resolveToolScope`).
	const readOnlyTool =
		scope === "protected-only" && isUnconfiguredReadOnlyTool(facts.config, toolName, facts.tool, facts.input);
	const floorContext = readOnlyTool ? { ...facts.floorContext, readOnlyTool } : facts.floorContext;
	// Beside a granted call that may still run, a call that may change files goes on to the reviewer, unless it only
	// reads: it may change what the granted call does (a fifty-ninth review: the granted `sh build.sh` first, a
	// `write build.sh` sibling second).
	const besideGrant = state.grantUsedInTurn && facts.mayChangeFiles === true;
	const judged = decideFloor(toolName, facts.input, scoped, floorContext);
	const floor: FloorDecision =
		besideGrant && judged.kind === "allow" && judged.rule !== "read-only"
			? { kind: "review", reason: "writes" }
			: judged;
	if (floor.kind === "out-of-scope") return { state, effects: [], next: { kind: "done", resolution: ALLOW } };
	const call = { toolName, observe, hasUI: facts.hasUI };
	const effects: GuardianEffect[] = [];
	const mode = auditMode(observe);
	const done = (result: { state: GuardianState; resolution: ToolCallResolution }): PipelineStep => ({
		state: result.state,
		effects,
		next: { kind: "done", resolution: result.resolution },
	});

	if (floor.kind === "deny") {
		effects.push({
			type: "audit",
			entry: {
				event: "denied",
				mode,
				state: armed(state),
				category: "floor",
				counters: { hardDenyRule: HARD_DENY_RULES.indexOf(floor.rule) + 1 },
			},
		});
		const afterGrant = denied(state, hashOf(facts), facts.now, false);
		const result = finish(
			afterGrant,
			effects,
			call,
			"deny",
			"floor",
			floorDenialReason(toolName, floor.rule),
			`floor rule ${floor.rule}`,
		);
		return done({ state: noteBreaker(result.state, effects, call, "deny"), resolution: result.resolution });
	}
	if (floor.kind === "allow") {
		effects.push({ type: "audit", entry: { event: "allowed", mode, state: armed(state), category: "floor" } });
		const result = finish(state, effects, call, "allow", "floor", undefined, undefined);
		// A bash call the floor allowed as read-only changes no file: the shell does not count it as a change.
		const readsOnly = floor.rule === "read-only" ? { readsOnly: true as const } : {};
		return { state: result.state, effects, next: { kind: "done", resolution: result.resolution, ...readsOnly } };
	}

	// Why the floor did not decide, for `/guardian status` (an enum; "why was this reviewed?").
	state = { ...state, stats: recordPassedOn(state.stats, floor.reason) };
	if (state.breaker.tripped && !observe) {
		effects.push({ type: "audit", entry: { event: "denied", mode, state: "tripped", category: "breaker" } });
		// The denial the user last saw is this one, which a grant may not pass: an earlier one is not granted either
		// (a nineteenth review).
		const afterBreaker = denied(state, hashOf(facts), facts.now, false);
		return done(
			finish(afterBreaker, effects, call, "deny", "breaker", breakerDenialReason(toolName), "breaker tripped"),
		);
	}
	const hash = hashOf(facts);
	const grant = reduceAllowOnce(state.allowOnce, {
		type: "check",
		hash,
		now: facts.now,
		changeRunning: facts.changeRunning === true || besideGrant,
		...(facts.fingerprint === undefined ? {} : { fingerprint: facts.fingerprint }),
	});
	let current: GuardianState = { ...state, allowOnce: grant.state };
	if (grant.effects.some((effect) => effect.type === "consumed")) {
		const turnCache = new Map(current.turnCache);
		turnCache.delete(hash);
		current = { ...current, turnCache, grantUsedInTurn: true };
		effects.push({ type: "audit", entry: { event: "allowed", mode, state: armed(current), category: "allow-once" } });
		return done(finish(current, effects, call, "allow", "allow-once", undefined, undefined));
	}
	const cached = facts.nested === true || besideGrant ? undefined : current.turnCache.get(hash);
	if (cached !== undefined) {
		// A denial from the cache is the one the user last saw: a grant is for this action, not an earlier one (a
		// nineteenth review: X denied, Y denied, X denied from the cache, then `/guardian allow-once` granted Y).
		if (cached.decision === "deny") current = denied(current, hash, facts.now, true);
		effects.push({
			type: "audit",
			entry: {
				event: cached.decision === "allow" ? "allowed" : "denied",
				mode,
				state: armed(current),
				category: "cache",
				counters: { riskLevel: riskLevelCounter(cached.riskLevel) },
			},
		});
		return done(
			finish(
				current,
				effects,
				{ ...call, hash, now: facts.now },
				cached.decision,
				"cache",
				cached.reason,
				"reviewer, earlier in this turn",
				cached.riskLevel === undefined ? {} : { riskLevel: cached.riskLevel },
			),
		);
	}
	if (facts.hasUI) {
		effects.push({
			type: "review-status",
			status: REVIEW_IN_PROGRESS_STATUS,
			workingMessage: REVIEW_IN_PROGRESS_WORKING_MESSAGE,
		});
	}
	return {
		state: current,
		effects,
		next: {
			kind: "review",
			call: {
				toolName,
				hash,
				scope,
				observe,
				hasUI: facts.hasUI,
				onUnavailable: facts.config.onUnavailable,
				now: facts.now,
				changedCalls: current.changedCalls,
				nested: facts.nested === true,
			},
		},
	};
}

/** The outcome policy rule as an audit counter: 0 the model's outcome, 1 critical denied, 2 high needs authorization. */
export function policyRuleCounter(rule: OutcomePolicyRule): number {
	return rule === "model-outcome" ? 0 : rule === "critical-denied" ? 1 : 2;
}

/**
 * Applies the reviewer's answer to a pending call. A verdict goes through the outcome policy, is cached for the
 * turn, feeds the breaker and decides. A failed review (timeout, error, parse failure, no model or auth) asks
 * the user when a UI exists and `onUnavailable` is `ask` (not after an abort), and otherwise denies as the
 * fallback; failures never feed the breaker. Clears the review-in-progress status first.
 */
export function settleReview(state: GuardianState, call: PendingCall, review: ReviewResult): PipelineStep {
	const effects: GuardianEffect[] = [];
	if (call.hasUI) effects.push({ type: "review-status", status: undefined, workingMessage: undefined });
	const mode = auditMode(call.observe);
	const latencyBucket = bucketIndex(review.latencyMs);
	if (review.ok) {
		const verdict = review.verdict;
		const policy = applyOutcomePolicy(verdict);
		const riskLevel = verdict.risk_level;
		let current: GuardianState = { ...state, stats: recordLatency(state.stats, review.latencyMs) };
		effects.push({
			type: "audit",
			entry: {
				event: "reviewed",
				mode,
				state: armed(current),
				category: "reviewer",
				counters: {
					riskLevel: riskLevelCounter(riskLevel),
					userAuthorization: authorizationCounter(verdict.user_authorization),
					latencyBucket,
					attempts: review.attempts,
					promptTokens: review.promptTokens,
				},
			},
		});
		const reason =
			policy.decision === "deny"
				? riskDenialReason(call.toolName, riskLevel, policy.rule, verdict.rationale)
				: undefined;
		// An allow judged before a call that may have changed files ended is not reused (the verdict itself stands).
		if (!call.nested && (policy.decision === "deny" || call.changedCalls === current.changedCalls)) {
			const turnCache = new Map(current.turnCache);
			turnCache.set(call.hash, {
				decision: policy.decision,
				...(reason === undefined ? {} : { reason }),
				...(riskLevel === undefined ? {} : { riskLevel }),
			});
			current = { ...current, turnCache };
		}
		if (policy.decision === "deny") current = denied(current, call.hash, call.now, true);
		effects.push({
			type: "audit",
			entry: {
				event: policy.decision === "allow" ? "allowed" : "denied",
				mode,
				state: armed(current),
				category: "reviewer",
				counters: { riskLevel: riskLevelCounter(riskLevel), latencyBucket, policyRule: policyRuleCounter(policy.rule) },
			},
		});
		effects.push({
			type: "review-log",
			record: {
				decision: policy.decision,
				...(riskLevel === undefined ? {} : { riskLevel }),
				...(verdict.user_authorization === undefined ? {} : { userAuthorization: verdict.user_authorization }),
				...(verdict.rationale === undefined ? {} : { rationale: verdict.rationale }),
			},
		});
		const result = finish(
			current,
			effects,
			call,
			policy.decision,
			"reviewer",
			reason,
			`reviewer, risk ${riskLevel ?? "unrated"}`,
			{
				...(riskLevel === undefined ? {} : { riskLevel }),
				...(verdict.user_authorization === undefined ? {} : { userAuthorization: verdict.user_authorization }),
				latencyBucket,
			},
		);
		return {
			state: noteBreaker(result.state, effects, call, policy.decision),
			effects,
			next: { kind: "done", resolution: result.resolution },
		};
	}

	const failure = review.reason;
	const current: GuardianState = { ...state, stats: recordUnavailable(state.stats, failure) };
	effects.push({
		type: "audit",
		entry: {
			event: "unavailable",
			mode,
			state: armed(current),
			category: failure,
			counters: { latencyBucket, attempts: review.attempts },
		},
	});
	effects.push({ type: "review-log", record: { decision: "unavailable", failureReason: failure } });
	if (call.observe) {
		const result = finish(current, effects, call, "deny", "fallback", undefined, undefined, {
			failureReason: failure,
			latencyBucket,
		});
		return { state: result.state, effects, next: { kind: "done", resolution: result.resolution } };
	}
	if (failure !== "aborted" && call.onUnavailable === "ask" && call.hasUI) {
		return { state: current, effects, next: { kind: "ask-user", call, failure } };
	}
	effects.push({ type: "audit", entry: { event: "denied", mode, state: armed(current), category: "fallback" } });
	const result = finish(
		denied(current, call.hash, call.now, true),
		effects,
		call,
		"deny",
		"fallback",
		unavailableDenialReason(call.toolName, failure),
		`review unavailable, ${failure}`,
		{ failureReason: failure, latencyBucket },
	);
	return { state: result.state, effects, next: { kind: "done", resolution: result.resolution } };
}

/** Applies the user's answer to the unavailable-review dialog: allow once, or deny (the user decided). */
export function settleUserAnswer(
	state: GuardianState,
	call: PendingCall,
	failure: ReviewFailureReason,
	approved: boolean,
	latencyMs: number,
): PipelineStep {
	const effects: GuardianEffect[] = [];
	const mode = auditMode(call.observe);
	const fields = { failureReason: failure, latencyBucket: bucketIndex(latencyMs) };
	if (approved) {
		effects.push({ type: "audit", entry: { event: "user-override", mode, state: armed(state), category: "user" } });
		const result = finish(state, effects, call, "allow", "user", undefined, undefined, fields);
		return { state: result.state, effects, next: { kind: "done", resolution: result.resolution } };
	}
	effects.push({ type: "audit", entry: { event: "denied", mode, state: armed(state), category: "user" } });
	const result = finish(
		denied(state, call.hash, call.now, true),
		effects,
		call,
		"deny",
		"user",
		unavailableDenialReason(call.toolName, failure),
		"user",
		fields,
	);
	return { state: result.state, effects, next: { kind: "done", resolution: result.resolution } };
}
