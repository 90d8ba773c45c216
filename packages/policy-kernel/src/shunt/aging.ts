// context-shunt aging: which old tool results a request carries as one-line stubs, planned in batches so that the
// message prefix (and the provider's prompt cache) stays byte-identical between batches.
import { isPlainObject } from "../config.js";
import { countContentLines, utf8ByteLength } from "../text.js";
import type { AgingSettings } from "./config.js";

/** A result this small is never aged: its stub would save little or nothing. */
export const AGING_MIN_RESULT_BYTES = 256;

/** One tool result of a request, as the plan sees it. */
export interface AgingCandidate {
	/** The tool call id: the stub's recovery handle. */
	readonly id: string;
	readonly toolName: string;
	/** UTF-8 bytes and lines of the result's text. */
	readonly bytes: number;
	readonly lines: number;
	/** Model turns after the one that made this call: 0 for the current turn. */
	readonly turnsAgo: number;
	/** False for errors, images and mixed content, and for results too small to be worth a stub. */
	readonly agable: boolean;
}

/** The aging plan: which tool call ids are stubs, and how many batches have aged results so far. */
export interface AgingPlan {
	readonly aged: readonly string[];
	readonly batches: number;
}

/** No result aged. */
export const EMPTY_AGING_PLAN: AgingPlan = Object.freeze({ aged: [], batches: 0 });

/** The outcome of {@link planAging}. */
export interface AgingOutcome {
	readonly plan: AgingPlan;
	/** True when this request crossed a threshold and a new batch was aged. */
	readonly newBatch: boolean;
	/** Tool-result bytes of the request under the new plan (stubs counted as stubs). */
	readonly requestToolBytes: number;
	/** Bytes of original tool-result text the stubs keep out of the request. */
	readonly keptOutBytes: number;
}

/** The one-line stub that replaces an aged result: tool name, size and the handle that recovers it. */
export function formatAgingStub(candidate: Pick<AgingCandidate, "id" | "toolName" | "bytes" | "lines">): string {
	return (
		`[context-shunt aged: ${candidate.toolName} result, ${candidate.bytes} bytes, ${candidate.lines} lines; ` +
		`context_shunt_recover {"toolCallId":${JSON.stringify(candidate.id)}}]`
	);
}

/**
 * The next plan, a pure function of the request's tool results and the last plan.
 * - The last plan's stubs stay (those whose results are still in the request: after compaction or on another
 *   branch, the rest drop out).
 * - A new batch is aged only when the request, with those stubs, passes `atBytes` of tool-result text, or when
 *   `contextShare` (the share of the window in use, when known) reaches `atContextShare`. The batch then ages every
 *   agable result at least `keepTurns` turns old. Between batches the set does not change, so every request's
 *   message prefix is byte-identical to the previous one's.
 * Never throws.
 */
export function planAging(input: {
	readonly candidates: readonly AgingCandidate[];
	readonly last: AgingPlan;
	readonly settings: Pick<AgingSettings, "keepTurns" | "atBytes" | "atContextShare">;
	readonly contextShare?: number | undefined;
}): AgingOutcome {
	const { candidates, settings } = input;
	const previous = new Set(input.last.aged);
	const kept = new Set<string>();
	for (const candidate of candidates) if (previous.has(candidate.id) && candidate.agable) kept.add(candidate.id);
	const measure = (aged: ReadonlySet<string>) => {
		let request = 0;
		let out = 0;
		for (const candidate of candidates) {
			if (aged.has(candidate.id)) {
				const stub = utf8ByteLength(formatAgingStub(candidate));
				request += stub;
				out += Math.max(0, candidate.bytes - stub);
			} else request += candidate.bytes;
		}
		return { request, out };
	};
	const current = measure(kept);
	const share = input.contextShare;
	const crossed =
		current.request > settings.atBytes ||
		(typeof share === "number" && Number.isFinite(share) && share >= settings.atContextShare);
	let aged = kept;
	if (crossed) {
		const next = new Set(kept);
		for (const candidate of candidates) {
			if (candidate.agable && candidate.turnsAgo >= settings.keepTurns) next.add(candidate.id);
		}
		if (next.size > kept.size) aged = next;
	}
	const newBatch = aged !== kept;
	const sameAsLast = !newBatch && kept.size === previous.size;
	const plan: AgingPlan = sameAsLast
		? input.last
		: {
				aged: candidates.filter((candidate) => aged.has(candidate.id)).map((candidate) => candidate.id),
				batches: input.last.batches + (newBatch ? 1 : 0),
			};
	const after = newBatch ? measure(aged) : current;
	return { plan, newBatch, requestToolBytes: after.request, keptOutBytes: after.out };
}

