// Looks in the trees a recursive read walks (`grep -r x sub`, `rg x`, `diff -r a b`) for entries the floor
// protects, so that such a read is allowed only when the tree holds no `.env`, key or history file the reader would
// read. The kernel names the trees (floorFactRequestsOf) and decides; this module only lists folders and reads the
// config, reflog, remote and message files of the git folders it meets (a `.git/` is read only when they hold no
// credential, decision 0019): asynchronously, bounded in entries, depth and bytes, and cached until a tool call that may have changed
// them has run.
import type { Stats } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import {
	type FloorContext,
	type GitConfigSecretsVerdict,
	gitConfigExcludesFile,
	globPartMayMatchName,
	ignoreRulesWhitelist,
	judgeGitConfigSecrets,
	judgeGitMessageSecrets,
	judgeGitUrlFileSecrets,
	MAX_GIT_CONFIG_CHARS,
	MAX_GIT_MESSAGE_BYTES,
	MAX_GIT_URL_FILE_BYTES,
	nameSplitsInXargs,
	type SearchTreeRequest,
	type SearchTreeVerdict,
	searchTreeKey,
	type TreeEntryKind,
	treeEntryTest,
	treeProtectionKey,
} from "@pi-policy/policy-kernel/guardian";
import { userGitConfigFolder, userGitConfigPaths } from "./git-config-files.js";
import { namesRelativeLocation } from "./git-folder-reader.js";

/** At most this many entries are listed in one tree; a larger tree is `unknown` (its read goes to review). */
export const MAX_SEARCH_TREE_ENTRIES = 20_000;
/** Folders nested deeper than this below the root make the tree `unknown`. */
export const MAX_SEARCH_TREE_DEPTH = 64;
/** At most this many verdicts are kept; the cache starts over beyond it. */
const MAX_CACHED_TREES = 128;

/** The kernel's test for one entry of a tree (see `treeEntryTest`). */
export type TreeEntryTest = (path: string, isDirectory: boolean, insideGitFolder: boolean) => TreeEntryKind;

/** What a git folder's config file holds for a reader, read within the kernel's size bound. Never throws. */
async function readGitConfigSecrets(path: string): Promise<GitConfigSecretsVerdict> {
	try {
		const info = await lstat(path);
		if (!info.isFile() || info.size > MAX_GIT_CONFIG_CHARS * 4) return "unknown";
		const text = await readFile(path, "utf8");
		return text.length > MAX_GIT_CONFIG_CHARS ? "unknown" : judgeGitConfigSecrets(text);
	} catch {
		return "unknown";
	}
}

/**
 * What a git folder's reflog, legacy remote or message file holds for a reader, judged by `judge` when it is a
 * regular file of at most `maxBytes`; `unknown` otherwise. Never throws.
 */
async function readJudgedText(
	path: string,
	maxBytes: number,
	judge: (text: string) => GitConfigSecretsVerdict,
): Promise<GitConfigSecretsVerdict> {
	try {
		const info = await lstat(path);
		if (!info.isFile() || info.size > maxBytes) return "unknown";
		return judge(await readFile(path, "utf8"));
	} catch {
		return "unknown";
	}
}

/** The ignore files ripgrep reads in each folder; a `!` line in one whitelists entries, hidden ones included. */
const IGNORE_FILE_NAMES = [".ignore", ".rgignore", ".gitignore"];
/** Ignore files larger than this are not read: they count as whitelisting. */
const MAX_IGNORE_FILE_BYTES = 64 * 1024;

/**
 * True when an ignore file may whitelist an entry (`!.env`): any line starting with `!`, or a file that cannot be
 * read within the bound. A missing file whitelists nothing. Never throws.
 */
async function ignoreFileWhitelists(path: string): Promise<boolean> {
	try {
		const info = await lstat(path);
		if (!info.isFile() || info.size > MAX_IGNORE_FILE_BYTES) return true;
		return ignoreRulesWhitelist(await readFile(path, "utf8"));
	} catch (error) {
		return !isMissing(error);
	}
}

