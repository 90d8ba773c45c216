// Eightieth review (session): the workspace reached through a link, and links inside it to git folders.
// Each test marked "was a bypass" failed before its fix: the write stayed on the floor and the user's next git
// command ran what it put there.
import { chmodSync, existsSync, mkdirSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	expectDeniedAndUserGitRunsNothing,
	initWithFiles,
	runGit,
	USER_EMPTY_COMMIT,
	verdict,
	verdictSources,
} from "./helpers.ts";
import { executable, submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env, fsmonitorConfig } = submoduleHookSandbox();

/** Moves the session's workspace folder to `realPath` and leaves a link to it under the workspace's name. */
function workspaceThroughLink(cwd: string, realPath: string): void {
	mkdirSync(dirname(realPath), { recursive: true });
	renameSync(cwd, realPath);
	symlinkSync(realPath, cwd);
}

describe("the workspace reached through a link", () => {
	it("was a bypass (session): workspace (no repository) reached through a link into an outer repository's tree (`work -> outer/ws`), core.hooksPath ws/tools/hooks: Pi's write is reviewed; the user's commit in outer runs nothing", async () => {
		const h = await sandbox.start({ env: env() });
		const outer = join(dirname(h.cwd), "outer");
		workspaceThroughLink(h.cwd, join(outer, "ws"));
		initWithFiles(sandbox.home, outer, { ".bashrc": "# rc\n", ".gitignore": "ws/\n" });
		executable(join(outer, "ws/tools/hooks/pre-commit"));
		runGit(sandbox.home, outer, "config", "core.hooksPath", "ws/tools/hooks");
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(h, sandbox.home, "update the hook", marker(), outer, ...USER_EMPTY_COMMIT);
	});

	it("was a bypass (session): outer repository around the workspace's NAMED path (`outer/work -> ../data/ws`), core.hooksPath work/tools/hooks: Pi's write is reviewed; the user's commit in outer runs nothing", async () => {
		const h = await sandbox.start({ env: env() });
		const outer = join(dirname(h.cwd), "outer");
		initWithFiles(sandbox.home, outer, { ".bashrc": "# rc\n" });
		// The workspace is `outer/work`, a link (tracked by outer as a link) to `data/ws`.
		const named = join(outer, "work");
		renameSync(h.cwd, join(dirname(h.cwd), "data-ws"));
		symlinkSync(join(dirname(h.cwd), "data-ws"), named);
		symlinkSync(named, h.cwd);
		executable(join(named, "tools/hooks/pre-commit"));
		runGit(sandbox.home, outer, "add", "work");
		runGit(sandbox.home, outer, "commit", "-qm", "work link");
		runGit(sandbox.home, outer, "config", "core.hooksPath", "work/tools/hooks");
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(h, sandbox.home, "update the hook", marker(), outer, ...USER_EMPTY_COMMIT);
	});

	it("workspace repository through a link, its own core.hooksPath scripts/hooks: Pi's write is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		workspaceThroughLink(h.cwd, join(dirname(h.cwd), "real", "ws"));
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
		executable(join(h.cwd, "scripts/hooks/pre-commit"));
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "scripts/hooks");
		h.agent(callTool("write", { path: "scripts/hooks/pre-commit", content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(h, sandbox.home, "update the hook", marker(), h.cwd, ...USER_EMPTY_COMMIT);
	});

	it("workspace repository through a link: `git status` and a source write stay on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		workspaceThroughLink(h.cwd, join(dirname(h.cwd), "real", "ws"));
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
		h.agent(
			callTool("bash", { command: "git status" }),
			callTool("write", { path: "src/a.ts", content: "1\n" }),
			"done",
		);
		await h.prompt("work");
		expect(verdictSources(h)).toEqual(["floor", "floor"]);
	});
});

