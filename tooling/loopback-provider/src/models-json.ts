// Builds and writes the `<agentDir>/models.json` that points Pi at a loopback provider.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One model entry of a provider in models.json. Extra fields (name, reasoning, compat, …) are passed through. */
export interface LoopbackModelEntry {
	id: string;
	contextWindow?: number;
	maxTokens?: number;
	[key: string]: unknown;
}

/** Options for the generated models.json. Defaults give the verified shape from host-facts.md. */
export interface ModelsJsonOptions {
	/** Provider id, "loop" by default. Pi model references are then `<provider>/<modelId>`. */
	provider?: string;
	/** The single model id, "loop-1" by default. Ignored when `models` is given. */
	modelId?: string;
	/** Several models; each entry without contextWindow/maxTokens gets the defaults below. */
	models?: LoopbackModelEntry[];
	/** 32000 by default. */
	contextWindow?: number;
	/** 1000 by default. */
	maxTokens?: number;
	/** "x" by default. Pi needs a key to consider the provider usable; the server ignores it. */
	apiKey?: string;
	/** "openai-completions" by default. */
	api?: string;
	/** Extra provider-level fields (name, headers, compat, …) merged into the provider entry. */
	providerFields?: Record<string, unknown>;
	/** Further providers written alongside the loopback one, verbatim. */
	extraProviders?: Record<string, unknown>;
}

/** The models.json document. */
export interface ModelsJson {
	providers: Record<string, Record<string, unknown>>;
}

/** The models.json that was written, and where. */
export interface WrittenModelsJson {
	path: string;
	json: ModelsJson;
	/** `<provider>/<id>` for each model, ready for `--model`. */
	modelRefs: string[];
}

export const DEFAULT_PROVIDER_ID = "loop";
export const DEFAULT_MODEL_ID = "loop-1";
export const DEFAULT_CONTEXT_WINDOW = 32000;
export const DEFAULT_MAX_TOKENS = 1000;

/**
 * Builds the models.json document for a loopback server at `baseUrl` (which ends in `/v1`). With no options this is
 * exactly `{ providers: { loop: { baseUrl, api: "openai-completions", apiKey: "x", models: [{ id: "loop-1",
 * contextWindow: 32000, maxTokens: 1000 }] } } }`.
 */
export function buildModelsJson(baseUrl: string, options: ModelsJsonOptions = {}): ModelsJson {
	const provider = options.provider ?? DEFAULT_PROVIDER_ID;
	const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
	const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
	const entries: LoopbackModelEntry[] = options.models ?? [{ id: options.modelId ?? DEFAULT_MODEL_ID }];
	const models = entries.map((entry) => ({
		id: entry.id,
		contextWindow: entry.contextWindow ?? contextWindow,
		maxTokens: entry.maxTokens ?? maxTokens,
		...withoutKeys(entry, ["id", "contextWindow", "maxTokens"]),
	}));
	return {
		providers: {
			...(options.extraProviders as Record<string, Record<string, unknown>> | undefined),
			[provider]: {
				baseUrl,
				api: options.api ?? "openai-completions",
				apiKey: options.apiKey ?? "x",
				models,
				...options.providerFields,
			},
		},
	};
}

/** Writes `<agentDir>/models.json` (creating agentDir) for a loopback server at `baseUrl`. */
export async function writeModelsJsonFile(
	agentDir: string,
	baseUrl: string,
	options: ModelsJsonOptions = {},
): Promise<WrittenModelsJson> {
	const json = buildModelsJson(baseUrl, options);
	await mkdir(agentDir, { recursive: true });
	const path = join(agentDir, "models.json");
	await writeFile(path, `${JSON.stringify(json, null, 2)}\n`, "utf8");
	const provider = options.provider ?? DEFAULT_PROVIDER_ID;
	const models = json.providers[provider]?.models as LoopbackModelEntry[];
	return { path, json, modelRefs: models.map((model) => `${provider}/${model.id}`) };
}

function withoutKeys(entry: Record<string, unknown>, keys: string[]): Record<string, unknown> {
	const rest: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(entry)) {
		if (!keys.includes(key)) rest[key] = value;
	}
	return rest;
}
