// The guardian floor replay's workspace per session (the repository root each agent system worked in), and its
// per-system figures, which must add up to the whole-corpus share the checks use.
import { describe, expect, it } from "vitest";
import type { AgentBashCommand } from "../src/corpora.ts";
import {
	reviewedCause,
	runFloorWorkload,
	sessionKey,
	sessionWorkspaces,
} from "../src/workloads/guardian-review-floor.ts";

function row(system: string, session: string, seq: number, command: string): AgentBashCommand {
	return { system, session, seq, command };
}

describe("sessionWorkspaces", () => {
	it("uses /testbed for the SWE-bench harnesses and the most named /code/<owner>/<repo> for vorflux, per system", () => {
		const rows = [
			row("mini-swe-agent", "django__django-1", 0, "ls -la"),
			row("live-swe-agent", "django__django-1", 0, "cd /testbed && grep -n x f"),
			row("vorflux", "django__django-1", 0, "ls /memory/knowledge"),
			row(
				"vorflux",
				"django__django-1",
				1,
				"if [ ! -d /code/django/django ]; then git clone x /code/django/django; fi",
			),
			row("vorflux", "django__django-1", 2, "cd /code/django/django && cat /code/other/repo/a.py"),
			row("vorflux", "astropy__astropy-2", 0, "ls /memory"),
		];
		const workspaces = sessionWorkspaces(rows);
		expect(workspaces.get(sessionKey(rows[0] as AgentBashCommand))).toBe("/testbed");
		expect(workspaces.get(sessionKey(rows[1] as AgentBashCommand))).toBe("/testbed");
		// The same session name in another system does not share its workspace.
		expect(workspaces.get(sessionKey(rows[2] as AgentBashCommand))).toBe("/code/django/django");
		// A session that names no repository gets none (the replay falls back to its default).
		expect(workspaces.has(sessionKey(rows[5] as AgentBashCommand))).toBe(false);
	});
});

describe("runFloorWorkload", () => {
	it("reports each agent system's share, and together they make the whole-corpus share", async () => {
		const result = await runFloorWorkload({ agreementSampleEvery: 1_000_000 });
		const figure = (name: string) => result.figures.find((entry) => entry.name === name)?.value;
		const total = figure("real agent bash commands replayed") as number;
		for (const config of ["default config", "trustedCommands = the runners"]) {
			const perSystem = result.figures.filter(
				(entry) => entry.name.startsWith("for information, ") && entry.name.endsWith(`floor decides (${config})`),
			);
			expect(perSystem.map((entry) => /^for information, ([a-z-]+) /.exec(entry.name)?.[1])).toEqual([
				"vorflux",
				"mini-swe-agent",
				"live-swe-agent",
			]);
			let decided = 0;
			let commands = 0;
			for (const entry of perSystem) {
				const count = Number(/\((\d+) commands\)/.exec(entry.name)?.[1]);
				commands += count;
				decided += entry.value * count;
			}
			expect(commands).toBe(total);
			const whole =
				config === "default config"
					? figure("floor decides, no model call (default config)")
					: figure("floor decides, no model call (trustedCommands = the projects' runners)");
			expect(decided / total).toBeCloseTo(whole as number, 9);
		}
		// The reviewed commands by cause and the decided ones make the whole corpus; the bound is decided + other.
		const decidedShare = figure("floor decides, no model call (default config)") as number;
		const outside = figure("reviewed because it reads or writes outside the repository (default config)") as number;
		const runs = figure(
			"reviewed because it runs code, installs packages or runs git that changes history (default config)",
		) as number;
		const other = figure("reviewed for another reason (default config)") as number;
		expect(decidedShare + outside + runs + other).toBeCloseTo(1, 9);
		expect(
			figure(
				"for information: the most the default floor could decide without allowing code, installs, such git or paths outside the repository",
			),
		).toBeCloseTo(decidedShare + other, 9);
	}, 120_000);
});

describe("reviewedCause", () => {
	it.each<[string, string, string]>([
		["cat /memory/notes.md", "outside-workspace", "outside"],
		["cd /code/a/b && python -c 'print(1)'", "not-read-only", "runs"],
		["python3.9 -m pip install x", "not-read-only", "runs"],
		["git add -A && git commit -m x", "not-read-only", "runs"],
		["sudo apt-get install -y x", "not-read-only", "runs"],
		["./tests/runtests.py expressions", "not-read-only", "runs"],
		["source venv/bin/activate && pytest", "dynamic", "runs"],
		["rm -r build", "not-read-only", "other"],
		["grep -R x -n || true", "protected-path", "other"],
		["perl -0777 -pe 's/x/y/", "unparsed", "other"],
	])("%j (%s) is %s", (command, reason, expected) => {
		expect(reviewedCause(command, reason)).toBe(expected);
	});
});
