// Reads the repository's git config for the floor: the config git would read for a repository at the working
// directory (the common `config`, a worktree's `config.worktree`, and every file they include, conditional
// includes too), plus the hook git may run while reading, and whether the hooks folder holds any active hook (for
// git's index writes). The kernel judges the text
// (@pi-policy/policy-kernel/guardian git-config); this module only finds and reads files: bounded in files, bytes
// and depth, and cached until a tool call that may have changed them has run. Files are read synchronously: a bash
// call needs a few dozen small reads, each some 70 us through the thread pool and 3 us without (decision 0013);
// only git itself runs asynchronously.
import {
	accessSync,
	type BigIntStats,
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	openSync,
	readdirSync,
	readlinkSync,
	readSync,
	realpathSync,
	type Stats,
	statSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import {
	combineGitConfigVerdicts,
	combineGitContentSettings,
	combineGitUrlCredentialsVerdicts,
	type FloorContext,
	type FloorFacts,
	GIT_HOOKS_RUN_BY_READS,
	type GitConfigVerdict,
	type GitContentSetting,
	type GitHooksVerdict,
	type GitRepositoryFacts,
	type GitUntrackedRepositoriesVerdict,
	type GitUrlCredentialsVerdict,
	gitCommonDirFileTarget,
	gitDirFileTarget,
	gitHooksFolderPaths,
	gitmodulesPaths,
	isInWorkspace,
	isRelativeHooksPath,
	judgeGitConfigFile,
	judgeGitHead,
	judgeGitHookNames,
	judgeGitRemoteFileUrlCredentials,
	MAX_GIT_CONFIG_CHARS,
	MAX_GIT_CONFIG_INCLUDE_DEPTH,
	MAX_GIT_HOOK_ENTRIES,
	MAX_WRITE_FOLDERS,
	treeEntryTest,
	treeProtectionKey,
} from "@pi-policy/policy-kernel/guardian";
import { createGitHistoryFacts, type GitHistoryListing, runQuietGit } from "./git-history-reader.js";

/** At most this many config files are read for one verdict; more makes it `unknown`. */
export const MAX_GIT_CONFIG_FILES = 32;
/** At most this many parent folders are searched for `.git`. */
const MAX_PARENT_DEPTH = 64;
/**
 * Environment variables that point git at another repository or config, or change which folders it takes for git
 * folders while it looks for one (`GIT_OBJECT_DIRECTORY`), which this reader does not follow.
 */
const REDIRECTING_ENV = [
	"GIT_DIR",
	"GIT_COMMON_DIR",
	"GIT_CONFIG",
	"GIT_CONFIG_COUNT",
	"GIT_CONFIG_PARAMETERS",
	"GIT_OBJECT_DIRECTORY",
	// Another index or working tree than the ones this reader and the history listing (which drops every `GIT_*`
	// variable) look at: the gitlinks and protected files they list would not be git's (an m8 audit).
	"GIT_INDEX_FILE",
	"GIT_WORK_TREE",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

/** Variables naming a config file or folder git reads, relative to wherever it runs when not absolute. */
const CONFIG_LOCATION_ENV = ["XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"];

/**
 * True when Pi's environment (which bash inherits) points git at config this reader cannot place: a redirecting
 * variable, or a relative `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL` or `GIT_CONFIG_SYSTEM`, which git reads from the
 * folder it runs in, a workspace file the agent may write (a seventieth review).
 */
function gitConfigRedirected(): boolean {
	if (REDIRECTING_ENV.some((name) => process.env[name] !== undefined)) return true;
	return CONFIG_LOCATION_ENV.some(namesRelativeLocation);
}

/** True when the environment variable `name` holds a relative path: a place wherever the reading program runs. */
export function namesRelativeLocation(name: string): boolean {
	const value = process.env[name];
	return value !== undefined && value !== "" && !isAbsolute(value);
}

/** Where a repository keeps its files. */
interface GitLocation {
	/** The folder that holds `.git`: the working tree git finds, by its real path (git looks from its real cwd). */
	readonly top: string;
	/** The same folder through the path asked about (`lnk/sub` with `lnk -> .`), when that path reaches it. */
	readonly namedTop: string | undefined;
	/** The repository's own git folder (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
	readonly gitDir: string;
	/** The folder shared by all worktrees (holds `config` and `hooks`), by its real path. */
	readonly commonDir: string;
}

/** A git folder and its common folder (see {@link GitLocation}). */
interface GitFolder {
	readonly gitDir: string;
	readonly commonDir: string;
}

function kindOf(path: string): "file" | "dir" | "missing" | "other" {
	try {
		const info = statSync(path);
		return info.isFile() ? "file" : info.isDirectory() ? "dir" : "other";
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR"
			? "missing"
			: "other";
	}
}

/** True when `path` exists as an entry of its own (a dangling link counts); unsure counts as existing. */
function entryExists(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return !(code === "ENOENT" || code === "ENOTDIR");
	}
}

/** UTF-8 text only: a path in other bytes would name another file once decoded with replacement characters. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The most bytes {@link readBounded} reads: a file of more holds more than `MAX_GIT_CONFIG_CHARS` characters. */
const MAX_GIT_CONFIG_BYTES = MAX_GIT_CONFIG_CHARS * 4;

/**
 * The file's text when it is a file within the bounds and valid UTF-8; undefined otherwise. Throws on I/O errors.
 * Read synchronously (a few small files per call cost far less so than through the thread pool), so nothing here may
 * block: the entry is checked to be a file before it is opened (no device is opened), opened without waiting (a FIFO
 * put in its place in between answers at once), checked again by its descriptor, and read to a bound.
 */
function readBounded(path: string): string | undefined {
	if (!statSync(path).isFile()) return undefined;
	const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	let bytes: Buffer;
	try {
		const info = fstatSync(descriptor);
		if (!info.isFile() || info.size > MAX_GIT_CONFIG_BYTES) return undefined;
		// One byte more than its size: a file that grows while it is read is taken as unreadable.
		bytes = Buffer.allocUnsafe(info.size + 1);
		let length = 0;
		for (let read = -1; read !== 0 && length < bytes.length; length += read) {
			read = readSync(descriptor, bytes, length, bytes.length - length, length);
		}
		if (length > info.size) return undefined;
		bytes = bytes.subarray(0, length);
	} finally {
		closeSync(descriptor);
	}
	let text: string;
	try {
		text = UTF8.decode(bytes);
	} catch (error) {
		if (error instanceof TypeError) return undefined; // not UTF-8
		throw error;
	}
	return text.length > MAX_GIT_CONFIG_CHARS ? undefined : text;
}

/** {@link readBounded}, undefined on I/O errors too. */
function readBoundedOrUndefined(path: string): string | undefined {
	try {
		return readBounded(path);
	} catch {
		return undefined;
	}
}

/** The real path of `path` (links and `..` resolved by the system, as git does), or undefined when it has none. */
function realPathOf(path: string): string | undefined {
	try {
		return realpathSync.native(path);
	} catch {
		return undefined;
	}
}

/**
 * `relative` joined to `base` as text (the system resolves `..` after a link, as it does for git), or `relative`
 * when absolute.
 */
function joinAsText(base: string, relative: string): string {
	return isAbsolute(relative) ? relative : `${base}/${relative}`;
}

/**
 * Finds the repository containing `cwd` as git does, from its real path (git looks from `getcwd()`, after every
 * link): at each folder up, `.git` (a folder, or a file with `gitdir: …`), then the folder itself when it looks like
 * a git folder (`unknown`); follows `commondir`. A `.git` folder git would not take (see {@link validGitFolder})
 * makes it `unknown`: git skips such a folder and goes on looking, for a repository this reader did not judge.
 */
function locateRepository(cwd: string): GitLocation | "none" | "unknown" {
	const named = resolve(cwd);
	const real = realPathOf(named);
	if (real === undefined) return "unknown";
	let dir = real;
	for (let depth = 0; depth < MAX_PARENT_DEPTH; depth++) {
		const dotGit = join(dir, ".git");
		const kind = kindOf(dotGit);
		if (kind === "dir" || kind === "file") {
			const gitDir = kind === "dir" ? dotGit : gitDirOfFile(dotGit, dir);
			const folder = gitDir === undefined ? undefined : validGitFolder(gitDir);
			if (folder === undefined) return "unknown";
			return { top: dir, namedTop: namedEquivalent(named, real, dir), ...folder };
		}
		if (kind === "other") return "unknown";
		// git also takes a folder that looks like a git folder itself as a (bare) repository: `HEAD` beside `objects`,
		// `refs` or `commondir` (git's own test is looser still). Plain workspace writes can make one, and a cloned
		// project can hold one, whose `commondir`, alternates or linked `objects` reach another repository outside
		// the workspace: its facts are never taken as known.
		if (looksLikeGitFolder(dir)) return "unknown";
		const parent = dirname(dir);
		if (parent === dir) return "none";
		dir = parent;
	}
	return "unknown";
}

/**
 * The path asked about (`named`, whose real path is `real`) cut back to the repository's top (`top`, a real path
 * `real` lies in): the same last names dropped, when what is left has `top` as its real path. Undefined when the
 * names differ (`lnk -> ../other/src`, `docs -> repo/docs`): then no name for the top holds the path asked about,
 * and the floor reviews git's `rev:path` forms and the history listing is not made.
 */
function namedEquivalent(named: string, real: string, top: string): string | undefined {
	const below = real === top ? "" : real.slice(top === "/" ? 1 : top.length + 1);
	let candidate: string | undefined = named;
	if (below !== "") candidate = named.endsWith(`/${below}`) ? named.slice(0, -(below.length + 1)) || "/" : undefined;
	return candidate !== undefined && realPathOf(candidate) === top ? candidate : undefined;
}

/**
 * The git folder a `.git` file names (`gitdir: PATH`, relative to `dir`, the folder holding it), by its real path
 * as git takes it; undefined when the text is not one git reads as this reader does (see `gitDirFileTarget`) or
 * the folder does not exist.
 */
function gitDirOfFile(dotGit: string, dir: string): string | undefined {
	const text = readBoundedOrUndefined(dotGit);
	const target = text === undefined ? undefined : gitDirFileTarget(text);
	return target === undefined ? undefined : realPathOf(joinAsText(dir, target));
}

/**
 * The git folder with its common folder when git takes `gitDir` as a git folder (`is_git_directory`): a valid
 * `HEAD` (see `judgeGitHead`), and `objects` and `refs` folders it may enter in the common folder. Undefined when it
 * does not, or `commondir` is not read as git reads it. Only what git surely takes passes; never throws.
 */
function validGitFolder(gitDir: string): GitFolder | undefined {
	try {
		const commonDir = commonDirOf(gitDir);
		if (commonDir === undefined || !validHead(join(gitDir, "HEAD"))) return undefined;
		for (const name of ["objects", "refs"]) {
			const path = join(commonDir, name);
			if (kindOf(path) !== "dir") return undefined;
			accessSync(path, constants.X_OK);
		}
		return { gitDir, commonDir };
	} catch {
		return undefined;
	}
}

/** True when the `HEAD` at `path` passes git's test (see `judgeGitHead`). Throws on I/O errors. */
function validHead(path: string): boolean {
	let info: Stats;
	try {
		info = lstatSync(path);
	} catch {
		return false;
	}
	if (info.isSymbolicLink()) return judgeGitHead({ link: readlinkSync(path, "latin1") });
	if (!info.isFile()) return false;
	// Opened without waiting and checked by its descriptor, as in {@link readBounded}.
	const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		if (!fstatSync(descriptor).isFile()) return false;
		const buffer = Buffer.alloc(255);
		const bytesRead = readSync(descriptor, buffer, 0, 255, 0);
		return judgeGitHead({ text: buffer.toString("latin1", 0, bytesRead) });
	} finally {
		closeSync(descriptor);
	}
}

