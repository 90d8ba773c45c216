// The seed's go/no-go telemetry gate for block mode, computed from exploration-guard audit entries.
import { type AuditEntryFor, unwrapAuditEntry, validateAuditEntry } from "../audit.js";
import { isPlainObject } from "../config.js";

/** The seed's gate thresholds. */
export const EXPLORATION_GATE_CRITERIA = Object.freeze({
	/** Days of observation. */
	minDays: 14,
	/** Root-session advisory opportunities (warnings). */
	minOpportunities: 100,
	/** Broad operations an opportunity must reach without a successful delegated launch. */
	broadOperations: 4,
	/** Share of opportunities that reach that many broad operations. */
	minResidualShare: 0.2,
	/** Opted-in warn-only sessions. */
	minWarnOnlySessions: 25,
	/** Warnings in warn-only sessions. */
	minWarnOnlyWarnings: 50,
	/** Share of warning sessions with a user `allow` or `off`. */
	maxBypassRate: 0.05,
});

/** The gate's figures and verdict. Shares are `null` when their denominator is zero. */
export interface ExplorationGateReport {
	/** Sessions found (groups given, or segments starting at `activated`). */
	readonly sessions: number;
	/** Enabled root sessions (an `activated` entry with no child flag). */
	readonly rootSessions: number;
	/** Root sessions in warn mode (the warn-only beta cohort). */
	readonly warnOnlySessions: number;
	/** Root-session advisory opportunities: warnings, each opening an episode that ends at a successful launch. */
	readonly opportunities: number;
	/** Opportunities whose streak reached four broad operations without a successful launch after the warning. */
	readonly opportunitiesReachingFour: number;
	/** `opportunitiesReachingFour / opportunities`. */
	readonly residualShare: number | null;
	/** Warnings in all root sessions. */
	readonly warnings: number;
	/** Warnings in warn-mode root sessions. */
	readonly warnOnlyWarnings: number;
	/** Root sessions with at least one warning. */
	readonly warningSessions: number;
	/** Warning sessions in which the user ran `allow` or `off`. */
	readonly bypassSessions: number;
	/** `bypassSessions / warningSessions`. */
	readonly bypassRate: number | null;
	/** `blocked` entries (block mode). */
	readonly blocked: number;
	/**
	 * `blocked` and `bash-blocked` entries without a read/grep/find/ls category: must be 0. Write, edit, custom
	 * tools and non-exploration bash are never blocked; a `blocked` entry always names its tool's category.
	 */
	readonly blockedOtherTools: number;
	/**
	 * `bash-blocked` entries: pure bash exploration commands paused because the user opted in with
	 * `bashBlock: true`. Reported apart from `blocked`; each carries the command's exploration category.
	 */
	readonly bashBlocked: number;
	/** Guard activations flagged as child sessions: must be 0. */
	readonly childActivations: number;
	/** `handler-error` entries: must be 0. */
	readonly handlerErrors: number;
	/** `config-invalid` entries. */
	readonly configInvalid: number;
	/** Days between the first and last timestamped session entry; `null` for bare entries. */
	readonly observedDays: number | null;
	/** Inputs that were exploration-guard audit entries but failed validation. */
	readonly invalidEntries: number;
	/** Each criterion: true (met), false (not met) or null (not measurable from these entries). */
	readonly criteria: {
		readonly observedDays: boolean | null;
		readonly opportunities: boolean;
		readonly residualShare: boolean;
		readonly warnOnlyCohort: boolean;
		readonly bypassRate: boolean;
		readonly noChildActivation: boolean;
		readonly noHandlerException: boolean;
		readonly noBlockedOtherTool: boolean;
	};
	/** True only when every criterion is met. */
	readonly go: boolean;
}

type GuardEntry = AuditEntryFor<"exploration-guard">;

interface ParsedInput {
	readonly entry: GuardEntry | undefined;
	readonly invalid: boolean;
	readonly time: number | undefined;
}

function parseInput(input: unknown): ParsedInput {
	const unwrapped = unwrapAuditEntry(input);
	if (unwrapped === undefined) return { entry: undefined, invalid: false, time: undefined };
	const time = isPlainObject(input) && typeof input.timestamp === "string" ? Date.parse(input.timestamp) : Number.NaN;
	const candidate = unwrapped.candidate;
	if (!isPlainObject(candidate) || candidate.ext !== "exploration-guard") {
		return { entry: undefined, invalid: false, time: Number.isFinite(time) ? time : undefined };
	}
	const result = validateAuditEntry(candidate);
	if (!result.ok || result.value.ext !== "exploration-guard") {
		return { entry: undefined, invalid: true, time: undefined };
	}
	return { entry: result.value, invalid: false, time: Number.isFinite(time) ? time : undefined };
}

/** Splits the input into sessions: arrays are sessions; a flat run of entries is split at each `activated`. */
function groupSessions(inputs: readonly unknown[]): { sessions: ParsedInput[][]; invalid: number; times: number[] } {
	const sessions: ParsedInput[][] = [];
	const times: number[] = [];
	let invalid = 0;
	let current: ParsedInput[] | undefined;
	const take = (input: unknown): ParsedInput | undefined => {
		const parsed = parseInput(input);
		if (parsed.time !== undefined) times.push(parsed.time);
		if (parsed.invalid) invalid++;
		return parsed.entry === undefined ? undefined : parsed;
	};
	for (const input of inputs) {
		if (Array.isArray(input)) {
			current = undefined;
			const group: ParsedInput[] = [];
			for (const inner of input) {
				const parsed = take(inner);
				if (parsed !== undefined) group.push(parsed);
			}
			sessions.push(group);
			continue;
		}
		const parsed = take(input);
		if (parsed === undefined) continue;
		if (parsed.entry?.event === "activated" || current === undefined) {
			current = [];
			sessions.push(current);
		}
		current.push(parsed);
	}
	return { sessions, invalid, times };
}

