// Eighty-fifth review (facts): attacks on a5b43c5's program paths (gitProgramPathWords and programPathsArmed).
// Each test runs real git 2.39 to show which file it runs, then asks the armed paths the floor would get. Each but the
// controls failed before its fix. Programs found by an interpreter (`python3 -m tools.x`, `npx prettier`, `node
// scripts/pretty` for `pretty.js`) and `!` aliases (run only when the user names them) are left out by design: see
// decision 0013 and the README's Limits.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

/** git's exit status and output (it may fail). */
function git(cwd: string, ...args: string[]): { ok: boolean; out: string } {
	try {
		const out = execFileSync("git", args, {
			cwd,
			env: {
				...process.env,
				HOME: sandbox.home,
				GIT_CONFIG_NOSYSTEM: "1",
				GIT_PAGER: "",
				PAGER: "",
				GIT_AUTHOR_NAME: "t",
				GIT_AUTHOR_EMAIL: "t@example.invalid",
				GIT_COMMITTER_NAME: "t",
				GIT_COMMITTER_EMAIL: "t@example.invalid",
			},
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
		});
		return { ok: true, out: out.trim() };
	} catch (error) {
		return { ok: false, out: String((error as { stderr?: string }).stderr ?? "") };
	}
}

const marker = () => join(sandbox.home, "MARKER");

/** An executable script at `path` that leaves the marker, then copies its input (a filter's or textconv's job). */
function script(path: string, body = "cat\n"): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, `#!/bin/sh\necho ran >> ${marker()}\n${body}`);
	chmodSync(path, 0o755);
}

/** A workspace repository with a notebook under a `strip` filter attribute; answers its path. */
function notebookRepo(): string {
	const ws = join(sandbox.home, "ws");
	initWithFiles(sandbox.home, ws, {
		"README.md": "x\n",
		".gitattributes": "*.ipynb filter=strip\n",
		"src/a.ts": "x\n",
	});
	writeFileSync(join(ws, "n.ipynb"), "{}\n");
	return ws;
}

async function armed(ws: string, written: string): Promise<readonly string[]> {
	return createGitConfigFacts(sandbox.home).armedPathsAround(ws, [dirname(written)]);
}

/** True when a write of `path` lands at or below an armed path. */
function isArmed(paths: readonly string[], path: string): boolean {
	return paths.some(
		(armedPath) => path === armedPath || path.startsWith(armedPath.endsWith("/") ? armedPath : `${armedPath}/`),
	);
}

