// Repository shapes an eighth review used to get read-only git past the floor, each in a real Pi session over real
// git or against the shell's readers: another worktree's FETCH_HEAD, a submodule whose git folder sits inside it, a
// tag that names a blob, a diff of folders above the repository's top, a relative include through a linked `.git`,
// the user's config linked into the workspace, and a shallow clone deepened after its history was listed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGitConfigFacts } from "../src/git-config-reader.ts";
import { createGitHistoryFacts } from "../src/git-history-reader.ts";
import { deniedBashCall, guardianSandboxPerTest, initWithFiles, runGit, startInGitRepo } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

function git(cwd: string, ...args: string[]): void {
	runGit(sandbox.home, cwd, ...args);
}

describe("read-only git in repository shapes an eighth review found", () => {
	it("reviews another worktree's spelling of FETCH_HEAD after a fetch of a branch that adds .env", async () => {
		const h = await startInGitRepo(sandbox);
		const upstream = join(sandbox.home, "upstream");
		initWithFiles(sandbox.home, upstream, { "README.md": "hello\n" });
		git(upstream, "checkout", "-q", "-b", "pr");
		writeFileSync(join(upstream, ".env"), "FETCHED_SECRET_8\n");
		git(upstream, "add", ".env");
		git(upstream, "commit", "-qm", "env");
		git(h.cwd, "fetch", "-q", upstream, "pr");
		const { sources, shown } = await deniedBashCall(h, "git log -p main-worktree/FETCH_HEAD");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("FETCHED_SECRET_8");
	});

	it("reviews git status where a submodule added with `git add` keeps its own git folder, whose config runs a program", async () => {
		const h = await startInGitRepo(sandbox);
		const sub = join(h.cwd, "sub");
		initWithFiles(sandbox.home, sub, { "s.txt": "s\n" });
		git(h.cwd, "add", "sub"); // an embedded repository: a gitlink, no .gitmodules, its git folder inside it
		git(h.cwd, "commit", "-qm", "sub");
		git(sub, "config", "core.fsmonitor", "touch ../sub-fsmonitor-ran; false");
		writeFileSync(join(sub, "s.txt"), "changed\n");
		const { sources } = await deniedBashCall(h, "git status");
		expect(sources).toEqual(["reviewer"]);
		expect(existsSync(join(h.cwd, "sub-fsmonitor-ran"))).toBe(false);
	});

	it("reviews `git show` of a tag that names a blob, which no commit walk reads", async () => {
		const h = await startInGitRepo(sandbox);
		const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
			cwd: h.cwd,
			input: "TAGGED_BLOB_SECRET_8\n",
			encoding: "utf8",
		}).trim();
		git(h.cwd, "tag", "blobtag", blob);
		const { sources, shown } = await deniedBashCall(h, "git show blobtag");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("TAGGED_BLOB_SECRET_8");
	});

	it("reviews `git diff` of folders above the repository's top, which git compares by itself", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		initWithFiles(sandbox.home, join(h.cwd, "proj"), { "README.md": "hello\n" });
		mkdirSync(join(h.cwd, "a"));
		mkdirSync(join(h.cwd, "b"));
		writeFileSync(join(h.cwd, "a", ".env"), "ABOVE_TOP_SECRET_8\n");
		const { sources, shown } = await deniedBashCall(h, "cd proj && git diff ../a ../b");
		expect(sources).toEqual(["reviewer"]);
		expect(shown).not.toContain("ABOVE_TOP_SECRET_8");
	});
});

describe("the config reader (eighth review)", () => {
	it("follows a relative include through a linked git folder as the system does: `.git/../x.cfg` beside the link's target", async () => {
		const ws = mkdtempSync(join(tmpdir(), "guardian-linked-git-"));
		try {
			mkdirSync(join(ws, "vault"));
			runGit(sandbox.home, join(ws, "vault"), "init", "-q", "--bare", "p.git");
			runGit(sandbox.home, join(ws, "vault", "p.git"), "config", "core.bare", "false");
			runGit(sandbox.home, join(ws, "vault", "p.git"), "config", "include.path", "../shared.cfg");
			symlinkSync(join(ws, "vault", "p.git"), join(ws, ".git"));
			writeFileSync(join(ws, "shared.cfg"), "[core]\n\tquotePath = false\n");
			writeFileSync(join(ws, "vault", "shared.cfg"), "[core]\n\tfsmonitor = touch ran\n");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("unsafe");
		} finally {
			await rm(ws, { recursive: true, force: true });
		}
	});

	it("lists the index's submodules again once the index changed, and reads their git folders on every read", async () => {
		const ws = mkdtempSync(join(tmpdir(), "guardian-gitlinks-"));
		try {
			initWithFiles(sandbox.home, ws, { "README.md": "hello\n" });
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("safe");
			initWithFiles(sandbox.home, join(ws, "sub"), { "s.txt": "s\n" });
			git(ws, "add", "sub"); // a new index: the submodule is found
			git(join(ws, "sub"), "config", "core.fsmonitor", "touch ran");
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("unsafe");
			git(join(ws, "sub"), "config", "--unset", "core.fsmonitor"); // the same index: its folder is read again
			expect((await readGitConfigFacts(ws, sandbox.home)).config).toBe("safe");
		} finally {
			await rm(ws, { recursive: true, force: true });
		}
	});

	it("counts the program keys of the user's config when the agent may write it (a link into the workspace)", async () => {
		const ws = mkdtempSync(join(tmpdir(), "guardian-dotfiles-"));
		try {
			runGit(sandbox.home, ws, "init", "-q");
			writeFileSync(join(ws, "gitconfig"), "[core]\n\tfsmonitor = touch ran\n");
			symlinkSync(join(ws, "gitconfig"), join(sandbox.home, ".gitconfig"));
			const inWorkspace = (path: string) => path === ws || path.startsWith(`${ws}/`);
			expect((await readGitConfigFacts(ws, sandbox.home, inWorkspace)).config).toBe("unsafe");
			// Outside the agent's reach it stays the user's own choice.
			expect((await readGitConfigFacts(ws, sandbox.home, () => false)).config).toBe("safe");
		} finally {
			await rm(ws, { recursive: true, force: true });
		}
	});
});

describe("the history listing (eighth review)", () => {
	it("reads the whole history again when a shallow clone is deepened, which may move no ref", async () => {
		const upstream = mkdtempSync(join(tmpdir(), "guardian-shallow-up-"));
		const clone = mkdtempSync(join(tmpdir(), "guardian-shallow-clone-"));
		try {
			initWithFiles(sandbox.home, upstream, { "README.md": "hello\n" });
			writeFileSync(join(upstream, "deploy.key"), "k\n");
			git(upstream, "add", "deploy.key");
			git(upstream, "commit", "-qm", "key");
			git(upstream, "rm", "-q", "deploy.key");
			git(upstream, "commit", "-qm", "no key");
			git(clone, "clone", "-q", "--depth", "1", `file://${upstream}`, ".");
			const facts = createGitHistoryFacts();
			const isProtected = (path: string) => path.endsWith(".key");
			const list = async () => (await facts.protectedPathsOf(clone, isProtected, "p"))?.protectedPaths ?? ["unknown"];
			expect(await list()).toEqual([]);
			git(clone, "fetch", "-q", "--unshallow");
			expect(await list()).toEqual([`${clone}/deploy.key`]);
		} finally {
			await rm(upstream, { recursive: true, force: true });
			await rm(clone, { recursive: true, force: true });
		}
	});
});
