// The paths a write must not reach on the floor because git runs or reads what is put there: hooks folders, the
// folders `core.hooksPath` names, the files hooks link to, included config files, the scripts config keys run by
// path and `.gitmodules`, of the repository around a folder and of every git folder of its family (repositories
// around it, submodules, linked worktrees), and of the repositories nested, embedded or bare below the workspace.
// Found without running git (but for the gitlinks git lists); anything this reader cannot place makes the answer
// `unknown`.
import { lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
	dotDotFollowsName,
	gitHooksFolderPaths,
	gitmodulesPaths,
	isRelativeHooksPath,
	MAX_GIT_HOOK_ENTRIES,
} from "@pi-policy/policy-kernel/guardian";
import { type ConfigFilesRead, globalConfigFiles, readConfigFiles, repositoryConfigFiles } from "./git-config-files.js";
import {
	commonDirOf,
	entryExists,
	type GitLocation,
	gitConfigRedirected,
	gitDirOfFile,
	joinAsText,
	kindOf,
	locateRepository,
	placedByNearestEntry,
	readBoundedOrUndefined,
	realPathOf,
	repositoryAt,
} from "./git-folder-reader.js";
import { gitlinksOf, MAX_MODULES_FOLDERS, submoduleGitFolders, unplacedHooksPath } from "./git-hooks-reader.js";

/**
 * The paths git runs programs from for the repository at `cwd`: the folders `core.hooksPath` names (see
 * `gitHooksFolderPaths`; placed below the top, the git folder, where a push runs hooks, and the working tree its own
 * `core.worktree` names), the scripts its config keys run by path (see `gitProgramPathWords`) and the config files
 * its config and the user's include, from every config file git reads for it, placed through the path asked about (`namedTop`) so that the floor compares them with the workspace's names,
 * and by their real paths too: `[]` with none; `unknown` when a file could not be judged or the top cannot be named.
 * Outside a repository, the user's own absolute or home values and includes. Without `family`, the repository's own
 * git folder only (its submodules, linked worktrees and the repositories around it are left out); without `outer`,
 * the repositories around it only. With `family`,
 * `workingTrees` receives the family's other working trees whose index git reads (see `HookedGitFolder.listsGitlinks`).
 * Never throws.
 */
export function readGitArmedPaths(
	cwd: string,
	home: string,
	family = true,
	workingTrees: WorkingTree[] = [],
	outer = true,
): readonly string[] | "unknown" {
	try {
		if (gitConfigRedirected()) return "unknown";
		return gitArmedPathsAt(locateRepository(cwd), home, family, workingTrees, outer);
	} catch {
		return "unknown";
	}
}

/**
 * {@link readGitArmedPaths} of a repository already located (see `locateRepository`): what it reads depends on the
 * location alone, so two folders of one repository share one read (see {@link repositoryReadKey}). With `family`,
 * `placed` receives each git folder of the family with each working tree it was read at (see
 * {@link familyPlacement}). Never throws.
 */
