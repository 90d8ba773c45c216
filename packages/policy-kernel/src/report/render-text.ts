// The terminal summary of a many-session report: per extension, per day, and the exploration gate.
import type { PolicyReport } from "./accumulate.js";
import type { GateCriterion } from "./gate.js";

/** A criterion's measured figure as text: shares as percentages, days with one decimal, counts as integers. */
export function formatCriterionValue(criterion: Pick<GateCriterion, "id" | "value">): string {
	const { id, value } = criterion;
	if (value === null) return "n/a";
	if (id === "residual-share" || id === "bypass-share") return `${(value * 100).toFixed(1)}%`;
	if (id === "days") return value.toFixed(1);
	return String(value);
}

/** A criterion's threshold as text, with its direction (`>= 14`, `<= 5.0%`). */
export function formatCriterionThreshold(criterion: GateCriterion): string {
	const op = criterion.direction === "min" ? ">=" : "<=";
	const shown = formatCriterionValue({ id: criterion.id, value: criterion.threshold });
	return `${op} ${criterion.id === "days" ? String(criterion.threshold) : shown}`;
}

function sortedEntries(record: Readonly<Record<string, number>>): Array<[string, number]> {
	return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** ` · N file(s) not Pi sessions, skipped` when the input held such files (counted apart from malformed lines). */
export function notSessionsText(report: PolicyReport): string {
	return report.skipped.notSessions > 0 ? ` · ${report.skipped.notSessions} file(s) not Pi sessions, skipped` : "";
}

/**
 * The terminal summary: totals and skipped input, events per extension, one line per day, guardian decisions by
 * source, and the gate with pass or fail and the measured figure of each criterion. Enums and counts only.
 */
export function formatReportText(report: PolicyReport): string {
	const lines: string[] = [];
	lines.push(
		`pi-policy report: ${report.sessions} session(s) · skipped ${report.skipped.lines} line(s), ${report.skipped.files} file(s)${notSessionsText(report)}`,
	);
	lines.push(`kept out of context: ${report.bytesKeptOut} bytes (~${report.approxTokensKeptOut} tokens)`);
	lines.push("");
	lines.push("Per extension");
	const exts = Object.entries(report.extensions);
	if (exts.length === 0) lines.push("  (no audit entries)");
	for (const [ext, events] of exts) {
		const total = Object.values(events ?? {}).reduce((sum, n) => sum + n, 0);
		lines.push(`  ${ext}: ${total} entries`);
		lines.push(
			`    ${sortedEntries(events ?? {})
				.map(([event, n]) => `${event} ${n}`)
				.join(" · ")}`,
		);
	}
	const sources = Object.entries(report.guardianDecisions);
	if (sources.length > 0) {
		lines.push("");
		lines.push("Guardian decisions by source");
		for (const [source, row] of sources) lines.push(`  ${source}: allowed ${row.allowed} · denied ${row.denied}`);
	}
	lines.push("");
	lines.push("Per day (UTC)");
	if (report.days.length === 0) lines.push("  (no timestamped entries)");
	for (const day of report.days) {
		const parts = sortedEntries(day.entries as Record<string, number>).map(([ext, n]) => `${ext} ${n}`);
		lines.push(`  ${day.day}: ${day.sessions} session(s) · ${parts.join(" · ")} · kept out ${day.bytesKeptOut} bytes`);
	}
	lines.push("");
	lines.push(`Exploration gate: ${report.gate.pass ? "PASS" : "FAIL"}`);
	for (const criterion of report.gate.criteria) {
		lines.push(
			`  ${criterion.pass ? "pass" : "FAIL"}  ${criterion.id.padEnd(20)} ${formatCriterionValue(criterion).padStart(8)}  (${formatCriterionThreshold(criterion)})`,
		);
	}
	if (report.outsideWindow > 0) lines.push(`(${report.outsideWindow} entries outside --since/--until left out)`);
	return lines.join("\n");
}
