// The real `pi` CLI (json and print mode) against the loopback server, with a fixture extension loaded by `-e`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	finalAssistantText,
	type LoopbackProvider,
	type PiCliFixture,
	type PiCliResult,
	requestMessages,
	requestSystemPrompt,
	requestToolNames,
	startPiCliFixture,
	toolResultTexts,
} from "../src/index.ts";
import { PAYLOAD_MARKER, READ_REWRITE_PREFIX } from "./fixtures/observer-extension.ts";
import { itemAt } from "./support.ts";

const OBSERVER_EXTENSION = fileURLToPath(new URL("./fixtures/observer-extension.ts", import.meta.url));
const NOTES_TEXT = "ALPHA-ORIGINAL-CONTENT first line\nsecond line of notes\n";

interface CapturedPayload {
	keys: string[];
	undefinedKeys: string[];
	model: unknown;
	stream: unknown;
	messageRoles: string[];
	toolNames: string[];
}

describe("real pi CLI in json mode with an extension loaded by -e", () => {
	let fixture: PiCliFixture;
	let server: LoopbackProvider;
	let result: PiCliResult;
	let captured: CapturedPayload[];
	const finalText = "Done: the notes were read.";

	beforeAll(async () => {
		fixture = await startPiCliFixture({
			prefix: "loopback-cli-",
			provider: { steps: [{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: finalText }] },
			files: { "notes.txt": NOTES_TEXT },
		});
		server = fixture.server;
		const capturePath = join(fixture.root, "payloads.jsonl");
		result = await fixture.run(
			["--mode", "json", "--model", "loop/loop-1", "-e", OBSERVER_EXTENSION, "-p", "Read notes.txt and summarise."],
			{ env: { LOOPBACK_OBSERVER_CAPTURE: capturePath }, timeoutMs: 45_000 },
		);
		captured = (await readFile(capturePath, "utf8").catch(() => ""))
			.split("\n")
			.filter((line) => line.length > 0)
			.map((line) => JSON.parse(line) as CapturedPayload);
	});

	afterAll(async () => {
		await fixture?.dispose();
	});

	it("exits 0 and emits Pi's JSON event stream for a tool turn and a final turn", () => {
		expect(result.timedOut, result.stderr).toBe(false);
		expect(result.code, result.stderr).toBe(0);
		const types = result.jsonEvents.map((event) => event.type);
		expect(types[0]).toBe("session");
		expect(types.filter((type) => type === "turn_end")).toHaveLength(2);
		expect(types.at(-1)).toBe("agent_settled");
		const toolEnd = result.jsonEvents.find((event) => event.type === "tool_execution_end");
		expect(toolEnd).toMatchObject({ toolName: "read", isError: false, toolCallId: "call_loop_0_0" });
		expect(finalAssistantText(result.jsonEvents)).toBe(finalText);
	});

	it("streams with the tools array to the server, one request per model turn", () => {
		const requests = server.chatRequests;
		expect(requests.length).toBeGreaterThanOrEqual(2);
		expect(requests).toHaveLength(2);
		expect(requests.map((request) => request.replySource)).toEqual(["script", "script"]);
		for (const request of requests) {
			expect(request.body?.model).toBe("loop-1");
			expect(request.stream).toBe(true);
			expect(requestToolNames(request)).toEqual(expect.arrayContaining(["read", "bash", "edit", "write"]));
			for (const tool of request.body?.tools ?? []) {
				expect(tool.type).toBe("function");
				expect(typeof tool.function?.parameters).toBe("object");
			}
		}
		expect(requestMessages(itemAt(requests, 0)).map((message) => message.role)).toEqual(["system", "user"]);
	});

	it("sends the tool_result-rewritten read result, not the file, to the model on the next turn", () => {
		const followUp = itemAt(server.chatRequests, 1);
		const messages = requestMessages(followUp);
		expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
		expect(messages[2]?.tool_calls?.[0]).toMatchObject({
			id: "call_loop_0_0",
			function: { name: "read", arguments: JSON.stringify({ path: "notes.txt" }) },
		});
		expect(messages[3]?.tool_call_id).toBe("call_loop_0_0");
		const original = NOTES_TEXT.trimEnd();
		expect(toolResultTexts(followUp)).toEqual([
			`${READ_REWRITE_PREFIX}: ${original.length} chars, ${original.split("\n").length} lines`,
		]);
		expect(JSON.stringify(followUp.body)).not.toContain("ALPHA-ORIGINAL-CONTENT");
	});

	it("before_provider_request sees the real payload (model, messages, tools, stream) and its replacement is sent", () => {
		const requests = server.chatRequests;
		expect(captured).toHaveLength(requests.length);
		for (const [position, record] of captured.entries()) {
			const sent = itemAt(requests, position);
			expect(record.keys).toEqual(expect.arrayContaining(["model", "messages", "tools", "stream"]));
			// Keys whose value is undefined in the hook's payload vanish in JSON; every other key reaches the wire.
			const definedKeys = record.keys.filter((key) => !record.undefinedKeys.includes(key));
			expect(definedKeys).toEqual(Object.keys(sent.body ?? {}).sort());
			expect(record.model).toBe("loop-1");
			expect(record.stream).toBe(true);
			expect(record.toolNames).toEqual(requestToolNames(sent));
			expect(record.messageRoles).toEqual(requestMessages(sent).map((message) => message.role));
			expect(requestSystemPrompt(sent).endsWith(PAYLOAD_MARKER)).toBe(true);
			expect(requestSystemPrompt(sent).split(PAYLOAD_MARKER)).toHaveLength(2);
		}
		// Pinned on Pi 1.6.0: the hook's payload carries these two keys with undefined values (not sent on the wire).
		expect(captured.map((record) => record.undefinedKeys)).toEqual([
			["prompt_cache_key", "prompt_cache_retention"],
			["prompt_cache_key", "prompt_cache_retention"],
		]);
		expect(captured.map((record) => record.messageRoles)).toEqual([
			["system", "user"],
			["system", "user", "assistant", "tool"],
		]);
	});
});

