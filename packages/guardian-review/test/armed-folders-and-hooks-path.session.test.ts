// A fortieth review, in real Pi sessions (faux agent and reviewer; real git and bash), default config: a config
// written under an innocent folder name and renamed onto a tool's config folder (`mv staged .vscode`), mise's
// `conf.d` and Dev Containers' named configurations, and a hook written in the folder the repository's own
// `core.hooksPath` names (directly or through an included config file), which ran at the user's next commit.
// Each is reviewed; the reviewer's denial leaves nothing behind, and the user's next commit runs no hook.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	guardianSandboxPerTest,
	PROJECT_HOOK,
	promptsWithDenials,
	runGit,
	startInGitRepo,
	writeProjectHook,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-armed-folders-home-" });

const HOOK = (marker: string) => `#!/bin/sh\\nid > ${marker}\\n`;

describe("configs reached by renaming a folder", () => {
	it("reviews a folder renamed onto .vscode or .cargo, and mise's and Dev Containers' other names", async () => {
		const h = await startInGitRepo(sandbox);
		const task =
			'{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"id","runOptions":{"runOn":"folderOpen"}}]}';
		h.agent(
			callTool("bash", { command: `mkdir -p st1 && printf '%s' '${task}' > st1/tasks.json && mv st1 .vscode` }),
			callTool("bash", {
				command: "mkdir -p st2 && printf '[build]\\nrustc-wrapper = \"w.sh\"\\n' > st2/config.toml && mv st2 .cargo",
			}),
			"next",
			callTool("write", { path: ".config/mise/conf.d/a.toml", content: '[hooks]\nenter = "id"\n' }),
			callTool("write", { path: ".devcontainer/python/devcontainer.json", content: '{ "initializeCommand": "id" }\n' }),
			"next",
			callTool("bash", { command: "mkdir -p st3 && echo notes > st3/a.md && mv st3 docs" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 4, "set up the editor", "and the tools", "then the docs");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "floor"]);
		for (const path of [".vscode", ".cargo", ".config/mise/conf.d/a.toml", ".devcontainer"]) {
			expect(existsSync(join(h.cwd, path)), path).toBe(false);
		}
		expect(existsSync(join(h.cwd, "docs", "a.md"))).toBe(true);
	});
});

describe("the folder core.hooksPath names", () => {
	it("reviews a hook written there, by bash and Pi's tools, and the next commit runs none", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, "scripts", "git-hooks"), { recursive: true });
		// The project's own hook, executable: a write keeps its mode, so git would run what the agent puts there.
		writeProjectHook(join(h.cwd, "scripts", "git-hooks", "pre-commit"));
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "scripts/git-hooks");
		const marker = join(sandbox.home, "hook-ran");
		h.agent(
			callTool("bash", { command: `printf '${HOOK(marker)}' > scripts/git-hooks/pre-commit` }),
			callTool("write", { path: "scripts/git-hooks/commit-msg", content: `#!/bin/sh\nid > ${marker}\n` }),
			"next",
			callTool("bash", { command: "echo 'make build' > scripts/build.sh" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 2, "add a hook", "and a script");
		expect(sources).toEqual(["reviewer", "reviewer", "floor"]);
		expect(readFileSync(join(h.cwd, "scripts", "git-hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
		expect(existsSync(join(h.cwd, "scripts", "git-hooks", "commit-msg"))).toBe(false);
		runGit(sandbox.home, h.cwd, "commit", "--allow-empty", "-q", "-m", "next");
		expect(existsSync(marker)).toBe(false);
	});

	it("finds the folder through a config file the repository includes", async () => {
		const h = await startInGitRepo(sandbox);
		writeFileSync(join(h.cwd, ".git", "hooks.cfg"), "[core]\n\thooksPath = tools/hooks\n");
		runGit(sandbox.home, h.cwd, "config", "include.path", "hooks.cfg");
		h.agent(callTool("bash", { command: "mkdir -p tools/hooks && printf 'id' > tools/hooks/pre-push" }), "done");
		expect(await promptsWithDenials(h, 1, "add a push hook")).toEqual(["reviewer"]);
		expect(existsSync(join(h.cwd, "tools", "hooks", "pre-push"))).toBe(false);
	});
});
