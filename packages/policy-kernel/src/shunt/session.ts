// context-shunt's session reducers: the per-session state (mode, counters, exceptions, the observe ledger, the
// would-block set, the aging plan) and one reducer per hook or command. Each returns the next state and effects; the
// shell performs them (audit, notices, tool activation, the reader's cancellation, the mode entry) and does the I/O.
import type { AuditEntryFor } from "../audit.js";
import type { DelegationStateV1 } from "../events.js";
import { decidePreCall, narrowPowerShellHeadCommand, type PreCallDecision } from "./admission.js";
import {
	type AgingCandidate,
	type AgingPlan,
	applyAgingPlan,
	collectAgingCandidates,
	EMPTY_AGING_PLAN,
	planAging,
} from "./aging.js";
import { formatPreCallBlockReason } from "./block.js";
import type { ContextShuntConfig } from "./config.js";
import { SHUNT_MODE_ENTRY_TYPE, type ShuntMode } from "./constants.js";
import {
	type ExceptionEffect,
	type ExceptionEvent,
	type ExceptionState,
	emptyExceptionState,
	findGrant,
	grantNarrowing,
	reduceExceptions,
} from "./exceptions.js";
import { type ArtifactLedger, emptyArtifactLedger, type QuotaRefusal } from "./ledger.js";
import { latestValidMode, planModeChange, type ShuntCommand } from "./mode.js";
import { resolveReaderModel } from "./reader.js";
import { buildReceipt, formatRefusedNotice } from "./receipt.js";
import { type SettlementDecision, settleToolResult, simulateReservation, toolLedgerBounds } from "./settlement.js";
import {
	bumpShuntCounter,
	emptyShuntCounters,
	formatShuntStatus,
	type ReaderStatus,
	type ShuntCounterName,
	type ShuntCounters,
} from "./status.js";
import { resolveToolPolicy } from "./tool-policy.js";

/** One audit entry's fields (the shell's writer adds `v` and `ext`). `mode` is the mode when it was decided. */
export type ShuntAuditFields = Omit<AuditEntryFor<"context-shunt">, "v" | "ext">;

/** What the aging of the last request did. */
export interface AgingState {
	readonly plan: AgingPlan;
	/** Results aged and bytes kept out of the last request. */
	readonly aged: number;
	readonly keptOutBytes: number;
}

/** The empty aging state: nothing aged, no batch yet. */
export const EMPTY_AGING_STATE: AgingState = Object.freeze({ plan: EMPTY_AGING_PLAN, aged: 0, keptOutBytes: 0 });

/** context-shunt's state for one session. Immutable: every reducer returns a new one. */
export interface ShuntSessionState {
	readonly mode: ShuntMode;
	readonly counters: ShuntCounters;
	/** Observe mode's simulated artifact ledger. */
	readonly simulatedLedger: ArtifactLedger;
	readonly exceptions: ExceptionState;
	/** Tool call ids observe counted as would-block before they ran (their results are not counted again). */
	readonly wouldBlockCalls: ReadonlySet<string>;
	readonly aging: AgingState;
}

/** The state before the first session_start: mode off, nothing counted. */
export function emptyShuntSessionState(): ShuntSessionState {
	return {
		mode: "off",
		counters: emptyShuntCounters(),
		simulatedLedger: emptyArtifactLedger(),
		exceptions: emptyExceptionState(),
		wouldBlockCalls: new Set(),
		aging: EMPTY_AGING_STATE,
	};
}

/** Something the shell carries out, in order. */
export type ShuntEffect =
	| { readonly type: "audit"; readonly entry: ShuntAuditFields }
	| { readonly type: "notify"; readonly message: string; readonly level: "info" | "warning" }
	/** Cancel the running reader call, if any. */
	| { readonly type: "cancel-reader" }
	/** Append the mode entry to the session. */
	| { readonly type: "persist-mode"; readonly mode: ShuntMode }
	/** Register or (de)activate the tools for the current state. */
	| { readonly type: "sync-tools" }
	| { readonly type: "show-footer" }
	/** Delete every artifact of the session (commands only; the shell awaits it before the next effect). */
	| { readonly type: "clear-artifacts" };

