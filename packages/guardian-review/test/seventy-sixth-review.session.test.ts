// Seventy-sixth review: the seventy-fifth review's walk of other git folders (linked worktrees, submodule git folders).
// Each "bypass" and "false review" test failed before its fix; each "facts" test (unless marked bypass or false
// review) and each "control" passed then too, and shows what git itself does or that ordinary work stays on the floor.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import {
	callTool,
	expectNotesOnFloorAndWriteReviewed,
	initWithFiles,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";
import { addSubmodule, libraryAndSuperprojectWithScript, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const {
	sandbox,
	hook,
	env,
	superprojectWithSubmodule,
	hooksPathIntoWorkspaceTools,
	callThenUserCommit,
	expectToolsHookWriteReviewed,
} = submoduleHookSandbox();

/** `git worktree add` of `repo` at `wt`, then `git submodule update --init` there: sub's git folder is `.git/worktrees/<wt>/modules/sub`. */
function linkedWorktreeWithSubmodule(repo: string, wt: string): string {
	runGit(sandbox.home, repo, "worktree", "add", "-q", "--force", wt);
	runGit(sandbox.home, wt, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init");
	return join(wt, "sub");
}

describe("a linked worktree's own submodule git folders (`.git/worktrees/<name>/modules/`) are not walked", () => {
	it("facts: git keeps the submodule's git folder of a linked worktree under .git/worktrees/wt/modules/sub", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const sub = linkedWorktreeWithSubmodule(repo, join(sandbox.home, "wt"));
		const gitDir = execFileSync("git", ["rev-parse", "--absolute-git-dir"], {
			cwd: sub,
			env: { ...process.env, ...env() },
		})
			.toString()
			.trim();
		expect(gitDir).toBe(join(repo, ".git/worktrees/wt/modules/sub"));
	});

	it("bypass (facts): workspace = main worktree; ~/wt/sub's config (in .git/worktrees/wt/modules/sub) names <ws>/tools/hooks; readGitArmedPaths leaves it out", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const sub = linkedWorktreeWithSubmodule(repo, join(sandbox.home, "wt"));
		runGit(sandbox.home, sub, "config", "core.hooksPath", join(repo, "tools/hooks"));
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});

	it("bypass (session): workspace = main worktree; the linked worktree ~/wt's submodule sets core.hooksPath <ws>/tools/hooks; Pi's write of tools/hooks/pre-commit is allowed on the floor; the user's next commit in ~/wt/sub runs it", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithSubmodule(h.cwd);
		mkdirSync(join(h.cwd, "tools/hooks"), { recursive: true });
		writeFileSync(join(h.cwd, "tools/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
		const sub = linkedWorktreeWithSubmodule(h.cwd, join(sandbox.home, "wt"));
		runGit(sandbox.home, sub, "config", "core.hooksPath", join(h.cwd, "tools/hooks"));
		const outcome = await callThenUserCommit(
			h,
			callTool("write", { path: "tools/hooks/pre-commit", content: hook() }),
			sub,
		);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("bypass (session): workspace = a linked worktree of ~/main-repo; its own submodule's git folder (.git/worktrees/<ws>/modules/sub) names <ws>/tools/hooks; bash `cat > tools/hooks/pre-commit` is allowed on the floor; the user's next commit in <ws>/sub runs it", async () => {
		const h = await sandbox.start({ env: env() });
		const main = join(sandbox.home, "main-repo");
		superprojectWithSubmodule(main);
		const sub = linkedWorktreeWithSubmodule(main, h.cwd);
		hooksPathIntoWorkspaceTools(h.cwd, sub);
		await expectToolsHookWriteReviewed(h, sub);
	});
});

describe("a bare repository with worktrees (`git clone --bare`, then `git worktree add`)", () => {
	it("false review (session): workspace = a worktree of ~/proj.git with husky's `core.hooksPath = .husky/_` in the shared config; Pi's write of notes.md is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "README.md": "hello\n" });
		const bare = join(sandbox.home, "proj.git");
		runGit(sandbox.home, sandbox.home, "clone", "-q", "--bare", src, bare);
		runGit(sandbox.home, bare, "worktree", "add", "-q", "--force", h.cwd);
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", ".husky/_");
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});

	it("false review (facts): readGitArmedPaths in the worktree is unknown: the bare common folder is taken as a main worktree with no top, and the shared relative `.husky/_` cannot be placed there", () => {
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "README.md": "hello\n" });
		const bare = join(sandbox.home, "proj.git");
		runGit(sandbox.home, sandbox.home, "clone", "-q", "--bare", src, bare);
		const wt = join(sandbox.home, "main");
		runGit(sandbox.home, bare, "worktree", "add", "-q", wt);
		runGit(sandbox.home, wt, "config", "core.hooksPath", ".husky/_");
		expect(readGitArmedPaths(wt, sandbox.home)).not.toBe("unknown");
	});

	it("control (session): the same without core.hooksPath keeps notes.md on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "README.md": "hello\n" });
		const bare = join(sandbox.home, "proj.git");
		runGit(sandbox.home, sandbox.home, "clone", "-q", "--bare", src, bare);
		runGit(sandbox.home, bare, "worktree", "add", "-q", "--force", h.cwd);
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});
});

