// Hook overhead: the same scripted session of 500 cheap tool calls in a real Pi session with no extensions, with
// each extension alone and with all five (guardian decides on its floor only), timed side by side in rotated
// rounds; checks the 1.05x bound; and a profile of every hot-path handler (tool_call, tool_result, context,
// before_provider_request) from one more session with all five.
import { execFile } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ExtensionFactory, InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness, type ScriptStep } from "@pi-policy/pi-harness";
import contextShunt from "../../../../packages/context-shunt/src/index.ts";
import delegationPolicy from "../../../../packages/delegation-policy/src/index.ts";
import explorationGuard from "../../../../packages/exploration-guard/src/index.ts";
import guardianReview from "../../../../packages/guardian-review/src/index.ts";
import outputMinimizer from "../../../../packages/output-minimizer/src/index.ts";
import { SUITE_CONFIG, SUITE_MODELS, type SuiteExtension } from "../../../demo/src/suite.ts";
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

/** The hot-path events whose handlers the profile times. */
export const HOT_EVENTS = [
	"tool_call",
	"tool_result",
	"context",
	"context_with_system",
	"before_provider_request",
] as const;

/** Time spent in one extension's handlers of one event, over one session. */
export interface HandlerProfile {
	extension: string;
	event: string;
	calls: number;
	totalMs: number;
}

/**
 * Wraps an extension so every handler it registers for a hot-path event is timed (until its promise settles).
 * Everything else it does with `pi` passes through unchanged.
 */
export function profiledExtension(
	name: string,
	extension: InlineExtension,
	profile: Map<string, HandlerProfile>,
): InlineExtension {
	const factory: ExtensionFactory = typeof extension === "function" ? extension : extension.factory;
	const hot = new Set<string>(HOT_EVENTS);
	const record = (event: string, started: number) => {
		const key = `${name} ${event}`;
		const entry = profile.get(key) ?? { extension: name, event, calls: 0, totalMs: 0 };
		entry.calls += 1;
		entry.totalMs += performance.now() - started;
		profile.set(key, entry);
	};
	const wrapped: ExtensionFactory = (pi) => {
		const on = (event: string, handler: (...args: unknown[]) => unknown) => {
			if (!hot.has(event)) return (pi.on as (e: string, h: unknown) => void)(event, handler);
			const timed = (...args: unknown[]) => {
				const started = performance.now();
				let result: unknown;
				try {
					result = handler(...args);
				} catch (error) {
					record(event, started);
					throw error;
				}
				if (result instanceof Promise) return result.finally(() => record(event, started));
				record(event, started);
				return result;
			};
			return (pi.on as (e: string, h: unknown) => void)(event, timed);
		};
		const proxy = new Proxy(pi, {
			get(target, property) {
				if (property === "on") return on;
				const value = Reflect.get(target, property, target) as unknown;
				return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
			},
		});
		return factory(proxy);
	};
	return typeof extension === "function" ? wrapped : { ...extension, factory: wrapped };
}

/** The five extensions by package folder, in the demo suite's load order. */
export const SUITE_EXTENSION_FACTORIES: ReadonlyArray<readonly [SuiteExtension, InlineExtension]> = [
	["delegation-policy", delegationPolicy],
	["exploration-guard", explorationGuard],
	["output-minimizer", outputMinimizer],
	["context-shunt", contextShunt],
	["guardian-review", guardianReview],
];

/** The bound the suite promises: all five loaded cost at most 5% more session time than none. */
export const OVERHEAD_BOUND = 1.05;

/**
 * Times one session of a side in a fresh Node process (src/hook-overhead-session.ts), so no session inherits another's
 * heap, listeners or caches. The child warms up first and collects garbage before the timed session.
 */
export async function timeSessionInProcess(
	side: string,
	calls: number,
): Promise<{ ms: number; results: number; cpuMs: number }> {
	const script = fileURLToPath(new URL("../hook-overhead-session.ts", import.meta.url));
	const { stdout } = await promisify(execFile)(
		process.execPath,
		["--expose-gc", "--import", import.meta.resolve("tsx"), script, side, String(calls)],
		{ maxBuffer: 1024 * 1024 },
	);
	const line = stdout.trim().split("\n").at(-1) ?? "";
	const parsed = JSON.parse(line) as { ms: number; results: number; cpuMs: number };
	return { ms: parsed.ms, results: parsed.results, cpuMs: parsed.cpuMs };
}

/** How the workload runs each timed session: in a process of its own (`pnpm bench`), or in this one (tests). */
export type SessionIsolation = "process" | "in-process";

