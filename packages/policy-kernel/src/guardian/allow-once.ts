// Allow-once grants as a reducer: `/guardian allow-once` approves the most recently denied exact action (by its
// hash), once, for 5 minutes. Floor hard-denies are not eligible.

/** How long a grant lives. */
export const ALLOW_ONCE_TTL_MS = 5 * 60 * 1000;
/** At most this many live grants are kept. */
export const MAX_ALLOW_ONCE_GRANTS = 16;

/** A single-use grant for one exact action. */
export interface AllowOnceGrant {
	readonly hash: string;
	readonly expiresAt: number;
	/** The sequence number of the last call planned before the grant (see `GuardianState.plannedCalls`). */
	readonly after: number;
}

/** Allow-once state. */
export interface AllowOnceState {
	/** The most recently denied action that may be granted. */
	readonly lastDenied: { readonly hash: string; readonly at: number; readonly sequence: number } | undefined;
	readonly grants: readonly AllowOnceGrant[];
}

/** Events. */
export type AllowOnceEvent =
	| {
			readonly type: "denied";
			readonly hash: string;
			readonly at: number;
			readonly eligible: boolean;
			/** The denied call's sequence number (default 0). */
			readonly sequence?: number;
	  }
	/**
	 * `sequence`: the last planned call's sequence number (default 0). `runningChange`: the highest sequence number of
	 * an allowed call that may change files and is still running (a fifty-eighth review).
	 */
	| { readonly type: "grant"; readonly now: number; readonly sequence?: number; readonly runningChange?: number }
	/** `runningChange`: as for `grant`, leaving out the calls that made this one (a code-mode script). */
	| { readonly type: "check"; readonly hash: string; readonly now: number; readonly runningChange?: number }
	/** A call that may have changed files, planned as `allowedAt`, finished running. */
	| { readonly type: "files-changed"; readonly allowedAt: number };

/** Effects: a grant was made or there was nothing to grant; a call consumed a grant, or found only an expired one. */
export type AllowOnceEffect =
	| { readonly type: "granted"; readonly expiresAt: number }
	| { readonly type: "nothing-to-grant" }
	| { readonly type: "consumed" }
	| { readonly type: "expired" };

/** The empty state. */
export function initialAllowOnceState(): AllowOnceState {
	return { lastDenied: undefined, grants: [] };
}

/**
 * The allow-once reducer.
 * - `denied`: remembers the action when it is eligible (a reviewer or unavailable-review denial); an ineligible
 *   denial (a floor hard-deny) clears the memory, so a grant never reaches past it.
 * - `grant`: turns the remembered action, if denied within {@link ALLOW_ONCE_TTL_MS}, into a grant expiring that
 *   long after; not while a call planned after the denial that may change files still runs.
 * - `check`: consumes a live grant for the hash (effect `consumed`), or drops an expired one (effect `expired`). A grant
 *   is left alone (no effect) while a call planned after it that may change files still runs: it may be changing what
 *   the action does.
 * - `files-changed`: a call planned after the remembered denial, or after a grant, may have changed what the same
 *   action does (`write build.sh` before `sh build.sh`): that memory or grant is dropped. A call planned before
 *   (code mode's script, still running when its nested call was denied) leaves them.
 */
export function reduceAllowOnce(
	state: AllowOnceState,
	event: AllowOnceEvent,
): { state: AllowOnceState; effects: AllowOnceEffect[] } {
	switch (event?.type) {
		case "denied":
			return {
				state: {
					...state,
					lastDenied: event.eligible ? { hash: event.hash, at: event.at, sequence: event.sequence ?? 0 } : undefined,
				},
				effects: [],
			};
		case "grant": {
			// A denial older than a grant's life is not granted: the user no longer has it in front of them.
			// Nor one a call planned after it may be changing while it runs (a fifty-eighth review).
			if (
				state.lastDenied === undefined ||
				event.now - state.lastDenied.at > ALLOW_ONCE_TTL_MS ||
				(event.runningChange ?? 0) > state.lastDenied.sequence
			)
				return { state, effects: [{ type: "nothing-to-grant" }] };
			const expiresAt = event.now + ALLOW_ONCE_TTL_MS;
			const live = state.grants.filter((grant) => grant.expiresAt > event.now && grant.hash !== state.lastDenied?.hash);
			const grants = [...live, { hash: state.lastDenied.hash, expiresAt, after: event.sequence ?? 0 }].slice(
				-MAX_ALLOW_ONCE_GRANTS,
			);
			return { state: { lastDenied: undefined, grants }, effects: [{ type: "granted", expiresAt }] };
		}
		case "check": {
			const match = state.grants.find((grant) => grant.hash === event.hash);
			if (match === undefined || (event.runningChange ?? 0) > match.after) return { state, effects: [] };
			const grants = state.grants.filter((grant) => grant !== match);
			return {
				state: { ...state, grants },
				effects: [match.expiresAt > event.now ? { type: "consumed" } : { type: "expired" }],
			};
		}
		case "files-changed": {
			const lastDenied =
				state.lastDenied !== undefined && event.allowedAt > state.lastDenied.sequence ? undefined : state.lastDenied;
			const grants = state.grants.filter((grant) => event.allowedAt <= grant.after);
			if (lastDenied === state.lastDenied && grants.length === state.grants.length) return { state, effects: [] };
			return { state: { lastDenied, grants }, effects: [] };
		}
		default:
			return { state, effects: [] };
	}
}
