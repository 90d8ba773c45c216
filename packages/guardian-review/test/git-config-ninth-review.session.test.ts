// What a ninth review used to get read-only git past the config reader, each in a real Pi session over real git
// (the floor allowed the command and git ran the planted program) or against the reader itself: discovery through
// links (git looks from the real working directory), a submodule's linked worktree and `config.worktree`, the
// user's config the agent may write when a part of it cannot be judged, a `.git` folder git skips, and the exact
// text of `gitdir:` and `commondir` files.
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join, relative } from "node:path";
import { applyGuardianDefaults, floorContextFor } from "@pi-policy/policy-kernel/guardian";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts, readGitConfigFacts, readGitHooksVerdict } from "../src/git-config-reader.ts";
import {
	callTool,
	type GuardianHarness,
	guardianSandboxPerTest,
	initWithFiles,
	runGit,
	verdict,
	verdictSources,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

function git(cwd: string, ...args: string[]): void {
	runGit(sandbox.home, cwd, ...args);
}

/** The marker file a planted program writes, in the test's HOME (outside the workspace). */
function marker(): string {
	return join(sandbox.home, "MARKER");
}

/** A `core.fsmonitor` value that writes the marker and fails (git then looks at every file itself). */
function plantedProgram(): string {
	return `echo ran >> ${marker()}; false`;
}

/** A session in a repository holding README.md; `git` in bash runs with the sandbox's HOME and no system config. */
async function startInRepo(): Promise<GuardianHarness> {
	const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
	initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
	return h;
}

/** Runs `command` through the agent, the reviewer denying it; expects it reviewed and the marker never written. */
async function expectReviewed(h: GuardianHarness, command: string): Promise<void> {
	h.agent(callTool("bash", { command }), "done");
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt("look at the state");
	expect(verdictSources(h)).toEqual(["reviewer"]);
	expect(existsSync(marker())).toBe(false);
}

/** Runs `body` in a fresh temporary folder, removed after. */
async function inTempFolder(prefix: string, body: (dir: string) => Promise<void>): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	try {
		await body(dir);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** Makes `dir` a git folder git takes by itself (HEAD, objects, refs), with `config`'s text. */
function plantGitFolder(dir: string, config: string): void {
	mkdirSync(join(dir, "objects"), { recursive: true });
	mkdirSync(join(dir, "refs", "heads"), { recursive: true });
	writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
	writeFileSync(join(dir, "config"), config);
}

describe("discovery from the real working directory (ninth review)", () => {
	it("reviews `cd docs && git status` where docs links into a committed folder git takes as a bare repository", async () => {
		const h = await startInRepo();
		const evil = join(h.cwd, "evil");
		plantGitFolder(
			evil,
			`[core]\n\trepositoryformatversion = 0\n\tworktree = inner\n\tfsmonitor = "${plantedProgram()}"\n`,
		);
		for (const name of ["objects", "refs/heads", "inner"]) {
			mkdirSync(join(evil, name), { recursive: true });
			writeFileSync(join(evil, name, ".keep"), "");
		}
		symlinkSync("evil/inner", join(h.cwd, "docs"));
		git(h.cwd, "add", ".");
		git(h.cwd, "commit", "-qm", "docs");
		await expectReviewed(h, "cd docs && git status");
	});

	it("reviews `cd lnk && git status` where lnk leads into another repository whose config runs a program", async () => {
		const h = await startInRepo();
		const other = join(h.cwd, "other");
		initWithFiles(sandbox.home, other, { "src/a.txt": "a\n" });
		git(other, "config", "core.fsmonitor", plantedProgram());
		symlinkSync("other/src", join(h.cwd, "lnk"));
		await expectReviewed(h, "cd lnk && git status");
	});

	it("finds the repository and its hooks from the real path, and names the top only through a path that holds it", async () => {
		await inTempFolder("guardian-ninth-links-", async (ws) => {
			initWithFiles(sandbox.home, join(ws, "repo"), { "README.md": "hello\n", "docs/a.md": "a\n" });
			initWithFiles(sandbox.home, join(ws, "other"), { "src/a.txt": "a\n" });
			writeFileSync(join(ws, "other", ".git", "hooks", "pre-commit"), "#!/bin/sh\n");
			symlinkSync("../other/src", join(ws, "repo", "lnk"));
			symlinkSync(".", join(ws, "repo", "self"));
			const throughLink = await readGitConfigFacts(join(ws, "repo", "lnk"), sandbox.home);
			expect(throughLink.config).toBe("safe");
			expect(throughLink.top).toBeUndefined(); // `rev:path` is read from `other`, which no name here holds
			expect(await readGitHooksVerdict(join(ws, "repo", "lnk"))).toBe("present");
			expect((await readGitConfigFacts(join(ws, "repo", "self", "docs"), sandbox.home)).top).toBe(
				join(ws, "repo", "self"),
			);
			// Without a named top, no history is listed there (its paths would be `other`'s, not the names the floor
			// judges), so git that prints content there is reviewed.
			writeFileSync(join(ws, "other", "src", ".env"), "LINKED_SECRET_9=1\n");
			git(join(ws, "other"), "add", "src/.env");
			git(join(ws, "other"), "commit", "-qm", "env");
			const repo = join(ws, "repo");
			const lnk = join(repo, "lnk");
			const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), repo, sandbox.home, {});
			const gathered = await createGitConfigFacts(sandbox.home).forDirectories([lnk], context, [lnk]);
			expect(gathered.gitByDirectory?.get(lnk)?.config).toBe("safe");
			expect(gathered.gitByDirectory?.get(lnk)?.historyProtected).toBeUndefined();
		});
	});
});

