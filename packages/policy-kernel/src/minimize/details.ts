// Projects a delegation tool result's `details` so that no raw child output remains, keeping the metadata.
import { cloneJson, isPlainObject } from "../config.js";
import { boundOneLine, formatOutputReference } from "./format.js";
import type { DelegatedOutput, ToolResultSurface } from "./plan.js";
import type { PersistOutcome } from "./receipt.js";

/** Per-result keys that carry raw child output and are removed. */
export const RAW_RESULT_KEYS = ["finalOutput", "messages", "truncation", "progress", "structuredOutput"] as const;

/** Top-level `details` keys that carry raw child output and are removed. */
export const RAW_DETAILS_KEYS = ["truncation", "outputs", "progress"] as const;

/** `details.workflow` keys that carry the workflow's console text, return value or emitted values. */
export const RAW_WORKFLOW_KEYS = ["value", "emits", "console"] as const;

/** `details.mission` keys that carry a preview of the child's output (pi-subagents 0.67.0 mission records). */
export const RAW_MISSION_KEYS = ["summary"] as const;

/** Replaces any other details string that embeds a child's output. */
export const EMBEDDED_OUTPUT_MARKER = "[output-minimizer: removed child output; see the referenced file]";

/**
 * What a result's `finalOutput` says where the child's output was not saved (a persistence failure, or
 * `output: false`): renderers such as pi-subagents' read an absent `finalOutput` as "no text output".
 */
export const DETAILS_OUTPUT_NOT_SAVED =
	"[output-minimizer: child output kept out of the details; the tool result shows a bounded excerpt]";

/** Errors kept in details are bounded to this many UTF-8 bytes (one line). */
export const DETAILS_ERROR_MAX_BYTES = 1024;

/** What the minimizer records in `details.outputMinimizer`: statuses and references, never text. */
export interface OutputMinimizerDetails {
	readonly v: 1;
	readonly surface: ToolResultSurface;
	readonly outputs: ReadonlyArray<{
		readonly kind: DelegatedOutput["kind"];
		readonly resultIndex: number;
		readonly status: DelegatedOutput["status"];
		readonly delivery: "referenced" | "reused" | "fallback" | "bounded" | "empty";
		readonly path?: string;
		readonly bytes?: number;
		readonly lines?: number;
	}>;
}

/**
 * Returns a copy of `details` with raw child output removed: per result `finalOutput`, `messages`,
 * `truncation`, `progress` (its recent output lines) and `structuredOutput`; top-level `truncation`,
 * `outputs` and `progress`; and the workflow's `value`, `emits` and `console`. Status, errors (bounded to one
 * line of 1 KiB), output references, session files, usage, tool-call metadata and everything else are kept.
 * Where an output was referenced, the result's `savedOutputPath` and `outputReference` point at that file, and its
 * `finalOutput` is the reference line (`Output saved to: …`); where it was not saved, {@link DETAILS_OUTPUT_NOT_SAVED}.
 * `minimizer` is recorded as `details.outputMinimizer`. A non-object `details` gives `{ outputMinimizer }`.
 */
export function projectDelegationDetails(
	details: unknown,
	outputs: readonly DelegatedOutput[],
	outcomes: readonly (PersistOutcome | undefined)[],
	surface: ToolResultSurface,
	bounded = false,
): Record<string, unknown> {
	const projected: Record<string, unknown> = isPlainObject(details) ? cloneJson(details) : {};
	for (const key of RAW_DETAILS_KEYS) delete projected[key];
	if (isPlainObject(projected.workflow)) {
		for (const key of RAW_WORKFLOW_KEYS) delete projected.workflow[key];
	}
	if (isPlainObject(projected.mission)) {
		for (const key of RAW_MISSION_KEYS) delete projected.mission[key];
	}
	const results = Array.isArray(projected.results) ? projected.results : undefined;
	if (results !== undefined) {
		results.forEach((entry, index) => {
			if (!isPlainObject(entry)) return;
			for (const key of RAW_RESULT_KEYS) delete entry[key];
			if (typeof entry.error === "string") entry.error = boundOneLine(entry.error, DETAILS_ERROR_MAX_BYTES);
			const at = outputs.findIndex((output) => output.kind === "child" && output.resultIndex === index);
			const outcome = at >= 0 ? outcomes[at] : undefined;
			if (outcome?.ok === true) {
				const message = formatOutputReference(outcome.path, outcome.bytes, outcome.lines);
				entry.savedOutputPath = outcome.path;
				entry.outputReference = { path: outcome.path, bytes: outcome.bytes, lines: outcome.lines, message };
				// The reference stands in for the text, so a renderer shows where the output went, not "no text output".
				entry.finalOutput = message;
			} else if (at >= 0 && outcome?.ok !== "empty") entry.finalOutput = DETAILS_OUTPUT_NOT_SAVED;
		});
	}
	const record: OutputMinimizerDetails = {
		v: 1,
		surface,
		outputs: outputs.map((output, index) => {
			const outcome = outcomes[index];
			const base = { kind: output.kind, resultIndex: output.resultIndex, status: output.status };
			if (bounded) return { ...base, delivery: "bounded" as const };
			if (outcome?.ok === true) {
				return {
					...base,
					delivery: outcome.reused ? ("reused" as const) : ("referenced" as const),
					path: outcome.path,
					bytes: outcome.bytes,
					lines: outcome.lines,
				};
			}
			if (outcome?.ok === "empty") return { ...base, delivery: "empty" as const };
			return { ...base, delivery: "fallback" as const };
		}),
	};
	const redacted = redactEmbeddedOutput(projected, outputs) as Record<string, unknown>;
	redacted.outputMinimizer = record;
	return redacted;
}

const WINDOW = 64;
const MIN_WINDOW = 32;

/** Distinctive windows of an output (start, middle, end) used to recognise it inside other strings. */
function outputWindows(text: string): string[] {
	const trimmed = text.trim();
	if (trimmed.length < WINDOW * 2) return [];
	const middle = Math.floor(trimmed.length / 2);
	return [trimmed.slice(0, WINDOW), trimmed.slice(middle, middle + WINDOW), trimmed.slice(-WINDOW)]
		.map((window) => window.trim())
		.filter((window) => window.length >= MIN_WINDOW);
}

/**
 * Walks a JSON value and replaces every string of at least 128 characters that contains the start, middle or
 * end (64 characters each) of one of the child outputs with {@link EMBEDDED_OUTPUT_MARKER}. This catches
 * previews a host embeds in fields the projection does not know (for example a mission summary).
 */
export function redactEmbeddedOutput(value: unknown, outputs: readonly DelegatedOutput[]): unknown {
	const windows = outputs.flatMap((output) => (output.kind === "child" ? outputWindows(output.text) : []));
	if (windows.length === 0) return value;
	const walk = (node: unknown, depth: number): unknown => {
		if (typeof node === "string") {
			return node.length >= WINDOW * 2 && windows.some((window) => node.includes(window))
				? EMBEDDED_OUTPUT_MARKER
				: node;
		}
		if (depth > 32) return node;
		if (Array.isArray(node)) return node.map((entry) => walk(entry, depth + 1));
		if (isPlainObject(node)) {
			for (const key of Object.keys(node)) node[key] = walk(node[key], depth + 1);
		}
		return node;
	};
	return walk(value, 0);
}
