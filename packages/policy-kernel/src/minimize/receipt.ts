// Builds what the parent sees instead of delegated prose: per-child receipts, the bounded persistence fallback,
// and the bounded `output: false` excerpt. Every function is pure and bounded.
import { boundedSlice, utf8ByteLength } from "../text.js";
import { OUTPUT_MINIMIZER_LIMITS, type OutputMinimizerConfig } from "./config.js";
import { boundOneLine, countOutputLines, formatOutputReference, textBytes } from "./format.js";
import type { DelegatedOutput, ToolResultPlan, ToolResultSurface } from "./plan.js";

/** The stage at which persisting an output failed. */
export type PersistFailureStage = "write" | "read" | "verify";

/** The result of persisting (or reusing) one output's file, as the shell reports it. */
export type PersistOutcome =
	| {
			readonly ok: true;
			/** Absolute path of the authoritative file. */
			readonly path: string;
			/** UTF-8 bytes of the file, measured on the file. */
			readonly bytes: number;
			/** Lines of the file, measured on the file ({@link countOutputLines}). */
			readonly lines: number;
			/** True when the host's own saved file was reused rather than written here. */
			readonly reused: boolean;
	  }
	| {
			readonly ok: false;
			/** Where the file was meant to go. */
			readonly intendedPath: string;
			readonly stage: PersistFailureStage;
			/** An errno-style code such as `"ENOTDIR"`; anything else is reported as `"unknown"`. */
			readonly code: string;
	  }
	| {
			/** Nothing to persist: the output was empty and the host saved no file. */
			readonly ok: "empty";
	  };

/** A concise persistence error for the parent: `"write failed (ENOTDIR)"`. */
export function describePersistFailure(stage: PersistFailureStage, code: unknown): string {
	const safe = typeof code === "string" && /^E[A-Z0-9]{1,24}$/.test(code) ? code : "unknown";
	return `${stage} failed (${safe})`;
}

/** True when an output needs a file: it has text, or the host saved one. */
export function outputNeedsFile(output: DelegatedOutput): boolean {
	return output.text.length > 0 || output.hostSavedPath !== undefined;
}

function childLabel(output: DelegatedOutput): string {
	if (output.kind === "workflow-text") return "workflow text (return value, console, call trace)";
	return output.workflowKey !== undefined && output.workflowKey !== output.label
		? `${output.label} (key ${output.workflowKey})`
		: output.label;
}

function statusText(output: DelegatedOutput): string {
	return output.exitCode !== undefined ? `${output.status} (exit ${output.exitCode})` : output.status;
}

/** `"<label>: <status>."` for a child; `"<label>:"` for the workflow text, which has no status of its own. */
function headPart(output: DelegatedOutput, prefix: string): string {
	return output.kind === "workflow-text"
		? `${prefix}${childLabel(output)}:`
		: `${prefix}${childLabel(output)}: ${statusText(output)}.`;
}

/**
 * Recovery guidance for a child that did not complete; `undefined` for completed children. `saved` says
 * whether the full output is in a file (true) or unavailable (false).
 */
export function recoveryGuidance(output: DelegatedOutput, saved: boolean): string | undefined {
	if (output.kind === "workflow-text") return undefined;
	const produced = saved ? "the saved output holds what it produced" : "its full output is unavailable";
	const resume =
		output.runId !== undefined
			? ` Resume with subagent({ action: "resume", id: "${output.runId}", message: "..." }) or inspect with subagent({ action: "status", id: "${output.runId}" }).`
			: "";
	switch (output.status) {
		case "failed":
			return `Recovery: the child failed; ${produced}. Check the error before retrying.${resume}`;
		case "paused":
			return `Recovery: the child is paused, not finished; ${produced}.${resume}`;
		case "stopped":
			return `Recovery: the child was stopped before finishing; ${produced}.${resume}`;
		case "timed out":
			return `Recovery: the child timed out; ${produced}. Rerun with a longer timeout or resume it.${resume}`;
		default:
			return undefined;
	}
}

