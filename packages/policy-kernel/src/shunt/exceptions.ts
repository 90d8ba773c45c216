// context-shunt user exceptions: tokens issued by a block, granted once by the user, consumed by the matching call.
import { EXCEPTION_RULES } from "./constants.js";

/** A token issued with a block: names the exact call (tool, input fingerprint, declared range). */
export interface IssuedToken {
	readonly token: string;
	readonly tool: "read" | "powershell";
	/** Fingerprint of the exact blocked call (tool name and whole input). */
	readonly fingerprint: string;
	readonly declaredLines: number;
	readonly issuedAt: number;
}

/** A token the user granted with `/context-shunt allow <token> <maxLines> <maxBytes>`. */
export interface Grant extends IssuedToken {
	readonly maxLines: number;
	readonly maxBytes: number;
	readonly expiresAt: number;
}

/** A grant a matching call consumed; held until that call's result arrives. */
export interface ConsumedAuthorization {
	readonly toolCallId: string;
	readonly tool: "read" | "powershell";
	/** Fingerprint of the call as admitted (after narrowing). */
	readonly fingerprint: string;
	/** The declared lines as admitted: `min(declared, maxLines)`. */
	readonly admittedLines: number;
	readonly maxLines: number;
	readonly maxBytes: number;
	readonly expiresAt: number;
}

/** All exception state of one session. */
export interface ExceptionState {
	readonly issued: readonly IssuedToken[];
	readonly grants: readonly Grant[];
	readonly consumed: readonly ConsumedAuthorization[];
}

/** Why an authorization fell back to the ordinary limits. */
export type ExceptionLapse =
	| "evicted"
	| "changed"
	| "expired"
	| "cancelled"
	| "agent-ended"
	| "branch-changed"
	| "terminal";

/** Events of {@link reduceExceptions}. */
export type ExceptionEvent =
	| {
			readonly type: "issue";
			readonly token: string;
			readonly tool: "read" | "powershell";
			readonly fingerprint: string;
			readonly declaredLines: number;
			readonly now: number;
	  }
	| {
			readonly type: "grant";
			readonly token: string;
			readonly maxLines: number;
			readonly maxBytes: number;
			readonly now: number;
	  }
	| {
			readonly type: "consume";
			readonly token: string;
			readonly toolCallId: string;
			readonly admittedFingerprint: string;
			readonly now: number;
	  }
	| { readonly type: "settle"; readonly toolCallId: string; readonly fingerprint: string; readonly now: number }
	| { readonly type: "expire"; readonly now: number }
	| {
			readonly type: "lapse";
			readonly reason: "cancelled" | "agent-ended" | "branch-changed" | "terminal";
	  };

/** Effects for the shell. */
export type ExceptionEffect =
	| { readonly type: "issued"; readonly token: string }
	| { readonly type: "granted"; readonly token: string; readonly narrows: boolean; readonly expiresAt: number }
	| { readonly type: "grant-refused"; readonly reason: "unknown-token" | "invalid-bounds" }
	| { readonly type: "consumed"; readonly toolCallId: string; readonly narrowTo: number | undefined }
	| {
			readonly type: "applied";
			readonly toolCallId: string;
			readonly maxLines: number;
			readonly maxBytes: number;
			readonly admittedLines: number;
	  }
	| { readonly type: "lapsed"; readonly reason: ExceptionLapse; readonly count: number };

/** Bounds; defaults are {@link EXCEPTION_RULES}. Fixed by the contract: there is no configuration setting. */
export interface ExceptionBounds {
	readonly grantTtlMs: number;
	readonly maxConsumed: number;
	readonly maxIssued: number;
	readonly maxGrantValue: number;
}

/** No tokens, grants or consumed authorizations. */
export function emptyExceptionState(): ExceptionState {
	return { issued: [], grants: [], consumed: [] };
}

/** The live grant for a call with `fingerprint` at `now`, or `undefined`. A pure query; nothing is consumed. */
export function findGrant(state: ExceptionState, fingerprint: string, now: number): Grant | undefined {
	return state.grants.find((grant) => grant.fingerprint === fingerprint && now < grant.expiresAt);
}

/** The line count a consumed grant narrows its call to, or `undefined` when the grant covers the whole range. */
export function grantNarrowing(grant: Grant): number | undefined {
	return grant.maxLines < grant.declaredLines ? grant.maxLines : undefined;
}

/**
 * The exception reducer. A token is issued with each block (the 8 most recent are kept). Only the user grants
 * it, for one minute; model content can never create one. The next call whose fingerprint matches consumes
 * the grant exactly once and is admitted, narrowed to `maxLines` when that is below its declared range. Up to
 * 8 consumed authorizations are retained until their results settle: a result whose call changed after
 * admission, or that settles after the expiry, lapses to the ordinary limits, as does an authorization that is
 * evicted, cancelled (off/reset), ended with the agent, abandoned by a branch change, or terminal (shutdown).
 * Grants not yet consumed survive an agent end until they expire. Never throws.
 */
