// Decides what happens to one delegation tool result: ignore, pass through, bound (output: false) or minimize.
// Also extracts the delegated children (status, error, output, host-saved file) from pi-subagents' details.
import { isPlainObject } from "../config.js";
import { splitLines } from "../text.js";
import type { OutputMinimizerConfig } from "./config.js";
import { boundOneLine, contentToText, textBytes } from "./format.js";

/** The statuses a delegated child can end in, as the receipt names them. */
export const DELEGATED_CHILD_STATUSES = ["completed", "failed", "paused", "stopped", "timed out"] as const;

/** One of {@link DELEGATED_CHILD_STATUSES}. */
export type DelegatedChildStatus = (typeof DELEGATED_CHILD_STATUSES)[number];

/** The surface a tool result came from: one child, or a workflow of several. */
export type ToolResultSurface = "single" | "workflow";

/** Bounds applied to text taken from a child record. */
export const CHILD_FIELD_LIMITS = Object.freeze({ label: 64, error: 300, runId: 128, sessionFile: 400 });

/** One delegated output to reference: a child's output, or a workflow's own text (return value, console, trace). */
export interface DelegatedOutput {
	/** Position among the planned outputs, from 0. */
	readonly position: number;
	/** `child` for a child's output; `workflow-text` for the original workflow result text. */
	readonly kind: "child" | "workflow-text";
	/** Index into `details.results`, or -1 when the output did not come from a result record. */
	readonly resultIndex: number;
	/** The agent name (one line, at most 64 bytes); `"workflow"` for the workflow text. */
	readonly label: string;
	/** The workflow key, when the child ran inside a workflow (one line, at most 64 bytes). */
	readonly workflowKey?: string;
	readonly status: DelegatedChildStatus;
	/** Non-zero exit code of a failed child. */
	readonly exitCode?: number;
	/** The child's error on one line, at most 300 bytes. */
	readonly error?: string;
	/** The run id to resume or inspect, when known. */
	readonly runId?: string;
	/** The child's session file, when known (kept for non-completed children). */
	readonly sessionFile?: string;
	/** The full output text; the file written for it holds exactly these characters. */
	readonly text: string;
	/** A file the host already saved for this output; it is reused rather than copied. */
	readonly hostSavedPath?: string;
}

/** The parts of a `tool_result` event the planner reads. */
export interface ToolResultFacts {
	readonly toolName: string;
	readonly input: unknown;
	readonly content: unknown;
	readonly details: unknown;
	readonly isError: boolean;
}

/** Why a result is left alone without being counted. */
export type IgnoreReason = "mode-off" | "other-tool" | "management" | "launch-receipt" | "shunted";

/** What to do with one tool result. */
export type ToolResultPlan =
	| { readonly action: "ignore"; readonly reason: IgnoreReason }
	| {
			readonly action: "passthrough";
			readonly reason: "inline" | "small";
			readonly surface: ToolResultSurface;
			readonly rawBytes: number;
	  }
	| {
			readonly action: "bound" | "minimize";
			readonly surface: ToolResultSurface;
			/** UTF-8 bytes of the original content text. */
			readonly rawBytes: number;
			/** Status and recovery lines of the original text that are kept (each one line, bounded). */
			readonly headLines: readonly string[];
			readonly tailLines: readonly string[];
			/** Outputs to reference (or bound), in order. */
			readonly outputs: readonly DelegatedOutput[];
	  };

