// The self-contained HTML page of a report: inline CSS and SVG bar charts (context kept out per day, guardian
// decisions by source, gate criteria against their thresholds). No script, no external resource.
import type { PolicyReport } from "./accumulate.js";
import { formatCriterionThreshold, formatCriterionValue, notSessionsText } from "./render-text.js";

/** One bar of a chart: a label, its value, and a colour class. */
export interface ChartBar {
	readonly label: string;
	readonly value: number;
	readonly tone: "primary" | "pass" | "fail" | "deny";
}

/** A laid-out bar: its rectangle inside the chart's plot area. */
export interface PlacedBar extends ChartBar {
	readonly x: number;
	readonly y: number;
	readonly width: number;
	readonly height: number;
}

/** Chart geometry. */
export const CHART = Object.freeze({ width: 640, height: 220, padTop: 16, padBottom: 40, padLeft: 48, gap: 6 });

/**
 * Lays out vertical bars scaled to the largest value (or `scaleMax` when larger). A non-positive value gets no
 * height. Pure geometry, tested separately from the SVG text.
 */
export function layoutBars(bars: readonly ChartBar[], scaleMax = 0): PlacedBar[] {
	const plotWidth = CHART.width - CHART.padLeft - 8;
	const plotHeight = CHART.height - CHART.padTop - CHART.padBottom;
	const top = Math.max(scaleMax, ...bars.map((bar) => bar.value), 0);
	const slot = bars.length > 0 ? plotWidth / bars.length : plotWidth;
	const width = Math.max(2, slot - CHART.gap);
	return bars.map((bar, i) => {
		const height = top > 0 && bar.value > 0 ? Math.max(2, (bar.value / top) * plotHeight) : 0;
		return {
			...bar,
			x: CHART.padLeft + i * slot + CHART.gap / 2,
			y: CHART.padTop + plotHeight - height,
			width,
			height,
		};
	});
}

const TONES: Record<ChartBar["tone"], string> = {
	primary: "#2f6fdf",
	pass: "#2e9d4a",
	fail: "#d23c3c",
	deny: "#e08a1e",
};

/** Escapes text for HTML and SVG. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The width a bar label's character takes at its 9 px font, a generous average for the labels' text. */
const LABEL_CHAR_WIDTH = 5.5;

/** An SVG bar chart; `marker` draws a horizontal reference line at that value (for thresholds). */
export function renderBarChart(
	id: string,
	title: string,
	bars: readonly ChartBar[],
	options: { scaleMax?: number; marker?: number } = {},
): string {
	const placed = layoutBars(bars, Math.max(options.scaleMax ?? 0, options.marker ?? 0));
	const plotHeight = CHART.height - CHART.padTop - CHART.padBottom;
	const top = Math.max(options.scaleMax ?? 0, options.marker ?? 0, ...bars.map((bar) => bar.value), 0);
	const parts: string[] = [
		`<svg id="${escapeHtml(id)}" class="chart" role="img" aria-label="${escapeHtml(title)}" width="${CHART.width}" height="${CHART.height}" viewBox="0 0 ${CHART.width} ${CHART.height}" xmlns="http://www.w3.org/2000/svg">`,
		`<line x1="${CHART.padLeft}" y1="${CHART.padTop + plotHeight}" x2="${CHART.width - 8}" y2="${CHART.padTop + plotHeight}" stroke="#888"/>`,
		`<text x="4" y="${CHART.padTop + 8}" font-size="10" fill="#555">${escapeHtml(String(Math.round(top * 100) / 100))}</text>`,
	];
	// Labels wider than their bar's slot go on two staggered rows, so neighbours never overlap (the gate chart's
	// nine criteria did).
	const slot = placed.length > 0 ? (CHART.width - CHART.padLeft - 8) / placed.length : 0;
	const staggered = placed.some((bar) => bar.label.length * LABEL_CHAR_WIDTH > slot);
	for (const [index, bar] of placed.entries()) {
		parts.push(
			`<rect x="${bar.x.toFixed(1)}" y="${bar.y.toFixed(1)}" width="${bar.width.toFixed(1)}" height="${bar.height.toFixed(1)}" fill="${TONES[bar.tone]}"><title>${escapeHtml(`${bar.label}: ${bar.value}`)}</title></rect>`,
		);
		const labelY = CHART.height - CHART.padBottom + 14 + (staggered && index % 2 === 1 ? 12 : 0);
		parts.push(
			`<text x="${(bar.x + bar.width / 2).toFixed(1)}" y="${labelY}" font-size="9" text-anchor="middle" fill="#333">${escapeHtml(bar.label)}</text>`,
		);
	}
	if (options.marker !== undefined && top > 0) {
		const y = CHART.padTop + plotHeight - (options.marker / top) * plotHeight;
		parts.push(
			`<line x1="${CHART.padLeft}" y1="${y.toFixed(1)}" x2="${CHART.width - 8}" y2="${y.toFixed(1)}" stroke="#111" stroke-dasharray="4 3"/>`,
		);
	}
	if (bars.length === 0) {
		parts.push(`<text x="${CHART.width / 2}" y="${CHART.height / 2}" text-anchor="middle" fill="#777">no data</text>`);
	}
	parts.push("</svg>");
	return parts.join("");
}

