// Eightieth review (facts): the readers behind its fixes. Repositories embedded with `git add` are read for armed
// paths (bounded, `.gitmodules` entries left to the family walk), and the folders holding the links on the way to a
// root are found (their repositories are read too).
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	createNestedRepositoryFinder,
	readEmbeddedRepositoriesArmedPaths,
	readGitArmedPaths,
} from "../src/git-armed-paths-reader.ts";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { linkHoldingFolders } from "../src/git-folder-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";
import { addSubmodule } from "./submodule-hook-sandbox.ts";

const sandbox = guardianSandboxPerTest();

/** A repository at `repo` with `count` clones embedded with `git add` under `vendor/`, each including `shared.cfg`. */
function withEmbedded(repo: string, count: number): void {
	initWithFiles(sandbox.home, repo, { "README.md": "x\n", "shared.cfg": "[core]\n\tautocrlf = input\n" });
	for (let index = 0; index < count; index++) {
		const lib = join(repo, `vendor/lib${index}`);
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", "../../../shared.cfg");
	}
	runGit(sandbox.home, repo, "add", "vendor");
	runGit(sandbox.home, repo, "commit", "-qm", "embedded");
}

describe("readEmbeddedRepositoriesArmedPaths", () => {
	it("arms what an embedded repository's config includes; the repository's own read does not", async () => {
		const repo = join(sandbox.home, "repo");
		withEmbedded(repo, 1);
		const own = readGitArmedPaths(repo, sandbox.home);
		expect(own).not.toBe("unknown");
		expect(own).not.toContain(join(repo, "shared.cfg"));
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toContain(join(repo, "shared.cfg"));
	});

	it("is empty outside a repository and for a repository without gitlinks", async () => {
		const plain = join(sandbox.home, "plain");
		mkdirSync(plain, { recursive: true });
		expect(await readEmbeddedRepositoriesArmedPaths(plain, sandbox.home)).toEqual([]);
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "x\n" });
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toEqual([]);
	});

	it("leaves a submodule .gitmodules lists to the family walk (not read twice)", async () => {
		const repo = join(sandbox.home, "repo");
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		initWithFiles(sandbox.home, repo, { "README.md": "x\n" });
		addSubmodule(sandbox.home, repo, src, "vendor/lib");
		runGit(sandbox.home, join(repo, "vendor/lib"), "config", "include.path", join(repo, "lib.cfg"));
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toEqual([]);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "lib.cfg"));
	});

	it("is unknown past its bound of embedded repositories (256 by default)", async () => {
		const repo = join(sandbox.home, "repo");
		withEmbedded(repo, 3);
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home, [], 3)).toContain(join(repo, "shared.cfg"));
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home, [], 2)).toBe("unknown");
	});

	it("is unknown when an embedded repository cannot be judged (an include of another user's home)", async () => {
		const repo = join(sandbox.home, "repo");
		withEmbedded(repo, 1);
		writeFileSync(join(repo, "vendor/lib0/.git/config"), "[include]\n\tpath = ~other/x.cfg\n", { flag: "a" });
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toBe("unknown");
	});
});

describe("linkHoldingFolders", () => {
	it("names the folder of each link on the way, following a chain of links", () => {
		const base = join(sandbox.home, "base");
		mkdirSync(join(base, "data/ws"), { recursive: true });
		mkdirSync(join(base, "outer"), { recursive: true });
		symlinkSync(join(base, "data/ws"), join(base, "outer/work"));
		symlinkSync("outer/work", join(base, "work"));
		expect(linkHoldingFolders(join(base, "work"))).toEqual([base, join(base, "outer")]);
		expect(linkHoldingFolders(join(base, "data/ws"))).toEqual([]);
	});

	it("stops at a missing part and at a loop", () => {
		const base = join(sandbox.home, "base");
		mkdirSync(base, { recursive: true });
		expect(linkHoldingFolders(join(base, "missing/deeper"))).toEqual([]);
		symlinkSync("b", join(base, "a"));
		symlinkSync("a", join(base, "b"));
		expect(linkHoldingFolders(join(base, "a"))).toBeUndefined();
	});
});

describe("createNestedRepositoryFinder", () => {
	it("finds folders holding a .git down to four levels, not below node_modules, a link or a git folder", () => {
		const root = join(sandbox.home, "ws");
		for (const folder of ["a/.git", "b/c/d/e/.git", "b/c/d/e/f/.git", "node_modules/x/.git", "real/y/.git"])
			mkdirSync(join(root, folder), { recursive: true });
		writeFileSync(join(root, "b/c/.git"), "gitdir: ../../elsewhere\n");
		mkdirSync(join(root, "a/.git/inner/.git"), { recursive: true });
		symlinkSync(join(root, "real"), join(root, "lnk"));
		const tops = createNestedRepositoryFinder().topsBelow(root);
		expect([...tops].sort()).toEqual([join(root, "a"), join(root, "b/c"), join(root, "b/c/d/e"), join(root, "real/y")]);
	});

	it("sees a repository made or removed after an earlier listing (the folder's stamp changed)", () => {
		const root = join(sandbox.home, "ws");
		mkdirSync(join(root, "services/api"), { recursive: true });
		const finder = createNestedRepositoryFinder();
		expect(finder.topsBelow(root)).toEqual([]);
		mkdirSync(join(root, "services/api/.git"));
		expect(finder.topsBelow(root)).toEqual([join(root, "services/api")]);
		mkdirSync(join(root, "services/web/.git"), { recursive: true });
		expect([...finder.topsBelow(root)].sort()).toEqual([join(root, "services/api"), join(root, "services/web")]);
		rmSync(join(root, "services/api/.git"), { recursive: true });
		expect(finder.topsBelow(root)).toEqual([join(root, "services/web")]);
	});

	it("leaves the root's own .git out", () => {
		const root = join(sandbox.home, "ws");
		mkdirSync(join(root, ".git"), { recursive: true });
		expect(createNestedRepositoryFinder().topsBelow(root)).toEqual([]);
	});
});

describe("armedPathsAround while the session's facts are read again", () => {
	it("does not keep a read that began before `invalidate()` (the embedded-repository listing awaits git)", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "x\n" });
		const facts = createGitConfigFacts(sandbox.home);
		const before = facts.armedPathsAround(repo, []);
		// A call that may change files ends while the read above waits for git: it set `core.hooksPath`.
		runGit(sandbox.home, repo, "config", "core.hooksPath", "tools/hooks");
		facts.invalidate();
		await before;
		expect(await facts.armedPathsAround(repo, [])).toContain(join(repo, "tools/hooks"));
	});
});

describe("readEmbeddedRepositoriesArmedPaths without git", () => {
	it("is empty when git cannot be found (nothing enters an embedded repository), unknown when git fails", async () => {
		const repo = join(sandbox.home, "repo");
		withEmbedded(repo, 1);
		writeFileSync(join(repo, "README.md"), "changed\n");
		runGit(sandbox.home, repo, "commit", "-qam", "a new index");
		const path = process.env.PATH;
		try {
			process.env.PATH = join(sandbox.home, "no-such-bin");
			expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toEqual([]);
		} finally {
			process.env.PATH = path;
		}
		writeFileSync(join(repo, ".git/index"), "not an index");
		expect(await readEmbeddedRepositoriesArmedPaths(repo, sandbox.home)).toBe("unknown");
	});
});