/** A reducer's answer. */
export interface ShuntStep<R = undefined> {
	readonly state: ShuntSessionState;
	readonly effects: readonly ShuntEffect[];
	readonly result: R;
}

/** At most this many `exception-lapsed` entries for one lapse (the count is bounded, the log too). */
export const MAX_LAPSED_AUDITS = 8;

const audit = (mode: ShuntMode, fields: Omit<ShuntAuditFields, "mode">): ShuntEffect => ({
	type: "audit",
	entry: { mode, ...fields },
});

const bump = (state: ShuntSessionState, name: ShuntCounterName): ShuntSessionState => ({
	...state,
	counters: bumpShuntCounter(state.counters, name),
});

const withoutCall = (calls: ReadonlySet<string>, id: string): ReadonlySet<string> => {
	if (!calls.has(id)) return calls;
	const next = new Set(calls);
	next.delete(id);
	return next;
};

const NO_CALLS: ReadonlySet<string> = new Set();

/**
 * Applies one exception event: the next state, the exception effects, and one `exception-lapsed` audit entry per
 * lapsed exception (at most {@link MAX_LAPSED_AUDITS}). Never throws.
 */
export function applyExceptionEvent(
	state: ShuntSessionState,
	event: ExceptionEvent,
): { state: ShuntSessionState; effects: ShuntEffect[]; exceptionEffects: readonly ExceptionEffect[] } {
	const result = reduceExceptions(state.exceptions, event);
	const effects: ShuntEffect[] = [];
	for (const effect of result.effects) {
		if (effect.type !== "lapsed") continue;
		for (let i = 0; i < Math.min(effect.count, MAX_LAPSED_AUDITS); i++)
			effects.push(audit(state.mode, { event: "exception-lapsed", category: effect.reason }));
	}
	return { state: { ...state, exceptions: result.state }, effects, exceptionEffects: result.effects };
}

// ---- tool_call ----------------------------------------------------------------------------------------------------

/** One tool call, as admission reads it. */
export interface ShuntToolCallInput {
	readonly toolName: string;
	readonly toolCallId: string;
	readonly input: unknown;
	/** Provenance `builtin:<name>`. */
	readonly builtin: boolean;
	/** Set for nested calls (codemode): they feed a script, not the model, and are never blocked. */
	readonly parentToolCallId?: string | undefined;
	readonly config: Pick<ContextShuntConfig, "limits">;
	readonly now: number;
	/** The fingerprint of a call (the shell hashes {@link canonicalToolCall}). */
	readonly fingerprint: (toolName: string, input: unknown) => string;
	/** A fresh block token (`cst_…`); called only when the call is blocked. */
	readonly newToken: () => string;
}

/** What to do with the call: let it run (maybe narrowed to a user grant) or block it with `reason`. */
export type ShuntToolCallResult =
	| { readonly kind: "allow"; readonly narrow?: { readonly limit: number } | { readonly command: string } }
	| { readonly kind: "block"; readonly reason: string };

/**
 * tool_call: admission in the current mode. Off: allow. A same-named non-built-in over the cap is counted as
 * uncovered. An oversized built-in call is counted as would-block in observe; in enforce it consumes a matching user
 * grant (narrowed to it, when the grant is smaller) or is blocked with a fresh token. A call made inside a codemode
 * script is always allowed. Never throws.
 */
