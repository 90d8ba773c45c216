// The compatibility run: the in-process harness suites against the oldest Pi the packages claim to support.
// Every import of a host package — in extension sources, tests, the harness, demo and bench workloads — resolves
// to the copy installed in tooling/compat/node_modules; the root vitest.config.ts stays on the current Pi.
// Run from the repository root: pnpm exec vitest run --config tooling/compat/vitest.config.ts
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { kernelSourcePlugin } from "../vitest-kernel-source.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The oldest supported Pi, as installed for this package (tooling/compat/package.json pins its version). */
const compatHostDir = realpathSync(
	fileURLToPath(new URL("./node_modules/@earendil-works/pi-coding-agent/", import.meta.url)),
);

/**
 * Host packages are resolved as if imported from inside that Pi package, so `pi-ai`, `pi-agent-core` and `pi-tui`
 * are the very copies it loads itself: one module instance per package, as in a real install.
 */
const hostImporter = `${compatHostDir}/package.json`;

const HOST_IMPORT = /^@earendil-works\/(?:pi-coding-agent|pi-ai|pi-agent-core|pi-tui)(?:\/.*)?$/;

/**
 * Resolves every host import (package and subpath, through its `exports`) from inside the compat Pi package.
 * A resolve plugin rather than an alias `customResolver`, which Vite 8 deprecates. An import the older Pi cannot
 * resolve fails the run instead of falling back to the workspace's Pi.
 */
const compatHostResolver: Plugin = {
	name: "pi-policy:compat-host",
	enforce: "pre",
	async resolveId(source, _importer, options) {
		if (!HOST_IMPORT.test(source)) return null;
		const resolved = await this.resolve(source, hostImporter, { ...options, skipSelf: true });
		if (!resolved) throw new Error(`compat: ${source} does not resolve in the Pi installed at ${compatHostDir}`);
		return resolved;
	},
};

/** Tests that need Pi 1.6.0 itself or a separate process, each with the reason. */
export const COMPAT_EXCLUDED_TESTS: Record<string, string> = {
	"packages/delegation-policy/test/cli-loopback.test.ts":
		"spawns the real `pi` CLI (the workspace's 1.6.0 binary) against the loopback provider",
	"packages/exploration-guard/test/pi-subagents.test.ts":
		"spawns the real `pi` CLI with pi-subagents 0.67.0, whose children run the 1.6.0 binary",
	"packages/output-minimizer/test/pi-subagents-e2e.test.ts":
		"spawns the real `pi` CLI with pi-subagents 0.67.0, whose children run the 1.6.0 binary",
};

export default defineConfig({
	root: repoRoot,
	plugins: [kernelSourcePlugin, compatHostResolver],
	test: {
		// The same preflight as the root run: one line when ripgrep or fd is missing.
		globalSetup: ["./tooling/test-preflight.ts"],
		include: [
			// `*.compat.ts`, not `*.test.ts`: the root run (on the current Pi) must not pick these up.
			"tooling/compat/test/**/*.compat.ts",
			"tooling/pi-harness/test/**/*.test.ts",
			"packages/*/test/**/*.test.ts",
			"packages/*/src/**/*.test.ts",
		],
		exclude: ["**/node_modules/**", ...Object.keys(COMPAT_EXCLUDED_TESTS)],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./tooling/vitest-summary-reporter.ts"],
	},
});
