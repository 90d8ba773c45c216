// Seventy-eighth review (facts): readGitArmedPaths after the seventy-seventh review's walk changes.
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";
import { addSubmodule, libraryAndSuperprojectWithScript } from "./submodule-hook-sandbox.ts";

const sandbox = guardianSandboxPerTest();
const env = () => ({ HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" });
const gitOut = (cwd: string, ...args: string[]) =>
	execFileSync("git", args, {
		cwd,
		env: {
			...process.env,
			...env(),
			GIT_AUTHOR_NAME: "t",
			GIT_AUTHOR_EMAIL: "t@e.invalid",
			GIT_COMMITTER_NAME: "t",
			GIT_COMMITTER_EMAIL: "t@e.invalid",
		},
	})
		.toString()
		.trim();

function submoduleWithGitFolderInside(repo: string): string {
	const src = libraryAndSuperprojectWithScript(sandbox.home, repo, "scripts/pre-commit");
	runGit(sandbox.home, repo, "clone", "-q", src, "sub");
	addSubmodule(sandbox.home, repo, src, "sub");
	symlinkSync("../../../scripts/pre-commit", join(repo, "sub/.git/hooks/pre-commit"));
	return join(repo, "sub");
}

describe("CRLF .gitmodules", () => {
	it("facts (git): git reads submodule.sub.path from a CRLF .gitmodules", () => {
		const repo = join(sandbox.home, "repo");
		submoduleWithGitFolderInside(repo);
		const text = readFileSync(join(repo, ".gitmodules"), "utf8").replace(/\n/g, "\r\n");
		writeFileSync(join(repo, ".gitmodules"), text);
		expect(gitOut(repo, "config", "-f", ".gitmodules", "submodule.sub.path")).toBe("sub");
		expect(gitOut(repo, "submodule", "status")).toMatch(/ sub( |$)/);
	});
	it("bypass (facts): with a CRLF .gitmodules readGitArmedPaths leaves out scripts/pre-commit", () => {
		const repo = join(sandbox.home, "repo");
		submoduleWithGitFolderInside(repo);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "scripts/pre-commit"));
		const text = readFileSync(join(repo, ".gitmodules"), "utf8").replace(/\n/g, "\r\n");
		writeFileSync(join(repo, ".gitmodules"), text);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "scripts/pre-commit"));
	});
});

describe("submodule.<name>.path in .git/config", () => {
	it("facts (git): git ignores submodule.sub.path in .git/config (no gap there)", () => {
		const repo = join(sandbox.home, "repo");
		submoduleWithGitFolderInside(repo);
		runGit(sandbox.home, repo, "config", "submodule.sub.path", "other");
		expect(gitOut(repo, "submodule", "foreach", "-q", "pwd")).toBe(join(repo, "sub"));
	});
});

describe("ordinary layouts", () => {
	it("control (facts): workspace = linked worktree at repo/.worktrees/feat", () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n", ".gitignore": ".worktrees/\n" });
		runGit(sandbox.home, repo, "worktree", "add", "-q", ".worktrees/feat", "-b", "feat");
		expect(readGitArmedPaths(join(repo, ".worktrees/feat"), sandbox.home)).not.toBe("unknown");
	});
	it("control (facts): ~ is a dotfiles repo with a submodule and a worktree; workspace ~/code/proj", () => {
		const home = sandbox.home;
		const src = join(home, "omz-src");
		initWithFiles(home, src, { "x.sh": "x\n" });
		initWithFiles(home, home, { ".bashrc": "x\n" });
		runGit(home, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, ".oh-my-zsh");
		runGit(home, home, "commit", "-qm", "omz");
		runGit(home, home, "worktree", "add", "-q", join(home, "dotfiles-wt"), "-b", "wt");
		const proj = join(home, "code/proj");
		initWithFiles(home, proj, { "README.md": "hello\n" });
		expect(readGitArmedPaths(proj, home)).not.toBe("unknown");
	});
});
