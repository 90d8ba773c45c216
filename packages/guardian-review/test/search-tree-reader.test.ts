// The shell's tree lister for the floor's recursive reads, on real folders: what counts as protected, what the
// reader skips (hidden entries for rg, links below the root), and the bounds that make a tree `unknown`.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
	applyGuardianDefaults,
	floorContextFor,
	floorFactRequestsOf,
	treeEntryTest,
} from "@pi-policy/policy-kernel/guardian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createSearchTreeFacts,
	MAX_SEARCH_TREE_DEPTH,
	MAX_SEARCH_TREE_ENTRIES,
	readSearchTreeVerdict,
} from "../src/search-tree-reader.ts";

let workspace: string;
let home: string;
beforeEach(() => {
	const base = mkdtempSync(join(tmpdir(), "guardian-trees-"));
	workspace = join(base, "repo");
	home = join(base, "home");
	mkdirSync(workspace, { recursive: true });
	mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(dirname(workspace), { recursive: true, force: true }));

function files(entries: Record<string, string>): void {
	for (const [path, text] of Object.entries(entries)) {
		mkdirSync(dirname(join(workspace, path)), { recursive: true });
		writeFileSync(join(workspace, path), text);
	}
}

const context = () => floorContextFor(applyGuardianDefaults({ mode: "enforce" }), workspace, home);
const verdictOf = (root: string, skipsHidden = false, followsLinks = false) =>
	readSearchTreeVerdict({ root: join(workspace, root), skipsHidden, followsLinks }, treeEntryTest(context()));

describe("readSearchTreeVerdict", () => {
	it("for ripgrep, which skips hidden entries, counts those an ignore file's `!` line whitelists, here or above", async () => {
		const ripgrep = (root: string) =>
			readSearchTreeVerdict(
				{ root: join(workspace, root), skipsHidden: true, followsLinks: false },
				treeEntryTest(context()),
				home,
			);
		files({ "sub/a.py": "x", "sub/.env": "SECRET=1", "sub/.ignore": "build/\n" });
		expect(await ripgrep("sub")).toBe("none");
		files({ "sub/.ignore": "build/\n!.env\n" });
		expect(await ripgrep("sub")).toBe("protected");
		files({ "sub/.ignore": "build/\n", "sub/deep/.rgignore": "!*.key\n", "sub/deep/.k/x.key": "key" });
		expect(await ripgrep("sub")).toBe("protected");
		rmSync(join(workspace, "sub/deep"), { recursive: true });
		expect(await ripgrep("sub")).toBe("none");
		// Above the root: the workspace's own .gitignore, a repository's info/exclude, the global excludes file.
		files({ ".gitignore": "!.env\n" });
		expect(await ripgrep("sub")).toBe("protected");
		rmSync(join(workspace, ".gitignore"));
		files({ ".git/info/exclude": "!.env\n" });
		expect(await ripgrep("sub")).toBe("protected");
		rmSync(join(workspace, ".git"), { recursive: true });
		// The root's own repository: `rg SECRET` of the whole workspace.
		files({ "sub/.git/info/exclude": "!.env\n" });
		expect(await ripgrep("sub")).toBe("protected");
		rmSync(join(workspace, "sub/.git"), { recursive: true });
		files({ "sub/.git": "gitdir: /elsewhere/.git/worktrees/sub\n" });
		expect(await ripgrep("sub")).toBe("protected");
		rmSync(join(workspace, "sub/.git"));
		expect(await ripgrep("sub")).toBe("none");
		mkdirSync(join(home, ".config", "git"), { recursive: true });
		writeFileSync(join(home, ".config", "git", "ignore"), "!.env\n");
		expect(await ripgrep("sub")).toBe("protected");
		writeFileSync(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/my-excludes\n");
		expect(await ripgrep("sub")).toBe("none");
		writeFileSync(join(home, "my-excludes"), "!.env\n");
		expect(await ripgrep("sub")).toBe("protected");
	});

	it("finds protected entries at any depth: .env files, keys, nested repositories", async () => {
		files({ "a/b/c/app.py": "x", "a/b/notes.md": "y" });
		expect(await verdictOf("a")).toBe("none");
		files({ "a/b/c/.env.local": "SECRET=1" });
		expect(await verdictOf("a")).toBe("protected");
		expect(await verdictOf("a/b/c")).toBe("protected");
		files({ "k/deploy/server.pem": "key", "k/id_ed25519": "key" });
		expect(await verdictOf("k")).toBe("protected");
		files({ "vendor/lib/.git/config": "[core]", "vendor/lib/.git/deploy.pem": "key" });
		expect(await verdictOf("vendor")).toBe("protected");
	});

	it("walks a git folder whose config files hold no credential; any credential, include or odd config protects it", async () => {
		const clone = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/o/r.git\n';
		files({
			"src/a.py": "x",
			".git/HEAD": "ref: refs/heads/main\n",
			".git/config": clone,
			".git/refs/heads/main": "0".repeat(40),
			".git/hooks/pre-commit.sample": "#!/bin/sh",
			".git/modules/sub/config": clone,
		});
		expect(await verdictOf(".")).toBe("none");
		// A submodule's config with a token in its URL.
		files({ ".git/modules/sub/config": '[remote "origin"]\n\turl = https://ghp_x@github.com/o/s.git\n' });
		expect(await verdictOf(".")).toBe("protected");
		files({ ".git/modules/sub/config": clone });
		// actions/checkout's persisted header in the repository's own config.
		files({ ".git/config": `${clone}[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eA==\n` });
		expect(await verdictOf(".")).toBe("protected");
		files({ ".git/config": `${clone}[include]\n\tpath = extra\n` });
		expect(await verdictOf(".")).toBe("unknown");
		files({ ".git/config": '[remote "origin\n' });
		expect(await verdictOf(".")).toBe("unknown");
		files({ ".git/config": clone, ".git/config.worktree": "[credential]\n\thelper = store\n" });
		expect(await verdictOf(".")).toBe("protected");
		rmSync(join(workspace, ".git", "config.worktree"));
		expect(await verdictOf(".")).toBe("none");
		// Other protected names stay protected inside the git folder, and so does the root's own `.env`.
		files({ ".git/client.key": "key" });
		expect(await verdictOf(".")).toBe("protected");
		rmSync(join(workspace, ".git", "client.key"));
		files({ ".env": "SECRET=1" });
		expect(await verdictOf(".")).toBe("protected");
	});

	it("does not open a git folder that is a link, nor a config file that is a link", async () => {
		files({ "real/.git/HEAD": "ref: refs/heads/main\n", "real/.git/config": "[core]\n", "elsewhere/cfg": "[core]\n" });
		mkdirSync(join(workspace, "linked"));
		symlinkSync(join(workspace, "real", ".git"), join(workspace, "linked", ".git"));
		expect(await verdictOf("real")).toBe("none");
		expect(await verdictOf("linked")).toBe("protected");
		rmSync(join(workspace, "real", ".git", "config"));
		symlinkSync(join(workspace, "elsewhere", "cfg"), join(workspace, "real", ".git", "config"));
		expect(await verdictOf("real")).toBe("unknown");
	});

	it("skips hidden entries for a reader that does (rg), but not unhidden keys", async () => {
		files({ "cfg/.env": "SECRET=1", "cfg/settings.py": "x", "cfg/.hidden/id_rsa": "key" });
		expect(await verdictOf("cfg", true)).toBe("none");
		expect(await verdictOf("cfg", false)).toBe("protected");
		files({ "cfg/keys/site.pem": "key" });
		expect(await verdictOf("cfg", true)).toBe("protected");
	});

	it("skips links below the root unless the reader follows them; a root that is a link is unknown", async () => {
		files({ "src/a.py": "x", "secrets/token.txt": "t" });
		symlinkSync(join(home), join(workspace, "src", "home-link"));
		expect(await verdictOf("src", false, false)).toBe("none");
		expect(await verdictOf("src", false, true)).toBe("unknown");
		symlinkSync(join(workspace, "secrets"), join(workspace, "linked"));
		expect(await verdictOf("linked")).toBe("unknown");
	});

	it("reaches only the entries a glob word's parts match, level by level, where a link is unknown", async () => {
		files({ "src/a.py": "x", "src/deep/er/id_rsa": "key", "src/.hidden.pem": "key", "src/notes/server.pem": "key" });
		const globVerdict = (...pattern: string[]) =>
			readSearchTreeVerdict(
				{ root: join(workspace, "src"), skipsHidden: true, followsLinks: true, pattern },
				treeEntryTest(context()),
			);
		expect(await globVerdict("*.py")).toBe("none");
		expect(await globVerdict("*", "*.md")).toBe("none");
		expect(await globVerdict("*", "*")).toBe("protected");
		expect(await globVerdict("d*", "*", "*")).toBe("protected");
		expect(await globVerdict("d*", "*", "*.py")).toBe("none");
		files({ "src/id_utils.py": "x" });
		expect(await globVerdict("*.py")).toBe("protected");
		expect(await globVerdict("a*.py")).toBe("none");
		rmSync(join(workspace, "src", "id_utils.py"));
		symlinkSync(home, join(workspace, "src", "home"));
		expect(await globVerdict("*.py")).toBe("none");
		expect(await globVerdict("h*")).toBe("unknown");
	});

	it("for paths xargs splits, a name with a blank, quote or backslash at any depth is unknown", async () => {
		files({ "notes/a.txt": "x", "notes/deep/b.txt": "y" });
		const splitVerdict = () =>
			readSearchTreeVerdict(
				{ root: join(workspace, "notes"), skipsHidden: false, followsLinks: true, splitsNames: true },
				treeEntryTest(context()),
			);
		expect(await splitVerdict()).toBe("none");
		for (const name of ["a id_rsa", "it's", 'say"hi"', "back\\slash", "tab\there"]) {
			files({ [`notes/deep/${name}`]: "z" });
			expect(await splitVerdict()).toBe("unknown");
			// The same tree read without xargs holds nothing protected.
			expect(await verdictOf("notes", false, true)).toBe("none");
			rmSync(join(workspace, "notes", "deep", name));
		}
		expect(await splitVerdict()).toBe("none");
	});

	it("a missing root holds nothing; a file root was judged by its name", async () => {
		files({ "a.py": "x" });
		expect(await verdictOf("no-such-folder")).toBe("none");
		expect(await verdictOf("a.py")).toBe("none");
		expect(await verdictOf("a.py/below")).toBe("none");
	});

	it(`is unknown past ${MAX_SEARCH_TREE_DEPTH} nested folders`, async () => {
		const deep = Array.from({ length: MAX_SEARCH_TREE_DEPTH + 1 }, () => "d").join("/");
		files({ [`t/${deep}/a.py`]: "x" });
		expect(await verdictOf("t")).toBe("unknown");
		// One level further down, the deepest folder is exactly at the bound.
		expect(await verdictOf("t/d")).toBe("none");
	});

	it(`is unknown past ${MAX_SEARCH_TREE_ENTRIES} entries`, async () => {
		mkdirSync(join(workspace, "big"));
		for (let i = 0; i < MAX_SEARCH_TREE_ENTRIES + 1; i++) writeFileSync(join(workspace, "big", `f${i}`), "");
		expect(await verdictOf("big")).toBe("unknown");
		rmSync(join(workspace, "big", "f0"));
		expect(await verdictOf("big")).toBe("none");
	}, 120_000);
});

describe("createSearchTreeFacts", () => {
	it("gathers a verdict for each tree the command reads, cached until invalidated", async () => {
		files({ "src/a.py": "x", "cfg/settings.py": "y" });
		const trees = createSearchTreeFacts();
		const facts = async (command: string) => [
			...(await trees.forTrees(floorFactRequestsOf(command, context()).searchTrees, context())).values(),
		];
		expect(await facts("grep -rn x src cfg")).toEqual(["none", "none"]);
		expect(await facts("cat src/a.py")).toEqual([]);
		files({ "cfg/.env": "SECRET=1" });
		expect(await facts("grep -rn x cfg")).toEqual(["none"]);
		trees.invalidate();
		expect(await facts("grep -rn x cfg")).toEqual(["protected"]);
		expect(await facts("rg x cfg")).toEqual(["none"]);
	});

	it("lists Pi's extensions and skills as readable, and their settings and MCP servers as protected", async () => {
		files({ ".pi/extensions/audit/index.ts": "x", ".pi/skills/deploy/SKILL.md": "y", ".pi/prompts/r.md": "z" });
		const trees = createSearchTreeFacts();
		const facts = async (command: string) => [
			...(await trees.forTrees(floorFactRequestsOf(command, context()).searchTrees, context())).values(),
		];
		expect(await facts("grep -rn x .pi/extensions .pi/skills")).toEqual(["none", "none"]);
		files({ ".pi/extensions/audit/.env": "TOKEN=1", ".pi/mcp.json": "{}" });
		trees.invalidate();
		expect(await facts("grep -rn x .pi/extensions")).toEqual(["protected"]);
		expect(await facts("grep -rn x .pi/prompts")).toEqual(["none"]);
	});
});

// The size bounds of decision 0019: a reflog or legacy remote file is judged within 8 MiB and a message git leaves
// for an editor within 1 MiB; a larger file, or one that is not a regular file, makes the tree `unknown` (review).
/** A text of exactly `bytes` bytes, in reflog-like lines, holding no URL. */
function filler(bytes: number): string {
	const line = `${"0".repeat(40)} ${"1".repeat(40)} t <t@example.invalid> 1 +0000\tcommit: x\n`;
	const text = line.repeat(Math.ceil(bytes / line.length));
	return `${text.slice(0, bytes - 1)}\n`;
}

const MIB = 1024 * 1024;

describe("the size bounds of a git folder's judged files", () => {
	beforeEach(() => files({ ".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n\tbare = false\n" }));

	it("judges a reflog of 8 MiB by its text, and sends a larger one to review", async () => {
		files({ ".git/logs/HEAD": filler(8 * MIB) });
		expect(await verdictOf(".")).toBe("none");
		files({ ".git/logs/HEAD": filler(8 * MIB + 1) });
		expect(await verdictOf(".")).toBe("unknown");
	});

	it("judges a legacy remote file of 2 MiB by its text", async () => {
		files({ ".git/remotes/origin": `URL: https://example.invalid/r.git\n${filler(2 * MIB)}` });
		expect(await verdictOf(".")).toBe("none");
		files({ ".git/remotes/origin": `${filler(2 * MIB)}URL: https://oauth2:tok@example.invalid/r.git\n` });
		expect(await verdictOf(".")).toBe("protected");
	});

	it("judges a message of 1 MiB by its text, and sends a larger one to review", async () => {
		files({ ".git/COMMIT_EDITMSG": filler(MIB) });
		expect(await verdictOf(".")).toBe("none");
		files({ ".git/COMMIT_EDITMSG": filler(MIB + 1) });
		expect(await verdictOf(".")).toBe("unknown");
	});

	it("sends a reflog or a message that is a link to review, whatever its target holds", async () => {
		files({ "notes.txt": "plain\n" });
		mkdirSync(join(workspace, ".git", "logs"), { recursive: true });
		symlinkSync(join(workspace, "notes.txt"), join(workspace, ".git", "logs", "HEAD"));
		expect(await verdictOf(".")).toBe("unknown");
		rmSync(join(workspace, ".git", "logs"), { recursive: true });
		symlinkSync(join(workspace, "notes.txt"), join(workspace, ".git", "MERGE_MSG"));
		expect(await verdictOf(".")).toBe("unknown");
	});
});
