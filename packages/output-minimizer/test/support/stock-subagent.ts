// Test-only `subagent` tool whose results reproduce pi-subagents 0.67.0's foreground result shapes, for harness
// tests, the demo and the benchmark (the faux provider is invisible to real pi-subagents children). Each helper
// names the pi-subagents source it mirrors; test/stock-subagent-parity.test.ts checks them against the real code.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** One scripted child run. */
export interface StockChildRun {
	agent: string;
	/** The child's final text (its `finalOutput`). */
	output: string;
	exitCode?: number;
	error?: string;
	interrupted?: boolean;
	detached?: boolean;
	stopped?: boolean;
	timedOut?: boolean;
	/** Workflow child key (workflow runs only). */
	key?: string;
	sessionFile?: string;
}

/** One scripted tool call: a single child, or a workflow of several. */
export type StockRun = { kind: "single"; child: StockChildRun } | { kind: "workflow"; children: StockChildRun[] };

/** The raw result the stock tool produced for one call (before any extension's `tool_result` handler). */
export interface StockResult {
	input: Record<string, unknown>;
	content: Array<{ type: "text"; text: string }>;
	details: Record<string, unknown>;
	isError: boolean;
}

/** The handle a test keeps: queue runs, read what the stock tool produced. */
export interface StockSubagent {
	/** Register the tool: pass as one of the harness `extensions`. */
	extension: (pi: ExtensionAPI) => void;
	queue(...runs: StockRun[]): void;
	/** Every stock result, in call order. */
	readonly produced: StockResult[];
}

const FANOUT_LIMIT = 64;

/** Mirrors `formatRunFanoutBudget` (src/runs/shared/run-fanout-budget.ts). */
export function formatRunFanoutBudget(used: number, limit = FANOUT_LIMIT): string {
	return `Run fan-out: ${used}/${limit} used, ${limit - used} remaining`;
}

/** Mirrors `countLines` (private) in src/runs/shared/single-output.ts. */
export function stockCountLines(text: string): number {
	if (!text) return 0;
	const newlineMatches = text.match(/\r\n|\r|\n/g);
	return (newlineMatches?.length ?? 0) + (/[\r\n]$/.test(text) ? 0 : 1);
}

/** Mirrors `formatByteSize` (private) in src/runs/shared/single-output.ts. */
function formatByteSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const units = ["KB", "MB", "GB", "TB"];
	let value = bytes / 1024;
	let unitIndex = 0;
	while (value >= 1024 && unitIndex < units.length - 1) {
		value /= 1024;
		unitIndex++;
	}
	return `${value.toFixed(1)} ${units[unitIndex]}`;
}

/** Mirrors `formatSavedOutputReference` in src/runs/shared/single-output.ts. */
export function formatSavedOutputReference(savedPath: string, fullOutput: string) {
	const absolutePath = resolve(savedPath);
	const bytes = Buffer.byteLength(fullOutput, "utf-8");
	const lines = stockCountLines(fullOutput);
	return {
		path: absolutePath,
		bytes,
		lines,
		message: `Output saved to: ${absolutePath} (${formatByteSize(bytes)}, ${lines} ${lines === 1 ? "line" : "lines"}). Read this file if needed.`,
	};
}

/** Mirrors `finalizeSingleOutput` in src/runs/shared/single-output.ts (no truncation, no save error). */
export function finalizeSingleOutput(params: {
	fullOutput: string;
	outputMode?: string;
	exitCode: number;
	savedPath?: string;
}): { displayOutput: string; outputReference?: ReturnType<typeof formatSavedOutputReference> } {
	let displayOutput = params.fullOutput;
	if (params.exitCode === 0 && params.savedPath) {
		const outputReference = formatSavedOutputReference(params.savedPath, params.fullOutput);
		if (params.outputMode === "file-only") return { displayOutput: outputReference.message, outputReference };
		if (!displayOutput.includes(outputReference.message)) displayOutput += `\n\n${outputReference.message}`;
		return { displayOutput, outputReference };
	}
	return { displayOutput };
}

/** Mirrors `formatFailedSingleRunOutput` (private) in src/runs/foreground/subagent-executor.ts. */
export function formatFailedSingleRunOutput(error: string | undefined, displayOutput: string): string {
	const message = error || "Failed";
	const output = displayOutput.trim();
	const lines = [message];
	if (output && output !== message.trim()) lines.push("", "Output:", output);
	return lines.join("\n");
}