function looksLikeGitFolder(dir: string): boolean {
	// Entries as they are: git takes a `HEAD` link to `refs/heads/x` whether or not that ref exists.
	if (!entryExists(join(dir, "HEAD"))) return false;
	for (const name of ["objects", "refs", "commondir"]) if (entryExists(join(dir, name))) return true;
	return false;
}

/**
 * The common folder of `gitDir`, by its real path: the folder its `commondir` file names (see
 * `gitCommonDirFileTarget`), else `gitDir` itself. Undefined when `commondir` exists but is not read as git reads
 * it, or names no folder.
 */
function commonDirOf(gitDir: string): string | undefined {
	const path = join(gitDir, "commondir");
	if (!entryExists(path)) return realPathOf(gitDir);
	const text = readBoundedOrUndefined(path);
	const target = text === undefined ? undefined : gitCommonDirFileTarget(text);
	return target === undefined ? undefined : realPathOf(joinAsText(gitDir, target));
}

/**
 * What the config files git reads for one repository say: programs it may run, credentials in URLs, and the
 * settings that make read-only git print more content (undefined: unknown).
 */
export interface GitConfigFacts {
	readonly config: GitConfigVerdict;
	readonly urlCredentials: GitUrlCredentialsVerdict;
	readonly contentSettings: readonly GitContentSetting[] | undefined;
	/**
	 * The repository's top folder, through the path asked about (a link in it kept: `lnk/sub` with `lnk -> .`);
	 * undefined outside one, and where that path reaches the repository git finds only through a link below the top
	 * (`lnk -> ../other/src`), so that no name of the top holds it.
	 */
	readonly top?: string;
}

const UNKNOWN_CONFIG: GitConfigFacts = { config: "unknown", urlCredentials: "unknown", contentSettings: undefined };

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

/**
 * The facts on the config of the repository at `cwd` (found from its real path, as git finds it). `config`: `safe`
 * when no file git would read has a key that runs a program and no read-time hook exists; `unsafe` when one has or
 * exists; `unknown` when anything could not be read or went past a bound. Outside a repository there is no
 * repository config: `safe`. `urlCredentials`: whether those files, the user's own or the system's hold a URL with a
 * user part (see `judgeGitConfigUrlCredentials`). `contentSettings`: the settings any of them turns on (see
 * `gitContentSettings`). The user's and the system's files count for `config` only where the agent may write them
 * (`isAgentWritable`, on their real path), or reached them through one such file: then one that cannot be judged
 * makes `config` unknown. Never throws.
 */
export async function readGitConfigFacts(
	cwd: string,
	home: string,
	isAgentWritable: (path: string) => boolean = () => false,
): Promise<GitConfigFacts> {
	return configFactsOf(readRepository(cwd, home, isAgentWritable), home);
}

/**
 * The repository at `cwd` and what the config files git reads for it say, read once for both the config facts
 * ({@link readGitConfigFacts}) and the hooks fact ({@link readGitHooksVerdict}): `none` outside a repository,
 * `unknown` when it cannot be found as git finds it (or git is pointed at config files by a relative location).
 * `read` is undefined when a file could not be judged (see {@link readConfigFiles}).
 */
type RepositoryRead =
	| "none"
	| "unknown"
	| { readonly location: GitLocation; readonly read: ConfigFilesRead | undefined };

/** Reads {@link RepositoryRead} for `cwd`. Never throws. */
function readRepository(cwd: string, home: string, isAgentWritable: (path: string) => boolean): RepositoryRead {
	try {
		if (gitConfigRedirected()) return "unknown";
		const location = locateRepository(cwd);
		if (location === "none" || location === "unknown") return location;
		// `core.worktree` elsewhere makes git read and print another folder's files (a submodule's config names its own
		// folder, relative to the git folder, where git goes by `chdir`): facts for a working tree this reader did not find.
		const worktreeIsTop = (worktree: string) =>
			worktree !== "" && realPathOf(joinAsText(location.gitDir, worktree)) === location.top;
		const files = [...repositoryConfigFiles(location), ...globalConfigFiles(home)];
		return { location, read: readConfigFiles(files, home, isAgentWritable, worktreeIsTop) };
	} catch {
		return "unknown";
	}
}

