// Renders the suite comparison: a per-turn side-by-side table for a 100-column terminal, the totals, and a
// self-contained HTML report with an SVG chart of context size per turn for both runs.
import { approxTokens, formatBytes } from "./report.ts";
import { SUITE_SCRIPT, SUITE_TASK, type SuiteRun, type SuiteTurn, type TurnEvents } from "./suite.ts";

/** The widest line the terminal output may have. */
export const TERMINAL_WIDTH = 100;

function fit(text: string, width = TERMINAL_WIDTH): string {
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** Approximate tokens, short: "830 tokens", "1.2k tokens". */
function tokensLabel(bytes: number): string {
	const tokens = approxTokens(bytes);
	return `${tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : tokens} tokens`;
}

function compactSize(bytes: number): string {
	const tokens = approxTokens(bytes);
	const t = tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
	return `${formatBytes(bytes)} ~${t}t`;
}

/** What the demo shows, printed before the tables: the task, the script, and how to read each column and row. */
export function renderHeader(label: string): string[] {
	return [
		"pi-policy demo: one scripted coding session, run twice in a real Pi 1.6.0 session (faux model, no",
		`API key): stock Pi, then with ${label}.`,
		"The task:",
		`  "${SUITE_TASK}"`,
		"The script, the same agent turns both times:",
		...SUITE_SCRIPT.map((line) => `  ${line}`),
		'How to read it: each row is one request to the agent\'s model. "stock Pi" and "with pi-policy" give',
		'what that request sent: KB, and approximate tokens ("~1.2kt" = about 1,200 tokens, at 4 bytes per',
		'token). "change" is pi-policy against stock. The last column says what the extensions did before',
		'that request; "policy" means the delegation-policy block was in it. The totals add the guardian',
		"reviewer model's own requests as a row of their own.",
	];
}

function change(stock: number, policy: number): string {
	if (stock === 0) return "";
	const ratio = policy / stock - 1;
	return `${ratio >= 0 ? "+" : ""}${Math.round(ratio * 100)}%`;
}

/** Short labels for what the extensions did in one turn. */
export function eventLabels(events: TurnEvents): string[] {
	const labels: string[] = [];
	if (events.nudges) labels.push(`nudge${events.nudges > 1 ? ` x${events.nudges}` : ""}`);
	if (events.blocks) labels.push(`blocked${events.blocks > 1 ? ` x${events.blocks}` : ""}`);
	if (events.referenced)
		labels.push(events.referenced > 1 ? `${events.referenced} outputs referenced` : "output referenced");
	if (events.preserved) labels.push(events.preserved > 1 ? `${events.preserved} artifacts saved` : "artifact saved");
	if (events.recovered) labels.push("range recovered");
	for (const [key, count] of Object.entries(events.guardian))
		labels.push(`guardian ${key}${count > 1 ? ` x${count}` : ""}`);
	return labels;
}

/** The per-turn side-by-side table. */
export function renderSideBySide(stock: SuiteRun, policy: SuiteRun): string {
	const lines = [
		"turn  stock Pi          with pi-policy    change  what pi-policy did before this request",
		"----  ----------------  ----------------  ------  ------------------------------------------",
	];
	const count = Math.max(stock.turns.length, policy.turns.length);
	for (let i = 0; i < count; i++) {
		const s: SuiteTurn | undefined = stock.turns[i];
		const p: SuiteTurn | undefined = policy.turns[i];
		const labels = p ? eventLabels(p.events) : [];
		if (p?.policyBlock) labels.unshift("policy");
		const row = [
			String(i + 1).padStart(4),
			(s ? compactSize(s.bytes) : "-").padEnd(16),
			(p ? compactSize(p.bytes) : "-").padEnd(16),
			(s && p ? change(s.bytes, p.bytes) : "").padStart(6),
			labels.join(", ") || "-",
		].join("  ");
		lines.push(fit(row));
	}
	return lines.join("\n");
}

function guardianSummary(guardian: Record<string, number>): string {
	const entries = Object.entries(guardian);
	return entries.length === 0 ? "-" : entries.map(([key, count]) => `${key} ${count}`).join(", ");
}

/** The totals: one row per measure, stock next to pi-policy. Reviewer requests count in every byte total. */
export function totalsRows(stock: SuiteRun, policy: SuiteRun): Array<[string, string, string]> {
	const stockAll = stock.totals.bytes + stock.reviewerBytes;
	const policyAll = policy.totals.bytes + policy.reviewerBytes;
	const change = stockAll > 0 ? Math.round((1 - policyAll / stockAll) * 100) : undefined;
	const cut = change === undefined ? "" : change >= 0 ? ` (${change}% less)` : ` (${-change}% more)`;
	const reviewer = (run: SuiteRun) =>
		run.reviewerCalls > 0 ? `${run.reviewerCalls}, ${compactSize(run.reviewerBytes)}` : "0";
	return [
		["agent model requests", String(stock.turns.length), String(policy.turns.length)],
		["reviewer model requests, bytes", reviewer(stock), reviewer(policy)],
		["bytes sent, all requests", compactSize(stockAll), `${compactSize(policyAll)}${cut}`],
		["bytes sent, last agent request", compactSize(stock.totals.lastBytes), compactSize(policy.totals.lastBytes)],
		["exploration nudges / blocks", "-", `${policy.totals.nudges} / ${policy.totals.blocks}`],
		["delegated outputs referenced", "-", String(policy.totals.referenced)],
		["artifacts preserved / recovered", "-", `${policy.totals.preserved} / ${policy.totals.recovered}`],
		["guardian decisions by source", "-", guardianSummary(policy.totals.guardian)],
		["delegation block present", "-", `${policy.totals.policyBlocks} of ${policy.turns.length} requests`],
	];
}

/** The totals table for the terminal. */
export function renderTotals(stock: SuiteRun, policy: SuiteRun): string {
	const rows = totalsRows(stock, policy);
	const lines = ["total                             stock Pi          with pi-policy", "-".repeat(80)];
	for (const [name, s, p] of rows) {
		// Long values wrap onto indented lines instead of running past the terminal width.
		const width = TERMINAL_WIDTH - 52;
		const parts = p.split(", ");
		const wrapped: string[] = [];
		for (const part of parts) {
			const last = wrapped.at(-1);
			if (last !== undefined && `${last}, ${part}`.length <= width) wrapped[wrapped.length - 1] = `${last}, ${part}`;
			else wrapped.push(part);
		}
		lines.push(fit(`${name.padEnd(32)}  ${s.padEnd(16)}  ${wrapped[0] ?? ""}`));
		for (const more of wrapped.slice(1)) lines.push(fit(`${"".padEnd(52)}${more}`));
	}
	return lines.join("\n");
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Points of one series in chart coordinates. */
function seriesPoints(
	turns: SuiteTurn[],
	maxTurns: number,
	maxBytes: number,
	box: { w: number; h: number; pad: number },
) {
	return turns.map((turn) => {
		const x = box.pad + ((turn.turn - 1) / Math.max(1, maxTurns - 1)) * (box.w - 2 * box.pad);
		const y = box.h - box.pad - (turn.bytes / maxBytes) * (box.h - 2 * box.pad);
		return `${x.toFixed(1)},${y.toFixed(1)}`;
	});
}

/** A self-contained HTML report: the chart of context size per turn, the per-turn table and the totals. */
export function renderHtmlReport(stock: SuiteRun, policy: SuiteRun): string {
	const box = { w: 860, h: 360, pad: 92 };
	const maxTurns = Math.max(stock.turns.length, policy.turns.length);
	const maxBytes = Math.max(1, ...stock.turns.map((t) => t.bytes), ...policy.turns.map((t) => t.bytes));
	const series = [
		{ run: stock, id: "stock", color: "#d9534f", name: "stock Pi" },
		{ run: policy, id: "pi-policy", color: "#2a7ae2", name: `with ${policy.label}` },
	];
	const gridLines = [0, 0.25, 0.5, 0.75, 1].map((f) => {
		const y = box.h - box.pad - f * (box.h - 2 * box.pad);
		const bytes = Math.round(maxBytes * f);
		return `<line x1="${box.pad}" x2="${box.w - box.pad}" y1="${y}" y2="${y}" stroke="#ddd"/><text class="y-label" x="${box.pad - 4}" y="${y - 2}" font-size="10" text-anchor="end">${escapeHtml(formatBytes(bytes))}</text><text class="y-label" x="${box.pad - 4}" y="${y + 9}" font-size="10" text-anchor="end" fill="#666">~${escapeHtml(tokensLabel(bytes))}</text>`;
	});
	const xTicks = Array.from({ length: maxTurns }, (_, i) => {
		const x = box.pad + (i / Math.max(1, maxTurns - 1)) * (box.w - 2 * box.pad);
		return `<text x="${x.toFixed(1)}" y="${box.h - box.pad + 16}" font-size="11" text-anchor="middle">${i + 1}</text>`;
	});
	const polylines = series.map(
		(s) =>
			`<polyline class="series" data-series="${s.id}" fill="none" stroke="${s.color}" stroke-width="3" points="${seriesPoints(s.run.turns, maxTurns, maxBytes, box).join(" ")}"/>`,
	);
	const legend = series.map(
		(s, i) =>
			`<rect x="${box.pad + i * 220}" y="8" width="14" height="14" fill="${s.color}"/><text x="${box.pad + 20 + i * 220}" y="20" font-size="13">${escapeHtml(s.name)}</text>`,
	);
	const turnRows = Array.from({ length: maxTurns }, (_, i) => {
		const s = stock.turns[i];
		const p = policy.turns[i];
		const labels = p ? eventLabels(p.events) : [];
		if (p?.policyBlock) labels.unshift("policy block");
		const size = (turn: SuiteTurn | undefined) =>
			turn ? `${formatBytes(turn.bytes)} (~${tokensLabel(turn.bytes)})` : "-";
		return `<tr><td>${i + 1}</td><td>${size(s)}</td><td>${size(p)}</td><td class="change">${s && p ? change(s.bytes, p.bytes) : ""}</td><td>${escapeHtml(labels.join(", "))}</td></tr>`;
	});
	const totals = totalsRows(stock, policy).map(
		([name, s, p]) => `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(s)}</td><td>${escapeHtml(p)}</td></tr>`,
	);
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pi-policy demo: context per turn</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f4f4f4}</style>
</head><body>
<h1>pi-policy demo: what reached the model</h1>
<p>One scripted coding session, run twice in a real Pi ${escapeHtml("1.6.0")} session (faux model, no API key): stock, and with ${escapeHtml(policy.extensions.join(", "))}.</p>
<p><b>The task:</b> ${escapeHtml(SUITE_TASK)}<br><b>The script</b>, the same agent turns both times: ${escapeHtml(SUITE_SCRIPT.join(" "))}</p>
<p>Each point and row is one request to the agent's model: what it sent, in KB and approximate tokens (4 bytes per token). <b>change</b> is pi-policy against stock; <b>policy block</b> means the delegation-policy block was in that request. The totals add the guardian reviewer model's own requests.</p>
<svg id="context-chart" xmlns="http://www.w3.org/2000/svg" width="${box.w}" height="${box.h}" viewBox="0 0 ${box.w} ${box.h}" role="img" aria-label="Context bytes per turn">
${gridLines.join("\n")}
${xTicks.join("\n")}
${polylines.join("\n")}
${legend.join("\n")}
<text id="x-axis-label" x="${box.w / 2}" y="${box.h - 12}" font-size="12" text-anchor="middle">request to the agent's model (turn)</text>
<text id="y-axis-label" x="10" y="${box.h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 10 ${box.h / 2})">sent per request: KB (~tokens)</text>
</svg>
<h2>Totals</h2>
<table><tr><th>measure</th><th>stock Pi</th><th>with pi-policy</th></tr>
${totals.join("\n")}
</table>
<h2>Per turn</h2>
<table id="per-turn"><tr><th>turn</th><th>stock Pi</th><th>with pi-policy</th><th>change</th><th>what pi-policy did before this request</th></tr>
${turnRows.join("\n")}
</table>
</body></html>
`;
}
