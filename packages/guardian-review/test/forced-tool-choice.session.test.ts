// Over a real HTTP transport (the loopback OpenAI-compatible server), the reviewer request forces the verdict tool
// with tool_choice, and a verdict returned as a tool call is applied.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { type LoopbackProvider, startLoopbackProvider } from "@pi-policy/loopback-provider";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, createGuardianHarness, type GuardianHarness } from "./helpers.ts";

let h: GuardianHarness | undefined;
let server: LoopbackProvider | undefined;
afterEach(async () => {
	await h?.dispose();
	await server?.close();
	h = undefined;
	server = undefined;
});

describe("forced verdict tool call", () => {
	it("sends tool_choice for submit_verdict to an openai-completions reviewer and applies its verdict", async () => {
		server = await startLoopbackProvider({
			steps: [
				{
					toolCalls: [
						{ name: "submit_verdict", arguments: { outcome: "deny", risk_level: "high", rationale: "over HTTP" } },
					],
				},
			],
		});
		const baseUrl = server.baseUrl;
		const loopProvider: InlineExtension = (pi) => {
			pi.registerProvider("loop", {
				baseUrl,
				api: "openai-completions",
				apiKey: "x",
				models: [
					{
						id: "loop-reviewer",
						name: "loop-reviewer",
						reasoning: false,
						input: ["text"],
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
						contextWindow: 32000,
						maxTokens: 2000,
					},
				],
			});
		};
		h = await createGuardianHarness({
			ui: false,
			before: [loopProvider],
			guardian: { mode: "enforce", reviewer: { model: "loop/loop-reviewer", fallbackToSessionModel: false } },
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null over-http.txt" }), "done");
		await h.prompt("go");
		const body = server.chatRequests[0]?.body as Record<string, unknown> | undefined;
		expect(body?.tool_choice).toEqual({ type: "function", function: { name: "submit_verdict" } });
		expect(((body?.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual([
			"submit_verdict",
		]);
		expect(existsSync(join(h.cwd, "over-http.txt"))).toBe(false);
		expect(h.toolResultText(h.toolResults()[0]!)).toContain("Reviewer rationale: over HTTP");
	});
});