describe("submodules judged as the repository is (ninth review)", () => {
	it("reviews git status where a submodule is a linked worktree of another repository whose config runs a program", async () => {
		const h = await startInRepo();
		const main = join(sandbox.home, "main");
		initWithFiles(sandbox.home, main, { "m.txt": "m\n" });
		git(main, "worktree", "add", "-q", join(h.cwd, "wt"));
		git(h.cwd, "add", "wt");
		git(h.cwd, "commit", "-qm", "wt");
		git(main, "config", "core.fsmonitor", plantedProgram());
		writeFileSync(join(h.cwd, "wt", "m.txt"), "changed\n");
		await expectReviewed(h, "git status");
	});

	it("reviews git status where a submodule's config.worktree runs a program (extensions.worktreeConfig)", async () => {
		const h = await startInRepo();
		const sub = join(h.cwd, "sub");
		initWithFiles(sandbox.home, sub, { "s.txt": "s\n" });
		git(h.cwd, "add", "sub");
		git(h.cwd, "commit", "-qm", "sub");
		git(sub, "config", "extensions.worktreeConfig", "true");
		git(sub, "config", "--worktree", "core.fsmonitor", plantedProgram());
		writeFileSync(join(sub, "s.txt"), "changed\n");
		await expectReviewed(h, "git status");
	});

	it("follows a submodule's includes instead of giving up on them, and reads its common folder's hooks", async () => {
		await inTempFolder("guardian-ninth-sub-", async (ws) => {
			initWithFiles(sandbox.home, ws, { "README.md": "hello\n" });
			const sub = join(ws, "sub");
			initWithFiles(sandbox.home, sub, { "s.txt": "s\n" });
			git(ws, "add", "sub");
			writeFileSync(join(sub, ".git", "extra.cfg"), "[core]\n\tquotePath = false\n");
			git(sub, "config", "include.path", "extra.cfg");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("safe");
			writeFileSync(join(sub, ".git", "extra.cfg"), "[core]\n\tfsmonitor = touch ran\n");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("unsafe");
			writeFileSync(join(sub, ".git", "extra.cfg"), "[core]\n\tquotePath = false\n");
			// A linked worktree of another repository as a submodule: git there runs that repository's hooks.
			const main = join(ws, "main");
			initWithFiles(sandbox.home, main, { "m.txt": "m\n" });
			git(main, "worktree", "add", "-q", join(ws, "wt"));
			git(ws, "add", "wt");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("safe");
			writeFileSync(join(main, ".git", "hooks", "post-index-change"), "#!/bin/sh\ntouch ran\n");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("unsafe");
		});
	});
});

