// Read-only git forms a ninth review used to print a protected file past the history listing, each in a real Pi
// session over real git: `git status -v` after `git add -A`, another worktree's index (`--indexed-objects`), and
// a merge's autostash, which git keeps in a file of its own folder (`MERGE_AUTOSTASH`) that no ref reaches.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deniedBashCall, guardianSandboxPerTest, runGit, startInGitRepo } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

function git(cwd: string, ...args: string[]): void {
	runGit(sandbox.home, cwd, ...args);
}

describe("read-only git forms a ninth review found", () => {
	it("reviews `git status -v` after the command stages an untracked .env", async () => {
		const h = await startInGitRepo(sandbox);
		writeFileSync(join(h.cwd, ".env"), "STATUS_V_SECRET_9\n");
		const { sources, shown } = await deniedBashCall(h, "git add -A && git status -v");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("STATUS_V_SECRET_9");
	});

	it("reviews `git show --indexed-objects`, which prints what another worktree has staged", async () => {
		const h = await startInGitRepo(sandbox);
		const other = `${h.cwd}-wt`;
		git(h.cwd, "worktree", "add", "-q", other);
		writeFileSync(join(other, ".env"), "WORKTREE_INDEX_SECRET_9\n");
		git(other, "add", ".env");
		const { sources, shown } = await deniedBashCall(h, "git show --indexed-objects");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("WORKTREE_INDEX_SECRET_9");
	});

	it("reviews a merge's autostash named as a file of git's folder", async () => {
		const h = await startInGitRepo(sandbox);
		writeFileSync(join(h.cwd, "f"), "base\n");
		git(h.cwd, "add", "f");
		git(h.cwd, "commit", "-qm", "base");
		git(h.cwd, "checkout", "-qb", "other");
		writeFileSync(join(h.cwd, "f"), "other\n");
		git(h.cwd, "commit", "-qam", "other");
		git(h.cwd, "checkout", "-q", "-");
		writeFileSync(join(h.cwd, "f"), "mine\n");
		git(h.cwd, "commit", "-qam", "mine");
		writeFileSync(join(h.cwd, ".env"), "AUTOSTASH_SECRET_9\n");
		git(h.cwd, "add", ".env");
		// The merge conflicts: git keeps the stash only in .git/MERGE_AUTOSTASH, and .env leaves index and worktree.
		expect(() => git(h.cwd, "merge", "--autostash", "other")).toThrow();
		const kept = execFileSync("git", ["stash", "show", "-p", "MERGE_AUTOSTASH"], {
			cwd: h.cwd,
			env: { ...process.env, HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
			encoding: "utf8",
		});
		expect(kept).toContain("AUTOSTASH_SECRET_9");
		const { sources, shown } = await deniedBashCall(h, "git stash show -p MERGE_AUTOSTASH");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("AUTOSTASH_SECRET_9");
	});
});
