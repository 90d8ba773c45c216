// Session counters for `/guardian status`: decisions by source and outcome, and review latency.
import type { LoadedPiResources } from "./pi-resources.js";
import type { ShellSetupFacts } from "./shell-setup.js";

/** Decision sources. */
export const DECISION_SOURCES = ["floor", "reviewer", "user", "cache", "allow-once", "fallback", "breaker"] as const;
/** One of {@link DECISION_SOURCES}. */
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/** Keep at most this many latencies for the median. */
export const MAX_LATENCY_SAMPLES = 200;

/** Counters for one session. */
export interface GuardianStats {
	readonly allowed: Readonly<Record<DecisionSource, number>>;
	readonly denied: Readonly<Record<DecisionSource, number>>;
	/** Reviews that could not decide, by failure reason. */
	readonly unavailable: Readonly<Record<string, number>>;
	/** Reviewer latencies in milliseconds, newest last. */
	readonly latenciesMs: readonly number[];
	/** Calls the floor did not decide, by why it passed them on (a `ReviewReason`, such as `not-read-only`). */
	readonly passedOn: Readonly<Record<string, number>>;
}

function zeroes(): Record<DecisionSource, number> {
	return { floor: 0, reviewer: 0, user: 0, cache: 0, "allow-once": 0, fallback: 0, breaker: 0 };
}

/** Empty counters. */
export function initialGuardianStats(): GuardianStats {
	return { allowed: zeroes(), denied: zeroes(), unavailable: {}, latenciesMs: [], passedOn: {} };
}

/** Counts one decision. */
export function recordDecision(
	stats: GuardianStats,
	source: DecisionSource,
	decision: "allow" | "deny",
): GuardianStats {
	const key = decision === "allow" ? "allowed" : "denied";
	const counts = { ...stats[key], [source]: (stats[key][source] ?? 0) + 1 };
	return { ...stats, [key]: counts };
}

/** Counts one unavailable review. */
export function recordUnavailable(stats: GuardianStats, reason: string): GuardianStats {
	return { ...stats, unavailable: { ...stats.unavailable, [reason]: (stats.unavailable[reason] ?? 0) + 1 } };
}

/** Counts one call the floor passed on to the breaker, a grant, the turn's verdicts or the reviewer, by why. */
export function recordPassedOn(stats: GuardianStats, reason: string): GuardianStats {
	const passedOn = stats.passedOn ?? {};
	return { ...stats, passedOn: { ...passedOn, [reason]: (passedOn[reason] ?? 0) + 1 } };
}

/** Records one reviewer latency. */
export function recordLatency(stats: GuardianStats, ms: number): GuardianStats {
	if (!Number.isFinite(ms) || ms < 0) return stats;
	return { ...stats, latenciesMs: [...stats.latenciesMs, Math.round(ms)].slice(-MAX_LATENCY_SAMPLES) };
}

/** The median of `values` (the mean of the middle two for an even count), or undefined when empty. */
export function median(values: readonly number[]): number | undefined {
	if (!Array.isArray(values) || values.length === 0) return undefined;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[mid] as number)
		: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** How many decisions the floor made without a model, out of all decisions. */
export function floorShare(stats: GuardianStats): { readonly floor: number; readonly total: number } {
	let total = 0;
	for (const source of DECISION_SOURCES) total += (stats.allowed[source] ?? 0) + (stats.denied[source] ?? 0);
	return { floor: (stats.allowed.floor ?? 0) + (stats.denied.floor ?? 0), total };
}

/** One status line for the judged shell; enums only. */
function shellStatusLine(shell: ShellSetupFacts): string {
	if (shell.verdict !== "bash")
		return `shell: custom, ${shell.cause ?? "unreadable-settings"} (every bash call goes to review)`;
	// What of the environment makes the floor review more: a user wondering why `node -v` was reviewed reads it here.
	const reviewed: string[] = [];
	if (shell.versionShims === true) reviewed.push("version probes (a version manager's shims are on PATH)");
	if (shell.commandDirectories.length > 0)
		reviewed.push("version probes and writes in PATH's workspace folders (a workspace folder is on PATH)");
	if (shell.cdSearchPath) reviewed.push("cd to a bare name (CDPATH is set)");
	if (shell.multibyteLocale === true) reviewed.push("commands with non-ASCII text (the locale is not byte-safe)");
	return reviewed.length === 0
		? "shell: bash (the floor judges commands)"
		: `shell: bash (the floor judges commands; reviewed because of the environment: ${reviewed.join("; ")})`;
}

