// Every demo scenario: each file in ./scenarios/ default-exports one. An extension adds its scenario as a new
// file there; the stock baseline runs first, the rest in file-name order.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DemoScenario } from "./scenario.ts";

export { type DemoScenario, demoWorkspace } from "./scenario.ts";
export { bugHuntSteps, stockBaseline } from "./scenarios/stock.ts";

/** Load every scenario module in ./scenarios, stock baseline first. */
export async function loadScenarios(): Promise<DemoScenario[]> {
	const dir = join(dirname(fileURLToPath(import.meta.url)), "scenarios");
	const files = readdirSync(dir)
		.filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
		.sort((a, b) => (a === "stock.ts" ? -1 : b === "stock.ts" ? 1 : a.localeCompare(b)));
	const loaded: DemoScenario[] = [];
	for (const file of files) {
		const module = (await import(join(dir, file))) as { default?: DemoScenario };
		if (module.default) loaded.push(module.default);
	}
	return loaded;
}
