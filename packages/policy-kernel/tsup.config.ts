// Every shared module (src/<name>.ts) and every domain or host folder (src/<name>/index.ts) is one entry,
// published as the subpath `@pi-policy/policy-kernel/<name>` through the package's "./*" export.
import { existsSync, readdirSync } from "node:fs";
import { defineConfig } from "tsup";
import { definePackageBuild } from "../../tooling/tsup.base.ts";

function kernelEntries(): Record<string, string> {
	const entries: Record<string, string> = {};
	for (const item of readdirSync("src", { withFileTypes: true })) {
		if (item.isFile() && item.name.endsWith(".ts") && !item.name.endsWith(".test.ts")) {
			entries[item.name.slice(0, -3)] = `src/${item.name}`;
		} else if (item.isDirectory() && existsSync(`src/${item.name}/index.ts`)) {
			entries[item.name] = `src/${item.name}/index.ts`;
		}
	}
	return entries;
}

export default defineConfig(definePackageBuild(kernelEntries()));
