// `before_provider_request` on the compat host, in process. The faux provider never fires it, and the suite that
// proves it for the current Pi spawns the real `pi` CLI (excluded here), so this test drives a real session over
// HTTP to the loopback provider: delegation-policy's block reaches the wire exactly once per request, also after
// another extension replaced the system prompt in the payload.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import delegationPolicy from "../../../packages/delegation-policy/src/index.ts";
import promptReplacer, { REPLACED_PROMPT } from "../../../packages/delegation-policy/test/fixtures/prompt-replacer.ts";
import {
	type LoopbackProvider,
	requestSystemPrompt,
	startLoopbackProvider,
} from "../../loopback-provider/src/index.ts";
import { createHarness, type Harness, type HarnessOptions } from "../../pi-harness/src/index.ts";

/** The harness's extension type (typed against the workspace's Pi; at run time the compat host loads it). */
type InlineExtension = NonNullable<HarnessOptions["extensions"]>[number];

const GLOBAL = {
	version: 1,
	intensity: "orchestrator",
	roles: { small: { provider: "loop", model: "loop-1" }, medium: null, large: null },
};

/** Registers the loopback server as provider `loop` and makes `loop/loop-1` the session model. */
function loopProvider(baseUrl: string): InlineExtension {
	return (pi) => {
		pi.registerProvider("loop", {
			baseUrl,
			api: "openai-completions",
			apiKey: "x",
			models: [
				{
					id: "loop-1",
					name: "loop-1",
					reasoning: false,
					input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					contextWindow: 32000,
					maxTokens: 1000,
				},
			],
		});
		pi.on("session_start", async (_event, ctx) => {
			const model = ctx.modelRegistry.find("loop", "loop-1");
			if (!model || !(await pi.setModel(model))) throw new Error("compat: cannot select loop/loop-1");
		});
	};
}

function count(text: string, needle: string): number {
	return text.split(needle).length - 1;
}

let harness: Harness | undefined;
let server: LoopbackProvider | undefined;
let scratch: string | undefined;
afterEach(async () => {
	await harness?.dispose();
	await server?.close();
	if (scratch) await rm(scratch, { recursive: true, force: true });
	harness = undefined;
	server = undefined;
	scratch = undefined;
});

async function run(withReplacer: boolean): Promise<{ server: LoopbackProvider; captured: unknown[] }> {
	server = await startLoopbackProvider({
		steps: [{ toolCalls: [{ name: "ls", arguments: { path: "." } }] }, { text: "All done." }],
	});
	scratch = await mkdtemp(join(tmpdir(), "compat-bpr-"));
	const capture = join(scratch, "capture.jsonl");
	harness = await createHarness({
		ui: false,
		tools: ["ls", "read"],
		files: { "a.txt": "a\n" },
		config: { "delegation-policy": GLOBAL },
		env: { PROMPT_REPLACER_CAPTURE: capture },
		extensions: [loopProvider(server.baseUrl), ...(withReplacer ? [promptReplacer] : []), delegationPolicy],
	});
	expect(harness.session.model?.id).toBe("loop-1");
	await harness.prompt("List the files.");
	const captured = (await readFile(capture, "utf8").catch(() => ""))
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as unknown);
	return { server, captured };
}

describe("before_provider_request on the compat host (real session, HTTP)", () => {
	it("every request on the wire carries the block exactly once, in the system message", async () => {
		const { server } = await run(false);
		expect(server.chatRequests).toHaveLength(2);
		for (const request of server.chatRequests) {
			const system = requestSystemPrompt(request);
			expect(count(system, "<delegation_policy>")).toBe(1);
			expect(system).toContain("Intensity: orchestrator.");
			expect(system).toContain("- Small: model loop/loop-1");
			expect(count(JSON.stringify(request.body), "<delegation_policy>")).toBe(1);
		}
	});

	it("re-applies the block after another extension replaced the system prompt in before_provider_request", async () => {
		const { server, captured } = await run(true);
		expect(captured).toEqual([{ sawBlock: true }, { sawBlock: true }]);
		expect(server.chatRequests).toHaveLength(2);
		for (const request of server.chatRequests) {
			const system = requestSystemPrompt(request);
			expect(system.startsWith(REPLACED_PROMPT)).toBe(true);
			expect(count(JSON.stringify(request.body), "<delegation_policy>")).toBe(1);
			expect(system).toContain("Intensity: orchestrator.");
		}
	});
});