describe("the user's config the agent may write (ninth review)", () => {
	/** A session whose user config is a link to `gitconfig` in the workspace, holding `text`. */
	async function startWithUserConfig(text: (ws: string) => string): Promise<GuardianHarness> {
		const h = await startInRepo();
		writeFileSync(join(h.cwd, "gitconfig"), text(h.cwd));
		symlinkSync(join(h.cwd, "gitconfig"), join(sandbox.home, ".gitconfig"));
		writeFileSync(join(h.cwd, "inc.cfg"), `[core]\n\tfsmonitor = ${plantedProgram()}\n`);
		return h;
	}

	it("reviews git status where it includes a file as `~user/…`, which the reader does not expand", async () => {
		const { username, homedir } = userInfo();
		const h = await startWithUserConfig(
			(ws) => `[include]\n\tpath = ~${username}/${relative(homedir, join(ws, "inc.cfg"))}\n`,
		);
		await expectReviewed(h, "git status");
	});

	it("reviews git status where it includes a file as `%(prefix)/…`, which the reader does not expand", async () => {
		const h = await startWithUserConfig(
			(ws) => `[include]\n\tpath = %(prefix)/../../../../../../../../..${ws}/inc.cfg\n`,
		);
		await expectReviewed(h, "git status");
	});

	it("reviews git status where it is too large to judge", async () => {
		const h = await startWithUserConfig(() => `[core]\n\tfsmonitor = ${plantedProgram()}\n#${"#".repeat(300_000)}\n`);
		await expectReviewed(h, "git status");
	});

	it("reviews git status where it includes more files than the reader reads", async () => {
		const h = await startWithUserConfig((ws) => {
			const missing = Array.from({ length: 40 }, (_, i) => `\tpath = ${ws}/missing-${i}.cfg\n`).join("");
			return `[include]\n${missing}\tpath = ${ws}/inc.cfg\n`;
		});
		await expectReviewed(h, "git status");
	});

	it("counts a file the agent's user config includes as the agent's, and leaves the user's own alone", async () => {
		await inTempFolder("guardian-ninth-user-", async (ws) => {
			initWithFiles(sandbox.home, join(ws, "repo"), { "README.md": "hello\n" });
			const repo = join(ws, "repo");
			const inWorkspace = (path: string) => path === repo || path.startsWith(`${repo}/`);
			const elsewhere = join(ws, "elsewhere.cfg");
			writeFileSync(elsewhere, `[core]\n\tfsmonitor = touch ran\n`);
			writeFileSync(join(repo, "gitconfig"), `[include]\n\tpath = ${elsewhere}\n`);
			symlinkSync(join(repo, "gitconfig"), join(sandbox.home, ".gitconfig"));
			expect((await readGitConfigFacts(repo, sandbox.home, inWorkspace)).config).toBe("unsafe");
			expect((await readGitConfigFacts(repo, sandbox.home, () => false)).config).toBe("safe");
			// The user's own config that cannot be judged leaves the credentials unknown, and the config too: it may set
			// `core.hooksPath`, which git places in the repository (a seventy-second review).
			writeFileSync(join(repo, "gitconfig"), `[include]\n\tpath = %(prefix)/etc/x.cfg\n`);
			const own = await readGitConfigFacts(repo, sandbox.home, () => false);
			expect([own.config, own.urlCredentials]).toEqual(["unknown", "unknown"]);
			expect((await readGitConfigFacts(repo, sandbox.home, inWorkspace)).config).toBe("unknown");
		});
	});
});

