// A mutation audit (m9) that finishes m8's: floor-facts.ts's guards that keep the tree facts, the link reader and
// the module paths from being read fresh while an allowed call that may change files still runs (two calls in one
// assistant message); then git-config-reader.ts's `modules/` walk, gitlink list key and armed-path family walk. Each
// test passes today and kills a mutant that survived the whole guardian-review suite and changed a decision.
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { callTools } from "@pi-policy/pi-harness";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { readGitConfigFacts } from "../src/git-config-reader.ts";
import {
	callTool,
	guardianSandboxPerTest,
	initWithFiles,
	promptsWithDenials,
	resultTexts,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({
	homePrefix: "guardian-review-m9-home-",
	seedHome: (home) => {
		mkdirSync(join(home, ".kube"));
		writeFileSync(join(home, ".kube", "config"), "token: very-secret-kube-token\n");
	},
});

const TEST_FILES = {
	"tests/__init__.py": "",
	"tests/test_a.py": "import unittest\nclass TestA(unittest.TestCase):\n    def test_x(self):\n        pass\n",
};

describe("floor-facts' calls in flight (m9)", () => {
	it("race (session): a bash `grep -rn` beside a move into its tree, in the same message, is reviewed (mutant: `if (settled) facts = { ...facts, searchTrees` -> `if (true)`)", async () => {
		const h = await sandbox.start({
			files: { "config/.env": "API_KEY=very-secret-env\n", "src/m010/a.txt": "x\n", "src/b.txt": "y\n" },
		});
		h.agent(
			callTools(
				{ name: "bash", args: { command: "mv config src/m010/" } },
				{ name: "bash", args: { command: "sleep 1; grep -rn very-secret src" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tidy and search")).toEqual(["floor", "reviewer"]);
		expect(resultTexts(h).join("\n")).not.toContain("very-secret-env");
	});

	it("race (session): Pi's grep tool beside a move into its tree, in the same message, is reviewed (mutant: `const tree = settled ? grepToolSearchTree` -> `true ?`)", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write", "grep"],
			guardian: { tools: { grep: "protected-only" } },
			files: { "config/.env": "API_KEY=very-secret-env\n", "src/m010/a.txt": "x\n", "src/b.txt": "y\n" },
		});
		h.agent(
			callTools(
				{ name: "bash", args: { command: "mv config src/m010/" } },
				{ name: "grep", args: { pattern: "very-secret", path: "src" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tidy and search")).toEqual(["floor", "reviewer"]);
	});

	it("race (session): Pi's read tool on a path a move beside it makes, in the same message, is reviewed (mutant: `toolCallLinkPaths(…), factContext, !quiet)` -> `false)`)", async () => {
		const h = await sandbox.start({});
		// A link a cloned repository may bring.
		symlinkSync(sandbox.home, join(h.cwd, "root"));
		h.agent(
			callTools({ name: "bash", args: { command: "mv root n2" } }, { name: "read", args: { path: "n2/.kube/config" } }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tidy up")).toEqual(["floor", "reviewer"]);
		expect(resultTexts(h).join("\n")).not.toContain("very-secret-");
	});

	it("race (session): a trusted `python3 -m unittest` label beside a removal of its modules, in the same message, is reviewed (mutant: `readExistingPaths(requests.modulePaths, quiet)` -> `true`)", async () => {
		// Both of the label's candidates exist, so no path it names is missing: only the module facts stand between.
		const h = await sandbox.start({
			files: { ...TEST_FILES, "tests.py": TEST_FILES["tests/test_a.py"] },
			guardian: { trustedCommands: ["python3 -m unittest"] },
		});
		h.agent(
			callTools(
				// Then `tests/` is only a namespace portion: a regular `tests` elsewhere on `sys.path` (site-packages) wins.
				{ name: "bash", args: { command: "sleep 1; rm tests.py tests/__init__.py" } },
				{ name: "bash", args: { command: "python3 -m unittest tests" } },
			),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "clean and test")).toEqual(["floor", "reviewer"]);
	});
});

const gitEnv = () => ({ HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" });
const marker = () => join(sandbox.home, "MARKER");
const hook = () => `#!/bin/sh\necho ran >> ${marker()}\n`;

/** A superproject at `repo` with the library `<repo>-libsrc` added as the submodule `path` (git folder under `.git/modules/`). */
function superprojectWithSubmodule(repo: string, path = "sub"): void {
	const src = `${repo}-libsrc`;
	initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
	initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
	runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, path);
	runGit(sandbox.home, repo, "commit", "-qm", "sub");
}

/**
 * The submodule's config names `<repo>/tools/hooks` (an absolute core.hooksPath), then the user puts it away with
 * `git submodule deinit -f`: its git folder stays, found only by the `modules/` walk (no `.git` in the checkout). The
 * next `git submodule update` checks it out again, and the user's commit there runs what `tools/hooks` holds.
 */
function hookedThenDeinit(repo: string, checkout: string, path = "sub"): void {
	runGit(sandbox.home, join(checkout, path), "config", "core.hooksPath", join(repo, "tools/hooks"));
	runGit(sandbox.home, checkout, "submodule", "deinit", "-q", "-f", path);
}

describe("submoduleGitFolders: the `modules/` walk finds what the `.gitmodules` walk cannot (m9)", () => {
	it("facts: a deinit-ed submodule of a linked worktree (`.git/worktrees/wt/modules/sub`) arms the folder its absolute core.hooksPath names (mutant: the git folder's own `modules` left out of the walk's start)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const wt = join(sandbox.home, "wt");
		runGit(sandbox.home, repo, "worktree", "add", "-q", "--force", wt);
		runGit(sandbox.home, wt, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init");
		hookedThenDeinit(repo, wt);
		expect(existsSync(join(repo, ".git/worktrees/wt/modules/sub/config"))).toBe(true);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});

	it("facts: a deinit-ed submodule named `a/b` (`.git/modules/a/b`, a folder without HEAD between) arms the folder its absolute core.hooksPath names (mutant: a folder without HEAD not walked into)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo, "a/b");
		hookedThenDeinit(repo, repo, "a/b");
		expect(existsSync(join(repo, ".git/modules/a/b/HEAD"))).toBe(true);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});

	it("facts: a deinit-ed submodule whose git folder is a link (`.git/modules/sub -> ~/gitdirs/sub`) arms the folder its absolute core.hooksPath names (mutant: only real folders walked)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		hookedThenDeinit(repo, repo);
		mkdirSync(join(sandbox.home, "gitdirs"));
		renameSync(join(repo, ".git/modules/sub"), join(sandbox.home, "gitdirs/sub"));
		symlinkSync(join(sandbox.home, "gitdirs/sub"), join(repo, ".git/modules/sub"));
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});

	it("bypass (session): a deinit-ed submodule named `a/b` names <ws>/tools/hooks; Pi's write of tools/hooks/pre-commit is reviewed, and after `git submodule update` the user's commit in a/b runs no hook the agent wrote", async () => {
		const h = await sandbox.start({ env: gitEnv() });
		superprojectWithSubmodule(h.cwd, "a/b");
		hookedThenDeinit(h.cwd, h.cwd, "a/b");
		// The check is already there, executable: the write only changes what it runs.
		mkdirSync(join(h.cwd, "tools/hooks"), { recursive: true });
		writeFileSync(join(h.cwd, "tools/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("add a pre-commit check");
		runGit(sandbox.home, h.cwd, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init");
		runGit(sandbox.home, join(h.cwd, "a/b"), "commit", "-q", "--allow-empty", "-m", "the user's commit");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});

describe("gitlinksOf: the gitlink list is keyed by the index file's identity (m9)", () => {
	it("facts: an index rewritten in place (same inode, other size and time) is listed again: its new gitlink's core.fsmonitor makes the config unsafe (mutant: key `dev:ino` without size and mtime)", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
		const sub = join(repo, "sub");
		initWithFiles(sandbox.home, sub, { "lib.txt": "x\n" });
		runGit(sandbox.home, repo, "add", "sub");
		runGit(sandbox.home, repo, "commit", "-qm", "sub");
		appendFileSync(join(sub, ".git", "config"), `[core]\n\tfsmonitor = "echo ran >> ${marker()}; false"\n`);
		const withGitlink = readFileSync(join(repo, ".git", "index"));
		runGit(sandbox.home, repo, "rm", "-q", "--cached", "sub");
		// Listed once without the gitlink (the list is kept per index identity).
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("safe");
		// `cp saved-index .git/index` writes into the same file: same inode, another size and time.
		writeFileSync(join(repo, ".git", "index"), withGitlink);
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unsafe");
	});
});

describe("otherHookedGitFolders: two ways to one git folder with different tops (m9)", () => {
	it("facts: two checkouts listed in .gitmodules share one git folder without core.worktree (husky's relative `.husky`): the armed paths are unknown or name both trees' `.husky` (mutant: the conflict between the two tops dropped)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const gitDir = join(repo, ".git/modules/sub");
		runGit(sandbox.home, repo, "config", "-f", join(gitDir, "config"), "--unset", "core.worktree");
		runGit(sandbox.home, repo, "config", "-f", join(gitDir, "config"), "core.hooksPath", ".husky");
		// A second checkout whose `.git` file names the same git folder: git there takes sub2 as the top.
		cpSync(join(repo, "sub"), join(repo, "sub2"), { recursive: true });
		appendFileSync(join(repo, ".gitmodules"), '[submodule "sub2"]\n\tpath = sub2\n\turl = ../x\n');
		const armed = readGitArmedPaths(repo, sandbox.home);
		expect(armed === "unknown" || armed.includes(join(repo, "sub2/.husky"))).toBe(true);
	});
});

describe("otherHookedGitFolders and readGitmodules: a checkout's top (m9)", () => {
	it("facts: a submodule cloned in place (its `.git` a folder, no core.worktree) with husky's relative `.husky`: sub/.husky is armed (mutant: readGitmodules gives no top)", () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
		const src = join(sandbox.home, "libsrc");
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		runGit(sandbox.home, repo, "clone", "-q", src, "sub");
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
		runGit(sandbox.home, repo, "commit", "-qm", "sub");
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", ".husky");
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "sub/.husky"));
	});

	it("facts: a nested submodule cloned in place inside a submodule (found first by the `modules/` walk, its top only from .gitmodules) names <ws>/tools/hooks: armed (mutant: the queued folder's own, unset top used instead of the one found later)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		const sub = join(repo, "sub");
		const deepSrc = join(sandbox.home, "deepsrc");
		initWithFiles(sandbox.home, deepSrc, { "d.txt": "d\n" });
		runGit(sandbox.home, sub, "clone", "-q", deepSrc, "deep");
		runGit(sandbox.home, sub, "-c", "protocol.file.allow=always", "submodule", "add", "-q", deepSrc, "deep");
		runGit(sandbox.home, sub, "commit", "-qm", "deep");
		runGit(sandbox.home, join(sub, "deep"), "config", "core.hooksPath", join(repo, "tools/hooks"));
		expect(existsSync(join(sub, "deep/.git/config"))).toBe(true);
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "tools/hooks"));
	});
});

describe("otherGitFoldersArmedPaths: the user's relative core.hooksPath in each submodule (m9)", () => {
	it("facts: ~/.gitconfig says core.hooksPath = .githooks: a checked-out submodule's sub/.githooks is armed (mutant: the user's and the system's values left out for other git folders)", () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithSubmodule(repo);
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "sub/.githooks"));
	});
});