/** Build the workload; tests use a small call count, `pnpm bench` the full one. */
export function hookOverheadWorkload(calls = 500, rounds = 7, isolation: SessionIsolation = "process"): BenchWorkload {
	return {
		id: "hook-overhead",
		title: `Hook overhead: ${calls} tool calls, no extensions vs each extension alone vs all five (guardian on its floor only)`,
		async run(): Promise<BenchResult> {
			const sides: Array<{ name: string; extensions: InlineExtension[] }> = [
				{ name: "none", extensions: [] },
				// The same empty side again: its ratio to "none" is the run's noise floor, shown beside the others.
				{ name: "none again", extensions: [] },
				...SUITE_EXTENSION_FACTORIES.map(([name, extension]) => ({ name, extensions: [extension] })),
				{ name: "all five", extensions: SUITE_EXTENSION_FACTORIES.map(([, extension]) => extension) },
			];
			const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
			/** The child's own CPU time per session (process isolation only): steadier than wall time on a busy host. */
			const cpuTimes = new Map<string, number[]>(sides.map((side) => [side.name, []]));
			let allPassed = true;
			// In-process runs warm every side up first (module loading and JIT); a child process warms itself up.
			if (isolation === "in-process") {
				for (const side of sides) await timeSession(side.extensions, Math.min(calls, 50));
			}
			for (let round = 0; round < rounds; round++) {
				// Rotate the order each round, so no side always runs right after the same other.
				const order = sides.map((_, i) => sides[(i + round) % sides.length] as (typeof sides)[number]);
				process.stderr.write(`  hook-overhead: round ${round + 1} of ${rounds}\n`);
				for (const side of order) {
					const run: { ms: number; results: number; cpuMs?: number } =
						isolation === "process"
							? await timeSessionInProcess(side.name, calls)
							: await timeSession(side.extensions, calls);
					times.get(side.name)?.push(run.ms);
					if (run.cpuMs !== undefined) cpuTimes.get(side.name)?.push(run.cpuMs);
					allPassed &&= run.results === calls;
				}
			}
			// The baseline pools both empty sides (twice the samples); the noise floor compares them with each other.
			const pooled = (series: Map<string, number[]>) => [
				...(series.get("none") ?? []),
				...(series.get("none again") ?? []),
			];
			const baseline = median(pooled(times));
			const ratio = (name: string) => median(times.get(name) ?? []) / baseline;
			const noiseFloor = median(times.get("none again") ?? []) / median(times.get("none") ?? []);
			const cpuBaseline = median(pooled(cpuTimes));
			const cpuRatio = (name: string) => median(cpuTimes.get(name) ?? []) / cpuBaseline;
			// The profile: one more session with all five, each hot-path handler timed.
			const profile = new Map<string, HandlerProfile>();
			await timeSession(
				SUITE_EXTENSION_FACTORIES.map(([name, extension]) => profiledExtension(name, extension, profile)),
				calls,
			);
			const profileFigures = [...profile.values()]
				.sort((a, b) => b.totalMs - a.totalMs)
				.map((entry) => ({
					name: `profile: ${entry.extension} ${entry.event}, µs per call (${entry.calls} calls)`,
					value: Math.round((entry.totalMs * 1000) / Math.max(1, entry.calls)),
					unit: "count" as const,
				}));
			const handlerMs = [...profile.values()].reduce((sum, entry) => sum + entry.totalMs, 0);
			const allFive = ratio("all five");
			return {
				id: "hook-overhead",
				title: this.title,
				figures: [
					{ name: "tool calls per session", value: calls, unit: "count" },
					{ name: "rounds (order rotated)", value: rounds, unit: "count" },
					{
						name: isolation === "process" ? "each timed session in a fresh process" : "timed sessions in one process",
						value: rounds * sides.length,
						unit: "count",
					},
					{ name: "session time, none (median of both empty sides, ms)", value: Math.round(baseline), unit: "count" },
					{ name: "noise floor: none again / none (median)", value: noiseFloor, unit: "ratio" },
					...SUITE_EXTENSION_FACTORIES.map(([name]) => ({
						name: `session time ratio, ${name} alone / none (median)`,
						value: ratio(name),
						unit: "ratio" as const,
					})),
					{ name: "session time ratio, all five / none (median)", value: allFive, unit: "ratio" },
					{ name: "overhead, all five (ratio - 1)", value: allFive - 1, unit: "percent" },
					...(isolation === "process"
						? [
								...SUITE_EXTENSION_FACTORIES.map(([name]) => ({
									name: `for information: session CPU time ratio, ${name} alone / none (median)`,
									value: cpuRatio(name),
									unit: "ratio" as const,
								})),
								{
									name: "for information: session CPU time ratio, all five / none (median)",
									value: cpuRatio("all five"),
									unit: "ratio" as const,
								},
							]
						: []),
					{
						name: "hot-path handler time, all five, µs per tool call",
						value: Math.round((handlerMs * 1000) / Math.max(1, calls)),
						unit: "count",
					},
					...profileFigures,
				],
				checks: [
					{ name: "every call ran in every configuration (none blocked)", passed: allPassed },
					{ name: `all five / none <= ${OVERHEAD_BOUND}`, passed: allFive <= OVERHEAD_BOUND },
				],
			};
		},
	};
}

export default hookOverheadWorkload(500, 7, "process");
