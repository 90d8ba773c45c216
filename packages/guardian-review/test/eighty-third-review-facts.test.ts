// Eighty-third review (facts): probes of the nested finder's bare-repository rule, repositoryAt and the shared reads.
// Each test but the controls failed before its fix (the names say what was wrong).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { repositoryAt } from "../src/git-folder-reader.ts";
import { gitOutput, guardianSandboxPerTest, initWithFiles, runGit, workspaceWithIgnoredClone } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

const git = (cwd: string, ...args: string[]) => gitOutput(sandbox.home, cwd, ...args);

/** A workspace holding an ignored clone `vendor/lib` whose core.hooksPath is `../../tools/hooks` (the workspace's). */
const workspaceWithVendorClone = () => workspaceWithIgnoredClone(sandbox.home, "vendor/lib", "../../tools/hooks");

describe("the nested finder stops at a folder holding HEAD beside refs/objects", () => {
	it("control: vendor/lib's hooks folder is armed", async () => {
		const { ws } = workspaceWithVendorClone();
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("folders vendor/HEAD and vendor/refs (`mkdir -p vendor/HEAD vendor/refs`, allowed on the floor) hide vendor/lib: its hooks folder is not armed", async () => {
		const { ws, lib } = workspaceWithVendorClone();
		mkdirSync(join(ws, "vendor/HEAD"));
		mkdirSync(join(ws, "vendor/refs"));
		// git in vendor/lib still takes its own .git and runs ../../tools/hooks.
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		expect(git(lib, "rev-parse", "--git-path", "hooks")).toBe("../../tools/hooks");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("folders HEAD/ and objects/ at the workspace's top (`mkdir HEAD objects`) hide every nested repository", async () => {
		const { ws } = workspaceWithVendorClone();
		mkdirSync(join(ws, "HEAD"));
		mkdirSync(join(ws, "objects"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("a bare clone holding its worktrees (code/proj.git/main): the bare config's core.hooksPath ../../shared-hooks, which git in main places below main, is armed (it was before 6a1553c)", async () => {
		const code = join(sandbox.home, "code");
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "a.txt": "x\n" });
		mkdirSync(code);
		runGit(sandbox.home, code, "clone", "-q", "--bare", src, "proj.git");
		const bare = join(code, "proj.git");
		runGit(sandbox.home, bare, "worktree", "add", "-q", "main");
		runGit(sandbox.home, bare, "config", "core.hooksPath", "../../shared-hooks");
		mkdirSync(join(code, "shared-hooks"));
		expect(git(join(bare, "main"), "rev-parse", "--git-path", "hooks")).toBe("../../shared-hooks");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(code, [join(code, "shared-hooks")]);
		expect(armed).toContain(join(code, "shared-hooks"));
	});
});

describe("false reviews", () => {
	it("a nested clone whose .git/HEAD is empty (truncated by a crash): git skips that .git and takes the workspace's repository, yet repositoryAt says unknown and the whole workspace counts as armed", async () => {
		const { ws, lib } = workspaceWithVendorClone();
		writeFileSync(join(lib, ".git/HEAD"), "");
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(ws);
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "src")]);
		expect({ at: repositoryAt(lib), rootArmed: armed.includes(ws) }).toEqual({ at: "none", rootArmed: false });
	});

	it("control: the .bare + worktrees layout (workspace proj holding .bare, a .git file and worktrees main, feat)", async () => {
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "a.txt": "x\n" });
		const proj = join(sandbox.home, "proj");
		mkdirSync(proj);
		runGit(sandbox.home, proj, "clone", "-q", "--bare", src, ".bare");
		writeFileSync(join(proj, ".git"), "gitdir: ./.bare\n");
		runGit(sandbox.home, proj, "worktree", "add", "-q", "main");
		runGit(sandbox.home, proj, "worktree", "add", "-q", "-b", "feat", "feat");
		for (const cwd of [proj, join(proj, "main")]) {
			const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(cwd, [join(cwd, "src")]);
			expect(armed.filter((p) => p === cwd || p === proj)).toEqual([]);
		}
	});

	it("control: a ~/code workspace with 30 clones, two bare mirrors and a worktree", async () => {
		const code = join(sandbox.home, "code");
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "a.txt": "x\n" });
		mkdirSync(code);
		for (let i = 0; i < 30; i++) runGit(sandbox.home, code, "clone", "-q", src, `r${i}`);
		runGit(sandbox.home, code, "clone", "-q", "--mirror", src, "m1.git");
		runGit(sandbox.home, code, "clone", "-q", "--bare", src, "m2.git");
		runGit(sandbox.home, join(code, "r0"), "worktree", "add", "-q", "-b", "w", join(code, "r0-w"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(code, [join(code, "r3/src")]);
		expect(armed).not.toContain(code);
	});
});

describe("a nested repository's own core.worktree", () => {
	it("vendor/lib with core.worktree ../../tree (vendor/tree) and core.hooksPath scripts/hooks: git places the hooks below vendor/tree, the nested read below vendor/lib", async () => {
		const { ws, lib } = workspaceWithVendorClone();
		mkdirSync(join(ws, "vendor/tree/scripts/hooks"), { recursive: true });
		runGit(sandbox.home, lib, "config", "core.hooksPath", "scripts/hooks");
		runGit(sandbox.home, lib, "config", "core.worktree", "../../tree");
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(join(ws, "vendor/tree"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [
			join(ws, "vendor/tree/scripts/hooks"),
		]);
		expect(armed).toContain(join(ws, "vendor/tree/scripts/hooks"));
	});

	it("the workspace's own repository with core.worktree ../app (ws/app) and core.hooksPath scripts/hooks: ws/app/scripts/hooks is not armed", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "app/README.md": "x\n" });
		mkdirSync(join(ws, "app/scripts/hooks"), { recursive: true });
		runGit(sandbox.home, ws, "config", "core.hooksPath", "scripts/hooks");
		runGit(sandbox.home, ws, "config", "core.worktree", "../app");
		expect(git(ws, "rev-parse", "--show-toplevel")).toBe(join(ws, "app"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "app/scripts/hooks")]);
		expect(armed).toContain(join(ws, "app/scripts/hooks"));
	});

	it("a bare repository with core.worktree (the dotfiles layout: code/dots.git, core.bare false, core.worktree ../dots-tree) and core.hooksPath scripts/hooks: code/dots-tree/scripts/hooks is not armed", async () => {
		const code = join(sandbox.home, "code");
		mkdirSync(join(code, "dots-tree/scripts/hooks"), { recursive: true });
		runGit(sandbox.home, code, "init", "-q", "--bare", "dots.git");
		const dots = join(code, "dots.git");
		runGit(sandbox.home, dots, "config", "core.bare", "false");
		runGit(sandbox.home, dots, "config", "core.worktree", "../dots-tree");
		runGit(sandbox.home, dots, "config", "core.hooksPath", "scripts/hooks");
		expect(git(dots, "rev-parse", "--show-toplevel")).toBe(join(code, "dots-tree"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(code, [
			join(code, "dots-tree/scripts/hooks"),
		]);
		expect(armed).toContain(join(code, "dots-tree/scripts/hooks"));
	});
});