/** True for the errors of an entry that is not there (git and ripgrep skip a missing ignore file or `.git`). */
function isMissing(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * True when the repository whose `.git` sits in `dir` may whitelist entries for ripgrep: its `info/exclude` has a
 * `!` line, or `.git` is a file (a worktree or submodule, whose exclude file lies elsewhere). Never throws.
 */
async function gitExcludeWhitelists(dir: string): Promise<boolean> {
	try {
		const info = await lstat(join(dir, ".git"));
		if (info.isDirectory()) return await ignoreFileWhitelists(join(dir, ".git", "info", "exclude"));
		return true;
	} catch (error) {
		return !isMissing(error);
	}
}

/**
 * The user's global git excludes file: the last `core.excludesFile` in their config files (read in git's order),
 * else `$XDG_CONFIG_HOME/git/ignore`; `unknown` when a config file cannot be read or judged, or that variable is
 * relative.
 */
async function globalExcludesFile(home: string): Promise<string | "unknown"> {
	// A relative `XDG_CONFIG_HOME` names a folder wherever the search runs (a seventieth review).
	if (namesRelativeLocation("XDG_CONFIG_HOME")) return "unknown";
	let excludes: string | undefined;
	for (const path of userGitConfigPaths(home)) {
		let text: string;
		try {
			const info = await lstat(path);
			if (!info.isFile() || info.size > MAX_GIT_CONFIG_CHARS) return "unknown";
			text = await readFile(path, "utf8");
		} catch (error) {
			if (isMissing(error)) continue;
			return "unknown";
		}
		const set = gitConfigExcludesFile(text);
		if (set === "unknown") return "unknown";
		if (set !== undefined) excludes = set;
	}
	if (excludes === undefined) return join(userGitConfigFolder(home), "ignore");
	return excludes.startsWith("~/") ? join(home, excludes.slice(2)) : isAbsolute(excludes) ? excludes : "unknown";
}

/**
 * True when ripgrep may search hidden entries below `root` without being told to: an ignore file it reads in a
 * folder above the root (`.ignore`, `.rgignore`, `.gitignore`), a repository's `info/exclude`, or the user's global
 * excludes file whitelists something (`!.env`). The root's own ignore files and those below are checked during the
 * walk. Never throws.
 */
async function whitelistsAboveRoot(root: string, home: string): Promise<boolean> {
	const global = await globalExcludesFile(home);
	if (global === "unknown" || (await ignoreFileWhitelists(global))) return true;
	let dir = dirname(root);
	for (let depth = 0; depth < MAX_SEARCH_TREE_DEPTH; depth++) {
		for (const name of IGNORE_FILE_NAMES) if (await ignoreFileWhitelists(join(dir, name))) return true;
		if (await gitExcludeWhitelists(dir)) return true;
		const parent = dirname(dir);
		if (parent === dir) return false;
		dir = parent;
	}
	return true;
}

/**
 * What `request`'s tree holds, as the reader would walk it: every entry below the root, or for a glob word each
 * entry its parts can reach (hidden ones too, unless the reader skips them), links below the root skipped unless the reader follows them (then `unknown`: the target may be
 * anywhere), and, for paths that reach the reader through xargs (`splitsNames`), a name xargs would split makes it
 * `unknown` too. A git folder the kernel's test opens is walked too, and each of its config, reflog, legacy remote and message
 * files read: a credential (or a diff in a message) makes the tree `protected`, a file that cannot be judged
 * `unknown`. A missing root holds nothing; a root that is
 * a file was judged by its name; a root that is a link is `unknown`. Errors other than a missing entry make the
 * verdict `unknown`. For ripgrep (hidden entries skipped, no pattern), hidden entries count again from a folder
 * whose ignore file, or one above the root or in `home`'s global excludes, whitelists anything. Never throws.
 */
export async function readSearchTreeVerdict(
	request: SearchTreeRequest,
	entryKind: TreeEntryTest,
	home = "/nonexistent",
): Promise<SearchTreeVerdict> {
	try {
		let root: Stats;
		try {
			root = await lstat(request.root);
		} catch (error) {
			return isMissing(error) ? "none" : "unknown";
		}
		if (root.isSymbolicLink()) return "unknown";
		if (!root.isDirectory()) return "none";
		let entries = 0;
		// Only ripgrep skips hidden entries of a whole tree (a glob word's listing has a pattern): an ignore file's `!`
		// line whitelists them again, in its folder and below.
		const ripgrepHides = request.skipsHidden && request.pattern === undefined;
		const hidesAtRoot = request.skipsHidden && !(ripgrepHides && (await whitelistsAboveRoot(request.root, home)));
		const pending: { path: string; depth: number; inGit: boolean; hides: boolean }[] = [
			{ path: request.root, depth: 0, inGit: false, hides: hidesAtRoot },
		];
		for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
			const listed = await readdir(next.path, { withFileTypes: true });
			let hides = next.hides;
			if (hides && ripgrepHides && !next.inGit) {
				for (const entry of listed) {
					const whitelists =
						entry.name === ".git"
							? await gitExcludeWhitelists(next.path)
							: IGNORE_FILE_NAMES.includes(entry.name) && (await ignoreFileWhitelists(join(next.path, entry.name)));
					if (whitelists) hides = false;
				}
			}
			for (const entry of listed) {
				if (++entries > MAX_SEARCH_TREE_ENTRIES) return "unknown";
				if (hides && entry.name.startsWith(".")) continue;
				// A glob word reaches only the entries whose names match its part for this level.
				const part = request.pattern?.[next.depth];
				if (part !== undefined && !globPartMayMatchName(part, entry.name)) continue;
				// Paths xargs reads as text: a name it would split is other paths (`x .env` is `x` and `.env`).
				if (request.splitsNames === true && nameSplitsInXargs(entry.name)) return "unknown";
				const path = next.path === "/" ? `/${entry.name}` : `${next.path}/${entry.name}`;
				const kind = entryKind(path, entry.isDirectory(), next.inGit);
				if (kind === "protected") return "protected";
				if (kind === "git-config" || kind === "git-url-file" || kind === "git-message") {
					const secrets =
						kind === "git-config"
							? await readGitConfigSecrets(path)
							: kind === "git-url-file"
								? await readJudgedText(path, MAX_GIT_URL_FILE_BYTES, judgeGitUrlFileSecrets)
								: await readJudgedText(path, MAX_GIT_MESSAGE_BYTES, judgeGitMessageSecrets);
					if (secrets !== "none") return secrets === "found" ? "protected" : "unknown";
					continue;
				}
				if (entry.isSymbolicLink()) {
					if (request.followsLinks) return "unknown";
					continue;
				}
				if (!entry.isDirectory()) continue;
				// A glob word's expansions end at its last part.
				if (request.pattern !== undefined && next.depth + 1 >= request.pattern.length) continue;
				if (next.depth + 1 > MAX_SEARCH_TREE_DEPTH) return "unknown";
				pending.push({ path, depth: next.depth + 1, inGit: next.inGit || kind === "git-folder", hides });
			}
		}
		return "none";
	} catch {
		return "unknown";
	}
}

