// Seventy-first review: core.hooksPath folders judged by their hooks (git-config-reader.ts hooksPathFoldersVerdict,
// readGitHooksVerdict). Each test failed before its fix.
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitConfigFacts, readGitHooksVerdict } from "../src/git-config-reader.ts";
import { callTool, guardianSandboxPerTest, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();
const marker = () => join(sandbox.home, "MARKER");
const hook = () => `#!/bin/sh\necho ran >> ${marker()}\n`;

/** A cloned project that ships `.githooks/post-index-change` (executable, as a tracked 100755 file is checked out). */
function projectWithGithooks(cwd: string): void {
	initWithFiles(sandbox.home, cwd, { "README.md": "hello\n", ".githooks/post-index-change": hook() });
	chmodSync(join(cwd, ".githooks/post-index-change"), 0o755);
	writeFileSync(join(cwd, "README.md"), "changed\n");
}

describe("the user's own relative core.hooksPath (seventy-first review)", () => {
	it("bypass (session): `git status` allowed on the floor runs the project's .githooks/post-index-change under the user's `core.hooksPath = .githooks`", async () => {
		// The user's ~/.gitconfig: `git config --global core.hooksPath .githooks` (each repository's own .githooks).
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		projectWithGithooks(h.cwd);
		h.agent(callTool("bash", { command: "git status" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("what changed?");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("bypass (session): `git add README.md` allowed on the floor runs it too (hooks fact `none`)", async () => {
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		projectWithGithooks(h.cwd);
		h.agent(callTool("bash", { command: "git add README.md" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("stage it");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});

	it("facts: config and hooks verdicts name the folder git runs hooks from", async () => {
		const repo = join(sandbox.home, "repo");
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
		projectWithGithooks(repo);
		expect({
			config: (await readGitConfigFacts(repo, sandbox.home)).config,
			hooks: readGitHooksVerdict(repo, sandbox.home),
		}).toEqual({ config: "unsafe", hooks: "present" });
	});
});

describe("a core.hooksPath with `..` after a link (seventy-first review)", () => {
	it("bypass (session): `git status` allowed while git runs sub/hk/post-index-change (`lnk/../hk`, lnk -> sub/deep)", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n", "sub/deep/x": "x\n" });
		symlinkSync("sub/deep", join(h.cwd, "lnk"));
		mkdirSync(join(h.cwd, "sub/hk"));
		writeFileSync(join(h.cwd, "sub/hk/post-index-change"), hook(), { mode: 0o755 });
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "lnk/../hk");
		writeFileSync(join(h.cwd, "README.md"), "changed\n");
		h.agent(callTool("bash", { command: "git status" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("what changed?");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	});
});