/** {@link readGitConfigFacts} from one {@link RepositoryRead}. Never throws. */
async function configFactsOf(repository: RepositoryRead, home: string): Promise<GitConfigFacts> {
	try {
		if (repository === "none") return { config: "safe", urlCredentials: "none", contentSettings: [] };
		if (repository === "unknown" || repository.read === undefined) return UNKNOWN_CONFIG;
		const { location, read } = repository;
		const config: GitConfigVerdict | undefined = hasReadTimeHook(location.commonDir) ? "unsafe" : undefined;
		const { settings } = read;
		// `core.hooksPath` counts by the hooks in the folder it names, as `.git/hooks` does (a seventieth review: every
		// husky repository sets `.husky/_`, whose hooks read-only git never runs), whichever file sets it.
		const verdicts = [
			...read.verdictsApartFromHooksPath,
			read.unreadGlobal ? "unknown" : hooksPathFoldersVerdict(read.hooksPaths, location.top, home),
		];
		const credentials = [...read.credentials, legacyRemoteCredentials(location.commonDir)];
		verdicts.push(submodulesVerdict(location, home));
		// Only where git would run no program so far is git itself asked for the submodules the index holds.
		if ((config ?? combineGitConfigVerdicts(verdicts)) === "safe")
			verdicts.push(await gitlinksVerdict(location.top, location.gitDir, home, read.globalHooksPaths));
		const known = settings.filter((list) => list !== undefined);
		return {
			config: config ?? combineGitConfigVerdicts(verdicts),
			urlCredentials: combineGitUrlCredentialsVerdicts(credentials),
			contentSettings: known.length === settings.length ? combineGitContentSettings(known) : undefined,
			...(location.namedTop === undefined ? {} : { top: location.namedTop }),
		};
	} catch {
		return UNKNOWN_CONFIG;
	}
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
interface ConfigFilesRead {
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
	 * The `core.worktree` values of the repository's own files that git takes the key from (`config` and
	 * `config.worktree`, never an include), as written, with the file that set each.
	 */
	readonly worktrees: { readonly value: string; readonly file: string }[];
}

/** The system's and the user's config files git reads, in its order (see {@link userGitConfigPathsForGit}). */
function globalConfigFiles(home: string): ConfigFileToRead[] {
	return [...systemGitConfigPaths(), ...userGitConfigPathsForGit(home)].map((path) => ({
		path,
		depth: 0,
		global: true,
		agent: false,
	}));
}

