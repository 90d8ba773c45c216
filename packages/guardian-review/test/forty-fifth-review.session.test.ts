// A forty-fifth review, in real Pi sessions (faux agent and reviewer; real git): ordinary writes in a husky
// repository (`core.hooksPath=.husky/_`) that this stop's rules had sent to review, through a folder link (the
// repository's facts were unknown there), into the top folder, or as new folders, are allowed again; the hook
// folder itself stays reviewed.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review45-home-" });

describe("ordinary writes in a husky repository", () => {
	it("allows writes through a folder link, into the top folder and as new folders; reviews the hook folder", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, ".husky", "_"), { recursive: true });
		writeProjectHook(join(h.cwd, ".husky", "_", "pre-commit"));
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", ".husky/_");
		mkdirSync(join(h.cwd, "packages", "app", "docs"), { recursive: true });
		writeFileSync(join(h.cwd, "packages", "app", "docs", "a.md"), "a\n");
		symlinkSync(join("packages", "app", "docs"), join(h.cwd, "docs"));
		mkdirSync(join(h.cwd, "notes"));
		writeFileSync(join(h.cwd, "notes", "guide.md"), "guide\n");
		h.agent(
			callTool("bash", { command: "echo more >> docs/a.md" }),
			callTool("write", { path: "docs/b.md", content: "b\n" }),
			"next",
			callTool("bash", { command: "cp notes/guide.md ." }),
			"next",
			// In a message of its own: beside a running call, a path with a missing part is unknown (decision 0023).
			callTool("bash", { command: "mkdir -p .vscode src/components/Head && echo '{}' > .vscode/extensions.json" }),
			"next",
			callTool("bash", { command: "printf '#!/bin/sh\\nid\\n' > .husky/_/pre-commit" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 1, "write docs", "copy", "set up", "and a hook");
		expect(sources).toEqual(["floor", "floor", "floor", "floor", "reviewer"]);
		expect(readFileSync(join(h.cwd, "packages", "app", "docs", "a.md"), "utf8")).toBe("a\nmore\n");
		expect(readFileSync(join(h.cwd, ".husky", "_", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
	});
});
