// Reads the repository's git config for the floor: the facts of the config git would read for a repository at the
// working directory (see git-config-files.ts), plus the hooks it may run while reading (see git-hooks-reader.ts),
// and whether its hooks folders hold any active hook (for git's index writes). The kernel judges the text
// (@pi-policy/policy-kernel/guardian git-config); these modules only find and read files: bounded in files, bytes
// and depth, and cached until a tool call that may have changed them has run. Files are read synchronously: a bash
// call needs a few dozen small reads, each some 70 us through the thread pool and 3 us without (decision 0013);
// only git itself runs asynchronously.
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import {
	combineGitConfigVerdicts,
	combineGitContentSettings,
	combineGitUrlCredentialsVerdicts,
	type FloorContext,
	type FloorFacts,
	type GitConfigVerdict,
	type GitContentSetting,
	type GitHooksVerdict,
	type GitRepositoryFacts,
	type GitUntrackedRepositoriesVerdict,
	type GitUrlCredentialsVerdict,
	gitHooksFolderPaths,
	isInWorkspace,
	judgeGitHookNames,
	judgeGitRemoteFileUrlCredentials,
	MAX_WRITE_FOLDERS,
	treeEntryTest,
	treeProtectionKey,
} from "@pi-policy/policy-kernel/guardian";
import {
	createNestedRepositoryFinder,
	embeddedRepositoriesArmedPathsAt,
	familyPlacement,
	gitArmedPathsAt,
	mayHaveFamily,
	readGitArmedPaths,
	repositoryReadKey,
	type WorkingTree,
} from "./git-armed-paths-reader.js";
import { type ConfigFilesRead, globalConfigFiles, readConfigFiles, repositoryConfigFiles } from "./git-config-files.js";
import {
	type GitLocation,
	gitConfigRedirected,
	joinAsText,
	kindOf,
	linkHoldingFolders,
	locateRepository,
	nearestExistingFolder,
	readBounded,
	realPathOf,
	repositoryAt,
} from "./git-folder-reader.js";
import { createGitHistoryFacts, type GitHistoryListing, runQuietGit } from "./git-history-reader.js";
import {
	gitlinksVerdict,
	hasReadTimeHook,
	hooksPathFoldersVerdict,
	submodulesVerdict,
	unplacedHooksPath,
} from "./git-hooks-reader.js";

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

/** True when a bash command may run git, so the floor needs the config fact (a cheap substring check). */
export function mayRunGit(command: string): boolean {
	return command.includes("git");
}

