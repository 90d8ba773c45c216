// Seventy-eighth review: the folder cap once a linked worktree initialises its submodules (the false review failed
// before the cap was raised and the family walk stopped listing the shared `modules/` once per worktree). The
// review's timing of readGitArmedPaths with 200 submodules and 20 worktrees was a one-off measurement, not a test:
// tests never assert wall-clock times.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

function superproject(repo: string, submodules: number): void {
	const src = join(sandbox.home, "libsrc");
	initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
	initWithFiles(sandbox.home, repo, { "README.md": "hello\n", "app/main.ts": "x\n" });
	for (let i = 0; i < submodules; i++)
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, `libs/l${i}`);
	runGit(sandbox.home, repo, "commit", "-qm", "subs");
}

describe("a large superproject (seventy-eighth review)", () => {
	it("false review (facts): 130 submodules, initialised in the main worktree and in one linked worktree, leave the armed paths known", () => {
		const repo = join(sandbox.home, "mono");
		superproject(repo, 130);
		expect(readGitArmedPaths(repo, sandbox.home)).not.toBe("unknown");
		const wt = join(sandbox.home, "wt-feature");
		runGit(sandbox.home, repo, "worktree", "add", "-q", wt, "-b", "feature");
		runGit(sandbox.home, wt, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init");
		const armed = readGitArmedPaths(repo, sandbox.home);
		expect(armed).not.toBe("unknown");
	}, 600_000);
});
