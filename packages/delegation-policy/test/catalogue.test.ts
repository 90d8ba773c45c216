// The catalogue runs before every request: with a list of wanted models it looks each up instead of listing the
// whole registry, and lists it only to tell an unknown provider from an unknown model. Unit test of the shell with a
// stand-in registry (the session tests cover the real one).
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { buildModelCatalogue } from "../src/catalogue.ts";

function registry(models: Array<{ provider: string; id: string }>) {
	const calls = { getAll: 0, find: 0 };
	const full = models.map((model) => ({
		...model,
		name: model.id,
		contextWindow: 1000,
		reasoning: false,
		input: ["text"],
	}));
	const fake = {
		getAll: () => {
			calls.getAll += 1;
			return [...full];
		},
		getAvailable: () => full.slice(0, 1),
		find: (provider: string, id: string) => {
			calls.find += 1;
			return full.find((model) => model.provider === provider && model.id === id);
		},
		hasConfiguredAuth: () => true,
		getRegisteredProviderIds: () => ["faux"],
	};
	const ctx = { modelRegistry: fake, scopedModels: [] } as unknown as Pick<
		ExtensionContext,
		"modelRegistry" | "scopedModels"
	>;
	return { ctx, calls };
}

describe("buildModelCatalogue", () => {
	const models = [
		{ provider: "faux", id: "a" },
		{ provider: "faux", id: "b" },
		{ provider: "other", id: "c" },
	];

	it("looks up wanted models one by one, without listing the registry", () => {
		const { ctx, calls } = registry(models);
		const catalogue = buildModelCatalogue(ctx, [
			{ provider: "faux", model: "a" },
			{ provider: "other", model: "c" },
			{ provider: "faux", model: "a" },
		]);
		expect(calls.getAll).toBe(0);
		expect(catalogue.models.map((m) => `${m.provider}/${m.id}:${m.available}`)).toEqual([
			"faux/a:true",
			"other/c:false",
		]);
		expect(catalogue.providers).toEqual(expect.arrayContaining(["faux", "other"]));
	});

	it("lists the registry when a wanted model is missing, so an unknown provider is told from an unknown model", () => {
		const { ctx, calls } = registry(models);
		const catalogue = buildModelCatalogue(ctx, [
			{ provider: "faux", model: "a" },
			{ provider: "other", model: "gone" },
		]);
		expect(calls.getAll).toBe(1);
		expect(catalogue.models.map((m) => m.id)).toEqual(["a"]);
		expect(catalogue.providers).toEqual(expect.arrayContaining(["faux", "other"]));
	});

	it("without a list, describes every model", () => {
		const { ctx } = registry(models);
		expect(buildModelCatalogue(ctx).models).toHaveLength(3);
	});
});
