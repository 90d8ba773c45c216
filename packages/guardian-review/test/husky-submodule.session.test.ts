// A submodule that uses husky: its own `core.hooksPath` is judged by the hooks in its folder, below the submodule's
// working tree, as the superproject's is. Stop 44 left it as a program key (a known false review); the first test
// failed before this change.
import { chmodSync, existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitConfigFacts } from "../src/git-config-reader.ts";
import {
	callTool,
	expectNotesOnFloorAndWriteReviewed,
	initWithFiles,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";
import { submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env } = submoduleHookSandbox();

/**
 * A superproject at `repo` with the library `sub` checked out as a submodule, where `npm install` ran husky:
 * `core.hooksPath = .husky/_` in the submodule's config, and husky's shims in that folder.
 */
function superprojectWithHuskySubmodule(repo: string): void {
	const src = join(sandbox.home, "libsrc");
	initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
	initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
	runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
	runGit(sandbox.home, repo, "commit", "-qm", "sub");
	runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", ".husky/_");
	mkdirSync(join(repo, "sub/.husky/_"), { recursive: true });
	for (const name of ["pre-commit", "commit-msg", "h"])
		writeFileSync(join(repo, "sub/.husky/_", name), "#!/bin/sh\n", { mode: 0o755 });
}

/** Adds an executable `post-index-change` to the submodule's husky folder, and makes its index stale. */
function addReadTimeHook(repo: string): void {
	writeFileSync(join(repo, "sub/.husky/_/post-index-change"), hook());
	chmodSync(join(repo, "sub/.husky/_/post-index-change"), 0o755);
	const later = new Date(Date.now() + 5000);
	utimesSync(join(repo, "sub/lib.txt"), later, later);
}

describe("a submodule that uses husky", () => {
	it("session: superproject `git status` is decided on the floor when the submodule's `.husky/_` holds only husky's shims", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithHuskySubmodule(h.cwd);
		h.agent(callTool("bash", { command: "git status" }), "done");
		await h.prompt("what changed?");
		expect(verdictSources(h)).toEqual(["floor"]);
	});

	it("session: with a `post-index-change` in the submodule's `.husky/_`, superproject `git status` is reviewed and the hook never runs", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithHuskySubmodule(h.cwd);
		addReadTimeHook(h.cwd);
		h.agent(callTool("bash", { command: "git status" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("what changed?");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("facts: git itself runs that hook from superproject `git status` (the case above is real)", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		addReadTimeHook(repo);
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unsafe");
		runGit(sandbox.home, repo, "status", "--short");
		expect(existsSync(marker())).toBe(true);
	});

	it("facts: the submodule's value is placed below the submodule's tree, not the superproject's", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		// The superproject's own `.husky/_` (never used by the submodule's git) holds a read-time hook: still `safe`.
		mkdirSync(join(repo, ".husky/_"), { recursive: true });
		writeFileSync(join(repo, ".husky/_/post-index-change"), hook(), { mode: 0o755 });
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("safe");
	});

	it("facts: an absolute value in the submodule's config naming a folder with a read-time hook is `unsafe`", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		const shared = join(sandbox.home, "shared-hooks");
		mkdirSync(shared);
		writeFileSync(join(shared, "post-index-change"), hook(), { mode: 0o755 });
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", shared);
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unsafe");
	});

	it("facts: a `..` after a name in the submodule's value is not placed: `unknown`", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", "tools/../hooks");
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unknown");
	});

	it("facts: a leading `..` in the submodule's value is placed from its real top (an eightieth review)", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		runGit(sandbox.home, join(repo, "sub"), "config", "core.hooksPath", "../hooks");
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("safe");
		mkdirSync(join(repo, "hooks"), { recursive: true });
		writeFileSync(join(repo, "hooks/post-index-change"), hook(), { mode: 0o755 });
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unsafe");
	});

	it("facts: a submodule config whose `core.worktree` names another folder is `unknown` (git would place the hooks there)", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		const elsewhere = join(sandbox.home, "elsewhere");
		mkdirSync(join(elsewhere, ".husky/_"), { recursive: true });
		writeFileSync(join(elsewhere, ".husky/_/post-index-change"), hook(), { mode: 0o755 });
		runGit(sandbox.home, join(repo, "sub"), "config", "core.worktree", elsewhere);
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unknown");
	});

	it("facts: a submodule that is not checked out is not entered by git; its `core.hooksPath` alone keeps `safe`", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		runGit(sandbox.home, repo, "submodule", "deinit", "-q", "-f", "sub");
		rmSync(join(repo, "sub"), { recursive: true, force: true });
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("safe");
	});

	it("facts: a submodule that is not checked out with another program key in its config is still `unsafe`", async () => {
		const repo = join(sandbox.home, "repo");
		superprojectWithHuskySubmodule(repo);
		runGit(sandbox.home, join(repo, "sub"), "config", "core.fsmonitor", "touch /tmp/x");
		runGit(sandbox.home, repo, "submodule", "deinit", "-q", "-f", "sub");
		expect((await readGitConfigFacts(repo, sandbox.home)).config).toBe("unsafe");
	});
});

describe("writes in a superproject with a husky submodule", () => {
	it("session: a write of a plain file in the superproject is decided on the floor; one into the submodule's `.husky/_` is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		superprojectWithHuskySubmodule(h.cwd);
		await expectNotesOnFloorAndWriteReviewed(h, "sub/.husky/_/post-commit", hook());
	});
});
