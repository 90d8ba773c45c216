// Every benchmark workload: each file in ./workloads/ default-exports one; they run in file-name order.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchWorkload } from "./types.ts";

/** Load every workload module in ./workloads. */
export async function loadWorkloads(): Promise<BenchWorkload[]> {
	const dir = join(dirname(fileURLToPath(import.meta.url)), "workloads");
	const files = readdirSync(dir)
		.filter((name) => name.endsWith(".ts"))
		.sort();
	const loaded: BenchWorkload[] = [];
	for (const file of files) {
		const module = (await import(join(dir, file))) as { default?: BenchWorkload };
		if (module.default) loaded.push(module.default);
	}
	return loaded;
}