export function gitArmedPathsAt(
	location: GitLocation | "none" | "unknown",
	home: string,
	family = true,
	workingTrees: WorkingTree[] = [],
	outer = true,
	placed: Set<string> = new Set(),
): readonly string[] | "unknown" {
	try {
		if (location === "unknown" || gitConfigRedirected()) return "unknown";
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
		// The scripts its keys run (`filter.strip.clean = scripts/strip.sh`; an eighty-fourth review), from the top and
		// its real path, where git runs them.
		const programs = programPathsArmed(
			read.programPaths,
			[...new Set([top, location === "none" ? undefined : location.top])],
			home,
		);
		if (armed === undefined || programs === undefined) return "unknown";
		armed.push(...programs);
		// A leading `..` climbs from the top's real path, as git does; through the path asked about it may name another
		// folder (`lnk/sub` with `lnk -> .`), so a relative value is placed from both.
		if (location !== "none" && top !== location.top) {
			const fromRealTop = armedPathsOf([], read.hooksPaths, location.top, [], home);
			if (fromRealTop === undefined) return "unknown";
			armed.push(...fromRealTop);
		}
		// A push into it runs its hooks from its git folder (receive-pack enters it): a relative value is placed from
		// there too (an eighty-fourth review: `../../shared-hooks` in `vendor/lib` then names `vendor/shared-hooks`).
		if (location !== "none" && location.gitDir !== location.top) {
			const fromGitDir = armedPathsOf([], read.hooksPaths, location.gitDir, [], home);
			if (fromGitDir === undefined) return "unknown";
			armed.push(...fromGitDir);
		}
		// A `core.worktree` in its own config moves the working tree git places a relative value below (an eighty-third
		// review: a clone whose `core.worktree = ../../tree`, a bare dotfiles repository's); a linked worktree takes it
		// from its `config.worktree` only.
		if (location !== "none") {
			const fromWorktree = ownWorktreeArmedPaths(location, read, home);
			if (fromWorktree === undefined) return "unknown";
			armed.push(...fromWorktree);
		}
		// The submodules' own git folders may lead into this tree too (a seventy-fourth review:
		// `.git/modules/sub/hooks -> ../../../githooks`, a hook link to `scripts/`, an absolute `core.hooksPath` or an
		// include naming a file here), and so may the linked worktrees' `config.worktree` (a seventy-fifth review): the
		// user's next commit there runs what a write here puts.
		if (location !== "none" && family) {
			if (top !== undefined) armed.push(join(top, ".gitmodules"));
			const others = otherGitFoldersArmedPaths(
				location,
				home,
				{ hooksPaths: read.globalHooksPaths, programPaths: read.globalProgramPaths },
				workingTrees,
				outer,
				placed,
			);
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

/** How deep below a root nested repositories are looked for (`services/api/.git` is two folders down). */
export const MAX_NESTED_REPOSITORY_DEPTH = 4;
/** At most this many folders below a root are listed looking for nested repositories; the rest are not looked at. */
export const MAX_NESTED_LISTED_FOLDERS = 2_048;
/** At most this many folder listings are kept between calls. */
const MAX_KEPT_LISTINGS = 16_384;
/**
 * A listing is trusted again only when its folder last changed this long before it was made: a change within the
 * same timestamp tick as an earlier one leaves the folder's time as it was (git's "racy" entries).
 */
const RACY_LISTING_MS = 2_000;

/** True when git takes `dir` itself as a bare repository (see `repositoryAt`). Never throws. */
function isBareRepository(dir: string): boolean {
	const location = repositoryAt(dir);
	return typeof location !== "string" && location.gitDir === location.top;
}

/** The folders of a git folder that hold git's own data, not listed when looking for nested repositories. */
const GIT_FOLDER_PARTS: ReadonlySet<string> = new Set([
	"objects",
	"refs",
	"logs",
	"hooks",
	"info",
	"lfs",
	"modules",
	"worktrees",
	"branches",
	"remotes",
	"rr-cache",
]);

/** What one folder held when it was listed. */
interface FolderListing {
	/** The folder's identity and times then: another stamp means it changed. */
	readonly stamp: string;
	/** Its folders (not links), but `.git` and `node_modules`. */
	readonly folders: readonly string[];
	/** It holds a `.git` entry (a folder, a `gitdir:` file or a link): a repository's top. */
	readonly holdsGit: boolean;
	/**
	 * It holds a `HEAD` file or link beside `objects`, `refs` or `commondir`: maybe a bare repository (`remote.git`, a
	 * local push target; an eighty-second review), whose git-folder parts (see {@link GIT_FOLDER_PARTS}) are not listed
	 * when git takes it as one; its other folders are (a bare clone holding its worktrees, `proj.git/main`; an
	 * eighty-third review).
	 */
	readonly gitFolder: boolean;
	/** It changed too close to the listing to trust the stamp next time. */
	readonly racy: boolean;
}

/**
 * Finds the nested repositories below a root (the workspace, an additional directory): the folders down to
 * {@link MAX_NESTED_REPOSITORY_DEPTH} below it that hold a `.git` entry, whether or not the repository around them
 * tracks, ignores or lists them (an untracked clone whose `core.hooksPath = ../../shared-hooks` names a workspace
 * folder, a Google `repo` checkout's projects whose hooks link into `.repo/repo/hooks/`; an eightieth review). Folders
 * are listed breadth first, at most {@link MAX_NESTED_LISTED_FOLDERS} per root, links and `node_modules` not
 * entered. Each listing is kept with its folder's stamp and reused while the folder has not changed since, so a
 * call costs one `stat` per folder once the tree has been listed. Never throws (a folder that cannot be listed is
 * skipped).
 */
export function createNestedRepositoryFinder(): { topsBelow(root: string): readonly string[] } {
	const listings = new Map<string, FolderListing>();
	const listingOf = (dir: string): FolderListing | undefined => {
		try {
			const info = statSync(dir, { bigint: true });
			if (!info.isDirectory()) return undefined;
			const stamp = `${info.dev}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
			const kept = listings.get(dir);
			if (kept !== undefined && kept.stamp === stamp && !kept.racy) return kept;
			const listedAt = Date.now();
			const entries = readdirSync(dir, { withFileTypes: true });
			const listing: FolderListing = {
				stamp,
				folders: entries
					.filter((entry) => entry.isDirectory() && entry.name !== ".git" && entry.name !== "node_modules")
					.map((entry) => join(dir, entry.name)),
				holdsGit: entries.some((entry) => entry.name === ".git"),
				// A `HEAD` folder is no git folder's (git rejects it): `mkdir vendor/HEAD vendor/refs` must not stop the
				// listing of `vendor/` (an eighty-third review).
				gitFolder:
					entries.some((entry) => entry.name === "HEAD" && (entry.isFile() || entry.isSymbolicLink())) &&
					entries.some((entry) => ["objects", "refs", "commondir"].includes(entry.name)),
				racy: Number(info.mtimeNs / 1_000_000n) > listedAt - RACY_LISTING_MS,
			};
			if (listings.size >= MAX_KEPT_LISTINGS) listings.clear();
			listings.set(dir, listing);
			return listing;
		} catch {
			return undefined;
		}
	};
	return {
		topsBelow(root) {
			const tops: string[] = [];
			const queue = [{ dir: resolve(root), depth: 0 }];
			for (let listed = 0; queue.length > 0 && listed < MAX_NESTED_LISTED_FOLDERS; listed++) {
				const { dir, depth } = queue.shift() as { dir: string; depth: number };
				const listing = listingOf(dir);
				if (listing === undefined) continue;
				if (depth > 0 && (listing.holdsGit || listing.gitFolder)) tops.push(dir);
				if (depth >= MAX_NESTED_REPOSITORY_DEPTH) continue;
				// Only a bare repository git takes keeps its parts unlisted: a project's own `api/HEAD` file beside a `refs/`
				// the agent made is no git folder, and its `modules/` may hold a clone (an eighty-fourth review). Judged
				// for every call, since a `HEAD` may change with no change to the listing.
				const bare = depth > 0 && listing.gitFolder && isBareRepository(dir);
				for (const folder of listing.folders)
					if (!(bare && GIT_FOLDER_PARTS.has(basename(folder)))) queue.push({ dir: folder, depth: depth + 1 });
			}
			return tops;
		},
	};
}

/**
 * At most this many embedded repositories are read for one repository and its family's working trees; more make the
 * armed paths `unknown` (a dotfiles repository with 33 vim plugins added with `git add` passed 32; an eighty-first
 * review).
 */
const MAX_EMBEDDED_REPOSITORIES = 256;

/**
 * The armed paths of the repositories embedded in the one around `folder` with `git add` (a gitlink `.gitmodules`
 * does not list, checked out with a `.git` of its own), each as {@link readGitArmedPaths} reads the repository
 * around it: git in the superproject enters them as it enters submodules, but the family walk finds them only
 * through `.gitmodules` or `modules/` (an eightieth review: an embedded library's `include.path` named a workspace
 * file, and the user's next `git status` at the top ran what a write there put). git lists the gitlinks (once per
 * index; see `gitlinksOf`), so ask only where the repository's own armed paths are known: its config files were
 * judged, and none would make git wait. The family's other working trees git reads an index in (`family`: the
 * repositories around it, its linked worktrees and main worktree; an eighty-first review) are listed too; a
 * submodule's embedded repositories are found by the nested-repository walk. `[]` outside a repository and without
 * git; `unknown` when git fails, more than `bound` are embedded, or one cannot be judged.
 * Embedded repositories' own gitlinks are not listed. Never throws.
 */
export async function readEmbeddedRepositoriesArmedPaths(
	folder: string,
	home: string,
	family: readonly WorkingTree[] = [],
	bound = MAX_EMBEDDED_REPOSITORIES,
): Promise<readonly string[] | "unknown"> {
	try {
		if (gitConfigRedirected()) return "unknown";
		return await embeddedRepositoriesArmedPathsAt(locateRepository(folder), home, family, bound);
	} catch {
		return "unknown";
	}
}

/** {@link readEmbeddedRepositoriesArmedPaths} of a repository already located (see `locateRepository`). Never throws. */
export async function embeddedRepositoriesArmedPathsAt(
	location: GitLocation | "none" | "unknown",
	home: string,
	family: readonly WorkingTree[] = [],
	bound = MAX_EMBEDDED_REPOSITORIES,
): Promise<readonly string[] | "unknown"> {
	try {
		if (location === "none") return [];
		if (location === "unknown" || gitConfigRedirected()) return "unknown";
		const armed: string[] = [];
		let read = 0;
		for (const { tree, gitDir } of [{ tree: location.top, gitDir: location.gitDir }, ...family]) {
			const gitmodules = readGitmodules(tree);
			if (gitmodules === undefined) return "unknown";
			const listed = new Set(gitmodules.pathsByName.values());
			let gitlinks: readonly string[];
			try {
				gitlinks = await gitlinksOf(tree, gitDir);
			} catch (error) {
				// No git to run (not installed, or not on Pi's PATH), or no working tree to run it in (a linked worktree
				// deleted without `git worktree prune`; an eighty-second review): nothing enters an embedded repository
				// from there.
				if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
				return "unknown";
			}
			for (const path of gitlinks) {
				if (listed.has(path) || !entryExists(join(tree, path, ".git"))) continue;
				if (++read > bound) return "unknown";
				const top = join(tree, path);
				const at = repositoryAt(top);
				if (at === "none") continue;
				if (at === "unknown") return "unknown";
				// With its own submodules and worktrees; the repositories around it are this one's family, read with it.
				const paths = gitArmedPathsAt(at, home, true, [], false);
				if (paths === "unknown") return "unknown";
				armed.push(...paths);
			}
		}
		return armed;
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
	 * back after `git checkout old`), so a relative `core.hooksPath` with a `..` makes the armed paths unknown, and one
	 * without arms the tree below {@link HookedGitFolder.unplacedBelow}.
	 */
	readonly unplaced?: boolean;
	/**
	 * For an `unplaced` submodule git folder, the top of the repository whose `modules/` holds it: its next checkout
	 * lies below that (`.gitmodules` paths never climb out).
	 */
	readonly unplacedBelow?: string;
	/**
	 * A working tree git may run in that is no submodule of this family: a repository around the workspace's, a
	 * linked worktree or the main one. Its index may hold repositories embedded with `git add` (see
	 * {@link readEmbeddedRepositoriesArmedPaths}).
	 */
	readonly listsGitlinks?: boolean;
}

/** A working tree and its git folder, where `git ls-files` lists the gitlinks. */
export interface WorkingTree {
	readonly tree: string;
	readonly gitDir: string;
}

/**
 * False when the repository at `location` surely has no family below it to walk (see {@link otherHookedGitFolders},
 * without the repositories around it): no `modules/` or `worktrees/` in its common folder, no `.gitmodules` at its
 * top, and it is no linked worktree. A plain clone costs three lookups instead of the walk. Throws on I/O errors.
 */
export function mayHaveFamily(location: GitLocation): boolean {
	if (realPathOf(location.gitDir) !== realPathOf(location.commonDir)) return true;
	return (
		entryExists(join(location.commonDir, "modules")) ||
		entryExists(join(location.commonDir, "worktrees")) ||
		entryExists(join(location.top, ".gitmodules"))
	);
}

/**
 * A git folder and a working tree the family walk read it at (see `placed` in {@link gitArmedPathsAt}), by their
 * real paths where they exist: a nested repository with both was read with its family.
 */
export function familyPlacement(gitDir: string, top: string): string {
	return `${realPathOf(gitDir) ?? gitDir}\u0000${realPathOf(top) ?? top}`;
}

/**
 * What the armed-path reads of a located repository depend on (see {@link gitArmedPathsAt}): its git folders, its
 * real top and its top named through the path asked about. Folders with one key have one answer.
 */
export function repositoryReadKey(location: GitLocation | "none" | "unknown"): string {
	if (typeof location === "string") return location;
	return ["at", location.gitDir, location.commonDir, location.top, location.namedTop ?? ""].join("\u0000");
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
function otherHookedGitFolders(location: GitLocation, outer = true): HookedGitFolder[] | undefined {
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
			if (folder.listsGitlinks === true && merged.listsGitlinks !== true) merged = { ...merged, listsGitlinks: true };
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
	let above = dirname(location.top);
	for (let level = 0; outer; level++) {
		const real = realPathOf(above);
		if (commonDir !== undefined && real !== undefined && (real === commonDir || real.startsWith(`${commonDir}/`)))
			above = dirname(commonDir);
		const around = locateRepository(above);
		if (around === "none") break;
		if (around === "unknown" || level >= MAX_OUTER_REPOSITORIES) return undefined;
		if (!add({ gitDir: around.gitDir, commonDir: around.commonDir, top: around.top, listsGitlinks: true }))
			return undefined;
		if (dirname(around.top) === around.top) break;
		above = dirname(around.top);
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
				top === undefined || path === undefined
					? { unplaced: true, ...(top === undefined ? {} : { unplacedBelow: top }) }
					: { fallbackTop: joinAsText(top, path) };
			if (!add({ gitDir, commonDir: subCommonDir, ...placement })) return undefined;
		}
		for (const folder of gitmodules.checkedOut) if (!add(folder)) return undefined;
		const main = realPathOf(repository.gitDir) === realPathOf(repository.commonDir);
		if (!main) {
			// The main worktree's folder (its own `config.worktree`): the folder around a `.git` folder, or a bare
			// repository's git folder itself, where git places a relative value.
			const mainDir = repository.commonDir;
			const mainTop = basename(mainDir) === ".git" ? dirname(mainDir) : mainDir;
			if (!add({ gitDir: mainDir, commonDir: mainDir, top: mainTop, guessedTop: true, listsGitlinks: true }))
				return undefined;
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
			if (!add({ gitDir, commonDir: repository.commonDir, top: worktreeTop, linked: true, listsGitlinks: true }))
				return undefined;
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
	global: { readonly hooksPaths: readonly string[]; readonly programPaths: readonly string[] },
	workingTrees: WorkingTree[] = [],
	outer = true,
	placed: Set<string> = new Set(),
): string[] | undefined {
	const globalHooksPaths = global.hooksPaths;
	const folders = otherHookedGitFolders(location, outer);
	if (folders === undefined) return undefined;
	const armed: string[] = [];
	for (const {
		gitDir,
		commonDir,
		top: knownTop,
		linked,
		guessedTop,
		fallbackTop,
		unplaced,
		unplacedBelow,
		listsGitlinks,
	} of folders) {
		const read = readConfigFiles(repositoryConfigFiles({ gitDir, commonDir }), home, () => false);
		if (read === undefined) return undefined;
		const values = read.worktrees
			.filter((worktree) => !linked || worktree.file === join(gitDir, "config.worktree"))
			.map((worktree) => worktree.value);
		const named = values.length === 0 ? undefined : agreedWorktree(gitDir, values);
		if (values.length > 0 && (named === undefined || (knownTop !== undefined && !guessedTop && named !== knownTop)))
			return undefined;
		const top = guessedTop === true ? (named ?? knownTop) : (knownTop ?? named);
		if (listsGitlinks === true && top !== undefined) workingTrees.push({ tree: top, gitDir });
		// Where `.gitmodules` puts a submodule counts too when its `core.worktree` names another folder: the next
		// `git submodule update` checks it out there and runs its hooks (a seventy-ninth review: `git mv vendor/lib
		// third/party/lib`, then `git checkout HEAD~1`).
		const tops = [...new Set([top, fallbackTop].filter((place): place is string => place !== undefined))];
		// Relative hooks paths and program words (a put-away submodule's `filter.x.smudge = sh tools/smudge.sh` runs
		// at its next checkout; an eighty-fifth review).
		const relative = [
			...[...read.hooksPaths, ...globalHooksPaths].filter(isRelativeHooksPath),
			...[...read.programPaths, ...global.programPaths].filter(isRelativeHooksPath),
		];
		if (tops.length === 0 && unplaced === true && relative.length > 0) {
			// Its next checkout lies somewhere below the repository holding it, and a value without `..` below that
			// checkout: that whole tree counts as armed (an eighty-fourth review: husky's `.husky/_` in a submodule one
			// clone of `~/code` had removed made every write in `~/code` reviewed). One with `..` may name any folder.
			if (unplacedBelow === undefined || relative.some((value) => value.split("/").includes(".."))) return undefined;
			armed.push(unplacedBelow);
		}
		const gitHooks = [...new Set([join(gitDir, "hooks"), join(commonDir, "hooks")])];
		for (const place of tops) placed.add(familyPlacement(gitDir, place));
		for (const place of tops.length === 0 ? [undefined] : tops) {
			// Its `.gitmodules` tells this reader where its submodules' git folders are (a seventy-seventh review: `rm
			// .gitmodules` hid one).
			if (place !== undefined) armed.push(join(place, ".gitmodules"));
			const hooksPaths =
				place === undefined
					? read.hooksPaths.filter((value) => !isRelativeHooksPath(value))
					: [...read.hooksPaths, ...globalHooksPaths];
			const paths = armedPathsOf(gitHooks, hooksPaths, place, read.included, home);
			const programs = programPathsArmed([...read.programPaths, ...global.programPaths], [place], home);
			if (paths === undefined || programs === undefined) return undefined;
			armed.push(...paths, ...programs);
		}
	}
	return armed;
}

/**
 * The relative `core.hooksPath` values of the repository at `location` placed below the working tree its own
 * `core.worktree` names (see {@link agreedWorktree}), where that is not its top: `[]` without one; undefined when the
 * values disagree or cannot be placed. Throws on I/O errors.
 */
function ownWorktreeArmedPaths(location: GitLocation, read: ConfigFilesRead, home: string): string[] | undefined {
	const linked = realPathOf(location.gitDir) !== realPathOf(location.commonDir);
	const values = read.worktrees
		.filter((worktree) => !linked || worktree.file === join(location.gitDir, "config.worktree"))
		.map((worktree) => worktree.value);
	if (values.length === 0) return [];
	const named = agreedWorktree(location.gitDir, values);
	if (named === undefined) return undefined;
	if (named === location.top) return [];
	const hooks = armedPathsOf([], read.hooksPaths, named, [], home);
	const programs = programPathsArmed(read.programPaths, [named], home);
	return hooks === undefined || programs === undefined ? undefined : [...hooks, ...programs];
}

/**
 * Where the program words of config keys (see `gitProgramPathWords`) name files: an absolute one as written, `~/`
 * in home, a relative one below each of `tops` (where git runs the command; none for a folder with no working tree
 * known), each also where the system places it (see {@link placedByNearestEntry}). Undefined when one cannot be
 * placed (`~user/`, or a link that leads nowhere on the way). Throws on I/O errors.
 */
function programPathsArmed(
	words: readonly string[],
	tops: readonly (string | undefined)[],
	home: string,
): string[] | undefined {
	const named: string[] = [];
	for (const word of words) {
		if (word.startsWith("/")) named.push(resolve(word));
		else if (word.startsWith("~/")) named.push(join(home, word.slice(2)));
		else if (word.startsWith("~")) return undefined;
		else for (const top of tops) if (top !== undefined) named.push(resolve(top, word));
	}
	const placed = named.map((path) => placedByNearestEntry(path));
	if (placed.some((path) => path === undefined)) return undefined;
	return [...named, ...(placed as string[])];
}

/**
 * Where a link in `folder` whose target `text` does not exist yet would lead: from the folder's real path (a `..`
 * climbs from there), placed by {@link placedByNearestEntry}; undefined when a `..` follows a name in it (the system
 * takes it from where a link of that name leads).
 */
function placedLinkTarget(folder: string, text: string): string | undefined {
	if (dotDotFollowsName(text)) return undefined;
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
