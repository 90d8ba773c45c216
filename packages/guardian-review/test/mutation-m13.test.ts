// The m13 mutation audit of the armed-path reads changed by 4dc46a0..a5b43c5 (git-folder-reader.ts `repositoryAt` and
// its helpers, git-armed-paths-reader.ts, git-config-reader.ts `armedPathsAround`, git-config-files.ts, the kernel's
// `gitProgramPathWords`): one test per decision-changing survivor, each named after the mutant it kills (the audit
// ran at c25e50e; A27 was found by running the session files after it). Real git shows where it takes a repository;
// the armed paths are read as the floor reads them.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { repositoryAt } from "../src/git-folder-reader.ts";
import { callTool, guardianSandboxPerTest, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";
import { executable, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const sandbox = guardianSandboxPerTest();
const session = submoduleHookSandbox();

function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", args, {
		cwd,
		env: { ...process.env, HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
		encoding: "utf8",
	}).trim();
}

/** A plain workspace holding an ignored clone `lib` whose core.hooksPath is `../tools/hooks` (the workspace's). */
function workspaceWithClone(): { ws: string; lib: string } {
	const ws = join(sandbox.home, "ws");
	initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "lib/\n" });
	const lib = join(ws, "lib");
	initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
	runGit(sandbox.home, lib, "config", "core.hooksPath", "../tools/hooks");
	mkdirSync(join(ws, "tools/hooks"), { recursive: true });
	return { ws, lib };
}

/** `objects` made an executable file: git still takes the folder (access X_OK), this reader cannot judge it. */
function objectsAsFile(gitDir: string): void {
	rmSync(join(gitDir, "objects"), { recursive: true });
	writeFileSync(join(gitDir, "objects"), "");
	chmodSync(join(gitDir, "objects"), 0o755);
}

describe("surelyInvalidHead: a HEAD link to refs/ is one git takes (m13)", () => {
	it('bypass (facts): the clone lib whose .git/HEAD is a link to refs/heads/main (git\'s old symbolic-link HEAD) and whose objects git may enter but this reader cannot judge: repositoryAt answers unknown and tools/hooks (its core.hooksPath) counts as armed by the root (mutant: `if (info.isSymbolicLink()) return !readlinkSync(…).startsWith("refs/")` -> `return true`)', async () => {
		const { ws, lib } = workspaceWithClone();
		const branch = git(lib, "symbolic-ref", "--short", "HEAD");
		rmSync(join(lib, ".git/HEAD"));
		symlinkSync(`refs/heads/${branch}`, join(lib, ".git/HEAD"));
		objectsAsFile(join(lib, ".git"));
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		expect(repositoryAt(lib)).toBe("unknown");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(ws);
	});
});

describe("surelyNoGitFolder: a git folder with a commondir keeps objects and refs in its common folder (m13)", () => {
	it("bypass (facts): the nested lib/.git is a folder with HEAD and a commondir naming another clone's git folder (git takes it; that folder's objects this reader cannot judge): repositoryAt answers unknown and the root counts as armed (mutant: the `commondir` line in surelyNoGitFolder dropped, so the missing lib/.git/objects reads as `no git folder`)", async () => {
		const { ws, lib } = workspaceWithClone();
		const common = join(sandbox.home, "common");
		initWithFiles(sandbox.home, common, { "c.txt": "x\n" });
		runGit(sandbox.home, common, "config", "core.hooksPath", join(ws, "tools/hooks"));
		objectsAsFile(join(common, ".git"));
		rmSync(join(lib, ".git"), { recursive: true });
		mkdirSync(join(lib, ".git"));
		writeFileSync(join(lib, ".git/HEAD"), "ref: refs/heads/main\n");
		writeFileSync(join(lib, ".git/commondir"), `${join(common, ".git")}\n`);
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		expect(git(lib, "rev-parse", "--git-path", "hooks")).toBe(join(ws, "tools/hooks"));
		expect(repositoryAt(lib)).toBe("unknown");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(ws);
	});
});

