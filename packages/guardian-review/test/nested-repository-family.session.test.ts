// A nested repository's own family: an ignored clone below the workspace (`services/api`) is read with its own
// submodules and linked worktrees, not only its own git folder. A submodule the user put away there (`git submodule
// deinit`) keeps its git folder in `services/api/.git/modules/`, and the next `git submodule update --init` checks it
// out and runs its hooks, from a `core.hooksPath` that may name a workspace folder. The bypass test failed before.
import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { callTool, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";
import { addSubmodule, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env } = submoduleHookSandbox();

/**
 * The workspace with an ignored clone `services/api` whose submodule `lib` runs hooks from
 * `core.hooksPath = ../../../shared-hooks` (the workspace's `shared-hooks`), put away with `git submodule deinit`.
 */
function cloneWithPutAwaySubmodule(ws: string): string {
	initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "services/\n", "shared-hooks/README.md": "x\n" });
	const src = join(sandbox.home, "lib-src");
	initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
	const api = join(ws, "services/api");
	initWithFiles(sandbox.home, api, { "README.md": "api\n" });
	addSubmodule(sandbox.home, api, src, "lib");
	runGit(sandbox.home, join(api, "lib"), "config", "core.hooksPath", "../../../shared-hooks");
	runGit(sandbox.home, api, "submodule", "deinit", "-q", "-f", "lib");
	return api;
}

describe("a nested clone's own submodules", () => {
	it("was a bypass (session): a submodule put away in an ignored clone, its core.hooksPath the workspace's shared-hooks: Pi's write of shared-hooks/post-checkout is reviewed; the user's `git submodule update --init` there runs nothing", async () => {
		const h = await sandbox.start({ env: env() });
		const api = cloneWithPutAwaySubmodule(h.cwd);
		h.agent(callTool("write", { path: "shared-hooks/post-checkout", content: hook() }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("add the shared hook");
		const written = join(h.cwd, "shared-hooks/post-checkout");
		if (existsSync(written)) chmodSync(written, 0o755);
		runGit(sandbox.home, api, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init");
		expect({ sources: verdictSources(h), ran: existsSync(marker()) }).toEqual({ sources: ["reviewer"], ran: false });
	}, 60_000);

	it("control (session): plain writes beside such a clone stay on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		cloneWithPutAwaySubmodule(h.cwd);
		mkdirSync(join(h.cwd, "src"), { recursive: true });
		h.agent(callTool("write", { path: "src/a.ts", content: "1\n" }), "done");
		await h.prompt("work");
		expect(verdictSources(h)).toEqual(["floor"]);
	}, 60_000);
});

describe("which nested clones are read with their family (facts)", () => {
	it("one whose submodule was put away and removed from .gitmodules, the file gone too: its modules/ folder is read", async () => {
		const ws = join(sandbox.home, "ws");
		const api = cloneWithPutAwaySubmodule(ws);
		rmSync(join(api, ".gitmodules"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "shared-hooks")]);
		// Put away and no longer named, its relative hooks path cannot be placed: the root counts as armed.
		expect(armed).toContain(ws);
	});

	it("one with a linked worktree outside the workspace whose config.worktree names the workspace's shared-hooks", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, {
			"README.md": "x\n",
			".gitignore": "services/\n",
			"shared-hooks/README.md": "x\n",
		});
		const api = join(ws, "services/api");
		initWithFiles(sandbox.home, api, { "README.md": "api\n" });
		const wt = join(sandbox.home, "api-wt");
		runGit(sandbox.home, api, "worktree", "add", "-q", wt, "-b", "feature");
		runGit(sandbox.home, api, "config", "extensions.worktreeConfig", "true");
		runGit(sandbox.home, wt, "config", "--worktree", "core.hooksPath", join(ws, "shared-hooks"));
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "shared-hooks")]);
		expect(armed).toContain(join(ws, "shared-hooks"));
	});

	it("a plain clone: its .gitmodules is not armed (no family walk), its hooks folder is", async () => {
		const ws = join(sandbox.home, "ws");
		initWithFiles(sandbox.home, ws, { "README.md": "x\n", ".gitignore": "services/\n" });
		const api = join(ws, "services/api");
		initWithFiles(sandbox.home, api, { "README.md": "api\n" });
		const armed = await createGitConfigFacts(sandbox.home).armedPathsAround(ws, [join(ws, "src")]);
		expect(armed).toContain(join(api, ".git/hooks"));
		expect(armed).not.toContain(join(api, ".gitmodules"));
	});
});
