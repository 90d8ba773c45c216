// The shell's half of "git that cannot run programs": find the repository, read its config and every include it
// lists, look for hooks that read-only git can trigger, and hand the kernel's verdict to the floor as a fact.
import { readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import {
	combineGitConfigVerdicts,
	GIT_HOOKS_RUN_BY_READS,
	type GitConfigVerdict,
	gitConfigIncludes,
	gitProgramKeys,
	MAX_GIT_CONFIG_INCLUDE_DEPTH,
	parseGitConfig,
} from "@pi-policy/policy-kernel/guardian";

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}

async function exists(path: string): Promise<boolean> {
	try {
		await stat(path);
		return true;
	} catch {
		return false;
	}
}

/** The git dir for `cwd` (walking up), following a `.git` file (worktrees, submodules); undefined outside a repo. */
async function findGitDir(cwd: string): Promise<string | undefined> {
	let dir = resolve(cwd);
	for (let guard = 0; guard < 256; guard++) {
		const dotGit = join(dir, ".git");
		if (await isDirectory(dotGit)) return dotGit;
		try {
			const text = await readFile(dotGit, "utf8");
			const line = text.split("\n")[0]?.trim() ?? "";
			if (line.startsWith("gitdir:")) {
				const target = line.slice("gitdir:".length).trim();
				return isAbsolute(target) ? target : resolve(dir, target);
			}
		} catch {
			// No .git file here either.
		}
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
	return undefined;
}

async function judgeConfigFile(path: string, home: string, depth: number): Promise<GitConfigVerdict> {
	if (depth > MAX_GIT_CONFIG_INCLUDE_DEPTH) return "unknown";
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		// A missing include is skipped by git; anything else is unknown.
		return (error as NodeJS.ErrnoException).code === "ENOENT" && depth > 0 ? "safe" : "unknown";
	}
	const parsed = parseGitConfig(text);
	if (!parsed.ok) return "unknown";
	if (gitProgramKeys(parsed.value).length > 0) return "unsafe";
	const verdicts: GitConfigVerdict[] = [];
	for (const include of gitConfigIncludes(parsed.value)) {
		const raw = include.path;
		const target = raw.startsWith("~/")
			? join(home, raw.slice(2))
			: isAbsolute(raw)
				? raw
				: resolve(dirname(path), raw);
		verdicts.push(await judgeConfigFile(target, home, depth + 1));
		if (verdicts.includes("unsafe")) return "unsafe";
	}
	return combineGitConfigVerdicts(verdicts);
}

/**
 * The git-config fact for a bash call: `safe` when the repository around `cwd` (its config, its common dir's
 * config for worktrees, every include) sets no key that runs a program and has no hook read-only git can run;
 * `unsafe` or `unknown` otherwise. Outside a repository there is no repository config: `safe`. Async I/O only.
 */
export async function checkGitConfig(cwd: string, home: string): Promise<GitConfigVerdict> {
	try {
		const gitDir = await findGitDir(cwd);
		if (gitDir === undefined) return "safe";
		const dirs = [gitDir];
		try {
			const common = (await readFile(join(gitDir, "commondir"), "utf8")).trim();
			if (common.length > 0) dirs.push(isAbsolute(common) ? common : resolve(gitDir, common));
		} catch {
			// Not a linked worktree.
		}
		const verdicts: GitConfigVerdict[] = [];
		for (const dir of dirs) {
			const config = join(dir, "config");
			verdicts.push((await exists(config)) ? await judgeConfigFile(config, home, 0) : "safe");
			for (const hook of GIT_HOOKS_RUN_BY_READS) if (await exists(join(dir, "hooks", hook))) verdicts.push("unsafe");
		}
		return combineGitConfigVerdicts(verdicts);
	} catch {
		return "unknown";
	}
}

/** The fact only when a bash call could run git (a cheap text check first); `unknown` is never needed otherwise. */
export async function gitConfigFactFor(
	toolName: string,
	input: unknown,
	cwd: string,
	home: string,
): Promise<GitConfigVerdict> {
	if (toolName !== "bash") return "unknown";
	const command = (input as { command?: unknown } | null)?.command;
	if (typeof command !== "string" || !command.includes("git")) return "unknown";
	return checkGitConfig(cwd, home);
}
