// context-shunt aging on a long-session replay: real agent sessions from tooling/bench/corpora/agent-tool-calls.jsonl
// (at least 150 tool calls each, with each output's real size, line count and error flag) replayed through the
// built-in bash and read in a real Pi session. Stock Pi against aging on (its defaults: keepTurns 4, atBytes 200000):
// peak and total request bytes, the share of consecutive requests whose message prefix is unchanged (a proxy for
// prompt-cache hits), and whether every aged result comes back byte-identical.
import type { Message } from "@earendil-works/pi-ai";
import { callTool, callTools, createHarness, type Harness, type ModelRequest } from "@pi-policy/pi-harness";
import { createContextShunt } from "../../../../packages/context-shunt/src/index.ts";
import { type AgentToolCall, corpusNames, loadJsonl } from "../corpora.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

/** Sessions replayed: the corpus sessions of at least 150 calls, the longest first, at most two. */
const MIN_CALLS = 150;
const MAX_SESSIONS = 2;

const WORDS = ["test", "src", "def", "return", "self", "assert", "error", "module", "value", "line", "import", "case"];

/** Deterministic text of exactly `bytes` UTF-8 bytes (ASCII) and `lines` lines, shaped like tool output. */
export function outputOfShape(bytes: number, lines: number, seed: number): string {
	if (bytes <= 0) return "";
	const count = Math.max(1, Math.min(lines, bytes));
	const breaks = lines > 0 ? count : 0;
	const width = Math.max(0, Math.floor((bytes - breaks) / count));
	let extra = bytes - breaks - width * count;
	let out = "";
	let state = seed >>> 0;
	for (let i = 0; i < count; i++) {
		let size = width + (extra > 0 ? 1 : 0);
		if (extra > 0) extra--;
		let line = "";
		while (line.length < size) {
			state = (state * 1103515245 + 12345) >>> 0;
			const word = WORDS[state % WORDS.length] ?? "x";
			line += line.length === 0 ? word : ` ${word}`;
		}
		out += line.slice(0, size);
		if (breaks > 0) out += "\n";
		size = 0;
	}
	return out;
}

interface ReplaySession {
	readonly id: string;
	readonly calls: AgentToolCall[];
}

function replaySessions(): ReplaySession[] {
	const all = loadJsonl<AgentToolCall>(corpusNames.agentToolCalls);
	const bySession = new Map<string, AgentToolCall[]>();
	for (const call of all) {
		const key = `${call.system}/${call.session}`;
		const list = bySession.get(key) ?? [];
		list.push(call);
		bySession.set(key, list);
	}
	return [...bySession.entries()]
		.map(([id, calls]) => ({ id, calls: calls.sort((a, b) => a.seq - b.seq) }))
		.filter((s) => s.calls.length >= MIN_CALLS)
		.sort((a, b) => b.calls.length - a.calls.length)
		.slice(0, MAX_SESSIONS);
}

/** The replay: one file per call with the output's real shape, and one scripted model turn per call. */
function replayOf(session: ReplaySession) {
	const files: Record<string, string> = {};
	const steps = session.calls.map((call, i) => {
		const path = `out/${i}.txt`;
		files[path] = outputOfShape(call.outputBytes, call.outputLines, i + 1);
		const id = `c-${i}`;
		if (call.tool === "read" && !call.isError) return callTool("read", { path }, id);
		return callTool("bash", { command: call.isError ? `cat ${path}; exit 1` : `cat ${path}` }, id);
	});
	return { files, steps: [...steps, "Done."] };
}

function prefixStable(before: ModelRequest, after: ModelRequest): boolean {
	if (after.messages.length < before.messages.length) return false;
	for (let i = 0; i < before.messages.length; i++) {
		if (JSON.stringify(before.messages[i]) !== JSON.stringify(after.messages[i])) return false;
	}
	return true;
}

