// Helpers that read what a recorded chat request carried: system prompt, message text, tool results, tool names.
import type { ChatMessage, LoopbackRequest } from "./types.ts";

/** The text of one chat message: a string content, or its text parts joined with newlines. */
export function chatMessageText(message: ChatMessage | undefined): string {
	const content = message?.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part) => (typeof part?.text === "string" ? part.text : ""))
		.filter((text) => text.length > 0)
		.join("\n");
}

/** The messages of a chat request, or an empty list. */
export function requestMessages(request: LoopbackRequest): ChatMessage[] {
	const messages = request.body?.messages;
	return Array.isArray(messages) ? messages : [];
}

/** The system prompt: the text of every `system` or `developer` message, joined. */
export function requestSystemPrompt(request: LoopbackRequest): string {
	return requestMessages(request)
		.filter((message) => message.role === "system" || message.role === "developer")
		.map(chatMessageText)
		.join("\n");
}

/** The text of every message of the request, joined with newlines (system, user, assistant, tool). */
export function requestText(request: LoopbackRequest): string {
	return requestMessages(request).map(chatMessageText).join("\n");
}

/** The text of the last `user` message, or "". */
export function lastUserText(request: LoopbackRequest): string {
	const users = requestMessages(request).filter((message) => message.role === "user");
	return chatMessageText(users.at(-1));
}

/** The texts of every `tool` (tool-result) message, in order. */
export function toolResultTexts(request: LoopbackRequest): string[] {
	return requestMessages(request)
		.filter((message) => message.role === "tool")
		.map(chatMessageText);
}

/** The function names of the request's `tools` array. */
export function requestToolNames(request: LoopbackRequest): string[] {
	const tools = request.body?.tools;
	if (!Array.isArray(tools)) return [];
	return tools
		.map((tool) => tool?.function?.name)
		.filter((name): name is string => typeof name === "string" && name.length > 0);
}