describe("real pi CLI in print mode and under a timeout", () => {
	let fixture: PiCliFixture | undefined;

	afterAll(async () => {
		await fixture?.dispose();
	});

	it("print mode writes the final assistant text to stdout", async () => {
		fixture = await startPiCliFixture({
			prefix: "loopback-print-",
			provider: { steps: [{ text: "PRINTED-ANSWER from loopback" }] },
		});
		const { server } = fixture;
		const result = await fixture.run(["--model", "loop/loop-1", "--no-session", "-p", "Say something."], {
			timeoutMs: 45_000,
		});
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout.trim()).toBe("PRINTED-ANSWER from loopback");
		expect(result.jsonEvents).toEqual([]);
		expect(server.chatRequests).toHaveLength(1);
		expect(server.chatRequests[0]?.body?.messages?.at(-1)?.content).toEqual([{ type: "text", text: "Say something." }]);
	});

	it("kills a run that outlives timeoutMs (the server never answers)", async () => {
		fixture ??= await startPiCliFixture({ prefix: "loopback-print-" });
		const { server } = fixture;
		server.setResponses([{ hang: true }]);
		const before = server.chatRequests.length;
		const result = await fixture.run(
			["--mode", "json", "--model", "loop/loop-1", "--no-session", "-p", "This will hang."],
			{ timeoutMs: 4_000 },
		);
		expect(result.timedOut).toBe(true);
		// Pi handles the SIGTERM and exits 143 (observed on 1.6.0); either way it is not a clean exit.
		expect(result.code).not.toBe(0);
		const types = result.jsonEvents.map((event) => event.type);
		expect(types).toContain("agent_start");
		expect(types).not.toContain("agent_settled");
		expect(server.chatRequests.length).toBe(before + 1);
		expect(server.chatRequests.at(-1)?.reply).toEqual({ hang: true });
	});
});