describe("repository shapes (ninth review)", () => {
	it("reviews `cd b && git status` where b holds an empty `.git` folder git skips, b itself being a git folder", async () => {
		const h = await startInRepo();
		const b = join(h.cwd, "b");
		plantGitFolder(b, `[core]\n\trepositoryformatversion = 0\n\tworktree = wt\n\tfsmonitor = ${plantedProgram()}\n`);
		mkdirSync(join(b, "wt"));
		mkdirSync(join(b, ".git"));
		await expectReviewed(h, "cd b && git status");
	});

	it("reviews git status where a `.git` file names a git folder with trailing blanks, which git keeps", async () => {
		const h = await startInRepo();
		const w = join(h.cwd, "w");
		for (const name of ["gd", "gd  "]) {
			git(h.cwd, "init", "-q", "--bare", name);
			git(join(h.cwd, name), "config", "core.bare", "false");
		}
		git(join(h.cwd, "gd  "), "config", "core.fsmonitor", plantedProgram());
		mkdirSync(w);
		writeFileSync(join(w, ".git"), "gitdir: ../gd  \n");
		writeFileSync(join(w, "a.txt"), "a\n");
		await expectReviewed(h, "cd w && git status");
	});

	it("takes a folder whose HEAD is a link to a missing ref as a git folder, as git does", async () => {
		await inTempFolder("guardian-ninth-head-", async (ws) => {
			initWithFiles(sandbox.home, ws, { "README.md": "hello\n" });
			const c = join(ws, "c");
			mkdirSync(join(c, "objects"), { recursive: true });
			mkdirSync(join(c, "refs"));
			mkdirSync(join(c, "wt"));
			symlinkSync("refs/heads/nothere", join(c, "HEAD"));
			writeFileSync(join(c, "config"), "[core]\n\tworktree = wt\n\tfsmonitor = touch ran\n");
			expect((await readGitConfigFacts(join(c, "wt"), sandbox.home)).config).toBe("unknown");
		});
	});

	it("reads `gitdir:` and `commondir` as git does: other lines, blanks and non-UTF-8 bytes make the facts unknown", async () => {
		await inTempFolder("guardian-ninth-gitdir-", async (ws) => {
			git(ws, "init", "-q", "--bare", "gd");
			git(join(ws, "gd"), "config", "core.bare", "false");
			const w = join(ws, "w");
			mkdirSync(w);
			const facts = async (gitFile: string | Buffer) => {
				writeFileSync(join(w, ".git"), gitFile);
				return (await readGitConfigFacts(w, sandbox.home)).config;
			};
			expect(await facts("gitdir: ../gd\n")).toBe("safe");
			expect(await facts("gitdir: ../gd\r\n")).toBe("safe");
			expect(await facts("gitdir: ../gd  \n")).toBe("unknown");
			expect(await facts("gitdir:  ../gd\n")).toBe("unknown");
			expect(await facts("gitdir: ../gd\nsecond line\n")).toBe("unknown");
			expect(await facts("gitdir:../gd\n")).toBe("unknown");
			expect(await facts(Buffer.from([...Buffer.from("gitdir: ../g"), 0xff, 0x0a]))).toBe("unknown");
			// A linked worktree's `commondir`, read the same way.
			initWithFiles(sandbox.home, join(ws, "main"), { "m.txt": "m\n" });
			git(join(ws, "main"), "worktree", "add", "-q", join(ws, "wt"));
			const commondir = join(ws, "main", ".git", "worktrees", "wt", "commondir");
			expect((await readGitConfigFacts(join(ws, "wt"), sandbox.home)).config).toBe("safe");
			writeFileSync(commondir, "../..  \n");
			expect((await readGitConfigFacts(join(ws, "wt"), sandbox.home)).config).toBe("unknown");
		});
	});

	it("resolves `..` in a `gitdir:` after the links before it, as the system does for git", async () => {
		await inTempFolder("guardian-ninth-dotdot-", async (ws) => {
			// w/.git names `lnk/../gd`, with lnk -> deep/er: git reads deep/gd, not gd.
			git(ws, "init", "-q", "--bare", "gd");
			git(join(ws, "gd"), "config", "core.bare", "false");
			mkdirSync(join(ws, "deep", "er"), { recursive: true });
			git(join(ws, "deep"), "init", "-q", "--bare", "gd");
			git(join(ws, "deep", "gd"), "config", "core.bare", "false");
			git(join(ws, "deep", "gd"), "config", "core.fsmonitor", "touch ran");
			symlinkSync("deep/er", join(ws, "lnk"));
			mkdirSync(join(ws, "w"));
			writeFileSync(join(ws, "w", ".git"), `gitdir: ${ws}/lnk/../gd\n`);
			expect((await readGitConfigFacts(join(ws, "w"), sandbox.home)).config).toBe("unsafe");
		});
	});
});