/** A message as aging reads it: Pi's `toolResult` and `assistant` messages, as plain data. */
interface MessageLike {
	readonly role?: unknown;
	readonly toolCallId?: unknown;
	readonly toolName?: unknown;
	readonly isError?: unknown;
	readonly content?: unknown;
}

/** The text of a content list made only of text blocks (joined with "\n"), else `undefined`. */
export function toolResultText(content: unknown): string | undefined {
	if (!Array.isArray(content) || content.length === 0) return undefined;
	let text: string | undefined;
	for (const block of content) {
		if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
		text = text === undefined ? block.text : `${text}\n${block.text}`;
	}
	return text;
}

/**
 * The aging candidates of a message list, oldest first. A model turn is one assistant message and the tool results
 * after it; `turnsAgo` counts the assistant messages after a result. Errors, images, mixed content, stubs already in
 * the list and results under {@link AGING_MIN_RESULT_BYTES} are not agable. `measure` may memoize sizes by id.
 */
export function collectAgingCandidates(
	messages: readonly unknown[],
	measure: (id: string, text: string) => { bytes: number; lines: number } = (_id, text) => ({
		bytes: utf8ByteLength(text),
		lines: countContentLines(text),
	}),
): AgingCandidate[] {
	const out: AgingCandidate[] = [];
	let assistantsAfter = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as MessageLike | undefined;
		if (!isPlainObject(message)) continue;
		if (message.role === "assistant") {
			assistantsAfter++;
			continue;
		}
		if (message.role !== "toolResult" || typeof message.toolCallId !== "string") continue;
		const text = toolResultText(message.content);
		const size = text === undefined ? { bytes: 0, lines: 0 } : measure(message.toolCallId, text);
		out.push({
			id: message.toolCallId,
			toolName: typeof message.toolName === "string" ? message.toolName : "tool",
			bytes: size.bytes,
			lines: size.lines,
			turnsAgo: assistantsAfter,
			agable:
				message.isError !== true &&
				text !== undefined &&
				size.bytes >= AGING_MIN_RESULT_BYTES &&
				!text.startsWith("[context-shunt aged:"),
		});
	}
	return out.reverse();
}

/**
 * The message list with each aged result's content replaced by its one-line stub; every other message, and the
 * order, roles and other fields of the aged ones, stay as they are. Returns `messages` itself when nothing is aged.
 */
export function applyAgingPlan<M>(messages: readonly M[], plan: AgingPlan, candidates: readonly AgingCandidate[]): M[] {
	if (plan.aged.length === 0) return messages as M[];
	const aged = new Set(plan.aged);
	const byId = new Map(candidates.map((candidate) => [candidate.id, candidate]));
	return messages.map((message) => {
		const m = message as MessageLike;
		if (!isPlainObject(m) || m.role !== "toolResult" || typeof m.toolCallId !== "string" || !aged.has(m.toolCallId)) {
			return message;
		}
		const candidate = byId.get(m.toolCallId);
		if (candidate === undefined) return message;
		return { ...m, content: [{ type: "text", text: formatAgingStub(candidate) }] } as M;
	});
}
