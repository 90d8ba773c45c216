// The many-session report as a streaming fold: a session at a time goes in, aggregates stay bounded (per
// extension, per day, per guardian source), and the exploration gate is merged from per-session reports.
import { AUDIT_EXTS, type AuditEntryV1, type AuditExt } from "../audit.js";
import {
	addGateReport,
	emptyGateFigures,
	evaluateGate,
	type GateFigures,
	type GateVerdict,
	sessionGateReport,
} from "./gate.js";
import { approximateTokens, bytesKeptOutBy, emptySavingsCursor } from "./savings.js";

/** One audit entry of a session, with its time (ms since the epoch) when the source had one. */
export interface ReportRecord {
	readonly entry: AuditEntryV1;
	readonly time: number | undefined;
}

/** One day (UTC) of the report. */
export interface ReportDay {
	/** `YYYY-MM-DD`. */
	readonly day: string;
	/** Sessions with an entry on this day. */
	sessions: number;
	/** Entries per extension on this day. */
	readonly entries: Partial<Record<AuditExt, number>>;
	/** Bytes kept out of the context on this day. */
	bytesKeptOut: number;
}

/** How long the top-session list may grow (hashed ids only). */
export const TOP_SESSIONS = 10;

/** The running report; see {@link createReport}, {@link addSessionToReport}, {@link finishReport}. */
export interface ReportState {
	sessions: number;
	/**
	 * Skipped input: malformed lines and unknown versions in session or OTLP files, files that could not be read or
	 * hold an unknown session version, and files that are neither (`notSessions`: their first line is not a Pi session
	 * header or OTLP/JSON, e.g. pi-subagents' `_meta.json` and `.md` artifacts next to the sessions).
	 */
	readonly skipped: { lines: number; files: number; notSessions: number };
	/** Entries per event, per extension. */
	readonly extensions: Partial<Record<AuditExt, Record<string, number>>>;
	/** Per `event/category` pair, per extension (e.g. guardian `denied/floor`). */
	readonly eventCategories: Partial<Record<AuditExt, Record<string, number>>>;
	readonly days: Map<string, ReportDay>;
	bytesKeptOut: number;
	gate: GateFigures;
	firstTime: number;
	lastTime: number;
	/** The sessions with the most entries: hashed id and count. */
	topSessions: Array<{ readonly sessionHash: string; readonly entries: number }>;
	/** Records outside the `since`/`until` window, dropped. */
	outsideWindow: number;
	readonly since: number | undefined;
	readonly until: number | undefined;
}

/** Options of {@link createReport}: an inclusive time window in ms since the epoch. */
export interface ReportWindow {
	readonly since?: number;
	readonly until?: number;
}

/** A fresh report for the window. */
export function createReport(window: ReportWindow = {}): ReportState {
	return {
		sessions: 0,
		skipped: { lines: 0, files: 0, notSessions: 0 },
		extensions: {},
		eventCategories: {},
		days: new Map(),
		bytesKeptOut: 0,
		gate: emptyGateFigures(),
		firstTime: Number.POSITIVE_INFINITY,
		lastTime: Number.NEGATIVE_INFINITY,
		topSessions: [],
		outsideWindow: 0,
		since: typeof window.since === "number" && Number.isFinite(window.since) ? window.since : undefined,
		until: typeof window.until === "number" && Number.isFinite(window.until) ? window.until : undefined,
	};
}

