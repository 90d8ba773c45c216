// The stock-Pi baseline: a realistic bug hunt with no pi-policy extension loaded.
import { callTool, callTools, type ScriptStep } from "@pi-policy/pi-harness";
import type { DemoScenario } from "../scenario.ts";

/** A realistic bug-hunt: survey the repo, read the suspect file, run the tests, patch, re-run. */
export function bugHuntSteps(): ScriptStep[] {
	return [
		callTool("grep", { pattern: "compaction" }),
		callTool("find", { pattern: "*.ts" }),
		callTool("read", { path: "src/core/agent-session.ts" }),
		callTool("bash", { command: "ls -la src/core && wc -l src/core/*.ts" }),
		callTools({ name: "grep", args: { pattern: "retry", path: "src/core" } }, { name: "ls", args: { path: "docs" } }),
		callTool("read", { path: "src/core/auth-storage.ts", offset: 1, limit: 60 }),
		callTool("edit", {
			path: "package.json",
			edits: [{ oldText: '"version": "1.0.0"', newText: '"version": "1.0.1"' }],
		}),
		callTool("bash", { command: "cat package.json && echo tests: 12 passed" }),
		"I traced the retry handling to src/core/agent-session.ts, bumped the patch version and re-ran the tests.",
	];
}

/** The stock-Pi baseline: no pi-policy extension loaded. */
export const stockBaseline: DemoScenario = {
	id: "stock",
	title: "Stock Pi (no pi-policy extensions)",
	summary: "What a plain Pi 1.6.0 session sends the model during a realistic bug hunt.",
	prompt: "The retry logic sometimes loops forever after compaction. Find the cause and patch it.",
	extensions: () => [],
	steps: bugHuntSteps,
};

export default stockBaseline;