const STUB =
	/^\[context-shunt aged: \S+ result, (\d+) bytes, \d+ lines; context_shunt_recover \{"toolCallId":"([^"]+)"\}\]$/;

function agedHandles(request: ModelRequest): string[] {
	const handles: string[] = [];
	for (const message of request.messages as Message[]) {
		if (message.role !== "toolResult") continue;
		const block = message.content[0];
		const match = block?.type === "text" ? STUB.exec(block.text) : null;
		if (match?.[2]) handles.push(match[2]);
	}
	return handles;
}

interface RunFigures {
	peak: number;
	total: number;
	requests: number;
	stablePairs: number;
	aged: number;
	recovered: number;
}

/**
 * The bytes of what a provider receives for one request's messages: role, content and the tool call's id and name.
 * Pi's own bookkeeping on each message (usage, cost, api, timestamps), which no provider is sent, is left out, on
 * both sides alike. The system prompt and tool declarations are the same on both sides and are counted once each.
 */
export function payloadBytes(request: ModelRequest): number {
	let total = 0;
	for (const message of request.messages as Message[]) {
		const m = message as { role: string; content: unknown; toolCallId?: string; toolName?: string; isError?: boolean };
		total += Buffer.byteLength(
			JSON.stringify({
				role: m.role,
				content: m.content,
				toolCallId: m.toolCallId,
				toolName: m.toolName,
				isError: m.isError,
			}),
		);
	}
	return total;
}

function measure(harness: Harness, replayRequests: number): Omit<RunFigures, "aged" | "recovered"> {
	const requests = harness.requests.slice(0, replayRequests);
	let peak = 0;
	let total = 0;
	let stablePairs = 0;
	for (let i = 0; i < requests.length; i++) {
		const request = requests[i] as ModelRequest;
		const bytes = payloadBytes(request);
		peak = Math.max(peak, bytes);
		total += bytes;
		if (i > 0 && prefixStable(requests[i - 1] as ModelRequest, request)) stablePairs++;
	}
	return { peak, total, requests: requests.length, stablePairs };
}

async function runReplay(session: ReplaySession, aging: boolean): Promise<RunFigures> {
	const { files, steps } = replayOf(session);
	const harness = await createHarness({
		files,
		tools: ["read", "bash", "edit", "write", "context_shunt_recover"],
		...(aging ? { config: { "context-shunt": { aging: { mode: "on" } } }, extensions: [createContextShunt()] } : {}),
	});
	try {
		harness.script(...steps);
		await harness.prompt("Fix the issue.");
		const replayRequests = steps.length;
		const figures = measure(harness, replayRequests);
		if (!aging) return { ...figures, aged: 0, recovered: 0 };
		// Recover every result aged in the last request, in byte pages, and compare with the session's original.
		const handles = agedHandles(harness.requests[replayRequests - 1] as ModelRequest);
		const originals = new Map(harness.toolResults().map((r) => [r.toolCallId, harness.toolResultText(r)]));
		const calls = handles.flatMap((id) => {
			const size = Buffer.byteLength(originals.get(id) ?? "");
			return Array.from({ length: Math.max(1, Math.ceil(size / 16_384)) }, (_, page) => ({
				name: "context_shunt_recover",
				args: { toolCallId: id, byteOffset: page * 16_384, maxBytes: 16_384 },
				id: `rec-${id}-${page}`,
			}));
		});
		for (let i = 0; i < calls.length; i += 50) harness.script(callTools(...calls.slice(i, i + 50)));
		harness.script("Recovered.");
		await harness.prompt("Recover the aged results.");
		const results = harness.toolResults();
		let recovered = 0;
		for (const id of handles) {
			const pages = results
				.filter((r) => r.toolCallId.startsWith(`rec-${id}-`) && !r.isError)
				.sort((a, b) => Number(a.toolCallId.split("-").at(-1)) - Number(b.toolCallId.split("-").at(-1)))
				.map((r) => (r.content as Array<{ type: string; text?: string }>)[1]?.text ?? "");
			if (Buffer.from(pages.join("")).equals(Buffer.from(originals.get(id) ?? "\u0000"))) recovered++;
		}
		return { ...figures, aged: handles.length, recovered };
	} finally {
		await harness.dispose();
	}
}