export function reduceShuntToolCall(
	state: ShuntSessionState,
	call: ShuntToolCallInput,
): ShuntStep<ShuntToolCallResult> {
	const allow: ShuntToolCallResult = { kind: "allow" };
	if (state.mode === "off" || call.parentToolCallId !== undefined) return { state, effects: [], result: allow };
	const decision: PreCallDecision = decidePreCall({
		toolName: call.toolName,
		input: call.input,
		builtin: call.builtin,
		limits: call.config.limits,
	});
	if (decision.kind === "uncovered") {
		return {
			state: bump(state, "uncovered"),
			effects: [audit(state.mode, { event: "uncovered", category: decision.tool })],
			result: allow,
		};
	}
	if (decision.kind !== "oversized") return { state, effects: [], result: allow };
	const tool = decision.range.tool;
	if (state.mode === "observe") {
		const wouldBlockCalls = new Set(state.wouldBlockCalls);
		wouldBlockCalls.add(call.toolCallId);
		return {
			state: { ...bump(state, "wouldBlock"), wouldBlockCalls },
			effects: [audit(state.mode, { event: "would-block", category: tool, counters: { lines: decision.range.lines } })],
			result: allow,
		};
	}
	const print = call.fingerprint(call.toolName, call.input);
	const expired = applyExceptionEvent(state, { type: "expire", now: call.now });
	const effects = [...expired.effects];
	let next = expired.state;
	const grant = findGrant(next.exceptions, print, call.now);
	if (grant !== undefined) {
		const narrowTo = grantNarrowing(grant);
		let narrow: { limit: number } | { command: string } | undefined;
		if (narrowTo !== undefined) {
			if (tool === "read") narrow = { limit: narrowTo };
			else {
				const narrowed = narrowPowerShellHeadCommand(String((call.input as { command?: unknown }).command), narrowTo);
				if (narrowed !== undefined) narrow = { command: narrowed };
			}
		}
		const admitted = narrow === undefined ? call.input : { ...(call.input as Record<string, unknown>), ...narrow };
		const consumed = applyExceptionEvent(next, {
			type: "consume",
			token: grant.token,
			toolCallId: call.toolCallId,
			admittedFingerprint: call.fingerprint(call.toolName, admitted),
			now: call.now,
		});
		effects.push(...consumed.effects, audit(next.mode, { event: "exception-consumed", category: tool }));
		next = bump(consumed.state, "exceptions");
		return { state: next, effects, result: narrow === undefined ? allow : { kind: "allow", narrow } };
	}
	const token = call.newToken();
	const issued = applyExceptionEvent(next, {
		type: "issue",
		token,
		tool,
		fingerprint: print,
		declaredLines: decision.range.lines,
		now: call.now,
	});
	effects.push(
		...issued.effects,
		audit(next.mode, { event: "blocked", category: tool, counters: { lines: decision.range.lines } }),
	);
	return {
		state: bump(issued.state, "blocked"),
		effects,
		result: {
			kind: "block",
			reason: formatPreCallBlockReason({
				range: decision.range,
				maxLines: decision.maxLines,
				limits: call.config.limits,
				token,
			}),
		},
	};
}

// ---- tool_result --------------------------------------------------------------------------------------------------

/** One finished tool result, as the shell sees it. */
export interface ShuntToolResultInput {
	readonly toolName: string;
	readonly toolCallId: string;
	/** Set for nested calls (codemode): their results feed a script, not the model. */
	readonly parentToolCallId?: string | undefined;
	readonly builtin: boolean;
	readonly isError: unknown;
	readonly content: unknown;
	readonly structuredContent?: unknown;
	readonly input: unknown;
	readonly config: Pick<ContextShuntConfig, "limits" | "tools" | "toolArtifactBytes" | "toolSessionBytes">;
	readonly now: number;
	readonly fingerprint: (toolName: string, input: unknown) => string;
	/** A fresh simulated artifact id (`sim_…`); called only for observe's simulation. */
	readonly newSimulatedId: () => string;
}

/** A result to preserve: the shell writes the artifact and then calls {@link reduceShuntArchived}. */
export type ShuntPreserveRequest = Extract<SettlementDecision, { kind: "preserve" }>;