describe("a submodule with a linked worktree of its own (`git worktree add` inside sub)", () => {
	it("facts: git takes the linked worktree's own folder as its top, though sub's shared config says core.worktree = ../../../sub", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const wt = join(sandbox.home, "subwt");
		runGit(sandbox.home, join(repo, "sub"), "worktree", "add", "-q", wt);
		const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: wt, env: { ...process.env, ...env() } })
			.toString()
			.trim();
		expect(top).toBe(wt);
	});

	it("false review (facts): readGitArmedPaths of the superproject is unknown (sub's shared core.worktree, placed from .git/modules/sub/worktrees/subwt, is taken to disagree with the worktree's gitdir)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		runGit(sandbox.home, join(repo, "sub"), "worktree", "add", "-q", join(sandbox.home, "subwt"));
		expect(readGitArmedPaths(repo, sandbox.home)).not.toBe("unknown");
	});

	it("false review (session): superproject whose submodule has a linked worktree (~/subwt); Pi's write of notes.md is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithSubmodule(h.cwd);
		runGit(sandbox.home, join(h.cwd, "sub"), "worktree", "add", "-q", join(sandbox.home, "subwt"));
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});
});

describe("the workspace is a submodule; the superproject's config names a folder in it", () => {
	it("bypass (session): workspace = a shared-hooks submodule `work` of the superproject around it, whose config says `core.hooksPath = work/hooks`; Pi's write of hooks/pre-commit is allowed on the floor; the user's next commit in the superproject runs it", async () => {
		const h = await sandbox.start({ env: env() });
		const src = join(sandbox.home, "hooks-src");
		initWithFiles(sandbox.home, src, { "hooks/pre-commit": "#!/bin/sh\nexit 0\n" });
		chmodSync(join(src, "hooks/pre-commit"), 0o755);
		runGit(sandbox.home, src, "add", ".");
		runGit(sandbox.home, src, "commit", "-qm", "x");
		const sup = dirname(h.cwd);
		runGit(sandbox.home, sup, "init", "-q");
		runGit(sandbox.home, sup, "-c", "protocol.file.allow=always", "clone", "-q", src, h.cwd);
		runGit(sandbox.home, sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "work");
		runGit(sandbox.home, sup, "commit", "-qm", "hooks");
		runGit(sandbox.home, sup, "submodule", "absorbgitdirs");
		runGit(sandbox.home, sup, "config", "core.hooksPath", "work/hooks");
		const outcome = await callThenUserCommit(h, callTool("write", { path: "hooks/pre-commit", content: hook() }), sup);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("a linked worktree removed without `git worktree prune`, made through a link that now leads nowhere", () => {
	it("control (passes today, session): ~/scratch -> ~/ssd/scratch, `git worktree add ~/scratch/wt`, then ~/ssd/scratch deleted; Pi's write of notes.md stays on the floor (git stores the real path)", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
		mkdirSync(join(sandbox.home, "ssd/scratch"), { recursive: true });
		symlinkSync(join(sandbox.home, "ssd/scratch"), join(sandbox.home, "scratch"));
		runGit(sandbox.home, h.cwd, "worktree", "add", "-q", join(sandbox.home, "scratch/wt"));
		rmSync(join(sandbox.home, "ssd"), { recursive: true, force: true });
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});
});

describe("a checked-out submodule whose git folder is inside it (`git submodule add` of an existing clone: sub/.git is a folder)", () => {
	/** `git clone src sub`, then `git submodule add src sub`: git keeps sub's git folder at sub/.git (not under .git/modules). */
	function submoduleWithGitFolderInside(repo: string): string {
		const src = libraryAndSuperprojectWithScript(sandbox.home, repo, "scripts/pre-commit");
		runGit(sandbox.home, repo, "clone", "-q", src, "sub");
		addSubmodule(sandbox.home, repo, src, "sub");
		return join(repo, "sub");
	}

	it("bypass (session): sub/.git/hooks/pre-commit -> ../../../scripts/pre-commit (the superproject's check, shared); Pi's write of scripts/pre-commit is allowed on the floor; the user's next commit in sub runs it", async () => {
		const h = await sandbox.start({ env: env() });
		const sub = submoduleWithGitFolderInside(h.cwd);
		symlinkSync("../../../scripts/pre-commit", join(sub, ".git/hooks/pre-commit"));
		const outcome = await callThenUserCommit(
			h,
			callTool("write", { path: "scripts/pre-commit", content: hook() }),
			sub,
		);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("bypass (session): sub/.git/config says core.hooksPath = <ws>/tools/hooks; bash `cat > tools/hooks/pre-commit` is allowed on the floor; the user's next commit in sub runs it", async () => {
		const h = await sandbox.start({ env: env() });
		const sub = submoduleWithGitFolderInside(h.cwd);
		hooksPathIntoWorkspaceTools(h.cwd, sub);
		await expectToolsHookWriteReviewed(h, sub);
	});
});

describe("a `.gitmodules` written with the key beside its section header", () => {
	it('facts: `[submodule "sub"] path = sub` on one line (git reads it; `git config -f .gitmodules` lists the path): the git folder inside sub is walked, and the folder its absolute core.hooksPath names is armed', () => {
		const repo = join(sandbox.home, "repo");
		const src = `${repo}-libsrc`;
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
		runGit(sandbox.home, repo, "clone", "-q", src, "sub");
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
		writeFileSync(join(repo, ".gitmodules"), `[submodule "sub"] path = sub\n\turl = ${src}\n`);
		const listed = execFileSync("git", ["config", "-f", join(repo, ".gitmodules"), "submodule.sub.path"]).toString();
		expect(listed.trim()).toBe("sub");
		mkdirSync(join(repo, "tools/hooks"), { recursive: true });
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", join(repo, "tools/hooks"));
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});
});

describe("a husky submodule put away with `git submodule deinit` (git unsets its core.worktree)", () => {
	it("facts: after `git submodule deinit -f sub`, sub's git folder has no core.worktree and keeps core.hooksPath = .husky/_", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", ".husky/_");
		runGit(sandbox.home, repo, "submodule", "deinit", "-q", "-f", "sub");
		const config = execFileSync("git", ["config", "-f", join(repo, ".git/modules/sub/config"), "-l"]).toString();
		expect([config.includes("core.worktree"), config.includes("core.hookspath=.husky/_")]).toEqual([false, true]);
	});

	it("false review (session): Pi's write of notes.md is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithSubmodule(h.cwd);
		runGit(sandbox.home, join(h.cwd, "sub"), "config", "core.hooksPath", ".husky/_");
		runGit(sandbox.home, h.cwd, "submodule", "deinit", "-q", "-f", "sub");
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});
});

describe("controls for the seventy-sixth review's fixes", () => {
	it("control (session): a workspace that is a submodule's linked worktree (`git worktree add` inside a husky submodule) writes notes.md on the floor, and a write into its `.husky/_` is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		const superproject = join(sandbox.home, "super");
		const src = join(sandbox.home, "libsrc");
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		initWithFiles(sandbox.home, superproject, { "README.md": "hello\n" });
		runGit(sandbox.home, superproject, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
		runGit(sandbox.home, join(superproject, "sub"), "config", "core.hooksPath", ".husky/_");
		runGit(sandbox.home, join(superproject, "sub"), "worktree", "add", "-q", "--force", h.cwd);
		await expectNotesOnFloorAndWriteReviewed(h, ".husky/_/pre-commit", hook());
	});

	it("control (session): a workspace inside a dotfiles repository at home (`~/.git`) writes notes.md on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, sandbox.home, { ".bashrc": "# rc\n" });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});

	it("control (session): a `.gitmodules` entry this reader does not take as written (a quoted path) sends writes in the superproject to review", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, {
			"README.md": "hello\n",
			".gitmodules": '[submodule "x"]\n\tpath = "odd name"\n',
		});
		h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), "done");
		h.reviewer(verdict("allow"));
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["reviewer"]);
	});
});
