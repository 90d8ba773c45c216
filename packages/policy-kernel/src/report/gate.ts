// The exploration gate over many sessions: explorationGateReport per session, merged, and its criteria as the
// report's ids with measured figures and thresholds.
import { AUDIT_ENTRY_TYPE, type AuditEntryV1 } from "../audit.js";
import { EXPLORATION_GATE_CRITERIA, type ExplorationGateReport, explorationGateReport } from "../exploration/gate.js";

/** The summed figures of {@link explorationGateReport} over many sessions (shares recomputed from the sums). */
export interface GateFigures {
	readonly sessions: number;
	readonly rootSessions: number;
	readonly warnOnlySessions: number;
	readonly opportunities: number;
	readonly opportunitiesReachingFour: number;
	readonly warnings: number;
	readonly warnOnlyWarnings: number;
	readonly warningSessions: number;
	readonly bypassSessions: number;
	readonly blocked: number;
	readonly blockedOtherTools: number;
	readonly childActivations: number;
	readonly handlerErrors: number;
	readonly configInvalid: number;
	readonly invalidEntries: number;
}

/** Every summed figure at zero. */
export function emptyGateFigures(): GateFigures {
	return {
		sessions: 0,
		rootSessions: 0,
		warnOnlySessions: 0,
		opportunities: 0,
		opportunitiesReachingFour: 0,
		warnings: 0,
		warnOnlyWarnings: 0,
		warningSessions: 0,
		bypassSessions: 0,
		blocked: 0,
		blockedOtherTools: 0,
		childActivations: 0,
		handlerErrors: 0,
		configInvalid: 0,
		invalidEntries: 0,
	};
}

const SUMMED = Object.keys(emptyGateFigures()) as Array<keyof GateFigures>;

/** Adds one session's gate report to `figures` (returns a new object). */
export function addGateReport(figures: GateFigures, report: ExplorationGateReport): GateFigures {
	const next: Record<keyof GateFigures, number> = { ...figures };
	for (const key of SUMMED) next[key] = Math.min(Number.MAX_SAFE_INTEGER, next[key] + report[key]);
	return next;
}

/**
 * The gate report of one session's exploration-guard entries, through the kernel's {@link explorationGateReport}
 * (segments start at each `activated`, as a `/reload` restarts the guard). Timestamps do not matter here: the
 * observation window spans sessions, so the caller measures it.
 */
export function sessionGateReport(guardEntries: readonly AuditEntryV1[]): ExplorationGateReport {
	return explorationGateReport(
		guardEntries
			.filter((entry) => entry.ext === "exploration-guard")
			.map((data) => ({ type: "custom", customType: AUDIT_ENTRY_TYPE, data })),
	);
}

/** The criterion ids of the report, in order. */
export const GATE_CRITERION_IDS = [
	"days",
	"opportunities",
	"residual-share",
	"warn-sessions",
	"warnings",
	"bypass-share",
	"child-activations",
	"handler-exceptions",
	"blocked-other-tools",
] as const;

/** One of {@link GATE_CRITERION_IDS}. */
export type GateCriterionId = (typeof GATE_CRITERION_IDS)[number];

/** One criterion: its measured value (`null` when not measurable), threshold and direction. */
export interface GateCriterion {
	readonly id: GateCriterionId;
	readonly pass: boolean;
	readonly value: number | null;
	readonly threshold: number;
	/** `min`: value must be at least the threshold; `max`: at most. */
	readonly direction: "min" | "max";
}

/** The gate's verdict over the whole report. */
export interface GateVerdict {
	readonly pass: boolean;
	readonly criteria: readonly GateCriterion[];
}

function share(numerator: number, denominator: number): number | null {
	return denominator > 0 ? numerator / denominator : null;
}

function criterion(id: GateCriterionId, value: number | null, threshold: number, direction: "min" | "max") {
	const pass = value !== null && (direction === "min" ? value >= threshold : value <= threshold);
	return { id, pass, value, threshold, direction };
}

/**
 * Evaluates the seed's gate on summed figures and the observation window in days (`null` when no entry had a
 * timestamp). The criteria follow {@link EXPLORATION_GATE_CRITERIA}; the warn-only cohort is split into
 * `warn-sessions` and `warnings`. A share with a zero denominator is `null` and fails.
 */
export function evaluateGate(figures: GateFigures, observedDays: number | null): GateVerdict {
	const c = EXPLORATION_GATE_CRITERIA;
	const criteria: GateCriterion[] = [
		criterion("days", observedDays, c.minDays, "min"),
		criterion("opportunities", figures.opportunities, c.minOpportunities, "min"),
		criterion(
			"residual-share",
			share(figures.opportunitiesReachingFour, figures.opportunities),
			c.minResidualShare,
			"min",
		),
		criterion("warn-sessions", figures.warnOnlySessions, c.minWarnOnlySessions, "min"),
		criterion("warnings", figures.warnOnlyWarnings, c.minWarnOnlyWarnings, "min"),
		criterion("bypass-share", share(figures.bypassSessions, figures.warningSessions), c.maxBypassRate, "max"),
		criterion("child-activations", figures.childActivations, 0, "max"),
		criterion("handler-exceptions", figures.handlerErrors, 0, "max"),
		criterion("blocked-other-tools", figures.blockedOtherTools, 0, "max"),
	];
	return { pass: criteria.every((item) => item.pass), criteria };
}