/**
 * tool_result, before any I/O: forgets the call's would-block mark, applies a consumed grant (enforce), settles the
 * result and, in observe, simulates the reservation. Returns the result to preserve, if any. A result of a call made
 * inside a codemode script passes whole and uncounted: it feeds the script, and no artifact or quota is spent on it
 * (built-ins included: a twenty-sixth review found a script's `grep` answered with a receipt). Never throws.
 */
export function reduceShuntToolResult(
	state: ShuntSessionState,
	result: ShuntToolResultInput,
): ShuntStep<ShuntPreserveRequest | undefined> {
	if (state.mode === "off" || result.parentToolCallId !== undefined) return { state, effects: [], result: undefined };
	const wasWouldBlocked = state.wouldBlockCalls.has(result.toolCallId);
	let next: ShuntSessionState = { ...state, wouldBlockCalls: withoutCall(state.wouldBlockCalls, result.toolCallId) };
	const effects: ShuntEffect[] = [];
	let grant: { maxLines: number; maxBytes: number; admittedLines: number } | undefined;
	// Only a call that consumed an exception grant has one to settle; the fingerprint (a hash of the input) is
	// computed for that call alone, not for every result.
	if (next.mode === "enforce" && next.exceptions.consumed.some((entry) => entry.toolCallId === result.toolCallId)) {
		const settled = applyExceptionEvent(next, {
			type: "settle",
			toolCallId: result.toolCallId,
			fingerprint: result.fingerprint(result.toolName, result.input),
			now: result.now,
		});
		next = settled.state;
		effects.push(...settled.effects);
		const applied = settled.exceptionEffects.find((effect) => effect.type === "applied");
		if (applied?.type === "applied") {
			grant = { maxLines: applied.maxLines, maxBytes: applied.maxBytes, admittedLines: applied.admittedLines };
		}
	}
	const policy = result.builtin ? "intact" : resolveToolPolicy(result.config.tools, result.toolName, result.builtin);
	const decision = settleToolResult({
		mode: next.mode,
		toolName: result.toolName,
		builtin: result.builtin,
		policy,
		isError: result.isError,
		content: result.content,
		structuredContent: result.structuredContent,
		input: result.input,
		limits: result.config.limits,
		...(grant !== undefined ? { grant } : {}),
		wasWouldBlocked,
	});
	if (decision.kind === "pass") return { state: next, effects, result: undefined };
	if (decision.kind === "uncovered") {
		effects.push(audit(next.mode, { event: "uncovered" }));
		return { state: bump(next, "uncovered"), effects, result: undefined };
	}
	if (decision.kind === "would-bound") {
		const simulated = simulateReservation(
			next.simulatedLedger,
			decision,
			result.newSimulatedId(),
			result.now,
			toolLedgerBounds(result.config),
		);
		next = { ...next, simulatedLedger: simulated.ledger };
		if (simulated.admitted) {
			next = bump(next, "wouldBound");
			effects.push(
				audit(next.mode, { event: "would-bound", category: decision.source, counters: { bytes: decision.bytes } }),
			);
		}
		return { state: next, effects, result: undefined };
	}
	return { state: next, effects, result: decision };
}

/** How writing the artifact went. */
export type ShuntArchiveOutcome =
	| { readonly saved: { readonly id: string; readonly expiresAt: number } }
	| { readonly failure: "quota-exhausted" | "write-failed"; readonly refusal?: QuotaRefusal | undefined };

/** The replacement of a tool result (Pi's tool_result answer). */
export interface ShuntResultReplacement {
	readonly content: { type: "text"; text: string }[];
	readonly details: Record<string, unknown>;
	readonly isError?: boolean;
	readonly structuredContent?: unknown;
}

/** After the artifact write: replace the result (receipt or refusal), leave it, or release the saved artifact. */
export type ShuntArchivedResult =
	| { readonly kind: "leave" }
	| { readonly kind: "release"; readonly id: string }
	| { readonly kind: "replace"; readonly replacement: ShuntResultReplacement };

