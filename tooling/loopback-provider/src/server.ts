// A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for driving the real Pi CLI and pi-subagents.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type ModelsJsonOptions, type WrittenModelsJson, writeModelsJsonFile } from "./models-json.ts";
import type {
	ChatCompletionBody,
	LoopbackErrorSpec,
	LoopbackReply,
	LoopbackReplySource,
	LoopbackRequest,
	LoopbackRouter,
	LoopbackStep,
	LoopbackToolCall,
} from "./types.ts";

export const DEFAULT_REPLY_TEXT = "loopback: no scripted response";
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
const CHAT_PATH = "/v1/chat/completions";
const MODELS_PATH = "/v1/models";
const REDACTED_HEADERS = new Set(["authorization", "proxy-authorization", "api-key", "x-api-key", "cookie"]);

export interface LoopbackProviderOptions {
	/** Initial script. */
	steps?: LoopbackStep[];
	/** Router consulted before the script for every chat request. */
	router?: LoopbackRouter;
	/** Text answered once the script is exhausted. */
	defaultText?: string;
	/** Request bodies above this size get HTTP 413. 8 MiB by default. */
	maxBodyBytes?: number;
	/** Characters per streamed content or arguments delta. 24 by default. */
	chunkSize?: number;
	/** Model ids listed by `GET /v1/models` (models.json writes add theirs). ["loop-1"] by default. */
	modelIds?: string[];
}

export interface LoopbackProvider {
	readonly port: number;
	/** `http://127.0.0.1:<port>/v1`, the `baseUrl` for models.json. */
	readonly baseUrl: string;
	/** Every request received, in arrival order (a live array). */
	readonly requests: readonly LoopbackRequest[];
	/** The `POST /v1/chat/completions` requests, in arrival order. */
	readonly chatRequests: LoopbackRequest[];
	/** How many scripted steps are still queued. */
	readonly pendingSteps: number;
	/** Replaces the script. */
	setResponses(steps: LoopbackStep[]): void;
	/** Appends steps to the script. */
	pushResponses(...steps: LoopbackStep[]): void;
	/** Sets (or clears) the router consulted before the script. */
	setRouter(router: LoopbackRouter | undefined): void;
	/** Resolves once at least `count` chat requests arrived; rejects after `timeoutMs` (10 s by default). */
	waitForChatRequests(count: number, timeoutMs?: number): Promise<LoopbackRequest[]>;
	/** Writes `<agentDir>/models.json` pointing at this server (see `buildModelsJson`). */
	writeModelsJson(agentDir: string, options?: ModelsJsonOptions): Promise<WrittenModelsJson>;
	/** Stops listening, destroys every open socket (hanging replies included) and clears timers. Idempotent. */
	close(): Promise<void>;
}

interface Waiter {
	count: number;
	resolve: (requests: LoopbackRequest[]) => void;
}

