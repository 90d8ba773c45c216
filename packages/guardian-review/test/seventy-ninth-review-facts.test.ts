// Seventy-ninth review (facts): the seventy-eighth review's fixes (unplaced / fallbackTop, readGitmodules).
// The "bypass" tests failed before their fix (a stale `core.worktree` no longer hides where `.gitmodules` puts the
// submodule); the control passed then too.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";
import { addSubmodule } from "./submodule-hook-sandbox.ts";

const sandbox = guardianSandboxPerTest();
const marker = () => join(sandbox.home, "MARKER");

/**
 * lib (name `lib`) at vendor/lib with `core.hooksPath scripts/hooks`; moved to third/party/lib by `git mv` (core.worktree
 * follows), then the user checks out the commit before the move: .gitmodules says vendor/lib again, core.worktree
 * still says third/party/lib.
 */
function movedThenCheckedOutBack(repo: string): void {
	const src = `${repo}-libsrc`;
	initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
	initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
	addSubmodule(sandbox.home, repo, src, "vendor/lib", "lib");
	runGit(sandbox.home, join(repo, "vendor/lib"), "config", "core.hooksPath", "scripts/hooks");
	mkdirSync(join(repo, "third/party"), { recursive: true });
	runGit(sandbox.home, repo, "mv", "vendor/lib", "third/party/lib");
	runGit(sandbox.home, repo, "commit", "-qm", "moved");
	runGit(sandbox.home, repo, "checkout", "-q", "HEAD~1");
}

describe("a submodule whose core.worktree is stale: fallbackTop is dropped for it", () => {
	it("bypass (facts): vendor/lib/scripts/hooks is not armed (third/party/lib/scripts/hooks is), yet `git submodule update` runs vendor/lib/scripts/hooks/post-checkout", () => {
		const repo = join(sandbox.home, "repo");
		movedThenCheckedOutBack(repo);
		const armed = readGitArmedPaths(repo, sandbox.home);
		const hookFolder = join(repo, "vendor/lib/scripts/hooks");
		const armedOk = armed === "unknown" || armed.some((p) => p === hookFolder || p.startsWith(`${hookFolder}/`));
		// What git does next: the write lands, the user's `git submodule update` runs it.
		mkdirSync(hookFolder, { recursive: true });
		writeFileSync(join(hookFolder, "post-checkout"), `#!/bin/sh\necho ran >> ${marker()}\n`);
		chmodSync(join(hookFolder, "post-checkout"), 0o755);
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "update", "-q");
		expect({ ran: existsSync(marker()), armed: armedOk ? "armed or unknown" : armed }).toEqual({
			ran: true,
			armed: "armed or unknown",
		});
	});
});
