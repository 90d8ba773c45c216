// Turn-by-turn rendering of what reached the model, for a 100-column terminal.
import type { Message } from "@earendil-works/pi-ai";
import { contentText, type Harness, type ModelRequest } from "@pi-policy/pi-harness";

const encoder = new TextEncoder();

/** UTF-8 bytes of a JSON value. */
export function jsonBytes(value: unknown): number {
	return encoder.encode(JSON.stringify(value)).byteLength;
}

/** Rough token estimate used throughout the demo: 4 bytes per token. */
export function approxTokens(bytes: number): number {
	return Math.round(bytes / 4);
}

/** Human-readable size. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** One row of the per-turn table. */
export interface TurnRow {
	turn: number;
	requestBytes: number;
	newBytes: number;
	/** What arrived since the previous request, one short label per message. */
	arrived: string[];
}

function describe(message: Message): string {
	const m = message as unknown as Record<string, unknown>;
	const size = formatBytes(jsonBytes(message));
	if (m.role === "toolResult") {
		const flag = m.isError ? " error" : "";
		return `${String(m.toolName)} result${flag} (${size})`;
	}
	if (m.role === "user") return `user message (${size})`;
	if (m.role === "custom") return `${String(m.customType)} message (${size})`;
	if (m.role === "assistant") {
		const calls = (Array.isArray(m.content) ? m.content : []).filter(
			(b: { type?: string }) => b.type === "toolCall",
		) as Array<{ name: string }>;
		return calls.length > 0 ? `assistant calls ${calls.map((c) => c.name).join("+")}` : "assistant text";
	}
	if (m.role === "system") return `system prompt (${size})`;
	return `${String(m.role)} (${size})`;
}

/** Rows for every request the model received in a run. */
export function turnRows(requests: ModelRequest[]): TurnRow[] {
	let previous: Message[] = [];
	return requests.map((request, index) => {
		const arrived = request.messages.slice(index === 0 ? 0 : previous.length);
		previous = request.messages;
		return {
			turn: index + 1,
			requestBytes: jsonBytes(request.messages),
			newBytes: arrived.reduce((sum, m) => sum + jsonBytes(m), 0),
			arrived: arrived.filter((m) => m.role !== "assistant").map(describe),
		};
	});
}

/** Render the per-turn table of one run, at most 100 columns wide. */
export function renderTurnTable(rows: TurnRow[]): string {
	const lines = [
		"turn  context sent      new this turn  what arrived",
		"----  ----------------  -------------  -------------------------------------------------",
	];
	for (const row of rows) {
		const sent = `${formatBytes(row.requestBytes)} ~${approxTokens(row.requestBytes)}t`;
		const what = row.arrived.join(", ") || "-";
		lines.push(
			`${String(row.turn).padStart(4)}  ${sent.padEnd(16)}  ${formatBytes(row.newBytes).padStart(13)}  ${what}`.slice(
				0,
				100,
			),
		);
	}
	return lines.join("\n");
}

/** The text of the last tool result the model saw, trimmed for display. */
export function lastToolResultPreview(harness: Harness, maxChars = 300): string {
	const last = harness.toolResults().at(-1);
	if (!last) return "";
	const text = contentText(last.content);
	return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
