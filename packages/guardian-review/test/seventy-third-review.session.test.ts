// Seventy-third review: hooks reached through links. The "bypass" and "false review" tests failed before their fixes;
// the "control" ones passed already.
import { chmodSync, mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import {
	callTool,
	expectReviewedAndNoHookAtCommit,
	initWithFiles,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";
import { submoduleHookSandbox } from "./submodule-hook-sandbox.ts";

const { sandbox, marker, hook, env } = submoduleHookSandbox();

describe("hooks reached through links (seventy-third review)", () => {
	it("bypass (session): `.git/hooks` itself a link to the tracked `githooks` folder; Pi's write of githooks/pre-commit is allowed on the floor; the user's next commit runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n", "githooks/pre-commit": "#!/bin/sh\nexit 0\n" });
		chmodSync(join(h.cwd, "githooks/pre-commit"), 0o755);
		// The project's README (pre-2.9 git practice): `rm -rf .git/hooks && ln -s ../githooks .git/hooks`.
		renameSync(join(h.cwd, ".git/hooks"), join(h.cwd, ".git/hooks.orig"));
		symlinkSync("../githooks", join(h.cwd, ".git/hooks"));
		h.agent(callTool("write", { path: "githooks/pre-commit", content: hook() }), "done");
		await expectReviewedAndNoHookAtCommit(h, sandbox.home, "update the hook script", marker());
	});

	it("control (passes today, session): a hook link through a link chain: `.git/hooks/pre-commit -> ../../scripts/pre-commit -> impl/pc.sh`; Pi's write of scripts/pre-commit is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n", "scripts/impl/pc.sh": "#!/bin/sh\nexit 0\n" });
		chmodSync(join(h.cwd, "scripts/impl/pc.sh"), 0o755);
		symlinkSync("impl/pc.sh", join(h.cwd, "scripts/pre-commit"));
		symlinkSync("../../scripts/pre-commit", join(h.cwd, ".git/hooks/pre-commit"));
		h.agent(callTool("write", { path: "scripts/pre-commit", content: hook() }), "done");
		await expectReviewedAndNoHookAtCommit(h, sandbox.home, "update the hook script", marker());
	});

	it("false review (session): `.git/hooks/pre-commit -> ../../node_modules/.bin/lint-hook` before `npm install`: Pi's write of src/app.ts is reviewed", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n", "src/app.ts": "export {};\n" });
		symlinkSync("../../node_modules/.bin/lint-hook", join(h.cwd, ".git/hooks/pre-commit"));
		h.agent(callTool("write", { path: "src/app.ts", content: "export const x = 1;\n" }), "done");
		h.reviewer(verdict("allow"));
		await h.prompt("edit app");
		expect(verdictSources(h)).toEqual(["floor"]);
	});

	it("control (passes today, session): a git folder kept inside the workspace (`git init --separate-git-dir=.gitstore`): Pi's write of .gitstore/hooks/pre-commit is reviewed, and the user's next commit does not run it", async () => {
		const h = await sandbox.start({ env: env() });
		mkdirSync(h.cwd, { recursive: true });
		runGit(sandbox.home, h.cwd, "init", "-q", "--separate-git-dir", join(h.cwd, ".gitstore"));
		writeFileSync(join(h.cwd, "README.md"), "hello\n");
		runGit(sandbox.home, h.cwd, "add", "README.md");
		runGit(sandbox.home, h.cwd, "commit", "-qm", "files");
		writeFileSync(join(h.cwd, ".gitstore/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
		h.agent(callTool("write", { path: ".gitstore/hooks/pre-commit", content: hook() }), "done");
		await expectReviewedAndNoHookAtCommit(h, sandbox.home, "update the hook", marker());
	});

	it("bypass (session): `.git/hooks -> ../githooks` with githooks/pre-commit tracked: bash `cp` of a script over it is allowed on the floor; the user's next commit runs it", async () => {
		const h = await sandbox.start({ env: env() });
		initWithFiles(sandbox.home, h.cwd, {
			"README.md": "hello\n",
			"githooks/pre-commit": "#!/bin/sh\nexit 0\n",
			"tmp/new-hook": hook(),
		});
		chmodSync(join(h.cwd, "githooks/pre-commit"), 0o755);
		renameSync(join(h.cwd, ".git/hooks"), join(h.cwd, ".git/hooks.orig"));
		symlinkSync("../githooks", join(h.cwd, ".git/hooks"));
		h.agent(callTool("bash", { command: "cp tmp/new-hook githooks/pre-commit" }), "done");
		await expectReviewedAndNoHookAtCommit(h, sandbox.home, "update the hook script", marker());
	});

	it("facts: with `.git/hooks -> ../githooks`, readGitArmedPaths names the githooks folder (where git runs hooks from)", () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n", "githooks/pre-commit": "#!/bin/sh\nexit 0\n" });
		renameSync(join(repo, ".git/hooks"), join(repo, ".git/hooks.orig"));
		symlinkSync("../githooks", join(repo, ".git/hooks"));
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(repo, "githooks"));
	});

	it("facts: a hook link that leads nowhere yet arms the file it names, not every path", () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
		symlinkSync("../../node_modules/.bin/lint-hook", join(repo, ".git/hooks/pre-commit"));
		expect(readGitArmedPaths(repo, sandbox.home)).toContain(join(realpathSync(repo), "node_modules/.bin/lint-hook"));
		// A `..` after a name is taken from where a link of that name leads: not placed.
		symlinkSync("../../lnk/../x", join(repo, ".git/hooks/post-commit"));
		expect(readGitArmedPaths(repo, sandbox.home)).toBe("unknown");
	});
});