/** At most this many nested repositories below one root are read for armed paths (the shallowest first). */
const MAX_NESTED_REPOSITORIES = 64;

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
	armedPathsAround(cwd: string, folders: readonly string[], roots?: readonly string[]): Promise<readonly string[]>;
	invalidate(): void;
} {
	const cached = new Map<string, { config: Promise<GitConfigFacts>; hooks: GitHooksVerdict }>();
	const hooksFolders = new Map<string, readonly string[] | "unknown">();
	/** The same reads by repository (see `repositoryReadKey`), until `invalidate()`. */
	const repositoryReads = new Map<string, readonly string[] | "unknown">();
	/** The git folders each of those reads placed at a working tree (see `familyPlacement`), until `invalidate()`. */
	const familyPlacements = new Map<string, ReadonlySet<string>>();
	const nested = createNestedRepositoryFinder();
	/** The nested repositories' own armed paths, by their top, until `invalidate()`. */
	const nestedReads = new Map<string, readonly string[] | "unknown">();
	/** Counts `invalidate()` calls: a read that began before one is not kept (it may predate the change). */
	let generation = 0;
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
		async armedPathsAround(cwd, folders, roots = []) {
			// Past the bound every root the agent may write in counts as one (a forty-third review: the additional
			// directories too).
			if (folders.length > MAX_WRITE_FOLDERS) return [resolve(cwd), ...roots];
			const found = new Set<string>();
			const started = generation;
			// The repositories around the links that lead to the workspace and the additional directories, too (an
			// eightieth review: `outer/work -> ../data/ws` with outer's `core.hooksPath` `work/tools/hooks`).
			// A root whose links cannot be followed counts as one itself (every write there is reviewed).
			/** The repositories this call located, by folder. */
			const located = new Map<string, ReturnType<typeof locateRepository>>();
			const linkHolders: string[] = [];
			for (const root of [resolve(cwd), ...roots]) {
				const holders = linkHoldingFolders(root);
				if (holders === undefined) found.add(root);
				else linkHolders.push(...holders);
			}
			for (const folder of new Set([resolve(cwd), ...folders, ...linkHolders])) {
				const existing = nearestExistingFolder(folder);
				let read = hooksFolders.get(existing);
				if (read === undefined) {
					if (hooksFolders.size >= MAX_CACHED_DIRECTORIES) hooksFolders.clear();
					// Read once per repository: the working directory and a folder written ten levels below it share one.
					const location = locateRepository(existing);
					located.set(existing, location);
					const key = repositoryReadKey(location);
					read = repositoryReads.get(key);
					if (read === undefined) {
						const workingTrees: WorkingTree[] = [];
						const placed = new Set<string>();
						read = gitArmedPathsAt(location, home, true, workingTrees, true, placed);
						// The repositories embedded there with `git add` too (listed by git, so only once the rest is known).
						if (read !== "unknown") {
							const embedded = await embeddedRepositoriesArmedPathsAt(location, home, workingTrees);
							read = embedded === "unknown" ? "unknown" : [...read, ...embedded];
						}
						// A call that ended while git listed the gitlinks may have changed what was read before.
						if (generation === started) {
							if (repositoryReads.size >= MAX_CACHED_DIRECTORIES) {
								repositoryReads.clear();
								familyPlacements.clear();
							}
							repositoryReads.set(key, read);
							familyPlacements.set(key, placed);
						}
					}
					if (generation === started) hooksFolders.set(existing, read);
				}
				// One that cannot be judged may name any folder, in the additional directories too (an m11 audit): every root
				// counts as one.
				for (const hooks of read === "unknown" ? [folder, resolve(cwd), ...roots] : read) found.add(hooks);
			}
			// The nested repositories below the workspace and the additional directories, tracked or not: their own
			// hooks, `core.hooksPath` and includes may name a file here too (an eightieth review: an ignored clone's
			// `core.hooksPath = ../../shared-hooks`). One that cannot be judged makes its root one.
			for (const root of new Set([resolve(cwd), ...roots])) {
				// The workspace repository's submodules and linked worktrees were read with it above (its family), each at
				// the working trees the family walk placed it: one found elsewhere (a worktree moved with `mv`, a clone whose
				// `.git` names a folder in the workspace's `.git` that is no family folder; an eighty-second review) is read
				// here too.
				const around = root === resolve(cwd) ? (located.get(root) ?? locateRepository(root)) : "none";
				const family = typeof around === "string" ? undefined : familyPlacements.get(repositoryReadKey(around));
				for (const top of nested.topsBelow(root).slice(0, MAX_NESTED_REPOSITORIES)) {
					let read = nestedReads.get(top);
					if (read === undefined) {
						// A `.git` git surely would not take arms nothing; one this reader cannot judge makes the root one. Each is
						// read with its own submodules and worktrees (a submodule put away there runs its hooks at the next
						// `git submodule update --init`); the repositories around it are this root's, read above.
						const location = repositoryAt(top);
						read =
							location === "none" ||
							(typeof location !== "string" && family?.has(familyPlacement(location.gitDir, location.top)))
								? []
								: typeof location === "string"
									? "unknown"
									: gitArmedPathsAt(location, home, mayHaveFamily(location), [], false);
						if (generation === started) nestedReads.set(top, read);
					}
					for (const path of read === "unknown" ? [root] : read) found.add(path);
				}
			}
			return [...found];
		},
		invalidate() {
			generation++;
			cached.clear();
			hooksFolders.clear();
			repositoryReads.clear();
			familyPlacements.clear();
			nestedReads.clear();
		},
	};
}
