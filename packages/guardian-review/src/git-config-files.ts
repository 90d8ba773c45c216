// Reads the config files git reads for one git folder: the repository's `config` and `config.worktree`, the user's
// and the system's, and every file they include (conditional includes too), bounded in files, bytes and depth. The
// kernel judges each file's text (@pi-policy/policy-kernel/guardian git-config); this module collects what they say.
import { basename, dirname, isAbsolute, join } from "node:path";
import {
	type GitConfigVerdict,
	type GitContentSetting,
	type GitUrlCredentialsVerdict,
	judgeGitConfigFile,
	MAX_GIT_CONFIG_INCLUDE_DEPTH,
} from "@pi-policy/policy-kernel/guardian";
import { type GitFolder, joinAsText, kindOf, readBoundedOrUndefined, realPathOf } from "./git-folder-reader.js";

/** At most this many config files are read for one verdict; more makes it `unknown`. */
export const MAX_GIT_CONFIG_FILES = 32;
/** The user's git folder under `$XDG_CONFIG_HOME` (default `~/.config/git`): their `config` and `ignore`. */
export function userGitConfigFolder(home: string): string {
	const xdg = process.env.XDG_CONFIG_HOME;
	return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, ".config"), "git");
}

/**
 * The user's own config files, in the order git reads them (`$XDG_CONFIG_HOME/git/config`, then `~/.gitconfig`,
 * which wins): theirs for programs git runs, but an `url.<base>.insteadOf` there with a token rewrites every remote
 * URL `git remote -v` prints, and `core.excludesFile` names the ignore file ripgrep reads too.
 */
export function userGitConfigPaths(home: string): string[] {
	return [join(userGitConfigFolder(home), "config"), join(home, ".gitconfig")];
}

/**
 * The user's config files git itself reads: `$GIT_CONFIG_GLOBAL` alone when Pi's environment (which bash inherits)
 * sets it, else {@link userGitConfigPaths}.
 */
function userGitConfigPathsForGit(home: string): string[] {
	const global = process.env.GIT_CONFIG_GLOBAL;
	return global !== undefined && isAbsolute(global) ? [global] : userGitConfigPaths(home);
}

/**
 * The system config file git reads first (`$GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`, where Debian's and most
 * distributions' git look), or none under `GIT_CONFIG_NOSYSTEM`: the administrator's, read here only for the
 * content settings and URL credentials.
 */
function systemGitConfigPaths(): string[] {
	const noSystem = process.env.GIT_CONFIG_NOSYSTEM;
	if (noSystem !== undefined && noSystem !== "" && !/^(?:0|false|no|off)$/i.test(noSystem)) return [];
	const system = process.env.GIT_CONFIG_SYSTEM;
	return [system !== undefined && isAbsolute(system) ? system : "/etc/gitconfig"];
}

/** One config file to read. */
interface ConfigFileToRead {
	readonly path: string;
	/** How many includes led to it. */
	readonly depth: number;
	/** The user's or the system's (or included from one), not the repository's. */
	readonly global: boolean;
	/** Included from a file the agent may write: the agent chose it. */
	readonly agent: boolean;
}

/** What the config files read say, one entry per file judged. */
export interface ConfigFilesRead {
	readonly verdicts: GitConfigVerdict[];
	readonly credentials: GitUrlCredentialsVerdict[];
	readonly settings: (readonly GitContentSetting[] | undefined)[];
	/** Every `core.hooksPath` value of every file read, the user's and the system's included. */
	readonly hooksPaths: string[];
	/** {@link verdicts} with `core.hooksPath` left out, for files whose hooks folder is judged by its hooks. */
	readonly verdictsApartFromHooksPath: GitConfigVerdict[];
	/** The `core.hooksPath` values of the user's and the system's files: git places a relative one in every repository. */
	readonly globalHooksPaths: string[];
	/**
	 * A user's or system's file (or one it includes) could not be judged: it may set `core.hooksPath` (a
	 * seventy-second review: a Latin-1 `~/.gitconfig`).
	 */
	unreadGlobal: boolean;
	/** Every file an include of a file read names (as read), the user's and the system's included. */
	readonly included: string[];
	/**
	 * The words of the programs the files' keys name that look like paths (`scripts/strip.sh`; see
	 * `gitProgramPathWords`), the user's and the system's included: git runs them as it runs a hook.
	 */
	readonly programPaths: string[];
	/** {@link programPaths} of the user's and the system's files: git places a relative one in every repository. */
	readonly globalProgramPaths: string[];
	/**
	 * The `core.worktree` values of the repository's own files that git takes the key from (`config` and
	 * `config.worktree`, never an include), as written, with the file that set each.
	 */
	readonly worktrees: { readonly value: string; readonly file: string }[];
}

/** The system's and the user's config files git reads, in its order (see {@link userGitConfigPathsForGit}). */
export function globalConfigFiles(home: string): ConfigFileToRead[] {
	return [...systemGitConfigPaths(), ...userGitConfigPathsForGit(home)].map((path) => ({
		path,
		depth: 0,
		global: true,
		agent: false,
	}));
}

/** The config files git reads from a repository's git folder: the common `config`, the worktree's `config.worktree`. */
export function repositoryConfigFiles(folder: GitFolder): ConfigFileToRead[] {
	return [
		{ path: join(folder.commonDir, "config"), depth: 0, global: false, agent: false },
		// Read whether or not `extensions.worktreeConfig` is on: more than git reads, never less.
		{ path: join(folder.gitDir, "config.worktree"), depth: 0, global: false, agent: false },
	];
}

