// What each audit entry says was kept out of the model's context, and the approximate token figure for it.
import type { AuditEntryV1 } from "../audit.js";

/** Bytes per token for the approximate token figure (a common rule of thumb for English text and code). */
export const BYTES_PER_TOKEN = 4;

/** Approximate tokens for `bytes`: `ceil(bytes / 4)`; 0 for anything that is not a positive number. */
export function approximateTokens(bytes: number): number {
	return typeof bytes === "number" && Number.isFinite(bytes) && bytes > 0 ? Math.ceil(bytes / BYTES_PER_TOKEN) : 0;
}

/** Running state of one session for {@link bytesKeptOutBy}: output-minimizer's last running total. */
export interface SavingsCursor {
	minimizerTotal: number;
}

/** A fresh {@link SavingsCursor} for the start of a session. */
export function emptySavingsCursor(): SavingsCursor {
	return { minimizerTotal: 0 };
}

function counter(entry: AuditEntryV1, key: string): number {
	const counters = entry.counters;
	if (counters === undefined || !Object.hasOwn(counters, key)) return 0;
	const value = counters[key];
	return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/**
 * Bytes that `entry` kept out of the context, given the session's cursor (updated in place):
 * - output-minimizer's entry carries its own `bytesKeptOut` (since a twenty-seventh review: a file with several
 *   branches, or an exporter started after `/reload`, lost or doubled bytes by following the running total); an older
 *   entry carries only the running total (`bytesKeptOutTotal`), and its share is its rise over the last one;
 * - context-shunt's `bounded` carries the replaced result's `bytes` (a receipt of at most 2 KiB took its place).
 * Every other entry gives 0.
 */
export function bytesKeptOutBy(entry: AuditEntryV1, cursor: SavingsCursor): number {
	if (entry.ext === "output-minimizer") {
		const total = counter(entry, "bytesKeptOutTotal");
		if (entry.counters !== undefined && Object.hasOwn(entry.counters, "bytesKeptOut")) {
			cursor.minimizerTotal = Math.max(cursor.minimizerTotal, total);
			return counter(entry, "bytesKeptOut");
		}
		if (total <= cursor.minimizerTotal) return 0;
		const rise = total - cursor.minimizerTotal;
		cursor.minimizerTotal = total;
		return rise;
	}
	if (entry.ext === "context-shunt" && entry.event === "bounded") return counter(entry, "bytes");
	return 0;
}