/** Starts a scripted OpenAI-compatible chat-completions server on 127.0.0.1 and an ephemeral port. */
export async function startLoopbackProvider(options: LoopbackProviderOptions = {}): Promise<LoopbackProvider> {
	const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
	const chunkSize = Math.max(1, options.chunkSize ?? 24);
	const defaultText = options.defaultText ?? DEFAULT_REPLY_TEXT;
	const modelIds = new Set(options.modelIds ?? ["loop-1"]);
	const requests: LoopbackRequest[] = [];
	const sockets = new Set<Socket>();
	const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
	let script: LoopbackStep[] = [...(options.steps ?? [])];
	let router = options.router;
	let waiters: Waiter[] = [];
	let closed = false;
	let closing: Promise<void> | undefined;

	const chatRequests = () => requests.filter((request) => request.method === "POST" && request.path === CHAT_PATH);

	const sleep = (ms: number) =>
		new Promise<void>((resolve) => {
			if (ms <= 0 || closed) return resolve();
			const entry = {
				timer: setTimeout(() => {
					timers.delete(entry);
					resolve();
				}, ms),
				resolve,
			};
			timers.add(entry);
		});

	const notifyWaiters = () => {
		const chats = chatRequests();
		waiters = waiters.filter((waiter) => {
			if (chats.length < waiter.count) return true;
			waiter.resolve(chats.slice());
			return false;
		});
	};

	const chooseReply = async (
		request: LoopbackRequest,
	): Promise<{ reply: LoopbackReply; source: LoopbackReplySource }> => {
		if (router) {
			const routed = await router(request);
			if (routed) return { reply: routed, source: "router" };
		}
		const step = script.shift();
		if (step === undefined) return { reply: { text: defaultText }, source: "default" };
		return { reply: typeof step === "function" ? await step(request) : step, source: "script" };
	};

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		const method = (req.method ?? "GET").toUpperCase();
		const body = await readBody(req, maxBodyBytes);
		const record: LoopbackRequest = {
			index: requests.length,
			method,
			path: url.pathname,
			headers: redactHeaders(req),
			body: undefined,
			bodyBytes: body.bytes,
			stream: false,
			receivedAt: Date.now(),
		};
		if (body.tooLarge) {
			record.bodyError = `body exceeds ${maxBodyBytes} bytes`;
		} else if (body.text.length > 0) {
			const parsed = parseJsonObject(body.text);
			if (parsed.ok) record.body = parsed.value;
			else record.bodyError = parsed.error;
		}
		record.stream = record.body?.stream === true;
		requests.push(record);

		if (body.tooLarge) {
			res.on("finish", () => req.socket.destroy());
			sendJson(res, 413, { error: { message: record.bodyError, type: "loopback_error", code: 413 } }, true);
			return;
		}
		if (url.pathname === MODELS_PATH && method === "GET") {
			sendJson(res, 200, {
				object: "list",
				data: [...modelIds].map((id) => ({ id, object: "model", created: 0, owned_by: "loopback" })),
			});
			return;
		}
		if (url.pathname !== CHAT_PATH) {
			sendJson(res, 404, { error: { message: `loopback: no route ${method} ${url.pathname}`, type: "not_found" } });
			return;
		}
		if (method !== "POST") {
			sendJson(res, 405, { error: { message: `loopback: ${method} not allowed`, type: "invalid_request_error" } });
			return;
		}
		if (!record.body) {
			sendJson(res, 400, {
				error: { message: `loopback: ${record.bodyError ?? "empty body"}`, type: "invalid_request_error" },
			});
			notifyWaiters();
			return;
		}

		let chosen: { reply: LoopbackReply; source: LoopbackReplySource };
		try {
			chosen = await chooseReply(record);
		} catch (error) {
			const message = `loopback: scripted step threw: ${error instanceof Error ? error.message : String(error)}`;
			chosen = { reply: { error: { status: 500, message, shouldRetry: false } }, source: "script" };
		}
		record.reply = chosen.reply;
		record.replySource = chosen.source;
		notifyWaiters();
		await answerChat(record, chosen.reply, res);
	};

	const answerChat = async (request: LoopbackRequest, reply: LoopbackReply, res: ServerResponse) => {
		const gone = () => closed || res.destroyed || res.writableEnded;
		if (reply.delayMs) await sleep(reply.delayMs);
		if (gone()) return;
		if (reply.hang === true || reply.hang === "before-headers") return;
		if (reply.error) {
			sendError(res, reply.error === true ? {} : reply.error);
			return;
		}
		const body = request.body ?? {};
		const completionId = `chatcmpl-loop-${request.index}`;
		const created = Math.floor(Date.now() / 1000);
		const model = typeof body.model === "string" ? body.model : "loop-1";
		const toolCalls = (reply.toolCalls ?? []).map((call, position) => normaliseToolCall(call, request.index, position));
		const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
		const usage =
			reply.usage === false ? undefined : (reply.usage ?? estimateUsage(request.bodyBytes, reply, toolCalls));
		const usageBody = usage && {
			prompt_tokens: usage.prompt_tokens,
			completion_tokens: usage.completion_tokens,
			total_tokens: usage.prompt_tokens + usage.completion_tokens,
		};

		if (!request.stream) {
			sendJson(res, 200, {
				id: completionId,
				object: "chat.completion",
				created,
				model,
				choices: [
					{
						index: 0,
						message: {
							role: "assistant",
							content: reply.text ?? null,
							...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
							...(toolCalls.length > 0
								? {
										tool_calls: toolCalls.map((call) => ({
											id: call.id,
											type: "function",
											function: { name: call.name, arguments: call.arguments },
										})),
									}
								: {}),
						},
						finish_reason: finishReason,
					},
				],
				...(usageBody ? { usage: usageBody } : {}),
			});
			return;
		}

		res.writeHead(200, {
			"content-type": "text/event-stream; charset=utf-8",
			"cache-control": "no-cache",
			connection: "keep-alive",
		});
		const base = { id: completionId, object: "chat.completion.chunk", created, model };
		const send = async (payload: Record<string, unknown>) => {
			if (gone()) return false;
			res.write(`data: ${JSON.stringify({ ...base, ...payload })}\n\n`);
			if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
			return !gone();
		};
		const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
			choices: [{ index: 0, delta: value, finish_reason: finish }],
		});

		if (!(await send(delta({ role: "assistant", content: "" })))) return;
		if (reply.hang === "mid-stream") return;
		for (const piece of splitText(reply.reasoning ?? "", chunkSize)) {
			if (!(await send(delta({ reasoning_content: piece })))) return;
		}
		for (const piece of splitText(reply.text ?? "", chunkSize)) {
			if (!(await send(delta({ content: piece })))) return;
		}
		for (const [position, call] of toolCalls.entries()) {
			const opening = { index: position, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
			if (!(await send(delta({ tool_calls: [opening] })))) return;
			for (const piece of splitText(call.arguments, chunkSize)) {
				if (!(await send(delta({ tool_calls: [{ index: position, function: { arguments: piece } }] })))) return;
			}
		}
		if (!(await send(delta({}, finishReason)))) return;
		if (usageBody && body.stream_options?.include_usage === true) {
			if (!(await send({ choices: [], usage: usageBody }))) return;
		}
		res.end("data: [DONE]\n\n");
	};

	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (res.destroyed) return;
			if (res.headersSent) {
				res.destroy();
				return;
			}
			const message = `loopback: internal error: ${error instanceof Error ? error.message : String(error)}`;
			sendJson(res, 500, { error: { message, type: "loopback_error" } });
		});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const baseUrl = `http://127.0.0.1:${port}/v1`;

	return {
		port,
		baseUrl,
		requests,
		get chatRequests() {
			return chatRequests();
		},
		get pendingSteps() {
			return script.length;
		},
		setResponses(steps) {
			script = [...steps];
		},
		pushResponses(...steps) {
			script.push(...steps);
		},
		setRouter(next) {
			router = next;
		},
		waitForChatRequests(count, timeoutMs = 10_000) {
			const chats = chatRequests();
			if (chats.length >= count) return Promise.resolve(chats);
			return new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters = waiters.filter((waiter) => waiter !== entry);
					reject(
						new Error(`loopback: expected ${count} chat requests within ${timeoutMs} ms, got ${chatRequests().length}`),
					);
				}, timeoutMs);
				const entry: Waiter = {
					count,
					resolve: (found) => {
						clearTimeout(timer);
						resolve(found);
					},
				};
				waiters.push(entry);
			});
		},
		async writeModelsJson(agentDir, modelsOptions = {}) {
			const written = await writeModelsJsonFile(agentDir, baseUrl, modelsOptions);
			for (const ref of written.modelRefs) modelIds.add(ref.slice(ref.indexOf("/") + 1));
			return written;
		},
		close() {
			if (closing) return closing;
			closed = true;
			for (const entry of timers) {
				clearTimeout(entry.timer);
				entry.resolve();
			}
			timers.clear();
			closing = new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
				sockets.clear();
				server.closeAllConnections();
			});
			return closing;
		},
	};
}