describe("surelyInvalidHead: a detached HEAD (an object id) is one git takes (m13)", () => {
	it("bypass (facts): the clone lib on a detached HEAD (`git checkout --detach`, as CI checkouts and `git submodule update` leave it) whose objects git may enter but this reader cannot judge: repositoryAt answers unknown and the root counts as armed (mutant: `&& !/^[0-9a-fA-F]{40}/.test(text)` dropped from surelyInvalidHead)", async () => {
		const { ws, lib } = workspaceWithClone();
		runGit(sandbox.home, lib, "checkout", "-q", "--detach");
		objectsAsFile(join(lib, ".git"));
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		expect(repositoryAt(lib)).toBe("unknown");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(ws);
	});
});

/** A workspace repository whose notebooks git cleans with `strip` (`.gitattributes`), the driver set by `value`. */
function workspaceWithStripFilter(value: string, where: "repository" | "user" = "repository"): string {
	const ws = join(sandbox.home, "ws");
	initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitattributes": "*.ipynb filter=strip\n" });
	mkdirSync(join(ws, "scripts"), { recursive: true });
	if (where === "repository") runGit(sandbox.home, ws, "config", "filter.strip.clean", value);
	else writeFileSync(join(sandbox.home, ".gitconfig"), `[filter "strip"]\n\tclean = ${value}\n`);
	return ws;
}

describe("the scripts config keys run by path (programPathsArmed; m13)", () => {
	it("bypass (facts): the workspace repository's filter.strip.clean = scripts/strip.sh arms scripts/strip.sh (mutant: `armed.push(...programs)` dropped in gitArmedPathsAt; also kills `read.programPaths.push(...)` dropped in readConfigFiles)", async () => {
		const ws = workspaceWithStripFilter("scripts/strip.sh");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "scripts")]);
		expect(armed).toContain(join(ws, "scripts/strip.sh"));
	});

	it("bypass (facts): an absolute program path into the workspace (filter.strip.clean = <ws>/scripts/strip.sh) is armed (mutant: absolute words skipped in programPathsArmed)", async () => {
		const ws = workspaceWithStripFilter(join(sandbox.home, "ws/scripts/strip.sh"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "scripts")]);
		expect(armed).toContain(join(ws, "scripts/strip.sh"));
	});

	it("bypass (facts): a `~/` program path (filter.strip.clean = ~/ws/scripts/strip.sh) is placed in home (mutant: `join(home, word.slice(2))` -> `join(home, word)`)", async () => {
		const ws = workspaceWithStripFilter("~/ws/scripts/strip.sh");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "scripts")]);
		expect(armed).toContain(join(ws, "scripts/strip.sh"));
	});

	it('bypass (facts): a `~user/` program path (filter.strip.clean = ~root/ws/scripts/strip.sh; the shell git runs it with expands it into a home this reader does not look up) makes the armed paths unknown: the root counts as armed (mutant: `else if (word.startsWith("~")) return undefined;` dropped, so the word is placed below the top as a relative one)', async () => {
		const ws = workspaceWithStripFilter("~root/ws/scripts/strip.sh");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "scripts")]);
		expect(armed).toContain(ws);
	});

	it("bypass (facts): scripts -> tools/scripts and strip.sh not made yet: tools/scripts/strip.sh, where a write puts the file git runs, is armed (mutant: programPathsArmed returns the named paths without their placed ones)", async () => {
		const ws = workspaceWithStripFilter("scripts/strip.sh");
		rmSync(join(ws, "scripts"), { recursive: true });
		mkdirSync(join(ws, "tools/scripts"), { recursive: true });
		symlinkSync("tools/scripts", join(ws, "scripts"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/scripts")]);
		expect(armed).toContain(join(ws, "tools/scripts/strip.sh"));
	});

	it("bypass (facts): the user's ~/.gitconfig sets filter.strip.clean = scripts/strip.sh (relative: git runs it in every repository); the workspace's submodule packages/app/third_party/vendor/sub (five folders down: only the family walk reads it) runs its scripts/strip.sh: armed (coverage only: the mutants leaving the global program paths out of otherGitFoldersArmedPaths survive it; armed by another route)", async () => {
		const ws = workspaceWithStripFilter("scripts/strip.sh", "user");
		const src = join(sandbox.home, "lib-src");
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		// Five folders down, past the nested walk: only the family walk reads it.
		const sub = "packages/app/third_party/vendor/sub";
		runGit(sandbox.home, ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, sub);
		runGit(sandbox.home, ws, "commit", "-qm", "sub");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, sub, "scripts")]);
		expect(armed).toContain(join(ws, sub, "scripts/strip.sh"));
	});

	it("bypass (facts): the ignored clone vendor/lib has core.worktree ../../tree and filter.strip.clean = scripts/strip.sh: git runs vendor/tree/scripts/strip.sh, armed (mutant: ownWorktreeArmedPaths returns its hooks paths without its program paths)", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "vendor/\n" });
		const lib = join(ws, "vendor/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "filter.strip.clean", "scripts/strip.sh");
		runGit(sandbox.home, lib, "config", "core.worktree", "../../tree");
		mkdirSync(join(ws, "vendor/tree/scripts"), { recursive: true });
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(join(ws, "vendor/tree"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "vendor/tree/scripts")]);
		expect(armed).toContain(join(ws, "vendor/tree/scripts/strip.sh"));
	});
});