/**
 * Reads `queue`'s config files and every file they include (all conditions; at most {@link MAX_GIT_CONFIG_FILES}
 * files, includes at most `MAX_GIT_CONFIG_INCLUDE_DEPTH` deep) and judges each. A repository's file that cannot be
 * judged (unreadable, too large, past a bound, an include form this reader does not expand) makes the answer
 * undefined: every fact unknown. So does a user's or system's file the agent may write (its real path passes
 * `isAgentWritable`, or a file it may write included it), whose program keys count as the repository's; any other
 * user's or system's file that cannot be judged leaves only the credentials and settings unknown. A repository's
 * `core.worktree` that `worktreeIsTop` rejects makes it undefined too (not checked without it). Throws on I/O errors.
 */
export function readConfigFiles(
	queue: ConfigFileToRead[],
	home: string,
	isAgentWritable: (path: string) => boolean,
	worktreeIsTop?: (worktree: string) => boolean,
): ConfigFilesRead | undefined {
	const read: ConfigFilesRead = {
		verdicts: [],
		credentials: [],
		settings: [],
		hooksPaths: [],
		verdictsApartFromHooksPath: [],
		globalHooksPaths: [],
		unreadGlobal: false,
		included: [],
		programPaths: [],
		globalProgramPaths: [],
		worktrees: [],
	};
	let files = 0;
	while (queue.length > 0) {
		const next = queue.shift() as ConfigFileToRead;
		const unknownFile = (): boolean => {
			if (!next.global || next.agent || agentMayWrite(next.path, isAgentWritable)) return true;
			read.unreadGlobal = true;
			read.credentials.push("unknown");
			read.settings.push(undefined);
			return false;
		};
		if (++files > MAX_GIT_CONFIG_FILES || next.depth > MAX_GIT_CONFIG_INCLUDE_DEPTH) {
			if (unknownFile()) return undefined;
			continue;
		}
		const kind = kindOf(next.path);
		if (kind === "missing") continue; // git skips a missing config or include
		const text = kind === "file" ? readBoundedOrUndefined(next.path) : undefined;
		if (text === undefined) {
			if (unknownFile()) return undefined;
			continue;
		}
		const judged = judgeGitConfigFile(text);
		if (!next.global && judged.worktree !== undefined) {
			if (next.depth === 0) read.worktrees.push({ value: judged.worktree, file: next.path });
			if (worktreeIsTop !== undefined && !worktreeIsTop(judged.worktree)) return undefined;
		}
		read.credentials.push(judged.urlCredentials);
		read.settings.push(judged.contentSettings);
		read.hooksPaths.push(...judged.hooksPaths);
		read.programPaths.push(...judged.programPaths);
		if (next.global) read.globalProgramPaths.push(...judged.programPaths);
		if (next.global) read.globalHooksPaths.push(...judged.hooksPaths);
		// The user's own files are theirs, unless the agent may write them (a dotfiles repository as the workspace,
		// `~/.gitconfig` a link into it), or one it may write includes them: then their program keys count as the
		// repository's do.
		const agent = next.global && (next.agent || agentMayWrite(next.path, isAgentWritable));
		if (!next.global || agent) {
			read.verdicts.push(judged.config);
			read.verdictsApartFromHooksPath.push(judged.configApartFromHooksPath);
		}
		for (const include of judged.includes) {
			const path = gitIncludeTarget(include.path, next.path, home);
			if (path === undefined) {
				if (!next.global || agent) return undefined;
				read.unreadGlobal = true;
				read.credentials.push("unknown");
				read.settings.push(undefined);
				continue;
			}
			read.included.push(path);
			queue.push({ path, depth: next.depth + 1, global: next.global, agent });
		}
	}
	return read;
}

/**
 * True when the agent may write the file at `path` without review (`isAgentWritable` on its real path, or, while it
 * does not exist, on its real folder's); true when neither can be found.
 */
function agentMayWrite(path: string, isAgentWritable: (path: string) => boolean): boolean {
	const real = realPathOf(path);
	if (real !== undefined) return isAgentWritable(real);
	const folder = realPathOf(dirname(path));
	return folder === undefined || isAgentWritable(join(folder, basename(path)));
}

/**
 * The file an `include.path` (or `includeIf.*.path`) names, as git finds it: `~/` under the home folder, an absolute
 * path as it is, anything else relative to the folder of the file that includes it (as the path it was reached by). Undefined for the forms git
 * expands from places this reader does not look up (`~user/`, another user's home; `%(prefix)/`, git's install
 * folder): the included file is unknown, never skipped as missing.
 */
function gitIncludeTarget(raw: string, includingFile: string, home: string): string | undefined {
	// Joined as text and never normalized, as git does: the system resolves `..` after a link (`.git -> vault/p.git`
	// makes `.git/../x.cfg` the file `vault/x.cfg`), where normalizing would name another file.
	if (raw.startsWith("~/")) return `${home}/${raw.slice(2)}`;
	if (raw.startsWith("~") || raw.startsWith("%(prefix)/")) return undefined;
	return joinAsText(dirname(includingFile), raw);
}
