// Reads the size of the current assistant tool-call batch from the session branch. Only counts leave this
// function: the branch position of the assistant message and how many tool calls it holds.
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ExplorationBatch } from "@pi-policy/policy-kernel/exploration";
import { isRecord } from "@pi-policy/policy-kernel/json";

/** How far back from the leaf to look for the assistant message that issued the call. */
const MAX_ENTRIES_SCANNED = 256;

/**
 * Finds the latest assistant message on the branch and, when it issued `toolCallId`, returns how many tool
 * calls it holds, its branch position and the call's index in it (for a code-mode nested call, pass the parent's
 * id: the nested calls add no transcript entries). Returns `undefined` when the batch cannot be read; the reducer then
 * never blocks the call. Never throws, and keeps nothing from the branch.
 */
export function readBatch(
	ctx: Pick<ExtensionContext, "sessionManager">,
	toolCallId: unknown,
): ExplorationBatch | undefined {
	try {
		const branch: readonly unknown[] = ctx.sessionManager.getBranch();
		const stop = Math.max(0, branch.length - MAX_ENTRIES_SCANNED);
		for (let position = branch.length - 1; position >= stop; position--) {
			const entry = branch[position];
			if (!isRecord(entry) || entry.type !== "message" || !isRecord(entry.message)) continue;
			if (entry.message.role !== "assistant") continue;
			const content = entry.message.content;
			if (!Array.isArray(content)) return undefined;
			let size = 0;
			let index = -1;
			for (const block of content) {
				if (!isRecord(block) || block.type !== "toolCall") continue;
				if (block.id === toolCallId) index = size;
				size++;
			}
			const entryId = typeof entry.id === "string" ? entry.id : undefined;
			return index >= 0 ? { size, position, index, ...(entryId === undefined ? {} : { entryId }) } : undefined;
		}
		return undefined;
	} catch {
		return undefined;
	}
}
