// A thirty-eighth review: writes the floor allowed that arm the user's other tools. With husky (`core.hooksPath`
// at `.husky/_`), a hook written there ran at the user's next `git commit`; lefthook's and pre-commit's configs did
// the same. Real Pi sessions (faux agent and reviewer; real git), default config: each such write is reviewed, and
// the reviewer's denial leaves no hook behind.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials, runGit, startInGitRepo } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-armed-home-" });

describe("configs that arm another tool's command", () => {
	it("reviews hook and hook-runner writes by Pi's tools and bash, and allows an ordinary file", async () => {
		const h = await startInGitRepo(sandbox);
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", ".husky/_");
		const hook = "#!/bin/sh\nid > /tmp/armed-marker\n";
		h.agent(
			callTool("write", { path: ".husky/_/pre-commit", content: hook }),
			callTool("bash", { command: `cat > lefthook.yml <<'EOF'\npre-commit:\n  commands:\n    x:\n      run: id\nEOF` }),
			"next",
			callTool("write", { path: ".pre-commit-config.yaml", content: "repos: []\n" }),
			callTool("write", { path: ".claude/settings.json", content: '{ "hooks": {} }\n' }),
			"next",
			callTool("write", { path: "notes.md", content: "plain\n" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 4, "arm the hooks", "and the configs", "then write notes");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "floor"]);
		expect(existsSync(join(h.cwd, ".husky", "_", "pre-commit"))).toBe(false);
		expect(existsSync(join(h.cwd, "lefthook.yml"))).toBe(false);
		expect(existsSync(join(h.cwd, "notes.md"))).toBe(true);
	});
});