/**
 * The session's cached tree verdicts: `forTrees` gathers `FloorFacts.searchTrees` for one bash command (the trees
 * `floorFactRequestsOf` says it reads recursively); `invalidate()` after any tool call that may have written files,
 * and on session start.
 */
export function createSearchTreeFacts(): {
	forTrees(
		requests: readonly SearchTreeRequest[],
		context: FloorContext,
	): Promise<ReadonlyMap<string, SearchTreeVerdict>>;
	invalidate(): void;
} {
	const cached = new Map<string, Promise<SearchTreeVerdict>>();
	return {
		async forTrees(requests, context) {
			const facts = new Map<string, SearchTreeVerdict>();
			if (requests.length === 0) return facts;
			const entryKind = treeEntryTest(context);
			// The protected globs, the workspace and what Pi loaded for the model (readable wherever it lies) are part
			// of the verdict: a config change or another prompt's skills must not reuse it.
			const place = treeProtectionKey(context);
			for (const request of requests) {
				const tree = searchTreeKey(request);
				const key = place + tree;
				let verdict = cached.get(key);
				if (verdict === undefined) {
					if (cached.size >= MAX_CACHED_TREES) cached.clear();
					verdict = readSearchTreeVerdict(request, entryKind, context.home);
					cached.set(key, verdict);
				}
				facts.set(tree, await verdict);
			}
			return facts;
		},
		invalidate() {
			cached.clear();
		},
	};
}
