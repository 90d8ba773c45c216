// Shared types of the loopback provider: scripted replies and recorded requests.

/** One tool call the scripted assistant makes. `arguments` is sent as JSON; a string is sent verbatim. */
export interface LoopbackToolCall {
	name: string;
	arguments?: Record<string, unknown> | string;
	/** Tool-call id; defaults to `call_loop_<request>_<n>`. */
	id?: string;
}

/** Token usage reported for a reply. Estimated from the body and output sizes when omitted. */
export interface LoopbackUsage {
	prompt_tokens: number;
	completion_tokens: number;
}

/** A scripted HTTP failure, answered instead of a completion. */
export interface LoopbackErrorSpec {
	/** HTTP status, 500 by default. */
	status?: number;
	/** Error message in the OpenAI-style `{ error: { message } }` body. */
	message?: string;
	/**
	 * Sets the `x-should-retry` response header, which the OpenAI SDK retry policy honours. Leave undefined for the
	 * client's natural behaviour (Pi's provider layer may retry 5xx).
	 */
	shouldRetry?: boolean;
}

/** What the scripted assistant answers for one chat-completions request. */
export interface LoopbackReply {
	/** Assistant text. Streamed as several content deltas. */
	text?: string;
	/** Reasoning text, streamed as `delta.reasoning_content` before the answer. */
	reasoning?: string;
	/** Tool calls, streamed as `delta.tool_calls` chunks. */
	toolCalls?: LoopbackToolCall[];
	/** Defaults to "tool_calls" when there are tool calls, else "stop". */
	finishReason?: "stop" | "tool_calls" | "length" | "content_filter";
	/** Override the reported usage, or `false` to send none. */
	usage?: LoopbackUsage | false;
	/** Wait this long before answering (before any byte is written). */
	delayMs?: number;
	/** Wait this long between streamed chunks. */
	chunkDelayMs?: number;
	/**
	 * Never finish the reply: `true` (or "before-headers") writes nothing at all, "mid-stream" writes the SSE headers
	 * and the role chunk and then stalls. The socket stays open until the client gives up or the server closes.
	 */
	hang?: boolean | "before-headers" | "mid-stream";
	/** Answer with an HTTP error instead of a completion. `true` means a plain HTTP 500. */
	error?: LoopbackErrorSpec | true;
}

/** A scripted step: a fixed reply, or a function that answers based on the request it received. */
export type LoopbackStep = LoopbackReply | ((request: LoopbackRequest) => LoopbackReply | Promise<LoopbackReply>);

/** A router sees every chat request before the script; returning undefined falls through to the next scripted step. */
export type LoopbackRouter = (
	request: LoopbackRequest,
) => LoopbackReply | undefined | Promise<LoopbackReply | undefined>;

/** One content part of an OpenAI chat message. */
export interface ChatContentPart {
	type: string;
	text?: string;
	[key: string]: unknown;
}

/** One message of an OpenAI chat-completions request, as Pi serialises it. */
export interface ChatMessage {
	role: string;
	content?: string | ChatContentPart[] | null;
	tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
	tool_call_id?: string;
	name?: string;
	[key: string]: unknown;
}

/** One tool declared in an OpenAI chat-completions request. */
export interface ChatTool {
	type?: string;
	function?: { name?: string; description?: string; parameters?: unknown; [key: string]: unknown };
	[key: string]: unknown;
}

/** The parsed JSON body of a chat-completions request. Every field is optional: the server records what came. */
export interface ChatCompletionBody {
	model?: string;
	messages?: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
	stream_options?: { include_usage?: boolean; [key: string]: unknown };
	[key: string]: unknown;
}

/** Where the reply to a chat request came from. */
export type LoopbackReplySource = "router" | "script" | "default";

/** One recorded HTTP request, in arrival order. */
export interface LoopbackRequest {
	/** 0-based arrival index among all requests this server received. */
	index: number;
	method: string;
	/** URL path without the query string, e.g. "/v1/chat/completions". */
	path: string;
	/** Lower-cased request headers, with authorization, api-key and cookie headers removed. */
	headers: Record<string, string>;
	/** Parsed JSON body when it was a JSON object; undefined otherwise. */
	body: ChatCompletionBody | undefined;
	/** Size of the raw body in bytes. */
	bodyBytes: number;
	/** Why the body was not parsed (too large, not JSON, not an object). */
	bodyError?: string;
	/** `body.stream === true`. */
	stream: boolean;
	/** For chat requests: where the reply came from (set once the reply is chosen). */
	replySource?: LoopbackReplySource;
	/** For chat requests: the reply that was sent, after resolving function steps. */
	reply?: LoopbackReply;
	/** Epoch milliseconds when the body was fully received. */
	receivedAt: number;
}
