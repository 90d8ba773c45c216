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
	/** The shell's fingerprint of the files the action names, when it was granted (see the `grant` event). */
	readonly fingerprint?: string;
}

/** Allow-once state. */
export interface AllowOnceState {
	/** The most recently denied action that may be granted. */
	readonly lastDenied: { readonly hash: string; readonly at: number } | undefined;
	readonly grants: readonly AllowOnceGrant[];
}

/** Events. */
export type AllowOnceEvent =
	| { readonly type: "denied"; readonly hash: string; readonly at: number; readonly eligible: boolean }
	/**
	 * `changeRunning`: an allowed call that may change files still runs, other than the calls that made the denied one
	 * (a code-mode script around it).
	 */
	| {
			readonly type: "grant";
			readonly now: number;
			readonly changeRunning?: boolean;
			/**
			 * The shell's fingerprint of the files the denied action names (their identity, size and change time): a grant
			 * is used only while the files match it, whatever changed them (work a call left running in the background).
			 */
			readonly fingerprint?: string;
	  }
	/** `changeRunning`: as for `grant`, other than the calls that made this one; `fingerprint`: the files' now. */
	| {
			readonly type: "check";
			readonly hash: string;
			readonly now: number;
			readonly changeRunning?: boolean;
			readonly fingerprint?: string;
	  }
	/**
	 * An allowed call that may have changed files finished. `madeDenied`: it made the denied call (the code-mode script
	 * whose nested call was denied).
	 */
	| { readonly type: "files-changed"; readonly madeDenied: boolean }
	/** Guardian was off, or turned off, for a while: calls then ran unseen. */
	| { readonly type: "forget" };

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
 * The allow-once reducer. A grant is for the action the user saw denied, in the files as they were: the same input
 * may do something else once they changed (`sh build.sh` after `write build.sh`; decision 0025).
 * - `denied`: remembers the action when it is eligible (a reviewer or unavailable-review denial); an ineligible
 *   denial (a floor hard-deny) clears the memory, so a grant never reaches past it.
 * - `grant`: turns the remembered action, if denied within {@link ALLOW_ONCE_TTL_MS}, into a grant expiring that
 *   long after; nothing while a call that may change files still runs.
 * - `check`: consumes a live grant for the hash (effect `consumed`), or drops an expired one (effect `expired`). While
 *   a call that may change files still runs, or while the named files differ from the grant's fingerprint, the grant
 *   is left alone (no effect).
 * - `files-changed`: drops every grant, and the remembered denial unless the call that finished made it.
 * - `forget`: drops every grant and the remembered denial.
 */
export function reduceAllowOnce(
	state: AllowOnceState,
	event: AllowOnceEvent,
): { state: AllowOnceState; effects: AllowOnceEffect[] } {
	switch (event?.type) {
		case "denied":
			return {
				state: { ...state, lastDenied: event.eligible ? { hash: event.hash, at: event.at } : undefined },
				effects: [],
			};
		case "grant": {
			// A denial older than a grant's life is not granted: the user no longer has it in front of them.
			if (
				state.lastDenied === undefined ||
				event.now - state.lastDenied.at > ALLOW_ONCE_TTL_MS ||
				event.changeRunning === true
			)
				return { state, effects: [{ type: "nothing-to-grant" }] };
			const expiresAt = event.now + ALLOW_ONCE_TTL_MS;
			const live = state.grants.filter((grant) => grant.expiresAt > event.now && grant.hash !== state.lastDenied?.hash);
			const fingerprint = event.fingerprint === undefined ? {} : { fingerprint: event.fingerprint };
			const grants = [...live, { hash: state.lastDenied.hash, expiresAt, ...fingerprint }].slice(
				-MAX_ALLOW_ONCE_GRANTS,
			);
			return { state: { lastDenied: undefined, grants }, effects: [{ type: "granted", expiresAt }] };
		}
		case "check": {
			const match = state.grants.find((grant) => grant.hash === event.hash);
			if (match === undefined || event.changeRunning === true) return { state, effects: [] };
			if (match.fingerprint !== undefined && match.fingerprint !== event.fingerprint) return { state, effects: [] };
			const grants = state.grants.filter((grant) => grant !== match);
			return {
				state: { ...state, grants },
				effects: [match.expiresAt > event.now ? { type: "consumed" } : { type: "expired" }],
			};
		}
		case "files-changed": {
			const lastDenied = event.madeDenied ? state.lastDenied : undefined;
			if (lastDenied === state.lastDenied && state.grants.length === 0) return { state, effects: [] };
			return { state: { lastDenied, grants: [] }, effects: [] };
		}
		case "forget":
			return state.lastDenied === undefined && state.grants.length === 0
				? { state, effects: [] }
				: { state: initialAllowOnceState(), effects: [] };
		default:
			return { state, effects: [] };
	}
}
