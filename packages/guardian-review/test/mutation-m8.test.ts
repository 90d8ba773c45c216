// A mutation audit (m8) of guardian-review's readers: git-config-reader.ts's code changed since 6ecbe1d
// (submoduleGitFolderVerdict with its checkout, gitlinksVerdict, readRepository, configFactsOf, hooksVerdictOf, the
// createGitConfigFacts cache), then search-tree-reader.ts, git-history-reader.ts and floor-facts.ts. Each test kills a
// mutant that survived the readers' tests and changed a verdict the floor decides by; the last block failed before
// its fix (git pointed at another index, tree or object store by Pi's environment).
import { execFileSync } from "node:child_process";
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	realpathSync,
	renameSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { callTools } from "@pi-policy/pi-harness";
import { applyGuardianDefaults, floorContextFor, treeEntryTest } from "@pi-policy/policy-kernel/guardian";
import { describe, expect, it } from "vitest";
import { readGitConfigFacts } from "../src/git-config-reader.ts";
import { createGitHistoryFacts, MAX_HISTORY_PROTECTED } from "../src/git-history-reader.ts";
import { createSearchTreeFacts, readSearchTreeVerdict } from "../src/search-tree-reader.ts";
import {
	callTool,
	guardianSandboxPerTest,
	initWithFiles,
	promptsWithDenials,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest();
const marker = () => join(sandbox.home, "MARKER");
const fsmonitor = () => `[core]\n\tfsmonitor = "echo ran >> ${marker()}; false"\n`;

/** `git status` in `repo` as a user would run it (no system config), its output discarded. */
function gitStatus(repo: string): void {
	execFileSync("git", ["status", "--short"], {
		cwd: repo,
		env: { ...process.env, HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
		stdio: "ignore",
	});
}

/** Makes `file`'s stat data stale, so git refreshes the index (and asks the fsmonitor). */
function touchLater(file: string): void {
	const later = new Date(Date.now() + 5000);
	utimesSync(file, later, later);
}

/** A superproject at `repo` with `sub` added as a gitlink (`git add` of a cloned repository: its `.git` a folder). */
function superprojectWithEmbeddedSub(repo: string): string {
	initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
	const sub = join(repo, "sub");
	initWithFiles(sandbox.home, sub, { "lib.txt": "x\n" });
	runGit(sandbox.home, repo, "add", "sub");
	runGit(sandbox.home, repo, "commit", "-qm", "sub");
	return sub;
}

describe("gitlinksVerdict (m8)", () => {
	it('bypass: a nested submodule\'s own .git folder runs its core.fsmonitor on superproject `git status` (mutant: `if (verdict === "safe") queue.push` -> never)', async () => {
		const repo = join(sandbox.home, "repo");
		const sub = superprojectWithEmbeddedSub(repo);
		// `deep` inside `sub`, added to `sub`'s index as a gitlink, its git folder inside itself (not under `modules/`).
		const deep = join(sub, "deep");
		initWithFiles(sandbox.home, deep, { "d.txt": "d\n" });
		runGit(sandbox.home, sub, "add", "deep");
		runGit(sandbox.home, sub, "commit", "-qm", "deep");
		appendFileSync(join(deep, ".git", "config"), fsmonitor());
		touchLater(join(deep, "d.txt"));
		const facts = await readGitConfigFacts(repo, sandbox.home);
		gitStatus(repo);
		// git itself runs the nested submodule's program: the reader must not say `safe`.
		expect({ ran: existsSync(marker()), config: facts.config }).toEqual({ ran: true, config: "unsafe" });
	});

	it('bypass: a submodule whose `.git` file names its git folder with a trailing blank is entered by git; the reader must not skip it (mutant: `if (subGitDir === undefined) return "unknown"` -> continue)', async () => {
		const repo = join(sandbox.home, "repo");
		const sub = superprojectWithEmbeddedSub(repo);
		// git strips only line ends from a `gitdir:` file: `sgd ` (with the blank) is the folder it enters.
		const gitDir = join(sandbox.home, "sgd ");
		renameSync(join(sub, ".git"), gitDir);
		writeFileSync(join(sub, ".git"), `gitdir: ${gitDir}\n`);
		appendFileSync(join(gitDir, "config"), fsmonitor());
		touchLater(join(sub, "lib.txt"));
		const facts = await readGitConfigFacts(repo, sandbox.home);
		gitStatus(repo);
		expect({ ran: existsSync(marker()), safe: facts.config === "safe" }).toEqual({ ran: true, safe: false });
	});
});

describe("createGitConfigFacts' one read for both facts (m8)", () => {
	it("bypass (session): `git status` where ~/.gitconfig links into the workspace and sets core.fsmonitor is reviewed (mutant: `readRepository(dir, home, writable?.test ?? (() => false))` -> `() => false`)", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
		// A dotfiles repository as the workspace: the user's config is a file the agent may write without review.
		writeFileSync(join(h.cwd, "gitconfig"), fsmonitor());
		symlinkSync(join(h.cwd, "gitconfig"), join(sandbox.home, ".gitconfig"));
		h.agent(callTool("bash", { command: "git status" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("what changed?");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("ripgrep's global excludes file (m8, globalExcludesFile)", () => {
	/** `rg SECRET sub` in a workspace whose `sub/.env` ripgrep skips unless an ignore file whitelists it. */
	async function ripgrepSub(): Promise<string> {
		const ws = join(sandbox.home, "ws");
		mkdirSync(join(ws, "sub"), { recursive: true });
		writeFileSync(join(ws, "sub", "a.py"), "x\n");
		writeFileSync(join(ws, "sub", ".env"), "SECRET=1\n");
		const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), ws, sandbox.home);
		return readSearchTreeVerdict(
			{ root: join(ws, "sub"), skipsHidden: true, followsLinks: false },
			treeEntryTest(context),
			sandbox.home,
		);
	}
	const whitelisting = () => writeFileSync(join(sandbox.home, "wl"), "!.env\n");

	it("bypass: ~/.gitconfig's core.excludesFile wins over the XDG config's (mutant: the first value kept, `if (set !== undefined && excludes === undefined)`)", async () => {
		mkdirSync(join(sandbox.home, ".config", "git"), { recursive: true });
		writeFileSync(join(sandbox.home, ".config", "git", "config"), "[core]\n\texcludesFile = ~/plain\n");
		writeFileSync(join(sandbox.home, "plain"), "build/\n");
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\texcludesFile = ~/wl\n");
		whitelisting();
		expect(await ripgrepSub()).toBe("protected");
	});

	it('bypass: a relative core.excludesFile (placed by ripgrep from where it runs) is not looked up from Pi\'s own folder (mutant: `isAbsolute(excludes) ? excludes : "unknown"` -> `excludes`)', async () => {
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\texcludesFile = wl-relative\n");
		expect(await ripgrepSub()).not.toBe("none");
	});
});

describe("createSearchTreeFacts (m8)", () => {
	function workspaceWithEnv(): string {
		const ws = join(sandbox.home, "ws");
		mkdirSync(join(ws, "sub"), { recursive: true });
		writeFileSync(join(ws, "sub", "a.py"), "x\n");
		writeFileSync(join(ws, "sub", ".env"), "SECRET=1\n");
		return ws;
	}

	it("bypass: ripgrep's global excludes file is read from the session's home, not a default (mutant: `readSearchTreeVerdict(request, entryKind, context.home)` -> no home)", async () => {
		const ws = workspaceWithEnv();
		mkdirSync(join(sandbox.home, ".config", "git"), { recursive: true });
		writeFileSync(join(sandbox.home, ".config", "git", "ignore"), "!.env\n");
		const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), ws, sandbox.home);
		const request = { root: join(ws, "sub"), skipsHidden: true, followsLinks: false };
		const facts = await createSearchTreeFacts().forTrees([request], context);
		expect([...facts.values()]).toEqual(["protected"]);
	});

	it("bypass: a verdict read under one set of protected paths is not reused under another (mutant: cache key `place + tree` -> `tree`)", async () => {
		const ws = workspaceWithEnv();
		rmSync(join(ws, "sub", ".env"));
		const request = { root: join(ws, "sub"), skipsHidden: false, followsLinks: false };
		const trees = createSearchTreeFacts();
		const plain = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), ws, sandbox.home);
		const stricter = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", protectedPaths: ["*.py"] }),
			ws,
			sandbox.home,
		);
		expect([...(await trees.forTrees([request], plain)).values()]).toEqual(["none"]);
		expect([...(await trees.forTrees([request], stricter)).values()]).toEqual(["protected"]);
	});
});

describe("createGitHistoryFacts' bound (m8)", () => {
	it(`lists ${MAX_HISTORY_PROTECTED} protected files, and more make the fact unknown (mutant: \`found.size > MAX_HISTORY_PROTECTED\` -> \`> MAX_HISTORY_PROTECTED + 1\`)`, async () => {
		const repo = join(sandbox.home, "repo");
		const envFiles = (count: number) =>
			Object.fromEntries(Array.from({ length: count }, (_, i) => [`d${i}/.env`, `S=${i}\n`]));
		initWithFiles(sandbox.home, repo, envFiles(MAX_HISTORY_PROTECTED));
		const top = realpathSync(repo);
		const isProtected = (path: string) => path.endsWith("/.env");
		const atBound = await createGitHistoryFacts().protectedPathsOf(repo, isProtected, "k", top);
		expect(atBound?.protectedPaths).toHaveLength(MAX_HISTORY_PROTECTED);
		mkdirSync(join(repo, "dx"), { recursive: true });
		writeFileSync(join(repo, "dx", ".env"), "S=x\n");
		runGit(sandbox.home, repo, "add", ".");
		runGit(sandbox.home, repo, "commit", "-qm", "one more");
		expect(await createGitHistoryFacts().protectedPathsOf(repo, isProtected, "k", top)).toBeUndefined();
	});
});

describe("floor-facts' calls in flight (m8)", () => {
	it("race (session): git facts are not read while a call that may change files, in the same message, still runs (mutant: `settled && mayRunGit(command)` -> `mayRunGit(command)`)", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
		h.agent(
			callTools(
				{ name: "bash", args: { command: "touch notes.md" } },
				{ name: "bash", args: { command: "git status" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "note and look")).toEqual(["floor", "reviewer"]);
	});

	it("bypass (session): a write into the tree a bash `grep -rn` is still searching, in the same message, is reviewed (mutant: `readsTree: requests.searchTrees.length > 0` -> false)", async () => {
		const h = await sandbox.start({ files: { "src/m010/a.txt": "x\n", "src/b.txt": "y\n" } });
		h.agent(
			callTools(
				{ name: "bash", args: { command: "grep -rn x src" } },
				{ name: "write", args: { path: "src/m010/a.txt", content: "changed\n" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "search and fix")).toEqual(["floor", "reviewer"]);
	});

	it("bypass (session): a write into the tree Pi's grep tool is still searching, in the same message, is reviewed (mutant: `treeReadInFlight` never passed to the floor)", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write", "grep"],
			guardian: { tools: { grep: "protected-only" } },
			files: { "src/m010/a.txt": "x\n", "src/b.txt": "y\n" },
		});
		h.agent(
			callTools(
				{ name: "grep", args: { pattern: "x", path: "src" } },
				{ name: "write", args: { path: "src/m010/a.txt", content: "changed\n" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "search and fix")).toEqual(["floor", "reviewer"]);
	});
});

describe("git pointed at another index or working tree by Pi's environment (m8's unchecked note)", () => {
	it.each(["GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_ALTERNATE_OBJECT_DIRECTORIES"])(
		"session: with %s set in Pi's environment, `git status` is reviewed (the reader and the history listing look at other files than git)",
		async (name) => {
			const h = await sandbox.start({
				env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1", [name]: join(sandbox.home, "elsewhere") },
			});
			// The repository is made as the user made it, without the variable.
			const value = process.env[name];
			delete process.env[name];
			try {
				initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
			} finally {
				process.env[name] = value;
			}
			h.agent(callTool("bash", { command: "git status" }), "done");
			h.reviewer(verdict("allow"));
			await h.prompt("what changed?");
			expect(verdictSources(h)).toEqual(["reviewer"]);
		},
	);
});