/** Frame lines pi-subagents puts around the child's text: budget, lifecycle and recovery, never child prose. */
const HEAD_FRAME_PATTERNS: readonly RegExp[] = [
	/^Run fan-out: \d+\/\d+ used, \d+ remaining$/,
	/^Workflow completed\.$/,
	/^Workflow failed: /,
	/^Detached (?:for intercom coordination|at user request|before task completion): /,
	/^Run paused after interrupt \(/,
];
const TAIL_FRAME_PATTERNS: readonly RegExp[] = [
	/^Parallel handoff: /,
	/^Workflow receipt: /,
	/^Output artifact: /,
	/^Mission: \S+ \([a-z-]+\)$/,
];
const FRAME_LINE_MAX_BYTES = 400;
const FRAME_LINES_MAX = 6;

/** Management actions of pi-subagents: their results carry no child output. */
const CHILD_WORK_ACTIONS = new Set(["resume", "steer", "schedule.create", "schedule.run", "schedule.run-due"]);

function record(value: unknown): Record<string, unknown> | undefined {
	return isPlainObject(value) ? value : undefined;
}

function stringField(value: unknown): string | undefined {
	return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The result records in `details.results`, or an empty list. */
export function detailResults(details: unknown): Record<string, unknown>[] {
	const results = record(details)?.results;
	if (!Array.isArray(results)) return [];
	return results.map((entry) => record(entry) ?? {});
}

/**
 * The status of one pi-subagents result record, mirroring `resolveSubagentResultStatus` (0.67.0) plus
 * timeouts: detached and interrupted children are paused; stopped wins over paused; `timedOut` is
 * "timed out"; otherwise the exit code decides, then the error, then the tool's own `isError`.
 */
export function resolveChildStatus(
	child: Record<string, unknown>,
	fallback: { isError: boolean; timedOut?: boolean; stopped?: boolean },
): DelegatedChildStatus {
	if (child.stopped === true) return "stopped";
	if (child.detached === true || child.interrupted === true) return "paused";
	if (child.timedOut === true) return "timed out";
	if (typeof child.exitCode === "number") {
		if (child.exitCode === 0) return "completed";
		if (fallback.stopped === true) return "stopped";
		if (fallback.timedOut === true) return "timed out";
		return "failed";
	}
	if (stringField(child.error) !== undefined) return "failed";
	return fallback.isError ? "failed" : "completed";
}

function hostSavedPathOf(child: Record<string, unknown>): string | undefined {
	const saved = stringField(child.savedOutputPath);
	if (saved !== undefined) return saved;
	const reference = child.outputReference;
	if (typeof reference === "string") return stringField(reference.trim());
	return stringField(record(reference)?.path);
}

function isManagement(input: Record<string, unknown> | undefined, details: Record<string, unknown> | undefined) {
	if (details?.mode === "management") return true;
	const action = input?.action;
	return typeof action === "string" && action.length > 0 && !CHILD_WORK_ACTIONS.has(action);
}

function isLaunchReceipt(details: Record<string, unknown> | undefined, results: readonly unknown[]): boolean {
	if (details === undefined || results.length > 0) return false;
	return details.background === true || typeof details.asyncId === "string";
}

/** Splits the original text into kept frame lines (head and tail); everything else is treated as prose. */
export function extractFrameLines(text: string): { head: string[]; tail: string[] } {
	const head: string[] = [];
	const tail: string[] = [];
	for (const line of splitLines(text)) {
		if (head.length + tail.length >= FRAME_LINES_MAX) break;
		if (HEAD_FRAME_PATTERNS.some((pattern) => pattern.test(line))) head.push(boundOneLine(line, FRAME_LINE_MAX_BYTES));
		else if (TAIL_FRAME_PATTERNS.some((pattern) => pattern.test(line)))
			tail.push(boundOneLine(line, FRAME_LINE_MAX_BYTES));
	}
	return { head, tail };
}

function childOutputs(
	results: Record<string, unknown>[],
	details: Record<string, unknown> | undefined,
	contentText: string,
	surface: ToolResultSurface,
	isError: boolean,
	input: Record<string, unknown> | undefined,
): DelegatedOutput[] {
	const outputs: DelegatedOutput[] = [];
	const fallback = { isError, timedOut: details?.timedOut === true, stopped: details?.stopped === true };
	const detailsRunId = stringField(details?.runId);
	results.forEach((child, resultIndex) => {
		const finalOutput = typeof child.finalOutput === "string" ? child.finalOutput : undefined;
		const text =
			finalOutput ??
			(surface === "single" && results.length === 1
				? contentText
				: (stringField(record(child.truncation)?.text) ?? ""));
		const status = resolveChildStatus(child, fallback);
		const exitCode = typeof child.exitCode === "number" && child.exitCode !== 0 ? child.exitCode : undefined;
		const error = stringField(child.error);
		const workflowKey = stringField(child.workflowKey);
		const runId = stringField(child.runId) ?? detailsRunId;
		const sessionFile = stringField(child.sessionFile);
		const hostSavedPath = hostSavedPathOf(child);
		outputs.push({
			position: outputs.length,
			kind: "child",
			resultIndex,
			label: boundOneLine(stringField(child.agent) ?? stringField(input?.agent) ?? "child", CHILD_FIELD_LIMITS.label),
			...(workflowKey !== undefined ? { workflowKey: boundOneLine(workflowKey, CHILD_FIELD_LIMITS.label) } : {}),
			status,
			...(exitCode !== undefined ? { exitCode } : {}),
			...(error !== undefined ? { error: boundOneLine(error, CHILD_FIELD_LIMITS.error) } : {}),
			...(runId !== undefined ? { runId: boundOneLine(runId, CHILD_FIELD_LIMITS.runId) } : {}),
			...(sessionFile !== undefined ? { sessionFile: boundOneLine(sessionFile, CHILD_FIELD_LIMITS.sessionFile) } : {}),
			text,
			...(hostSavedPath !== undefined ? { hostSavedPath } : {}),
		});
	});
	return outputs;
}

/**
 * Plans one tool result. In order:
 * - `ignore` when the mode is off, the tool is not a configured delegation tool, the result is management
 *   (`details.mode === "management"` or a management `action`), or it is an async launch receipt;
 * - `passthrough` / `inline` for an explicit `outputMode: "inline"` (the legacy opt-out wins over `output: false`);
 * - `passthrough` / `small` when the original text and every child output are under `minBytesToMinimize`;
 * - `bound` for `output: false` (no file, a bounded inline excerpt);
 * - `minimize` otherwise: each child output (and, for a workflow, the original text) gets a reference.
 * A result with no `details.results` is treated as one child whose output is the whole text.
 */
export function planToolResult(facts: ToolResultFacts, config: OutputMinimizerConfig): ToolResultPlan {
	if (config.mode !== "reference") return { action: "ignore", reason: "mode-off" };
	if (typeof facts?.toolName !== "string" || !config.tools.includes(facts.toolName)) {
		return { action: "ignore", reason: "other-tool" };
	}
	const input = record(facts.input);
	const details = record(facts.details);
	const results = detailResults(facts.details);
	if (isManagement(input, details)) return { action: "ignore", reason: "management" };
	if (isLaunchReceipt(details, results)) return { action: "ignore", reason: "launch-receipt" };
	// context-shunt already replaced the result with its receipt: saving that receipt as the child's output would
	// claim a durable copy of text this extension never saw (a twenty-sixth review).
	if (isPlainObject(details?.contextShunt)) return { action: "ignore", reason: "shunted" };
	const isError = facts.isError === true;
	const contentText = contentToText(facts.content);
	const rawBytes = textBytes(contentText);
	const surface: ToolResultSurface = details?.mode === "workflow" || results.length > 1 ? "workflow" : "single";
	if (input?.outputMode === "inline") return { action: "passthrough", reason: "inline", surface, rawBytes };

	const outputs =
		results.length > 0
			? childOutputs(results, details, contentText, surface, isError, input)
			: childOutputs([{ ...(isError ? { exitCode: 1 } : {}) }], details, contentText, "single", isError, input);
	if (surface === "workflow") {
		outputs.push({
			position: outputs.length,
			kind: "workflow-text",
			resultIndex: -1,
			label: "workflow",
			status: isError ? "failed" : "completed",
			text: contentText,
		});
	}
	const largest = Math.max(rawBytes, ...outputs.map((output) => textBytes(output.text)));
	if (largest < config.minBytesToMinimize) return { action: "passthrough", reason: "small", surface, rawBytes };
	const frame = extractFrameLines(contentText);
	const action = input?.output === false || input?.output === "false" ? "bound" : "minimize";
	return { action, surface, rawBytes, headLines: frame.head, tailLines: frame.tail, outputs };
}
