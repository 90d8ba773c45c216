// The real `pi` CLI against the loopback provider (real HTTP transport, OpenAI chat-completions): the block
// reaches the wire exactly once per request, and before_provider_request re-applies it after another
// extension replaced the system prompt in the payload.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	type LoopbackProvider,
	type PiCliFixture,
	type PiCliResult,
	requestSystemPrompt,
	startPiCliFixture,
} from "@pi-policy/loopback-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLACED_PROMPT } from "./fixtures/prompt-replacer.ts";

const EXTENSION = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const REPLACER = fileURLToPath(new URL("./fixtures/prompt-replacer.ts", import.meta.url));

const GLOBAL = {
	version: 1,
	intensity: "orchestrator",
	roles: { small: { provider: "loop", model: "loop-1" }, medium: null, large: null },
};

interface Run {
	fixture: PiCliFixture;
	server: LoopbackProvider;
	result: PiCliResult;
	captured: Array<{ sawBlock: boolean }>;
}

async function runCli(extensions: string[]): Promise<Run> {
	const fixture = await startPiCliFixture({
		prefix: "delegation-cli-",
		provider: { steps: [{ toolCalls: [{ name: "ls", arguments: { path: "." } }] }, { text: "All done." }] },
		config: { "delegation-policy": GLOBAL },
	});
	const capture = join(fixture.root, "capture.jsonl");
	const result = await fixture.run(
		[
			"--mode",
			"json",
			"--model",
			"loop/loop-1",
			"--tools",
			"ls,read",
			...extensions.flatMap((path) => ["-e", path]),
			"-p",
			"List the files.",
		],
		{ env: { PROMPT_REPLACER_CAPTURE: capture }, timeoutMs: 60_000 },
	);
	const captured = (await readFile(capture, "utf8").catch(() => ""))
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as { sawBlock: boolean });
	return { fixture, server: fixture.server, result, captured };
}

function count(text: string, needle: string): number {
	return text.split(needle).length - 1;
}

describe("real pi CLI over HTTP (OpenAI chat-completions payload)", () => {
	let plain: Run;
	let replaced: Run;

	beforeAll(async () => {
		plain = await runCli([EXTENSION]);
		replaced = await runCli([REPLACER, EXTENSION]);
	}, 120_000);

	afterAll(async () => {
		for (const run of [plain, replaced]) await run?.fixture.dispose();
	});

	it("every request on the wire carries the block exactly once, in the system message", () => {
		expect(plain.result.code, plain.result.stderr).toBe(0);
		expect(plain.server.chatRequests).toHaveLength(2);
		for (const request of plain.server.chatRequests) {
			const system = requestSystemPrompt(request);
			expect(count(system, "<delegation_policy>")).toBe(1);
			expect(system).toContain("Intensity: orchestrator.");
			expect(system).toContain("- Small: model loop/loop-1");
			expect(count(JSON.stringify(request.body), "<delegation_policy>")).toBe(1);
		}
	});

	it("re-applies the block after another extension replaced the system prompt in before_provider_request", () => {
		expect(replaced.result.code, replaced.result.stderr).toBe(0);
		expect(replaced.captured).toEqual([{ sawBlock: true }, { sawBlock: true }]);
		expect(replaced.server.chatRequests).toHaveLength(2);
		for (const request of replaced.server.chatRequests) {
			const system = requestSystemPrompt(request);
			expect(system.startsWith(REPLACED_PROMPT)).toBe(true);
			expect(count(JSON.stringify(request.body), "<delegation_policy>")).toBe(1);
			expect(system).toContain("Intensity: orchestrator.");
		}
	});
});