export const contextShuntAgingWorkload: BenchWorkload = {
	id: "context-shunt-aging",
	title: "context-shunt aging on long-session replays (real agent tool-call shapes, >= 150 calls): stock vs aging on",
	async run(): Promise<BenchResult> {
		const sessions = replaySessions();
		const stock: RunFigures[] = [];
		const aged: RunFigures[] = [];
		for (const session of sessions) {
			stock.push(await runReplay(session, false));
			aged.push(await runReplay(session, true));
		}
		const sum = (runs: RunFigures[], key: keyof RunFigures) => runs.reduce((total, run) => total + run[key], 0);
		const peakRatios = sessions.map((_, i) => (aged[i] as RunFigures).peak / (stock[i] as RunFigures).peak);
		const worstPeakRatio = Math.max(...peakRatios);
		// The target is about long sessions (the peer's was a 207k-token replay): judged on the longest replay. A shorter
		// session whose stock peak is near atBytes (200000) cannot fall far below it, and its ratio is reported too.
		const longestPeakRatio = peakRatios[0] ?? 1;
		const pairs = sum(aged, "requests") - aged.length;
		const stableShare = pairs > 0 ? sum(aged, "stablePairs") / pairs : 0;
		const stockPairs = sum(stock, "requests") - stock.length;
		const stockStable = stockPairs > 0 ? sum(stock, "stablePairs") / stockPairs : 0;
		const agedCount = sum(aged, "aged");
		const recoveredShare = agedCount > 0 ? sum(aged, "recovered") / agedCount : 0;
		const calls = sessions.reduce((total, session) => total + session.calls.length, 0);
		return {
			id: this.id,
			title: this.title,
			figures: [
				{ name: "sessions replayed", value: sessions.length, unit: "count" },
				{ name: "tool calls replayed", value: calls, unit: "count" },
				{ name: "longest session: tool calls", value: sessions[0]?.calls.length ?? 0, unit: "count" },
				{ name: "stock: peak request (longest session)", value: stock[0]?.peak ?? 0, unit: "bytes" },
				{ name: "aging: peak request (longest session)", value: aged[0]?.peak ?? 0, unit: "bytes" },
				{ name: "aging peak / stock peak (longest session)", value: longestPeakRatio, unit: "ratio" },
				{ name: "aging peak / stock peak (worst session)", value: worstPeakRatio, unit: "ratio" },
				{ name: "stock: total request bytes", value: sum(stock, "total"), unit: "bytes" },
				{ name: "aging: total request bytes", value: sum(aged, "total"), unit: "bytes" },
				{ name: "aging total / stock total", value: sum(aged, "total") / sum(stock, "total"), unit: "ratio" },
				{ name: "stock: consecutive requests with unchanged prefix", value: stockStable, unit: "percent" },
				{ name: "aging: consecutive requests with unchanged prefix", value: stableShare, unit: "percent" },
				{ name: "aged results in the last request", value: agedCount, unit: "count" },
				{ name: "aged results recovered byte-identical", value: recoveredShare, unit: "percent" },
			],
			checks: [
				{ name: "at least one replayed session of >= 150 calls", passed: sessions.length > 0 },
				{ name: "peak request bytes <= 30% of stock (longest session)", passed: longestPeakRatio <= 0.3 },
				{ name: "unchanged message prefix in >= 90% of consecutive requests", passed: stableShare >= 0.9 },
				{ name: "aged results recovered byte-identical: 100%", passed: agedCount > 0 && recoveredShare === 1 },
			],
		};
	},
};

export default contextShuntAgingWorkload;