function usage() {
	return { input: 1200, output: 800, cacheRead: 0, cacheWrite: 0, cost: 0.0021, turns: 2 };
}

/** A SingleResult after `compactForegroundResult` (src/shared/utils.ts): no messages, no progress, task redacted. */
function singleResult(child: StockChildRun, index: number, extra: Record<string, unknown>): Record<string, unknown> {
	const exitCode = child.exitCode ?? (child.error || child.timedOut || child.stopped ? 1 : 0);
	return {
		index,
		...(child.key ? { workflowKey: child.key } : {}),
		agent: child.agent,
		task: "[prompt redacted]",
		exitCode,
		...(child.detached ? { detached: true, detachedReason: "user request" } : {}),
		...(child.interrupted ? { interrupted: true } : {}),
		...(child.timedOut ? { timedOut: true } : {}),
		...(child.stopped ? { stopped: true } : {}),
		usage: usage(),
		model: "faux/faux-1",
		...(child.error ? { error: child.error } : {}),
		sessionFile: child.sessionFile ?? `/tmp/pi-subagents/sessions/${child.agent}-${index}.jsonl`,
		progressSummary: { toolCount: 3, tokens: 2000, durationMs: 1500 },
		toolCalls: [{ name: "read", args: "src/index.ts" }],
		finalOutput: child.output,
		...extra,
	};
}

/**
 * Mirrors `runSinglePath` (src/runs/foreground/subagent-executor.ts, 0.67.0), wrapped by `withRunFanoutBudget`
 * and the mission announcement of `src/missions/lifecycle.ts` (the real run's content is
 * `Run fan-out: …` + child text + `Mission: <id> (completed)`).
 */
function singleToolResult(input: Record<string, unknown>, child: StockChildRun, cwd: string, seq: number): StockResult {
	const runId = randomUUID().slice(0, 8);
	const exitCode = child.exitCode ?? (child.error || child.timedOut || child.stopped ? 1 : 0);
	const outputMode = typeof input.outputMode === "string" ? input.outputMode : undefined;
	let savedPath: string | undefined;
	if (typeof input.output === "string" && input.output.length > 0 && exitCode === 0) {
		savedPath = isAbsolute(input.output) ? input.output : resolve(cwd, input.output);
		mkdirSync(dirname(savedPath), { recursive: true });
		writeFileSync(savedPath, child.output, "utf-8");
	}
	const finalized = finalizeSingleOutput({
		fullOutput: child.output,
		...(outputMode ? { outputMode } : {}),
		exitCode,
		...(savedPath ? { savedPath } : {}),
	});
	const result = singleResult(child, 0, {
		...(outputMode ? { outputMode } : {}),
		...(savedPath ? { savedOutputPath: savedPath, outputReference: finalized.outputReference } : {}),
	});
	let text: string;
	if (child.detached) {
		text = `Detached at user request: ${child.agent}. The child continues independently. Register a completion wake-up with bg_wait({ id: "${runId}", nonBlocking: true }), or use subagent({ action: "status", id: "${runId}" }) to recover the result; do not resume or launch a replacement while it remains detached.`;
	} else if (child.interrupted) {
		text = `Run paused after interrupt (${child.agent}). Waiting for explicit next action.`;
	} else if (exitCode !== 0) {
		text = formatFailedSingleRunOutput(child.error, finalized.displayOutput);
	} else {
		text = finalized.displayOutput || "(no output)";
	}
	const missionId = randomUUID();
	const missionStatus = exitCode === 0 ? "completed" : "failed";
	return {
		input,
		content: [
			{ type: "text", text: `${formatRunFanoutBudget(seq)}\n${text}\nMission: ${missionId} (${missionStatus})` },
		],
		details: {
			mode: "single",
			runId,
			results: [result],
			totalChildUsage: usage(),
			totalCost: { inputTokens: 1200, outputTokens: 800, costUsd: 0.0021 },
			runFanoutBudget: { used: seq, limit: FANOUT_LIMIT, remaining: FANOUT_LIMIT - seq },
			missionId,
		},
		isError: exitCode !== 0,
	};
}

/**
 * Mirrors the foreground `workflowScript` completion in src/runs/foreground/subagent-executor.ts (0.67.0):
 * "Workflow completed." (or "Workflow failed: …"), the return value (here the children's outputs by key, as
 * scripts commonly return them), the console and the call trace; details with `mode: "workflow"`,
 * `workflowDetailsResults` (one SingleResult per child with its `workflowKey` and `finalOutput`) and
 * `workflow: { value, trace, emits, console, receipt }`.
 */