describe("the nested finder skips git-folder parts only in a BARE repository (isBareRepository; m13)", () => {
	it("bypass (facts): the ignored clone api ships a HEAD file beside a refs/ folder (a file-based mock server's responses) and keeps its own ignored clone in api/modules/client, whose core.hooksPath ../../../tools/hooks is the workspace's: armed (mutant: `location.gitDir === location.top` dropped from isBareRepository, so any repository counts as bare and its modules/ is not listed)", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "api/\n" });
		const api = join(ws, "api");
		initWithFiles(sandbox.home, api, {
			".gitignore": "modules/\n",
			HEAD: "HTTP/1.1 200 OK\n",
			"refs/heads.json": "{}\n",
		});
		const client = join(api, "modules/client");
		initWithFiles(sandbox.home, client, { "client.ts": "x\n" });
		runGit(sandbox.home, client, "config", "core.hooksPath", "../../../tools/hooks");
		mkdirSync(join(ws, "tools/hooks"), { recursive: true });
		expect(git(client, "rev-parse", "--git-path", "hooks")).toBe("../../../tools/hooks");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});
});

describe("the nested finder takes HEAD beside commondir as a git folder (m13)", () => {
	it("bypass (facts): ws/x holds only HEAD and a commondir naming another clone's git folder (a linked worktree's git folder copied out); git takes x as a git folder and a push into it runs x/hooks-shared (the common config's core.hooksPath hooks-shared): armed (coverage only: the mutant dropping `commondir` from the finder's gitFolder test survives it; x is armed by another route)", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "x/\n" });
		const other = join(sandbox.home, "other");
		initWithFiles(sandbox.home, other, { "o.txt": "x\n" });
		runGit(sandbox.home, other, "config", "core.hooksPath", "hooks-shared");
		const x = join(ws, "x");
		mkdirSync(join(x, "hooks-shared"), { recursive: true });
		writeFileSync(join(x, "HEAD"), "ref: refs/heads/main\n");
		writeFileSync(join(x, "commondir"), `${join(other, ".git")}\n`);
		expect(git(x, "rev-parse", "--git-dir")).toBe(".");
		expect(git(x, "rev-parse", "--git-path", "hooks")).toBe("hooks-shared");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(x, "hooks-shared")]);
		expect(armed).toContain(join(x, "hooks-shared"));
	});
});

describe("an embedded repository is read with its own family (m13)", () => {
	it("bypass (facts): packages/app/third_party/vendor/lib (five folders down, past the nested walk) is embedded with `git add`; its submodule sub, put away with `git submodule deinit`, has core.hooksPath naming the workspace's tools/hooks (the next `git submodule update --init` there runs it): armed (mutant: `gitArmedPathsAt(at, home, true, [], false)` -> `false` family in embeddedRepositoriesArmedPathsAt)", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n" });
		mkdirSync(join(ws, "tools/hooks"), { recursive: true });
		const src = join(sandbox.home, "sub-src");
		initWithFiles(sandbox.home, src, { "s.txt": "x\n" });
		const path = "packages/app/third_party/vendor/lib";
		const lib = join(ws, path);
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
		runGit(sandbox.home, lib, "commit", "-qm", "sub");
		runGit(sandbox.home, join(lib, "sub"), "config", "core.hooksPath", join(ws, "tools/hooks"));
		runGit(sandbox.home, lib, "submodule", "deinit", "-q", "-f", "sub");
		runGit(sandbox.home, ws, "add", path);
		runGit(sandbox.home, ws, "commit", "-qm", "embed lib");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});
});