/** Why no reviewer can answer, when the caller checked: every review then takes the unavailable path. */
export type ReviewerAvailability = "ready" | "no-model" | "no-auth";

function reviewerStatusLine(model: string | undefined, availability: ReviewerAvailability | undefined): string {
	if (availability === "no-model") return "reviewer: none found (every review is unavailable)";
	const named = `reviewer: ${model ?? "session model"}`;
	return availability === "no-auth" ? `${named} (no credentials: every review is unavailable)` : named;
}

/** The status line naming how many loaded skills and context files may be read without review (none: no line). */
function loadedResourcesLine(loaded: LoadedPiResources | undefined): string[] {
	const skills = loaded?.skills.length ?? 0;
	const contextFiles = loaded?.contextFiles.length ?? 0;
	if (skills + contextFiles === 0) return [];
	const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
	return [`readable as Pi loaded them: ${plural(skills, "skill")}, ${plural(contextFiles, "context file")}`];
}

/**
 * The `/guardian status` text: mode, reviewer model, the share decided by the floor, counters by source and
 * outcome, breaker, median latency.
 */
export function formatGuardianStatus(input: {
	readonly mode: string;
	readonly reviewerModel: string | undefined;
	/** Whether that model can be asked, when the caller checked (`/guardian status` does). */
	readonly reviewerAvailability?: ReviewerAvailability;
	readonly stats: GuardianStats;
	readonly breaker: { readonly tripped: boolean; readonly consecutive: number; readonly trips: number };
	readonly pendingGrants: number;
	/** Minutes until the soonest pending grant expires, rounded up, when one is pending. */
	readonly grantMinutesLeft?: number;
	/** How many processes the agent's commands started still run (allow-once waits for them), when known. */
	readonly agentProcesses?: number;
	/** The judged shell, when the caller knows it: a `custom` one sends every bash call to review. */
	readonly shell?: ShellSetupFacts;
	/** How many additional workspace directories the config names (a count, never the paths). */
	readonly additionalDirectories?: number;
	/** What Pi loaded for the model to read at the last prompt; only its counts are shown. */
	readonly loadedResources?: LoadedPiResources;
}): string {
	const { stats } = input;
	const bySource = (counts: Readonly<Record<DecisionSource, number>>) =>
		DECISION_SOURCES.filter((source) => counts[source] > 0)
			.map((source) => `${source} ${counts[source]}`)
			.join(", ") || "none";
	const byReason = (counts: Readonly<Record<string, number>> | undefined) =>
		Object.entries(counts ?? {})
			.map(([reason, count]) => `${reason} ${count}`)
			.join(", ") || "none";
	const unavailable = byReason(stats.unavailable);
	const latency = median(stats.latenciesMs);
	const share = floorShare(stats);
	return [
		`guardian-review: ${input.mode}`,
		reviewerStatusLine(input.reviewerModel, input.reviewerAvailability),
		`decided by the floor: ${share.floor} of ${share.total} calls${share.total === 0 ? "" : ` (${Math.round((100 * share.floor) / share.total)}%)`}`,
		`not decided by the floor, by why: ${byReason(stats.passedOn)}`,
		`allowed: ${bySource(stats.allowed)}`,
		`denied: ${bySource(stats.denied)}`,
		`unavailable: ${unavailable}`,
		`breaker: ${input.breaker.tripped ? "tripped" : "armed"} (consecutive denials ${input.breaker.consecutive}, trips ${input.breaker.trips})`,
		`allow-once grants pending: ${input.pendingGrants}${input.pendingGrants > 0 && input.grantMinutesLeft !== undefined ? ` (the next expires in ${input.grantMinutesLeft} min)` : ""}`,
		...((input.agentProcesses ?? 0) > 0
			? [`processes the agent's commands started, still running: ${input.agentProcesses} (allow-once waits for them)`]
			: []),
		...(input.shell === undefined ? [] : [shellStatusLine(input.shell)]),
		...((input.additionalDirectories ?? 0) > 0
			? [`workspace: the working directory and ${input.additionalDirectories} additional`]
			: []),
		...loadedResourcesLine(input.loadedResources),
		`median review latency: ${latency === undefined ? "n/a" : `${Math.round(latency)} ms`} over ${stats.latenciesMs.length} reviews`,
	].join("\n");
}
