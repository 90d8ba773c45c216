// before_provider_request re-application on payloads captured from pi-ai's real request builders (OpenAI
// Responses, OpenAI chat-completions, Anthropic Messages, Google Generative AI): each payload is captured
// through `onPayload` before anything is sent, then the kernel placement is applied to it.

import type { Api, Context, Model } from "@earendil-works/pi-ai";
import { streamSimple } from "@earendil-works/pi-ai/compat";
import { applyPolicyBlockToPayload, countPolicyBlocks, wrapPolicyBlock } from "@pi-policy/policy-kernel/delegation";
import { describe, expect, it } from "vitest";

const OLD_BLOCK = wrapPolicyBlock("Intensity: normal. (old)");
const NEW_BLOCK = wrapPolicyBlock("Intensity: aggressive. (new)");

function model(api: Api, provider: string, id: string): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl: "http://127.0.0.1:9",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 32000,
		maxTokens: 1000,
	} as Model<Api>;
}

class Captured extends Error {}

/** Builds the real provider payload for a prompt and a conversation, without sending it. */
async function capturePayload(target: Model<Api>, systemPrompt: string): Promise<Record<string, unknown>> {
	let captured: unknown;
	const context: Context = {
		systemPrompt,
		messages: [{ role: "user", content: "Please refactor the parser.", timestamp: 1 }],
	};
	const stream = streamSimple(target, context, {
		apiKey: "test-key",
		onPayload: (payload) => {
			captured = structuredClone(payload);
			throw new Captured("captured");
		},
	});
	for await (const _event of stream) {
		// Drain: the stream ends with the error raised by onPayload.
	}
	if (captured === undefined) throw new Error(`no payload captured for ${target.api}`);
	return captured as Record<string, unknown>;
}

const PROMPT = `You are a coding agent.\n\n${OLD_BLOCK}\n\n<cwd>\n/repo\n</cwd>`;

describe.each([
	["openai-responses", model("openai-responses", "openai", "gpt-test"), "openai-responses"],
	["openai-completions", model("openai-completions", "openai", "gpt-test"), "openai-chat"],
	["anthropic-messages", model("anthropic-messages", "anthropic", "claude-test"), "anthropic"],
	["google-generative-ai", model("google-generative-ai", "google", "gemini-test"), "google"],
])("captured %s payload", (_name, target, shape) => {
	it("is recognised, and the block is replaced in place exactly once, everything else unchanged", async () => {
		const payload = await capturePayload(target, PROMPT);
		const before = JSON.stringify(payload);
		expect(countPolicyBlocks(before.replace(/\\n/g, "\n"))).toBe(1);
		const placed = applyPolicyBlockToPayload(payload, NEW_BLOCK);
		expect(placed.shape).toBe(shape);
		expect(placed.changed).toBe(true);
		const after = JSON.stringify(placed.value);
		expect(after).toContain("Intensity: aggressive. (new)");
		expect(after).not.toContain("(old)");
		expect(countPolicyBlocks(after.replace(/\\n/g, "\n"))).toBe(1);
		expect(after).toContain("<cwd>");
		expect(after).toContain("Please refactor the parser.");
		// Only the instruction text changed: swapping the bodies back restores the exact payload.
		expect(after.replace("Intensity: aggressive. (new)", "Intensity: normal. (old)")).toBe(before);
		expect(JSON.stringify(payload)).toBe(before);
	});

	it("re-adds the block once after the prompt was replaced, and removes it when inactive", async () => {
		const payload = await capturePayload(target, "REPLACED PROMPT");
		const added = applyPolicyBlockToPayload(payload, NEW_BLOCK);
		expect(added.changed).toBe(true);
		const text = JSON.stringify(added.value).replace(/\\n/g, "\n");
		expect(countPolicyBlocks(text)).toBe(1);
		expect(text).toContain(`REPLACED PROMPT\n\n${NEW_BLOCK}`);
		const again = applyPolicyBlockToPayload(added.value, NEW_BLOCK);
		expect(again.changed).toBe(false);
		const removed = applyPolicyBlockToPayload(added.value, undefined);
		expect(JSON.stringify(removed.value)).toBe(JSON.stringify(payload));
	});
});