export function reduceExceptions(
	state: ExceptionState,
	event: ExceptionEvent,
	bounds: ExceptionBounds = EXCEPTION_RULES,
): { state: ExceptionState; effects: ExceptionEffect[] } {
	switch (event?.type) {
		case "issue": {
			const issued = [
				...state.issued.filter((entry) => entry.fingerprint !== event.fingerprint),
				{
					token: event.token,
					tool: event.tool,
					fingerprint: event.fingerprint,
					declaredLines: event.declaredLines,
					issuedAt: event.now,
				},
			];
			return {
				state: { ...state, issued: issued.slice(-bounds.maxIssued) },
				effects: [{ type: "issued", token: event.token }],
			};
		}
		case "grant": {
			const pruned = pruneGrants(state, event.now);
			const valid = (value: number) => Number.isInteger(value) && value >= 1 && value <= bounds.maxGrantValue;
			if (!valid(event.maxLines) || !valid(event.maxBytes)) {
				return {
					state: pruned.state,
					effects: [...pruned.effects, { type: "grant-refused", reason: "invalid-bounds" }],
				};
			}
			const token = pruned.state.issued.find((entry) => entry.token === event.token);
			if (token === undefined) {
				return {
					state: pruned.state,
					effects: [...pruned.effects, { type: "grant-refused", reason: "unknown-token" }],
				};
			}
			const grant: Grant = {
				...token,
				maxLines: event.maxLines,
				maxBytes: event.maxBytes,
				expiresAt: event.now + bounds.grantTtlMs,
			};
			return {
				state: {
					...pruned.state,
					issued: pruned.state.issued.filter((entry) => entry.token !== event.token),
					grants: [...pruned.state.grants.filter((entry) => entry.fingerprint !== grant.fingerprint), grant],
				},
				effects: [
					...pruned.effects,
					{
						type: "granted",
						token: grant.token,
						narrows: grantNarrowing(grant) !== undefined,
						expiresAt: grant.expiresAt,
					},
				],
			};
		}
		case "consume": {
			const pruned = pruneGrants(state, event.now);
			const grant = pruned.state.grants.find((entry) => entry.token === event.token);
			if (grant === undefined) return pruned;
			const narrowTo = grantNarrowing(grant);
			const consumed: ConsumedAuthorization = {
				toolCallId: event.toolCallId,
				tool: grant.tool,
				fingerprint: event.admittedFingerprint,
				admittedLines: narrowTo ?? grant.declaredLines,
				maxLines: grant.maxLines,
				maxBytes: grant.maxBytes,
				expiresAt: grant.expiresAt,
			};
			const all = [...pruned.state.consumed.filter((entry) => entry.toolCallId !== event.toolCallId), consumed];
			const evicted = Math.max(0, all.length - bounds.maxConsumed);
			const effects: ExceptionEffect[] = [
				...pruned.effects,
				{ type: "consumed", toolCallId: event.toolCallId, narrowTo },
			];
			if (evicted > 0) effects.push({ type: "lapsed", reason: "evicted", count: evicted });
			return {
				state: {
					...pruned.state,
					grants: pruned.state.grants.filter((entry) => entry !== grant),
					consumed: all.slice(evicted),
				},
				effects,
			};
		}
		case "settle": {
			const record = state.consumed.find((entry) => entry.toolCallId === event.toolCallId);
			if (record === undefined) return { state, effects: [] };
			const next = { ...state, consumed: state.consumed.filter((entry) => entry !== record) };
			if (record.fingerprint !== event.fingerprint) {
				return { state: next, effects: [{ type: "lapsed", reason: "changed", count: 1 }] };
			}
			if (event.now >= record.expiresAt)
				return { state: next, effects: [{ type: "lapsed", reason: "expired", count: 1 }] };
			return {
				state: next,
				effects: [
					{
						type: "applied",
						toolCallId: record.toolCallId,
						maxLines: record.maxLines,
						maxBytes: record.maxBytes,
						admittedLines: record.admittedLines,
					},
				],
			};
		}
		case "expire":
			return pruneGrants(state, event.now);
		case "lapse": {
			const keepGrants = event.reason === "agent-ended";
			const count = state.consumed.length + (keepGrants ? 0 : state.grants.length);
			return {
				state: keepGrants ? { ...state, consumed: [] } : emptyExceptionState(),
				effects: count > 0 ? [{ type: "lapsed", reason: event.reason, count }] : [],
			};
		}
		default:
			return { state, effects: [] };
	}
}

function pruneGrants(state: ExceptionState, now: number): { state: ExceptionState; effects: ExceptionEffect[] } {
	const live = state.grants.filter((grant) => now < grant.expiresAt);
	const expired = state.grants.length - live.length;
	if (expired === 0) return { state, effects: [] };
	return { state: { ...state, grants: live }, effects: [{ type: "lapsed", reason: "expired", count: expired }] };
}