/** The config files git reads from a repository's git folder: the common `config`, the worktree's `config.worktree`. */
function repositoryConfigFiles(folder: GitFolder): ConfigFileToRead[] {
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
function readConfigFiles(
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

/** True when the git folder's hooks hold one git runs on reads (`post-index-change`), active or not a file. */
function hasReadTimeHook(gitDir: string): boolean {
	return holdsReadTimeHook(join(gitDir, "hooks"));
}

/** True when a hooks folder holds a hook git runs on reads (`post-index-change`), active or not a file. */
function holdsReadTimeHook(folder: string): boolean {
	return GIT_HOOKS_RUN_BY_READS.some((hook) => kindOf(join(folder, hook)) !== "missing");
}

/** True for a `core.hooksPath` value git expands from another user's home (`~user/x`), which is not looked up. */
function namesOtherUsersHome(value: string): boolean {
	return value.startsWith("~") && value !== "~" && !value.startsWith("~/");
}

/**
 * True for a `core.hooksPath` value this reader cannot place: another user's home, git's install folder
 * (`%(prefix)/…`, a seventy-second review), or a `..` part, which the system
 * takes from where a link before it leads (`lnk/../hk` with `lnk -> sub/deep` is `sub/hk`; a seventy-first review),
 * while `gitHooksFolderPaths` drops it as text.
 */
function unplacedHooksPath(value: string): boolean {
	return namesOtherUsersHome(value) || value.startsWith("%(prefix)/") || value.split("/").includes("..");
}

/**
 * The program verdict of the folders `core.hooksPath` values name, the user's and the system's too (git places a
 * relative value below the repository's `top`, whichever file set it: `~/.gitconfig`'s `.githooks` runs a project's
 * `.githooks/post-index-change`; a seventy-first review): `unsafe` when one holds a hook git runs on reads,
 * `unknown` when a value cannot be placed (see {@link unplacedHooksPath}) or a folder is not one, `safe` with none (a missing folder runs nothing; a write there is reviewed, see `readGitArmedPaths`).
 * Throws on I/O errors.
 */
function hooksPathFoldersVerdict(values: readonly string[], top: string, home: string): GitConfigVerdict {
	if (values.some(unplacedHooksPath)) return "unknown";
	for (const folder of gitHooksFolderPaths(values, top, home)) {
		const kind = kindOf(folder);
		if (kind === "missing") continue;
		if (kind !== "dir") return "unknown";
		if (holdsReadTimeHook(folder)) return "unsafe";
	}
	return "safe";
}

/** At most this many checked-out submodules are entered (git runs once in each); more makes the config verdict `unknown`. */
const MAX_SUBMODULE_GIT_FOLDERS = 32;
/**
 * At most this many folders are looked at under `modules/` (the folders between, for names like `a/b`, included),
 * and at most this many linked worktrees' git folders: no git runs, only reads (a seventy-fifth review: a dotfiles
 * repository with 30 vim plugins as submodules under `pack/plugins/start/` passed 32; boost's 170 submodules, checked
 * out in a linked worktree too, passed 256).
 */
const MAX_MODULES_FOLDERS = 1024;

/**
 * The program verdict of one submodule's git folder, judged as the repository's own is (git running there reads
 * them all): `unsafe` with a hook git runs on reads in the common folder or a key that runs a program in its
 * `config`, its `config.worktree` or any file they include; `unknown` when one cannot be judged (see
 * {@link readConfigFiles}) or `commondir` is not read as git reads it; else `safe`. The user's and the system's files
 * are the superproject's, judged once. `core.hooksPath` counts only where the submodule's working tree is known
 * (`checkout`, from the gitlinks walk): there its folder, and the folders of the user's and the system's values
 * (`globalHooksPaths`), are judged by their hooks below that tree (husky in a library: `sub/.husky/_`), and a
 * `core.worktree` naming another folder makes it `unknown`. Without one git never runs in that folder's tree, so the
 * key is left to the gitlinks walk. Throws on I/O errors.
 */
function submoduleGitFolderVerdict(
	gitDir: string,
	home: string,
	checkout?: { readonly worktree: string; readonly globalHooksPaths: readonly string[] },
): GitConfigVerdict {
	const commonDir = commonDirOf(gitDir);
	if (commonDir === undefined) return "unknown";
	if (hasReadTimeHook(commonDir) || hasReadTimeHook(gitDir)) return "unsafe";
	let worktreeElsewhere = false;
	const noteWorktree = (worktree: string): boolean => {
		if (checkout === undefined || realPathOf(joinAsText(gitDir, worktree)) !== realPathOf(checkout.worktree))
			worktreeElsewhere = true;
		return true;
	};
	const read = readConfigFiles(repositoryConfigFiles({ gitDir, commonDir }), home, () => false, noteWorktree);
	if (read === undefined) return "unknown";
	if (checkout === undefined) return combineGitConfigVerdicts(read.verdictsApartFromHooksPath);
	// git in the submodule runs in the working tree `core.worktree` names: another folder than the one checked out
	// holds the index, hooks placement and nested submodules (a seventy-fourth review: `wt/inner`'s hook ran from
	// superproject `git status` while this walk looked at `sub/inner`) this reader does not look at.
	if (worktreeElsewhere) return "unknown";
	const hooksPaths = [...read.hooksPaths, ...checkout.globalHooksPaths];
	return combineGitConfigVerdicts([
		...read.verdictsApartFromHooksPath,
		hooksPathFoldersVerdict(hooksPaths, checkout.worktree, home),
	]);
}

/**
 * The submodules' own git folders (`modules/<name>/` in the git folder and the common folder, and with `nested`
 * nested ones in their own `modules/`), as found there (a link to a folder counts as one), each with its name (its
 * path below the `modules/` folder it was found in); undefined past {@link MAX_MODULES_FOLDERS} folders or when a
 * `commondir` is not read as git reads it. Throws on I/O errors.
 */
function submoduleGitFolders(folder: GitFolder, nested = true): { gitDir: string; name: string }[] | undefined {
	const found: { gitDir: string; name: string }[] = [];
	// A linked worktree keeps its own submodules' git folders in its git folder (`worktrees/<name>/modules/`; a
	// seventy-sixth review). Without `nested` (the family walk, which reaches the main worktree's folder itself) only
	// the folder's own: every linked worktree listing the shared `modules/` again cost a superproject with 200
	// submodules and 20 worktrees half a second per read (a seventy-eighth review).
	const roots = nested
		? [join(folder.gitDir, "modules"), join(folder.commonDir, "modules")]
		: [join(folder.gitDir, "modules")];
	const queue = [...new Set(roots)].map((modules) => ({ modules, prefix: "" }));
	const seen = new Set<string>();
	let folders = 0;
	while (queue.length > 0) {
		const { modules, prefix } = queue.shift() as { modules: string; prefix: string };
		if (seen.has(modules) || kindOf(modules) !== "dir") continue;
		seen.add(modules);
		for (const entry of readdirSync(modules, { withFileTypes: true })) {
			const gitDir = join(modules, entry.name);
			// A link to a folder counts as one: git follows `gitdir: ../.git/modules/sub` through it (a seventy-fifth
			// review: `.git/modules/sub -> ~/gitdirs/sub`).
			if (!entry.isDirectory() && !(entry.isSymbolicLink() && kindOf(gitDir) === "dir")) continue;
			if (++folders > MAX_MODULES_FOLDERS) return undefined;
			const name = `${prefix}${entry.name}`;
			// A submodule named `a/b` keeps its git folder at `modules/a/b`: a folder without `HEAD` is one between.
			if (!entryExists(join(gitDir, "HEAD"))) {
				queue.push({ modules: gitDir, prefix: `${name}/` });
				continue;
			}
			// Nested submodules' folders lie in the submodule's common folder (its own, unless `commondir` names one).
			const commonDir = commonDirOf(gitDir);
			if (commonDir === undefined) return undefined;
			if (nested)
				queue.push(
					{ modules: join(gitDir, "modules"), prefix: "" },
					{ modules: join(commonDir, "modules"), prefix: "" },
				);
			found.push({ gitDir, name });
		}
	}
	return found;
}

/**
 * The program verdict of the submodules' own git folders (see {@link submoduleGitFolders}): `git status` and
 * `git diff` in the superproject run git in each submodule, with its config and hooks (see
 * {@link submoduleGitFolderVerdict}); a walk past its bound makes it `unknown`. Never throws.
 */
function submodulesVerdict(folder: GitFolder, home: string): GitConfigVerdict {
	try {
		const gitDirs = submoduleGitFolders(folder);
		if (gitDirs === undefined) return "unknown";
		return combineGitConfigVerdicts(gitDirs.map(({ gitDir }) => submoduleGitFolderVerdict(gitDir, home)));
	} catch {
		return "unknown";
	}
}

/**
 * The program verdict of the checked-out submodules the index holds (`git ls-files --stage`, mode 160000), wherever
 * their git folder is: one inside the submodule (`git submodule add` of an existing repository, or a cloned
 * repository added with `git add`, which needs no `.gitmodules`) is not under `modules/`, and git runs in it all
 * the same; a linked worktree of another repository reads that repository's config and hooks too. Nested ones are
 * found in each submodule's own index. A submodule not checked out is not entered by git. More than
 * {@link MAX_SUBMODULE_GIT_FOLDERS}, a `.git` that is neither a folder nor a `gitdir:` file git reads as this reader
 * does, or git failing make it `unknown`. Never throws.
 */
async function gitlinksVerdict(
	top: string,
	gitDir: string,
	home: string,
	globalHooksPaths: readonly string[] = [],
): Promise<GitConfigVerdict> {
	const verdicts: GitConfigVerdict[] = [];
	try {
		const queue = [{ tree: top, gitDir }];
		let folders = 0;
		while (queue.length > 0) {
			const next = queue.shift() as { tree: string; gitDir: string };
			for (const path of await gitlinksOf(next.tree, next.gitDir)) {
				const worktree = `${next.tree}/${path}`;
				const dotGit = join(worktree, ".git");
				const kind = kindOf(dotGit);
				if (kind === "missing") continue;
				if (++folders > MAX_SUBMODULE_GIT_FOLDERS) return "unknown";
				const subGitDir = kind === "dir" ? dotGit : kind === "file" ? gitDirOfFile(dotGit, worktree) : undefined;
				if (subGitDir === undefined) return "unknown";
				// git in the submodule places its own and the user's and the system's relative `core.hooksPath` below its
				// own top (a seventy-second review: `~/.gitconfig`'s `.githooks` ran a library's
				// `sub/.githooks/post-index-change`).
				const verdict = submoduleGitFolderVerdict(subGitDir, home, { worktree, globalHooksPaths });
				verdicts.push(verdict);
				if (verdict === "safe") queue.push({ tree: worktree, gitDir: subGitDir });
			}
		}
	} catch {
		return "unknown";
	}
	return combineGitConfigVerdicts(verdicts);
}

/** At most this many indexes' gitlink lists are kept. */
const MAX_CACHED_GITLINK_LISTS = 16;
/** The gitlinks last listed per working tree, with the identity of the index they were read from. */
const gitlinkLists = new Map<string, { index: string; paths: readonly string[] }>();

/**
 * The paths of the gitlinks (mode 160000) in the index of the working tree `tree`, whose git folder is `gitDir`.
 * git asked once per index: git writes a new index file for every change (a new inode, size or time), so its
 * identity keys the list, and a repository's config read again after each write costs one `stat` while the index
 * stays as it was. No index file: none. Throws when git fails.
 */
async function gitlinksOf(tree: string, gitDir: string): Promise<readonly string[]> {
	let info: BigIntStats;
	try {
		info = statSync(join(gitDir, "index"), { bigint: true });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	const index = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
	const listed = gitlinkLists.get(tree);
	if (listed?.index === index) return listed.paths;
	const paths = (await runQuietGit(tree, ["ls-files", "--stage", "-z"]))
		.split("\0")
		.filter((entry) => entry.startsWith("160000 "))
		.map((entry) => entry.slice(entry.indexOf("\t") + 1));
	if (gitlinkLists.size >= MAX_CACHED_GITLINK_LISTS && !gitlinkLists.has(tree)) gitlinkLists.clear();
	gitlinkLists.set(tree, { index, paths });
	return paths;
}

/**
 * Whether the working tree around `dir` holds a nested repository git neither tracks nor ignores: `git ls-files
 * --others` names each one as a folder (`vendor/lib/`), and every other entry as a file. `unknown` when git fails,
 * times out or prints too much. Never throws.
 */
export async function untrackedRepositoriesVerdict(dir: string): Promise<GitUntrackedRepositoriesVerdict> {
	try {
		const listed = await runQuietGit(dir, ["ls-files", "-z", "--others", "--exclude-standard", "--", ":/"]);
		return listed.split("\0").some((entry) => entry.endsWith("/")) ? "present" : "none";
	} catch {
		return "unknown";
	}
}

/** At most this many legacy remote files are read; more makes the credentials fact `unknown`. */
const MAX_LEGACY_REMOTE_FILES = 32;

/**
 * The credentials fact of the legacy remote files git still reads (`remotes/NAME` with `URL:` lines,
 * `branches/NAME`), in the common git folder. Never throws.
 */
function legacyRemoteCredentials(commonDir: string): GitUrlCredentialsVerdict {
	const verdicts: GitUrlCredentialsVerdict[] = [];
	try {
		for (const folder of ["remotes", "branches"]) {
			const dir = join(commonDir, folder);
			if (kindOf(dir) === "missing") continue;
			const names = readdirSync(dir);
			if (names.length > MAX_LEGACY_REMOTE_FILES) return "unknown";
			for (const name of names) {
				const text = readBounded(join(dir, name));
				verdicts.push(text === undefined ? "unknown" : judgeGitRemoteFileUrlCredentials(text));
			}
		}
	} catch {
		return "unknown";
	}
	return combineGitUrlCredentialsVerdicts(verdicts);
}

/** The `config` verdict of {@link readGitConfigFacts}. Never throws. */
export async function readGitConfigVerdict(cwd: string, home: string): Promise<GitConfigVerdict> {
	return (await readGitConfigFacts(cwd, home)).config;
}

/**
 * The verdict on the hooks folders of the repository at `cwd`: the common folder's `hooks`, and every folder a
 * `core.hooksPath` in a config file git reads names (husky's `.husky/_`; the user's and the system's values too). `none` when each is missing or holds only
 * `.sample` files, `present` when one holds any other entry, `unknown` when one could not be listed, has more
 * entries than the kernel judges (`MAX_GIT_HOOK_ENTRIES`) or cannot be placed, and when a config file cannot be
 * judged or names a working tree elsewhere (`core.worktree`; the config facts are then `unknown` too). Outside a
 * repository: `none`. Never throws.
 */
export function readGitHooksVerdict(cwd: string, home: string = homedir()): GitHooksVerdict {
	return hooksVerdictOf(
		readRepository(cwd, home, () => false),
		home,
	);
}

/**
 * {@link readGitHooksVerdict} from one {@link RepositoryRead}: read with the agent's writable test or without, the
 * answer is the same (a file that cannot be judged makes it `unknown` either way). Never throws.
 */
function hooksVerdictOf(repository: RepositoryRead, home: string): GitHooksVerdict {
	try {
		if (repository === "none") return "none";
		if (repository === "unknown") return "unknown";
		const { location, read } = repository;
		if (read === undefined || read.unreadGlobal || read.hooksPaths.some(unplacedHooksPath)) return "unknown";
		const folders = [join(location.commonDir, "hooks"), ...gitHooksFolderPaths(read.hooksPaths, location.top, home)];
		const verdicts = folders.map((folder): GitHooksVerdict => {
			const kind = kindOf(folder);
			if (kind === "missing") return "none";
			if (kind !== "dir") return "unknown";
			return judgeGitHookNames(readdirSync(folder));
		});
		return verdicts.includes("present") ? "present" : verdicts.includes("unknown") ? "unknown" : "none";
	} catch {
		return "unknown";
	}
}

/**
 * The paths git runs programs from for the repository at `cwd`: the folders `core.hooksPath` names (see
 * `gitHooksFolderPaths`) and the config files its config and the user's include, from every config file git reads
 * for it, placed through the path asked about (`namedTop`) so that the floor compares them with the workspace's names,
 * and by their real paths too: `[]` with none; `unknown` when a file could not be judged or the top cannot be named.
 * Outside a repository, the user's own absolute or home values and includes. Never throws.
 */
export function readGitArmedPaths(cwd: string, home: string): readonly string[] | "unknown" {
	try {
		if (gitConfigRedirected()) return "unknown";
		const location = locateRepository(cwd);
		if (location === "unknown") return "unknown";
		const globalFiles = globalConfigFiles(home);
		// Outside a repository the user's own `core.hooksPath` still names a folder every repository uses, when it is
		// absolute or under home (a forty-first review).
		const files = location === "none" ? globalFiles : [...repositoryConfigFiles(location), ...globalFiles];
		const read = readConfigFiles(files, home, () => false);
		if (read === undefined || read.unreadGlobal) return "unknown";
		// Placed through the path asked about when it names the top, else by the top's real path: a folder reached
		// through a link (`docs -> packages/app/docs`) is judged by where its links lead (a forty-fifth review).
		const top = location === "none" ? undefined : (location.namedTop ?? location.top);
		// The git folder's own `hooks` too: harmless by its name (the git folder is protected), but by its real path it
		// may be a workspace folder (`.git/hooks -> ../githooks`, a seventy-third review).
		const gitHooks = location === "none" ? [] : [join(location.commonDir, "hooks")];
		const armed = armedPathsOf(gitHooks, read.hooksPaths, top, read.included, home);
		if (armed === undefined) return "unknown";
		// The submodules' own git folders may lead into this tree too (a seventy-fourth review:
		// `.git/modules/sub/hooks -> ../../../githooks`, a hook link to `scripts/`, an absolute `core.hooksPath` or an
		// include naming a file here), and so may the linked worktrees' `config.worktree` (a seventy-fifth review): the
		// user's next commit there runs what a write here puts.
		if (location !== "none") {
			if (top !== undefined) armed.push(join(top, ".gitmodules"));
			const others = otherGitFoldersArmedPaths(location, home, read.globalHooksPaths);
			if (others === undefined) return "unknown";
			armed.push(...others);
		}
		// By where links lead too (`githooks -> tools/hooks`; a forty-first review).
		const real = armed.map((path) => realPathOf(path));
		return [...new Set([...armed, ...real.filter((path): path is string => path !== undefined)])];
	} catch {
		return "unknown";
	}
}

/**
 * The armed paths of one repository or submodule: its git folders' `hooks` (`gitHooks`), the folders its
 * `core.hooksPath` values name (relative ones placed below `top`; see `gitHooksFolderPaths`), the files hooks in
 * them link to (see {@link linkedHookTargets}), and the config files an include names. Undefined when a value or
 * folder cannot be placed (see {@link unplacedHooksPath}, {@link placedByNearestEntry}) or a hooks folder cannot be
 * judged. Throws on I/O errors.
 */
function armedPathsOf(
	gitHooks: readonly string[],
	hooksPaths: readonly string[],
	top: string | undefined,
	included: readonly string[],
	home: string,
): string[] | undefined {
	// git expands `~user/` too, into a home this reader does not look up: not placed, so not known.
	if (hooksPaths.some(unplacedHooksPath)) return undefined;
	const folders = [...gitHooks, ...gitHooksFolderPaths(hooksPaths, top, home)];
	// A folder behind a link that leads nowhere yet is made where the link leads (`hk -> tools/hooks`, then
	// `mv tpl tools/hooks`; a seventy-second review): not placed, so not known.
	if (folders.some((folder) => placedByNearestEntry(folder) === undefined)) return undefined;
	// A hook that is a link runs the file it leads to (`.git/hooks/pre-commit -> ../../scripts/pre-commit`): that
	// file is armed too (a seventy-second review).
	const hookTargets = linkedHookTargets(folders);
	if (hookTargets === undefined) return undefined;
	// The files the config includes: a line there can name a program too (a forty-third review). By where the system
	// takes the path too: a `..` after a link climbs from where the link leads (`tools/lnk/../git.cfg` with
	// `lnk -> deep/a` is `tools/deep/git.cfg`; a seventy-fifth review), which `resolve` drops as text.
	const placedIncludes = included.map((path) => placedByNearestEntry(path));
	if (placedIncludes.some((path) => path === undefined)) return undefined;
	return [...folders, ...hookTargets, ...included.map((path) => resolve(path)), ...(placedIncludes as string[])];
}

/** A git folder git may run hooks for, with its common folder and the working tree it runs them in. */
interface HookedGitFolder {
	readonly gitDir: string;
	readonly commonDir: string;
	/**
	 * The working tree's top, where relative `core.hooksPath` values are placed, when known from outside its config:
	 * the folder around a `.git` folder or file, or a linked worktree's `gitdir` file. Else from its `core.worktree`
	 * values (see {@link agreedWorktree}).
	 */
	readonly top?: string;
	/** A linked worktree: the shared `config`'s `core.worktree` is not its own. */
	readonly linked?: boolean;
	/** `top` is a guess from the git folder's name (a main worktree's, seen from a linked one): any other way wins. */
	readonly guessedTop?: boolean;
	/**
	 * Where a submodule's working tree would be checked out when nothing else names it (`git submodule deinit`
	 * removes `core.worktree`; the next `git submodule update --init` checks it out there and runs its hooks; a
	 * seventy-seventh review): the path `.gitmodules` gives its name, else its name, below the superproject's top.
	 */
	readonly fallbackTop?: string;
	/**
	 * A submodule git folder with no working tree named and none `.gitmodules` gives its name: where its next
	 * checkout puts it is not known (a seventy-eighth review: `lib` at `vendor/lib`, gone from `.gitmodules` but
	 * back after `git checkout old`), so a relative `core.hooksPath` makes the armed paths unknown.
	 */
	readonly unplaced?: boolean;
}

/** At most this many repositories around the workspace's are walked for armed paths; one more makes them unknown. */
const MAX_OUTER_REPOSITORIES = 4;

/**
 * The other git folders whose hooks a write in the repository at `location` may arm, found without running git:
 * the repositories around its top (a superproject whose `core.hooksPath`, or whose other submodule's, names a folder
 * of the submodule that is the workspace: seventy-sixth and seventy-seventh reviews), then from each repository
 * reached, its submodules' git folders under `modules/` (see {@link submoduleGitFolders}), the checked-out
 * submodules `.gitmodules` lists (a `.git` folder inside one is not under `modules/`; see
 * {@link readGitmodules}), its linked worktrees (`worktrees/<name>/`, their top from the `gitdir` file) or its main
 * worktree. Undefined past {@link MAX_MODULES_FOLDERS} or {@link MAX_OUTER_REPOSITORIES}, when one cannot be
 * placed, or when two ways to one git folder give it different tops. Throws on I/O errors.
 */
function otherHookedGitFolders(location: GitLocation): HookedGitFolder[] | undefined {
	const own = realPathOf(location.gitDir);
	const found = new Map<string, HookedGitFolder>();
	const queue: HookedGitFolder[] = [{ gitDir: location.gitDir, commonDir: location.commonDir, top: location.top }];
	let conflict = false;
	const add = (folder: HookedGitFolder): boolean => {
		const real = realPathOf(folder.gitDir);
		if (real === undefined) return false;
		if (real === own) return true;
		const known = found.get(real);
		if (known !== undefined) {
			let merged = known;
			if (merged.fallbackTop === undefined && folder.fallbackTop !== undefined)
				merged = { ...merged, fallbackTop: folder.fallbackTop, unplaced: false };
			if (folder.top !== undefined && folder.guessedTop !== true) {
				if (merged.top === undefined || merged.guessedTop === true)
					merged = { ...merged, top: folder.top, guessedTop: false };
				else if (folder.top !== merged.top) conflict = true;
			}
			found.set(real, merged);
			return true;
		}
		if (found.size >= MAX_MODULES_FOLDERS) return false;
		found.set(real, folder);
		queue.push(folder);
		return true;
	};
	// The repositories around the top, each walked as this one is. A bare repository holding its worktrees
	// (`proj.git/main`) is this one's own common folder: the search goes on above it.
	const commonDir = realPathOf(location.commonDir);
	let outer = dirname(location.top);
	for (let level = 0; ; level++) {
		const real = realPathOf(outer);
		if (commonDir !== undefined && real !== undefined && (real === commonDir || real.startsWith(`${commonDir}/`)))
			outer = dirname(commonDir);
		const around = locateRepository(outer);
		if (around === "none") break;
		if (around === "unknown" || level >= MAX_OUTER_REPOSITORIES) return undefined;
		if (!add({ gitDir: around.gitDir, commonDir: around.commonDir, top: around.top })) return undefined;
		if (dirname(around.top) === around.top) break;
		outer = dirname(around.top);
	}
	while (queue.length > 0) {
		const repository = queue.shift() as HookedGitFolder;
		const known = found.get(realPathOf(repository.gitDir) ?? "");
		// A submodule put away keeps its own submodules' git folders: they are placed below where it would be.
		const top = known?.top ?? repository.top ?? known?.fallbackTop ?? repository.fallbackTop;
		const gitmodules =
			top === undefined ? { checkedOut: [], pathsByName: new Map<string, string>() } : readGitmodules(top);
		if (gitmodules === undefined) return undefined;
		const submodules = submoduleGitFolders(repository, false);
		if (submodules === undefined) return undefined;
		for (const { gitDir, name } of submodules) {
			const subCommonDir = commonDirOf(gitDir);
			if (subCommonDir === undefined) return undefined;
			const path = gitmodules.pathsByName.get(name);
			const placement =
				top === undefined || path === undefined ? { unplaced: true } : { fallbackTop: joinAsText(top, path) };
			if (!add({ gitDir, commonDir: subCommonDir, ...placement })) return undefined;
		}
		for (const folder of gitmodules.checkedOut) if (!add(folder)) return undefined;
		const main = realPathOf(repository.gitDir) === realPathOf(repository.commonDir);
		if (!main) {
			// The main worktree's folder (its own `config.worktree`): the folder around a `.git` folder, or a bare
			// repository's git folder itself, where git places a relative value.
			const mainDir = repository.commonDir;
			const mainTop = basename(mainDir) === ".git" ? dirname(mainDir) : mainDir;
			if (!add({ gitDir: mainDir, commonDir: mainDir, top: mainTop, guessedTop: true })) return undefined;
			continue;
		}
		const worktrees = join(repository.commonDir, "worktrees");
		if (kindOf(worktrees) !== "dir") continue;
		for (const name of readdirSync(worktrees)) {
			const gitDir = join(worktrees, name);
			if (kindOf(gitDir) !== "dir") continue;
			// `gitdir` names the worktree's `.git` file (relative to this folder under `worktree.useRelativePaths`).
			const text = readBoundedOrUndefined(join(gitDir, "gitdir"));
			const dotGit = text?.replace(/\n$/, "");
			if (dotGit === undefined || dotGit === "" || dotGit.includes("\n")) return undefined;
			const worktreeTop = placedByNearestEntry(dirname(joinAsText(gitDir, dotGit)));
			if (worktreeTop === undefined) return undefined;
			if (!add({ gitDir, commonDir: repository.commonDir, top: worktreeTop, linked: true })) return undefined;
		}
	}
	return conflict ? undefined : [...found.values()];
}

/**
 * What the `.gitmodules` file at `top` says: the checked-out submodules it lists (`path = …`), each with the git
 * folder its `.git` folder or `gitdir:` file names and its top, and each submodule's path by its name
 * (`[submodule "name"]`). Empty without the file; undefined when it cannot be read or `gitmodulesPaths` does not
 * take it, or a `.git` there is neither a folder nor a file read as git reads it. Throws on I/O errors.
 */
function readGitmodules(
	top: string,
): { checkedOut: HookedGitFolder[]; pathsByName: ReadonlyMap<string, string> } | undefined {
	const file = join(top, ".gitmodules");
	const kind = kindOf(file);
	// A link that leads nowhere (its folder link removed: a seventy-eighth review) is not an absent file.
	if (kind === "missing") return entryExists(file) ? undefined : { checkedOut: [], pathsByName: new Map() };
	const text = kind === "file" ? readBoundedOrUndefined(file) : undefined;
	// A `.gitmodules` committed from Windows too (a seventy-eighth review); see `gitmodulesPaths`.
	const listed = text === undefined ? undefined : gitmodulesPaths(text);
	if (listed === undefined) return undefined;
	const { paths, pathsByName } = listed;
	const checkedOut: HookedGitFolder[] = [];
	for (const path of paths) {
		const tree = join(top, path);
		const dotGit = join(tree, ".git");
		const dotGitKind = kindOf(dotGit);
		if (dotGitKind === "missing") continue;
		const gitDir = dotGitKind === "dir" ? dotGit : dotGitKind === "file" ? gitDirOfFile(dotGit, tree) : undefined;
		const commonDir = gitDir === undefined ? undefined : commonDirOf(gitDir);
		const treeTop = realPathOf(tree);
		if (gitDir === undefined || commonDir === undefined || treeTop === undefined) return undefined;
		checkedOut.push({ gitDir, commonDir, top: treeTop });
	}
	return { checkedOut, pathsByName };
}

/**
 * The one working tree the `core.worktree` values read for a git folder name (relative to `gitDir`), placed by the
 * system (a folder not made yet by where it would be made: a submodule removed with `git rm` keeps its git folder);
 * undefined with values that name different folders, or one that cannot be placed.
 */
function agreedWorktree(gitDir: string, values: readonly string[]): string | undefined {
	const placed = new Set(
		values.map((value) => (value === "" ? undefined : placedByNearestEntry(joinAsText(gitDir, value)))),
	);
	if (placed.size !== 1) return undefined;
	return [...placed][0];
}

/**
 * The armed paths (see {@link armedPathsOf}) of the other git folders whose hooks a write may arm (see
 * {@link otherHookedGitFolders}): each one's `hooks` (and its common folder's), and what its own config files name,
 * relative `core.hooksPath` values (its own, and the user's and the system's `globalHooksPaths`) placed below its
 * working tree. git takes `core.worktree` from `config` (for a linked worktree only from its `config.worktree`) or
 * `config.worktree`, never from an include (a seventy-fifth review). Undefined when one cannot be judged, or its
 * `core.worktree` values do not agree with each other or with the tree it is known to have. A submodule with no
 * working tree named (put away with `git submodule deinit`) is placed where its next checkout would put it (see
 * `fallbackTop`); a git folder with none at all has its relative values left out. Each top's `.gitmodules` is armed
 * too. Throws on I/O errors.
 */
function otherGitFoldersArmedPaths(
	location: GitLocation,
	home: string,
	globalHooksPaths: readonly string[],
): string[] | undefined {
	const folders = otherHookedGitFolders(location);
	if (folders === undefined) return undefined;
	const armed: string[] = [];
	for (const { gitDir, commonDir, top: knownTop, linked, guessedTop, fallbackTop, unplaced } of folders) {
		const read = readConfigFiles(repositoryConfigFiles({ gitDir, commonDir }), home, () => false);
		if (read === undefined) return undefined;
		const values = read.worktrees
			.filter((worktree) => !linked || worktree.file === join(gitDir, "config.worktree"))
			.map((worktree) => worktree.value);
		const named = values.length === 0 ? undefined : agreedWorktree(gitDir, values);
		if (values.length > 0 && (named === undefined || (knownTop !== undefined && !guessedTop && named !== knownTop)))
			return undefined;
		const top = guessedTop === true ? (named ?? knownTop) : (knownTop ?? named);
		// Where `.gitmodules` puts a submodule counts too when its `core.worktree` names another folder: the next
		// `git submodule update` checks it out there and runs its hooks (a seventy-ninth review: `git mv vendor/lib
		// third/party/lib`, then `git checkout HEAD~1`).
		const tops = [...new Set([top, fallbackTop].filter((place): place is string => place !== undefined))];
		if (tops.length === 0 && unplaced === true && [...read.hooksPaths, ...globalHooksPaths].some(isRelativeHooksPath))
			return undefined;
		const gitHooks = [...new Set([join(gitDir, "hooks"), join(commonDir, "hooks")])];
		for (const place of tops.length === 0 ? [undefined] : tops) {
			// Its `.gitmodules` tells this reader where its submodules' git folders are (a seventy-seventh review: `rm
			// .gitmodules` hid one).
			if (place !== undefined) armed.push(join(place, ".gitmodules"));
			const hooksPaths =
				place === undefined
					? read.hooksPaths.filter((value) => !isRelativeHooksPath(value))
					: [...read.hooksPaths, ...globalHooksPaths];
			const paths = armedPathsOf(gitHooks, hooksPaths, place, read.included, home);
			if (paths === undefined) return undefined;
			armed.push(...paths);
		}
	}
	return armed;
}

/**
 * Where `path` lies once its nearest existing entry is placed by its real path (`node_modules/.bin/x` before
 * `npm install`); undefined when that entry is a link that leads nowhere (what is made below it lands where the
 * link leads, which no real path names yet) or none is found within {@link MAX_MISSING_FOLDER_DEPTH} folders.
 */
function placedByNearestEntry(path: string): string | undefined {
	const rest: string[] = [];
	let current = path;
	for (let depth = 0; depth < MAX_MISSING_FOLDER_DEPTH; depth++) {
		if (entryExists(current)) {
			const real = realPathOf(current);
			return real === undefined ? undefined : join(real, ...rest.reverse());
		}
		const parent = dirname(current);
		if (parent === current) return undefined;
		rest.push(basename(current));
		current = parent;
	}
	return undefined;
}

/**
 * Where a link in `folder` whose target `text` does not exist yet would lead: from the folder's real path (a `..`
 * climbs from there), placed by {@link placedByNearestEntry}; undefined when a `..` follows a name in it (the system
 * takes it from where a link of that name leads).
 */
function placedLinkTarget(folder: string, text: string): string | undefined {
	const parts = text.split("/").filter((part) => part !== "" && part !== ".");
	const firstName = parts.findIndex((part) => part !== "..");
	if (firstName >= 0 && parts.slice(firstName).includes("..")) return undefined;
	const base = realPathOf(folder);
	return base === undefined ? undefined : placedByNearestEntry(resolve(base, text));
}

/**
 * The real paths of the hooks that are links in `folders` (missing folders have none), a link that leads nowhere
 * yet by where its target would be made (`pre-commit -> ../../node_modules/.bin/lint-hook` before `npm install`, a
 * seventy-third review); undefined when a folder cannot be listed, holds more entries than the kernel judges, a
 * target cannot be placed, or a hook other than a sample is a file with more than one name (a hard link). Throws on I/O errors.
 */
function linkedHookTargets(folders: readonly string[]): string[] | undefined {
	const targets: string[] = [];
	for (const folder of folders) {
		const kind = kindOf(folder);
		if (kind === "missing") continue;
		if (kind !== "dir") return undefined;
		const entries = readdirSync(folder, { withFileTypes: true });
		if (entries.length > MAX_GIT_HOOK_ENTRIES) return undefined;
		for (const entry of entries) {
			// A hook hard-linked to another file (`ln scripts/pre-commit .git/hooks/`) runs whatever a write to that
			// other name puts in it, and no path names it (a seventy-fourth review): not known. Samples never run.
			if (entry.isFile() && !entry.name.endsWith(".sample") && lstatSync(join(folder, entry.name)).nlink > 1)
				return undefined;
			if (!entry.isSymbolicLink()) continue;
			const hook = join(folder, entry.name);
			const target = realPathOf(hook) ?? placedLinkTarget(folder, readlinkSync(hook));
			if (target === undefined) return undefined;
			// The file a hook link leads to may have another name too (a seventy-fifth review): as for a hook itself.
			if (kindOf(target) === "file" && lstatSync(target).nlink > 1) return undefined;
			targets.push(target);
		}
	}
	return targets;
}

/** At most this many folders up are tried to find an existing one (see {@link nearestExistingFolder}). */
const MAX_MISSING_FOLDER_DEPTH = 64;

/** `folder` or the nearest folder above it that exists (a write may make the folders below it). */
function nearestExistingFolder(folder: string): string {
	let current = folder;
	for (let depth = 0; depth < MAX_MISSING_FOLDER_DEPTH && kindOf(current) === "missing"; depth++) {
		current = dirname(current);
	}
	return current;
}

/** True when a bash command may run git, so the floor needs the config fact (a cheap substring check). */
export function mayRunGit(command: string): boolean {
	return command.includes("git");
}

/** At most this many directories' facts are kept between calls. */
const MAX_CACHED_DIRECTORIES = 16;

/**
 * The session's cached facts, per directory: read once when a git command is first judged there, reused until
 * `invalidate()` (after any tool call that may have written files, and on session start). `forDirectories` gathers
 * the floor's facts for one bash command: the working directory's, and those of every other directory the command
 * runs git in (`cd sub && git status`, from `floorFactRequestsOf`), which may be another repository.
 */
export function createGitConfigFacts(home: string): {
	verdict(cwd: string): Promise<GitConfigVerdict>;
	hooks(cwd: string): GitHooksVerdict;
	forDirectories(
		directories: readonly string[],
		context: FloorContext,
		historyDirectories?: readonly string[],
		addDirectories?: readonly string[],
	): Promise<FloorFacts>;
	/**
	 * {@link readGitArmedPaths} of the repositories around `folders` (where a call writes; see
	 * `FloorFactRequests.writeFolders`) and `cwd`, for `FloorFacts.gitArmedPaths`: a folder whose repository cannot
	 * be judged counts as one itself, and more than `MAX_WRITE_FOLDERS` folders make `cwd` and every one of `roots`
	 * (the additional directories) one: every write there is reviewed.
	 */
	armedPathsAround(cwd: string, folders: readonly string[], roots?: readonly string[]): readonly string[];
	invalidate(): void;
} {
	const cached = new Map<string, { config: Promise<GitConfigFacts>; hooks: GitHooksVerdict }>();
	const hooksFolders = new Map<string, readonly string[] | "unknown">();
	const history = createGitHistoryFacts();
	/** `writable`: where the agent may write without review (the workspace and additional directories), by `key`. */
	const current = (dir: string, writable?: { test: (path: string) => boolean; key: string }) => {
		const key = `${dir}\u0000${writable?.key ?? ""}`;
		let entry = cached.get(key);
		if (entry === undefined) {
			if (cached.size >= MAX_CACHED_DIRECTORIES) cached.clear();
			// One read of the repository's config files serves both facts.
			const repository = readRepository(dir, home, writable?.test ?? (() => false));
			entry = { config: configFactsOf(repository, home), hooks: hooksVerdictOf(repository, home) };
			cached.set(key, entry);
		}
		return entry;
	};
	const factsOf = async (
		dir: string,
		writable: { test: (path: string) => boolean; key: string },
	): Promise<GitRepositoryFacts> => {
		const { config, urlCredentials, contentSettings, top } = await current(dir, writable).config;
		return {
			config,
			hooks: current(dir, writable).hooks,
			urlCredentials,
			...(contentSettings === undefined ? {} : { contentSettings }),
			...(top === undefined ? {} : { top }),
		};
	};
	return {
		verdict: async (cwd) => (await current(cwd).config).config,
		hooks: (cwd) => current(cwd).hooks,
		async forDirectories(directories, context, historyDirectories = [], addDirectories = []) {
			const workspace = resolve(context.cwd);
			const writable = {
				test: (path: string) => isInWorkspace(path, workspace, context.additionalDirectories),
				key: `${workspace}\u0000${(context.additionalDirectories ?? []).join("\u0000")}`,
			};
			const here = await factsOf(context.cwd, writable);
			const gitByDirectory = new Map<string, GitRepositoryFacts>();
			for (const dir of directories) gitByDirectory.set(dir, await factsOf(dir, writable));
			// The protected files a repository's index or history holds, for git that prints content there; listed only
			// where git runs no program (elsewhere the floor reviews it anyway).
			let tests: { isProtected(path: string): boolean; isOutside(path: string): boolean; key: string } | undefined;
			let atCwd: GitHistoryListing | undefined;
			for (const dir of historyDirectories) {
				const facts = dir === context.cwd ? here : gitByDirectory.get(dir);
				// Without a top named through the command's path, the listing's paths (under git's real top) would not
				// meet the floor's names for them: content-printing git there is reviewed.
				if (facts?.config !== "safe" || facts.top === undefined) continue;
				if (tests === undefined) {
					const entryKind = treeEntryTest(context);
					// A file outside the workspace counts too: a repository whose top lies above the workspace prints
					// files beside it (`git log -p` in `outer/ws` prints `outer/private.txt`).
					tests = {
						isProtected: (path) => entryKind(path, false, false) === "protected",
						isOutside: (path) => !writable.test(path),
						key: `${treeProtectionKey(context)}${(context.additionalDirectories ?? []).join("\u0000")}`,
					};
				}
				const listing = await history.protectedPathsOf(dir, tests.isProtected, tests.key, facts.top, tests.isOutside);
				if (listing === undefined) continue;
				if (dir === context.cwd) atCwd = listing;
				else
					gitByDirectory.set(dir, {
						...facts,
						historyProtected: listing.protectedPaths,
						historyCommits: listing.commits,
					});
			}
			// Where the command runs `git add`: a nested repository git does not track would become a submodule, whose
			// config git after the add runs. Listed only where git runs no program (elsewhere the floor reviews it anyway).
			let untrackedHere: GitUntrackedRepositoriesVerdict | undefined;
			for (const dir of addDirectories) {
				const facts = dir === context.cwd ? here : gitByDirectory.get(dir);
				if (facts?.config !== "safe") continue;
				const verdict = await untrackedRepositoriesVerdict(dir);
				if (dir === context.cwd) untrackedHere = verdict;
				else gitByDirectory.set(dir, { ...facts, untrackedRepositories: verdict });
			}
			return {
				...(untrackedHere === undefined ? {} : { gitUntrackedRepositories: untrackedHere }),
				gitConfig: here.config,
				gitHooks: here.hooks,
				gitUrlCredentials: here.urlCredentials,
				...(here.contentSettings === undefined ? {} : { gitContentSettings: here.contentSettings }),
				...(here.top === undefined ? {} : { gitTop: here.top }),
				gitByDirectory,
				...(atCwd === undefined ? {} : { gitHistoryProtected: atCwd.protectedPaths, gitHistoryCommits: atCwd.commits }),
			};
		},
		armedPathsAround(cwd, folders, roots = []) {
			// Past the bound every root the agent may write in counts as one (a forty-third review: the additional
			// directories too).
			if (folders.length > MAX_WRITE_FOLDERS) return [resolve(cwd), ...roots];
			const found = new Set<string>();
			for (const folder of new Set([resolve(cwd), ...folders])) {
				const existing = nearestExistingFolder(folder);
				let read = hooksFolders.get(existing);
				if (read === undefined) {
					if (hooksFolders.size >= MAX_CACHED_DIRECTORIES) hooksFolders.clear();
					read = readGitArmedPaths(existing, home);
					hooksFolders.set(existing, read);
				}
				for (const hooks of read === "unknown" ? [folder] : read) found.add(hooks);
			}
			return [...found];
		},
		invalidate() {
			cached.clear();
			hooksFolders.clear();
		},
	};
}