describe("armedPathsAround's reads kept until invalidate() (m13)", () => {
	it("bypass (facts): the ignored clone lib read with no hooks path; then `git config core.hooksPath ../tools/hooks` there (a reviewed call) and invalidate(): the next call arms tools/hooks (mutant: `nestedReads.clear()` dropped from invalidate)", async () => {
		const { ws, lib } = workspaceWithClone();
		runGit(sandbox.home, lib, "config", "--unset", "core.hooksPath");
		const facts = createGitConfigFacts(sandbox.home);
		expect(await facts.armedPathsAround(ws, [join(ws, "tools/hooks")])).not.toContain(join(ws, "tools/hooks"));
		runGit(sandbox.home, lib, "config", "core.hooksPath", "../tools/hooks");
		facts.invalidate();
		expect(await facts.armedPathsAround(ws, [join(ws, "tools/hooks")])).toContain(join(ws, "tools/hooks"));
	});
});

describe("the user's relative program path in a submodule (session; m13)", () => {
	it("bypass (session): ~/.gitconfig sets filter.strip.clean = scripts/strip.sh (relative: git runs it from each repository's top) and the workspace's submodule packages/app/third_party/vendor/sub (five folders down: only the family walk reads it) strips its notebooks (.gitattributes `*.ipynb filter=strip`): Pi's write of its scripts/strip.sh is reviewed; the user's `git add n.ipynb` there runs nothing (coverage only, as the facts test above)", async () => {
		const home = session.sandbox.home;
		const h = await session.sandbox.start({ env: session.env() });
		writeFileSync(join(home, ".gitconfig"), '[filter "strip"]\n\tclean = scripts/strip.sh\n');
		initWithFiles(home, h.cwd, { "README.md": "x\n" });
		const src = join(home, "lib-src");
		initWithFiles(home, src, { ".gitattributes": "*.ipynb filter=strip\n", "lib.txt": "x\n" });
		executable(join(src, "scripts/strip.sh"), "#!/bin/sh\ncat\n");
		runGit(home, src, "add", "scripts/strip.sh");
		runGit(home, src, "commit", "-qm", "strip script");
		const sub = "packages/app/third_party/vendor/sub";
		runGit(home, h.cwd, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, sub);
		runGit(home, h.cwd, "commit", "-qm", "sub");
		writeFileSync(join(h.cwd, sub, "n.ipynb"), "{}\n");
		h.agent(callTool("write", { path: `${sub}/scripts/strip.sh`, content: `${session.hook()}cat\n` }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("make the strip script faster");
		runGit(home, join(h.cwd, sub), "add", "n.ipynb");
		expect({ sources: verdictSources(h), ran: existsSync(session.marker()) }).toEqual({
			sources: ["reviewer"],
			ran: false,
		});
	}, 60_000);
});

describe("an embedded repository this reader cannot judge (m13, A27)", () => {
	// Mutant: git-armed-paths-reader.ts `if (at === "unknown") return "unknown";` -> `continue` in the embedded read (a
	// gitlink past the nested listing's depth would be skipped).
	it("bypass (facts): a repository embedded six folders down whose `.git` reads `gitdir: ../lib.git ` (git keeps the blank) and whose include names a workspace file: the workspace counts as armed", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", "config/lib.gitconfig": "[core]\n\tautocrlf = input\n" });
		const lib = join(ws, "a/b/c/d/e/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "include.path", join(ws, "config/lib.gitconfig"));
		runGit(sandbox.home, ws, "add", "a/b/c/d/e/lib");
		runGit(sandbox.home, ws, "commit", "-qm", "embed lib");
		execFileSync("mv", [join(lib, ".git"), join(ws, "a/b/c/d/e/lib.git ")]);
		writeFileSync(join(lib, ".git"), "gitdir: ../lib.git \n");
		expect(git(lib, "rev-parse", "--show-toplevel")).toBe(lib);
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "config")]);
		expect(armed).toContain(ws);
	});
});
