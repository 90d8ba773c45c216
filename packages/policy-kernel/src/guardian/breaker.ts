// The denial circuit breaker as a reducer: 3 consecutive denials, or 10 among the last 50 reviews, trip it.
// Review failures and timeouts do not count; a new user prompt resets the consecutive count and re-arms it.

/** Consecutive denials that trip the breaker. */
export const BREAKER_CONSECUTIVE_DENIALS = 3;
/** Denials within the window that trip the breaker. */
export const BREAKER_WINDOW_DENIALS = 10;
/** The window: the last this-many reviews. */
export const BREAKER_WINDOW_SIZE = 50;

/** Breaker state. */
export interface BreakerState {
	/** Denials since the last allow, user prompt or trip. */
	readonly consecutive: number;
	/** Outcomes of the last {@link BREAKER_WINDOW_SIZE} reviews, oldest first. */
	readonly window: readonly ("allow" | "deny")[];
	/** True from a trip until the next user prompt. */
	readonly tripped: boolean;
	/** Trips so far in this session. */
	readonly trips: number;
}

/** Events the breaker reacts to. */
export type BreakerEvent =
	| { readonly type: "review-decided"; readonly decision: "allow" | "deny" }
	| { readonly type: "review-failed" }
	| { readonly type: "user-prompt" };

/** Effects for the shell: abort the turn and notify the user. */
export type BreakerEffect = {
	readonly type: "trip";
	readonly cause: "consecutive" | "window";
	readonly consecutive: number;
	readonly windowDenials: number;
};

/** The initial, armed state. */
export function initialBreakerState(): BreakerState {
	return { consecutive: 0, window: [], tripped: false, trips: 0 };
}

/**
 * The breaker reducer. A denial adds to the consecutive count and the window; an allow resets the consecutive
 * count; a failure changes nothing. Reaching {@link BREAKER_CONSECUTIVE_DENIALS} consecutive denials or
 * {@link BREAKER_WINDOW_DENIALS} denials in the window trips it: the effect asks the shell to abort the turn,
 * and the counts and window restart. A user prompt re-arms it and resets the consecutive count.
 */
export function reduceBreaker(
	state: BreakerState,
	event: BreakerEvent,
): { state: BreakerState; effects: BreakerEffect[] } {
	switch (event?.type) {
		case "user-prompt":
			return { state: { ...state, consecutive: 0, tripped: false }, effects: [] };
		case "review-decided": {
			const window = [...state.window, event.decision].slice(-BREAKER_WINDOW_SIZE);
			const consecutive = event.decision === "deny" ? state.consecutive + 1 : 0;
			const windowDenials = window.filter((outcome) => outcome === "deny").length;
			const cause =
				consecutive >= BREAKER_CONSECUTIVE_DENIALS
					? "consecutive"
					: windowDenials >= BREAKER_WINDOW_DENIALS
						? "window"
						: undefined;
			if (cause !== undefined) {
				return {
					state: { consecutive: 0, window: [], tripped: true, trips: state.trips + 1 },
					effects: [{ type: "trip", cause, consecutive, windowDenials }],
				};
			}
			return { state: { ...state, consecutive, window }, effects: [] };
		}
		default:
			return { state, effects: [] };
	}
}
