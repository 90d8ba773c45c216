// guardian-review's `tool_call` hook where it reads the most: a git repository, bash calls that write ten folders below
// its top, then read, then run `git status`. After every call that may write, the shell reads the repository's facts
// again (the armed paths for every bash call, the config facts for git), so this is the per-call cost a user pays in
// an ordinary coding session. Each call kind runs in a session of its own, every call decided on the floor (a
// reviewer call here would be a bug: the check below fails), and the hook is timed until its promise settles.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness, type ScriptStep } from "@pi-policy/pi-harness";
import { createGuardianReview } from "../../../../packages/guardian-review/src/index.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";
import { type HandlerProfile, profiledExtension } from "./hook-overhead.ts";

/** Ten folders below the repository's top, where every call below writes or reads. */
const DEEP = "a/b/c/d/e/f/g/h/i/j";

/** The call kinds timed, each as one bash command; every one is decided on the floor. */
const CALL_KINDS: ReadonlyArray<{ name: string; command: (i: number) => string }> = [
	{ name: "bash write ten folders down", command: (i) => `printf '%s\\n' ${i} > ${DEEP}/out.txt` },
	{ name: "bash write, then a read", command: (i) => (i % 2 === 0 ? `printf x > ${DEEP}/n.txt` : `cat ${DEEP}/n.txt`) },
	{ name: "bash write, then git status", command: (i) => (i % 2 === 0 ? `printf x > ${DEEP}/s.txt` : "git status") },
];

/** One session of `calls` bash calls of one kind; answers guardian's mean `tool_call` time and its verdict sources. */
async function timeCallKind(
	kind: (typeof CALL_KINDS)[number],
	calls: number,
): Promise<{ microseconds: number; sources: Map<string, number> }> {
	const home = mkdtempSync(join(tmpdir(), "guardian-hook-bench-home-"));
	const profile = new Map<string, HandlerProfile>();
	const sources = new Map<string, number>();
	const listener: InlineExtension = (pi) => {
		pi.events.on("pi-policy:verdict", (payload) => {
			const source = (payload as { source: string }).source;
			sources.set(source, (sources.get(source) ?? 0) + 1);
		});
	};
	const script: ScriptStep[] = Array.from({ length: calls }, (_, i) => callTool("bash", { command: kind.command(i) }));
	const harness = await createHarness({
		extensions: [listener, profiledExtension("guardian-review", createGuardianReview({ home }), profile)],
		files: { [`${DEEP}/README.md`]: "# deep\n" },
		config: { "guardian-review": { mode: "enforce", reviewer: { fallbackToSessionModel: false } } },
		env: { HOME: home },
		ui: false,
	});
	try {
		const git = (...args: string[]) =>
			execFileSync("git", args, { cwd: harness.cwd, env: { ...process.env, HOME: home } });
		git("init", "-q");
		git("add", "-A");
		git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "init");
		harness.script(...script, "done");
		await harness.prompt("Work in the deep folder.");
		const hook = profile.get("guardian-review tool_call");
		return { microseconds: hook === undefined ? 0 : (hook.totalMs * 1000) / Math.max(1, hook.calls), sources };
	} finally {
		await harness.dispose();
		rmSync(home, { recursive: true, force: true });
	}
}

/** Build the workload; tests use a small call count. */
export function guardianGitHookWorkload(calls = 200): BenchWorkload {
	return {
		id: "hook-overhead-guardian-git",
		title: `guardian-review's tool_call hook in a git repository: ${calls} bash calls per kind, writing ten folders down`,
		async run(): Promise<BenchResult> {
			const figures: BenchResult["figures"] = [{ name: "bash calls per kind", value: calls, unit: "count" }];
			let allOnFloor = true;
			for (const kind of CALL_KINDS) {
				const { microseconds, sources } = await timeCallKind(kind, calls);
				figures.push({
					name: `µs per tool_call hook, ${kind.name} (mean)`,
					value: Math.round(microseconds),
					unit: "count",
				});
				allOnFloor &&= sources.get("floor") === calls && sources.size === 1;
			}
			return {
				id: "hook-overhead-guardian-git",
				title: this.title,
				figures,
				checks: [{ name: "every timed call decided on the floor (no reviewer call)", passed: allOnFloor }],
			};
		},
	};
}

export default guardianGitHookWorkload();
