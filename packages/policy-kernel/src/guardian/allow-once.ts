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

/**
 * Why `/guardian allow-once` found nothing to grant: no denial to allow (`none`), the last denial was a floor
 * hard-deny (`hard-deny`), a call that may have changed files finished after it (`changed`), guardian was switched
 * off or on since (`forgotten`), it was granted already and the grant waits (`granted`), the grant was used (`used`),
 * it is older than a grant's life (`expired`), or a call that may change files still runs (`change-running`).
 */
export type NothingToGrantReason =
	| "none"
	| "hard-deny"
	| "changed"
	| "forgotten"
	| "granted"
	| "used"
	| "expired"
	| "change-running";

/** Allow-once state. */
export interface AllowOnceState {
	/** The most recently denied action that may be granted. */
	readonly lastDenied: { readonly hash: string; readonly at: number } | undefined;
	readonly grants: readonly AllowOnceGrant[];
	/** Why the last denial is no longer there to grant, once it was dropped (absent: nothing was denied). */
	readonly dropped?: Exclude<NothingToGrantReason, "none" | "change-running">;
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
	| { readonly type: "nothing-to-grant"; readonly reason: NothingToGrantReason }
	| { readonly type: "consumed" }
	| { readonly type: "expired" };

/**
 * A live grant a denied call did not use: one for this very call, held back (a command the agent started still ran,
 * or the files it names changed since the grant), or only grants for other calls (a grant is for the exact call).
 */
export type WaitingGrant = "this-call" | "other-call";

/**
 * Which live grant waits beside a call about to be denied (`hash`), for the denial notification: a user who granted
 * a call and sees it denied again learns why. `undefined` when no grant lives at `now`.
 */
export function waitingGrantOf(state: AllowOnceState, hash: string, now: number): WaitingGrant | undefined {
	const live = state.grants.filter((grant) => grant.expiresAt > now);
	if (live.length === 0) return undefined;
	return live.some((grant) => grant.hash === hash) ? "this-call" : "other-call";
}

/** The empty state. */
export function initialAllowOnceState(): AllowOnceState {
	return { lastDenied: undefined, grants: [] };
}

/**
 * The allow-once reducer. A grant is for the action the user saw denied, in the files as they were: the same input
 * may do something else once they changed (`sh build.sh` after `write build.sh`; decision 0025).
 * - `denied`: remembers the action when it is eligible (a reviewer or unavailable-review denial); an ineligible
 *   denial (a floor hard-deny) clears the memory, so a grant never reaches past it. Whatever drops the remembered
 *   action records why (`dropped`), for the `nothing-to-grant` effect's reason.
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
				state: event.eligible
					? { lastDenied: { hash: event.hash, at: event.at }, grants: state.grants }
					: { lastDenied: undefined, grants: state.grants, dropped: "hard-deny" },
				effects: [],
			};
		case "grant": {
			const nothing = (reason: NothingToGrantReason) => ({
				state,
				effects: [{ type: "nothing-to-grant", reason } as const],
			});
			if (state.lastDenied === undefined) return nothing(state.dropped ?? "none");
			// A denial older than a grant's life is not granted: the user no longer has it in front of them.
			if (event.now - state.lastDenied.at > ALLOW_ONCE_TTL_MS) return nothing("expired");
			if (event.changeRunning === true) return nothing("change-running");
			const expiresAt = event.now + ALLOW_ONCE_TTL_MS;
			const live = state.grants.filter((grant) => grant.expiresAt > event.now && grant.hash !== state.lastDenied?.hash);
			const fingerprint = event.fingerprint === undefined ? {} : { fingerprint: event.fingerprint };
			const grants = [...live, { hash: state.lastDenied.hash, expiresAt, ...fingerprint }].slice(
				-MAX_ALLOW_ONCE_GRANTS,
			);
			return {
				state: { lastDenied: undefined, grants, dropped: "granted" },
				effects: [{ type: "granted", expiresAt }],
			};
		}
		case "check": {
			const match = state.grants.find((grant) => grant.hash === event.hash);
			if (match === undefined || event.changeRunning === true) return { state, effects: [] };
			if (match.fingerprint !== undefined && match.fingerprint !== event.fingerprint) return { state, effects: [] };
			const grants = state.grants.filter((grant) => grant !== match);
			const consumed = match.expiresAt > event.now;
			const dropped =
				state.lastDenied === undefined ? { dropped: consumed ? ("used" as const) : ("expired" as const) } : {};
			return {
				state: { lastDenied: state.lastDenied, grants, ...(state.lastDenied === undefined ? dropped : {}) },
				effects: [consumed ? { type: "consumed" } : { type: "expired" }],
			};
		}
		case "files-changed": {
			if (state.lastDenied !== undefined && !event.madeDenied) {
				return { state: { lastDenied: undefined, grants: [], dropped: "changed" }, effects: [] };
			}
			if (state.grants.length === 0) return { state, effects: [] };
			// A waiting grant the change dropped: say so, not that it still waits.
			const dropped = state.lastDenied === undefined ? { dropped: "changed" as const } : {};
			return { state: { lastDenied: state.lastDenied, grants: [], ...dropped }, effects: [] };
		}
		case "forget":
			return state.lastDenied === undefined && state.grants.length === 0
				? { state, effects: [] }
				: { state: { lastDenied: undefined, grants: [], dropped: "forgotten" }, effects: [] };
		default:
			return { state, effects: [] };
	}
}