function fitParts(parts: string[], budget: number, shrinkable: number[]): string {
	let line = parts.filter((part) => part.length > 0).join(" ");
	for (const index of shrinkable) {
		const over = utf8ByteLength(line) - budget;
		if (over <= 0) break;
		const part = parts[index] ?? "";
		parts[index] = boundOneLine(part, Math.max(0, utf8ByteLength(part) - over));
		line = parts.filter((p) => p.length > 0).join(" ");
	}
	return utf8ByteLength(line) <= budget ? line : boundOneLine(line, budget);
}

/**
 * One child's receipt line when its output is referenced: label, status, error, the reference, and for a
 * child that did not complete its session and recovery guidance. At most
 * {@link OUTPUT_MINIMIZER_LIMITS.maxReceiptBytesPerChild} bytes not counting the output path.
 */
export function buildReceiptLine(output: DelegatedOutput, outcome: PersistOutcome, prefix = ""): string {
	const budget = OUTPUT_MINIMIZER_LIMITS.maxReceiptBytesPerChild;
	if (outcome.ok === "empty") {
		return fitParts([headPart(output, prefix), errorPart(output), "No output."], budget, [1]);
	}
	if (outcome.ok !== true) return fitParts([headPart(output, prefix)], budget, []);
	const reference = formatOutputReference(outcome.path, outcome.bytes, outcome.lines);
	const pathBytes = utf8ByteLength(outcome.path);
	const parts = [
		headPart(output, prefix),
		errorPart(output),
		reference,
		output.status !== "completed" && output.sessionFile !== undefined ? `Session: ${output.sessionFile}.` : "",
		recoveryGuidance(output, true) ?? "",
	];
	return fitParts(parts, budget + pathBytes, [4, 3, 1]);
}

function errorPart(output: DelegatedOutput): string {
	if (output.error === undefined) return "";
	return /[.!?…]$/.test(output.error) ? `Error: ${output.error}` : `Error: ${output.error}.`;
}

/** Shared line and byte budget for bounded excerpts within one result. */
export interface ExcerptBudget {
	lines: number;
	bytes: number;
}

function excerpt(text: string, budget: ExcerptBudget): { text: string; lines: number; bytes: number } {
	if (budget.lines < 1 || budget.bytes < 1 || text.length === 0) return { text: "", lines: 0, bytes: 0 };
	const slice = boundedSlice(text, { maxLines: budget.lines, maxBytes: budget.bytes });
	const lines = slice.text.length === 0 ? 0 : slice.lines;
	budget.lines -= lines;
	budget.bytes -= slice.bytes;
	return { text: slice.text, lines, bytes: slice.bytes };
}

function shownNote(shown: { lines: number; bytes: number }, text: string, why: string): string {
	const totalLines = countOutputLines(text);
	const totalBytes = textBytes(text);
	return `[output-minimizer: showed ${shown.lines} of ${totalLines} lines (${shown.bytes} of ${totalBytes} bytes); ${why}]`;
}

/**
 * The bounded fallback for one output whose file could not be written or read: the persistence error and
 * the intended path, a plain statement that the full output is unavailable, then an excerpt from the shared
 * `budget` (the first lines and bytes). It never claims that a full artifact exists.
 */
export function buildFallbackBlock(
	output: DelegatedOutput,
	failure: Extract<PersistOutcome, { ok: false }>,
	budget: ExcerptBudget,
	prefix = "",
): string {
	const header = fitParts(
		[
			headPart(output, prefix),
			errorPart(output),
			`The output could not be saved: ${describePersistFailure(failure.stage, failure.code)}; intended path: ${failure.intendedPath}. The full output is unavailable; the first lines follow.`,
			recoveryGuidance(output, false) ?? "",
		],
		OUTPUT_MINIMIZER_LIMITS.maxReceiptBytesPerChild + utf8ByteLength(failure.intendedPath),
		[3, 1],
	);
	const shown = excerpt(output.text, budget);
	const note = shownNote(shown, output.text, "the rest is not available");
	return shown.text.length > 0 ? `${header}\n${shown.text}\n${note}` : `${header}\n${note}`;
}

/** What the shell returns to Pi for a planned result, plus counts for audit and status. */
export interface BuiltToolResult {
	/** The replacement content text. */
	readonly text: string;
	/** Outputs referenced by a file. */
	readonly referenced: number;
	/** Of those, files the host saved and that were reused. */
	readonly reused: number;
	/** Outputs shown as a bounded fallback because persisting failed. */
	readonly fallbacks: number;
	/** Outputs that had no text. */
	readonly empty: number;
}