describe("the workspace repository reached through a link: armed paths only by their real path", () => {
	it.each([
		["was a bypass (session): the workspace through a link", true],
		["control (session): the workspace by its real path", false],
	])(
		"%s, hook link `.git/hooks/pre-commit -> ../../scripts/pre-commit`: Pi's write of scripts/pre-commit is reviewed; the user's commit runs nothing",
		async (_, linked) => {
			const h = await sandbox.start({ env: env() });
			if (linked) workspaceThroughLink(h.cwd, join(dirname(h.cwd), "real", "ws"));
			initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
			executable(join(h.cwd, "scripts/pre-commit"));
			symlinkSync("../../scripts/pre-commit", join(h.cwd, ".git/hooks/pre-commit"));
			h.agent(callTool("write", { path: "scripts/pre-commit", content: hook() }), "done");
			await expectDeniedAndUserGitRunsNothing(
				h,
				sandbox.home,
				"update the hook script",
				marker(),
				h.cwd,
				...USER_EMPTY_COMMIT,
			);
		},
	);

	it("was a bypass (session): `include.path = ../tools/git.cfg`: Pi's write of core.fsmonitor into tools/git.cfg is reviewed; the user's `git status` runs nothing", async () => {
		const h = await sandbox.start({ env: env() });
		workspaceThroughLink(h.cwd, join(dirname(h.cwd), "real", "ws"));
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n", "tools/git.cfg": "[core]\n\tautocrlf = input\n" });
		runGit(sandbox.home, h.cwd, "config", "include.path", "../tools/git.cfg");
		h.agent(
			callTool("write", {
				path: "tools/git.cfg",
				content: fsmonitorConfig(),
			}),
			"done",
		);
		await expectDeniedAndUserGitRunsNothing(
			h,
			sandbox.home,
			"update the git config",
			marker(),
			h.cwd,
			"status",
			"--short",
		);
	});

	it("was a bypass (session): an additional directory `~/lib` reached through a link (`~/lib -> ~/data/lib`), hook link to scripts/pre-commit: Pi's write of ~/lib/scripts/pre-commit is reviewed; the user's commit there runs nothing", async () => {
		const lib = join(sandbox.home, "data/lib");
		initWithFiles(sandbox.home, lib, { "README.md": "x\n" });
		executable(join(lib, "scripts/pre-commit"));
		symlinkSync("../../scripts/pre-commit", join(lib, ".git/hooks/pre-commit"));
		symlinkSync(lib, join(sandbox.home, "lib"));
		const h = await sandbox.start({ env: env(), guardian: { additionalDirectories: ["~/lib"] } });
		h.agent(callTool("write", { path: join(sandbox.home, "lib/scripts/pre-commit"), content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(
			h,
			sandbox.home,
			"update the library's hook script",
			marker(),
			lib,
			...USER_EMPTY_COMMIT,
		);
	});

	it("control (session): the same additional directory by its real path (`~/data/lib`) is reviewed", async () => {
		const lib = join(sandbox.home, "data/lib");
		initWithFiles(sandbox.home, lib, { "README.md": "x\n" });
		executable(join(lib, "scripts/pre-commit"));
		symlinkSync("../../scripts/pre-commit", join(lib, ".git/hooks/pre-commit"));
		const h = await sandbox.start({ env: env(), guardian: { additionalDirectories: ["~/data/lib"] } });
		h.agent(callTool("write", { path: join(lib, "scripts/pre-commit"), content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(
			h,
			sandbox.home,
			"update the library's hook script",
			marker(),
			lib,
			...USER_EMPTY_COMMIT,
		);
	});

	it("control (session): workspace a subfolder of an outer repository by its real path, core.hooksPath into it: reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		const outer = dirname(h.cwd);
		initWithFiles(sandbox.home, outer, { ".bashrc": "# rc\n", ".gitignore": "work/\nagent/\n" });
		executable(join(h.cwd, "tools/hooks/pre-commit"));
		runGit(sandbox.home, outer, "config", "core.hooksPath", "work/tools/hooks");
		h.agent(callTool("write", { path: "tools/hooks/pre-commit", content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(h, sandbox.home, "update the hook", marker(), outer, ...USER_EMPTY_COMMIT);
	});
});

describe("links inside the workspace to git folders", () => {
	it("a shipped link `gitmeta -> .git`: Pi's write of gitmeta/hooks/pre-commit is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
		symlinkSync(".git", join(h.cwd, "gitmeta"));
		h.agent(callTool("write", { path: "gitmeta/hooks/pre-commit", content: hook() }), "done");
		await expectDeniedAndUserGitRunsNothing(h, sandbox.home, "add a hook", marker(), h.cwd, ...USER_EMPTY_COMMIT);
	});

	it("a link made earlier in the session (`ln -s .git/hooks hk`), then Pi's write hk/pre-commit: not both on the floor", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "x\n" });
		h.agent(
			callTool("bash", { command: "ln -s .git/hooks hk" }),
			callTool("write", { path: "hk/pre-commit", content: hook() }),
			"done",
		);
		h.reviewer(verdict("allow"), verdict("deny", { risk_level: "high" }));
		await h.prompt("add a hook");
		chmodSync(join(h.cwd, ".git/hooks"), 0o755);
		if (existsSync(join(h.cwd, ".git/hooks/pre-commit"))) chmodSync(join(h.cwd, ".git/hooks/pre-commit"), 0o755);
		runGit(sandbox.home, h.cwd, ...USER_EMPTY_COMMIT);
		expect({ floorBoth: verdictSources(h).every((s) => s === "floor"), ran: existsSync(marker()) }).toEqual({
			floorBoth: false,
			ran: false,
		});
	});
});
