// Eighty-fourth review (facts): the armed paths behind the session findings, with real git 2.39 showing where it
// runs the hook. Each test but the controls failed before its fix (the names say what was wrong).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { repositoryAt } from "../src/git-folder-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

/** git's exit status and output (it may fail). */
function gitStatus(cwd: string, ...args: string[]): { ok: boolean; out: string } {
	try {
		const out = execFileSync("git", args, {
			cwd,
			env: { ...process.env, HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
		});
		return { ok: true, out: out.trim() };
	} catch (error) {
		return { ok: false, out: String((error as { stderr?: string }).stderr ?? "") };
	}
}

describe("a HEAD file beside refs/ hides a nested clone under a git-folder part name", () => {
	function workspace(): { ws: string; client: string } {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, {
			"README.md": "x\n",
			".gitignore": "api/modules/\n",
			"api/HEAD": "HTTP/1.1 200 OK\n",
		});
		const client = join(ws, "api/modules/client");
		initWithFiles(sandbox.home, client, { "client.ts": "x\n" });
		runGit(sandbox.home, client, "config", "core.hooksPath", "../../../tools/hooks");
		mkdirSync(join(ws, "tools/hooks"), { recursive: true });
		return { ws, client };
	}

	it("control: with api/HEAD alone, the clone's hooks folder ws/tools/hooks is armed", async () => {
		const { ws } = workspace();
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});

	it("after `mkdir api/refs` (a floor write) api/ counts as a git folder whose `modules` is not listed, though git takes no repository there (repositoryAt: none) and still runs the clone's ../../../tools/hooks: not armed", async () => {
		const { ws, client } = workspace();
		mkdirSync(join(ws, "api/refs"));
		expect(repositoryAt(join(ws, "api"))).toBe("none");
		expect(gitStatus(client, "rev-parse", "--git-path", "hooks").out).toBe("../../../tools/hooks");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "tools/hooks")]);
		expect(armed).toContain(join(ws, "tools/hooks"));
	});
});

describe("a push into a non-bare repository runs its relative core.hooksPath from the git folder", () => {
	it("git's receive-pack runs vendor/lib/.git/../../shared-hooks (= vendor/shared-hooks), also for a rejected push to the checked-out branch; the armed paths hold ws/shared-hooks (where commits run hooks) but not vendor/shared-hooks", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "vendor/\n" });
		const lib = join(ws, "vendor/lib");
		initWithFiles(sandbox.home, lib, { "lib.txt": "x\n" });
		runGit(sandbox.home, lib, "config", "core.hooksPath", "../../shared-hooks");
		mkdirSync(join(ws, "shared-hooks"));
		mkdirSync(join(ws, "vendor/shared-hooks"));
		const marker = join(sandbox.home, "marker");
		writeFileSync(join(ws, "vendor/shared-hooks/pre-receive"), `#!/bin/sh\necho "$PWD" > ${marker}\n`, {
			mode: 0o755,
		});
		const copy = join(sandbox.home, "lib-copy");
		runGit(sandbox.home, sandbox.home, "clone", "-q", lib, copy);
		runGit(sandbox.home, copy, "commit", "-q", "--allow-empty", "-m", "work");
		const push = gitStatus(copy, "push", "origin", "HEAD");
		expect({ pushed: push.ok, hookRanIn: existsSync(marker) ? readFileSync(marker, "utf8").trim() : "" }).toEqual({
			pushed: false,
			hookRanIn: join(lib, ".git"),
		});
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "vendor/shared-hooks")]);
		expect({
			commitHooks: armed.includes(join(ws, "shared-hooks")),
			pushHooks: armed.includes(join(ws, "vendor/shared-hooks")),
		}).toEqual({
			commitHooks: true,
			pushHooks: true,
		});
	});
});

describe("a submodule put away and no longer named (the fix of the false review)", () => {
	/** The repository at `repo` whose submodule `ui` (its own core.hooksPath `value`) was deinit-ed and removed. */
	function removedSubmodule(repo: string, value: string): void {
		const src = `${repo}-ui-src`;
		initWithFiles(sandbox.home, src, { "ui.txt": "x\n" });
		initWithFiles(sandbox.home, repo, { "README.md": "x\n" });
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "ui");
		runGit(sandbox.home, repo, "commit", "-qm", "ui");
		runGit(sandbox.home, join(repo, "ui"), "config", "core.hooksPath", value);
		runGit(sandbox.home, repo, "submodule", "deinit", "-q", "-f", "ui");
		runGit(sandbox.home, repo, "rm", "-q", "-f", "ui");
		runGit(sandbox.home, repo, "commit", "-qm", "drop ui");
	}

	it("a value without `..` (husky's .husky/_) arms the tree of the repository holding it", async () => {
		const repo = join(sandbox.home, "code/app");
		removedSubmodule(repo, ".husky/_");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(join(sandbox.home, "code"), [repo]);
		expect(armed).toContain(repo);
		expect(armed).not.toContain(join(sandbox.home, "code"));
	});

	it("a value with `..` may name any folder: the repository's armed paths are unknown (its root counts as armed)", async () => {
		const repo = join(sandbox.home, "code/app");
		removedSubmodule(repo, "../../shared-hooks");
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(join(sandbox.home, "code"), [repo]);
		expect(armed).toContain(join(sandbox.home, "code"));
	});
});