/** Each criterion as a bar of its value relative to its threshold (1.0 = at the threshold). */
export function gateCriteriaBars(report: PolicyReport): ChartBar[] {
	return report.gate.criteria.map((criterion) => {
		const value = criterion.value ?? 0;
		// Max criteria with a zero threshold (counts that must be 0) show the count itself against a 1.0 marker.
		const relative = criterion.threshold > 0 ? value / criterion.threshold : value;
		return { label: criterion.id, value: Math.round(relative * 1000) / 1000, tone: criterion.pass ? "pass" : "fail" };
	});
}

/**
 * The whole page. Everything shown comes from the report: enums, counts, UTC days and hashed session ids.
 */
export function renderReportHtml(report: PolicyReport, options: { generatedAt?: string } = {}): string {
	const dayBars: ChartBar[] = report.days.map((day) => ({
		label: day.day.slice(5),
		value: day.bytesKeptOut,
		tone: "primary",
	}));
	const guardianBars: ChartBar[] = [];
	for (const [source, row] of Object.entries(report.guardianDecisions)) {
		guardianBars.push({ label: `${source} allow`, value: row.allowed, tone: "pass" });
		guardianBars.push({ label: `${source} deny`, value: row.denied, tone: "deny" });
	}
	const criteriaRows = report.gate.criteria
		.map(
			(c) =>
				`<tr class="${c.pass ? "pass" : "fail"}"><td>${escapeHtml(c.id)}</td><td>${c.pass ? "pass" : "fail"}</td><td>${escapeHtml(formatCriterionValue(c))}</td><td>${escapeHtml(formatCriterionThreshold(c))}</td></tr>`,
		)
		.join("");
	const extRows = Object.entries(report.extensions)
		.map(([ext, events]) => {
			const list = Object.entries(events ?? {})
				.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
				.map(([event, n]) => `${escapeHtml(event)} ${n}`)
				.join(" · ");
			return `<tr><td>${escapeHtml(ext)}</td><td>${list}</td></tr>`;
		})
		.join("");
	const sessionRows = report.topSessions
		.map((s) => `<tr><td><code>${escapeHtml(s.sessionHash)}</code></td><td>${s.entries}</td></tr>`)
		.join("");
	const generated = options.generatedAt ? ` · generated ${escapeHtml(options.generatedAt)}` : "";
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pi-policy report</title>
<style>
body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;text-align:left}
tr.pass td:nth-child(2){color:#2e9d4a;font-weight:600}tr.fail td:nth-child(2){color:#d23c3c;font-weight:600}
.verdict{font-size:18px;font-weight:700}.verdict.pass{color:#2e9d4a}.verdict.fail{color:#d23c3c}
</style></head><body>
<h1>pi-policy report</h1>
<p>${report.sessions} session(s) · skipped ${report.skipped.lines} line(s), ${report.skipped.files} file(s)${notSessionsText(report)} · kept out of context ${report.bytesKeptOut} bytes (~${report.approxTokensKeptOut} tokens)${generated}</p>
<h2>Exploration gate</h2>
<p class="verdict ${report.gate.pass ? "pass" : "fail"}">${report.gate.pass ? "PASS" : "FAIL"}</p>
${renderBarChart("chart-gate", "Gate criteria relative to their thresholds", gateCriteriaBars(report), { marker: 1 })}
<table><tr><th>criterion</th><th>result</th><th>measured</th><th>threshold</th></tr>${criteriaRows}</table>
<h2>Context kept out per day (bytes)</h2>
${renderBarChart("chart-days", "Bytes kept out of the context per day", dayBars)}
<h2>Guardian decisions by source</h2>
${renderBarChart("chart-guardian", "Guardian decisions by source", guardianBars)}
<h2>Events per extension</h2>
<table><tr><th>extension</th><th>events</th></tr>${extRows}</table>
<h2>Busiest sessions (hashed ids)</h2>
<table><tr><th>session</th><th>entries</th></tr>${sessionRows}</table>
</body></html>
`;
}
