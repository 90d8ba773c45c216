// The loopback server on its own: SSE and JSON replies, scripting, recording, failures, bounds and shutdown.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	buildModelsJson,
	DEFAULT_REPLY_TEXT,
	finalAssistantText,
	type LoopbackProvider,
	type LoopbackProviderOptions,
	lastUserText,
	parseJsonEvents,
	requestSystemPrompt,
	requestToolNames,
	startLoopbackProvider,
	toolResultTexts,
} from "../src/index.ts";
import { itemAt } from "./support.ts";

interface Chunk {
	id: string;
	object: string;
	model: string;
	choices: Array<{
		index: number;
		delta: {
			role?: string;
			content?: string;
			reasoning_content?: string;
			tool_calls?: Array<{
				index: number;
				id?: string;
				type?: string;
				function?: { name?: string; arguments?: string };
			}>;
		};
		finish_reason: string | null;
	}>;
	usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

let server: LoopbackProvider | undefined;

afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function start(options: LoopbackProviderOptions = {}) {
	server = await startLoopbackProvider(options);
	return server;
}

function chatBody(text: string, extra: Record<string, unknown> = {}) {
	return {
		model: "loop-1",
		stream: true,
		stream_options: { include_usage: true },
		messages: [
			{ role: "system", content: "SYSTEM-PROMPT-TOKEN" },
			{ role: "user", content: [{ type: "text", text }] },
		],
		tools: [{ type: "function", function: { name: "read", parameters: { type: "object" } } }],
		...extra,
	};
}

function post(provider: LoopbackProvider, body: unknown, init: RequestInit = {}) {
	return fetch(`${provider.baseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json", authorization: "Bearer secret-token", "x-api-key": "secret-key" },
		body: JSON.stringify(body),
		...init,
	});
}

/** Parses an SSE body into its `data:` payloads; returns the JSON chunks and whether it ended with [DONE]. */
function parseSse(text: string): { chunks: Chunk[]; done: boolean; dataLines: string[] } {
	const dataLines = text
		.split("\n\n")
		.filter((event) => event.length > 0)
		.map((event) => {
			expect(event.startsWith("data: ")).toBe(true);
			return event.slice("data: ".length);
		});
	const done = dataLines.at(-1) === "[DONE]";
	const chunks = dataLines.filter((line) => line !== "[DONE]").map((line) => JSON.parse(line) as Chunk);
	return { chunks, done, dataLines };
}

describe("loopback server: streaming replies", () => {
	it("streams a text reply as chat.completion.chunk events ending in finish_reason stop, usage and [DONE]", async () => {
		const text = "The loopback answer is forty-two, streamed in several small deltas.";
		const provider = await start({ steps: [{ text }], chunkSize: 10 });
		const response = await post(provider, chatBody("hello"));

		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
		const { chunks, done, dataLines } = parseSse(await response.text());
		expect(done).toBe(true);
		expect(dataLines.filter((line) => line === "[DONE]")).toHaveLength(1);
		for (const chunk of chunks) {
			expect(chunk.object).toBe("chat.completion.chunk");
			expect(chunk.model).toBe("loop-1");
			expect(chunk.id).toBe(chunks[0]?.id);
		}
		expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
		const contentDeltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""));
		expect(contentDeltas.filter((delta) => delta.length > 0).length).toBeGreaterThan(1);
		expect(contentDeltas.join("")).toBe(text);

		const finishing = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
		expect(finishing).toHaveLength(1);
		expect(finishing[0]?.choices[0]?.finish_reason).toBe("stop");
		const usageChunk = chunks.at(-1);
		expect(usageChunk?.choices).toEqual([]);
		expect(usageChunk?.usage?.completion_tokens).toBeGreaterThan(0);
		expect(usageChunk?.usage?.total_tokens).toBe(
			(usageChunk?.usage?.prompt_tokens ?? 0) + (usageChunk?.usage?.completion_tokens ?? 0),
		);
	});

	it("omits the usage chunk when the request does not ask for it", async () => {
		const provider = await start({ steps: [{ text: "no usage" }] });
		const response = await post(provider, chatBody("hello", { stream_options: undefined }));
		const { chunks } = parseSse(await response.text());
		expect(chunks.some((chunk) => chunk.usage)).toBe(false);
		expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
	});

	it("streams tool calls as delta.tool_calls chunks (id, name, argument pieces) and finish_reason tool_calls", async () => {
		const args = { path: "notes.txt", offset: 1, note: "a fairly long argument value to force several pieces" };
		const provider = await start({
			chunkSize: 16,
			steps: [
				{
					text: "Reading two files.",
					toolCalls: [
						{ name: "read", arguments: args },
						{ name: "ls", arguments: { path: "." }, id: "call_custom" },
					],
				},
			],
		});
		const { chunks, done } = parseSse(await (await post(provider, chatBody("read it"))).text());
		expect(done).toBe(true);

		const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
		expect(text).toBe("Reading two files.");
		const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
		const first = toolDeltas.filter((delta) => delta.index === 0);
		const second = toolDeltas.filter((delta) => delta.index === 1);
		expect(first[0]).toMatchObject({ id: "call_loop_0_0", type: "function", function: { name: "read" } });
		expect(second[0]).toMatchObject({ id: "call_custom", type: "function", function: { name: "ls" } });
		expect(first.length).toBeGreaterThan(2);
		expect(first.slice(1).every((delta) => delta.id === undefined && delta.function?.name === undefined)).toBe(true);
		expect(JSON.parse(first.map((delta) => delta.function?.arguments ?? "").join(""))).toEqual(args);
		expect(JSON.parse(second.map((delta) => delta.function?.arguments ?? "").join(""))).toEqual({ path: "." });

		const finishing = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
		expect(finishing.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual(["tool_calls"]);
	});

	it("streams reasoning before the answer as delta.reasoning_content", async () => {
		const provider = await start({ steps: [{ reasoning: "thinking hard", text: "answer" }] });
		const { chunks } = parseSse(await (await post(provider, chatBody("q"))).text());
		const kinds = chunks
			.map((chunk) => chunk.choices[0]?.delta)
			.map((delta) => (delta?.reasoning_content ? "reasoning" : delta?.content ? "content" : undefined))
			.filter(Boolean);
		expect(kinds).toEqual(["reasoning", "content"]);
	});
});

describe("loopback server: non-streaming and other routes", () => {
	it("answers a non-streaming request with one chat.completion JSON object", async () => {
		const provider = await start({
			steps: [{ text: "plain", toolCalls: [{ name: "grep", arguments: '{"pattern":"x"}' }] }],
		});
		const response = await post(provider, chatBody("q", { stream: false }));
		expect(response.headers.get("content-type")).toBe("application/json");
		const json = (await response.json()) as {
			object: string;
			choices: Array<{ message: { role: string; content: string; tool_calls: unknown[] }; finish_reason: string }>;
			usage: { prompt_tokens: number };
		};
		expect(json.object).toBe("chat.completion");
		expect(json.choices[0]?.message).toEqual({
			role: "assistant",
			content: "plain",
			tool_calls: [{ id: "call_loop_0_0", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } }],
		});
		expect(json.choices[0]?.finish_reason).toBe("tool_calls");
		expect(json.usage.prompt_tokens).toBeGreaterThan(0);
	});

	it("lists its models on GET /v1/models, including those written to models.json", async () => {
		const provider = await start();
		const agentDir = await mkdtemp(join(tmpdir(), "loopback-models-"));
		try {
			await provider.writeModelsJson(agentDir, { models: [{ id: "loop-big", contextWindow: 64000 }] });
			const response = await fetch(`${provider.baseUrl}/models`);
			const json = (await response.json()) as { object: string; data: Array<{ id: string; object: string }> };
			expect(json.object).toBe("list");
			expect(json.data.map((model) => model.id)).toEqual(["loop-1", "loop-big"]);
		} finally {
			await rm(agentDir, { recursive: true, force: true });
		}
	});

	it("answers 404 for unknown paths and 400 for a body that is not JSON, and records both", async () => {
		const provider = await start({ steps: [{ text: "unused" }] });
		expect((await fetch(`${provider.baseUrl}/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
		const bad = await fetch(`${provider.baseUrl}/chat/completions`, { method: "POST", body: "{not json" });
		expect(bad.status).toBe(400);
		expect(provider.requests.map((request) => [request.path, request.bodyError])).toEqual([
			["/v1/embeddings", undefined],
			["/v1/chat/completions", "body is not valid JSON"],
		]);
		expect(provider.pendingSteps).toBe(1);
	});

