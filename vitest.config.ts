// The one vitest configuration for the workspace: every package's and tool's tests in one run.
// Kernel imports resolve to its TypeScript sources (tooling/vitest-kernel-source.ts).
import { defineConfig } from "vitest/config";
import { kernelSourcePlugin } from "./tooling/vitest-kernel-source.ts";

export default defineConfig({
	plugins: [kernelSourcePlugin],
	test: {
		// Stops the run with one line when ripgrep or fd is missing (tooling/test-preflight.ts).
		globalSetup: ["./tooling/test-preflight.ts"],
		include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts", "tooling/*/test/**/*.test.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./tooling/vitest-summary-reporter.ts"],
	},
});