/**
 * tool_result, after the artifact write: a failure is counted and audited (a configured tool's output over its cap
 * is refused whole with a bounded notice, never passed on unbounded); an artifact saved for an aborted call is
 * released; otherwise the result becomes the receipt. Built-in `details` lose their copy of the text but keep Pi's
 * `fullOutputPath`. Never throws.
 */
export function reduceShuntArchived(
	state: ShuntSessionState,
	input: {
		readonly request: ShuntPreserveRequest;
		readonly outcome: ShuntArchiveOutcome;
		/** The call was aborted while the artifact was written. */
		readonly aborted: boolean;
		readonly details: unknown;
		readonly structuredContent?: unknown;
		readonly config: Pick<
			ContextShuntConfig,
			"limits" | "reader" | "previewLines" | "previewTailLines" | "toolArtifactBytes" | "toolSessionBytes"
		>;
	},
): ShuntStep<ShuntArchivedResult> {
	const { request: decision, outcome, config } = input;
	if ("failure" in outcome) {
		const effects: ShuntEffect[] = [audit(state.mode, { event: "archive-failed", category: outcome.failure })];
		const next = bump(state, "archiveFailures");
		if (decision.source === "tool" && outcome.refusal !== undefined) {
			effects.push(audit(state.mode, { event: "refused", category: "tool", counters: { bytes: decision.bytes } }));
			const capBytes = outcome.refusal === "artifact-too-large" ? config.toolArtifactBytes : config.toolSessionBytes;
			const text = formatRefusedNotice({
				toolName: decision.toolName,
				bytes: decision.bytes,
				lines: decision.lines,
				reason: outcome.refusal,
				capBytes,
			});
			return {
				state: next,
				effects,
				result: {
					kind: "replace",
					replacement: {
						content: [{ type: "text", text }],
						details: { contextShunt: { refused: outcome.refusal, bytes: decision.bytes, lines: decision.lines } },
						isError: true,
					},
				},
			};
		}
		return { state: next, effects, result: { kind: "leave" } };
	}
	const { saved } = outcome;
	if (input.aborted) return { state, effects: [], result: { kind: "release", id: saved.id } };
	const effects: ShuntEffect[] = [
		audit(state.mode, {
			event: "bounded",
			category: decision.jsonOutline !== undefined ? "json" : decision.source,
			counters: { bytes: decision.bytes, lines: decision.lines },
		}),
	];
	const receipt = buildReceipt({
		artifactId: saved.id,
		source: decision.source,
		toolName: decision.toolName,
		bytes: decision.bytes,
		lines: decision.lines,
		maxLines: decision.limits.maxLines,
		maxBytes: decision.limits.maxBytes,
		expiresAt: new Date(saved.expiresAt).toISOString(),
		rangeBytes: config.limits.targetedReadBytes,
		offerReader: config.reader.enabled,
		text: decision.text,
		previewLines: config.previewLines,
		previewTailLines: config.previewTailLines,
		...(decision.jsonOutline !== undefined ? { jsonOutline: decision.jsonOutline } : {}),
	});
	const fullOutputPath = (input.details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
	return {
		state: bump(state, "bounded"),
		effects,
		result: {
			kind: "replace",
			replacement: {
				content: [{ type: "text", text: receipt }],
				details: {
					contextShunt: { artifactId: saved.id, source: decision.source, bytes: decision.bytes, lines: decision.lines },
					...(typeof fullOutputPath === "string" ? { fullOutputPath } : {}),
				},
				...(input.structuredContent !== undefined ? { structuredContent: input.structuredContent } : {}),
			},
		},
	};
}

// ---- context (aging) ----------------------------------------------------------------------------------------------

/**
 * context: the aging plan for one request. `sizeOf` measures a result's text (the shell memoizes it by tool call id).
 * Returns the messages to send when anything is aged, else `undefined` (the request is left as it is); a new batch
 * is audited with counts only. Never throws on well-formed input.
 */
export function reduceShuntContext<M>(
	state: ShuntSessionState,
	input: {
		readonly messages: readonly M[];
		readonly settings: ContextShuntConfig["aging"];
		/** The share of the window in use, where the host knows it. */
		readonly contextShare: number | undefined;
		readonly sizeOf: (id: string, text: string) => { bytes: number; lines: number };
	},
): ShuntStep<M[] | undefined> {
	const candidates: AgingCandidate[] = collectAgingCandidates(input.messages, input.sizeOf);
	const outcome = planAging({
		candidates,
		last: state.aging.plan,
		settings: input.settings,
		contextShare: input.contextShare,
	});
	const aging: AgingState = { plan: outcome.plan, aged: outcome.plan.aged.length, keptOutBytes: outcome.keptOutBytes };
	const effects: ShuntEffect[] = outcome.newBatch
		? [
				audit(state.mode, {
					event: "aged",
					counters: { results: outcome.plan.aged.length, bytes: outcome.keptOutBytes },
				}),
			]
		: [];
	const messages =
		outcome.plan.aged.length === 0 ? undefined : applyAgingPlan(input.messages, outcome.plan, candidates);
	return { state: { ...state, aging }, effects, result: messages };
}

// ---- session lifecycle and commands -------------------------------------------------------------------------------

/** session_start: aging starts over; when the hooks are live, the mode is the branch's latest entry or config's. */
export function reduceShuntSessionStart(
	state: ShuntSessionState,
	input: { readonly hooks: boolean; readonly restoredMode: ShuntMode | undefined; readonly configMode: ShuntMode },
): ShuntStep {
	const next = { ...state, aging: EMPTY_AGING_STATE };
	if (!input.hooks) return { state: next, effects: [], result: undefined };
	return {
		state: { ...next, mode: input.restoredMode ?? input.configMode },
		effects: [{ type: "sync-tools" }, { type: "show-footer" }],
		result: undefined,
	};
}

/**
 * session_tree: the reader is cancelled, open exceptions lapse, observe's marks and aging start over; with a valid
 * config the mode is restored from the new branch.
 */
export function reduceShuntSessionTree(
	state: ShuntSessionState,
	input: {
		readonly configValid: boolean;
		readonly restoredMode: ShuntMode | undefined;
		readonly configMode: ShuntMode;
	},
): ShuntStep {
	const lapsed = applyExceptionEvent(state, { type: "lapse", reason: "branch-changed" });
	const effects: ShuntEffect[] = [{ type: "cancel-reader" }, ...lapsed.effects];
	let next: ShuntSessionState = { ...lapsed.state, wouldBlockCalls: NO_CALLS, aging: EMPTY_AGING_STATE };
	if (input.configValid) {
		next = { ...next, mode: input.restoredMode ?? input.configMode };
		effects.push({ type: "sync-tools" }, { type: "show-footer" });
	}
	return { state: next, effects, result: undefined };
}

/** session_compact: the request starts from the summary, so aging starts over. */
export function reduceShuntSessionCompact(state: ShuntSessionState): ShuntStep {
	return { state: { ...state, aging: EMPTY_AGING_STATE }, effects: [], result: undefined };
}

/** agent_end: open exceptions lapse (valid config) and observe's marks are forgotten. */
export function reduceShuntAgentEnd(state: ShuntSessionState, input: { readonly configValid: boolean }): ShuntStep {
	const lapsed = input.configValid
		? applyExceptionEvent(state, { type: "lapse", reason: "agent-ended" })
		: { state, effects: [] };
	return { state: { ...lapsed.state, wouldBlockCalls: NO_CALLS }, effects: lapsed.effects, result: undefined };
}

/** session_shutdown: the reader is cancelled; exceptions and the simulated ledger are dropped. */
export function reduceShuntShutdown(state: ShuntSessionState): ShuntStep {
	return {
		state: { ...state, exceptions: emptyExceptionState(), simulatedLedger: emptyArtifactLedger() },
		effects: [{ type: "cancel-reader" }],
		result: undefined,
	};
}

/**
 * `/context-shunt off|observe|enforce`: a change cancels the reader and lapses exceptions as
 * {@link planModeChange} says, persists the mode, audits it and resyncs tools and footer; the notice names the mode.
 */
export function reduceShuntModeCommand(state: ShuntSessionState, to: ShuntMode): ShuntStep {
	const plan = planModeChange(state.mode, to);
	const notice: ShuntEffect = {
		type: "notify",
		message: `context-shunt: mode ${plan.changed ? to : state.mode}`,
		level: "info",
	};
	if (!plan.changed) return { state, effects: [notice], result: undefined };
	let next: ShuntSessionState = { ...state, mode: to };
	const effects: ShuntEffect[] = [];
	if (plan.cancelReader) effects.push({ type: "cancel-reader" });
	if (plan.lapseExceptions) {
		const lapsed = applyExceptionEvent(next, { type: "lapse", reason: "cancelled" });
		next = lapsed.state;
		effects.push(...lapsed.effects);
	}
	if (plan.persist) effects.push({ type: "persist-mode", mode: to });
	effects.push(audit(to, { event: "mode-changed" }), { type: "sync-tools" }, { type: "show-footer" }, notice);
	return { state: next, effects, result: undefined };
}

/**
 * `/context-shunt reset`: cancels the reader, lapses exceptions, zeroes counters, forgets observe's marks and ledger,
 * clears the artifact store, and audits it (the notice last).
 */
export function reduceShuntReset(state: ShuntSessionState): ShuntStep {
	const lapsed = applyExceptionEvent(state, { type: "lapse", reason: "cancelled" });
	return {
		state: {
			...lapsed.state,
			counters: emptyShuntCounters(),
			wouldBlockCalls: NO_CALLS,
			simulatedLedger: emptyArtifactLedger(),
		},
		effects: [
			{ type: "cancel-reader" },
			...lapsed.effects,
			{ type: "clear-artifacts" },
			audit(state.mode, { event: "reset" }),
			{ type: "notify", message: "context-shunt: counters, exceptions and artifacts reset", level: "info" },
		],
		result: undefined,
	};
}

/** `/context-shunt allow <token> <maxLines> <maxBytes>`: grants a blocked call once, or says the token is not usable. */
export function reduceShuntAllow(
	state: ShuntSessionState,
	input: { readonly token: string; readonly maxLines: number; readonly maxBytes: number; readonly now: number },
): ShuntStep {
	const applied = applyExceptionEvent(state, { type: "grant", ...input });
	const granted = applied.exceptionEffects.find((effect) => effect.type === "granted");
	if (granted?.type === "granted") {
		return {
			state: applied.state,
			effects: [
				...applied.effects,
				audit(state.mode, { event: "exception-granted" }),
				{
					type: "notify",
					message: `context-shunt: granted once for one minute (up to ${input.maxLines} lines and ${input.maxBytes} bytes)${granted.narrows ? "; the call will be narrowed" : ""}`,
					level: "info",
				},
			],
			result: undefined,
		};
	}
	return {
		state: applied.state,
		effects: [
			...applied.effects,
			{ type: "notify", message: "context-shunt: unknown, used or expired token", level: "warning" },
		],
		result: undefined,
	};
}

/** Counts one archive failure of the tools (the reader's answer). */
export function countShuntArchiveFailure(state: ShuntSessionState): ShuntSessionState {
	return bump(state, "archiveFailures");
}

/**
 * The mode recorded on a session branch: the data of its `context-shunt-mode` custom entries, latest valid first
 * ({@link latestValidMode}). `branch` is `ctx.sessionManager.getBranch()`. Never throws.
 */
export function modeOnBranch(branch: readonly unknown[]): ShuntMode | undefined {
	const entries: unknown[] = [];
	for (const entry of branch) {
		const e = entry as { type?: unknown; customType?: unknown; data?: unknown } | null;
		if (e?.type === "custom" && e.customType === SHUNT_MODE_ENTRY_TYPE) entries.push(e.data);
	}
	return latestValidMode(entries).mode;
}

/** How to bring the shunt's tools in line: register them once, or set the active tool list, or nothing. */
export type ShuntToolActivation =
	| { readonly kind: "register" }
	| { readonly kind: "set-active"; readonly tools: readonly string[] }
	| { readonly kind: "none" };

/**
 * The tools are wanted while the shunt is live or aging is on. Registered the first time they are wanted; after
 * that, (de)activated in `active` (Pi's active tool names), keeping the others in order. Never throws.
 */
export function planShuntToolActivation(input: {
	readonly want: boolean;
	readonly registered: boolean;
	readonly active: readonly string[];
	readonly names: readonly string[];
}): ShuntToolActivation {
	const { want, registered, active, names } = input;
	if (want && !registered) return { kind: "register" };
	if (!registered) return { kind: "none" };
	if (want) {
		const missing = names.filter((name) => !active.includes(name));
		return missing.length > 0 ? { kind: "set-active", tools: [...active, ...missing] } : { kind: "none" };
	}
	return active.some((name) => names.includes(name))
		? { kind: "set-active", tools: active.filter((name) => !names.includes(name)) }
		: { kind: "none" };
}

/** What the shell knows for `/context-shunt status`: the artifact store's live count and bytes, and the reader. */
export interface ShuntStatusFacts {
	readonly artifacts: number;
	readonly artifactBytes: number;
	readonly reader: ReaderStatus;
	readonly configValid: boolean;
	readonly agingEnabled: boolean;
}

/**
 * One parsed `/context-shunt` command, once the config lifecycle says the shunt is live: status answers whatever
 * the config; with an invalid config the others are refused with a notice; otherwise mode, reset or allow
 * ({@link reduceShuntModeCommand}, {@link reduceShuntReset}, {@link reduceShuntAllow}). Never throws.
 */
export function reduceShuntCommand(
	state: ShuntSessionState,
	input: { readonly command: ShuntCommand; readonly now: number; readonly status: ShuntStatusFacts },
): ShuntStep {
	const { command, status } = input;
	if (command.kind === "status") {
		const message = formatShuntStatus({
			mode: state.mode,
			counters: state.counters,
			artifacts: status.artifacts,
			artifactBytes: status.artifactBytes,
			reader: status.reader,
			configError: !status.configValid,
			aging: {
				enabled: status.agingEnabled,
				aged: state.aging.aged,
				keptOutBytes: state.aging.keptOutBytes,
				batches: state.aging.plan.batches,
			},
		});
		return { state, effects: [{ type: "notify", message, level: "info" }], result: undefined };
	}
	if (!status.configValid) {
		const message = "context-shunt is inactive for this session: its configuration is invalid.";
		return { state, effects: [{ type: "notify", message, level: "warning" }], result: undefined };
	}
	if (command.kind === "mode") return reduceShuntModeCommand(state, command.mode);
	if (command.kind === "reset") return reduceShuntReset(state);
	return reduceShuntAllow(state, {
		token: command.token,
		maxLines: command.maxLines,
		maxBytes: command.maxBytes,
		now: input.now,
	});
}

/** The reader's state for status: off by config, else ready when a model resolves from `source`. Never throws. */
export function shuntReaderStatus(
	reader: Pick<ContextShuntConfig["reader"], "enabled" | "source">,
	delegationState: DelegationStateV1 | undefined,
): ReaderStatus {
	if (!reader.enabled) return "off";
	return resolveReaderModel(reader.source, delegationState) === undefined ? "unavailable" : "ready";
}
