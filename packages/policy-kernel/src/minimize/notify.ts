// Parses and rewrites pi-subagents' background completion messages (`subagent-notify` and
// `subagent-incremental-child-notify`): the header, run and session lines stay; the body moves to a file.
import { boundedSlice, utf8ByteLength } from "../text.js";
import type { OutputMinimizerConfig } from "./config.js";
import { boundOneLine, contentToText, countOutputLines, formatOutputReference, textBytes } from "./format.js";
import { describePersistFailure, type PersistOutcome } from "./receipt.js";

/** The message shapes pi-subagents 0.67.0 sends (`formatSingleCompletion`, `formatGroupedCompletion`,
 * `formatIncrementalChildCompletion` in its `runs/background/notify.ts`). */
export type NotifyKind = "single" | "grouped" | "incremental" | "unknown";

/** A terminal status named in a notification header. */
export type NotifyStatus = "completed" | "failed" | "paused" | "stopped";

/** One line of a parsed notification: kept lines are headers, run, session and reference lines. */
export interface NotifyLine {
	readonly text: string;
	readonly kept: boolean;
}

/** A parsed notification. */
export interface ParsedNotify {
	readonly kind: NotifyKind;
	readonly status?: NotifyStatus;
	/** Agent names (or workflow child keys) named in the header. */
	readonly agents: readonly string[];
	readonly lines: readonly NotifyLine[];
}

const SINGLE_HEADER =
	/^(?:Background task|Detached foreground task) (completed|failed|paused|stopped): \*\*(.+?)\*\*(?:\s+\([^)]*\))?$/;
const GROUPED_HEADER = /^Background tasks completed \(\d+\): (.*)$/;
const INCREMENTAL_HEADER = /^Workflow child (completed|failed|paused \(needs attention\)|stopped): \*\*(.+?)\*\*$/;

const METADATA_LINES: readonly RegExp[] = [
	/^Workflow receipt: /,
	/^Scheduled run from \*\*.+?\*\* \(schedule .+?\)\.$/,
	/^Workflow run: /,
	/^Child runs: /,
	/^Child run: /,
	/^Reconciled detached child: /,
	/^Parallel handoff: /,
	/^(?:Session|Session file|Session share error): /,
];
const INCREMENTAL_LINES: readonly RegExp[] = [/^Output: /, /^Error: /, /^Status: workflow (?:still running|finished)$/];
const CHILD_OUTPUT_LINES: readonly RegExp[] = [
	/^- key=\S+ run=\S+ status=\S+$/,
	/^ {2}Saved output: /,
	/^ {2}Preview: unavailable/,
	/^- \d+ additional child preview\(s\) omitted/,
];
const WATCHDOG_HEADING = "Watchdog blockers:";
const WATCHDOG_LINE = /^- .+?: .+ \((?:addressed|unaddressed|stalemate)\)$/;

/** Kept lines are bounded to this many bytes each (headers to {@link NOTIFY_HEADER_MAX_BYTES}). */
export const NOTIFY_KEPT_LINE_MAX_BYTES = 1024;
/** The header line is bounded to this many bytes. */
export const NOTIFY_HEADER_MAX_BYTES = 512;

function headerAgents(header: string): { kind: NotifyKind; status?: NotifyStatus; agents: string[] } {
	const single = SINGLE_HEADER.exec(header);
	if (single) return { kind: "single", status: single[1] as NotifyStatus, agents: [single[2] as string] };
	const incremental = INCREMENTAL_HEADER.exec(header);
	if (incremental) {
		const status = (incremental[1] as string).startsWith("paused") ? "paused" : (incremental[1] as NotifyStatus);
		return { kind: "incremental", status, agents: [incremental[2] as string] };
	}
	const grouped = GROUPED_HEADER.exec(header);
	if (grouped) {
		const agents = [...(grouped[1] as string).matchAll(/\*\*(.+?)\*\*/g)].map((match) => match[1] as string);
		return { kind: "grouped", status: "completed", agents };
	}
	return { kind: "unknown", agents: [] };
}

/**
 * Splits a notification into kept lines (the header; workflow receipt, schedule, run, child-run, handoff and
 * session lines; watchdog blockers; per-child key, status and saved-output lines; grouped item titles; and for
 * incremental child notices the output, error and status lines; plus blank lines) and body lines (everything
 * else: the child's output preview). An unrecognised header is still kept, bounded. Never throws.
 */
