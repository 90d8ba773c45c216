// The one vitest configuration for the workspace: every package's and tool's tests in one run.
// Workspace packages resolve to their TypeScript sources, so tests never depend on a stale build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const kernelSrc = fileURLToPath(new URL("./packages/policy-kernel/src/", import.meta.url));

/** `@pi-policy/policy-kernel/<name>` → `src/<name>.ts` or `src/<name>/index.ts`. */
function kernelEntry(subpath: string): string {
	const file = `${kernelSrc}${subpath}.ts`;
	return existsSync(file) ? file : `${kernelSrc}${subpath}/index.ts`;
}

export default defineConfig({
	resolve: {
		alias: [
			{ find: /^@pi-policy\/policy-kernel$/, replacement: `${kernelSrc}index.ts` },
			{
				find: /^@pi-policy\/policy-kernel\/(.+)$/,
				replacement: "$1",
				customResolver: (source) => kernelEntry(source),
			},
		],
	},
	test: {
		include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts", "tooling/*/test/**/*.test.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./tooling/vitest-summary-reporter.ts"],
	},
});
