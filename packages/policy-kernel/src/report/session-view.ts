// The model of `/policy`: one view of this session across every pi-policy extension, from its audit entries.
import {
	AUDIT_EXTS,
	type AuditExt,
	type AuditExtSummary,
	collectAuditEntries,
	summarizeAudit,
	validateAuditEntry,
} from "../audit.js";
import { approximateTokens, bytesKeptOutBy, emptySavingsCursor } from "./savings.js";

/** One labelled count in a view. Labels are fixed wording, never user content. */
export interface ViewFact {
	readonly label: string;
	readonly value: number;
}

/** One extension's part of the view. */
export interface ExtensionView {
	readonly ext: AuditExt;
	/** The extension registered its command in this session (`pi.getCommands()`), or wrote an entry. */
	readonly loaded: boolean;
	/** Loaded, and its latest entry does not record mode `off`. */
	readonly active: boolean;
	/** The mode of its latest entry that carries one. */
	readonly mode: string | undefined;
	/** Audit entries of this extension in the session. */
	readonly entries: number;
	/** What it did, in a fixed order; zero counts are kept so every view has the same rows. */
	readonly facts: readonly ViewFact[];
}

/** The whole `/policy` view. */
export interface SessionView {
	readonly extensions: readonly ExtensionView[];
	/** Valid audit entries read from the session branch. */
	readonly entries: number;
	/** Audit-typed session entries that failed validation. */
	readonly invalidEntries: number;
	/** Audit events seen live on `pi-policy:audit` since this extension started. */
	readonly liveEvents: number;
	/** Bytes kept out of the context (output-minimizer and context-shunt), and the approximate tokens. */
	readonly bytesKeptOut: number;
	readonly approxTokensKeptOut: number;
	/** Telemetry, when the export is on: records exported and batches dropped. */
	readonly telemetry?: { readonly exported: number; readonly dropped: number };
}

/** Inputs to {@link buildSessionView}. */
export interface SessionViewInput {
	/** The branch's session entries (or bare audit entries); other entries are ignored. */
	readonly entries: readonly unknown[];
	/** Extensions whose command is registered in this session. */
	readonly loaded?: readonly AuditExt[];
	/** Live bus events counted so far. */
	readonly liveEvents?: number;
	readonly telemetry?: { readonly exported: number; readonly dropped: number };
}

const e = (summary: AuditExtSummary | undefined, name: string) => summary?.events[name] ?? 0;
const counterSum = (summary: AuditExtSummary | undefined, name: string) => summary?.counterSums[name] ?? 0;
const max = (summary: AuditExtSummary | undefined, name: string) => summary?.counterMax[name] ?? 0;

/**
 * The facts of one extension, in display order, from its audit summary. `shuntBytesKeptOut` is context-shunt's
 * bytes kept out (the sum over its `bounded` entries, which the summary's counter sums cannot separate).
 */
export function extensionFacts(ext: AuditExt, s: AuditExtSummary | undefined, shuntBytesKeptOut = 0): ViewFact[] {
	const common = [
		{ label: "handler errors", value: e(s, "handler-error") },
		{ label: "invalid configs", value: e(s, "config-invalid") },
	];
	switch (ext) {
		case "exploration-guard":
			return [
				{ label: "nudges", value: e(s, "warned") },
				{ label: "blocks", value: e(s, "blocked") },
				{ label: "user allowances", value: e(s, "user-allow") },
				{ label: "delegations succeeded", value: e(s, "delegation-succeeded") },
				...common,
			];
		case "output-minimizer":
			return [
				{ label: "outputs minimized", value: e(s, "minimized") },
				{ label: "referenced outputs", value: max(s, "referencesTotal") },
				{ label: "bounded fallbacks", value: e(s, "bounded-fallback") },
				{ label: "bytes kept out", value: max(s, "bytesKeptOutTotal") },
				...common,
			];
		case "context-shunt":
			return [
				{ label: "blocks", value: e(s, "blocked") },
				{ label: "would-block", value: e(s, "would-block") },
				{ label: "artifacts", value: e(s, "bounded") },
				{ label: "would-bound", value: e(s, "would-bound") },
				{ label: "aged results", value: e(s, "artifact-expired") },
				{ label: "recoveries", value: e(s, "recovered") },
				{ label: "reader answers", value: e(s, "reader-answered") },
				{ label: "bytes kept out", value: shuntBytesKeptOut },
				...common,
			];
		case "delegation-policy":
			return [
				{ label: "policy changes", value: policyChanges(s) },
				{ label: "validation failures", value: e(s, "validation-failed") },
				{ label: "validation recoveries", value: e(s, "validation-recovered") },
				...common,
			];
		case "policy-report":
			return [{ label: "telemetry batches dropped", value: counterSum(s, "batches") }, ...common];
		case "guardian-review":
			return [
				...guardianDecisionFacts(s),
				{ label: "unavailable", value: e(s, "unavailable") },
				{ label: "user overrides", value: e(s, "user-override") },
				{ label: "breaker trips", value: e(s, "breaker-tripped") },
				...common,
			];
	}
}

function policyChanges(s: AuditExtSummary | undefined): number {
	return (
		e(s, "intensity-changed") +
		e(s, "preference-changed") +
		e(s, "advisor-mode-changed") +
		e(s, "role-changed") +
		e(s, "thinking-changed")
	);
}

