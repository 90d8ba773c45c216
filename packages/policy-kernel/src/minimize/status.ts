// Aggregate counters for `/output-minimizer status`, computed from the extension's own audit entries.
import { summarizeAudit } from "../audit.js";

/** Aggregates shown by the status command. Counts only: no paths, no text. */
export interface OutputMinimizerStats {
	/** Results and messages minimized (references delivered). */
	readonly minimized: number;
	/** Minimized results per surface. */
	readonly bySurface: { readonly single: number; readonly workflow: number; readonly notify: number };
	/** UTF-8 bytes kept out of the parent's context (original minus replacement), summed. */
	readonly bytesKeptOut: number;
	/** Outputs referenced by a file, and of those the host's own files reused. */
	readonly references: number;
	readonly reused: number;
	/** Deliveries that used the bounded fallback, and persistence failures behind them. */
	readonly fallbacks: number;
	readonly persistenceFailures: number;
	/** Pass-throughs by reason, and `output: false` results bounded inline. */
	readonly passthrough: { readonly inline: number; readonly small: number; readonly boundedInline: number };
	/** Invalid-config reports and caught handler errors. */
	readonly configInvalid: number;
	readonly handlerErrors: number;
}

/**
 * Folds output-minimizer audit entries (bare entries or session entries; others are ignored) into
 * {@link OutputMinimizerStats}. Byte and reference counts are running totals carried by each entry
 * (`bytesKeptOutTotal`, `referencesTotal`, `reusedTotal`), so the latest (largest) value is the total.
 */
export function summarizeOutputMinimizer(entries: readonly unknown[]): OutputMinimizerStats {
	const summary = summarizeAudit(entries).byExt["output-minimizer"];
	const event = (name: string) => summary?.events[name] ?? 0;
	const pair = (name: string) => summary?.eventCategories[name] ?? 0;
	const max = (name: string) => summary?.counterMax[name] ?? 0;
	return {
		minimized: event("minimized"),
		bySurface: {
			single: pair("minimized/single"),
			workflow: pair("minimized/workflow"),
			notify: pair("minimized/notify"),
		},
		bytesKeptOut: max("bytesKeptOutTotal"),
		references: max("referencesTotal"),
		reused: max("reusedTotal"),
		fallbacks: event("bounded-fallback"),
		persistenceFailures: event("persistence-failed"),
		passthrough: {
			inline: event("passthrough-inline"),
			small: event("passthrough-small"),
			boundedInline: event("bounded-inline"),
		},
		configInvalid: event("config-invalid"),
		handlerErrors: event("handler-error"),
	};
}

/** The state line of the status report. */
export type OutputMinimizerRunState = "active" | "inactive-invalid-config" | "inactive-project-off" | "starting";

/** Formats the status report: counts and enums only, never a path or any output text. */
export function formatOutputMinimizerStatus(stats: OutputMinimizerStats, state: OutputMinimizerRunState): string {
	const stateText: Record<OutputMinimizerRunState, string> = {
		active: "active (mode reference)",
		"inactive-invalid-config": "inactive: invalid config, results pass unchanged",
		"inactive-project-off": "inactive: mode off in project config",
		starting: "starting",
	};
	return [
		`output-minimizer: ${stateText[state] ?? "unknown"}`,
		`results minimized: ${stats.minimized} (single ${stats.bySurface.single}, workflow ${stats.bySurface.workflow}, notify ${stats.bySurface.notify})`,
		`bytes kept out of context: ${stats.bytesKeptOut}`,
		`outputs referenced: ${stats.references} (host files reused: ${stats.reused})`,
		`bounded fallbacks: ${stats.fallbacks} (persistence failures: ${stats.persistenceFailures})`,
		`pass-throughs: inline ${stats.passthrough.inline}, small ${stats.passthrough.small}, output:false bounded ${stats.passthrough.boundedInline}`,
	].join("\n");
}

/**
 * Whether the status report's counters show anything: a minimized result, a fallback, a persistence failure or a
 * pass-through on this branch. When the extension is not live (off, or its config invalid) the status answers its
 * state line alone unless something was counted earlier in the branch.
 */
export function outputMinimizerCounted(stats: OutputMinimizerStats): boolean {
	const { passthrough } = stats;
	return (
		stats.minimized +
			stats.fallbacks +
			stats.persistenceFailures +
			passthrough.inline +
			passthrough.small +
			passthrough.boundedInline >
		0
	);
}
