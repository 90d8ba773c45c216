// A forty-third review, in real Pi sessions (faux agent and reviewer; real git and bash): a config file the
// repository's config includes (`include.path`), where an `fsmonitor` line ran at the user's next `git status`;
// the same for a file the user's own config includes from a dotfiles repository; a file Stow linked two levels into
// `~/.config`; and more folders in one command than the hooks facts are read for, in an additional directory.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { readHomeConfigLinkTargets } from "../src/path-link-reader.ts";
import {
	callTool,
	guardianSandboxPerTest,
	initWithFiles,
	PROJECT_HOOK,
	promptsWithDenials,
	runGit,
	startInGitRepo,
	writeProjectHook,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review43-home-" });
const FSMONITOR = (marker: string) => `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false #"\\n'`;

describe("config files git includes", () => {
	it("reviews a write to a file the repository's config includes, and the next git status runs nothing", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, "tools"));
		writeFileSync(join(h.cwd, "tools", "git.cfg"), "[alias]\n\tst = status\n");
		runGit(sandbox.home, h.cwd, "config", "include.path", "../tools/git.cfg");
		const marker = join(sandbox.home, "include-ran");
		h.agent(
			callTool("bash", { command: `${FSMONITOR(marker)} >> tools/git.cfg` }),
			callTool("write", { path: "tools/git.cfg", content: `[core]\n\tfsmonitor = "touch ${marker}; false #"\n` }),
			"next",
			callTool("bash", { command: "echo x > tools/other.cfg" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "tune git", "and more")).toEqual(["reviewer", "reviewer", "floor"]);
		expect(readFileSync(join(h.cwd, "tools", "git.cfg"), "utf8")).toBe("[alias]\n\tst = status\n");
		runGit(sandbox.home, h.cwd, "status");
		expect(existsSync(marker)).toBe(false);
	});

	it("reviews a write to a file the user's own config includes from a dotfiles workspace", async () => {
		const h = await sandbox.start({});
		writeFileSync(join(h.cwd, "aliases.cfg"), "[alias]\n\tco = checkout\n");
		writeFileSync(join(sandbox.home, ".gitconfig"), `[include]\n\tpath = ${join(h.cwd, "aliases.cfg")}\n`);
		h.agent(callTool("bash", { command: `${FSMONITOR(join(sandbox.home, "m"))} >> aliases.cfg` }), "done");
		expect(await promptsWithDenials(h, 1, "add an alias")).toEqual(["reviewer"]);
		expect(readFileSync(join(h.cwd, "aliases.cfg"), "utf8")).toBe("[alias]\n\tco = checkout\n");
	});
});

describe("dotfiles linked deeper", () => {
	it("finds a file Stow linked two levels into ~/.config, and reviews a write of it", async () => {
		const h = await sandbox.start({});
		mkdirSync(join(h.cwd, "git"));
		writeFileSync(join(h.cwd, "git", "config"), "[user]\n\tname = dev\n");
		mkdirSync(join(sandbox.home, ".config", "git"), { recursive: true });
		symlinkSync(join(h.cwd, "git", "config"), join(sandbox.home, ".config", "git", "config"));
		expect(readHomeConfigLinkTargets(sandbox.home, [h.cwd]).targets).toEqual([join(h.cwd, "git", "config")]);
		await h.command("/reload");
		h.agent(
			callTool("bash", { command: `${FSMONITOR(join(sandbox.home, "m"))} >> git/config` }),
			callTool("bash", { command: "echo notes > git/README.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tune git")).toEqual(["reviewer", "floor"]);
	});
});

describe("more write folders than the hooks facts are read for", () => {
	it("reviews the write in an additional directory too", async () => {
		const other = join(sandbox.home, "other");
		initWithFiles(sandbox.home, other, { "README.md": "other\n" });
		runGit(sandbox.home, other, "config", "core.hooksPath", "ci/hooks");
		mkdirSync(join(other, "ci", "hooks"), { recursive: true });
		writeProjectHook(join(other, "ci", "hooks", "pre-commit"));
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~/other"] } });
		const folders = Array.from({ length: 33 }, (_, i) => `~/other/build/d${i}/x`).join(" ");
		h.agent(
			callTool("bash", { command: `mkdir -p ${folders} && printf '#!/bin/sh\\nid\\n' > ~/other/ci/hooks/pre-commit` }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "build")).toEqual(["reviewer"]);
		expect(readFileSync(join(other, "ci", "hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
	});
});

describe("the paths the shell reads", () => {
	it("names hooks folders and included files, and takes a hooks path under another user's home as unknown", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "r\n" });
		runGit(sandbox.home, repo, "config", "core.hooksPath", "ci/hooks");
		runGit(sandbox.home, repo, "config", "include.path", "../shared.cfg");
		const found = await readGitArmedPaths(repo, sandbox.home);
		expect(found).toEqual(expect.arrayContaining([join(repo, "ci", "hooks"), join(repo, ".git", "..", "shared.cfg")]));
		runGit(sandbox.home, repo, "config", "core.hooksPath", "~nobody/hooks");
		expect(await readGitArmedPaths(repo, sandbox.home)).toBe("unknown");
	});
});