	it("rejects a body over maxBodyBytes with 413 without buffering it", async () => {
		const provider = await start({ maxBodyBytes: 1024 });
		const response = await post(provider, chatBody("x".repeat(4096)));
		expect(response.status).toBe(413);
		expect(provider.requests[0]?.body).toBeUndefined();
		expect(provider.requests[0]?.bodyError).toBe("body exceeds 1024 bytes");
	});
});

describe("loopback server: recording and scripting", () => {
	it("records every request in order with the parsed body, path and headers minus credentials", async () => {
		const provider = await start({ steps: [{ text: "one" }, { text: "two" }] });
		await (await post(provider, chatBody("first question"))).text();
		await (await post(provider, chatBody("second question"))).text();

		expect(provider.requests).toHaveLength(2);
		expect(provider.chatRequests.map((request) => request.index)).toEqual([0, 1]);
		const first = itemAt(provider.requests, 0);
		const second = itemAt(provider.requests, 1);
		expect(first.method).toBe("POST");
		expect(first.path).toBe("/v1/chat/completions");
		expect(first.stream).toBe(true);
		expect(first.body?.model).toBe("loop-1");
		expect(lastUserText(first)).toBe("first question");
		expect(lastUserText(second)).toBe("second question");
		expect(requestSystemPrompt(first)).toBe("SYSTEM-PROMPT-TOKEN");
		expect(requestToolNames(first)).toEqual(["read"]);
		expect(first.headers["content-type"]).toBe("application/json");
		expect(first.headers.authorization).toBeUndefined();
		expect(first.headers["x-api-key"]).toBeUndefined();
		expect(JSON.stringify(provider.requests)).not.toContain("secret-");
		expect(first.reply).toEqual({ text: "one" });
		expect(second.replySource).toBe("script");
	});

	it("answers with a clear default text once the script is exhausted", async () => {
		const provider = await start({ steps: [{ text: "only step" }] });
		const texts: string[] = [];
		for (let round = 0; round < 3; round++) {
			const { chunks } = parseSse(await (await post(provider, chatBody(`q${round}`))).text());
			texts.push(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join(""));
		}
		expect(texts).toEqual(["only step", DEFAULT_REPLY_TEXT, DEFAULT_REPLY_TEXT]);
		expect(DEFAULT_REPLY_TEXT).toBe("loopback: no scripted response");
		expect(provider.chatRequests.map((request) => request.replySource)).toEqual(["script", "default", "default"]);
	});

	it("runs function steps with the recorded request, and a router before the script", async () => {
		const provider = await start({
			router: (request) => (requestSystemPrompt(request).includes("CHILD") ? { text: "child reply" } : undefined),
		});
		provider.setResponses([(request) => ({ text: `echo: ${lastUserText(request)}` })]);
		provider.pushResponses({ text: "second parent reply" });
		expect(provider.pendingSteps).toBe(2);

		const read = async (body: unknown) =>
			parseSse(await (await post(provider, body)).text())
				.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "")
				.join("");
		expect(await read(chatBody("hello parent"))).toBe("echo: hello parent");
		expect(
			await read({
				...chatBody("hi"),
				messages: [
					{ role: "system", content: "I am the CHILD" },
					{ role: "user", content: "x" },
				],
			}),
		).toBe("child reply");
		expect(await read(chatBody("again"))).toBe("second parent reply");
		expect(provider.chatRequests.map((request) => request.replySource)).toEqual(["script", "router", "script"]);
		expect(provider.pendingSteps).toBe(0);
	});

	it("reads tool results out of a follow-up request", async () => {
		const provider = await start();
		await (
			await post(provider, {
				model: "loop-1",
				stream: true,
				messages: [
					{ role: "user", content: "go" },
					{
						role: "assistant",
						content: null,
						tool_calls: [{ id: "c1", type: "function", function: { name: "read" } }],
					},
					{ role: "tool", tool_call_id: "c1", content: "tool output one" },
					{ role: "tool", tool_call_id: "c2", content: [{ type: "text", text: "tool output two" }] },
				],
			})
		).text();
		expect(toolResultTexts(itemAt(provider.chatRequests, 0))).toEqual(["tool output one", "tool output two"]);
	});

	it("waitForChatRequests resolves once enough chat requests arrived and rejects on timeout", async () => {
		const provider = await start();
		const waiting = provider.waitForChatRequests(2, 5_000);
		await (await post(provider, chatBody("a"))).text();
		await (await post(provider, chatBody("b"))).text();
		expect((await waiting).map((request) => lastUserText(request))).toEqual(["a", "b"]);
		await expect(provider.waitForChatRequests(3, 50)).rejects.toThrow(/expected 3 chat requests/);
	});
});