function workflowToolResult(input: Record<string, unknown>, children: StockChildRun[], seq: number): StockResult {
	const runId = randomUUID().slice(0, 8);
	const keyed = children.map((child, index) => ({ ...child, key: child.key ?? `${child.agent}-${index + 1}` }));
	const failed = keyed.filter((child) => child.exitCode ?? (child.error || child.timedOut || child.stopped ? 1 : 0));
	const value = Object.fromEntries(keyed.map((child) => [child.key, child.output]));
	const trace = keyed.map((child, index) => ({
		operation: "run",
		key: child.key,
		state: failed.includes(child) ? (child.stopped ? "stopped" : "failed") : "completed",
		agent: child.agent,
		runId: `${runId}-${index}`,
		durationMs: 1000 + index,
		...(child.error ? { error: child.error } : {}),
	}));
	const traceLines = trace.map(
		(entry) =>
			`- ${entry.operation} ${entry.key}: ${entry.state} (${entry.runId}) in ${entry.durationMs}ms${entry.error ? ` — ${entry.error}` : ""}`,
	);
	const consoleEntries = [{ level: "log", text: `collected ${keyed.length} reviews` }];
	const sections =
		failed.length === 0
			? ["Workflow completed.", `Return:\n${JSON.stringify(value, null, 2)}`]
			: [`Workflow failed: ${failed.length} child(ren) failed: ${failed.map((child) => child.key).join(", ")}`];
	sections.push(`Console:\n${consoleEntries.map((entry) => `[${entry.level}] ${entry.text}`).join("\n")}`);
	sections.push(`Call trace:\n${traceLines.join("\n")}`);
	const results = keyed.map((child, index) => ({ ...singleResult(child, index, {}), runId: `${runId}-${index}` }));
	return {
		input,
		content: [{ type: "text", text: `${formatRunFanoutBudget(seq)}\n${sections.join("\n\n")}` }],
		details: {
			mode: "workflow",
			runId,
			results,
			workflowChildren: {
				version: 1,
				parentToolCallId: "call",
				workflowRunId: runId,
				inventoryComplete: true,
				workflowState: failed.length === 0 ? "completed" : "failed",
				children: keyed.map((child, index) => ({
					childId: child.key,
					runId: `${runId}-${index}`,
					agent: child.agent,
					state: failed.includes(child) ? "failed" : "completed",
				})),
			},
			totalChildUsage: usage(),
			workflow: {
				...(failed.length === 0 ? { value } : {}),
				trace,
				emits: [],
				console: consoleEntries,
				receipt: { path: `/tmp/pi-subagents/workflows/${runId}/receipt.json` },
			},
			runFanoutBudget: { used: seq, limit: FANOUT_LIMIT, remaining: FANOUT_LIMIT - seq },
		},
		isError: failed.length > 0,
	};
}

/** Creates the test-only `subagent` tool. Each call consumes the next queued run. */
export function createStockSubagent(): StockSubagent {
	const queue: StockRun[] = [];
	const produced: StockResult[] = [];
	let fanout = 0;
	return {
		produced,
		queue: (...runs) => queue.push(...runs),
		extension(pi: ExtensionAPI) {
			pi.registerTool({
				name: "subagent",
				label: "Subagent (stock mirror)",
				description: "Test mirror of pi-subagents 0.67.0: delegate a task to a child agent.",
				parameters: Type.Object({
					agent: Type.Optional(Type.String()),
					task: Type.Optional(Type.String()),
					workflowScript: Type.Optional(Type.String()),
					action: Type.Optional(Type.String()),
					output: Type.Optional(Type.Union([Type.String(), Type.Boolean()])),
					outputMode: Type.Optional(Type.String()),
					async: Type.Optional(Type.Boolean()),
				}),
				async execute(_id, params, _signal, _onUpdate, ctx) {
					const input = params as Record<string, unknown>;
					if (typeof input.action === "string") {
						return {
							content: [{ type: "text", text: "Agents: reviewer, scout, worker" }],
							details: { mode: "management", results: [] },
						};
					}
					const run = queue.shift();
					if (!run) throw new Error("stock-subagent: no scripted run queued");
					fanout += run.kind === "single" ? 1 : run.children.length;
					const result =
						run.kind === "single"
							? singleToolResult(input, run.child, ctx.cwd, fanout)
							: workflowToolResult(input, run.children, fanout);
					produced.push(structuredClone(result));
					return { content: result.content, details: result.details, isError: result.isError } as never;
				},
			});
		},
	};
}
