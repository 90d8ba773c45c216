// Shared decision vocabulary: Result, allow/warn/block decisions and the failure direction of a guard.

/** A successful result carrying a value. */
export interface Ok<T> {
	readonly ok: true;
	readonly value: T;
}

/** A failed result carrying a concise error that contains no path and no user content. */
export interface Err<E> {
	readonly ok: false;
	readonly error: E;
}

/** The outcome of a kernel function that can fail on bad input. Kernel functions return it instead of throwing. */
export type Result<T, E = string> = Ok<T> | Err<E>;

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): Ok<T> {
	return { ok: true, value };
}

/** Wraps an error as a failed {@link Result}. */
export function err<E = string>(error: E): Err<E> {
	return { ok: false, error };
}

/** True when the result succeeded. */
export function isOk<T, E>(result: Result<T, E>): result is Ok<T> {
	return result.ok;
}

/** True when the result failed. */
export function isErr<T, E>(result: Result<T, E>): result is Err<E> {
	return !result.ok;
}

/** Maps the value of a successful result; a failed result passes through unchanged. */
export function mapResult<T, U, E>(result: Result<T, E>, map: (value: T) => U): Result<U, E> {
	return result.ok ? ok(map(result.value)) : result;
}

/** Returns the value of a successful result, or `fallback` when it failed. */
export function unwrapOr<T, E>(result: Result<T, E>, fallback: T): T {
	return result.ok ? result.value : fallback;
}

/**
 * Which way a handler fails on an internal error.
 * - `open`: the original call or result proceeds unchanged (pacing and context guards).
 * - `closed`: the action is refused (authorization and delegation validity).
 */
export type FailureDirection = "open" | "closed";

/** Every failure direction, for validation and tests. */
export const FAILURE_DIRECTIONS = ["open", "closed"] as const satisfies readonly FailureDirection[];

/** The three actions a policy can take on a call, ordered from weakest to strongest. */
export const DECISION_ACTIONS = ["allow", "warn", "block"] as const;

/** One of {@link DECISION_ACTIONS}. */
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** The call proceeds. */
export interface AllowDecision {
	readonly action: "allow";
}

/** The call proceeds, and the shell nudges or notifies with the stable reason code. */
export interface WarnDecision<C extends string = string> {
	readonly action: "warn";
	readonly code: C;
}

/** The call is refused with the stable reason code; the shell turns the code into wording. */
export interface BlockDecision<C extends string = string> {
	readonly action: "block";
	readonly code: C;
}

/** A policy decision about one call. Reason codes are closed enums chosen by each domain, never free text. */
export type Decision<C extends string = string> = AllowDecision | WarnDecision<C> | BlockDecision<C>;

const ALLOW: AllowDecision = Object.freeze({ action: "allow" });

/** The allow decision. */
export function allow(): AllowDecision {
	return ALLOW;
}

/** A warn decision with a reason code. */
export function warn<C extends string>(code: C): WarnDecision<C> {
	return { action: "warn", code };
}

/** A block decision with a reason code. */
export function block<C extends string>(code: C): BlockDecision<C> {
	return { action: "block", code };
}

/** Rank of an action: allow 0, warn 1, block 2. */
export function decisionRank(action: DecisionAction): number {
	return DECISION_ACTIONS.indexOf(action);
}

/**
 * Returns the stronger of two decisions (block over warn over allow). On a tie the first one wins, so
 * combining is stable and the earliest reason code is kept.
 */
export function strongerDecision<C extends string>(a: Decision<C>, b: Decision<C>): Decision<C> {
	return decisionRank(b.action) > decisionRank(a.action) ? b : a;
}

/** Combines any number of decisions into the strongest one; no decisions means allow. */
export function combineDecisions<C extends string>(decisions: Iterable<Decision<C>>): Decision<C> {
	let current: Decision<C> = ALLOW;
	for (const decision of decisions) current = strongerDecision(current, decision);
	return current;
}

/**
 * The decision a handler falls back to on an internal error: allow when it fails open, block with `code`
 * when it fails closed.
 */
export function decisionOnFailure<C extends string>(direction: FailureDirection, code: C): Decision<C> {
	return direction === "closed" ? block(code) : ALLOW;
}
