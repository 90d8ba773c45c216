// Shared helpers for the delegation-policy tests: faux model catalogue, config builders, request readers and
// small companion extensions (a provider without credentials, a bus recorder).
import type { FauxModelDefinition } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import {
	contentText,
	createHarness,
	type Harness,
	type HarnessOptions,
	type ModelRequest,
} from "@pi-policy/pi-harness";
import delegationPolicy from "../src/index.ts";

/** Faux models offered in session tests: `faux-large` reasons (off..high); the others support only `off`. */
export const FAUX_MODELS: FauxModelDefinition[] = [
	{ id: "faux-1" },
	{ id: "faux-small", contextWindow: 32000 },
	{ id: "faux-medium", contextWindow: 64000 },
	{ id: "faux-large", reasoning: true, contextWindow: 200000 },
];

/** A valid global document: all three ordinary roles, normal intensity, a thinking level for Large. */
export function validGlobal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		version: 1,
		intensity: "normal",
		roles: {
			small: { provider: "faux", model: "faux-small" },
			medium: { provider: "faux", model: "faux-medium" },
			large: { provider: "faux", model: "faux-large" },
		},
		thinking: { large: { level: "high" } },
		...overrides,
	};
}

/** Options of {@link startDelegationSession}: harness options, plus extensions loaded around delegation-policy. */
export interface DelegationSessionOptions extends Omit<HarnessOptions, "extensions" | "models" | "config"> {
	/** The global `delegation-policy.json`; {@link validGlobal} by default. */
	global?: unknown;
	/** Extensions loaded before delegation-policy. */
	before?: HarnessOptions["extensions"];
	/** Extensions loaded after delegation-policy. */
	after?: HarnessOptions["extensions"];
}

/** A real session with delegation-policy, the {@link FAUX_MODELS} catalogue and a global document. */
export function startDelegationSession(options: DelegationSessionOptions = {}): Promise<Harness> {
	const { global = validGlobal(), before = [], after = [], ...harnessOptions } = options;
	return createHarness({
		...harnessOptions,
		extensions: [...before, delegationPolicy, ...after],
		models: FAUX_MODELS,
		config: { "delegation-policy": global },
	});
}

/** The leading system message of a request. */
export function leadingSystem(request: ModelRequest): Record<string, unknown> {
	const first = request.messages[0] as unknown as Record<string, unknown> | undefined;
	if (first?.role !== "system") throw new Error("request has no leading system message");
	return first;
}

/** The sections map of the leading system message. */
export function leadingSections(request: ModelRequest): Record<string, string | null> {
	return (leadingSystem(request).sections ?? {}) as Record<string, string | null>;
}

/** Every system message of a request. */
export function systemMessages(request: ModelRequest): Record<string, unknown>[] {
	return request.messages.filter((m) => (m.role as string) === "system") as unknown as Record<string, unknown>[];
}

/** All system text of a request: content and sections of every system message. */
export function systemText(request: ModelRequest): string {
	return systemMessages(request)
		.map((m) => {
			const sections = (m.sections ?? {}) as Record<string, string | null>;
			const texts = Object.values(sections).filter((s): s is string => typeof s === "string");
			return [contentText(m.content), ...texts].join("\n");
		})
		.join("\n");
}

/** Everything the model was sent in one request, as JSON (to count blocks anywhere, user turns included). */
export function requestJson(request: ModelRequest): string {
	return JSON.stringify(request.messages);
}

/** How many `<delegation_policy>` opening tags a text holds. */
export function blockCount(text: string): number {
	return text.split("<delegation_policy>").length - 1;
}

/** The latest notification text, or "". */
export function lastNotification(harness: Harness): string {
	return harness.ui?.notifications().at(-1)?.message ?? "";
}

/** The footer status of delegation-policy. */
export function footer(harness: Harness): string | undefined {
	return harness.ui?.statuses.get("delegation-policy");
}

/** Registers a provider that has a model but no credentials. */
export function noKeyProviderExtension(pi: ExtensionAPI): void {
	pi.registerProvider("nokey", {
		baseUrl: "http://127.0.0.1:9/v1",
		api: "openai-completions",
		models: [
			{
				id: "nokey-1",
				name: "nokey-1",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 8000,
				maxTokens: 1000,
			},
		],
	});
}

/** Records every payload on the given pi.events channels. */
export function busRecorder(channels: string[]): { extension: (pi: ExtensionAPI) => void; payloads: unknown[] } {
	const payloads: unknown[] = [];
	return {
		payloads,
		extension(pi: ExtensionAPI) {
			for (const channel of channels) pi.events.on(channel, (data: unknown) => payloads.push(structuredClone(data)));
		},
	};
}
