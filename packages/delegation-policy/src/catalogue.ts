// Builds the kernel's model catalogue from the host's model registry and the session's scoped models.
import { getSupportedThinkingLevels } from "@earendil-works/pi-ai";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { CatalogueModel, ModelCatalogue, ThinkingLevel } from "@pi-policy/policy-kernel/delegation";

type RegistryModel = ReturnType<ExtensionContext["modelRegistry"]["getAll"]>[number];

function modelKey(provider: string, id: string): string {
	return `${provider}\u0000${id}`;
}

/**
 * The catalogue of every chat model the registry knows, with availability, credentials, scope and supported
 * thinking levels. With `only`, just those `provider/model` pairs are described (providers are always listed).
 */
export function buildModelCatalogue(
	ctx: Pick<ExtensionContext, "modelRegistry" | "scopedModels">,
	only?: ReadonlyArray<{ provider: string; model: string }>,
): ModelCatalogue {
	const registry = ctx.modelRegistry;
	const all: RegistryModel[] = registry.getAll();
	const providers = new Set<string>(all.map((model) => model.provider));
	try {
		for (const id of registry.getRegisteredProviderIds()) providers.add(id);
	} catch {
		// Older registries: the providers of the listed models suffice.
	}
	const wanted = only === undefined ? undefined : new Set(only.map((entry) => modelKey(entry.provider, entry.model)));
	const available = new Set(registry.getAvailable().map((model) => modelKey(model.provider, model.id)));
	const scoped = ctx.scopedModels ?? [];
	const models: CatalogueModel[] = [];
	for (const model of all) {
		const key = modelKey(model.provider, model.id);
		if (wanted !== undefined && !wanted.has(key)) continue;
		models.push({
			provider: model.provider,
			id: model.id,
			available: available.has(key),
			authenticated: registry.hasConfiguredAuth(model),
			inScope: scoped.length === 0 || scoped.some((entry) => modelKey(entry.model.provider, entry.model.id) === key),
			thinkingLevels: getSupportedThinkingLevels(model) as ThinkingLevel[],
			...(typeof model.name === "string" ? { name: model.name } : {}),
			...(typeof model.contextWindow === "number" ? { contextWindow: model.contextWindow } : {}),
			reasoning: model.reasoning === true,
		});
	}
	return { models, providers: [...providers] };
}