describe("program words the split missed (were bypasses)", () => {
	it("filter.strip.clean = $(git rev-parse --show-toplevel)/scripts/strip.sh: git runs ws/scripts/strip.sh at `git add`; the word read is /scripts/strip.sh", async () => {
		const ws = notebookRepo();
		const file = join(ws, "scripts/strip.sh");
		script(file);
		runGit(sandbox.home, ws, "config", "filter.strip.clean", "$(git rev-parse --show-toplevel)/scripts/strip.sh");
		const paths = await armed(ws, file);
		git(ws, "add", "n.ipynb");
		expect({ ran: existsSync(marker()), armed: isArmed(paths, file) }).toEqual({ ran: true, armed: true });
	});

	it("filter.strip.clean with backquotes (`git rev-parse --show-toplevel`/scripts/strip.sh)", async () => {
		const ws = notebookRepo();
		const file = join(ws, "scripts/strip.sh");
		script(file);
		runGit(sandbox.home, ws, "config", "filter.strip.clean", "`git rev-parse --show-toplevel`/scripts/strip.sh");
		const paths = await armed(ws, file);
		git(ws, "add", "n.ipynb");
		expect({ ran: existsSync(marker()), armed: isArmed(paths, file) }).toEqual({ ran: true, armed: true });
	});

	it("tar.tgz.command = scripts/gz.sh (a key the kernel does not list): `git archive --format=tgz` runs it", async () => {
		const ws = notebookRepo();
		const file = join(ws, "scripts/gz.sh");
		script(file);
		runGit(sandbox.home, ws, "config", "tar.tgz.command", "scripts/gz.sh");
		const paths = await armed(ws, file);
		git(ws, "archive", "--format=tgz", "-o", join(sandbox.home, "out.tgz"), "HEAD");
		expect({ ran: existsSync(marker()), armed: isArmed(paths, file) }).toEqual({ ran: true, armed: true });
	});

	it("filter.strip.clean = 'scripts/strip notebook.sh' (a quoted name with a space; the kernel's own unit test expects the word tools/ssh for 'tools/ssh wrapper'): git runs ws/scripts/strip notebook.sh; ws/scripts/strip is armed", async () => {
		const ws = notebookRepo();
		const file = join(ws, "scripts/strip notebook.sh");
		script(file);
		runGit(sandbox.home, ws, "config", "filter.strip.clean", "'scripts/strip notebook.sh'");
		const paths = await armed(ws, file);
		git(ws, "add", "n.ipynb");
		expect({ ran: existsSync(marker()), armed: isArmed(paths, file) }).toEqual({ ran: true, armed: true });
	});

	it("core.editor = scripts/ed.sh, `git commit` run in src/: git runs the editor from the top (control: ws/scripts/ed.sh is armed)", async () => {
		const ws = notebookRepo();
		script(join(ws, "scripts/ed.sh"), "exit 0\n");
		script(join(ws, "src/scripts/ed.sh"), `echo sub >> ${marker()}\nexit 0\n`);
		runGit(sandbox.home, ws, "config", "core.editor", "scripts/ed.sh");
		const paths = await armed(ws, join(ws, "scripts/ed.sh"));
		git(join(ws, "src"), "commit", "--allow-empty");
		const ran = existsSync(marker()) ? readFileSync(marker(), "utf8").trim() : "";
		expect({ ran, armed: isArmed(paths, join(ws, "scripts/ed.sh")) }).toEqual({ ran: "ran", armed: true });
	});
});

describe("words that armed folders around every write (were false reviews)", () => {
	it("control: an ordinary ~/.gitconfig (delta, ssh -i ~/.ssh/key, git-lfs, nbstripout, an absolute credential helper, a fetch alias) arms no workspace file", async () => {
		const ws = notebookRepo();
		writeFileSync(
			join(sandbox.home, ".gitconfig"),
			[
				"[core]\n\tpager = delta\n\tsshCommand = ssh -i ~/.ssh/key\n\teditor = code --wait\n",
				"[interactive]\n\tdiffFilter = delta --color-only\n",
				'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
				'[filter "nbstripout"]\n\tclean = \\"/usr/bin/python3\\" -m nbstripout\n[diff "ipynb"]\n\ttextconv = \\"/usr/bin/python3\\" -m nbstripout -t\n',
				"[credential]\n\thelper = /usr/lib/git-core/git-credential-libsecret\n",
				'[alias]\n\tpr = "!f() { git fetch origin pull/$1/head:pr-$1 && git checkout pr-$1; }; f"\n',
			].join(""),
		);
		const file = join(ws, "src/a.ts");
		const paths = await armed(ws, file);
		expect(isArmed(paths, file)).toBe(false);
	});

	it("a user's ~/.gitconfig alias `!git branch --show-current | tr / -` arms `/`: every write of every repository", async () => {
		const ws = notebookRepo();
		writeFileSync(join(sandbox.home, ".gitconfig"), '[alias]\n\tslug = "!git branch --show-current | tr / -"\n');
		const file = join(ws, "src/a.ts");
		const paths = await armed(ws, file);
		expect(isArmed(paths, file)).toBe(false);
	});

	it("a user's ~/.gitconfig alias `!cd ../ && git status` arms the folder above the top: every workspace write", async () => {
		const ws = notebookRepo();
		writeFileSync(join(sandbox.home, ".gitconfig"), '[alias]\n\tup = "!cd ../ && git status"\n');
		const file = join(ws, "src/a.ts");
		const paths = await armed(ws, file);
		expect(isArmed(paths, file)).toBe(false);
	});

	it("a project's alias `!npx prettier --write src/` arms all of src/", async () => {
		const ws = notebookRepo();
		runGit(sandbox.home, ws, "config", "alias.fmt", "!npx prettier --write src/");
		const file = join(ws, "src/a.ts");
		const paths = await armed(ws, file);
		expect(isArmed(paths, file)).toBe(false);
	});
});
