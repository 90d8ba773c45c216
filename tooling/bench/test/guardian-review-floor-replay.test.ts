// The guardian floor replay's workspace per session: the repository root each agent system worked in.
import { describe, expect, it } from "vitest";
import type { AgentBashCommand } from "../src/corpora.ts";
import { sessionKey, sessionWorkspaces } from "../src/workloads/guardian-review-floor.ts";

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
