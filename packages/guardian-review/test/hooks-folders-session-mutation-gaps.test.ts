// In real Pi sessions (faux agent and reviewer; real git and bash): the `core.hooksPath` facts reach Pi's edit tool,
// count the user's own relative value in every repository, treat a repository that cannot be judged as a hooks
// folder, and make every write reviewed once a command writes in more folders than the facts are read for. And the
// reviewer is shown home as the workspace names it when `$HOME` leads through a link.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	guardianSandboxPerTest,
	initWithFiles,
	PROJECT_HOOK,
	promptsWithDenials,
	runGit,
	startInGitRepo,
	verdict,
	verdictSources,
	writeProjectHook,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-hooks-gaps-home-" });

describe("the core.hooksPath folders for every writing tool and every config", () => {
	it("reviews Pi's edit of a hook in the folder core.hooksPath names", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, "scripts", "git-hooks"), { recursive: true });
		writeProjectHook(join(h.cwd, "scripts", "git-hooks", "pre-commit"));
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "scripts/git-hooks");
		h.agent(
			callTool("edit", { path: "scripts/git-hooks/pre-commit", edits: [{ oldText: "exit 0", newText: "id" }] }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tune the hook")).toEqual(["reviewer"]);
		expect(readFileSync(join(h.cwd, "scripts", "git-hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
	});

	it("reviews a hook in the folder the user's own relative core.hooksPath names in the workspace repository", async () => {
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = tools/hooks\n");
		const h = await startInGitRepo(sandbox);
		h.agent(
			callTool("bash", { command: "mkdir -p tools/hooks && printf '#!/bin/sh\\nid\\n' > tools/hooks/pre-push" }),
			"next",
			callTool("bash", { command: "echo notes > notes.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "add a push hook", "and notes")).toEqual(["reviewer", "floor"]);
		expect(existsSync(join(h.cwd, "tools", "hooks", "pre-push"))).toBe(false);
	});

	// Since the eightieth review nested repositories are read for the files outside them that they arm: one whose
	// config cannot be judged may name any file of the workspace, so every write there is reviewed.
	it("reviews a write in a nested repository whose config cannot be judged, and every write beside it", async () => {
		const h = await startInGitRepo(sandbox);
		const lib = join(h.cwd, "lib");
		initWithFiles(sandbox.home, lib, { "README.md": "lib\n" });
		mkdirSync(join(lib, ".git", "more"));
		writeFileSync(
			join(lib, ".git", "config"),
			`${readFileSync(join(lib, ".git", "config"), "utf8")}[include]\n\tpath = more\n`,
		);
		h.agent(
			callTool("bash", { command: "printf 'x' > lib/pre-commit" }),
			"next",
			callTool("bash", { command: "echo notes > notes.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "write in lib", "and notes")).toEqual(["reviewer", "reviewer"]);
		expect(existsSync(join(lib, "pre-commit"))).toBe(false);
	});

	it("reads the hooks folders again after a call that may have written, and reviews a hook in one set since", async () => {
		const h = await startInGitRepo(sandbox);
		h.agent(
			callTool("bash", { command: "echo notes > notes.md" }),
			"next",
			callTool("write", { path: "tools/hooks/pre-commit", content: "#!/bin/sh\nid\n" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("take notes");
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "tools/hooks");
		await h.prompt("and a hook");
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expect(existsSync(join(h.cwd, "tools", "hooks", "pre-commit"))).toBe(false);
	});

	it("reviews a command that writes in more than 32 folders", async () => {
		const h = await startInGitRepo(sandbox);
		const folders = Array.from({ length: 33 }, (_, index) => `d${index + 1}`);
		for (const folder of folders) mkdirSync(join(h.cwd, folder));
		h.agent(
			callTool("bash", { command: folders.map((folder) => `echo x > ${folder}/a.txt`).join(" && ") }),
			"next",
			callTool("bash", { command: "echo x > d1/b.txt && echo x > d2/b.txt" }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "fill the folders", "and two more")).toEqual(["reviewer", "floor"]);
		expect(existsSync(join(h.cwd, "d1", "a.txt"))).toBe(false);
		expect(existsSync(join(h.cwd, "d2", "b.txt"))).toBe(true);
	});
});

describe("the reviewer's view of home", () => {
	it("resolves ~ as the workspace names home when $HOME leads through a link", async () => {
		const root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-hooks-gaps-link-")));
		try {
			const linkedHome = join(root, "home-link");
			const h = await sandbox.start({ env: { HOME: linkedHome }, guardianOptions: { home: linkedHome } });
			symlinkSync(h.cwd, linkedHome);
			h.agent(callTool("write", { path: "~/.bashrc", content: "id\n" }), "done");
			expect(await promptsWithDenials(h, 1, "tune the shell")).toEqual(["reviewer"]);
			expect(h.requestText(h.reviewerRequests()[0]!)).toContain(`"resolvedPath": "${realpathSync(h.cwd)}/.bashrc"`);
			expect(existsSync(join(h.cwd, ".bashrc"))).toBe(false);
		} finally {
			await rm(root, { recursive: true, force: true });
		}
	});
});
