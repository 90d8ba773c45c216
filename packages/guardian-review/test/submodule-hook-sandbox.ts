// The set-up the submodule and worktree hook reviews (seventy-fourth onwards) share: a sandbox whose hooks leave a
// marker when they run, a superproject with a submodule, and the user's commit after the agent's call.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { callTool, guardianSandboxPerTest, initWithFiles, runGit, verdict, verdictSources } from "./helpers.ts";

/**
 * `git submodule add` of the repository at `src` into `repo` at `path` (named `name`, git's default being the
 * path), as the user runs it (`protocol.file.allow=always` for a local source), then a commit.
 */
export function addSubmodule(home: string, repo: string, src: string, path: string, name?: string): void {
	const named = name === undefined ? [] : ["--name", name];
	runGit(home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", ...named, src, path);
	runGit(home, repo, "commit", "-qm", `add ${path}`);
}

/**
 * The user puts the submodule at `path` away (`git submodule deinit -f`) and removes it (`git rm`, which drops its
 * `.gitmodules` entry), then commits: its git folder stays under `.git/modules/` with no working tree named.
 */
export function deinitAndRemove(home: string, repo: string, path: string): void {
	runGit(home, repo, "submodule", "deinit", "-q", "-f", path);
	runGit(home, repo, "rm", "-q", path);
	runGit(home, repo, "commit", "-qm", `drop ${path}`);
}

/**
 * A library repository at `${repo}-libsrc` and a superproject at `repo` tracking an executable, harmless `script`
 * (one the project already has, which `cp` copies with its mode); answers the library's path.
 */
export function libraryAndSuperprojectWithScript(home: string, repo: string, script: string): string {
	const src = `${repo}-libsrc`;
	initWithFiles(home, src, { "lib.txt": "x\n" });
	initWithFiles(home, repo, { "README.md": "hello\n", [script]: "#!/bin/sh\nexit 0\n" });
	chmodSync(join(repo, script), 0o755);
	runGit(home, repo, "commit", "-qam", "mode");
	return src;
}

/** A harmless executable at `path` (its folders made), as a hook or a script the project already has. */
export function executable(path: string, text = "#!/bin/sh\nexit 0\n"): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
	chmodSync(path, 0o755);
}

/** A per-test guardian sandbox with the helpers the hook reviews use. */
export function submoduleHookSandbox() {
	const sandbox = guardianSandboxPerTest();
	/** The file a hook appends to when it runs. */
	const marker = () => join(sandbox.home, "MARKER");
	/** A hook that leaves the marker. */
	const hook = () => `#!/bin/sh\necho ran >> ${marker()}\n`;
	/** The session's environment: the sandbox home, no system git config. */
	const env = () => ({ HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" });
	/** A config file's text whose `core.fsmonitor` leaves the marker at the next `git status`. */
	const fsmonitorConfig = () => `[core]\n\tautocrlf = input\n\tfsmonitor = "echo ran >> ${marker()}; false"\n`;

	/** A superproject at `repo` with the library `sub` checked out as a submodule (git folder in `.git/modules/sub`). */
	function superprojectWithSubmodule(repo: string): void {
		const src = `${repo}-libsrc`;
		initWithFiles(sandbox.home, src, { "lib.txt": "x\n" });
		initWithFiles(sandbox.home, repo, { "README.md": "hello\n" });
		runGit(sandbox.home, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub");
		runGit(sandbox.home, repo, "commit", "-qm", "sub");
	}

	/** `workspace/tools/hooks` with a harmless pre-commit, named as `core.hooksPath` by the repository at `repo`. */
	function hooksPathIntoWorkspaceTools(workspace: string, repo: string): void {
		mkdirSync(join(workspace, "tools/hooks"), { recursive: true });
		writeFileSync(join(workspace, "tools/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
		runGit(sandbox.home, repo, "config", "core.hooksPath", join(workspace, "tools/hooks"));
	}

	/** The agent's one call, the reviewer (if asked) denies; then the user commits in `commitIn`. */
	async function callThenUserCommit(
		h: Awaited<ReturnType<typeof sandbox.start>>,
		call: ReturnType<typeof callTool>,
		commitIn: string,
	): Promise<{ sources: string[]; ran: boolean }> {
		h.agent(call, "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("update the script");
		runGit(sandbox.home, commitIn, "commit", "-q", "--allow-empty", "-m", "the user's commit");
		return { sources: verdictSources(h), ran: existsSync(marker()) };
	}

	/**
	 * bash `cat > tools/hooks/pre-commit` (the agent's hook), then the user's commit in `commitIn`: reviewed, and the
	 * hook never ran.
	 */
	async function expectToolsHookWriteReviewed(h: Awaited<ReturnType<typeof sandbox.start>>, commitIn: string) {
		const command = `cat > tools/hooks/pre-commit <<'EOF'\n${hook()}EOF`;
		const outcome = await callThenUserCommit(h, callTool("bash", { command }), commitIn);
		expect(outcome).toEqual({ sources: ["reviewer"], ran: false });
	}

	return {
		sandbox,
		marker,
		hook,
		env,
		fsmonitorConfig,
		superprojectWithSubmodule,
		hooksPathIntoWorkspaceTools,
		callThenUserCommit,
		expectToolsHookWriteReviewed,
	};
}
