// Finds a repository as git finds it, and reads the small files of its git folders, for the git readers of the floor's
// facts (git-config-reader.ts, git-hooks-reader.ts, git-armed-paths-reader.ts): `.git` folders and files, `commondir`,
// `HEAD`, and where a path not made yet would lie. Reads are synchronous and bounded (decision 0013); nothing here
// runs git or judges text (the kernel does: @pi-policy/policy-kernel/guardian git-folder).
import {
	accessSync,
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	openSync,
	readlinkSync,
	readSync,
	realpathSync,
	type Stats,
	statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import {
	gitCommonDirFileTarget,
	gitDirFileTarget,
	gitHeadSurelyRejected,
	judgeGitHead,
	MAX_GIT_CONFIG_CHARS,
} from "@pi-policy/policy-kernel/guardian";
import { createPathEntryLookup, followPathLinks, type PathEntryLookup } from "./path-link-reader.js";

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
export function gitConfigRedirected(): boolean {
	if (REDIRECTING_ENV.some((name) => process.env[name] !== undefined)) return true;
	return CONFIG_LOCATION_ENV.some(namesRelativeLocation);
}

/** True when the environment variable `name` holds a relative path: a place wherever the reading program runs. */
export function namesRelativeLocation(name: string): boolean {
	const value = process.env[name];
	return value !== undefined && value !== "" && !isAbsolute(value);
}

/** Where a repository keeps its files. */
export interface GitLocation {
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
export interface GitFolder {
	readonly gitDir: string;
	readonly commonDir: string;
}

export function kindOf(path: string): "file" | "dir" | "missing" | "other" {
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
export function entryExists(path: string): boolean {
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
export function readBounded(path: string): string | undefined {
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
export function readBoundedOrUndefined(path: string): string | undefined {
	try {
		return readBounded(path);
	} catch {
		return undefined;
	}
}

/** The real path of `path` (links and `..` resolved by the system, as git does), or undefined when it has none. */
export function realPathOf(path: string): string | undefined {
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
export function joinAsText(base: string, relative: string): string {
	return isAbsolute(relative) ? relative : `${base}/${relative}`;
}

/**
 * Finds the repository containing `cwd` as git does, from its real path (git looks from `getcwd()`, after every
 * link): at each folder up, `.git` (a folder, or a file with `gitdir: …`), then the folder itself when it looks like
 * a git folder (`unknown`); follows `commondir`. A `.git` folder git would not take (see {@link validGitFolder})
 * makes it `unknown`: git skips such a folder and goes on looking, for a repository this reader did not judge.
 */
export function locateRepository(cwd: string): GitLocation | "none" | "unknown" {
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
 * The repository whose top is `top` itself (a `.git` there, or `top` a bare repository's git folder); `none` only
 * where git surely takes none there: no `.git` (or a link that leads nowhere) and no git folder, a `.git` folder
 * without `objects` or `refs` or with a `HEAD` git rejects (a test fixture's partial git folder, an empty `HEAD`
 * after a crash), a `.git` file whose `gitdir:` names no
 * entry (a copied checkout). Anything else this reader cannot judge is `unknown`: git may take it (a `gitdir:` whose
 * path ends in a blank, `objects` a file git may enter; an eighty-second review). Never throws.
 */
export function repositoryAt(top: string): GitLocation | "none" | "unknown" {
	try {
		const real = realPathOf(top);
		if (real === undefined) return "unknown";
		const dotGit = join(real, ".git");
		const kind = kindOf(dotGit);
		// git runs a bare repository's hooks too (a push into `remote.git`; an eighty-second review), placing a relative
		// `core.hooksPath` in the git folder itself.
		const bareOrNone = () => (looksLikeGitFolder(real) ? bareRepositoryAt(real) : "none");
		if (kind === "missing") return bareOrNone();
		const location = locateRepository(top);
		if (typeof location !== "string" && location.top === real) return location;
		// A `.git` folder git does not take leaves the folder itself to be judged, as git does.
		if (kind === "dir") return surelyNoGitFolder(dotGit) ? bareOrNone() : "unknown";
		if (kind !== "file") return "unknown";
		const text = readBoundedOrUndefined(dotGit);
		const target = text === undefined ? undefined : gitDirFileTarget(text);
		return target !== undefined && !entryExists(joinAsText(real, target)) ? "none" : "unknown";
	} catch {
		return "unknown";
	}
}

/** The bare repository whose git folder is `gitDir` (a real path), placed in itself; see {@link repositoryAt}. */
function bareRepositoryAt(gitDir: string): GitLocation | "none" | "unknown" {
	const folder = validGitFolder(gitDir);
	if (folder !== undefined) return { top: gitDir, namedTop: undefined, ...folder };
	return surelyNoGitFolder(gitDir) ? "none" : "unknown";
}

/**
 * True when git surely does not take `gitDir` as a git folder: its `HEAD` is one git rejects (see
 * {@link surelyInvalidHead}), or (without a `commondir`) `objects` or `refs` is no entry at all. Throws on I/O errors.
 */
function surelyNoGitFolder(gitDir: string): boolean {
	if (surelyInvalidHead(join(gitDir, "HEAD"))) return true;
	if (entryExists(join(gitDir, "commondir"))) return false;
	return !entryExists(join(gitDir, "objects")) || !entryExists(join(gitDir, "refs"));
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
export function gitDirOfFile(dotGit: string, dir: string): string | undefined {
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
	const text = headText(path);
	return text !== undefined && judgeGitHead({ text });
}

/**
 * True when git surely rejects `path` as a `HEAD` (`validate_headref`): no entry, a folder, a link not to `refs/`,
 * or a file that starts neither with `ref:` nor with an object id (empty or cut short by a crash; an eighty-third
 * review). Anything else, such as a device or a `ref:` this reader would not take, is not sure. Throws on I/O errors.
 */
function surelyInvalidHead(path: string): boolean {
	let info: Stats;
	try {
		info = lstatSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return code === "ENOENT" || code === "ENOTDIR";
	}
	if (info.isSymbolicLink()) return gitHeadSurelyRejected({ link: readlinkSync(path, "latin1") });
	if (info.isDirectory()) return true;
	if (!info.isFile()) return false;
	const text = headText(path);
	return text !== undefined && gitHeadSurelyRejected({ text });
}

/**
 * The first 255 bytes of the regular file at `path` (as git reads a `HEAD`), opened without waiting and checked by
 * its descriptor, as in {@link readBounded}; undefined when it is no regular file by then. Throws on I/O errors.
 */
function headText(path: string): string | undefined {
	const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		if (!fstatSync(descriptor).isFile()) return undefined;
		const buffer = Buffer.alloc(255);
		const bytesRead = readSync(descriptor, buffer, 0, 255, 0);
		return buffer.toString("latin1", 0, bytesRead);
	} finally {
		closeSync(descriptor);
	}
}

/**
 * True when `dir` holds what git looks for in a git folder (`HEAD` beside `objects`, `refs` or `commondir`), as
 * entries, whatever they are; a bare repository, or a copy of a git folder.
 */
export function looksLikeGitFolder(dir: string): boolean {
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
export function commonDirOf(gitDir: string): string | undefined {
	const path = join(gitDir, "commondir");
	if (!entryExists(path)) return realPathOf(gitDir);
	const text = readBoundedOrUndefined(path);
	const target = text === undefined ? undefined : gitCommonDirFileTarget(text);
	return target === undefined ? undefined : realPathOf(joinAsText(gitDir, target));
}

/**
 * Where `path` lies once its nearest existing entry is placed by its real path (`node_modules/.bin/x` before
 * `npm install`); undefined when that entry is a link that leads nowhere (what is made below it lands where the
 * link leads, which no real path names yet) or none is found within {@link MAX_MISSING_FOLDER_DEPTH} folders.
 */
export function placedByNearestEntry(path: string): string | undefined {
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
 * The folders that hold the links on the way from `path` to its real path, by their real paths (`work -> outer/work`
 * and `outer/work -> ../data/ws`: the folder around `work`, and `outer`): git in a repository around one of them
 * follows its link into `path`'s tree, so a `core.hooksPath` there may name a folder of it (an eightieth review).
 * Walked part by part as the system walks it (see `followPathLinks`), so a `..` climbs from where the links before it
 * led (`work -> via/../proj` with `via -> outer/sub` passes `outer`; an eighty-first review); the walk ends at a
 * missing part. Undefined past `MAX_LINK_HOPS` links (a loop), or when a part cannot be looked up. Never throws.
 */
export function linkHoldingFolders(path: string): string[] | undefined {
	const folders = new Set<string>();
	const look = createPathEntryLookup();
	const recording: PathEntryLookup = (entry) => {
		const found = look(entry);
		if (found.kind === "link") folders.add(dirname(entry));
		return found;
	};
	return followPathLinks(resolve(path), recording) === undefined ? undefined : [...folders];
}

/** At most this many folders up are tried to find an existing one (see {@link nearestExistingFolder}). */
const MAX_MISSING_FOLDER_DEPTH = 64;

/** `folder` or the nearest folder above it that exists (a write may make the folders below it). */
export function nearestExistingFolder(folder: string): string {
	let current = folder;
	for (let depth = 0; depth < MAX_MISSING_FOLDER_DEPTH && kindOf(current) === "missing"; depth++) {
		current = dirname(current);
	}
	return current;
}