describe("loopback server: failures, hangs and shutdown", () => {
	it("answers an error step with the HTTP status, an OpenAI-style error body and x-should-retry", async () => {
		const provider = await start({
			steps: [{ error: true }, { error: { status: 429, message: "slow down", shouldRetry: false } }, { text: "ok" }],
		});
		const plain = await post(provider, chatBody("a"));
		expect(plain.status).toBe(500);
		expect(plain.headers.get("x-should-retry")).toBeNull();
		expect(((await plain.json()) as { error: { message: string } }).error.message).toMatch(/loopback/);
		const limited = await post(provider, chatBody("b"));
		expect(limited.status).toBe(429);
		expect(limited.headers.get("x-should-retry")).toBe("false");
		expect(await limited.json()).toEqual({ error: { message: "slow down", type: "loopback_error", code: 429 } });
		expect((await post(provider, chatBody("c"))).status).toBe(200);
	});

	it("turns a throwing function step into a 500 that names the failure", async () => {
		const provider = await start({
			steps: [
				() => {
					throw new Error("script bug");
				},
			],
		});
		const response = await post(provider, chatBody("a"));
		expect(response.status).toBe(500);
		expect(((await response.json()) as { error: { message: string } }).error.message).toContain("script bug");
	});

	it("keeps a hanging reply open until the client aborts", async () => {
		const provider = await start({ steps: [{ hang: true }] });
		const controller = new AbortController();
		const pending = post(provider, chatBody("hang"), { signal: controller.signal });
		await provider.waitForChatRequests(1);
		controller.abort();
		await expect(pending).rejects.toThrow();
		expect(provider.chatRequests[0]?.reply).toEqual({ hang: true });
	});

	it("stalls a mid-stream hang after the role chunk", async () => {
		const provider = await start({ steps: [{ hang: "mid-stream", text: "never sent" }] });
		const controller = new AbortController();
		const response = await post(provider, chatBody("hang"), { signal: controller.signal });
		expect(response.status).toBe(200);
		const reader = response.body?.getReader();
		const first = await reader?.read();
		const firstText = new TextDecoder().decode(first?.value);
		expect(firstText).toContain('"role":"assistant"');
		expect(firstText).not.toContain("never sent");
		controller.abort();
	});

	it("close() destroys open sockets (hanging and delayed replies) and stops listening", async () => {
		const provider = await start({ steps: [{ hang: true }, { delayMs: 30_000, text: "late" }] });
		const hanging = post(provider, chatBody("a"));
		const delayed = post(provider, chatBody("b"));
		await provider.waitForChatRequests(2);
		const settled = Promise.allSettled([hanging, delayed]);
		await provider.close();
		expect((await settled).map((result) => result.status)).toEqual(["rejected", "rejected"]);
		await expect(provider.close()).resolves.toBeUndefined();
		await expect(fetch(`${provider.baseUrl}/models`)).rejects.toThrow();
	});
});

