// Extracts the reviewer's transcript entries from the session branch: user and assistant text, tool calls and
// tool results. Custom and extension messages are left out, because they cannot speak for the user.
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { TranscriptEntry } from "@pi-policy/policy-kernel/guardian";

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block) => {
			if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
				const text = (block as { text?: unknown }).text;
				return typeof text === "string" ? text : "";
			}
			if (block && typeof block === "object" && (block as { type?: unknown }).type === "image") return "[image]";
			return "";
		})
		.filter((text) => text.length > 0)
		.join("\n");
}

/** Transcript entries of the current branch, oldest first. Never throws; unknown entries are skipped. */
export function sessionTranscript(
	sessionManager: Pick<ExtensionContext["sessionManager"], "getBranch">,
): TranscriptEntry[] {
	const entries: TranscriptEntry[] = [];
	let branch: readonly unknown[];
	try {
		branch = sessionManager.getBranch();
	} catch {
		return entries;
	}
	for (const entry of branch) {
		if (!entry || typeof entry !== "object" || (entry as { type?: unknown }).type !== "message") continue;
		const message = (entry as { message?: unknown }).message as Record<string, unknown> | undefined;
		if (!message || typeof message !== "object") continue;
		if (message.role === "user") {
			entries.push({ kind: "user", text: textOf(message.content) });
		} else if (message.role === "assistant" && Array.isArray(message.content)) {
			const text = textOf(message.content);
			if (text.length > 0) entries.push({ kind: "assistant", text });
			for (const block of message.content as Array<Record<string, unknown>>) {
				if (block?.type === "toolCall" && typeof block.name === "string") {
					entries.push({ kind: "tool-call", toolName: block.name, text: safeJson(block.arguments) });
				}
			}
		} else if (message.role === "toolResult") {
			entries.push({
				kind: "tool-result",
				toolName: typeof message.toolName === "string" ? message.toolName : "tool",
				text: textOf(message.content),
				isError: message.isError === true,
			});
		}
	}
	return entries;
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? "";
	} catch {
		return "";
	}
}
