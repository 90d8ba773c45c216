// Transcript compaction for the reviewer: separate budgets for conversation messages and tool entries, per-entry
// caps, the first and latest user message always kept, other user turns newest-first, then up to 40 recent
// non-user entries, and a count of what was omitted.
import { utf8ByteLength } from "../text.js";
import { truncateMiddle } from "./action.js";

/** Kinds of transcript entries: conversation messages (user, assistant) and tool entries (call, result). */
export type TranscriptEntryKind = "user" | "assistant" | "tool-call" | "tool-result";

/** One transcript entry, as the shell extracted it from the session branch. */
export interface TranscriptEntry {
	readonly kind: TranscriptEntryKind;
	readonly text: string;
	/** The tool name, for tool entries. */
	readonly toolName?: string;
	/** True for a tool result that reported an error. */
	readonly isError?: boolean;
}

/** Budgets and caps for {@link compactTranscript}, in UTF-8 bytes (budgets) and characters (caps). */
export interface TranscriptBudget {
	/** Total bytes for user and assistant messages. */
	readonly messageBytes: number;
	/** Total bytes for tool calls and tool results. */
	readonly toolBytes: number;
	/** Character cap per user message. */
	readonly userChars: number;
	/** Character cap per assistant message. */
	readonly assistantChars: number;
	/** Character cap per tool call or result. */
	readonly toolChars: number;
	/** At most this many non-user entries. */
	readonly maxNonUserEntries: number;
}

/** The default budgets: 12 KB of conversation, 8 KB of tool entries, at most 40 non-user entries. */
export const DEFAULT_TRANSCRIPT_BUDGET: TranscriptBudget = Object.freeze({
	messageBytes: 12_000,
	toolBytes: 8_000,
	userChars: 2_000,
	assistantChars: 1_000,
	toolChars: 600,
	maxNonUserEntries: 40,
});

/** A kept entry with its position in the original transcript (0-based). */
export interface CompactEntry extends TranscriptEntry {
	readonly index: number;
}

/** The result of {@link compactTranscript}. */
export interface CompactTranscript {
	/** Kept entries, in their original order, each capped. */
	readonly entries: readonly CompactEntry[];
	/** How many entries were left out. */
	readonly omitted: number;
	/** How many kept entries were shortened by their cap. */
	readonly truncated: number;
	/** The total number of entries given. */
	readonly total: number;
}

function capFor(kind: TranscriptEntryKind, budget: TranscriptBudget): number {
	if (kind === "user") return budget.userChars;
	if (kind === "assistant") return budget.assistantChars;
	return budget.toolChars;
}

/**
 * Compacts a transcript for the reviewer. Each entry is capped (middle truncation). The first and the latest
 * user message are always kept. Other user messages are added newest-first while the message budget lasts; then
 * up to `maxNonUserEntries` non-user entries newest-first, assistant text from the message budget and tool
 * entries from the separate tool budget, so tool output cannot crowd out user intent. Never throws; invalid
 * entries are skipped and counted as omitted.
 */
export function compactTranscript(
	entries: readonly TranscriptEntry[],
	budget: TranscriptBudget = DEFAULT_TRANSCRIPT_BUDGET,
): CompactTranscript {
	const list = Array.isArray(entries) ? entries : [];
	const capped: Array<CompactEntry | undefined> = list.map((entry, index) => {
		if (!entry || typeof entry.text !== "string" || !isKind(entry.kind)) return undefined;
		const text = truncateMiddle(entry.text, capFor(entry.kind, budget));
		return { ...entry, text, index };
	});
	const keep = new Set<number>();
	let messageBytes = budget.messageBytes;
	let toolBytes = budget.toolBytes;
	const size = (entry: CompactEntry) => utf8ByteLength(entry.text) + 24;

	const userIndexes = capped.flatMap((entry) => (entry?.kind === "user" ? [entry.index] : []));
	const first = userIndexes[0];
	const latest = userIndexes[userIndexes.length - 1];
	for (const index of [first, latest]) {
		if (index === undefined || keep.has(index)) continue;
		keep.add(index);
		messageBytes -= size(capped[index] as CompactEntry);
	}
	for (const index of [...userIndexes].reverse()) {
		if (keep.has(index)) continue;
		const cost = size(capped[index] as CompactEntry);
		if (cost > messageBytes) continue;
		keep.add(index);
		messageBytes -= cost;
	}
	let nonUser = 0;
	for (let index = capped.length - 1; index >= 0 && nonUser < budget.maxNonUserEntries; index--) {
		const entry = capped[index];
		if (entry === undefined || entry.kind === "user") continue;
		const cost = size(entry);
		if (entry.kind === "assistant") {
			if (cost > messageBytes) continue;
			messageBytes -= cost;
		} else {
			if (cost > toolBytes) continue;
			toolBytes -= cost;
		}
		keep.add(index);
		nonUser++;
	}
	const kept = capped.filter((entry): entry is CompactEntry => entry !== undefined && keep.has(entry.index));
	const truncated = kept.filter((entry) => entry.text !== (list[entry.index] as TranscriptEntry).text).length;
	return { entries: kept, omitted: list.length - kept.length, truncated, total: list.length };
}

function isKind(kind: unknown): kind is TranscriptEntryKind {
	return kind === "user" || kind === "assistant" || kind === "tool-call" || kind === "tool-result";
}
