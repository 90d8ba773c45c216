// The git config reader reads synchronously (decision 0013, "Reading cost"), so it must never wait on a file: a FIFO
// or a device where a config file, an include or `HEAD` should be is judged unknown at once, never opened for a read
// that blocks the process. Real folders, real git.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { createGitConfigFacts, readGitConfigFacts } from "../src/git-config-reader.ts";

let root = "";
let home = "";
let repo = "";
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-no-wait-")));
	home = join(root, "home");
	repo = join(root, "repo");
	mkdirSync(home);
	mkdirSync(join(repo, "src"), { recursive: true });
	execFileSync("git", ["init", "-q", repo]);
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

/** Appends `text` to the repository's own config. */
function appendConfig(text: string): void {
	writeFileSync(join(repo, ".git", "config"), text, { flag: "a" });
}

describe("a file that would block a read", () => {
	it("reads a plain repository's facts (the control)", async () => {
		appendConfig("[core]\n\thooksPath = tools/hooks\n");
		// The folder is judged by its hooks (a seventieth review): one git runs on reads makes the config unsafe.
		mkdirSync(join(repo, "tools", "hooks"), { recursive: true });
		writeFileSync(join(repo, "tools", "hooks", "post-index-change"), "#!/bin/sh\n");
		// The git folder's own hooks are listed too (by their real path they may be a workspace folder), and so is
		// `.gitmodules` (a seventy-seventh review).
		// The relative value placed from the git folder too, where a push into the repository runs hooks (an
		// eighty-fourth review).
		expect(readGitArmedPaths(join(repo, "src"), home)).toEqual([
			join(repo, ".git/hooks"),
			join(repo, "tools/hooks"),
			join(repo, ".git/tools/hooks"),
			join(repo, ".gitmodules"),
		]);
		expect((await readGitConfigFacts(join(repo, "src"), home)).config).toBe("unsafe");
	});

	it("takes an include that is a FIFO as unknown, for the config facts and the armed paths", async () => {
		execFileSync("mkfifo", [join(repo, "shared.cfg")]);
		appendConfig("[include]\n\tpath = ../shared.cfg\n");
		expect(readGitArmedPaths(join(repo, "src"), home)).toBe("unknown");
		expect((await readGitConfigFacts(join(repo, "src"), home)).config).toBe("unknown");
		expect(await createGitConfigFacts(home).armedPathsAround(join(repo, "src"), [])).toEqual([join(repo, "src")]);
	});

	it("takes an include that is a character device as unknown", async () => {
		appendConfig("[include]\n\tpath = /dev/zero\n");
		expect(readGitArmedPaths(repo, home)).toBe("unknown");
		expect((await readGitConfigFacts(repo, home)).config).toBe("unknown");
	});

	it("takes a repository whose HEAD is a FIFO as none git would take, so unknown", async () => {
		rmSync(join(repo, ".git", "HEAD"));
		execFileSync("mkfifo", [join(repo, ".git", "HEAD")]);
		expect(readGitArmedPaths(repo, home)).toBe("unknown");
		expect((await readGitConfigFacts(repo, home)).config).toBe("unknown");
	});

	it("takes the user's config as a FIFO as unknown, never opening it", async () => {
		execFileSync("mkfifo", [join(home, ".gitconfig")]);
		const facts = await readGitConfigFacts(repo, home);
		// Unknown even where the agent may not write it: it may set `core.hooksPath` (a seventy-second review).
		expect(facts.config).toBe("unknown");
		expect(facts.urlCredentials).toBe("unknown");
		expect((await readGitConfigFacts(repo, home, (path) => path.startsWith(home))).config).toBe("unknown");
	});
});