interface BodyRead {
	text: string;
	bytes: number;
	tooLarge: boolean;
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		let settled = false;
		const finish = (result: BodyRead) => {
			if (settled) return;
			settled = true;
			resolve(result);
		};
		req.on("data", (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > maxBytes) {
				req.pause();
				chunks.length = 0;
				finish({ text: "", bytes, tooLarge: true });
				return;
			}
			chunks.push(chunk);
		});
		req.on("end", () => finish({ text: Buffer.concat(chunks).toString("utf8"), bytes, tooLarge: false }));
		const fail = (error: Error) => {
			if (settled) return;
			settled = true;
			reject(error);
		};
		req.on("error", fail);
		req.on("close", () => {
			if (!req.complete) fail(new Error("request aborted before its body was complete"));
		});
	});
}

function redactHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		const key = name.toLowerCase();
		if (REDACTED_HEADERS.has(key) || value === undefined) continue;
		headers[key] = Array.isArray(value) ? value.join(", ") : value;
	}
	return headers;
}

function parseJsonObject(text: string): { ok: true; value: ChatCompletionBody } | { ok: false; error: string } {
	try {
		const value: unknown = JSON.parse(text);
		if (value === null || typeof value !== "object" || Array.isArray(value)) {
			return { ok: false, error: "body is not a JSON object" };
		}
		return { ok: true, value: value as ChatCompletionBody };
	} catch {
		return { ok: false, error: "body is not valid JSON" };
	}
}

function sendJson(res: ServerResponse, status: number, payload: unknown, closeConnection = false) {
	const text = JSON.stringify(payload);
	res.writeHead(status, {
		"content-type": "application/json",
		"content-length": Buffer.byteLength(text),
		...(closeConnection ? { connection: "close" } : {}),
	});
	res.end(text);
}

function sendError(res: ServerResponse, spec: LoopbackErrorSpec) {
	const status = spec.status ?? 500;
	const text = JSON.stringify({
		error: { message: spec.message ?? `loopback: scripted HTTP ${status}`, type: "loopback_error", code: status },
	});
	res.writeHead(status, {
		"content-type": "application/json",
		"content-length": Buffer.byteLength(text),
		...(spec.shouldRetry === undefined ? {} : { "x-should-retry": String(spec.shouldRetry) }),
	});
	res.end(text);
}

interface NormalisedToolCall {
	id: string;
	name: string;
	arguments: string;
}

function normaliseToolCall(call: LoopbackToolCall, requestIndex: number, position: number): NormalisedToolCall {
	const args = call.arguments;
	return {
		id: call.id ?? `call_loop_${requestIndex}_${position}`,
		name: call.name,
		arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
	};
}

function estimateUsage(bodyBytes: number, reply: LoopbackReply, toolCalls: NormalisedToolCall[]) {
	const outputChars =
		(reply.text ?? "").length +
		(reply.reasoning ?? "").length +
		toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
	return {
		prompt_tokens: Math.max(1, Math.ceil(bodyBytes / 4)),
		completion_tokens: Math.max(1, Math.ceil(outputChars / 4)),
	};
}

/** Splits text into pieces of at most `size` code points; "" gives no pieces. */
function splitText(text: string, size: number): string[] {
	const points = Array.from(text);
	const pieces: string[] = [];
	for (let start = 0; start < points.length; start += size) pieces.push(points.slice(start, start + size).join(""));
	return pieces;
}
