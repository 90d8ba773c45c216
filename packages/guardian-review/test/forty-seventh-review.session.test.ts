// A forty-seventh review, in a real Pi session (faux agent and reviewer; real git and bash): git started in the
// background outlives its own call, so the facts it was judged on can change before it runs. A project ships
// `fixture/HEAD` (a test fixture: not a git folder without `objects/` and `refs/`); the agent writes `fixture/config`
// with a `diff.external` program, starts `git diff` there in the background after a pause, and then makes the two
// folders: git, running late, took `fixture` for a bare repository and ran the program. The background git is now
// reviewed; in the foreground the same git is judged on fresh facts, as before.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials, startInGitRepo } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review47-home-" });

describe("git in the background", () => {
	it("reviews a background git whose folder a later call may turn into a git folder; no program runs", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, "fixture"));
		writeFileSync(join(h.cwd, "fixture", "HEAD"), "ref: refs/heads/main\n");
		writeFileSync(join(h.cwd, "a.txt"), "a\n");
		writeFileSync(join(h.cwd, "b.txt"), "b\n");
		const marker = join(sandbox.home, "ran");
		const gitDiff = "cd fixture && git diff --no-index ../a.txt ../b.txt";
		h.agent(
			callTool("bash", { command: `printf '[diff]\\n\\texternal = "touch ${marker}; false"\\n' > fixture/config` }),
			callTool("bash", { command: `(sleep 1; ${gitDiff}) >/dev/null 2>&1 &` }),
			callTool("bash", { command: "mkdir -p fixture/objects fixture/refs" }),
			// In the foreground, after the folders exist: fresh facts see a git folder with a program.
			callTool("bash", { command: gitDiff }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "Compare the two files.")).toEqual([
			"floor",
			"reviewer",
			"floor",
			"reviewer",
		]);
		// Waited past the background git's pause: nothing ran it.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(existsSync(marker)).toBe(false);
	});
});
