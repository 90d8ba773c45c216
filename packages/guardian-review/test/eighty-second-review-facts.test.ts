// Eighty-second review (facts): nested repositories git takes but repositoryAt (the reader) called "not taken", a
// moved linked worktree, a clone whose git folder lies in the workspace's `.git`, a bare repository, and a deleted
// linked worktree: their armed paths were left out, so a write of the folder their hooks run from stayed on the floor.
// Each test but the controls failed before the fix. Below them, repositoryAt's answers one by one, and the layouts
// that must not send ordinary writes to review.
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { repositoryAt } from "../src/git-folder-reader.ts";
import { gitOutput, guardianSandboxPerTest, initWithFiles, runGit, workspaceWithIgnoredClone } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

const git = (cwd: string, ...args: string[]) => gitOutput(sandbox.home, cwd, ...args);

/** A workspace holding an ignored clone `lib` whose core.hooksPath is `../tools/hooks` (the workspace's). */
const workspaceWithClone = () => workspaceWithIgnoredClone(sandbox.home, "lib", "../tools/hooks");

describe("nested .git forms git takes that repositoryAt called not taken", () => {
	it("control: a plain nested clone's hooks folder is armed", async () => {
		const { ws } = workspaceWithClone();
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("a `.git` file whose gitdir ends in a blank (git keeps it: `gitdir: ../lib.git `)", async () => {
		const { ws, lib } = workspaceWithClone();
		renameSync(join(lib, ".git"), join(ws, "lib.git "));
		writeFileSync(join(lib, ".git"), "gitdir: ../lib.git \n");
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("`objects` an executable file (git's test is access(X_OK))", async () => {
		const { ws, lib } = workspaceWithClone();
		rmSync(join(lib, ".git/objects"), { recursive: true });
		writeFileSync(join(lib, ".git/objects"), "");
		chmodSync(join(lib, ".git/objects"), 0o755);
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		// Not judged by this reader: the root counts as armed (every write below it is reviewed).
		expect(armed).toContain(ws);
	});
});

describe("a linked worktree moved with mv (its gitdir file names the old place)", () => {
	it("trees/wt2's core.hooksPath ../hooks-shared is placed from where it is now, not only from the old top", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "wt/\ntrees/\n" });
		runGit(sandbox.home, ws, "worktree", "add", "-q", join(ws, "wt"), "-b", "feat");
		runGit(sandbox.home, ws, "config", "extensions.worktreeConfig", "true");
		runGit(sandbox.home, join(ws, "wt"), "config", "--worktree", "core.hooksPath", "../hooks-shared");
		mkdirSync(join(ws, "trees"));
		renameSync(join(ws, "wt"), join(ws, "trees/wt2"));
		expect(git(join(ws, "trees/wt2"), "rev-parse", "--show-toplevel")).toBe(join(ws, "trees/wt2"));
		expect(git(join(ws, "trees/wt2"), "rev-parse", "--git-path", "hooks")).toBe("../hooks-shared");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "trees/hooks-shared")]);
		expect(armed).toContain(join(ws, "trees/hooks-shared"));
	});
});

describe("repositories git enters from the workspace that the nested loop did not read", () => {
	it("a clone whose git folder was moved under the workspace's .git (.git/vendor/z, no family folder): read, not skipped as family", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "z/\n" });
		const z = join(ws, "z");
		initWithFiles(sandbox.home, z, { "z.txt": "x\n" });
		mkdirSync(join(ws, ".git/vendor"));
		renameSync(join(z, ".git"), join(ws, ".git/vendor/z"));
		writeFileSync(join(z, ".git"), `gitdir: ${join(ws, ".git/vendor/z")}\n`);
		runGit(sandbox.home, z, "config", "core.hooksPath", "../tools/hooks");
		mkdirSync(join(ws, "tools/hooks"), { recursive: true });
		expect(git(z, "rev-parse", "--show-toplevel")).toBe(z);
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("a bare repository in the workspace (remote.git, a local push target) whose core.hooksPath names tools/hooks", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "remote.git/\n" });
		runGit(sandbox.home, ws, "init", "-q", "--bare", join(ws, "remote.git"));
		runGit(sandbox.home, join(ws, "remote.git"), "config", "core.hooksPath", join(ws, "tools/hooks"));
		mkdirSync(join(ws, "tools/hooks"), { recursive: true });
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});
});

