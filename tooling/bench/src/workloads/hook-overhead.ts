// Hook overhead: the same scripted session of 500+ cheap tool calls in a real Pi session, with no extensions and
// with all five loaded (guardian decides on its floor only), timed side by side in interleaved rounds.
import { performance } from "node:perf_hooks";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness, type ScriptStep } from "@pi-policy/pi-harness";
import contextShunt from "../../../../packages/context-shunt/src/index.ts";
import delegationPolicy from "../../../../packages/delegation-policy/src/index.ts";
import explorationGuard from "../../../../packages/exploration-guard/src/index.ts";
import guardianReview from "../../../../packages/guardian-review/src/index.ts";
import outputMinimizer from "../../../../packages/output-minimizer/src/index.ts";
import { SUITE_CONFIG, SUITE_MODELS } from "../../../demo/src/suite.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

const FILES: Record<string, string> = {
	"src/a.ts": "export const a = 1;\n".repeat(20),
	"src/b.ts": "export const b = 2;\n".repeat(20),
	"docs/notes.md": "# Notes\n\nretry budget\n",
};

/** `count` narrow, targeted calls: small reads, scoped searches and read-only shell, all floor-decided. */
export function overheadCalls(count: number): ScriptStep[] {
	const cycle: ScriptStep[] = [
		callTool("read", { path: "src/a.ts", offset: 1, limit: 10 }),
		callTool("grep", { pattern: "export", path: "src" }),
		callTool("bash", { command: "ls src" }),
		callTool("ls", { path: "src" }),
		callTool("read", { path: "docs/notes.md", limit: 5 }),
		callTool("bash", { command: "cat src/b.ts" }),
		callTool("find", { pattern: "*.ts", path: "src" }),
	];
	return Array.from({ length: count }, (_, i) => cycle[i % cycle.length] as ScriptStep);
}

/** Time one whole scripted session (startup excluded); returns milliseconds and how many calls ran. */
export async function timeSession(
	extensions: InlineExtension[],
	calls: number,
): Promise<{ ms: number; results: number }> {
	const harness = await createHarness({
		extensions,
		files: FILES,
		models: SUITE_MODELS,
		// The demo suite's configs: every extension enabled; each call below is one they inspect but let through.
		...(extensions.length > 0 ? { config: SUITE_CONFIG } : {}),
	});
	try {
		harness.script(...overheadCalls(calls), "done");
		const start = performance.now();
		await harness.prompt("Check the exports in src.");
		const ms = performance.now() - start;
		return { ms, results: harness.toolResults().filter((r) => !r.isError).length };
	} finally {
		await harness.dispose();
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Build the workload; tests use a small call count, `pnpm bench` the full one. */
export function hookOverheadWorkload(calls = 500, rounds = 3): BenchWorkload {
	return {
		id: "hook-overhead",
		title: `Hook overhead: ${calls} tool calls, no extensions vs all five loaded (guardian on its floor only)`,
		async run(): Promise<BenchResult> {
			const all: InlineExtension[] = [
				delegationPolicy,
				explorationGuard,
				outputMinimizer,
				contextShunt,
				guardianReview,
			];
			const none: number[] = [];
			const five: number[] = [];
			let allPassed = true;
			// Warm-up: module loading and JIT for both sides.
			await timeSession([], Math.min(calls, 50));
			await timeSession(all, Math.min(calls, 50));
			for (let round = 0; round < rounds; round++) {
				// Alternate which side goes first, so neither always pays for the other's garbage.
				const stockFirst = round % 2 === 0;
				const first = await timeSession(stockFirst ? [] : all, calls);
				const second = await timeSession(stockFirst ? all : [], calls);
				const [stock, loaded] = stockFirst ? [first, second] : [second, first];
				none.push(stock.ms);
				five.push(loaded.ms);
				allPassed &&= stock.results === calls && loaded.results === calls;
			}
			const ratio = median(five) / median(none);
			return {
				id: "hook-overhead",
				title: this.title,
				figures: [
					{ name: "tool calls per session", value: calls, unit: "count" },
					{ name: "rounds (interleaved)", value: rounds, unit: "count" },
					{ name: "session time ratio, all five / none (median)", value: ratio, unit: "ratio" },
					{ name: "per-call overhead ratio - 1", value: ratio - 1, unit: "percent" },
				],
				checks: [{ name: "every call ran in both configurations (none blocked)", passed: allPassed }],
			};
		},
	};
}

export default hookOverheadWorkload(500, 3);
