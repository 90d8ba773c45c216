// Eighty-second review (session): attacks on the newest armed-path code (repositoryAt, the nested loop's family
// skip, the embedded read's ENOENT rule). Each test failed before its fix: Pi's write stayed on the floor and the
// user's next ordinary git ran it. Now it is reviewed (the reviewer denies) and nothing runs.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";
import { executable, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env, fsmonitorConfig, callThenUserCommit } = submoduleHookSandbox();

/** git as the user runs it; a failure after the hooks ran is the user's problem, not the test's. */
function userGit(cwd: string, ...args: string[]): void {
	try {
		runGit(sandbox.home, cwd, ...args);
	} catch {
		// e.g. a commit that cannot write its objects after pre-commit ran
	}
}

/** The nested clone `lib` in the workspace: its git folder moved to `lib.git ` (a trailing blank), named by a `.git` file. */
function cloneWithBlankGitdir(ws: string): string {
	const lib = join(ws, "lib");
	initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
	renameSync(join(lib, ".git"), join(ws, "lib.git "));
	// git keeps the blank (read_gitfile_gently trims only line ends): the folder `lib.git ` is lib's git folder.
	writeFileSync(join(lib, ".git"), "gitdir: ../lib.git \n");
	return lib;
}

describe("repositoryAt: a nested .git that git takes but the reader cannot judge armed nothing", () => {
	it("was a bypass (session): a nested clone whose `.git` file reads `gitdir: ../lib.git ` (trailing blank) and core.hooksPath ../tools/hooks: Pi's write of tools/hooks/pre-commit is allowed; the user's commit in lib runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": "lib*\n" });
		const lib = cloneWithBlankGitdir(h.cwd);
		runGit(sandbox.home, lib, "config", "core.hooksPath", "../tools/hooks");
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		const outcome = await callThenUserCommit(
			h,
			callTool("write", { path: "tools/hooks/pre-commit", content: hook() }),
			lib,
		);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("was a bypass (session): the same `.git` form on a repository embedded with `git add lib` (include.path = the workspace's config/lib.gitconfig): Pi's write is allowed; the user's `git status` at the top runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, {
			"README.md": "x\n",
			".gitignore": "lib.git*\n",
			"config/lib.gitconfig": "[core]\n\tautocrlf = input\n",
		});
		const lib = cloneWithBlankGitdir(h.cwd);
		runGit(sandbox.home, lib, "config", "include.path", join(h.cwd, "config/lib.gitconfig"));
		runGit(sandbox.home, h.cwd, "add", "lib");
		runGit(sandbox.home, h.cwd, "commit", "-qm", "embed lib");
		h.agent(callTool("write", { path: "config/lib.gitconfig", content: fsmonitorConfig() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("tidy the git config");
		userGit(h.cwd, "status", "--short");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("was a bypass (session): a nested clone whose `.git/objects` is an executable file (git's is_git_directory tests access(X_OK), not a folder): Pi's write is allowed; the user's commit in lib runs the hook", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": "lib/\n" });
		const lib = join(h.cwd, "lib");
		mkdirSync(lib);
		runGit(sandbox.home, lib, "init", "-q");
		runGit(sandbox.home, lib, "config", "core.hooksPath", "../tools/hooks");
		rmSync(join(lib, ".git/objects"), { recursive: true });
		writeFileSync(join(lib, ".git/objects"), "");
		chmodSync(join(lib, ".git/objects"), 0o755);
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("update the hook");
		userGit(lib, "commit", "-q", "--allow-empty", "-m", "the user's commit");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("the embedded read (readEmbeddedRepositoriesArmedPaths)", () => {
	it("was a bypass (session): a linked worktree whose folder the user deleted (`rm -rf ../wt-old`, no `git worktree prune`) makes `git ls-files` there fail with ENOENT (no such cwd), taken as 'git not installed': every embedded repository's paths are dropped; a clone embedded five folders down includes config/lib.gitconfig: Pi's write is allowed; the user's `git status` runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const lib = join(h.cwd, "packages/web/vendor/github.com/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(h.cwd, "config/lib.gitconfig"));
		runGit(sandbox.home, h.cwd, "add", "packages/web/vendor/github.com/lib");
		runGit(sandbox.home, h.cwd, "commit", "-qm", "embed lib");
		const old = join(sandbox.home, "wt-old");
		runGit(sandbox.home, h.cwd, "worktree", "add", "-q", old, "-b", "old");
		rmSync(old, { recursive: true, force: true });
		h.agent(callTool("write", { path: "config/lib.gitconfig", content: fsmonitorConfig() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("tidy the git config");
		userGit(h.cwd, "status", "--short");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("the nested loop skips git folders under the workspace's common folder", () => {
	it("was a bypass (session): a linked worktree moved with plain `mv` (wt -> trees/wt2; its gitdir file still names wt) with config.worktree core.hooksPath ../hooks-shared: Pi's write of trees/hooks-shared/pre-commit is allowed; the user's commit in trees/wt2 runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": "wt/\ntrees/\n" });
		const wt = join(h.cwd, "wt");
		runGit(sandbox.home, h.cwd, "worktree", "add", "-q", wt, "-b", "feat");
		runGit(sandbox.home, h.cwd, "config", "extensions.worktreeConfig", "true");
		runGit(sandbox.home, wt, "config", "--worktree", "core.hooksPath", "../hooks-shared");
		mkdirSync(join(h.cwd, "trees"));
		const moved = join(h.cwd, "trees/wt2");
		renameSync(wt, moved);
		// git in trees/wt2 still finds its git folder (the `.git` file is absolute) and runs hooks from trees/hooks-shared.
		expect(
			execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: moved, env: { ...process.env, ...env() } })
				.toString()
				.trim(),
		).toBe(moved);
		executable(join(h.cwd, "trees/hooks-shared/pre-commit"));
		const outcome = await callThenUserCommit(
			h,
			callTool("write", { path: "trees/hooks-shared/pre-commit", content: hook() }),
			moved,
		);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("repositories git runs hooks of that the nested loop did not read", () => {
	it("was a bypass (session): a clone whose `.git` file names a folder under the workspace's .git that is no family folder (.git/vendor/z) with core.hooksPath ../tools/hooks: Pi's write is allowed; the user's commit in z runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": "z/\n" });
		const z = join(h.cwd, "z");
		initWithFiles(sandbox.home, z, { "z.txt": "x\n" });
		mkdirSync(join(h.cwd, ".git/vendor"));
		renameSync(join(z, ".git"), join(h.cwd, ".git/vendor/z"));
		writeFileSync(join(z, ".git"), `gitdir: ${join(h.cwd, ".git/vendor/z")}\n`);
		runGit(sandbox.home, z, "config", "core.hooksPath", "../tools/hooks");
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		const outcome = await callThenUserCommit(
			h,
			callTool("write", { path: "tools/hooks/pre-commit", content: hook() }),
			z,
		);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("was a bypass (session): a bare repository in the workspace (remote.git, the local push target) whose core.hooksPath names the workspace's tools/hooks (no `.git` entry, so the nested finder never lists it): Pi's write of tools/hooks/pre-receive is allowed; the user's `git push` runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": "remote.git/\n" });
		const remote = join(h.cwd, "remote.git");
		runGit(sandbox.home, h.cwd, "init", "-q", "--bare", remote);
		runGit(sandbox.home, remote, "config", "core.hooksPath", join(h.cwd, "tools/hooks"));
		runGit(sandbox.home, h.cwd, "remote", "add", "origin", remote);
		executable(join(h.cwd, "tools/hooks/pre-receive"));
		h.agent(callTool("write", { path: "tools/hooks/pre-receive", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("update the hook");
		userGit(h.cwd, "push", "-q", "origin", "HEAD:main");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});
