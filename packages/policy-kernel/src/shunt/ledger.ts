// context-shunt artifact ledger: per-session quota accounting and expiry, as a reducer over injected time.
import { ARTIFACT_QUOTA, type ShuntTool } from "./constants.js";

/**
 * What an artifact holds: a preserved built-in result, a configured tool's result (`tool`), or a reader answer too
 * large to return inline. `tool` artifacts have their own pool (`toolArtifactBytes`, `toolSessionBytes`).
 */
export type ArtifactSource = ShuntTool | "tool" | "reader-answer";

/** The quota pool of a source: configured tools have their own, everything else shares seed 004's. */
export function artifactPoolOf(source: ArtifactSource): "builtin" | "tool" {
	return source === "tool" ? "tool" : "builtin";
}

/** One live artifact. Sizes are UTF-8 bytes; times are milliseconds from the injected clock. */
export interface ArtifactRecord {
	readonly id: string;
	readonly source: ArtifactSource;
	readonly bytes: number;
	readonly lines: number;
	readonly createdAt: number;
	readonly expiresAt: number;
}

/** The live artifacts of one session. Expired ones are dropped by the next event that carries a time. */
export interface ArtifactLedger {
	readonly artifacts: readonly ArtifactRecord[];
}

/** An empty ledger. */
export function emptyArtifactLedger(): ArtifactLedger {
	return { artifacts: [] };
}

/** Why a reservation was refused. All three count as `archive-failures` with category `quota-exhausted`. */
export type QuotaRefusal = "artifact-too-large" | "artifact-count" | "session-bytes";

/** Events of {@link reduceArtifactLedger}. */
export type LedgerEvent =
	| {
			readonly type: "reserve";
			readonly id: string;
			readonly source: ArtifactSource;
			readonly bytes: number;
			readonly lines: number;
			readonly now: number;
			/** The pool's bounds, for a `tool` artifact (from config); others use the reducer's bounds. */
			readonly bounds?: LedgerBounds;
	  }
	| { readonly type: "release"; readonly id: string }
	| { readonly type: "expire"; readonly now: number }
	| { readonly type: "clear" };

/** Effects for the shell to perform. */
export type LedgerEffect =
	| { readonly type: "reserved"; readonly record: ArtifactRecord }
	| { readonly type: "refused"; readonly reason: QuotaRefusal }
	| { readonly type: "expired"; readonly id: string }
	| { readonly type: "released"; readonly id: string };

/** The quota bounds; defaults are {@link ARTIFACT_QUOTA}. Injectable for tests only, never configurable. */
export interface LedgerBounds {
	readonly maxArtifacts: number;
	readonly maxTotalBytes: number;
	readonly maxArtifactBytes: number;
	readonly ttlMs: number;
}

/** Total bytes of the live artifacts. */
export function ledgerBytes(ledger: ArtifactLedger): number {
	return ledger.artifacts.reduce((sum, record) => sum + record.bytes, 0);
}

/** The live record with `id` at time `now`, or `undefined` when unknown or expired. */
export function findLiveArtifact(ledger: ArtifactLedger, id: unknown, now: number): ArtifactRecord | undefined {
	if (typeof id !== "string") return undefined;
	const record = ledger.artifacts.find((entry) => entry.id === id);
	return record !== undefined && now < record.expiresAt ? record : undefined;
}

/**
 * The artifact ledger reducer.
 * - `reserve` first expires stale records, then admits the artifact only when it holds at most 64 KiB, fewer
 *   than 8 artifacts are live and the live total stays within 512 KiB (a `tool` artifact: the `bounds` of its
 *   event, counted over `tool` artifacts only); otherwise it emits `refused` and the
 *   ledger is unchanged (the shell leaves the original result intact). An admitted record expires 30 minutes
 *   after `now`; nothing renews it.
 * - `expire` drops every record whose expiry is at or before `now`.
 * - `release` drops one record (its file is gone), `clear` drops all.
 * Never throws; a malformed event leaves the state unchanged.
 */
export function reduceArtifactLedger(
	state: ArtifactLedger,
	event: LedgerEvent,
	bounds: LedgerBounds = ARTIFACT_QUOTA,
): { state: ArtifactLedger; effects: LedgerEffect[] } {
	switch (event?.type) {
		case "expire":
			return expire(state, event.now);
		case "release": {
			const kept = state.artifacts.filter((record) => record.id !== event.id);
			if (kept.length === state.artifacts.length) return { state, effects: [] };
			return { state: { artifacts: kept }, effects: [{ type: "released", id: event.id }] };
		}
		case "clear":
			return {
				state: emptyArtifactLedger(),
				effects: state.artifacts.map((record) => ({ type: "released" as const, id: record.id })),
			};
		case "reserve": {
			const expired = expire(state, event.now);
			const live = expired.state;
			const pool = artifactPoolOf(event.source);
			const limits = pool === "tool" && event.bounds !== undefined ? event.bounds : bounds;
			const pooled = live.artifacts.filter((record) => artifactPoolOf(record.source) === pool);
			const bytes = Number.isSafeInteger(event.bytes) && event.bytes >= 0 ? event.bytes : Number.POSITIVE_INFINITY;
			let reason: QuotaRefusal | undefined;
			if (bytes > limits.maxArtifactBytes) reason = "artifact-too-large";
			else if (pooled.length >= limits.maxArtifacts) reason = "artifact-count";
			else if (pooled.reduce((sum, record) => sum + record.bytes, 0) + bytes > limits.maxTotalBytes)
				reason = "session-bytes";
			if (reason !== undefined) return { state: live, effects: [...expired.effects, { type: "refused", reason }] };
			const record: ArtifactRecord = {
				id: event.id,
				source: event.source,
				bytes,
				lines: Math.max(0, Math.trunc(event.lines) || 0),
				createdAt: event.now,
				expiresAt: event.now + limits.ttlMs,
			};
			return {
				state: { artifacts: [...live.artifacts, record] },
				effects: [...expired.effects, { type: "reserved", record }],
			};
		}
		default:
			return { state, effects: [] };
	}
}

function expire(state: ArtifactLedger, now: number): { state: ArtifactLedger; effects: LedgerEffect[] } {
	const kept: ArtifactRecord[] = [];
	const effects: LedgerEffect[] = [];
	for (const record of state.artifacts) {
		if (now >= record.expiresAt) effects.push({ type: "expired", id: record.id });
		else kept.push(record);
	}
	return effects.length === 0 ? { state, effects } : { state: { artifacts: kept }, effects };
}
