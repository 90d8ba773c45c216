// Builds the kernel's model catalogue from the host's model registry and the session's scoped models.
import { getSupportedThinkingLevels } from "@earendil-works/pi-ai";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { CatalogueModel, ModelCatalogue, ThinkingLevel } from "@pi-policy/policy-kernel/delegation";

type RegistryModel = ReturnType<ExtensionContext["modelRegistry"]["getAll"]>[number];

function modelKey(provider: string, id: string): string {
	return `${provider}\u0000${id}`;
}

/** One catalogue entry for a registry model. */
function catalogueModel(
	registry: ExtensionContext["modelRegistry"],
	model: RegistryModel,
	available: ReadonlySet<string>,
	scoped: NonNullable<ExtensionContext["scopedModels"]>,
): CatalogueModel {
	const key = modelKey(model.provider, model.id);
	return {
		provider: model.provider,
		id: model.id,
		available: available.has(key),
		authenticated: registry.hasConfiguredAuth(model),
		inScope: scoped.length === 0 || scoped.some((entry) => modelKey(entry.model.provider, entry.model.id) === key),
		thinkingLevels: getSupportedThinkingLevels(model) as ThinkingLevel[],
		...(typeof model.name === "string" ? { name: model.name } : {}),
		...(typeof model.contextWindow === "number" ? { contextWindow: model.contextWindow } : {}),
		reasoning: model.reasoning === true,
	};
}

function registeredProviders(registry: ExtensionContext["modelRegistry"]): string[] {
	try {
		return [...registry.getRegisteredProviderIds()];
	} catch {
		// Older registries: the providers of the listed models suffice.
		return [];
	}
}

/**
 * The catalogue of every chat model the registry knows, with availability, credentials, scope and supported
 * thinking levels. With `only`, just those `provider/model` pairs are described (providers are always listed).
 *
 * This runs before every request, so with `only` it looks each pair up with `find` instead of listing the whole
 * registry (`getAll` copies about 1,700 models, some 5 ms a call): the full list is read only when a pair is
 * missing, to tell an unknown provider from an unknown model.
 */
export function buildModelCatalogue(
	ctx: Pick<ExtensionContext, "modelRegistry" | "scopedModels">,
	only?: ReadonlyArray<{ provider: string; model: string }>,
): ModelCatalogue {
	const registry = ctx.modelRegistry;
	const available = new Set(registry.getAvailable().map((model) => modelKey(model.provider, model.id)));
	const scoped = ctx.scopedModels ?? [];
	if (only !== undefined) {
		const found: RegistryModel[] = [];
		let missing = false;
		const seen = new Set<string>();
		for (const entry of only) {
			const key = modelKey(entry.provider, entry.model);
			if (seen.has(key)) continue;
			seen.add(key);
			const model = registry.find(entry.provider, entry.model);
			if (model === undefined) missing = true;
			else found.push(model);
		}
		if (!missing) {
			const providers = new Set<string>([...found.map((model) => model.provider), ...registeredProviders(registry)]);
			return {
				models: found.map((model) => catalogueModel(registry, model, available, scoped)),
				providers: [...providers],
			};
		}
	}
	const all: RegistryModel[] = registry.getAll();
	const providers = new Set<string>([...all.map((model) => model.provider), ...registeredProviders(registry)]);
	const wanted = only === undefined ? undefined : new Set(only.map((entry) => modelKey(entry.provider, entry.model)));
	const models: CatalogueModel[] = [];
	for (const model of all) {
		if (wanted !== undefined && !wanted.has(modelKey(model.provider, model.id))) continue;
		models.push(catalogueModel(registry, model, available, scoped));
	}
	return { models, providers: [...providers] };
}
