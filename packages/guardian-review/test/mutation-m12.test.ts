// The m12 mutation audit of the armed-path reads changed since m11 (git-armed-paths-reader.ts, git-config-reader.ts
// `armedPathsAround`, git-folder-reader.ts, path-link-reader.ts): one test per decision-changing survivor, each named
// after the mutant it kills (the audit ran at 3af91c8; A21 was analysed after it). Real sessions: the agent's write,
// then the user's own git command.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { createPathEntryLookup, followPathLinks } from "../src/path-link-reader.ts";
import { callTool, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";
import { addSubmodule, executable, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env, fsmonitorConfig } = submoduleHookSandbox();

describe("the family's main worktree lists its gitlinks (m12)", () => {
	it("bypass (session): the workspace is a LINKED WORKTREE; the MAIN worktree's index embeds vendor/lib (`git add` of a clone) whose include.path names a workspace file: Pi's write is reviewed; the user's `git status` in the main worktree runs nothing (mutant: `top: mainTop, guessedTop: true, listsGitlinks: true` -> without `listsGitlinks`)", async () => {
		const h = await sandbox.start({ env: env() });
		const main = join(sandbox.home, "main-repo");
		initWithFiles(sandbox.home, main, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const lib = join(main, "vendor/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(h.cwd, "config/lib.gitconfig"));
		runGit(sandbox.home, main, "add", "vendor/lib");
		runGit(sandbox.home, main, "commit", "-qm", "embed lib");
		// The harness's workspace becomes a linked worktree of main-repo (its vendor/lib an empty folder there).
		runGit(sandbox.home, main, "worktree", "add", "-q", "--force", h.cwd, "-b", "feat");
		h.agent(callTool("write", { path: "config/lib.gitconfig", content: fsmonitorConfig() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("tidy the git config");
		runGit(sandbox.home, main, "status", "--short");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("control (session): the same linked worktree writes notes.md on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		const main = join(sandbox.home, "main-repo");
		initWithFiles(sandbox.home, main, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const lib = join(main, "vendor/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(h.cwd, "config/lib.gitconfig"));
		runGit(sandbox.home, main, "add", "vendor/lib");
		runGit(sandbox.home, main, "commit", "-qm", "embed lib");
		runGit(sandbox.home, main, "worktree", "add", "-q", "--force", h.cwd, "-b", "feat");
		h.agent(callTool("write", { path: "notes.md", content: "notes\n" }), "done");
		await h.prompt("take notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});
});

describe("nested repositories below an additional directory (m12)", () => {
	it("bypass (session): the additional directory ~/proj is a superproject whose submodule `sub` has `core.hooksPath` naming a workspace folder; Pi's write of that hook is reviewed; the user's commit in ~/proj/sub runs nothing (mutant at 3af91c8: `const around = root === resolve(cwd) ? locateRepository(root) : \"none\"` -> `locateRepository(root)`)", async () => {
		const proj = join(sandbox.home, "proj");
		const src = join(sandbox.home, "sub-src");
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		initWithFiles(sandbox.home, proj, { "README.md": "x\n" });
		addSubmodule(sandbox.home, proj, src, "sub");
		const h = await sandbox.start({ env: env(), guardian: { additionalDirectories: ["~/proj"] } });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		runGit(sandbox.home, join(proj, "sub"), "config", "core.hooksPath", join(h.cwd, "tools/hooks"));
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("update the hook");
		runGit(sandbox.home, join(proj, "sub"), "commit", "-q", "--allow-empty", "-m", "the user's commit");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("the workspace repository's family skip in the nested walk (m12)", () => {
	it("bypass (session): an ignored clone of a GitHub action in .github/actions/setup (its git folder's path starts with the workspace's `.git`) has `core.hooksPath = ../../../tools/hooks`: Pi's write of tools/hooks/pre-commit is reviewed; the user's commit in the action's clone runs nothing (mutant at 3af91c8: the family prefix, the common folder with a trailing slash, without the slash; the skip is now by the family walk's placements)", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", ".gitignore": ".github/actions/setup/\n" });
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		const action = join(h.cwd, ".github/actions/setup");
		initWithFiles(sandbox.home, action, { "action.yml": "name: setup\n" });
		runGit(sandbox.home, action, "config", "core.hooksPath", "../../../tools/hooks");
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("update the hook");
		runGit(sandbox.home, action, "commit", "-q", "--allow-empty", "-m", "the user's commit");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("followPathLinks takes `.` as the system does (m12)", () => {
	it('facts: `a/./../b` is `b` (mutant: `part === "" || part === "."` -> `part === ""`: `a/.` kept as a name, so the `..` after it only drops the `.`)', () => {
		const dir = realpathSync(mkdtempSync(join(tmpdir(), "m12-dot-")));
		try {
			mkdirSync(join(dir, "a"));
			expect(followPathLinks(`${dir}/a/./../b`, createPathEntryLookup())).toBe(`${dir}/b`);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("an embedded repository is skipped only when .gitmodules lists its PATH (m12)", () => {
	it("bypass (session): packages/app/third_party/vendor/lib (five folders down, past the nested walk) embedded with `git add` includes config/lib.gitconfig, and .gitmodules has a submodule NAMED like that path at other/lib: Pi's write is reviewed; the user's `git status` at the top runs nothing (mutant: `new Set(gitmodules.pathsByName.values())` -> `.keys()`)", async () => {
		const h = await sandbox.start({ env: env() });
		const path = "packages/app/third_party/vendor/lib";
		initWithFiles(sandbox.home, h.cwd, {
			"README.md": "x\n",
			"config/lib.gitconfig": "[core]\n\tautocrlf = input\n",
			".gitmodules": `[submodule "${path}"]\n\tpath = other/lib\n\turl = ../lib.git\n`,
		});
		const lib = join(h.cwd, path);
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(h.cwd, "config/lib.gitconfig"));
		runGit(sandbox.home, h.cwd, "add", path);
		runGit(sandbox.home, h.cwd, "commit", "-qm", "embed lib");
		h.agent(callTool("write", { path: "config/lib.gitconfig", content: fsmonitorConfig() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("tidy the library's git config");
		runGit(sandbox.home, h.cwd, "status", "--short");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("a linked worktree's own index lists its gitlinks (m12, A21)", () => {
	// Mutant: git-armed-paths-reader.ts `workingTrees.push({ tree: top, gitDir })` -> `gitDir: commonDir` (the index
	// looked for in the common folder: a bare main repository has none, so the worktree's gitlinks were never listed).
	it("bypass (facts): worktrees a (the workspace) and b of a bare proj.git; b embeds vendor/lib whose include.path names a's config/lib.gitconfig: that file is armed", async () => {
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const bare = join(sandbox.home, "proj.git");
		runGit(sandbox.home, sandbox.home, "clone", "-q", "--bare", src, bare);
		const a = join(sandbox.home, "a");
		const b = join(sandbox.home, "b");
		runGit(sandbox.home, bare, "worktree", "add", "-q", a, "-b", "work-a");
		runGit(sandbox.home, bare, "worktree", "add", "-q", b, "-b", "work-b");
		const lib = join(b, "vendor/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(a, "config/lib.gitconfig"));
		runGit(sandbox.home, b, "add", "vendor/lib");
		runGit(sandbox.home, b, "commit", "-qm", "embed lib");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(a, [join(a, "config")]);
		expect(armed).toContain(join(a, "config/lib.gitconfig"));
	});
});