/** Guardian decisions as `allowed <source>` / `denied <source>` facts, for every pair that occurred. */
function guardianDecisionFacts(s: AuditExtSummary | undefined): ViewFact[] {
	const facts: ViewFact[] = [
		{ label: "allowed", value: e(s, "allowed") },
		{ label: "denied", value: e(s, "denied") },
	];
	const pairs = Object.entries(s?.eventCategories ?? {})
		.filter(([key]) => key.startsWith("allowed/") || key.startsWith("denied/"))
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	for (const [key, value] of pairs) facts.push({ label: key.replace("/", " by "), value });
	return facts;
}

/**
 * Builds the `/policy` view from the session's entries. Every extension of the suite gets a row, loaded or not,
 * so the view also says what is missing. Never throws; invalid audit entries are counted, not shown.
 */
export function buildSessionView(input: SessionViewInput): SessionView {
	const raw = Array.isArray(input?.entries) ? input.entries : [];
	const summary = summarizeAudit(raw);
	const entries = collectAuditEntries(raw);
	const cursor = emptySavingsCursor();
	let bytesKeptOut = 0;
	let shuntBytes = 0;
	const lastMode = new Map<AuditExt, string>();
	for (const entry of entries) {
		const kept = bytesKeptOutBy(entry, cursor);
		bytesKeptOut += kept;
		if (entry.ext === "context-shunt") shuntBytes += kept;
		if (entry.mode !== undefined) lastMode.set(entry.ext, entry.mode);
	}
	const loaded = new Set(Array.isArray(input?.loaded) ? input.loaded : []);
	const extensions = AUDIT_EXTS.map((ext): ExtensionView => {
		const s = summary.byExt[ext];
		const mode = lastMode.get(ext);
		const isLoaded = loaded.has(ext) || (s?.entries ?? 0) > 0;
		const facts = extensionFacts(ext, s, shuntBytes);
		// An extension that is off or idle writes nothing: with no entry and no mode, it is loaded but not known to be
		// active (exploration-guard, guardian-review and context-shunt are off until configured; a twenty-seventh review).
		const entryCount = s?.entries ?? 0;
		const active = isLoaded && mode !== "off" && (entryCount > 0 || mode !== undefined);
		return { ext, loaded: isLoaded, active, mode, entries: entryCount, facts };
	});
	return {
		extensions,
		entries: summary.valid,
		invalidEntries: summary.invalid,
		liveEvents: typeof input?.liveEvents === "number" ? input.liveEvents : 0,
		bytesKeptOut,
		approxTokensKeptOut: approximateTokens(bytesKeptOut),
		...(input?.telemetry ? { telemetry: input.telemetry } : {}),
	};
}

/** What the `/policy` view says of one extension's state, in the plain text and in the TUI alike. */
export type ExtensionViewState = "not loaded" | "active" | "inactive" | "loaded, no activity yet";

/**
 * The state `/policy` shows for one extension: `not loaded` (its command is not registered and it wrote nothing),
 * `active`, `inactive` (its mode is `off`), else `loaded, no activity yet`. Pure.
 */
export function extensionViewState(
	ext: Pick<SessionView["extensions"][number], "loaded" | "active" | "mode">,
): ExtensionViewState {
	if (!ext.loaded) return "not loaded";
	if (ext.active) return "active";
	return ext.mode === "off" ? "inactive" : "loaded, no activity yet";
}

/**
 * The view as plain text lines (for a session without a UI, and the base of the TUI rendering): a header, one
 * line per extension, then its non-zero facts indented. Counts and fixed wording only.
 */
export function formatSessionView(view: SessionView): string[] {
	const lines = [
		`pi-policy: ${view.entries} audit entries this session` +
			(view.invalidEntries > 0 ? ` (${view.invalidEntries} invalid, skipped)` : "") +
			` · kept out of context: ${view.bytesKeptOut} bytes (~${view.approxTokensKeptOut} tokens)` +
			` · ${view.liveEvents} live events`,
	];
	for (const ext of view.extensions) {
		const state = extensionViewState(ext);
		lines.push(`${ext.ext}: ${state}${ext.mode !== undefined ? ` (mode ${ext.mode})` : ""} · ${ext.entries} entries`);
		const shown = ext.facts.filter((fact) => fact.value > 0);
		if (ext.loaded && shown.length > 0) lines.push(`  ${shown.map((f) => `${f.label} ${f.value}`).join(" · ")}`);
	}
	if (view.telemetry !== undefined) {
		lines.push(`telemetry: ${view.telemetry.exported} records exported · ${view.telemetry.dropped} batches dropped`);
	}
	return lines;
}

/**
 * One transcript line for an audit entry's data: `pi-policy · <ext> <event>` plus mode, state and category, and
 * with `expanded` its counters. `undefined` for data that is not a valid audit entry (the host then draws nothing).
 */
export function formatAuditEntryLine(data: unknown, expanded = false): string | undefined {
	const result = validateAuditEntry(data);
	if (!result.ok) return undefined;
	const entry = result.value;
	const details = [
		entry.mode === undefined ? undefined : `mode ${entry.mode}`,
		entry.state === undefined ? undefined : `state ${entry.state}`,
		entry.category,
	].filter((part): part is string => part !== undefined);
	const counters =
		expanded && entry.counters !== undefined
			? Object.entries(entry.counters).map(([key, value]) => `${key}=${value}`)
			: [];
	return [`pi-policy · ${entry.ext} ${entry.event}`, ...details, ...counters].join(" · ");
}
