// The program verdicts of the hooks git may run on read-only commands: a hooks folder's read-time hooks, the folders
// `core.hooksPath` names, and the submodules git enters from the superproject (their git folders under `modules/`,
// and the checked-out ones the index holds, which only git itself lists).
import { type BigIntStats, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
	combineGitConfigVerdicts,
	dotDotFollowsName,
	GIT_HOOKS_RUN_BY_READS,
	type GitConfigVerdict,
	gitHooksFolderPaths,
} from "@pi-policy/policy-kernel/guardian";
import { readConfigFiles, repositoryConfigFiles } from "./git-config-files.js";
import {
	commonDirOf,
	entryExists,
	type GitFolder,
	gitDirOfFile,
	joinAsText,
	kindOf,
	realPathOf,
} from "./git-folder-reader.js";
import { runQuietGit } from "./git-history-reader.js";

/** True when the git folder's hooks hold one git runs on reads (`post-index-change`), active or not a file. */
export function hasReadTimeHook(gitDir: string): boolean {
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
 * (`%(prefix)/…`, a seventy-second review), or a `..` part after a name, which the system takes from where a link
 * before it leads (`lnk/../hk` with `lnk -> sub/deep` is `sub/hk`; a seventy-first review), while
 * `gitHooksFolderPaths` drops it as text (see `dotDotFollowsName`). Leading `..` parts are placed: git runs hooks from
 * the top's real path, and the readers place relative values on it (an eightieth review: `../../shared-hooks` of a
 * clone in `services/api` made every write around it reviewed).
 */
export function unplacedHooksPath(value: string): boolean {
	return namesOtherUsersHome(value) || value.startsWith("%(prefix)/") || dotDotFollowsName(value);
}

/**
 * The program verdict of the folders `core.hooksPath` values name, the user's and the system's too (git places a
 * relative value below the repository's `top`, whichever file set it: `~/.gitconfig`'s `.githooks` runs a project's
 * `.githooks/post-index-change`; a seventy-first review): `unsafe` when one holds a hook git runs on reads,
 * `unknown` when a value cannot be placed (see {@link unplacedHooksPath}) or a folder is not one, `safe` with none (a missing folder runs nothing; a write there is reviewed, see `readGitArmedPaths`).
 * Throws on I/O errors.
 */
export function hooksPathFoldersVerdict(values: readonly string[], top: string, home: string): GitConfigVerdict {
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
export const MAX_MODULES_FOLDERS = 1024;

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
export function submoduleGitFolders(folder: GitFolder, nested = true): { gitDir: string; name: string }[] | undefined {
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
export function submodulesVerdict(folder: GitFolder, home: string): GitConfigVerdict {
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
export async function gitlinksVerdict(
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
const MAX_CACHED_GITLINK_LISTS = 64;
/** The gitlinks last listed per working tree, with the identity of the index they were read from. */
const gitlinkLists = new Map<string, { index: string; paths: readonly string[] }>();

/**
 * The paths of the gitlinks (mode 160000) in the index of the working tree `tree`, whose git folder is `gitDir`.
 * git asked once per index: git writes a new index file for every change (a new inode, size or time), so its
 * identity keys the list, and a repository's config read again after each write costs one `stat` while the index
 * stays as it was. No index file: none. Throws when git fails.
 */
export async function gitlinksOf(tree: string, gitDir: string): Promise<readonly string[]> {
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
