// A mutation audit (m7) of git-config-reader.ts's code changed for the seventieth and seventy-first reviews
// (gitConfigRedirected, hooksPathFoldersVerdict, namesOtherUsersHome). Each test kills a mutant that survived the
// reader's tests and changed a verdict the floor decides by.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyGuardianDefaults, floorContextFor, treeEntryTest } from "@pi-policy/policy-kernel/guardian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { readGitConfigFacts, readGitHooksVerdict } from "../src/git-config-reader.ts";
import { readSearchTreeVerdict } from "../src/search-tree-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();
const marker = () => join(sandbox.home, "MARKER");

describe("a relative GIT_CONFIG_SYSTEM in Pi's environment (m7, CONFIG_LOCATION_ENV)", () => {
	const saved = process.env.GIT_CONFIG_SYSTEM;
	const savedNoSystem = process.env.GIT_CONFIG_NOSYSTEM;
	afterEach(() => {
		if (saved === undefined) delete process.env.GIT_CONFIG_SYSTEM;
		else process.env.GIT_CONFIG_SYSTEM = saved;
		if (savedNoSystem === undefined) delete process.env.GIT_CONFIG_NOSYSTEM;
		else process.env.GIT_CONFIG_NOSYSTEM = savedNoSystem;
	});

	it("bypass: git reads sys.gitconfig from the working tree as the system's config; the reader must not say safe", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hi\n" });
		writeFileSync(join(repo, "sys.gitconfig"), `[core]\n\tfsmonitor = "echo ran >> ${marker()}; false"\n`);
		writeFileSync(join(repo, "README.md"), "changed\n");
		delete process.env.GIT_CONFIG_NOSYSTEM;
		process.env.GIT_CONFIG_SYSTEM = "sys.gitconfig";
		const facts = await readGitConfigFacts(repo, sandbox.home, (path) => path.startsWith(repo));
		const hooks = readGitHooksVerdict(repo, sandbox.home);
		execFileSync("git", ["status", "--short"], {
			cwd: repo,
			env: { ...process.env, HOME: sandbox.home },
			stdio: "ignore",
		});
		expect({ gitRanProgram: existsSync(marker()), config: facts.config, hooks }).toEqual({
			gitRanProgram: true,
			config: "unknown",
			hooks: "unknown",
		});
	});
});

describe("core.hooksPath folders judged one by one (m7, hooksPathFoldersVerdict)", () => {
	it("bypass: a missing folder named first does not end the look: git runs the last value's post-index-change", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, {
			"README.md": "hi\n",
			".githooks/post-index-change": `#!/bin/sh\necho ran >> ${marker()}\n`,
		});
		chmodSync(join(repo, ".githooks/post-index-change"), 0o755);
		// Two values in the repository's config: git takes the last, the reader judges each.
		runGit(sandbox.home, repo, "config", "core.hooksPath", "no-such-hooks");
		runGit(sandbox.home, repo, "config", "--add", "core.hooksPath", ".githooks");
		writeFileSync(join(repo, "README.md"), "changed\n");
		const facts = await readGitConfigFacts(repo, sandbox.home);
		execFileSync("git", ["status", "--short"], {
			cwd: repo,
			env: { ...process.env, HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
			stdio: "ignore",
		});
		expect({ gitRanProgram: existsSync(marker()), config: facts.config }).toEqual({
			gitRanProgram: true,
			config: "unsafe",
		});
	});

	it("`core.hooksPath = ~` names the user's home, placed: no read-time hook there is safe, not unknown (its other files are hooks git may run: present)", async () => {
		const repo = join(sandbox.home, "repo");
		mkdirSync(repo, { recursive: true });
		initWithFiles(sandbox.home, repo, { "README.md": "hi\n" });
		runGit(sandbox.home, repo, "config", "core.hooksPath", "~");
		expect({
			config: (await readGitConfigFacts(repo, sandbox.home)).config,
			hooks: readGitHooksVerdict(repo, sandbox.home),
		}).toEqual({ config: "safe", hooks: "present" });
	});

	it("the hooks verdict cannot place another user's home either (`~nobody/hooks`, readGitHooksVerdict)", async () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hi\n" });
		runGit(sandbox.home, repo, "config", "core.hooksPath", "~nobody/hooks");
		expect(readGitHooksVerdict(repo, sandbox.home)).toBe("unknown");
	});
});

describe("ripgrep's global excludes under a relative XDG_CONFIG_HOME (m7, globalExcludesFile)", () => {
	afterEach(() => vi.unstubAllEnvs());
	it("bypass: `cfg/git/ignore` wherever rg runs may whitelist `.env`, so hidden entries count (protected)", async () => {
		const base = mkdtempSync(join(tmpdir(), "m7-xdg-"));
		try {
			const workspace = join(base, "repo");
			const home = join(base, "home");
			mkdirSync(join(workspace, "sub"), { recursive: true });
			mkdirSync(home, { recursive: true });
			writeFileSync(join(workspace, "sub/a.py"), "x");
			writeFileSync(join(workspace, "sub/.env"), "SECRET=1");
			vi.stubEnv("XDG_CONFIG_HOME", "cfg");
			const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), workspace, home);
			const verdict = await readSearchTreeVerdict(
				{ root: join(workspace, "sub"), skipsHidden: true, followsLinks: false },
				treeEntryTest(context),
				home,
			);
			expect(verdict).toBe("protected");
		} finally {
			rmSync(base, { recursive: true, force: true });
		}
	});
});

describe("the paths git runs programs from, with a `..` in core.hooksPath (m7, readGitArmedPaths)", () => {
	it("bypass: `lnk/../hk` with lnk -> sub/deep is sub/hk to git, not hk: the armed paths cannot be named (unknown)", () => {
		const repo = join(sandbox.home, "repo");
		initWithFiles(sandbox.home, repo, { "README.md": "hi\n", "sub/deep/x": "x\n" });
		symlinkSync("sub/deep", join(repo, "lnk"));
		runGit(sandbox.home, repo, "config", "core.hooksPath", "lnk/../hk");
		expect(readGitArmedPaths(repo, sandbox.home)).toBe("unknown");
	});
});