function counter(entry: GuardEntry, key: string): number {
	const counters = entry.counters;
	if (counters === undefined || !Object.hasOwn(counters, key)) return 0;
	const value = counters[key];
	return typeof value === "number" ? value : 0;
}

function share(numerator: number, denominator: number): number | null {
	return denominator > 0 ? numerator / denominator : null;
}

/**
 * Computes the seed's telemetry-gate figures from exploration-guard audit entries across sessions.
 *
 * `inputs` is either a list of sessions (each an array of bare audit entries or session entries) or one flat
 * list, which is split into sessions at each `activated` entry (so a `/reload`, which restarts the guard and its
 * counters, starts a new segment). Other extensions' entries and other session
 * entries are ignored; invalid exploration-guard entries are counted and skipped.
 *
 * An opportunity is a warning in a root session; it lasts until the next `delegation-succeeded`. It reaches
 * four broad operations when any entry in it carries `counters.streak >= 4` (the guard records
 * `threshold-reached` when the streak reaches `blockAfter`, 4 by default, and `blocked` entries carry the
 * streak too). Observation days come from session-entry timestamps. Never throws.
 */
export function explorationGateReport(inputs: readonly unknown[]): ExplorationGateReport {
	const list = Array.isArray(inputs) ? inputs : [];
	const { sessions, invalid, times } = groupSessions(list);
	let rootSessions = 0;
	let warnOnlySessions = 0;
	let opportunities = 0;
	let reachingFour = 0;
	let warnings = 0;
	let warnOnlyWarnings = 0;
	let warningSessions = 0;
	let bypassSessions = 0;
	let blocked = 0;
	let blockedOtherTools = 0;
	let bashBlocked = 0;
	let childActivations = 0;
	let handlerErrors = 0;
	let configInvalid = 0;
	for (const session of sessions) {
		const activated = session.find((p) => p.entry?.event === "activated")?.entry;
		const isChild = activated !== undefined && counter(activated, "childSession") > 0;
		const isRoot = activated !== undefined && !isChild;
		const warnMode = activated?.mode === "warn";
		if (isRoot) rootSessions++;
		if (isRoot && warnMode) warnOnlySessions++;
		let sessionWarnings = 0;
		let bypassed = false;
		let inEpisode = false;
		let episodeReached = false;
		for (const { entry } of session) {
			if (entry === undefined) continue;
			switch (entry.event) {
				case "activated":
					if (counter(entry, "childSession") > 0) childActivations++;
					break;
				case "handler-error":
					handlerErrors++;
					break;
				case "config-invalid":
					configInvalid++;
					break;
				case "blocked":
					blocked++;
					if (entry.category === undefined) blockedOtherTools++;
					break;
				case "bash-blocked":
					bashBlocked++;
					if (entry.category === undefined) blockedOtherTools++;
					break;
				case "user-allow":
				case "user-off":
					bypassed = true;
					break;
				default:
					break;
			}
			if (!isRoot) continue;
			if (entry.event === "warned") {
				if (inEpisode && episodeReached) reachingFour++;
				sessionWarnings++;
				opportunities++;
				inEpisode = true;
				episodeReached = false;
			}
			if (entry.event === "delegation-succeeded") {
				if (inEpisode && episodeReached) reachingFour++;
				inEpisode = false;
				episodeReached = false;
				continue;
			}
			if (inEpisode && counter(entry, "streak") >= EXPLORATION_GATE_CRITERIA.broadOperations) episodeReached = true;
		}
		if (inEpisode && episodeReached) reachingFour++;
		if (isRoot) {
			warnings += sessionWarnings;
			if (warnMode) warnOnlyWarnings += sessionWarnings;
			if (sessionWarnings > 0) {
				warningSessions++;
				if (bypassed) bypassSessions++;
			}
		}
	}
	let first = Number.POSITIVE_INFINITY;
	let last = Number.NEGATIVE_INFINITY;
	for (const time of times) {
		if (time < first) first = time;
		if (time > last) last = time;
	}
	const observedDays = times.length > 0 ? (last - first) / 86_400_000 : null;
	const residualShare = share(reachingFour, opportunities);
	const bypassRate = share(bypassSessions, warningSessions);
	const c = EXPLORATION_GATE_CRITERIA;
	const criteria = {
		observedDays: observedDays === null ? null : observedDays >= c.minDays,
		opportunities: opportunities >= c.minOpportunities,
		residualShare: residualShare !== null && residualShare >= c.minResidualShare,
		warnOnlyCohort: warnOnlySessions >= c.minWarnOnlySessions && warnOnlyWarnings >= c.minWarnOnlyWarnings,
		bypassRate: bypassRate !== null && bypassRate <= c.maxBypassRate,
		noChildActivation: childActivations === 0,
		noHandlerException: handlerErrors === 0,
		noBlockedOtherTool: blockedOtherTools === 0,
	};
	return {
		sessions: sessions.length,
		rootSessions,
		warnOnlySessions,
		opportunities,
		opportunitiesReachingFour: reachingFour,
		residualShare,
		warnings,
		warnOnlyWarnings,
		warningSessions,
		bypassSessions,
		bypassRate,
		blocked,
		blockedOtherTools,
		bashBlocked,
		childActivations,
		handlerErrors,
		configInvalid,
		observedDays,
		invalidEntries: invalid,
		criteria,
		go: Object.values(criteria).every((value) => value === true),
	};
}