type MinimizePlan = Extract<ToolResultPlan, { action: "minimize" | "bound" }>;

function headingFor(surface: ToolResultSurface, count: number, allSaved: boolean): string {
	const what = surface === "workflow" ? `${count} workflow child output${count === 1 ? "" : "s"}` : "Delegated output";
	return allSaved
		? `[output-minimizer] ${what} kept out of context; each reference below points to the full text.`
		: `[output-minimizer] ${what} kept out of context, but some could not be saved: those show a bounded excerpt and are not available in full.`;
}

/**
 * Builds the minimized content for a `minimize` plan: kept head lines, a heading, one receipt line per output
 * (a bounded fallback block where persisting failed, sharing one `fallbackLines` / `fallbackBytes` budget),
 * then kept tail lines. `outcomes[i]` belongs to `plan.outputs[i]`; a missing outcome counts as a failure.
 */
export function buildMinimizedResult(
	plan: MinimizePlan,
	outcomes: readonly PersistOutcome[],
	config: OutputMinimizerConfig,
): BuiltToolResult {
	const budget: ExcerptBudget = { lines: config.fallbackLines, bytes: config.fallbackBytes };
	const lines: string[] = [];
	let referenced = 0;
	let reused = 0;
	let fallbacks = 0;
	let empty = 0;
	const resolved = plan.outputs.map(
		(_output, index): PersistOutcome =>
			outcomes[index] ?? { ok: false, intendedPath: "(unknown)", stage: "write", code: "unknown" },
	);
	const childCount = plan.outputs.filter((output) => output.kind === "child").length;
	lines.push(
		...plan.headLines,
		headingFor(
			plan.surface,
			childCount,
			resolved.every((o) => o.ok !== false),
		),
	);
	const prefix = plan.surface === "workflow" ? "- " : "";
	plan.outputs.forEach((output, index) => {
		const outcome = resolved[index] as PersistOutcome;
		if (outcome.ok === false) {
			fallbacks++;
			lines.push(buildFallbackBlock(output, outcome, budget, prefix));
			return;
		}
		if (outcome.ok === "empty") empty++;
		else {
			referenced++;
			if (outcome.reused) reused++;
		}
		lines.push(buildReceiptLine(output, outcome, prefix));
	});
	lines.push(...plan.tailLines);
	return { text: lines.join("\n"), referenced, reused, fallbacks, empty };
}

/**
 * Builds the bounded inline result for `output: false`: no file, the kept head lines, each child's status
 * line and the start of its output, then a note. The whole text stays within `fallbackLines` lines and
 * `fallbackBytes` UTF-8 bytes and is cut on a code point boundary.
 */
export function buildBoundedInlineResult(plan: MinimizePlan, config: OutputMinimizerConfig): BuiltToolResult {
	const children = plan.outputs.filter((output) => output.kind === "child");
	const sections: string[] = [...plan.headLines];
	const prefix = plan.surface === "workflow" ? "- " : "";
	for (const output of children) {
		sections.push(fitParts([headPart(output, prefix), errorPart(output)], 512, [1]));
		if (output.text.length > 0) sections.push(output.text);
	}
	sections.push(...plan.tailLines);
	const body = sections.join("\n");
	const totalBytes = textBytes(body);
	const noteFor = (shownBytes: number) =>
		`[output-minimizer: output: false keeps no file; showed ${shownBytes} of ${totalBytes} bytes of the delegated result, the rest is not available.]`;
	const noteBytes = utf8ByteLength(noteFor(totalBytes)) + 1;
	// The note takes its own line when there is room for one, else it shares the last line.
	const separator = config.fallbackLines >= 2 ? "\n" : " ";
	const slice = boundedSlice(body, {
		maxLines: Math.max(1, config.fallbackLines - (separator === "\n" ? 1 : 0)),
		maxBytes: Math.max(0, config.fallbackBytes - noteBytes),
	});
	const text = slice.truncated ? `${slice.text}${separator}${noteFor(slice.bytes)}` : slice.text;
	return { text, referenced: 0, reused: 0, fallbacks: 0, empty: 0 };
}
