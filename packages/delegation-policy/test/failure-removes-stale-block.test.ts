// Failure behaviour in real Pi sessions (README, Failure behaviour): on an internal error in a handler no delegation
// text is injected and any stale copy of the block is removed, in the transcript (context_with_system) and in the
// provider payload (before_provider_request, over the loopback HTTP provider); and when nothing is to be injected,
// before_agent_start drops a stale section from the chained prompt that later extensions build on.
import type { ExtensionAPI, InlineExtension } from "@earendil-works/pi-coding-agent";
import { type LoopbackProvider, requestSystemPrompt, startLoopbackProvider } from "@pi-policy/loopback-provider";
import type { Harness, ModelRequest } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { blockCount, requestJson, startDelegationSession, systemText } from "./support.ts";

/** While `on`, the kernel's policy resolution throws: an internal error inside every delegation-policy handler. */
const kernelFault = vi.hoisted(() => ({ on: false }));
vi.mock("@pi-policy/policy-kernel/delegation", async (importOriginal) => {
	const actual = await importOriginal<typeof import("@pi-policy/policy-kernel/delegation")>();
	return {
		...actual,
		resolveEffectivePolicy: (...args: Parameters<typeof actual.resolveEffectivePolicy>) => {
			if (kernelFault.on) throw new Error("injected fault");
			return actual.resolveEffectivePolicy(...args);
		},
	};
});

const sessions = sessionPerTest(startDelegationSession);
let server: LoopbackProvider | undefined;
afterEach(async () => {
	kernelFault.on = false;
	await server?.close();
	server = undefined;
});

const STALE = "<delegation_policy>\nSTALE COPY\n</delegation_policy>";

/**
 * Loaded before delegation-policy: appends a stale copy of the block to the leading system message in every
 * context_with_system event, and while `armed` makes `ctx.hasUI` throw there (delegation-policy reads it when it
 * refreshes its footer in a headless session): a fault inside its context_with_system handler.
 */
function staleTranscriptWithFault(armed: { on: boolean }) {
	return (pi: ExtensionAPI) => {
		pi.on("context_with_system", (event, ctx) => {
			const [head, ...rest] = event.messages as unknown as Array<Record<string, unknown>>;
			if (head?.role !== "system") return undefined;
			if (armed.on) {
				Object.defineProperty(ctx, "hasUI", {
					get() {
						throw new Error("injected fault");
					},
				});
			}
			return { messages: [{ ...head, content: `${String(head.content ?? "")}\n\n${STALE}` }, ...rest] as never };
		});
	};
}

describe("an internal error in the context_with_system handler", () => {
	it("removes the block and a stale copy from the request instead of leaving them", async () => {
		const armed = { on: false };
		const harness = await sessions.start({ ui: false, before: [staleTranscriptWithFault(armed)] });
		harness.script("before", "after");
		await harness.prompt("One.");
		armed.on = true;
		await harness.prompt("Two.");
		const [healthy, faulted] = harness.requests as [ModelRequest, ModelRequest];
		expect(blockCount(requestJson(healthy))).toBe(1);
		expect(requestJson(healthy)).not.toContain("STALE COPY");
		expect(blockCount(requestJson(faulted))).toBe(0);
		expect(requestJson(faulted)).not.toContain("STALE COPY");
		expect(systemText(faulted)).not.toContain("Intensity: normal.");
	});
});

/** A provider `loop` served by the loopback HTTP server, so that before_provider_request fires. */
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
					maxTokens: 2000,
				},
			],
		});
	};
}

/** Loaded before delegation-policy: appends a stale copy of the block to the system message of every payload. */
function stalePayload(pi: ExtensionAPI): void {
	pi.on("before_provider_request", (event) => {
		const payload = event.payload as { messages?: Array<{ role: string; content: unknown }> };
		const messages = (payload.messages ?? []).map((message) =>
			message.role === "system" && typeof message.content === "string"
				? { ...message, content: `${message.content}\n\n${STALE}` }
				: message,
		);
		return { ...payload, messages };
	});
}

async function useLoopModel(harness: Harness): Promise<void> {
	const model = harness.session.modelRuntime.getModel("loop", "loop-1");
	if (model === undefined) throw new Error("the loop model is not registered");
	await harness.session.setModel(model);
}

describe("an internal error in the before_provider_request handler", () => {
	it("removes a stale copy of the block from the payload on the wire", async () => {
		server = await startLoopbackProvider({ steps: [{ text: "first" }, { text: "second" }] });
		const harness = await sessions.start({ before: [loopProvider(server.baseUrl), stalePayload] });
		await useLoopModel(harness);
		await harness.prompt("Healthy.");
		// From a fresh session with the fault on, no handler ever computes a view: before_provider_request's own
		// refresh fails too.
		kernelFault.on = true;
		const faulted = await sessions.start({ before: [loopProvider(server.baseUrl), stalePayload] });
		await useLoopModel(faulted);
		await faulted.prompt("Faulted.");
		const [healthy, broken] = server.chatRequests;
		expect(server.chatRequests).toHaveLength(2);
		expect(blockCount(requestSystemPrompt(healthy as never))).toBe(1);
		expect(requestSystemPrompt(healthy as never)).toContain("Intensity: normal.");
		expect(JSON.stringify(healthy?.body)).not.toContain("STALE COPY");
		expect(JSON.stringify(broken?.body)).not.toContain("STALE COPY");
		expect(blockCount(JSON.stringify(broken?.body))).toBe(0);
	});
});

describe("before_agent_start with nothing to inject", () => {
	it("drops a stale delegation_policy section, so a later extension's chained prompt does not carry it", async () => {
		const staleSection = (pi: ExtensionAPI) => {
			pi.on("before_agent_start", (event) => {
				event.systemPromptOptions.sections.delegation_policy = "STALE SECTION";
			});
		};
		const seen: Array<{ section: string | undefined; prompt: string }> = [];
		const observer = (pi: ExtensionAPI) => {
			pi.on("before_agent_start", (event) => {
				seen.push({ section: event.systemPromptOptions.sections.delegation_policy, prompt: event.systemPrompt });
			});
		};
		const harness = await sessions.start({ before: [staleSection], after: [observer] });
		harness.script("on", "off");
		await harness.prompt("One.");
		await harness.command("/delegate off");
		await harness.prompt("Two.");
		expect(seen).toHaveLength(2);
		expect(seen[0]?.section).toContain("Intensity: normal.");
		expect(seen[0]?.prompt).not.toContain("STALE SECTION");
		expect(seen[1]?.section).toBeUndefined();
		expect(seen[1]?.prompt).not.toContain("STALE SECTION");
		expect(seen[1]?.prompt).not.toContain("<delegation_policy>");
		expect(requestJson(harness.requests[1] as ModelRequest)).not.toContain("STALE SECTION");
	});
});