export function parseNotifyText(text: string): ParsedNotify {
	const raw = typeof text === "string" ? text.split("\n") : [];
	const header = raw[0] ?? "";
	const { kind, status, agents } = headerAgents(header.replace(/\r$/, ""));
	const lines: NotifyLine[] = [];
	let inChildOutputs = false;
	let inWatchdog = false;
	raw.forEach((line, index) => {
		const bare = line.replace(/\r$/, "");
		let kept = false;
		if (index === 0) kept = true;
		else if (bare.trim() === "") {
			kept = true;
			inWatchdog = false;
		} else if (METADATA_LINES.some((pattern) => pattern.test(bare))) kept = true;
		else if (kind === "incremental" && INCREMENTAL_LINES.some((pattern) => pattern.test(bare))) kept = true;
		else if (bare === "Child outputs:") {
			kept = true;
			inChildOutputs = true;
		} else if (inChildOutputs && CHILD_OUTPUT_LINES.some((pattern) => pattern.test(bare))) kept = true;
		else if (bare === WATCHDOG_HEADING) {
			kept = true;
			inWatchdog = true;
		} else if (inWatchdog && WATCHDOG_LINE.test(bare)) kept = true;
		else if (kind === "grouped" && agents.some((agent) => new RegExp(`^\\d+\\. ${escapeRegExp(agent)}`).test(bare))) {
			kept = true;
		}
		if (!kept) inWatchdog = false;
		lines.push({ text: line, kept });
	});
	return { kind, ...(status !== undefined ? { status } : {}), agents, lines };
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The parts of a `message_end` custom message the planner reads. */
export interface NotifyFacts {
	readonly customType: unknown;
	readonly content: unknown;
}

/** What to do with one custom message. */
export type NotifyPlan =
	| { readonly action: "ignore"; readonly reason: "mode-off" | "other-type" }
	| { readonly action: "passthrough"; readonly reason: "small"; readonly rawBytes: number }
	| {
			readonly action: "minimize";
			readonly parsed: ParsedNotify;
			/** The whole original text: the file written for it holds exactly these characters. */
			readonly text: string;
			/** The body lines joined with `\n` (what the parent no longer sees). */
			readonly body: string;
			readonly rawBytes: number;
			/** A label for the file name: the first header agent, or `"notify"`. */
			readonly label: string;
	  };

/**
 * Plans one custom message: `ignore` unless the mode is on and its `customType` is a configured notify type;
 * `passthrough` when its body (the non-kept lines) is under `minBytesToMinimize`; otherwise `minimize`.
 */
export function planNotifyRewrite(facts: NotifyFacts, config: OutputMinimizerConfig): NotifyPlan {
	if (config.mode !== "reference") return { action: "ignore", reason: "mode-off" };
	if (typeof facts?.customType !== "string" || !config.notifyTypes.includes(facts.customType)) {
		return { action: "ignore", reason: "other-type" };
	}
	const text = contentToText(facts.content);
	const rawBytes = textBytes(text);
	const parsed = parseNotifyText(text);
	const body = parsed.lines
		.filter((line) => !line.kept)
		.map((line) => line.text)
		.join("\n");
	if (textBytes(body) < config.minBytesToMinimize) return { action: "passthrough", reason: "small", rawBytes };
	return { action: "minimize", parsed, text, body, rawBytes, label: `notify-${parsed.agents[0] ?? "message"}` };
}

/**
 * The rewritten notification: the kept lines in their order (header bounded to 512 bytes, others to 1 KiB,
 * runs of blank lines collapsed), with the body replaced at its first line by the reference to the saved
 * file, or, when saving failed, by the persistence error, the intended path, a statement that the full text
 * is unavailable and a bounded excerpt of the body. A minimized single completion still parses with
 * pi-subagents' `parseSubagentNotifyContent`, the reference standing in for the result preview.
 */
export function buildNotifyRewrite(
	plan: Extract<NotifyPlan, { action: "minimize" }>,
	outcome: PersistOutcome,
	config: OutputMinimizerConfig,
): string {
	const replacement = notifyReplacement(plan, outcome, config);
	const out: string[] = [];
	let replaced = false;
	plan.parsed.lines.forEach((line, index) => {
		if (!line.kept) {
			if (!replaced) {
				out.push(replacement);
				replaced = true;
			}
			return;
		}
		const bare = line.text.replace(/\r$/, "");
		if (bare.trim() === "") {
			if (out.length > 0 && out[out.length - 1] !== "") out.push("");
			return;
		}
		const max = index === 0 ? NOTIFY_HEADER_MAX_BYTES : NOTIFY_KEPT_LINE_MAX_BYTES;
		out.push(utf8ByteLength(bare) <= max ? bare : boundOneLine(bare, max));
	});
	if (!replaced) out.push(replacement);
	while (out.length > 1 && out[out.length - 1] === "") out.pop();
	return out.join("\n");
}

function notifyReplacement(
	plan: Extract<NotifyPlan, { action: "minimize" }>,
	outcome: PersistOutcome,
	config: OutputMinimizerConfig,
): string {
	if (outcome.ok === true) {
		return `[output-minimizer] Notification text kept out of context; the file holds the whole notification. ${formatOutputReference(outcome.path, outcome.bytes, outcome.lines)}`;
	}
	const why =
		outcome.ok === false
			? `${describePersistFailure(outcome.stage, outcome.code)}; intended path: ${outcome.intendedPath}`
			: "nothing to save";
	const slice = boundedSlice(plan.body, { maxLines: config.fallbackLines, maxBytes: config.fallbackBytes });
	const shownLines = slice.text.length === 0 ? 0 : slice.lines;
	const note = `[output-minimizer: showed ${shownLines} of ${countOutputLines(plan.body)} lines (${slice.bytes} of ${utf8ByteLength(plan.body)} bytes); the rest is not available.]`;
	return `[output-minimizer] The notification text could not be saved: ${why}. The full text is unavailable; the first lines follow.\n${slice.text}\n${note}`;
}