function bump(record: Record<string, number>, key: string, by = 1): void {
	const current = Object.hasOwn(record, key) ? (record[key] as number) : 0;
	Object.defineProperty(record, key, {
		value: Math.min(Number.MAX_SAFE_INTEGER, current + by),
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** `YYYY-MM-DD` (UTC) of a time in ms. */
export function utcDay(time: number): string {
	return new Date(time).toISOString().slice(0, 10);
}

function inWindow(state: ReportState, time: number | undefined): boolean {
	if (time === undefined) return state.since === undefined && state.until === undefined;
	if (state.since !== undefined && time < state.since) return false;
	if (state.until !== undefined && time > state.until) return false;
	return true;
}

/**
 * Adds one session's audit records to the report (mutating and returning it). Records outside the window are
 * dropped (a record without a time is outside any window that is set); a session with no record left is not
 * counted. The gate part runs {@link sessionGateReport} on the session's exploration-guard entries.
 */
export function addSessionToReport(
	state: ReportState,
	sessionHash: string,
	records: readonly ReportRecord[],
): ReportState {
	const list: readonly ReportRecord[] = Array.isArray(records) ? records : [];
	const kept = list.filter((record) => {
		const keep = inWindow(state, record.time);
		if (!keep) state.outsideWindow++;
		return keep;
	});
	if (kept.length === 0) return state;
	state.sessions++;
	const cursor = emptySavingsCursor();
	const daysSeen = new Set<string>();
	for (const { entry, time } of kept) {
		let events = state.extensions[entry.ext];
		if (events === undefined) {
			events = {};
			state.extensions[entry.ext] = events;
		}
		bump(events, entry.event);
		if (entry.category !== undefined) {
			let pairs = state.eventCategories[entry.ext];
			if (pairs === undefined) {
				pairs = {};
				state.eventCategories[entry.ext] = pairs;
			}
			bump(pairs, `${entry.event}/${entry.category}`);
		}
		const bytes = bytesKeptOutBy(entry, cursor);
		state.bytesKeptOut = Math.min(Number.MAX_SAFE_INTEGER, state.bytesKeptOut + bytes);
		if (time !== undefined) {
			if (time < state.firstTime) state.firstTime = time;
			if (time > state.lastTime) state.lastTime = time;
			const key = utcDay(time);
			let day = state.days.get(key);
			if (day === undefined) {
				day = { day: key, sessions: 0, entries: {}, bytesKeptOut: 0 };
				state.days.set(key, day);
			}
			if (!daysSeen.has(key)) {
				daysSeen.add(key);
				day.sessions++;
			}
			day.entries[entry.ext] = (day.entries[entry.ext] ?? 0) + 1;
			day.bytesKeptOut += bytes;
		}
	}
	state.gate = addGateReport(state.gate, sessionGateReport(kept.map((record) => record.entry)));
	const top = state.topSessions;
	top.push({ sessionHash, entries: kept.length });
	top.sort((a, b) => b.entries - a.entries);
	if (top.length > TOP_SESSIONS) top.length = TOP_SESSIONS;
	return state;
}

/** The finished report: what the terminal summary, `--json` and `--html` show. */
export interface PolicyReport {
	readonly sessions: number;
	readonly skipped: { readonly lines: number; readonly files: number; readonly notSessions: number };
	readonly extensions: Partial<Record<AuditExt, Record<string, number>>>;
	readonly eventCategories: Partial<Record<AuditExt, Record<string, number>>>;
	/** Days in order. */
	readonly days: readonly ReportDay[];
	readonly bytesKeptOut: number;
	readonly approxTokensKeptOut: number;
	/** Guardian decisions by source: `{ "<source>": { allowed, denied } }`. */
	readonly guardianDecisions: Readonly<Record<string, { readonly allowed: number; readonly denied: number }>>;
	readonly gateFigures: GateFigures;
	/** Days between the first and last timestamped entry; `null` when none had a time. */
	readonly observedDays: number | null;
	readonly gate: GateVerdict;
	readonly topSessions: ReadonlyArray<{ readonly sessionHash: string; readonly entries: number }>;
	readonly outsideWindow: number;
}

/** Guardian `allowed`/`denied` per source (category), from the report's event/category pairs. */
export function guardianDecisionsBySource(
	pairs: Readonly<Record<string, number>> | undefined,
): Record<string, { allowed: number; denied: number }> {
	const result: Record<string, { allowed: number; denied: number }> = {};
	for (const [key, count] of Object.entries(pairs ?? {})) {
		const [event, source] = key.split("/");
		if (source === undefined || (event !== "allowed" && event !== "denied")) continue;
		const row = Object.hasOwn(result, source) ? (result[source] as { allowed: number; denied: number }) : undefined;
		const next = row ?? { allowed: 0, denied: 0 };
		next[event] += count;
		if (row === undefined) Object.defineProperty(result, source, { value: next, enumerable: true, writable: true });
	}
	return result;
}

/** Finishes the report: days in order, shares and the gate verdict. Does not change `state`. */
export function finishReport(state: ReportState): PolicyReport {
	const observedDays = state.lastTime >= state.firstTime ? (state.lastTime - state.firstTime) / 86_400_000 : null;
	const extensions: Partial<Record<AuditExt, Record<string, number>>> = {};
	for (const ext of AUDIT_EXTS) {
		const events = state.extensions[ext];
		if (events !== undefined) extensions[ext] = { ...events };
	}
	return {
		sessions: state.sessions,
		skipped: { ...state.skipped },
		extensions,
		eventCategories: state.eventCategories,
		days: [...state.days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)),
		bytesKeptOut: state.bytesKeptOut,
		approxTokensKeptOut: approximateTokens(state.bytesKeptOut),
		guardianDecisions: guardianDecisionsBySource(state.eventCategories["guardian-review"]),
		gateFigures: state.gate,
		observedDays,
		gate: evaluateGate(state.gate, observedDays),
		topSessions: state.topSessions.map((item) => ({ ...item })),
		outsideWindow: state.outsideWindow,
	};
}

/** The `--json` shape, exactly: sessions, skipped, extensions (event counts) and the gate's criteria. */
export interface PolicyReportJson {
	readonly sessions: number;
	readonly skipped: { readonly lines: number; readonly files: number; readonly notSessions: number };
	readonly extensions: Partial<Record<AuditExt, Record<string, number>>>;
	readonly gate: {
		readonly pass: boolean;
		readonly criteria: ReadonlyArray<{
			readonly id: string;
			readonly pass: boolean;
			readonly value: number | null;
			readonly threshold: number;
		}>;
	};
}

/** Projects a finished report onto the `--json` shape. */
export function reportToJson(report: PolicyReport): PolicyReportJson {
	return {
		sessions: report.sessions,
		skipped: {
			lines: report.skipped.lines,
			files: report.skipped.files,
			notSessions: report.skipped.notSessions,
		},
		extensions: report.extensions,
		gate: {
			pass: report.gate.pass,
			criteria: report.gate.criteria.map(({ id, pass, value, threshold }) => ({ id, pass, value, threshold })),
		},
	};
}
