// context-shunt counters and the status text: enums and counts only, never a path or corpus text.
import type { ShuntMode } from "./constants.js";

/** The session counters shown by `/context-shunt status`. */
export interface ShuntCounters {
	readonly blocked: number;
	readonly wouldBlock: number;
	readonly bounded: number;
	readonly wouldBound: number;
	readonly exceptions: number;
	readonly archiveFailures: number;
	readonly uncovered: number;
}

/** One of the counter names. */
export type ShuntCounterName = keyof ShuntCounters;

/** All counters at zero. */
export function emptyShuntCounters(): ShuntCounters {
	return { blocked: 0, wouldBlock: 0, bounded: 0, wouldBound: 0, exceptions: 0, archiveFailures: 0, uncovered: 0 };
}

/** Returns `counters` with `name` raised by `by` (default 1), saturating at `Number.MAX_SAFE_INTEGER`. */
export function bumpShuntCounter(counters: ShuntCounters, name: ShuntCounterName, by = 1): ShuntCounters {
	const step = Number.isSafeInteger(by) && by > 0 ? by : 0;
	return { ...counters, [name]: Math.min(Number.MAX_SAFE_INTEGER, counters[name] + step) };
}

/** The reader's availability as status shows it. */
export type ReaderStatus = "off" | "ready" | "unavailable";

/**
 * The status text: mode, the six spec counters (blocked, would-block, bounded, exceptions, archive-failures,
 * uncovered) plus would-bound, the live artifacts and their bytes, and the reader state. Counts only.
 */
export function formatShuntStatus(status: {
	readonly mode: ShuntMode;
	readonly counters: ShuntCounters;
	readonly artifacts: number;
	readonly artifactBytes: number;
	readonly reader: ReaderStatus;
	readonly configError?: boolean;
	/** Aging: on or off, results aged in the last request, the bytes they keep out, and batches so far. */
	readonly aging?: {
		readonly enabled: boolean;
		readonly aged: number;
		readonly keptOutBytes: number;
		readonly batches: number;
	};
}): string {
	const c = status.counters;
	const aging = status.aging;
	const agingLine =
		aging === undefined
			? []
			: [
					aging.enabled
						? `aging on · aged ${aging.aged} results (${aging.keptOutBytes} bytes kept out) · batches ${aging.batches}`
						: "aging off",
				];
	return [
		`context-shunt: mode ${status.mode}${status.configError ? " (config invalid: inactive)" : ""}`,
		`blocked ${c.blocked} · would-block ${c.wouldBlock} · bounded ${c.bounded} · would-bound ${c.wouldBound} · exceptions ${c.exceptions} · archive-failures ${c.archiveFailures} · uncovered ${c.uncovered}`,
		`artifacts ${status.artifacts} (${status.artifactBytes} bytes) · reader ${status.reader}`,
		...agingLine,
	].join("\n");
}

/** The short footer status for a mode, or `undefined` (cleared) when off. */
export function shuntFooterStatus(mode: ShuntMode): string | undefined {
	return mode === "off" ? undefined : `shunt:${mode}`;
}
