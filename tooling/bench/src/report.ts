// Renders bench results as JSON and Markdown.
import type { BenchFigure, BenchResult } from "./types.ts";

function formatFigure(figure: BenchFigure): string {
	switch (figure.unit) {
		case "bytes":
			return Math.abs(figure.value) >= 1024 ? `${(figure.value / 1024).toFixed(1)} KiB` : `${figure.value} B`;
		case "ratio":
			return figure.value.toFixed(3);
		case "percent":
			return `${(figure.value * 100).toFixed(1)}%`;
		case "ms":
			return `${figure.value.toFixed(3)} ms`;
		default:
			return String(figure.value);
	}
}

/** A Markdown summary: one table per workload. */
export function renderMarkdown(results: BenchResult[], meta: { date: string; node: string }): string {
	const out = [
		`# pi-policy benchmarks`,
		"",
		`Run ${meta.date} on Node ${meta.node}. Every ratio compares sides measured in this run.`,
		"",
	];
	for (const result of results) {
		out.push(`## ${result.title}`, "", "| figure | value |", "|---|---|");
		for (const figure of result.figures) out.push(`| ${figure.name} | ${formatFigure(figure)} |`);
		for (const check of result.checks) out.push(`| check: ${check.name} | ${check.passed ? "pass" : "FAIL"} |`);
		out.push("");
	}
	return out.join("\n");
}