describe("the embedded read's `git ls-files` in the family's working trees", () => {
	/** ws with a clone embedded five folders down (past the nested finder) whose include names ws/config/lib.gitconfig. */
	function workspaceWithDeepEmbedded(): string {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const lib = join(ws, "packages/web/vendor/github.com/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(ws, "config/lib.gitconfig"));
		runGit(sandbox.home, ws, "add", "packages/web/vendor/github.com/lib");
		runGit(sandbox.home, ws, "commit", "-qm", "embed lib");
		return ws;
	}

	it("control: the deep embedded repository's include is armed", async () => {
		const ws = workspaceWithDeepEmbedded();
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "config")]);
		expect(armed).toContain(join(ws, "config/lib.gitconfig"));
	});

	it("a linked worktree whose folder the user deleted (rm -rf, no prune): git cannot start there (ENOENT); only that tree is skipped, the embedded paths kept", async () => {
		const ws = workspaceWithDeepEmbedded();
		const old = join(sandbox.home, "wt-old");
		runGit(sandbox.home, ws, "worktree", "add", "-q", old, "-b", "old");
		rmSync(old, { recursive: true, force: true });
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "config")]);
		expect(armed).toContain(join(ws, "config/lib.gitconfig"));
	});
});

describe("repositoryAt", () => {
	it("answers none only where git surely takes no repository", () => {
		const ws = join(sandbox.home, "ws");
		mkdirSync(join(ws, "empty/.git"), { recursive: true });
		mkdirSync(join(ws, "objects-only/.git/objects"), { recursive: true });
		mkdirSync(join(ws, "copied"), { recursive: true });
		writeFileSync(join(ws, "copied/.git"), "gitdir: /nonexistent/worktrees/old\n");
		mkdirSync(join(ws, "dangling"), { recursive: true });
		symlinkSync("../nowhere", join(ws, "dangling/.git"));
		mkdirSync(join(ws, "plain"), { recursive: true });
		for (const folder of ["empty", "objects-only", "copied", "dangling", "plain"])
			expect([folder, repositoryAt(join(ws, folder))]).toEqual([folder, "none"]);
	});

	it("answers unknown for a .git git may take that this reader cannot judge", () => {
		const { ws, lib } = workspaceWithClone();
		// git enters an `objects` file it may search (access X_OK); this reader takes only a folder.
		rmSync(join(lib, ".git/objects"), { recursive: true });
		writeFileSync(join(lib, ".git/objects"), "");
		chmodSync(join(lib, ".git/objects"), 0o755);
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		expect(repositoryAt(lib)).toBe("unknown");
		// An empty `HEAD` (cut short by a crash) git rejects: none.
		writeFileSync(join(lib, ".git/HEAD"), "");
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(ws);
		expect(repositoryAt(lib)).toBe("none");
		mkdirSync(join(ws, "blank"));
		renameSync(join(lib, ".git"), join(ws, "blank.git "));
		writeFileSync(join(ws, "blank/.git"), "gitdir: ../blank.git \n");
		expect(repositoryAt(join(ws, "blank"))).toBe("unknown");
	});

	it("answers the bare repository beside a `.git` folder git does not take (git takes the folder itself)", () => {
		const ws = join(sandbox.home, "ws");
		runGit(sandbox.home, sandbox.home, "init", "-q", "--bare", join(ws, "b.git"));
		mkdirSync(join(ws, "b.git/.git"));
		expect(git(join(ws, "b.git"), "rev-parse", "--is-bare-repository")).toBe("true");
		expect(repositoryAt(join(ws, "b.git"))).toMatchObject({ top: join(ws, "b.git"), gitDir: join(ws, "b.git") });
	});

	it("answers a bare repository placed in its own git folder, and a clone at its top", () => {
		const { ws, lib } = workspaceWithClone();
		runGit(sandbox.home, ws, "init", "-q", "--bare", join(ws, "remote.git"));
		expect(repositoryAt(join(ws, "remote.git"))).toMatchObject({
			top: join(ws, "remote.git"),
			gitDir: join(ws, "remote.git"),
		});
		expect(repositoryAt(lib)).toMatchObject({ top: lib, gitDir: join(lib, ".git") });
	});
});

describe("layouts whose ordinary writes stay unarmed", () => {
	it("a bare repository with its worktrees beside it (`.bare`, `.git: gitdir: ./.bare`, `main/`): a write in main is not armed", async () => {
		const ws = join(sandbox.home, "ws");
		const src = join(sandbox.home, "src");
		initWithFiles(sandbox.home, src, { "README.md": "x\n" });
		mkdirSync(ws, { recursive: true });
		runGit(sandbox.home, ws, "clone", "-q", "--bare", src, join(ws, ".bare"));
		writeFileSync(join(ws, ".git"), "gitdir: ./.bare\n");
		runGit(sandbox.home, ws, "worktree", "add", "-q", join(ws, "main"), "-b", "main-work");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "main/src")]);
		expect(armed.filter((path) => join(ws, "main/src/a.ts").startsWith(`${path}/`))).toEqual([]);
	});

	it("a bare fixture repository in the tests: its hooks folder is armed, the tests beside it are not", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n" });
		runGit(sandbox.home, ws, "init", "-q", "--bare", join(ws, "tests/fixtures/sample.git"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tests")]);
		expect(armed).toContain(join(ws, "tests/fixtures/sample.git/hooks"));
		expect(armed.filter((path) => join(ws, "tests/test_a.py").startsWith(`${path}/`))).toEqual([]);
	});
});