describe("models.json and JSON-mode helpers", () => {
	it("writes the verified models.json shape by default", async () => {
		const provider = await start();
		const agentDir = await mkdtemp(join(tmpdir(), "loopback-models-"));
		try {
			const written = await provider.writeModelsJson(agentDir);
			expect(written.path).toBe(join(agentDir, "models.json"));
			expect(written.modelRefs).toEqual(["loop/loop-1"]);
			expect(JSON.parse(await readFile(written.path, "utf8"))).toEqual({
				providers: {
					loop: {
						baseUrl: `http://127.0.0.1:${provider.port}/v1`,
						api: "openai-completions",
						apiKey: "x",
						models: [{ id: "loop-1", contextWindow: 32000, maxTokens: 1000 }],
					},
				},
			});
		} finally {
			await rm(agentDir, { recursive: true, force: true });
		}
	});

	it("builds overrides and several models", () => {
		const json = buildModelsJson("http://127.0.0.1:1/v1", {
			provider: "loopx",
			maxTokens: 2000,
			models: [{ id: "a" }, { id: "b", contextWindow: 8000, reasoning: true }],
			providerFields: { name: "Loop X" },
		});
		expect(json).toEqual({
			providers: {
				loopx: {
					baseUrl: "http://127.0.0.1:1/v1",
					api: "openai-completions",
					apiKey: "x",
					name: "Loop X",
					models: [
						{ id: "a", contextWindow: 32000, maxTokens: 2000 },
						{ id: "b", contextWindow: 8000, maxTokens: 2000, reasoning: true },
					],
				},
			},
		});
	});

	it("parses JSONL on LF only, tolerating CRLF, U+2028 inside strings and non-JSON lines", () => {
		const events = parseJsonEvents(
			[
				'{"type":"session","id":"s"}\r',
				"not json",
				'{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"a\u2028b"}]}}',
				'{"no":"type"}',
				"",
			].join("\n"),
		);
		expect(events.map((event) => event.type)).toEqual(["session", "message_end"]);
		expect(finalAssistantText(events)).toBe("a\u2028b");
		expect(finalAssistantText([])).toBeUndefined();
	});
});
