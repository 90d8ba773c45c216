// The deterministic floor of guardian-review: hard-deny rules and a flag-aware read-only vocabulary judged over the
// one bash syntax tree (parsed once), workspace writes by redirect, opt-in trusted commands, and path scoping for
// write, edit and other tools. Decides without a model whenever it can; anything it cannot see goes to review.
import {
	type BashCommand,
	type BashFor,
	type BashIf,
	type BashList,
	type BashLoop,
	type BashPipeline,
	type BashRedirect,
	type BashRedirectOp,
	type BashSimpleCommand,
	type BashStatement,
	type BashWord,
	isDynamicWord,
	MAX_BASH_COMMAND_CHARS,
	parseBashSyntax,
	pipelinesOf,
	simpleCommandsOf,
} from "../bash/index.js";
import {
	type GuardianReviewConfig,
	isBuiltinToolName,
	isPiContextFile,
	PI_RESOURCE_PROTECTED_PATHS,
	TOOL_SCOPES,
	type ToolScope,
	toolScopeFor,
} from "./config.js";
import {
	formatRunsGpg,
	GIT_CONTENT_SETTINGS,
	type GitConfigVerdict,
	type GitContentSetting,
	type GitHooksVerdict,
} from "./git-config.js";
import type { GitUrlCredentialsVerdict } from "./git-folder.js";
import {
	bashPathLinkKey,
	linkCheckKey,
	linkedPathClass,
	linkTargetOf,
	MAX_LINK_PATHS,
	type PathLinkTargets,
} from "./path-links.js";
import {
	baseName,
	classifyPath,
	classifyResolvedPath,
	createListKeyedCache,
	filesystemLowerCase,
	globMatches,
	holdsProtectedByName,
	isInWorkspace,
	isWithin,
	isWritableWorkspacePath,
	normalizeAbsolutePath,
	type PathClass,
	type PathContext,
	piReadFallbackPaths,
	protectedPathTest,
	resolveAdditionalDirectories,
	resolveShellPath,
	resolveToolPath,
	resolveWrittenPath,
	serverPathVariants,
	toolArgumentPaths,
} from "./paths.js";
import {
	classifyResolvedReadPath,
	isReadableLocation,
	type LoadedPiResources,
	protectedReadTest,
	type ReadableLoadedResources,
	readableLoadedResources,
} from "./pi-resources.js";
import { PYTHON_STDLIB_MODULES } from "./python-stdlib.js";
import type { ShellSetupFacts, ShellSetupVerdict } from "./shell-setup.js";

/** Built-in hard-deny rules (always on), plus `custom-pattern` for `floor.hardDeny` entries. Order is stable. */
export const HARD_DENY_RULES = [
	"recursive-delete-root",
	"recursive-delete-home",
	"recursive-delete-workspace",
	"make-filesystem",
	"disk-overwrite",
	"download-to-shell",
	"chmod-777-recursive",
	"force-push-protected-branch",
	"fork-bomb",
	"custom-pattern",
] as const;
/** One of {@link HARD_DENY_RULES}. */
export type HardDenyRule = (typeof HARD_DENY_RULES)[number];

/** Why the floor sent a call to review. */
export const REVIEW_REASONS = [
	"composed",
	"not-read-only",
	"dynamic",
	"protected-path",
	"outside-workspace",
	"unparsed",
	"scope-always",
	"no-path",
	"too-long",
	"git-config",
	"environment",
	"writes",
] as const;
/** One of {@link REVIEW_REASONS}. */
export type ReviewReason = (typeof REVIEW_REASONS)[number];

/**
 * Why the floor allowed a call without a model: `read-only` (every part read-only), `workspace-write` (a redirect,
 * heredoc or `mkdir` into a workspace file the write tool may write), `trusted-command` (a
 * `trustedCommands` entry matched), and the path rules of write, edit and other tools.
 */
export const FLOOR_ALLOW_RULES = [
	"read-only",
	"workspace-path",
	"no-protected-path",
	"workspace-write",
	"trusted-command",
] as const;
/** One of {@link FLOOR_ALLOW_RULES}. */
export type FloorAllowRule = (typeof FLOOR_ALLOW_RULES)[number];

/** The floor's decision about one tool call. */
export type FloorDecision =
	| { readonly kind: "out-of-scope" }
	| { readonly kind: "deny"; readonly rule: HardDenyRule }
	| { readonly kind: "allow"; readonly rule: FloorAllowRule }
	| { readonly kind: "review"; readonly reason: ReviewReason };

/** The built-in read-only commands (flag and operand rules apply to many; see {@link decideBashFloor}). */
export const BUILTIN_READ_ONLY_COMMANDS = [
	"ls",
	"cat",
	"head",
	"tail",
	"wc",
	"grep",
	"egrep",
	"fgrep",
	"rg",
	"find",
	"git",
	"pwd",
	"echo",
	"printf",
	"which",
	"type",
	"command",
	"file",
	"stat",
	"du",
	"df",
	"tree",
	"basename",
	"dirname",
	"realpath",
	"readlink",
	"date",
	"whoami",
	"id",
	"uname",
	"true",
	"false",
	":",
	"test",
	"[",
	"sed",
	"nl",
	"cut",
	"tr",
	"uniq",
	"sort",
	"paste",
	"rev",
	"seq",
	"expr",
	"tac",
	"column",
	"diff",
	"cmp",
	"comm",
	"base64",
	"jq",
	"md5sum",
	"sha1sum",
	"sha256sum",
	"cksum",
	"od",
	"strings",
	"cd",
	"sleep",
	"set",
	"exit",
	"awk",
] as const;

/** Git subcommands whose read-only forms the floor allows (only when the repository config was found safe). */
export const READ_ONLY_GIT_SUBCOMMANDS = [
	"status",
	"diff",
	"log",
	"show",
	"blame",
	"ls-files",
	"rev-parse",
	"branch",
	"remote",
	"describe",
	"ls-tree",
	"cat-file",
	"rev-list",
	"show-ref",
	"shortlog",
	"merge-base",
	"grep",
	"stash",
	"tag",
] as const;

/**
 * Environment prefixes (`NAME=value cmd`) that change no program, path lookup or pager; any other assignment
 * sends the command to review (`GIT_*`, `PAGER`, `LD_PRELOAD`, `PATH`, `BASH_ENV`, ...).
 */
export const SAFE_ENVIRONMENT_NAMES = [
	"LANG",
	"LANGUAGE",
	"TZ",
	"COLUMNS",
	"LINES",
	"TERM",
	"NO_COLOR",
	"FORCE_COLOR",
	"CLICOLOR",
	"CLICOLOR_FORCE",
	"PYTHONDONTWRITEBYTECODE",
	"PYTHONUNBUFFERED",
	"PYTHONIOENCODING",
	"PYTHONHASHSEED",
	"CI",
] as const;

/**
 * Environment names that make a program load code (`PYTHONPATH=. pip --version` imports `./pip`, a
 * `PYTHONWARNINGS` category `ignore::mod.X` imports `mod`): allowed
 * only in front of a `trustedCommands` match, which runs workspace code anyway.
 */
const CODE_PATH_ENVIRONMENT_NAMES = new Set(["PYTHONPATH", "PYTHONWARNINGS"]);

/**
 * `PYTHONPATH` in front of a trusted command loads only workspace code: every entry is a workspace folder that is
 * not protected (an empty one is the working directory). A `PYTHONWARNINGS` category may be dotted only for
 * Python's and pytest's own modules (`ignore::pytest.PytestRemovedIn8Warning`): another imports its module, whose
 * import may run code (`this`, `antigravity`; an eighteenth review).
 */
function judgePythonPath(value: string, state: WalkState, judge: Judge): void {
	for (const entry of value.split(":")) {
		if (entry === "") continue;
		const resolved = resolveIn(entry, state, judge);
		if (resolved === undefined) throw new Review("dynamic");
		const pathClass = classifyOpened(entry, resolved, state, judge);
		if (pathClass !== "workspace") throw new Review(pathClass === "protected" ? "protected-path" : "outside-workspace");
	}
}

/**
 * Version probes allowed read-only: `<tool> --version` (and `-V` for Python). Not the tools whose `--version` obeys
 * workspace files: rustup's `rust-toolchain.toml` names a binary, yarn's `yarnPath` a script, `go.mod` and
 * `packageManager` a toolchain to download, pytest loads plugins.
 */
const VERSION_PROBES = new Set([
	"python",
	"python2",
	"python3",
	"pip",
	"pip3",
	"node",
	"npm",
	"java",
	"gcc",
	"make",
	"ruby",
	"perl",
	"tsc",
	"git",
]);

const FIND_ACTIONS_THAT_WRITE_OR_RUN = new Set([
	"-exec",
	"-execdir",
	"-ok",
	"-okdir",
	"-delete",
	"-fprint",
	"-fprint0",
	"-fprintf",
	"-fls",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox"]);
const INTERPRETERS = new Set(["python", "python2", "python3", "perl", "ruby", "node", "php", "deno", "bun"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh"]);
const SOURCE_COMMANDS = new Set(["eval", "source", "."]);
const DEVICE_SAFE = /^\/dev\/(null|zero|u?random|stdout|stderr|stdin|tty|fd\/\d+)$/;
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/|loop|rdisk)/;
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
const PROTECTED_BRANCHES = new Set(["main", "master"]);
const FIND_UNFILTERED_EXPRESSIONS = new Set(["-delete", "-depth", "-xdev", "-mount", "-print"]);

/** Context the floor needs beyond the config. */
export interface FloorContext extends PathContext {
	/** Extra hard-deny patterns (`floor.hardDeny`). */
	readonly hardDenyPatterns: readonly string[];
	/** Extra read-only patterns (`floor.readOnly`). */
	readonly readOnlyPatterns: readonly string[];
	/**
	 * Opt-in trusted command patterns (`trustedCommands`), matched word by word on the syntax tree: each word is a
	 * glob, `<workspace file>` stands for one literal path inside the workspace that is not protected, and any
	 * further words may follow. Default empty.
	 */
	readonly trustedCommands?: readonly string[];
	/** The shell's verdict on the repository's git config and its includes; anything but `safe` reviews git. */
	readonly gitConfig?: GitConfigVerdict;
	/** The shell's verdict on the repository's hooks folder; anything but `none` reviews git's index writes. */
	readonly gitHooks?: GitHooksVerdict;
	/** The shell's verdict on credentials in the remotes' URLs; anything but `none` reviews `git remote -v`. */
	readonly gitUrlCredentials?: GitUrlCredentialsVerdict;
	/**
	 * The protected files (absolute paths) the repository's index or history holds, whose content `git diff`,
	 * `git show`, `git log -p` and `git grep` can print; missing: not checked, so such git is reviewed.
	 */
	readonly gitHistoryProtected?: readonly string[];
	/** The commits (full hashes) that listing reached: content by any other object name is reviewed. */
	readonly gitHistoryCommits?: ReadonlySet<string>;
	/**
	 * Whether the working tree holds a nested repository git does not track yet, which `git add` would stage as a
	 * submodule (whose config the next git runs); missing: not checked, so git after a `git add` is reviewed.
	 */
	readonly gitUntrackedRepositories?: GitUntrackedRepositoriesVerdict;
	/** The config settings that make read-only git print more content; missing: not read, so every one counts. */
	readonly gitContentSettings?: readonly GitContentSetting[];
	/** The repository's top folder (absolute), from which git reads `HEAD:path`; missing: such paths are reviewed. */
	readonly gitTop?: string;
	/**
	 * Paths git runs programs from for the repositories around where a call writes (absolute, normalized): the folders
	 * `core.hooksPath` names (see `gitHooksFolderPaths`), where a file becomes a hook at the user's next commit, and the
	 * config files their config includes, where a line can name a program. Every write in or above one is reviewed.
	 * Missing: not read (a context built without the shell's facts).
	 */
	readonly gitArmedPaths?: readonly string[];
	/**
	 * The same facts for the other directories the command runs git in (after `cd DIR`; see {@link gitDirectoriesOf}),
	 * keyed by absolute, normalized path. A directory missing here counts as `unknown`, so its git goes to review.
	 */
	readonly gitFactsByDirectory?: ReadonlyMap<string, GitRepositoryFacts>;
	/** The write tool's scope: redirects and heredocs into files are judged as it would be. */
	readonly writeScope?: ToolScope;
	/** The scope for reads outside the workspace: the stricter of the write and edit scopes. */
	readonly readScope?: ToolScope;
	/** True when bash inherits a `CDPATH`, so `cd NAME` may go elsewhere than `./NAME`. */
	readonly cdSearchPath?: boolean;
	/**
	 * What the shell found in each tree a recursive read walks (`grep -r x sub`, `rg x`, `diff -r a b`), keyed by
	 * {@link searchTreeKey}; see {@link floorFactRequestsOf}. A tree missing here counts as `unknown`, so the read
	 * goes to review.
	 */
	readonly searchTrees?: ReadonlyMap<string, SearchTreeVerdict>;
	/**
	 * What the floor may assume about the shell (see {@link judgeShellSetup}): `custom` sends every bash command
	 * the floor would allow to review. Missing counts as `bash`, Pi's default; the extension always sets it.
	 */
	readonly shellSetup?: ShellSetupVerdict;
	/**
	 * True when `PATH` holds a folder in the workspace (`ShellSetupFacts.commandDirectories`; an activated `.venv/bin`,
	 * pnpm's `./node_modules/.bin`): a program found there starts up from files the agent may write (a `.pth` file in
	 * the venv's `site-packages`, a package's script), so even its `--version` runs them.
	 */
	readonly workspaceOnPath?: boolean;
	/**
	 * True when bash inherits a locale that is not byte-safe ({@link ShellSetupFacts.multibyteLocale}): a command with a
	 * byte above ASCII may read otherwise than the parser reads it, so it is reviewed.
	 */
	readonly multibyteLocale?: boolean;
	/** BSD's `sed` (`ShellSetupFacts.bsdUserland`): `-i` takes its backup suffix as the next word, `-l` no value. */
	readonly bsdUserland?: boolean;
	/** Options end at the first operand (`ShellSetupFacts.optionsEndAtOperand`): a later `-f` is a file. */
	readonly optionsEndAtOperand?: boolean;
	/**
	 * True when `PATH` holds a version manager's `shims` folder (`ShellSetupFacts.versionShims`): `python --version`
	 * there is pyenv, which reads `.python-version` in every folder up from the working one, links followed, and
	 * prints its words (a nineteenth review).
	 */
	readonly versionShims?: boolean;
	/**
	 * True when the call's tool is judged as read-only by default (see {@link isUnconfiguredReadOnlyTool}): a call
	 * whose only paths are path-shaped values under other keys is judged by them instead of going to review.
	 */
	readonly readOnlyTool?: boolean;
	/**
	 * Where the paths the call names really lead, through symbolic links (see {@link PathLinkTargets}): a path is
	 * judged by its name and by its target. Missing: links were not checked, and paths are judged by name alone
	 * (the extension always checks them).
	 */
	readonly pathLinks?: PathLinkTargets;
	/**
	 * Which of the paths the floor asked about (`FloorFactRequests.modulePaths`: where a trusted test runner would
	 * import a test label's first module from) exist. Missing: not checked, so such labels are reviewed.
	 */
	readonly existingPaths?: ReadonlySet<string>;
	/**
	 * True while an allowed call that reads a tree the shell listed (Pi's grep tool, `grep -r`, `rg`) still runs:
	 * a call that may write could put a protected file into that tree before the search reaches it (a `mv` beside
	 * the search in the same message; a twenty-second review), so it goes to review.
	 */
	readonly treeReadInFlight?: boolean;
	/** True when home lies in the workspace or an additional directory (its start-up files are then protected). */
	readonly homeInWorkspace?: boolean;
}

/**
 * What a tree a recursive read walks holds: `none` when no entry it would read matches a protected glob,
 * `protected` when one does, `unknown` when the shell could not tell (too large, a link it would follow, an error).
 */
export type SearchTreeVerdict = "none" | "protected" | "unknown";

/**
 * One tree a recursive read walks: the absolute, normalized `root` (a file is a tree of one entry), whether the
 * reader skips hidden entries below the root (rg without `--hidden`/`-u`), and whether it follows links below it
 * (`grep -R`, `rg -L`, diff).
 */
export interface SearchTreeRequest {
	readonly root: string;
	readonly skipsHidden: boolean;
	readonly followsLinks: boolean;
	/**
	 * For a glob word (`src/*.py`, listed from its literal folder `src`): its parts below the root, one per level
	 * (`["*.py"]`). The reader reaches only entries whose names match the part of their level
	 * ({@link globPartMayMatchName}), and nothing deeper than the last part. Missing: every entry at every level.
	 */
	readonly pattern?: readonly string[];
	/**
	 * True when the reader gets each entry's path as text that xargs splits (`find src | xargs cat`): an entry whose
	 * name would split ({@link nameSplitsInXargs}) makes the verdict `unknown`, since its parts are other paths.
	 */
	readonly splitsNames?: true;
}

/** The key of a {@link SearchTreeRequest} in `FloorContext.searchTrees`. */
export function searchTreeKey(request: SearchTreeRequest): string {
	const pattern = request.pattern === undefined ? "" : `+glob${JSON.stringify(request.pattern)}`;
	const split = request.splitsNames === true ? "+split" : "";
	return `${request.skipsHidden ? "visible" : "all"}${request.followsLinks ? "+links" : ""}${split}${pattern}:${request.root}`;
}

/**
 * True when xargs, reading names separated by newlines (its default), would not pass `name` through whole: it
 * splits at blanks and newlines and takes quotes and backslashes as quoting, so `x .env` becomes `x` and `.env`.
 * One pass over the name.
 */
export function nameSplitsInXargs(name: string): boolean {
	for (const c of name) {
		if (c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r") return true;
		if (c === "'" || c === '"' || c === "\\") return true;
	}
	return false;
}

/** Facts the shell gathers for the floor (I/O results, passed in as values). */
export interface FloorFacts {
	/** The verdict on the repository's git config (see `judgeGitConfigText`); `unknown` when not checked. */
	readonly gitConfig?: GitConfigVerdict;
	/** The verdict on the repository's hooks folder (see `judgeGitHookNames`); `unknown` when not checked. */
	readonly gitHooks?: GitHooksVerdict;
	/** The verdict on credentials in remote URLs (see `judgeGitConfigUrlCredentials`); `unknown` when not checked. */
	readonly gitUrlCredentials?: GitUrlCredentialsVerdict;
	/** The protected files the repository's index or history holds (absolute paths); missing when not checked. */
	readonly gitHistoryProtected?: readonly string[];
	/** The commits the history listing reached (full hashes); missing when not checked. */
	readonly gitHistoryCommits?: ReadonlySet<string>;
	/** Whether the working tree holds a nested repository git does not track; missing when not checked. */
	readonly gitUntrackedRepositories?: GitUntrackedRepositoriesVerdict;
	/** The config settings that make read-only git print more content (see `gitContentSettings`); missing when not read. */
	readonly gitContentSettings?: readonly GitContentSetting[];
	/** The repository's top folder, as found through the working directory's path; missing outside a repository. */
	readonly gitTop?: string;
	/** Paths git runs programs from: hooks folders and included config files (see `FloorContext.gitArmedPaths`). */
	readonly gitArmedPaths?: readonly string[];
	/** Where links among home's own configuration lead inside the workspace (see `PathContext.homeConfigLinkTargets`). */
	readonly homeConfigLinkTargets?: readonly string[];
	/** The facts of the repositories around the other directories the command runs git in. */
	readonly gitByDirectory?: ReadonlyMap<string, GitRepositoryFacts>;
	/** True when the environment bash inherits sets a non-empty `CDPATH`. */
	readonly cdSearchPath?: boolean;
	/** What each tree the command reads recursively holds, keyed by {@link searchTreeKey}. */
	readonly searchTrees?: ReadonlyMap<string, SearchTreeVerdict>;
	/** Pi's agent directory (absolute; `~/.pi/agent` unless moved): protected like a project's `.pi/`. */
	readonly agentDir?: string;
	/**
	 * What Pi loaded for the model to read this prompt (its skills, its context files; see `loadedPiResourcesOf`):
	 * reading them needs no review, wherever they lie. Missing: none (such reads are judged as usual).
	 */
	readonly loadedResources?: LoadedPiResources;
	/** What {@link judgeShellSetup} found about the shell Pi's bash tool runs commands in. */
	readonly shell?: ShellSetupFacts;
	/** Where the paths the call names lead through symbolic links; see `FloorContext.pathLinks`. */
	readonly pathLinks?: PathLinkTargets;
	/** Which of the requested module paths exist; see `FloorContext.existingPaths`. */
	readonly existingPaths?: ReadonlySet<string>;
	/** True while an allowed call that reads a listed tree still runs; see `FloorContext.treeReadInFlight`. */
	readonly treeReadInFlight?: boolean;
}

/** What the shell found about the repository around one directory. */
export interface GitRepositoryFacts {
	readonly config: GitConfigVerdict;
	readonly hooks: GitHooksVerdict;
	/** Credentials in the remotes' URLs; missing counts as `unknown`. */
	readonly urlCredentials?: GitUrlCredentialsVerdict;
	/** The protected files its index or history holds (absolute paths); missing counts as unknown. */
	readonly historyProtected?: readonly string[];
	/** The commits (full hashes) the history listing reached; an object name outside it is reviewed. */
	readonly historyCommits?: ReadonlySet<string>;
	/** The config settings that make read-only git print more content; missing counts as all of them. */
	readonly contentSettings?: readonly GitContentSetting[];
	/** The repository's top folder (absolute), from which git reads `rev:path`; missing: `rev:path` is reviewed. */
	readonly top?: string;
	/** Whether its working tree holds a nested repository git does not track; missing counts as `unknown`. */
	readonly untrackedRepositories?: GitUntrackedRepositoriesVerdict;
}

/**
 * Whether a working tree holds a nested repository that git does not track and does not ignore (`git ls-files
 * --others` names it `dir/`): `git add` stages one as a submodule, and git after it runs in that repository with its
 * own config. `unknown` when not listed.
 */
export type GitUntrackedRepositoriesVerdict = "none" | "present" | "unknown";

function stricterScope(a: ToolScope, b: ToolScope): ToolScope {
	return TOOL_SCOPES.indexOf(a) >= TOOL_SCOPES.indexOf(b) ? a : b;
}

const withPiResourcesCache = createListKeyedCache<readonly string[]>(16);
/** The last {@link readableLoadedResources} per host report, so the contexts of one prompt share one object. */
const readableResourcesCache = new WeakMap<LoadedPiResources, { key: string; value: ReadableLoadedResources }>();

function readableResourcesFor(facts: FloorFacts, cwd: string, home: string): ReadableLoadedResources | undefined {
	const loaded = facts.loadedResources;
	if (loaded === undefined) return undefined;
	const key = `${cwd}\u0000${home}\u0000${facts.agentDir ?? ""}`;
	const cached = readableResourcesCache.get(loaded);
	if (cached?.key === key) return cached.value;
	const value = readableLoadedResources(loaded, {
		workspace: cwd,
		home,
		...(facts.agentDir === undefined ? {} : { agentDir: facts.agentDir }),
	});
	readableResourcesCache.set(loaded, { key, value });
	return value;
}

/**
 * The protected globs of a context: the configured ones, then {@link PI_RESOURCE_PROTECTED_PATHS}, the agent
 * directory and the workspace folders on `PATH`, whatever the config says. The same inputs give the same array, so
 * the compiled matcher is reused.
 */
function withPiResources(
	configured: readonly string[],
	facts: FloorFacts,
	homeInWorkspace: boolean,
): readonly string[] {
	const extra: string[] = [...PI_RESOURCE_PROTECTED_PATHS];
	if (homeInWorkspace) extra.push(...HOME_STARTUP_FILES);
	if (facts.agentDir?.startsWith("/")) extra.push(normalizeAbsolutePath(facts.agentDir));
	for (const folder of facts.shell?.commandDirectories ?? []) extra.push(folder);
	return withPiResourcesCache(configured, extra.join("\u0000"), () => [
		...configured,
		...extra.filter((glob) => !configured.includes(glob)),
	]);
}

/**
 * Files and folders programs load from home when they start, protected when home lies in the workspace (a
 * workspace write could reach them there; a nineteenth review): jq runs `~/.jq` before any filter, a login shell
 * (`bash -lc`) runs `~/.profile` or `~/.bash_profile`, Python runs the `.pth` files of its user site-packages.
 * Outside the workspace a write there is reviewed anyway. Where one is a link into the workspace (a dotfiles
 * repository), a write of what it leads to is reviewed too (see {@link isLinkedContextFileTarget}).
 */
const HOME_STARTUP_FILES: readonly string[] = [
	"~/.jq",
	// git loads the user's config and attributes at every start (`core.fsmonitor` runs a program; a twenty-second review).
	"~/.gitconfig",
	"~/.config/git",
	"~/.bash_aliases",
	"~/.profile",
	"~/.bash_profile",
	"~/.bash_login",
	"~/.bash_logout",
	"~/.bashrc",
	"~/.zshenv",
	"~/.zprofile",
	"~/.zshrc",
	"~/.zlogin",
	"~/.local/lib",
	"~/Library/Python",
];

/** Builds a {@link FloorContext} from the effective config and the shell's facts. */
export function floorContextFor(
	config: GuardianReviewConfig,
	cwd: string,
	home: string,
	facts: FloorFacts = {},
): FloorContext {
	const writeScope = toolScopeFor(config, "write");
	const loadedResources = readableResourcesFor(facts, cwd, home);
	const homePath = normalizeAbsolutePath(home);
	const additionalDirectories = resolveAdditionalDirectories(config.additionalDirectories, homePath);
	const homeInWorkspace = [normalizeAbsolutePath(cwd), ...additionalDirectories].some((folder) =>
		isWithin(folder, homePath),
	);
	return {
		cwd,
		home,
		...(loadedResources === undefined ? {} : { loadedResources }),
		protectedPaths: withPiResources(config.protectedPaths, facts, homeInWorkspace),
		additionalDirectories,
		hardDenyPatterns: config.floor.hardDeny,
		readOnlyPatterns: config.floor.readOnly,
		trustedCommands: config.trustedCommands,
		gitConfig: facts.gitConfig ?? "unknown",
		gitHooks: facts.gitHooks ?? "unknown",
		gitUrlCredentials: facts.gitUrlCredentials ?? "unknown",
		...(facts.gitHistoryProtected === undefined ? {} : { gitHistoryProtected: facts.gitHistoryProtected }),
		...(facts.gitHistoryCommits === undefined ? {} : { gitHistoryCommits: facts.gitHistoryCommits }),
		...(facts.gitUntrackedRepositories === undefined
			? {}
			: { gitUntrackedRepositories: facts.gitUntrackedRepositories }),
		...(facts.gitContentSettings === undefined ? {} : { gitContentSettings: facts.gitContentSettings }),
		...(facts.gitTop === undefined ? {} : { gitTop: facts.gitTop }),
		...(facts.gitArmedPaths === undefined ? {} : { gitArmedPaths: facts.gitArmedPaths }),
		...(facts.homeConfigLinkTargets === undefined ? {} : { homeConfigLinkTargets: facts.homeConfigLinkTargets }),
		gitFactsByDirectory: facts.gitByDirectory,
		cdSearchPath: facts.cdSearchPath === true || facts.shell?.cdSearchPath === true,
		searchTrees: facts.searchTrees,
		...(facts.pathLinks === undefined ? {} : { pathLinks: facts.pathLinks }),
		...(facts.existingPaths === undefined ? {} : { existingPaths: facts.existingPaths }),
		...(facts.treeReadInFlight === true ? { treeReadInFlight: true } : {}),
		...(homeInWorkspace ? { homeInWorkspace: true } : {}),
		shellSetup: facts.shell?.verdict ?? "bash",
		...((facts.shell?.commandDirectories.length ?? 0) > 0 ? { workspaceOnPath: true } : {}),
		...(facts.shell?.versionShims === true ? { versionShims: true } : {}),
		...(facts.shell?.multibyteLocale === true ? { multibyteLocale: true } : {}),
		...(facts.shell?.bsdUserland === true ? { bsdUserland: true } : {}),
		...(facts.shell?.optionsEndAtOperand === true ? { optionsEndAtOperand: true } : {}),
		writeScope,
		readScope: stricterScope(writeScope, toolScopeFor(config, "edit")),
	};
}

/**
 * Decides one tool call with the floor. Tools whose scope is `off` are `out-of-scope`. bash goes through the
 * hard-deny rules, then the judgement of its syntax tree, then its scope. write, edit and other tools are
 * classified by their `path` argument against the workspace and the protected globs. Never throws: anything it
 * cannot parse goes to review.
 */
export function decideFloor(
	toolName: string,
	input: unknown,
	config: GuardianReviewConfig,
	context: FloorContext,
): FloorDecision {
	try {
		const scope = toolScopeFor(config, toolName);
		if (scope === "off") return { kind: "out-of-scope" };
		const decision =
			toolName === "bash" ? decideBashFloorOf(input, scope, context) : decidePathFloor(toolName, input, scope, context);
		if (context.treeReadInFlight === true && decision.kind === "allow" && mayWrite(toolName, decision.rule, context))
			return { kind: "review", reason: "writes" };
		return decision;
	} catch {
		return { kind: "review", reason: "unparsed" };
	}
}

function decideBashFloorOf(input: unknown, scope: ToolScope, context: FloorContext): FloorDecision {
	const command = bashCommandArgument(input);
	return command === undefined ? { kind: "review", reason: "unparsed" } : decideBashFloor(command, scope, context);
}

/** True for an allowed call that may write: anything but Pi's reading tools, a read-only tool and read-only bash. */
function mayWrite(toolName: string, rule: FloorAllowRule, context: FloorContext): boolean {
	if (PI_READING_TOOLS.has(toolName) || context.readOnlyTool === true) return false;
	return !(toolName === "bash" && rule === "read-only");
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `command` argument of a bash call, when it is a string. */
export function bashCommandArgument(input: unknown): string | undefined {
	return isRecord(input) && typeof input.command === "string" ? input.command : undefined;
}

/** Pi's built-in tools whose `path` is optional and defaults to the working directory. */
const TOOLS_DEFAULTING_TO_CWD: ReadonlySet<string> = new Set(["grep", "find", "ls"]);

/** The paths a path tool's call names (see {@link toolPathArguments}); `.` for a cwd-defaulting tool naming none. */
function pathToolPaths(toolName: string, input: unknown): readonly string[] | "unjudgeable" | undefined {
	const found = toolArgumentPaths(input);
	return found === "unjudgeable" ? found : namedOrDefaultPaths(toolName, input, found.named);
}

/** The paths a call names by its keys, `.` for a cwd-defaulting tool naming none, else undefined. */
function namedOrDefaultPaths(
	toolName: string,
	input: unknown,
	named: readonly string[],
): readonly string[] | undefined {
	if (named.length > 0) return named;
	return TOOLS_DEFAULTING_TO_CWD.has(toolName) && isRecord(input) ? ["."] : undefined;
}

/**
 * The tree Pi's `grep` tool reads: it runs ripgrep with `--hidden` below its `path` (default the working directory),
 * so `.git/config` or an unignored `.env` below it is read although the call names neither. Undefined for another
 * tool, a call without a usable path, or a root above the workspace (the floor reviews that one unlisted). The
 * workspace root is listed like any folder; its `.git/` is opened only when its config holds no credential
 * (decision 0019).
 */
export function grepToolSearchTree(
	toolName: string,
	input: unknown,
	context: FloorContext,
): SearchTreeRequest | undefined {
	const paths = toolName === "grep" ? pathToolPaths(toolName, input) : undefined;
	if (paths === undefined || paths === "unjudgeable" || paths.length !== 1) return undefined;
	return grepTreeAt(resolveToolPath(paths[0] as string, context.cwd, context.home), context);
}

/** The tree a grep tool call rooted at `root` (absolute, normalized) reads; see {@link grepToolSearchTree}. */
function grepTreeAt(root: string, context: FloorContext): SearchTreeRequest | undefined {
	const workspace = normalizeAbsolutePath(context.cwd);
	if (root !== workspace && isWithin(root, workspace)) return undefined;
	return { root, skipsHidden: false, followsLinks: false };
}

/** Pi's built-in tools that only read the paths they name. */
const PI_READING_TOOLS: ReadonlySet<string> = new Set(["read", "ls", "find", "grep"]);

function decidePathFloor(toolName: string, input: unknown, scope: ToolScope, context: FloorContext): FloorDecision {
	if (scope === "always") return { kind: "review", reason: "scope-always" };
	const found = toolArgumentPaths(input);
	if (found === "unjudgeable") return { kind: "review", reason: "no-path" };
	const paths = namedOrDefaultPaths(toolName, input, found.named);
	// A tool that is not built in may take a path under any key (`source`, `target`, a nested object): each string
	// shaped like a local path is checked against the protected globs.
	const shaped = isBuiltinToolName(toolName) ? [] : found.shaped;
	if (paths === undefined && (context.readOnlyTool !== true || shaped.length === 0))
		return { kind: "review", reason: "no-path" };
	// What a server that is not Pi may read otherwise than the floor can see, each a review (`dynamic`):
	// - a name in another Unicode form: the filesystem server lists the folder and takes any entry whose NFC form
	//   matches, a link included (`caf\u00e9` opens a link `cafe\u0301` to `.env`; an eighteenth review);
	// - a `..` after a name: `open()` climbs from where a link before it leads, not from the link's name (`lib/../x` with
	//   `lib -> ~/.config/gcloud/configurations` opens `~/.config/gcloud/x`; a sixty-fifth review). Pi's tools fold it
	//   by text;
	// - a variable other than `$HOME` the server may expand (`$XDG_CONFIG_HOME/gh/hosts.yml`; a sixty-sixth review).
	const serverTexts = isBuiltinToolName(toolName) ? [] : [...(paths ?? []), ...shaped];
	if (serverTexts.some((path) => /[^\x20-\x7e]/.test(path) || climbsAfterName(path) || namesOtherVariable(path)))
		return { kind: "review", reason: "dynamic" };
	const classifyWrite = (path: string) => classifyToolPath(path, context, classifyResolvedPath);
	const opened = (path: string) => toolOpenedPaths(toolName, path, context);
	if (shaped.flatMap(opened).some((path) => classifyWrite(path) === "protected"))
		return { kind: "review", reason: "protected-path" };
	const resolved = (paths ?? []).flatMap(opened);
	// Pi's reading tools may read the project's extensions, skills and the like; nothing else is judged as a read.
	const classify = PI_READING_TOOLS.has(toolName)
		? (path: string) => classifyToolPath(path, context, classifyResolvedReadPath)
		: classifyWrite;
	const decision = decideByPathClasses(resolved.map(classify), scope);
	if (decision.kind !== "allow") return decision;
	// Pi's find tool lists every name below its path, hidden ones included (fd `--hidden`): outside the workspace, by
	// name or through a link, that is the names in `~/.ssh` or `~/.gnupg` (a fifteenth review).
	const leadsOutside = (path: string) => {
		const target = context.pathLinks?.get(path);
		const real = typeof target === "string" ? target : path;
		return !isInWorkspace(real, normalizeAbsolutePath(context.cwd), context.additionalDirectories);
	};
	if (toolName === "find" && resolved.some(leadsOutside)) return { kind: "review", reason: "outside-workspace" };
	// So may a tool that is not built in (an MCP server's `directory_tree` or `search_files` walks `~/.ssh` below
	// `~`): its paths outside the workspace, as Pi would resolve them, are reviewed (a sixteenth review).
	const named = (paths ?? []).flatMap((path) => [
		resolveToolPath(path, context.cwd, context.home),
		...serverPathVariants(path, context.home),
	]);
	if (!isBuiltinToolName(toolName) && named.some(leadsOutside)) return { kind: "review", reason: "outside-workspace" };
	// A path-shaped value under another key (`{ base: "../" }`, `{ root: "/home/dev" }`) is reviewed when it names
	// home, the workspace's or home's folder or one above, or starts at home (`~/…`, `$HOME/…`): a walking tool given it
	// lists `~/.ssh` (a sixty-fifth review). Another absolute value (a library id `/vercel/next.js`) is judged by the
	// protected globs alone.
	if (!isBuiltinToolName(toolName) && shaped.some((text) => shapedPathReachesHome(text, context, leadsOutside)))
		return { kind: "review", reason: "outside-workspace" };
	// Pi loads a context file (`AGENTS.md`) into every later session's system prompt: writing one is reviewed.
	const leadsTo = (path: string) => {
		const target = context.pathLinks?.get(path);
		return typeof target === "string" ? [path, target] : [path];
	};
	if (
		(toolName === "write" || toolName === "edit") &&
		resolved.flatMap(leadsTo).some((path) => isPiContextFile(path) || isLinkedContextFileTarget(path, context))
	)
		return { kind: "review", reason: "protected-path" };
	// A file named like an option (`-pthis`) turns into one when a later glob expands to it, as for bash's writes.
	if (
		(toolName === "write" || toolName === "edit") &&
		(paths ?? []).some((path) => path.split("/").some((part) => part.startsWith("-")))
	)
		return { kind: "review", reason: "not-read-only" };
	// So is a file that decides what git runs or searches skip (`.gitattributes`, `.lfsconfig`, `.ignore`).
	if (
		(toolName === "write" || toolName === "edit") &&
		resolved.flatMap(leadsTo).some((path) => reviewsEveryWrite(path) || writesGitArmedPath(path, context))
	)
		return { kind: "review", reason: "protected-path" };
	if (toolName !== "grep") return decision;
	// The grep tool reads the whole tree below its path, hidden entries included: allowed only when the shell listed
	// that tree and found nothing protected in it.
	const tree = resolved.length === 1 ? grepTreeAt(resolved[0] as string, context) : undefined;
	if (tree === undefined || context.searchTrees?.get(searchTreeKey(tree)) !== "none")
		return { kind: "review", reason: "protected-path" };
	// The shell lists the tree by the name given, and judges each entry by that name: through a link on the way
	// (`lib -> ~`, `/proc/self/root`), `~/.kube/config` would be judged as `lib/.kube/config` (a twenty-second review).
	if (context.pathLinks !== undefined && context.pathLinks.get(tree.root) !== tree.root)
		return { kind: "review", reason: "protected-path" };
	return decision;
}

/** True when a path's text starts with a variable other than `$HOME` (`$XDG_CONFIG_HOME/…`, `${TMPDIR}`). */
function namesOtherVariable(text: string): boolean {
	const variable = /^@?\s*\$\{?([A-Za-z_]\w*)/.exec(text);
	return variable !== null && variable[1] !== "HOME";
}

/** True when a path's text has a `..` part after a name (`lib/../x`, `a/b/..`): where it leads depends on links. */
function climbsAfterName(text: string): boolean {
	const parts = text.split(/[/\\]/);
	return parts.some(
		(part, index) => part === ".." && parts.slice(0, index).some((before) => !/^\.{0,2}$/.test(before)),
	);
}

/**
 * True when a path-shaped value of a tool that is not built in names home or a folder holding home or the workspace
 * (where its links lead, too), or starts at home and leads outside the workspace; see {@link decidePathFloor}.
 */
function shapedPathReachesHome(text: string, context: FloorContext, leadsOutside: (path: string) => boolean): boolean {
	const { cwd, home } = context;
	// As written and trimmed: a server may trim its arguments (`" .."`; a sixty-eighth review).
	const trimmed = text.trim();
	const places = [
		resolveToolPath(text, cwd, home),
		resolveToolPath(trimmed, cwd, home),
		...serverPathVariants(text, home),
	];
	if (/^@?\s*(?:~|\$HOME\b|\$\{HOME\})/.test(text) && places.some(leadsOutside)) return true;
	// A relative value that climbs out of the workspace (`../.config`, `../other-project`; a sixty-sixth review).
	if (/^@?\s*\.\.(?:\/|$)/.test(trimmed) && places.some(leadsOutside)) return true;
	const workspace = normalizeAbsolutePath(cwd);
	const homeFolder = normalizeAbsolutePath(home);
	return places.some((path) => {
		const target = context.pathLinks?.get(path);
		return [path, ...(typeof target === "string" ? [target] : [])].some(
			(place) => isWithin(place, homeFolder) || (place !== workspace && isWithin(place, workspace)),
		);
	});
}

/**
 * Classifies a path a tool names (resolved and normalized, as Pi's tools resolve it before the system follows its
 * links) by its name and by where its links lead ({@link linkedPathClass}): the worse of the two. What Pi loaded for
 * the model is readable by the name Pi gave it.
 */
function classifyToolPath(
	path: string,
	context: FloorContext,
	classify: (path: string, context: PathContext) => PathClass,
): PathClass {
	const named = classify(path, context);
	if (named === "protected") return named;
	return worsePathClass(
		named,
		linkedPathClass(context.pathLinks, path, path, (target) => classify(target, context)),
	);
}

/**
 * The absolute paths a tool may open for a path it is given: the one Pi's tools resolve ({@link resolveToolPath});
 * for Pi's `read` also the names it falls back to when that one is missing ({@link piReadFallbackPaths}); for a
 * tool that is not built in (an MCP server, an extension) also the text as written and trimmed, since it may not
 * read a path as Pi does. The floor judges every one of them.
 */
function toolOpenedPaths(toolName: string, raw: string, context: FloorContext): string[] {
	const resolved = resolveToolPath(raw, context.cwd, context.home);
	if (toolName === "read") return [resolved, ...piReadFallbackPaths(resolved)];
	if (isBuiltinToolName(toolName)) return [resolved];
	const { cwd, home } = context;
	const opened = new Set([resolved]);
	// A server may match names by their NFC form (the filesystem server: `\u212Aeychains` opens `Keychains`), and
	// resolve a relative path against its own folder rather than Pi's, often home (a sixteenth review).
	for (const text of new Set([raw, raw.normalize("NFC"), raw.normalize("NFKC")])) {
		opened.add(resolveToolPath(text, cwd, home));
		opened.add(resolveWrittenPath(text, cwd, home));
		opened.add(resolveShellPath(text, cwd, home));
		const trimmed = text.trim();
		if (!trimmed.startsWith("/") && !trimmed.startsWith("~") && !trimmed.startsWith("file:"))
			opened.add(resolveShellPath(text, home, home));
		for (const variant of serverPathVariants(text, home)) opened.add(variant);
	}
	return [...opened];
}

/**
 * The paths a call of a tool other than bash names (resolved and normalized, at most {@link MAX_LINK_PATHS}): the
 * shell follows their links into `FloorFacts.pathLinks`. Empty for a call the floor reviews without looking at its
 * paths. Pure; never throws.
 */
export function toolCallLinkPaths(toolName: string, input: unknown, context: FloorContext): readonly string[] {
	try {
		const found = toolArgumentPaths(input);
		if (found === "unjudgeable") return [];
		const named = namedOrDefaultPaths(toolName, input, found.named) ?? [];
		const shaped = isBuiltinToolName(toolName) ? [] : found.shaped;
		const paths = [...named, ...shaped].flatMap((path) => toolOpenedPaths(toolName, path, context));
		const contextFiles = toolName === "write" || toolName === "edit" ? workspaceContextFiles(context) : [];
		return [...new Set([...paths, ...contextFiles])].slice(0, MAX_LINK_PATHS);
	} catch {
		return [];
	}
}

function decideByPathClasses(classes: readonly PathClass[], scope: ToolScope): FloorDecision {
	if (classes.includes("protected")) return { kind: "review", reason: "protected-path" };
	if (scope === "outside-workspace" && classes.includes("outside"))
		return { kind: "review", reason: "outside-workspace" };
	return { kind: "allow", rule: scope === "protected-only" ? "no-protected-path" : "workspace-path" };
}

/**
 * The floor for one bash command. The command is parsed once ({@link parseBashSyntax}); then, over the tree:
 * 1. hard-deny rules over every simple command and pipeline, substitutions and literal `bash -c` scripts included;
 * 2. the judgement: every simple command must be read-only (a flag-aware vocabulary), a trusted command, or a
 *    workspace write, and every path it reads must be neither protected nor (when reads outside are scoped)
 *    outside the workspace; compositions (`;`, `&&`, `||`, pipes, subshells, groups, `cd DIR &&`, if/while/for,
 *    literal nested scripts) are allowed when every part is;
 * 3. for scopes other than `always`, the path classes of every word.
 * Over-long input, unparseable text, `eval`, and substitutions or variables in command position go to review.
 */
export function decideBashFloor(command: string, scope: ToolScope, context: FloorContext): FloorDecision {
	if (typeof command !== "string") return { kind: "review", reason: "unparsed" };
	if (command.length > MAX_BASH_COMMAND_CHARS) return { kind: "review", reason: "too-long" };
	if (hasControlCharacter(command)) return { kind: "review", reason: "unparsed" };
	// The parser reads bytes above ASCII as word characters, which holds in UTF-8 and one-byte locales only.
	if (context.multibyteLocale === true && /[\u0080-\u{10ffff}]/u.test(command))
		return { kind: "review", reason: "environment" };
	if (isForkBomb(command)) return { kind: "deny", rule: "fork-bomb" };
	const parsed = parseBashSyntax(command);
	if (!parsed.ok) return { kind: "review", reason: parsed.reason === "too-long" ? "too-long" : "unparsed" };
	if (countWords(parsed.tree) > MAX_FLOOR_WORDS) return { kind: "review", reason: "too-long" };
	const rule = findHardDeny(parsed.tree, context);
	if (rule !== undefined) return { kind: "deny", rule };
	// A shell set up otherwise than plain `bash -c` may read any command another way: no rule allows it.
	const judged: BashJudgement =
		context.shellSetup === "custom" ? { ok: false, reason: "environment" } : judgeBashTree(parsed.tree, context);
	if (judged.ok) return { kind: "allow", rule: judged.rule };
	if (scope === "always") return { kind: "review", reason: judged.reason };
	return decideBashByPaths(parsed.tree, scope, context);
}

/**
 * The word cap of the floor: a command with more words, assignments and redirects than this (over every simple
 * command, nested ones included) goes to review before any rule runs, so the judgement's work stays bounded under
 * load. Real agent commands use far fewer: at most 71 in the 8,048-command replay corpus.
 */
export const MAX_FLOOR_WORDS = 1_024;

function countWords(tree: BashList): number {
	let count = 0;
	for (const cmd of simpleCommandsOf(tree)) count += cmd.words.length + cmd.assignments.length + cmd.redirects.length;
	return count;
}

/** True for a control character other than tab and newline (a carriage return can hide text on a terminal). */
function hasControlCharacter(command: string): boolean {
	for (let i = 0; i < command.length; i++) {
		const code = command.charCodeAt(i);
		if ((code < 32 && code !== 9 && code !== 10) || code === 127) return true;
	}
	return false;
}

function decideBashByPaths(tree: BashList, scope: ToolScope, context: FloorContext): FloorDecision {
	const classes: PathClass[] = [];
	for (const cmd of simpleCommandsOf(tree)) {
		const words = [
			...cmd.assignments.map((assignment) => assignment.value),
			...cmd.words.slice(1),
			...cmd.redirects.map((redirect) => redirect.target),
		];
		if (cmd.words[0] !== undefined && isDynamicWord(cmd.words[0])) return { kind: "review", reason: "dynamic" };
		for (const word of words) {
			if (isDynamicWord(word)) return { kind: "review", reason: "dynamic" };
			const candidate = pathCandidate(word);
			if (candidate === undefined) continue;
			const pathClass = classifyPath(candidate, context);
			if (pathClass === "protected" || looksLikePath(candidate)) classes.push(pathClass);
		}
	}
	return decideByPathClasses(classes, scope);
}

/** The path a word may name: the value after `=` for `--opt=value` and `key=value` words, the word itself otherwise. */
function pathCandidate(word: BashWord): string | undefined {
	let value = word.value;
	if (value.startsWith("-")) {
		const eq = value.indexOf("=");
		if (eq < 0) {
			// A value attached to a short option (`-f/etc/passwd`, `-f.env`, `-S~/.netrc`) may name a file.
			const attached = value.startsWith("--") ? "" : value.slice(2);
			return attached.length > 1 && (attached.includes("/") || attached.startsWith(".") || attached.startsWith("~"))
				? attached
				: undefined;
		}
		value = value.slice(eq + 1);
	} else if (!word.quoted && isAssignmentShaped(value)) {
		value = value.slice(value.indexOf("=") + 1);
	}
	if (value.length === 0) return undefined;
	return value;
}

function isAssignmentShaped(value: string): boolean {
	const eq = value.indexOf("=");
	if (eq <= 0) return false;
	for (let i = 0; i < eq; i++) {
		const c = value[i] as string;
		const ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || (i > 0 && c >= "0" && c <= "9");
		if (!ok) return false;
	}
	return true;
}

function looksLikePath(value: string): boolean {
	return value.includes("/") || value.startsWith("~") || value === "." || value === "..";
}

// ------------------------------------------------------------------------------------------------------------
// Hard deny

/** The command after stripping wrappers such as sudo, env, nice, timeout, nohup, command, exec and xargs. */
interface EffectiveCommand {
	readonly name: string;
	readonly args: readonly BashWord[];
}

const WRAPPERS_WITH_ARG_OPTIONS: Record<string, Set<string>> = {
	sudo: new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "--user", "--group", "--host", "--prompt"]),
	doas: new Set(["-u", "-C"]),
	env: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]),
	nice: new Set(["-n", "--adjustment"]),
	ionice: new Set(["-c", "-n", "-p", "--class", "--classdata"]),
	timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
	stdbuf: new Set(["-i", "-o", "-e"]),
	xargs: new Set(["-I", "-i", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter"]),
	command: new Set(),
	builtin: new Set(),
	exec: new Set(["-a"]),
	nohup: new Set(),
	time: new Set(["-f", "-o"]),
	chronic: new Set(),
	caffeinate: new Set(),
	unbuffer: new Set(),
};

function isDuration(value: string): boolean {
	let i = 0;
	let digits = 0;
	while (i < value.length && value[i] !== undefined && (value[i] as string) >= "0" && (value[i] as string) <= "9") {
		i++;
		digits++;
	}
	if (value[i] === ".") {
		i++;
		while (i < value.length && (value[i] as string) >= "0" && (value[i] as string) <= "9") i++;
	}
	if (i < value.length && "smhd".includes(value[i] as string)) i++;
	return digits > 0 && i === value.length;
}

/** Strips wrapper commands (for the hard-deny rules); returns the effective command, or undefined when only wrappers remain. */
function effectiveCommand(command: BashSimpleCommand): EffectiveCommand | undefined {
	let words = command.words;
	for (let guard = 0; guard < 8 && words.length > 0; guard++) {
		const name = baseName((words[0] as BashWord).value);
		const argOptions = WRAPPERS_WITH_ARG_OPTIONS[name];
		if (argOptions === undefined) break;
		let i = 1;
		while (i < words.length) {
			const value = (words[i] as BashWord).value;
			if (value === "--") {
				i++;
				break;
			}
			if (name === "env" && isAssignmentShaped(value)) {
				i++;
				continue;
			}
			if (name === "timeout" && isDuration(value)) {
				i++;
				break;
			}
			if (name === "nice" && value.length > 1 && value.startsWith("-") && isDuration(value.slice(1))) {
				i++;
				continue;
			}
			if (!value.startsWith("-") || value === "-") break;
			i += argOptions.has(value) ? 2 : 1;
		}
		words = words.slice(i);
	}
	if (words.length === 0) return undefined;
	return { name: baseName((words[0] as BashWord).value), args: words.slice(1) };
}

/** The first hard-deny rule any part of the tree matches. */
/**
 * The folders each simple command of a list may run in, for the recursive-deletion rules: `cd DIR && rm -rf *`
 * deletes inside `DIR`, not the workspace. Followed: `cd` with a literal folder, through `&&` (the command runs
 * only when the `cd` worked), subshells and groups. Anything else keeps every folder the command may be in: after
 * `;`, `||` or a loop a failed `cd` leaves the previous one, so `cd build; rm -rf *` may still delete the
 * workspace. A `cd` the walk cannot follow (`cd -`, `cd "$X"`, a glob, a `CDPATH` search) gives Pi's working
 * directory, as do commands the walk does not reach (substitutions, nested scripts): the rules stay as strict as
 * without the walk.
 */
function hardDenyDirectories(tree: BashList, context: FloorContext): Map<BashCommand, readonly string[]> {
	const cwd = normalizeAbsolutePath(context.cwd);
	const home = normalizeAbsolutePath(context.home);
	const found = new Map<BashCommand, readonly string[]>();
	/** The folders of both sets; past {@link MAX_WALK_FOLDERS} of them, Pi's working directory alone (as without the walk). */
	const union = (a: readonly string[], b: readonly string[]): readonly string[] => {
		if (a === b) return a;
		const merged = [...a];
		for (const folder of b) if (!merged.includes(folder)) merged.push(folder);
		return merged.length > MAX_WALK_FOLDERS ? [cwd] : merged;
	};
	const cdTarget = (command: BashCommand, from: string): string | undefined => {
		if (command.kind !== "simple" || command.words[0]?.literal !== "cd" || command.words.length > 2) return undefined;
		const target = command.words[1];
		if (target === undefined) return home;
		// `cd ~/x` is a tilde word, with no literal: its text is the folder.
		const tildeOnly = target.expansions.length === 1 && target.expansions[0] === "tilde";
		const literal = target.literal ?? (tildeOnly ? target.value : undefined);
		if (literal === undefined || literal === "" || literal.startsWith("-")) return cwd;
		if (target.expansions.includes("glob") || target.expansions.includes("brace")) return cwd;
		if (context.cdSearchPath === true && !literal.startsWith("/") && !literal.startsWith(".")) return cwd;
		if (literal === "~" || literal.startsWith("~/")) return resolveShellPath(literal, from, home);
		if (literal.startsWith("~")) return cwd;
		return resolveShellPath(literal, from, home);
	};
	let visits = 0;
	/** Walks a list from the folders it starts in; returns the folders it may end in. */
	const walkList = (list: BashList, start: readonly string[]): readonly string[] => {
		let current = start;
		for (const statement of list.statements) {
			const before = current;
			let seen = current;
			let previousStart = current;
			let previousEnd = current;
			statement.pipelines.forEach((pipeline, index) => {
				const operator = index === 0 ? undefined : statement.operators[index - 1];
				// After `&&` the previous pipeline worked; after `||` it failed, perhaps a `cd` that left the folder.
				const from =
					operator === undefined ? current : operator === "&&" ? previousEnd : union(previousStart, previousEnd);
				previousStart = from;
				previousEnd = walkPipeline(pipeline, from);
				seen = union(seen, union(from, previousEnd));
			});
			// A background statement runs in a subshell; any other may end after any of its pipelines.
			current = statement.terminator === "&" ? before : seen;
		}
		return current;
	};
	const walkPipeline = (pipeline: BashPipeline, start: readonly string[]): readonly string[] => {
		const ends = pipeline.commands.map((command) => walkCommand(command, start));
		// Each command of a longer pipeline runs in a subshell: only a lone command moves the shell.
		return pipeline.commands.length === 1 ? (ends[0] as readonly string[]) : start;
	};
	/** Records the folders a command may start in, walks what it holds once, and returns where it may end. */
	const walkCommand = (command: BashCommand, start: readonly string[]): readonly string[] => {
		if (++visits > MAX_DIRECTORY_WALK_VISITS) throw new DirectoryWalkTooLong();
		found.set(command, union(found.get(command) ?? [], start));
		switch (command.kind) {
			case "simple":
				return command.words[0]?.literal === "cd"
					? start.reduce<readonly string[]>((ends, from) => union(ends, [cdTarget(command, from) ?? cwd]), [])
					: start;
			case "group":
				return walkList(command.body, start);
			case "subshell":
				walkList(command.body, start);
				return start;
			case "if": {
				let ends = start;
				for (const clause of command.clauses) {
					ends = union(ends, walkList(clause.condition, ends));
					ends = union(ends, walkList(clause.body, ends));
				}
				return command.elseBody === undefined ? ends : union(ends, walkList(command.elseBody, ends));
			}
			default: {
				// A loop may run its body again from where a pass ended: walk again while that adds a folder.
				let ends = start;
				for (let pass = 0; pass < 2; pass++) {
					const before = ends.length;
					if (command.kind !== "for") ends = union(ends, walkList(command.condition, ends));
					ends = union(ends, walkList(command.body, ends));
					if (ends.length === before) break;
				}
				return ends;
			}
		}
	};
	try {
		walkList(tree, [cwd]);
	} catch (error) {
		if (!(error instanceof DirectoryWalkTooLong)) throw error;
		// Too much to follow: every command counts as run in Pi's working directory, as without the walk.
		found.clear();
	}
	return found;
}

/** The most commands {@link hardDenyDirectories} visits (loops are walked up to twice) before it gives up. */
const MAX_DIRECTORY_WALK_VISITS = 4_096;
/** The most folders the walk keeps as where one command may run; past it, Pi's working directory alone. */
const MAX_WALK_FOLDERS = 8;

class DirectoryWalkTooLong extends Error {}

function findHardDeny(tree: BashList, context: FloorContext): HardDenyRule | undefined {
	const directoriesOf = hardDenyDirectories(tree, context);
	const workspaceOnly = [normalizeAbsolutePath(context.cwd)];
	for (const { pipeline } of pipelinesOf(tree)) {
		let downloaderSeen = false;
		for (const command of pipeline.commands) {
			if (command.kind !== "simple") continue;
			const redirectRule = checkRedirects(command.redirects);
			if (redirectRule) return redirectRule;
			const effective = effectiveCommand(command);
			if (effective === undefined) continue;
			const runsCode =
				SHELLS.has(effective.name) ||
				SOURCE_COMMANDS.has(effective.name) ||
				INTERPRETERS.has(interpreterBase(effective.name));
			if (DOWNLOADERS.has(effective.name)) downloaderSeen = true;
			else if (downloaderSeen && runsCode && !SOURCE_COMMANDS.has(effective.name)) return "download-to-shell";
			if (runsCode && effective.args.some((arg) => arg.substitutions.some(containsDownloader))) {
				return "download-to-shell";
			}
			const rule = checkCommand(effective, context, directoriesOf.get(command) ?? workspaceOnly);
			if (rule) return rule;
			if (effective.name === "eval" && effective.args.length > 0) {
				const source = effective.args.map((arg) => arg.value).join(" ");
				if (isForkBomb(source)) return "fork-bomb";
				const nested = parseBashSyntax(source);
				if (nested.ok) {
					const nestedRule = findHardDeny(nested.tree, context);
					if (nestedRule) return nestedRule;
				}
			}
			const script = command.script;
			if (script === undefined && SHELLS.has(effective.name)) {
				// A wrapped shell (`sudo bash -c '...'`): parse its literal script for the rules too.
				const nested = nestedScriptOf(effective);
				if (nested !== undefined) {
					if (isForkBomb(nested)) return "fork-bomb";
					const parsed = parseBashSyntax(nested);
					if (parsed.ok) {
						const nestedRule = findHardDeny(parsed.tree, context);
						if (nestedRule) return nestedRule;
					}
				}
			} else if (script !== undefined && !script.ok) {
				const nested = nestedScriptOf(effective);
				if (nested !== undefined && isForkBomb(nested)) return "fork-bomb";
			}
		}
	}
	return undefined;
}

/** The literal text after `-c` (in any short-flag bundle) of a shell command. */
function nestedScriptOf(effective: EffectiveCommand): string | undefined {
	for (let i = 0; i < effective.args.length; i++) {
		const value = (effective.args[i] as BashWord).value;
		if (value.startsWith("-") && !value.startsWith("--") && value.includes("c")) {
			return effective.args[i + 1]?.literal;
		}
		if (!value.startsWith("-")) return undefined;
	}
	return undefined;
}

function interpreterBase(name: string): string {
	let end = name.length;
	while (
		end > 0 &&
		((name[end - 1] as string) === "." || ((name[end - 1] as string) >= "0" && (name[end - 1] as string) <= "9"))
	)
		end--;
	return end > 0 ? name.slice(0, end) : name;
}

function containsDownloader(list: BashList): boolean {
	for (const command of simpleCommandsOf(list)) {
		const effective = effectiveCommand(command);
		if (effective && DOWNLOADERS.has(effective.name)) return true;
	}
	return false;
}

function checkRedirects(redirects: readonly BashRedirect[]): HardDenyRule | undefined {
	for (const redirect of redirects) {
		if (!redirect.op.includes(">")) continue;
		if (DISK_DEVICE.test(redirect.target.value)) return "disk-overwrite";
	}
	return undefined;
}

type TargetKind = "root" | "home" | "workspace" | "other";

/** `${NAME}` written as `$NAME` (for comparing a few fixed spellings). */
function stripBraces(value: string): string {
	return value.replace(/\$\{(HOME|PWD)\}/g, "$$$1");
}

/**
 * What a path word names for the recursive-deletion rules, for a command run in `directory` (absolute, normalized;
 * Pi's working directory when the walk does not know better, see {@link hardDenyDirectories}). A folder that holds
 * the workspace (or an additional workspace directory) is `workspace`, one that holds home is `home`.
 */
function classifyTarget(word: BashWord, context: FloorContext, directory?: string): TargetKind {
	const value = word.value;
	const home = normalizeAbsolutePath(context.home);
	const cwd = normalizeAbsolutePath(context.cwd);
	if (word.expansions.includes("parameter-expansion") || word.expansions.includes("command-substitution")) {
		const v = stripBraces(value.replace(/["']/g, ""));
		if (v === "$HOME" || v === "$HOME/" || v === "$HOME/*") return "home";
		if (v === "$PWD" || v === "$PWD/" || v === "$PWD/*" || v === "$(pwd)" || v === "$(pwd)/*") {
			return directory === undefined ? "workspace" : kindOfFolder(directory, context);
		}
		return "other";
	}
	let path = value;
	if (word.expansions.includes("tilde")) {
		if (path === "~" || path === "~/" || path === "~/*" || /^~\/+\.?\/*\*?$/.test(path)) return "home";
		path = resolveShellPath(path, cwd, home);
	}
	const starred = path.endsWith("/*") || path === "*";
	const base = path === "*" ? "." : starred ? path.slice(0, -2) || "/" : path;
	const folder = base.startsWith("/") ? base : `${directory ?? cwd}/${base}`;
	return kindOfFolder(normalizeAbsolutePath(folder), context);
}

/** The recursive-deletion kind of an absolute, normalized folder: what deleting it would take with it. */
function kindOfFolder(folder: string, context: FloorContext): TargetKind {
	if (folder === "/") return "root";
	const home = normalizeAbsolutePath(context.home);
	if (folder === home || isParentOf(folder, home)) return "home";
	const roots = [normalizeAbsolutePath(context.cwd), ...(context.additionalDirectories ?? [])];
	return roots.some((root) => folder === root || isParentOf(folder, root)) ? "workspace" : "other";
}

function isParentOf(parent: string, child: string): boolean {
	return parent === "/" || child.startsWith(`${parent}/`);
}

function targetRule(kind: TargetKind): HardDenyRule | undefined {
	if (kind === "root") return "recursive-delete-root";
	if (kind === "home") return "recursive-delete-home";
	if (kind === "workspace") return "recursive-delete-workspace";
	return undefined;
}

function splitOptions(args: readonly BashWord[]): { options: string[]; operands: BashWord[] } {
	const options: string[] = [];
	const operands: BashWord[] = [];
	let endOfOptions = false;
	for (const arg of args) {
		if (!endOfOptions && arg.value === "--") {
			endOfOptions = true;
			continue;
		}
		if (!endOfOptions && arg.value.startsWith("-") && arg.value.length > 1) options.push(arg.value);
		else operands.push(arg);
	}
	return { options, operands };
}

function hasShortFlag(options: readonly string[], flags: string): boolean {
	return options.some(
		(option) => !option.startsWith("--") && [...flags].some((flag) => option.slice(1).includes(flag)),
	);
}

function checkCommand(
	effective: EffectiveCommand,
	context: FloorContext,
	directories: readonly string[],
): HardDenyRule | undefined {
	const { name, args } = effective;
	const { options, operands } = splitOptions(args);
	/** The first deletion rule a target word hits in any directory the command may run in. */
	const targetRuleIn = (word: BashWord): HardDenyRule | undefined => {
		for (const directory of directories) {
			const rule = targetRule(classifyTarget(word, context, directory));
			if (rule) return rule;
		}
		return undefined;
	};
	if (name === "rm") {
		const recursive = hasShortFlag(options, "rR") || options.includes("--recursive");
		if (options.includes("--no-preserve-root")) return "recursive-delete-root";
		if (recursive) {
			for (const operand of operands) {
				const rule = targetRuleIn(operand);
				if (rule) return rule;
			}
		}
	}
	if (name === "find" && args.some((arg) => arg.value === "-delete")) {
		const firstExpression = args.findIndex(
			(arg) => arg.value.startsWith("-") || arg.value === "!" || arg.value === "(",
		);
		const expression = args.slice(firstExpression < 0 ? args.length : firstExpression).map((arg) => arg.value);
		if (expression.every((value) => FIND_UNFILTERED_EXPRESSIONS.has(value))) {
			for (const arg of args.slice(0, firstExpression < 0 ? args.length : firstExpression)) {
				const rule = targetRuleIn(arg);
				if (rule) return rule;
			}
		}
	}
	if (name === "mkfs" || name.startsWith("mkfs.") || name === "mke2fs" || name === "wipefs") return "make-filesystem";
	if (name === "dd") {
		for (const arg of args) {
			if (!arg.value.startsWith("of=")) continue;
			const target = arg.value.slice(3);
			if (target.startsWith("/dev/") && !DEVICE_SAFE.test(target)) return "disk-overwrite";
		}
	}
	if (name === "shred" && operands.some((operand) => DISK_DEVICE.test(operand.value))) return "disk-overwrite";
	if (name === "chmod") {
		const recursive = hasShortFlag(options, "R") || options.includes("--recursive");
		const modeIndex = operands.findIndex((operand) => isWorldWritableMode(operand.value));
		if (recursive && modeIndex >= 0) {
			for (const operand of operands.slice(modeIndex + 1)) {
				for (const directory of directories) {
					const kind = classifyTarget(operand, context, directory);
					if (kind === "root" || kind === "home") return "chmod-777-recursive";
				}
			}
		}
	}
	if (name === "git" && isForcePushToProtectedBranch(args)) return "force-push-protected-branch";
	if (
		context.hardDenyPatterns.length > 0 &&
		matchesAnyPattern([name, ...args.map((arg) => arg.value)], context.hardDenyPatterns)
	)
		return "custom-pattern";
	return undefined;
}

function isWorldWritableMode(mode: string): boolean {
	return (
		mode === "777" ||
		mode === "0777" ||
		mode === "a+rwx" ||
		mode === "ugo+rwx" ||
		mode === "augo+rwx" ||
		mode === "+rwx" ||
		mode === "a=rwx" ||
		mode === "ugo=rwx" ||
		mode === "=rwx" ||
		mode === "a+rwx,o+w"
	);
}

const GIT_GLOBAL_OPTIONS_WITH_ARG = new Set([
	"-C",
	"-c",
	"--git-dir",
	"--work-tree",
	"--namespace",
	"--exec-path",
	"--config-env",
]);

function gitSubcommand(args: readonly BashWord[]): {
	sub: string | undefined;
	rest: readonly BashWord[];
	globals: BashWord[];
} {
	const globals: BashWord[] = [];
	let i = 0;
	while (i < args.length) {
		const word = args[i] as BashWord;
		if (!word.value.startsWith("-")) break;
		globals.push(word);
		if (GIT_GLOBAL_OPTIONS_WITH_ARG.has(word.value)) {
			const value = args[i + 1];
			if (value !== undefined) globals.push(value);
			i += 2;
		} else i++;
	}
	return { sub: args[i]?.value, rest: args.slice(i + 1), globals };
}

function isForcePushToProtectedBranch(args: readonly BashWord[]): boolean {
	const { sub, rest } = gitSubcommand(args);
	if (sub !== "push") return false;
	const { options, operands } = splitOptions(rest);
	const forceFlag =
		options.some(
			(option) =>
				option === "--force" ||
				option === "--force-with-lease" ||
				option.startsWith("--force-with-lease=") ||
				option === "--force-if-includes",
		) || hasShortFlag(options, "f");
	const refspecs = operands.slice(1).map((operand) => operand.value);
	return refspecs.some((refspec) => {
		const plus = refspec.startsWith("+");
		let destination = refspec.includes(":") ? refspec.slice(refspec.lastIndexOf(":") + 1) : refspec;
		if (destination.startsWith("+")) destination = destination.slice(1);
		if (destination.startsWith("refs/heads/")) destination = destination.slice("refs/heads/".length);
		return (forceFlag || plus) && PROTECTED_BRANCHES.has(destination);
	});
}

function matchesAnyPattern(words: readonly string[], patterns: readonly string[]): boolean {
	return patterns.some((pattern) => patternMatchesWords(pattern, words));
}

function patternMatchesWords(pattern: string, words: readonly string[]): boolean {
	const parts = pattern
		.trim()
		.split(/\s+/)
		.filter((part) => part.length > 0);
	if (parts.length === 0 || parts.length > words.length) return false;
	return parts.every((part, index) => globMatches(part, words[index] as string));
}

/**
 * True for the classic fork bomb `:(){ :|:& };:` and its renamed variants, whitespace ignored. One linear scan:
 * each `(){` is checked against the name before it.
 */
export function isForkBomb(command: string): boolean {
	if (typeof command !== "string") return false;
	let compact = "";
	for (let i = 0; i < command.length; i++) {
		const c = command[i] as string;
		if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") compact += c;
	}
	let at = compact.indexOf("(){");
	while (at >= 0) {
		let start = at;
		while (start > 0 && isForkNameChar(compact[start - 1] as string)) start--;
		const name = compact.slice(start, at);
		if (name.length > 0 && !(name[0] as string).match(/[0-9]/)) {
			const body = `${name}|${name}&`;
			const after = at + 3;
			if (compact.startsWith(body, after)) {
				let end = after + body.length;
				if (compact[end] === ";") end++;
				if (compact[end] === "}") return true;
			}
		}
		at = compact.indexOf("(){", at + 3);
	}
	return false;
}

function isForkNameChar(c: string): boolean {
	return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_" || c === ":";
}

// ------------------------------------------------------------------------------------------------------------
// Judgement: read-only vocabulary, workspace writes, trusted commands

/** The outcome of judging a tree or a part of it. */
export type BashJudgement =
	| { readonly ok: true; readonly rule: "read-only" | "workspace-write" | "trusted-command" }
	| { readonly ok: false; readonly reason: ReviewReason };

const RULE_RANK = { "read-only": 0, "trusted-command": 1, "workspace-write": 2 } as const;

/** The virtual working directory while judging one simple command; undefined once a `cd` went somewhere unknown. */
interface WalkState {
	cwd: string | undefined;
	/** What this command reads on stdin when it is the paths a `find` printed earlier in the pipeline. */
	foundNames?: FoundNames;
}

/**
 * The stdin of a pipeline stage when it is the paths a `find` printed (`find src -name '*.py' | grep -v test |
 * xargs grep -n x`), passed through filters that only drop or reorder whole lines: the find's roots, judged in the
 * stage's own directory (a pipeline's parts share it), and whether find ended each path with NUL (`-print0`).
 */
interface FoundNames {
	readonly roots: readonly BashWord[];
	readonly nulSeparated: boolean;
}

/**
 * One way the shell may be when a command runs: its directory (undefined: unknown) and what the last command's exit
 * status can be. A `cd` may fail, so it leaves two worlds: moved with success, and unmoved with failure; `&&` and
 * `||` then run the next command only in the worlds whose status lets it run.
 */
interface ShellWorld {
	readonly cwd: string | undefined;
	readonly status: "ok" | "fail" | "any";
}

/** More possible directories than this after a list, and the walk treats the directory as unknown. */
const MAX_SHELL_WORLDS = 8;

class Judge {
	rule: "read-only" | "workspace-write" | "trusted-command" = "read-only";
	/** True once the walk passed a file write (not git's own index writes): later git cannot trust the facts. */
	wroteFiles = false;
	/**
	 * Writes and moves the walk has passed so far, git's index writes included: a pipeline or loop whose parts wrote
	 * is judged again, so a part that runs beside or after a write sees it even when the command wrote before.
	 */
	writeCount = 0;
	/** Above 0 while judging a `&` statement or a `<(…)`: parts that run beside what follows them. */
	concurrent = 0;
	/** True once the walk passed a command that may move files into a tree (`mv`, `git stash`): tree facts are stale. */
	movedFiles = false;
	/**
	 * True once the walk passed a command that may remove or rename a file (`rm`, `mv`, `git stash`): which module
	 * files exist was read before the command ran (`existingPaths`).
	 */
	removedFiles = false;
	/**
	 * The folders and files a move earlier in the walk wrote (`mv kdir k2`: `k2`), where a path judged by links
	 * followed before the command ran may now lead elsewhere; undefined once a move may have written anywhere
	 * (`git stash pop` brings back any tracked link).
	 */
	movedTo: string[] | undefined = [];
	/**
	 * True once an `mv` ran in a directory below the workspace root: it may have moved that directory or one above
	 * it (`cd a/b && mv ../b ../../b2`), so bash sits elsewhere than the walk's name for it, and a relative path after
	 * it may reach anywhere.
	 */
	directoryMayHaveMoved = false;
	/**
	 * True once the walk passed a write whose path xargs would split (`touch "src/x .env"`): a tree listed before the
	 * command ran may now hold that name, so xargs reading find's paths is reviewed after it.
	 */
	wroteSplittingName = false;
	/** True once xargs read find's paths in a concurrent part: a later write of a splitting name may come first. */
	concurrentSplitRead = false;
	/**
	 * Above 0 while judging a part whose stdin the command itself feeds (a pipeline part after the first, a command or
	 * compound with an input redirect): a trusted runner there is reviewed, since a debugger or console it may open
	 * (`pytest --trace`, a test label naming `sys.breakpointhook`) runs what it reads (a thirtieth review).
	 */
	stdinFed = 0;
	readonly workspace: string;
	readonly home: string;
	readonly isProtected: (path: string) => boolean;
	/** {@link isProtected} for a path the command only reads (see {@link protectedReadTest}). */
	readonly isProtectedRead: (path: string) => boolean;
	/**
	 * @param requests when given, the walk only collects the facts it needs (the directories git runs in other than
	 *   the workspace, the trees read recursively) and judges as if every repository were safe and every tree held
	 *   no protected entry; see {@link floorFactRequestsOf}.
	 */
	constructor(
		readonly context: FloorContext,
		readonly requests?: CollectedFactRequests,
	) {
		this.workspace = normalizeAbsolutePath(context.cwd);
		this.home = normalizeAbsolutePath(context.home);
		const paths = { cwd: this.workspace, home: this.home, protectedPaths: context.protectedPaths };
		this.isProtected = protectedPathTest(paths);
		this.isProtectedRead = protectedReadTest(
			context.loadedResources === undefined ? paths : { ...paths, loadedResources: context.loadedResources },
		);
	}

	allow(rule: "read-only" | "workspace-write" | "trusted-command"): void {
		if (RULE_RANK[rule] > RULE_RANK[this.rule]) this.rule = rule;
	}
}

/** What a walk in collecting mode gathers (see {@link floorFactRequestsOf}). */
interface CollectedFactRequests {
	readonly gitDirectories: Set<string>;
	readonly gitHistoryDirectories: Set<string>;
	readonly gitAddDirectories: Set<string>;
	readonly searchTrees: Map<string, SearchTreeRequest>;
	readonly linkPaths: Set<string>;
	readonly modulePaths: Set<string>;
	readonly writeFolders: Set<string>;
	readonly movedPaths: Set<string>;
}

class Review extends Error {
	constructor(readonly reason: ReviewReason) {
		super(reason);
	}
}

/**
 * Judges a parsed command: allowed when every simple command in it (substitutions and literal nested scripts
 * included) is read-only, trusted or a workspace write and reads no protected path; otherwise the first reason to
 * review. Pure; never throws.
 */
export function judgeBashTree(tree: BashList, context: FloorContext): BashJudgement {
	const judge = new Judge(context);
	try {
		judgeList(tree, [judge.workspace], judge);
		return { ok: true, rule: judge.rule };
	} catch (error) {
		if (error instanceof Review) return { ok: false, reason: error.reason };
		return { ok: false, reason: "unparsed" };
	}
}

/**
 * Judges a list run from each of the directories `starts`, statement by statement, and returns the directories it
 * may end in. A failed `cd` leaves the directory unchanged, `&&`/`||` skip by status, a statement ending in `&` runs
 * in a subshell, and a compound command with a `cd` inside leaves the directory unknown.
 */
function judgeList(list: BashList, starts: readonly (string | undefined)[], judge: Judge): (string | undefined)[] {
	if (list.statements.length === 0) throw new Review("not-read-only");
	let current = [...starts];
	for (const statement of list.statements) {
		if (statement.terminator === "&") {
			judgeConcurrently(judge, () => judgeStatement(statement, current, judge));
			continue;
		}
		current = judgeStatement(statement, current, judge);
	}
	return current;
}

function judgeStatement(
	statement: BashStatement,
	starts: readonly (string | undefined)[],
	judge: Judge,
): (string | undefined)[] {
	let worlds: ShellWorld[] = starts.map((cwd) => ({ cwd, status: "any" }));
	statement.pipelines.forEach((pipeline, index) => {
		const operator = index === 0 ? undefined : statement.operators[index - 1];
		const next: ShellWorld[] = [];
		for (const world of worlds) {
			// `&&` runs the next pipeline after success and skips it after failure; `||` the other way round. A world
			// whose status is unknown does both.
			const skipStatus = operator === "&&" ? "fail" : "ok";
			if (operator !== undefined && world.status === skipStatus) {
				next.push(world);
				continue;
			}
			if (operator !== undefined && world.status === "any") next.push({ cwd: world.cwd, status: skipStatus });
			next.push(...judgePipeline(pipeline, world.cwd, judge));
		}
		worlds = distinctWorlds(next);
	});
	return [...new Set(worlds.map((world) => world.cwd))];
}

function distinctWorlds(worlds: readonly ShellWorld[]): ShellWorld[] {
	const seen = new Map<string, ShellWorld>();
	for (const world of worlds) seen.set(`${world.status}\u0000${world.cwd ?? "\u0000"}`, world);
	if (seen.size > MAX_SHELL_WORLDS) return [{ cwd: undefined, status: "any" }];
	return [...seen.values()];
}

function judgePipeline(pipeline: BashPipeline, cwd: string | undefined, judge: Judge): ShellWorld[] {
	let outcomes: ShellWorld[];
	if (pipeline.commands.length === 1) outcomes = judgeCommand(pipeline.commands[0] as BashCommand, cwd, judge);
	else {
		// Every part of a pipeline runs in a subshell: none moves the shell. The parts run side by side, so when
		// one writes a file, they are judged again with git anywhere in them counted as after the write.
		const writesBefore = judge.writeCount;
		judgePipelineParts(pipeline, cwd, judge);
		if (judge.writeCount > writesBefore) judgePipelineParts(pipeline, cwd, judge);
		outcomes = [{ cwd, status: "any" }];
	}
	if (!pipeline.negated) return outcomes;
	return outcomes.map((world) => ({
		cwd: world.cwd,
		status: world.status === "ok" ? "fail" : world.status === "fail" ? "ok" : "any",
	}));
}

/**
 * The parts of a pipeline in order, each told when its stdin is the paths a `find` before it printed: joined by `|`
 * (not `|&`, which adds error messages), and with no redirect of its own that replaces that stdin.
 */
function judgePipelineParts(pipeline: BashPipeline, cwd: string | undefined, judge: Judge): void {
	let names: FoundNames | undefined;
	pipeline.commands.forEach((command, index) => {
		if (index > 0 && pipeline.operators[index - 1] !== "|") names = undefined;
		if (names !== undefined && !keepsStdin(command)) names = undefined;
		judgeWithStdin(judge, index > 0, () => judgeCommand(command, cwd, judge, names));
		names = index === 0 ? foundNamesPrintedBy(command) : names && keepsWholeLines(command, names) ? names : undefined;
	});
}

/** Output redirects only, none of them on fd 0: the command still reads the pipe (`xargs cat < list` does not). */
function keepsStdin(command: BashCommand): boolean {
	return command.redirects.every((redirect) => OUTPUT_REDIRECTS.has(redirect.op) && redirect.fd !== 0);
}

const OUTPUT_REDIRECTS: ReadonlySet<BashRedirectOp> = new Set([">", ">>", ">|", "&>", "&>>", ">&"]);

function judgeCommand(
	command: BashCommand,
	cwd: string | undefined,
	judge: Judge,
	foundNames?: FoundNames,
): ShellWorld[] {
	if (command.kind === "simple") {
		const state: WalkState = foundNames === undefined ? { cwd } : { cwd, foundNames };
		judgeSimple(command, state, judge);
		// Only a `cd` moves the directory, and it may fail.
		if (state.cwd === cwd) return [{ cwd, status: "any" }];
		return [
			{ cwd: state.cwd, status: "ok" },
			{ cwd, status: "fail" },
		];
	}
	// bash opens a compound command's redirects before its body runs, in the directory it starts in.
	judgeRedirects(command.redirects, { cwd }, judge);
	return judgeWithStdin(judge, feedsStdin(command.redirects), () => judgeCompoundBody(command, cwd, judge));
}

function judgeCompoundBody(
	command: Exclude<BashCommand, BashSimpleCommand>,
	cwd: string | undefined,
	judge: Judge,
): ShellWorld[] {
	if (command.kind === "group")
		return judgeList(command.body, [cwd], judge).map((end) => ({ cwd: end, status: "any" }));
	if (command.kind === "subshell") {
		judgeList(command.body, [cwd], judge);
		return [{ cwd, status: "any" }];
	}
	// if/while/until/for: a branch or an iteration may run or not, and a loop repeats its body. When any part moves
	// the directory, every part is judged again with the directory unknown, and it stays unknown afterwards.
	if (judgeCompoundParts(command, cwd, judge)) return [{ cwd, status: "any" }];
	judgeCompoundParts(command, undefined, judge);
	return [{ cwd: undefined, status: "any" }];
}

/** Judges the lists of an if/while/until/for from `cwd`; true when none of them can end in another directory. */
function judgeCompoundParts(command: BashIf | BashLoop | BashFor, cwd: string | undefined, judge: Judge): boolean {
	let stays = true;
	const judgePart = (list: BashList) => {
		for (const end of judgeList(list, [cwd], judge)) if (end !== cwd) stays = false;
	};
	if (command.kind === "if") {
		for (const clause of command.clauses) {
			judgePart(clause.condition);
			judgePart(clause.body);
		}
		if (command.elseBody) judgePart(command.elseBody);
	} else {
		if (command.kind === "for") {
			// `for PATH in .` assigns a variable the shell may export: only names no program reads from the environment.
			if (!isLoopVariableName(command.variable)) throw new Review("environment");
			for (const word of command.items ?? []) judgeOperandWord(word, { cwd }, judge, true);
		}
		// A loop runs its body again: a write in one pass comes before git, a tree read or xargs in the next.
		const writesBefore = judge.writeCount;
		for (let pass = 0; pass < 2; pass++) {
			if (command.kind !== "for") judgePart(command.condition);
			judgePart(command.body);
			if (judge.writeCount === writesBefore) break;
		}
	}
	return stays;
}

function judgeSubstitutions(word: BashWord, state: WalkState, judge: Judge): void {
	const judgeBodies = () => {
		for (const body of word.substitutions) judgeList(body, [state.cwd], judge);
	};
	if (word.expansions.includes("process-substitution")) judgeConcurrently(judge, judgeBodies);
	else judgeBodies();
}

/**
 * Judges a part that runs beside what follows it (a `&` statement, a `<(…)`): it may still be writing after the
 * call returns, when the next call's git facts are read, so a write in it is reviewed; git in it is reviewed too
 * (see `gitFactsAt`), since the files its facts were read from may change before it runs.
 */
function judgeConcurrently(judge: Judge, judgePart: () => void): void {
	const wroteBefore = judge.wroteFiles;
	judge.wroteFiles = false;
	judge.concurrent++;
	judgePart();
	judge.concurrent--;
	if (judge.wroteFiles) throw new Review("writes");
	judge.wroteFiles = wroteBefore;
}

function judgeSimple(command: BashSimpleCommand, state: WalkState, judge: Judge): void {
	const judgeIt = () =>
		judgeWithStdin(judge, feedsStdin(command.redirects), () => judgeSimpleCommand(command, state, judge));
	// A `timeout` wrapper outlives a call whose shell Pi kills (at the call's own `timeout`, or on an abort, which the
	// agent can bring about: three denials trip the breaker), its redirects held open: `timeout 20 tail -F n2/config >
	// out.txt` with Pi's timeout of 1 s went on writing there (a forty-eighth review). It is judged as a `&` part.
	if (leavesProcessGroup(command.words)) judgeConcurrently(judge, judgeIt);
	else judgeIt();
}

/**
 * True when the wrappers {@link unwrap} strips hold a `timeout` without `--foreground` among its own options (or a
 * prefix of it, as its option parser takes): it then runs in a process group of its own, which a kill of the shell's
 * group misses, and takes every wrapper after it there too (`timeout 20 timeout --foreground 20 …`; a
 * forty-ninth review).
 */
function leavesProcessGroup(words: readonly BashWord[]): boolean {
	const wrappers = words.slice(0, words.length - unwrap(words).length).map((word) => word.literal ?? "");
	for (let i = 0; i < wrappers.length; i++) {
		if (wrappers[i] !== "timeout") continue;
		let foreground = false;
		// Its options, as `unwrap` reads them: up to the duration, `-s` and `-k` taking the next word.
		for (let j = i + 1; j < wrappers.length && (wrappers[j] as string).startsWith("-"); ) {
			const option = wrappers[j] as string;
			if (option.length >= 3 && "--foreground".startsWith(option)) foreground = true;
			j += option === "-s" || option === "-k" || option === "--signal" || option === "--kill-after" ? 2 : 1;
		}
		if (!foreground) return true;
	}
	return false;
}

/**
 * True when one of `redirects` gives the command a stdin of the command line's choosing: `<` (but `< /dev/null`),
 * `<>`, a heredoc or here-string, `<&N`, or any redirect of descriptor 0 (`0>&3` duplicates descriptor 3 onto stdin).
 */
function feedsStdin(redirects: readonly BashRedirect[]): boolean {
	return redirects.some((redirect) => {
		if (redirect.op === "<" && redirect.target.literal === "/dev/null") return false;
		return redirect.fd === 0 || (redirect.fd === undefined && STDIN_REDIRECTS.has(redirect.op));
	});
}

const STDIN_REDIRECTS: ReadonlySet<BashRedirectOp> = new Set(["<", "<>", "<<", "<<-", "<<<", "<&"]);

/** Runs `judgePart` counted as a part whose stdin the command feeds when `fed` (see `Judge.stdinFed`). */
function judgeWithStdin<T>(judge: Judge, fed: boolean, judgePart: () => T): T {
	if (!fed) return judgePart();
	judge.stdinFed++;
	try {
		return judgePart();
	} finally {
		judge.stdinFed--;
	}
}

function judgeSimpleCommand(command: BashSimpleCommand, state: WalkState, judge: Judge): void {
	let loadsCode = false;
	for (const assignment of command.assignments) {
		judgeSubstitutions(assignment.value, state, judge);
		if (CODE_PATH_ENVIRONMENT_NAMES.has(assignment.name)) loadsCode = true;
		else if (!isSafeEnvironmentName(assignment.name)) throw new Review("environment");
		if (isDynamicWord(assignment.value)) throw new Review("dynamic");
		if (
			!CODE_PATH_ENVIRONMENT_NAMES.has(assignment.name) &&
			!isSafeEnvironmentAssignment(assignment.name, assignment.value.literal)
		)
			throw new Review("environment");
		if (assignment.name === "PYTHONPATH") judgePythonPath(assignment.value.value, state, judge);
		if (assignment.name === "PYTHONWARNINGS" && importsWarningModule(assignment.value.value))
			throw new Review("environment");
	}
	for (const word of command.words) {
		judgeSubstitutions(word, state, judge);
		if (NAMED_FD_WORD.test(sourceWithoutContinuations(word))) throw new Review("dynamic");
	}
	judgeRedirects(command.redirects, state, judge);
	if (command.words.length === 0) {
		if (loadsCode) throw new Review("environment");
		return;
	}
	const words = unwrap(command.words);
	// A wrapper's own values (`nice -n X`, `timeout -s X`) are skipped unjudged, so each must be literal: a brace or
	// glob there expands to the value plus words the wrapped command then reads or runs (`nice -n
	// {5,cat,~/.ssh/id_rsa} echo`; a twenty-seventh review), and so does an unquoted `$_`, `$VAR` or `$(…)` by word
	// splitting (`nice -n $_ cat f` after `echo '5 bash -c …'`; a twenty-eighth review).
	for (const word of command.words.slice(0, command.words.length - words.length)) {
		if (word.literal === undefined) throw new Review("dynamic");
	}
	const first = words[0];
	if (first === undefined) throw new Review("not-read-only");
	// A lone `[` is no glob (no `]` closes it in the word): it names the `test` builtin (`[ -f setup.py ]`).
	const firstLiteral = first.literal ?? (first.text === "[" ? "[" : undefined);
	if (firstLiteral === undefined) throw new Review("dynamic");
	const name = commandName(firstLiteral);
	if (name === undefined) {
		if (matchTrusted(words, state, judge)) return;
		throw new Review("not-read-only");
	}
	// `/usr/bin/cd` (Fedora, macOS) or `nice cd` runs a program that cannot change the shell.
	if (SHELL_STATE_BUILTINS.has(name) && (firstLiteral.includes("/") || runsAsProgram(command.words, words))) {
		throw new Review("not-read-only");
	}
	if (loadsCode) {
		if (matchTrusted(words, state, judge)) return;
		throw new Review("environment");
	}
	const args = words.slice(1);
	if (name === "eval" || SOURCE_COMMANDS.has(name)) throw new Review("dynamic");
	if (command.script !== undefined && words === command.words) {
		if (!command.script.ok) throw new Review(command.script.reason === "too-deep" ? "unparsed" : "dynamic");
		const flags = args.slice(0, args.findIndex((arg) => arg.literal?.includes("c")) + 1);
		if (args.length !== flags.length + 1 || !flags.every((flag) => SAFE_SHELL_FLAGS.test(flag.literal ?? ""))) {
			throw new Review("not-read-only");
		}
		if (flags.some((flag) => (flag.literal ?? "").slice(1).includes("l"))) judgeLoginShell(judge);
		// The tree is bash's reading. zsh, ksh and the like differ widely (zsh glob qualifiers run code), so only
		// `sh` (dash) is judged besides bash, and only without what dash reads another way: globs (`.?` matches
		// `..`), `&>` (`&` then `>`), `$'…'`, braces and process substitution.
		if (name !== "bash" && (name !== "sh" || !isPosixPlain(command.script.tree))) throw new Review("dynamic");
		judgeList(command.script.tree, [state.cwd], judge);
		return;
	}
	const verdict = judgeVocabulary(name, args, state, judge);
	if (verdict === "allowed") return;
	if (matchTrusted(words, state, judge)) return;
	if (judge.context.readOnlyPatterns.length > 0) {
		const values = words.map((word) => word.value);
		if (judge.context.readOnlyPatterns.some((pattern) => patternMatchesWords(pattern, values))) {
			for (const arg of args) judgeOperandWord(arg, state, judge, false);
			return;
		}
	}
	throw new Review(verdict);
}

const SAFE_SHELL_FLAGS = /^-[elxuc]{1,6}$/;
const SAFE_SHELL_OPTION_NAMES = new Set(["pipefail", "errexit", "nounset", "xtrace", "verbose", "noclobber"]);
/** Builtins that change the shell itself: behind `nice` or `timeout` they run as a program and change nothing. */
const SHELL_STATE_BUILTINS = new Set(["cd", "set", "exit", "pushd", "popd", "export", "unset"]);
/** Commands with options that run a program, write a file or read a named file: see {@link judgeVocabulary}. */
const OPTION_RISK_COMMANDS = new Set([
	"awk",
	"rg",
	"find",
	"sort",
	"git",
	"sed",
	"file",
	"date",
	"jq",
	"tree",
	"grep",
	"egrep",
	"fgrep",
	"diff",
	"wc",
	"du",
	"base64",
	"strings",
	"uniq",
]);

/**
 * Files that tell rg, fd and git what to skip, and what git runs on a file's content (`.gitattributes` names a
 * filter driver, such as the user's own git-lfs, which then fetches from the URL a `.lfsconfig` names when
 * `git stash pop` checks a file out; a twentieth review): a write to one is reviewed, by bash or by Pi's tools.
 */
const IGNORE_FILE_NAMES = new Set([".gitignore", ".ignore", ".rgignore", ".fdignore", ".gitattributes", ".lfsconfig"]);

/**
 * Config files of the user's other tools that run a command of the file's choosing, later, when the user does
 * something ordinary with the folder, with no prompt from that tool (a thirty-eighth review): git hook runners
 * (husky's `.husky/` and `.husky/_`, the folder `core.hooksPath` names; lefthook; pre-commit at the next commit),
 * Claude Code's project hooks, mise's `[hooks]` and `_.source` at the next prompt in a trusted folder, VS Code's
 * folder-open tasks and settings that name programs, dev containers' host commands, Cargo's `rustc-wrapper`, and
 * other agents' project configs that start MCP servers. Writes are reviewed; reads stay allowed.
 */
const ARMED_CONFIG_NAMES = new Set([
	".pre-commit-config.yaml",
	".pre-commit-config.yml",
	"lefthook.yml",
	".lefthook.yml",
	"lefthook.yaml",
	".lefthook.yaml",
	"lefthook.toml",
	".lefthook.toml",
	"lefthook.json",
	".lefthook.json",
	"lefthook-local.yml",
	".lefthook-local.yml",
	"lefthook-local.yaml",
	".lefthook-local.yaml",
	"mise.toml",
	".mise.toml",
	".devcontainer.json",
	"opencode.json",
	"opencode.jsonc",
	// Start-up files interpreters load from the folder they start in: R (`.Rprofile`, and `.Renviron`, whose
	// `R_PROFILE_USER` names a script), Ruby's irb and pry.
	".rprofile",
	".renviron",
	".irbrc",
	"_irbrc",
	"irb.rc",
	".pryrc",
	// rustup runs the toolchain a `rust-toolchain(.toml)` `path` names for every `cargo` and `rustc` in the folder
	// (rust-analyzer's too, when an editor opens it); Yarn 1 runs a `.yarnrc`'s `yarn-path` with node at every `yarn`;
	// Crush starts a project config's MCP servers (a sixty-fourth review).
	"rust-toolchain",
	"rust-toolchain.toml",
	// asdf's and mise's `.tool-versions` take `path:DIR` versions, whose `bin/` their shims then run (a sixty-sixth
	// review).
	".tool-versions",
	".yarnrc",
	"crush.json",
	".crush.json",
]);

/** Mise's per-environment and local files: `mise.local.toml`, `.mise.production.toml`. */
const MISE_VARIANT = /^\.?mise\.[^/]+\.toml$/;

/** Folders whose every file is a git hook a runner installs (`core.hooksPath` points there). */
const ARMED_HOOK_FOLDERS = new Set([".husky", ".githooks", ".git-hooks"]);

/** `<folder>/<file>` pairs of tools' project configs that run programs. */
const ARMED_CONFIG_PAIRS = new Set([
	".claude/settings.json",
	".vscode/tasks.json",
	".vscode/settings.json",
	".devcontainer/devcontainer.json",
	".cargo/config.toml",
	".cargo/config",
	".gemini/settings.json",
	".codex/config.toml",
	".mise/config.toml",
	"mise/config.toml",
	// Cursor's and Windsurf's project hooks run shell commands around their agents; Qwen Code's and Zed's project
	// settings start MCP servers and language servers by path (a sixty-fourth review).
	".cursor/hooks.json",
	".windsurf/hooks.json",
	".qwen/settings.json",
	".zed/settings.json",
]);

/**
 * Folders every file below which another agent loads as code at its start: opencode's `.opencode/` (plugins,
 * `.opencode/plugins/*.ts`), Gemini CLI's extensions (a sixty-fourth review).
 */
const ARMED_CODE_FOLDERS: readonly string[] = [".opencode", ".gemini/extensions"];

/** True when `folders` (lower case, outermost first) lie in or below one of {@link ARMED_CODE_FOLDERS}. */
function inArmedCodeFolder(folders: readonly string[]): boolean {
	const path = `/${folders.join("/")}/`;
	return ARMED_CODE_FOLDERS.some((folder) => path.includes(`/${folder}/`));
}

/** The folder of each of {@link ARMED_CONFIG_PAIRS} (`.vscode`, `.cargo`, `mise`, …). */
const ARMED_CONFIG_FOLDERS: ReadonlySet<string> = new Set(
	[...ARMED_CONFIG_PAIRS].map((pair) => pair.split("/")[0] ?? ""),
);

/**
 * Folders every TOML file below which mise loads as project config (`.config/mise/conf.d/*.toml`,
 * `mise/config.local.toml`), and the one Dev Containers looks in for `devcontainer.json` one folder deep
 * (`.devcontainer/<name>/devcontainer.json`; a fortieth review).
 */
const MISE_CONFIG_FOLDERS: ReadonlySet<string> = new Set(["mise", ".mise"]);

/** Files that make a folder a git folder (see {@link armsAnotherTool}), in lower case. */
const GIT_FOLDER_MARKER_NAMES: ReadonlySet<string> = new Set(["head", "commondir"]);
/** Modules Python imports at every start when they lie on its path. */
const PYTHON_STARTUP_NAMES: ReadonlySet<string> = new Set(["sitecustomize.py", "usercustomize.py"]);
/** PowerShell's profile files, which it runs at every start (in lower case). */
const POWERSHELL_PROFILE = /^(?:microsoft\.[a-z0-9.-]+_)?profile\.ps1$/;
/** {@link PYTHON_STARTUP_NAMES} as module names. */
const PYTHON_STARTUP_MODULES: ReadonlySet<string> = new Set(["sitecustomize", "usercustomize"]);
/** Folders whose `.pth` files Python runs at every start. */
const PYTHON_SITE_FOLDERS: ReadonlySet<string> = new Set(["site-packages", "dist-packages"]);

/** True when a write to `path` arms a command of another tool (see {@link ARMED_CONFIG_NAMES}), in any case. */
function armsAnotherTool(path: string): boolean {
	const parts = filesystemLowerCase(path).split("/");
	const name = parts.at(-1) ?? "";
	const folders = parts.slice(0, -1);
	if (ARMED_CONFIG_NAMES.has(name) || MISE_VARIANT.test(name) || name === ".rtx.toml") return true;
	// A `HEAD` (or `commondir`) makes a folder with `objects/` and `refs/` a git folder, whose `config` git then runs
	// programs from wherever git starts in or below it (home made one: a thirty-ninth review); Python runs a
	// site folder's `.pth` lines and `sitecustomize.py` at every start.
	if (GIT_FOLDER_MARKER_NAMES.has(name) || PYTHON_STARTUP_NAMES.has(name)) return true;
	// Any file in a site folder: besides `.pth` files, the modules they import at every start (setuptools'
	// `_distutils_hack`, virtualenv's `_virtualenv.py`, an editable install's finder; a sixty-seventh review).
	if (folders.some((part) => PYTHON_SITE_FOLDERS.has(part))) return true;
	// The same modules as packages or compiled (`sitecustomize/__init__.py`, `sitecustomize.cpython-311.pyc`; a
	// forty-first review), and PowerShell's profiles, which it runs at every start.
	if (PYTHON_STARTUP_MODULES.has(name.split(".")[0] ?? "") && name.includes(".")) return true;
	if (folders.some((part) => PYTHON_STARTUP_MODULES.has(part)) || POWERSHELL_PROFILE.test(name)) return true;
	if (folders.some((part) => ARMED_HOOK_FOLDERS.has(part)) || inArmedCodeFolder(folders)) return true;
	// Judged on the nearest folders only: a folder named `mise` far above the workspace says nothing.
	const parent = folders.at(-1) ?? "";
	const grandparent = folders.at(-2) ?? "";
	const inMise = MISE_CONFIG_FOLDERS.has(parent) || (parent === "conf.d" && MISE_CONFIG_FOLDERS.has(grandparent));
	if (name.endsWith(".toml") && inMise) return true;
	if (name === "devcontainer.json" && (parent === ".devcontainer" || grandparent === ".devcontainer")) return true;
	return parts.length >= 2 && ARMED_CONFIG_PAIRS.has(`${parts.at(-2)}/${name}`);
}

/**
 * True when `path` names a folder whose files would arm another tool by their names alone: a write that creates or
 * renames it (`mv staged .vscode`, `cp -r st .cargo`, `ln -s st .devcontainer`) may put such a file there with a
 * name no rule saw when it was written (`staged/tasks.json`; a fortieth review). In any case.
 */
function namesArmedFolder(path: string): boolean {
	const parts = filesystemLowerCase(path).split("/");
	const name = parts.at(-1) ?? "";
	if (ARMED_CONFIG_FOLDERS.has(name) || ARMED_HOOK_FOLDERS.has(name) || MISE_CONFIG_FOLDERS.has(name)) return true;
	if (inArmedCodeFolder(parts)) return true;
	// A site folder, or the `pythonX.Y` folder above one, renamed into place brings its `.pth` files (a sixty-seventh
	// review).
	if (PYTHON_SITE_FOLDERS.has(name) || /^python\d+(?:\.\d+)?$/.test(name)) return true;
	const parent = parts.at(-2) ?? "";
	return MISE_CONFIG_FOLDERS.has(parent) || parent === ".devcontainer";
}

/**
 * True when every write to `path` is reviewed: an ignore or attribute file, in any case (a case-insensitive
 * filesystem, macOS's default, opens `.GITATTRIBUTES` as `.gitattributes`, as protected globs and context files are
 * matched), or a config that arms another tool's command ({@link armsAnotherTool}).
 */
function reviewsEveryWrite(path: string): boolean {
	return IGNORE_FILE_NAMES.has(filesystemLowerCase(baseName(path))) || armsAnotherTool(path);
}

/** The folder `path` (absolute, normalized) lies in: `/a/b` → `/a`, `/a` → `/`. */
function parentFolder(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash <= 0 ? "/" : path.slice(0, slash);
}

/**
 * The folders a call of Pi's `write` or `edit` writes in (absolute, normalized), for the shell's `core.hooksPath`
 * facts (see `FloorFactRequests.writeFolders`); empty for any other tool or input. Pure; never throws.
 */
export function toolWriteFolders(toolName: string, input: unknown, context: FloorContext): string[] {
	try {
		if (toolName !== "write" && toolName !== "edit") return [];
		const found = toolArgumentPaths(input);
		if (found === "unjudgeable") return [];
		const named = namedOrDefaultPaths(toolName, input, found.named) ?? [];
		return [...new Set(named.map((path) => parentFolder(resolveToolPath(path, context.cwd, context.home))))];
	} catch {
		return [];
	}
}

/**
 * True when a write of `path` (absolute, normalized) lands in a path git runs programs from (`FloorContext.gitArmedPaths`:
 * a folder `core.hooksPath` names, a config file a config includes), or creates, moves or removes one above it
 * (`mv staged scripts`, `cp -r st/. .`). A fortieth review showed `scripts/git-hooks/pre-commit` with
 * `core.hooksPath=scripts/git-hooks` run at the next commit; a forty-third, an `fsmonitor` line appended to
 * `tools/git.cfg`, which `include.path` names, run at the next `git status`.
 */
function writesGitArmedPath(path: string, context: FloorContext): boolean {
	return context.gitArmedPaths?.some((armed) => isWithinAnyCase(armed, path)) === true;
}

/**
 * {@link isWithin} without regard to case: on a case-insensitive filesystem (macOS's default) `Scripts/git-hooks` is
 * `scripts/git-hooks` (a sixty-seventh review). Elsewhere it only reviews more.
 */
function isWithinAnyCase(parent: string, child: string): boolean {
	return isWithin(filesystemLowerCase(parent), filesystemLowerCase(child));
}

/**
 * True when renaming `path` (absolute, normalized; an `mv` source or destination) may bring a file where another
 * tool runs it: a folder named like a tool's config folder ({@link namesArmedFolder}), or one above a path git runs
 * programs from (`mv staged scripts` with `core.hooksPath=scripts/git-hooks`). The folder bash is in and the root
 * are never renamed (`mv x .` writes `./x`, judged on its own).
 */
function renamesArmedFolder(path: string, state: WalkState, judge: Judge): boolean {
	if (namesArmedFolder(path)) return true;
	if (path === state.cwd || path === "/") return false;
	return (
		judge.context.gitArmedPaths?.some(
			(armed) => filesystemLowerCase(armed) !== filesystemLowerCase(path) && isWithinAnyCase(path, armed),
		) === true
	);
}

/** Commands that read `.` when given no path operand. */
const IMPLICIT_DOT_COMMANDS = new Set(["ls", "du", "tree", "find"]);

/** An unquoted glob word whose first character is a wildcard or bracket (`*`, `?x`, `[-]x`). */
function startsWithWildcard(word: BashWord): boolean {
	// The value too, not only the text: `''[-]-pre=s?` starts with a quote but expands like `[-]-pre=s?`.
	return word.expansions.includes("glob") && (/^[*?[]/.test(word.value) || /^[*?[]/.test(word.text));
}

/** A brace word that is only a numeric or letter sequence: `{1..10}`, `{a..e}`, `{0..100..5}`. */
const BRACE_SEQUENCE = /^\{(?:-?\d{1,6}\.\.-?\d{1,6}(?:\.\.-?\d{1,6})?|[a-zA-Z]\.\.[a-zA-Z])\}$/;
/**
 * A word's source as bash reads it: a backslash-newline is removed before anything else (`{HO\⏎ME}>f` is the named
 * descriptor `{HOME}`, a twenty-first review).
 */
function sourceWithoutContinuations(word: BashWord): string {
	return word.text.includes("\\\n") ? word.text.replaceAll("\\\n", "") : word.text;
}

/** `{NAME}` before a redirect makes bash store the file descriptor in the variable NAME (`{PATH}>f`). */
const NAMED_FD_WORD = /^\{[A-Za-z_][A-Za-z0-9_]*(?:\[.*\])?\}$/s;

/** A `for` variable that is no environment name programs read: lower case, and not a proxy setting. */
function isLoopVariableName(name: string): boolean {
	return /^[a-z_][a-z0-9_]*$/.test(name) && !name.endsWith("_proxy");
}

/** True for an environment name the floor allows as a command prefix ({@link SAFE_ENVIRONMENT_NAMES}, `LC_*`). */
export function isSafeEnvironmentName(name: string): boolean {
	return (SAFE_ENVIRONMENT_NAMES as readonly string[]).includes(name) || name === "LC_ALL" || name.startsWith("LC_");
}

/** True for a name that picks the locale bash reads characters in: `LANG` and `LC_*`. */
function isLocaleName(name: string): boolean {
	return name === "LANG" || name.startsWith("LC_");
}

/**
 * True for a locale in which no byte of a multibyte character can be a `\`, a quote or another ASCII character:
 * unset or empty (the next setting, or `C`), `C`, `POSIX`, or any UTF-8 locale. In GBK, GB18030, Big5 or Shift_JIS
 * the last byte of `€` or `中` joins the `\` after it into one character, so bash reads a quote the parser took as
 * escaped (a twenty-fifth review). A name without a charset (`zh_TW` is Big5) is not one.
 */
export function isByteSafeLocale(value: string | undefined): boolean {
	return (
		value === undefined ||
		value === "" ||
		value === "C" ||
		value === "POSIX" ||
		/^[A-Za-z0-9_]*\.(?:utf-?8)(?:@[A-Za-z0-9_-]+)?$/i.test(value)
	);
}

/**
 * True for an assignment the floor allows as a prefix or a statement: a {@link isSafeEnvironmentName} name, and for
 * a locale name a non-empty {@link isByteSafeLocale} literal value (an empty one falls back to the next setting,
 * which may be a GBK `LANG` in Pi's environment: a twenty-sixth review).
 */
export function isSafeEnvironmentAssignment(name: string, value: string | undefined): boolean {
	if (!isSafeEnvironmentName(name)) return false;
	if (name === "LANGUAGE") return value !== undefined && isLanguageList(value);
	return !isLocaleName(name) || (value !== undefined && value !== "" && isByteSafeLocale(value));
}

/**
 * True for a `LANGUAGE` value that is a list of language names (`de:en_GB`): gettext joins each name into the path
 * of the message catalog it opens (`/usr/share/locale/<name>/LC_MESSAGES/git.mo`), so a name with a `/` or a leading
 * dot (`../../home/dev/project/loc`) loads a catalog the agent wrote, whose translated format strings `printf` then
 * runs (`%n` writes memory; a sixty-fourth review).
 */
function isLanguageList(value: string): boolean {
	return /^(?:[A-Za-z][A-Za-z0-9_@.+-]*)?(?::(?:[A-Za-z][A-Za-z0-9_@.+-]*)?)*$/.test(value);
}

/** True when bash looks `cd DIR` up in `CDPATH`: a name not starting with `/`, `./`, `../`, or `.`/`..` itself. */
function searchesCdPath(dir: string): boolean {
	return !(dir.startsWith("/") || dir === "." || dir === ".." || dir.startsWith("./") || dir.startsWith("../"));
}

/** The command name for the vocabulary: a bare name, or `/bin/x`, `/usr/bin/x`, `/usr/local/bin/x`. */
function commandName(literal: string): string | undefined {
	if (!literal.includes("/")) return literal;
	for (const dir of ["/bin/", "/usr/bin/", "/usr/local/bin/"]) {
		if (literal.startsWith(dir) && !literal.slice(dir.length).includes("/")) return literal.slice(dir.length);
	}
	return undefined;
}

/** True when no part of a script reads differently in dash than in bash (see {@link judgeSimple}). */
function isPosixPlain(tree: BashList): boolean {
	return simpleCommandsOf(tree).every(
		(inner) =>
			[...inner.words, ...inner.assignments.map((assignment) => assignment.value)].every(
				(word) =>
					!/\$['"]/.test(sourceWithoutContinuations(word)) &&
					!word.expansions.some((kind) => kind === "glob" || kind === "brace" || kind === "process-substitution"),
			) && inner.redirects.every((redirect) => redirect.op !== "&>" && redirect.op !== "&>>"),
	);
}

/** True when `unwrap` stripped `nice` or `timeout`, which run the rest as a program in another process. */
function runsAsProgram(all: readonly BashWord[], unwrapped: readonly BashWord[]): boolean {
	return all
		.slice(0, all.length - unwrapped.length)
		.some((word) => word.literal === "nice" || word.literal === "timeout");
}

/** Strips `time`, `timeout [opts] DURATION`, `nice [-n N]` and `command NAME` (not `command -v`) for the judgement. */
function unwrap(words: readonly BashWord[]): readonly BashWord[] {
	let rest = words;
	for (let guard = 0; guard < 4; guard++) {
		const name = rest[0]?.literal;
		if (name === "time" && rest.length > 1 && !rest[1]?.literal?.startsWith("-")) rest = rest.slice(1);
		else if (name === "timeout") {
			let i = 1;
			while (i < rest.length && rest[i]?.literal?.startsWith("-")) {
				const option = rest[i]?.literal as string;
				i += option === "-s" || option === "-k" || option === "--signal" || option === "--kill-after" ? 2 : 1;
			}
			if (!isDuration(rest[i]?.literal ?? "")) return rest;
			rest = rest.slice(i + 1);
		} else if (name === "nice") {
			let i = 1;
			if (rest[1]?.literal === "-n") i = 3;
			else if (rest[1]?.literal?.startsWith("-") && isDuration(rest[1].literal.slice(1))) i = 2;
			rest = rest.slice(i);
		} else if (name === "command" && rest.length > 1 && !rest[1]?.literal?.startsWith("-")) rest = rest.slice(1);
		else return rest;
	}
	return rest;
}

/**
 * Commands of the vocabulary whose brace words (`cat {a,b}.py`, `head -n 5 {1..3}`, `grep -n x {a,b}.py`) are each
 * judged word by word as paths, wherever they stand; any other command's brace word is reviewed (see
 * `judgeVocabulary`). grep and rg judge their own pattern slot (`judgeSearch`).
 */
const BRACE_WORD_COMMANDS = new Set([
	"cat",
	"head",
	"tail",
	"wc",
	"nl",
	"cut",
	"sort",
	"column",
	"diff",
	"cmp",
	"comm",
	"paste",
	"od",
	"stat",
	"base64",
	"md5sum",
	"sha1sum",
	"sha256sum",
	"sha512sum",
	"rev",
	"tac",
	"ls",
	"du",
	"tree",
	"file",
	"echo",
	"basename",
	"dirname",
	"realpath",
	"readlink",
	"grep",
	"rg",
]);

/** The most words a brace sequence operand may expand to and still be judged word by word. */
const MAX_SEQUENCE_WORDS = 256;

/**
 * The words bash expands a whole-word sequence to ({@link BRACE_SEQUENCE}: `{1..3}`, `{01..10..3}`, `{a..e}`,
 * `{Z..a}` through the ASCII between), or undefined past {@link MAX_SEQUENCE_WORDS} words or when one would start
 * with `-` (an option). A sequence operand names files too: `cat {a..b}` opens `a` and `b`, links included (a
 * twenty-fifth review).
 */
export function expandBraceSequence(text: string): string[] | undefined {
	const body = text.slice(1, -1);
	const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
	const numbers = letters === null ? /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body) : null;
	let codes: number[] = [];
	if (letters !== null) {
		const from = (letters[1] as string).charCodeAt(0);
		const to = (letters[2] as string).charCodeAt(0);
		if (Math.abs(to - from) >= MAX_SEQUENCE_WORDS) return undefined;
		for (let c = from; from <= to ? c <= to : c >= to; c += from <= to ? 1 : -1) codes.push(c);
		return codes.map((c) => String.fromCharCode(c));
	}
	if (numbers === null) return undefined;
	const from = Number(numbers[1]);
	const to = Number(numbers[2]);
	const step = Math.abs(Number(numbers[3] ?? "1")) || 1;
	if (Math.abs(to - from) / step >= MAX_SEQUENCE_WORDS) return undefined;
	// Bash pads every word to the widest end's width when either end has a leading zero (`{01..10}`).
	const padded = [numbers[1], numbers[2]].some((end) => /^-?0\d/.test(end as string));
	const width = Math.max((numbers[1] as string).length, (numbers[2] as string).length);
	codes = [];
	for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) codes.push(n);
	const words = codes.map((n) => {
		if (!padded) return String(n);
		const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
		return n < 0 ? `-${digits}` : digits;
	});
	return words.some((word) => word.startsWith("-")) ? undefined : words;
}

/** The words of `PREFIX{A,B,…}SUFFIX` with one brace group of plain alternatives; undefined for anything else. */
function expandSimpleBraces(value: string): string[] | undefined {
	const match = /^([^{}]*)\{([^{}]*,[^{}]*)\}([^{}]*)$/.exec(value);
	if (match === null || value.startsWith("-")) return undefined;
	const alternatives = (match[2] as string).split(",");
	if (alternatives.length > 32) return undefined;
	const words = alternatives.map((alternative) => `${match[1]}${alternative}${match[3]}`);
	// `{,}-o/root/.bashrc` and `{.,}-exec` expand to options.
	return words.some((word) => word.startsWith("-")) ? undefined : words;
}

function isBareProcessSubstitution(word: BashWord): boolean {
	return (
		word.substitutions.length === 1 &&
		word.expansions.length === 1 &&
		word.expansions[0] === "process-substitution" &&
		(word.text.startsWith("<(") || word.text.startsWith(">(")) &&
		word.text.endsWith(")")
	);
}

/**
 * Judges one operand as a path the command reads (`read`) or only names. `strict`: judged against every protected
 * path, as for a trusted command, which may also write what it names (otherwise Pi's extensions, skills and the
 * like may be read, see {@link protectedReadTest}).
 */
function judgeOperandWord(word: BashWord, state: WalkState, judge: Judge, read: boolean, strict = false): void {
	// A bare `<(cmd)` names a pipe (its command is judged as a substitution); anything around it is expanded too.
	if (isBareProcessSubstitution(word)) return;
	if (isDynamicWord(word)) throw new Review("dynamic");
	if (word.expansions.includes("brace")) {
		// `{a,b}.py` is judged as each of its words (`{/root/.netrc,}` included), or reviewed when they cannot be listed;
		// so is a sequence (`{a..b}`).
		const sequence = BRACE_SEQUENCE.test(word.text);
		const words = word.quoted ? undefined : sequence ? expandBraceSequence(word.text) : expandSimpleBraces(word.value);
		if (words === undefined) throw new Review("dynamic");
		for (const path of words) if (path !== "") judgeReadPath(path, state, judge, read, true, strict);
		return;
	}
	const value = word.value;
	if (value.startsWith("-") && !value.startsWith("--")) {
		// Which letter of a bundle takes a value is the command's business (`-bf/etc/passwd`, `-mid_rsa`): every
		// tail of the word is judged as a path, one character long (`-fa`) or starting with `=` (getopt opens `=k`
		// for `-f=k`, a twenty-first review) included. A last `/` or `~` alone is a separator (`cut -d/`), as before.
		if (value.length > MAX_ATTACHED_OPTION_CHARS) throw new Review("dynamic");
		const last = value.at(-1);
		const end = last === "/" || last === "~" ? value.length - 1 : value.length;
		for (let start = 2; start < end; start++) judgeReadPath(value.slice(start), state, judge, read, true, strict);
		return;
	}
	const candidate = pathCandidate(word);
	if (candidate === undefined) return;
	judgeReadPath(candidate, state, judge, read, word.expansions.includes("glob"), strict);
	// An operand shaped like `k=v/config` is a path by its whole name too (through a link `k=v`, an eighteenth review).
	if (candidate !== value && !value.startsWith("-"))
		judgeReadPath(value, state, judge, read, word.expansions.includes("glob"), strict);
}

/** A short option word longer than this (its attached value included) is not judged tail by tail. */
const MAX_ATTACHED_OPTION_CHARS = 256;

function resolveIn(rawPath: string, state: WalkState, judge: Judge): string | undefined {
	// Pi's tools read `@path` as `path`; to bash `@` is part of the name.
	const path = rawPath.startsWith("@") ? `./${rawPath}` : rawPath;
	if (judge.directoryMayHaveMoved && !path.startsWith("/") && !path.startsWith("~")) return undefined;
	// A plain name (no slash, not . or .., no tilde) needs no normalization.
	if (state.cwd !== undefined && !path.includes("/") && path !== "." && path !== ".." && !path.startsWith("~")) {
		return state.cwd === "/" ? `/${path}` : `${state.cwd}/${path}`;
	}
	const home = judge.home;
	if (path === "~" || path.startsWith("~/") || path.startsWith("/")) return resolveShellPath(path, "/", home);
	if (path.startsWith("~")) return undefined;
	if (state.cwd === undefined) return undefined;
	return resolveShellPath(path, state.cwd, home);
}

/**
 * Classifies an absolute, normalized path; `read` for a path the command only reads (Pi's extensions, skills and
 * the like may be read, see {@link protectedReadTest}, and what Pi loaded for the model counts as the workspace,
 * see {@link isReadableLocation}).
 */
function classifyResolved(path: string, judge: Judge, read = false): PathClass {
	if (read) {
		if (judge.isProtectedRead(path)) return "protected";
		return isReadableLocation(path, judge.workspace, judge.context) ? "workspace" : "outside";
	}
	if (judge.isProtected(path)) return "protected";
	const { additionalDirectories, homeConfigLinkTargets } = judge.context;
	return isWritableWorkspacePath(path, judge.workspace, judge.home, additionalDirectories, homeConfigLinkTargets)
		? "workspace"
		: "outside";
}

/**
 * Classifies a path bash opens by its name ({@link classifyResolved}) and by where its links lead (decision 0023):
 * the worse of the two. `raw` is the path as the command names it, `resolved` its normalized name; `followsLast`
 * false for a command that acts on a link itself (`rm`, the source of `mv`). In collecting mode it records the path
 * for the shell to follow. What Pi loaded for the model is readable by the name Pi gave it.
 */
function classifyOpened(
	raw: string,
	resolved: string,
	state: WalkState,
	judge: Judge,
	read = false,
	followsLast = true,
): PathClass {
	const named = classifyResolved(resolved, judge, read);
	if (named === "protected") return named;
	const key = openedLinkKey(raw, state, judge);
	if (judge.requests !== undefined) {
		if (key !== undefined) judge.requests.linkPaths.add(linkCheckKey(key, followsLast));
		return named;
	}
	// A part that may still run after the call returns (a `&` statement, a `<(…)`) opens its paths then, when a later
	// call may have put a link where they lead: `{ (sleep 2; cat n2/config) & } > out.txt`, then `git stash` bringing
	// back a tracked `n2 -> ~/.kube` (a forty-eighth review). No fact read now holds for it.
	if (judge.concurrent > 0) throw new Review("dynamic");
	const links = judge.context.pathLinks;
	if (links === undefined) return named;
	const target = key === undefined ? null : linkTargetOf(links, key, followsLast);
	if (target === null) return "protected";
	// The links were followed before the command ran: a move before this (`mv kdir k2 && cat k2/config`, a
	// `git stash pop` that brings a link back) may have put one where this path leads, or replaced one it passed
	// (`p -> d/q`, then `mv ka d/q`); a move after a part running beside this one may come first. And a `..` may
	// climb out of where a move wrote (`mv klink a && cat a/../x`): the system takes it from the link moved there.
	const moved = judge.movedTo;
	if (
		moved === undefined ||
		(moved.length > 0 && (target !== resolved || climbsOut(key as string))) ||
		moved.some((folder) => isWithinAnyCase(folder, resolved) || isWithinAnyCase(folder, target))
	)
		return "protected";
	// What Pi loaded for the model is readable by its name; a link in it is judged by where it leads like any other
	// (a cloned project's skill folder may hold `ref -> ~/.kube`), unless that is something Pi loaded too.
	return target === resolved ? named : worsePathClass(named, classifyResolved(target, judge, read));
}

/**
 * True when `cd RAW` may leave bash somewhere other than `logical`, its `..` taken by the text: where that folder is
 * missing or not a folder, bash changes to RAW as the system reads it, a `..` after a link climbing from the link's
 * target (`cd link/../a`, or `cd ../a` in a folder reached through a link; a nineteenth review). So a `..` whose
 * followed path differs from the logical one leaves the folder unknown. Without link facts, names alone are judged.
 */
function cdMayLandElsewhere(raw: string, logical: string | undefined, state: WalkState, judge: Judge): boolean {
	if (logical === undefined || !climbsOut(raw) || judge.requests !== undefined) return false;
	const links = judge.context.pathLinks;
	if (links === undefined) return false;
	const key = openedLinkKey(raw, state, judge);
	return key === undefined || linkTargetOf(links, key) !== logical;
}

/** True when a path (`..` kept) climbs out of a folder it names: `a/../x`. */
function climbsOut(path: string): boolean {
	return path.split("/").includes("..");
}

/**
 * The key under which the shell follows a path bash opens in `state`'s directory ({@link bashPathLinkKey}); a
 * leading `@`, which {@link resolveIn} reads as `./@…`, is kept the same way, so every rule asks about one key.
 */
function openedLinkKey(raw: string, state: WalkState, judge: Judge): string | undefined {
	return bashPathLinkKey(raw.startsWith("@") ? `./${raw}` : raw, state.cwd, judge.home);
}

/** The worse of two path classes: protected, then outside, then workspace. */
function worsePathClass(a: PathClass, b: PathClass | undefined): PathClass {
	if (b === undefined || a === "protected" || b === "workspace") return a;
	return a === "outside" && b === "outside" ? a : b;
}

/** A path the command reads: protected → review; outside the workspace → review when reads outside are scoped. */
function judgeReadPath(path: string, state: WalkState, judge: Judge, read: boolean, glob = true, strict = false): void {
	if (HARMLESS_TARGETS.has(path)) return;
	const resolved = resolveIn(path, state, judge);
	if (resolved === undefined) throw new Review("dynamic");
	const pathClass = classifyOpened(path, resolved, state, judge, !strict);
	if (pathClass === "protected") throw new Review("protected-path");
	const scope = judge.context.readScope ?? "outside-workspace";
	if (read && pathClass === "outside" && (scope === "outside-workspace" || scope === "always"))
		throw new Review("outside-workspace");
	// `glob`: the shell may expand it (a quoted `'a*b'` is one literal name). When its parts could meet a protected
	// glob (`src/*.py` meets `id_*`), the shell lists what it can expand to (decision 0020).
	// With links followed (decision 0023), any glob is listed: it may expand through a link (`cat ?conf`), a trusted
	// command's too (`pytest -q t?` meeting `tl -> ~/other`; a twenty-seventh review).
	const linksFollowed = judge.requests !== undefined || judge.context.pathLinks !== undefined;
	if (glob && hasGlobCharacter(path) && (mayMatchProtected(path, judge) || linksFollowed)) {
		// A trusted command's glob that may meet a protected name stays reviewed: it may write what it names.
		const reach = strict && mayMatchProtected(path, judge) ? undefined : globReachOf(path);
		if (reach === undefined) throw new Review("protected-path");
		judgeSearchTree(reach.folder, true, true, state, judge, reach.pattern);
	}
}

/**
 * Where a glob word can expand to, as a tree the shell can list: its literal folder and its parts below it
 * (`src/*.py` → `src`, `["*.py"]`). Undefined when bash could reach further or into hidden entries: any part from
 * the first wildcard on that starts with `.` (`.*` meets `.git`, and `..` before bash 5.2; `..` or `.env` after a
 * wildcard), a bracket expression (`[.]` and `[!a]` rules vary).
 */
function globReachOf(path: string): { folder: string; pattern: string[] } | undefined {
	const parts = path.split("/");
	const first = parts.findIndex((part) => hasGlobCharacter(part));
	if (first < 0) return undefined;
	const below = parts.slice(first).filter((part) => part !== "");
	if (below.some((part) => part.startsWith(".") || part.includes("["))) return undefined;
	return { folder: literalFolderOf(path), pattern: below };
}

/**
 * True when a glob word could expand to a protected path: some part of it with a wildcard could match some part
 * of a protected glob (`.gi?/config` meets `.git/`, `k*` meets `*.pem`, `.e*.local` meets `.env*`). Parts are
 * compared one by one, wherever they stand, which may over-match; literal parts are left to the path check.
 */
function mayMatchProtected(path: string, judge: Judge): boolean {
	if (!hasGlobCharacter(path)) return false;
	const parts = path.split("/").filter(hasGlobCharacter);
	// The value has lost its quotes: in `.[e\\]x]nv` the first `]` may belong to the bracket. Read the first
	// bracket as closing at each later `]` too; with more than one bracket, assume the worst.
	for (const part of [...parts]) {
		const open = part.indexOf("[");
		if (open < 0) continue;
		if (part.indexOf("[", open + 1) >= 0 && part.indexOf("]", open) >= 0) return true;
		for (let close = part.indexOf("]", open + 2); close >= 0; close = part.indexOf("]", close + 1)) {
			parts.push(`${part.slice(0, open)}?${part.slice(close + 1)}`);
		}
	}
	for (const glob of judge.context.protectedPaths) {
		for (const protectedPart of glob.split("/")) {
			if (protectedPart === "" || protectedPart === "~" || protectedPart === "**") continue;
			if (parts.some((part) => globPartsMayMeet(part, protectedPart))) return true;
		}
	}
	return false;
}

/**
 * The index of the `]` closing the bracket expression opened at `start` (`[!]]`, `[[:alpha:]]`, `[[=e=]]` read
 * whole), or -1 when it is not closed.
 */
function bracketEnd(part: string, start: number): number {
	let i = start + 1;
	if (part[i] === "!" || part[i] === "^") i++;
	if (part[i] === "]") i++;
	while (i < part.length) {
		const c = part[i];
		if (c === "]") return i;
		if (c === "[" && (part[i + 1] === ":" || part[i + 1] === "=" || part[i + 1] === ".")) {
			const end = part.indexOf(`${part[i + 1]}]`, i + 2);
			if (end < 0) return -1;
			i = end + 2;
			continue;
		}
		i++;
	}
	return -1;
}

/** A glob part split into single-character matchers: a literal, `?`, `*` or a bracket expression (any character). */
function globTokens(part: string): string[] | undefined {
	const tokens: string[] = [];
	for (let i = 0; i < part.length; i++) {
		const c = part[i] as string;
		if (c === "[") {
			const close = bracketEnd(part, i);
			if (close < 0) tokens.push("=[");
			else {
				tokens.push("?");
				i = close;
			}
		} else if (c === "\\" && i + 1 < part.length) {
			tokens.push(`=${(part[i + 1] as string).toLowerCase()}`);
			i++;
		} else tokens.push(c === "*" || c === "?" ? c : `=${c.toLowerCase()}`);
		if (tokens.length > 256) return undefined;
	}
	return tokens;
}

/**
 * True when a part of a bash glob and a part of a protected glob can match one common name. bash's rule applies to
 * the first: unless it starts with a literal `.`, it never matches a name starting with `.`. A walk over pairs of
 * positions: at most 257 × 257 states.
 */
export function globPartsMayMeet(shellPart: string, protectedPart: string): boolean {
	const x = globTokens(shellPart);
	const y = globTokens(protectedPart);
	if (x === undefined || y === undefined) return true;
	if ((x[0] === "*" || x[0] === "?") && y[0] === "=.") return false;
	const seen = new Set<number>();
	const stack: [number, number][] = [[0, 0]];
	const width = y.length + 1;
	while (stack.length > 0) {
		const [i, j] = stack.pop() as [number, number];
		const key = i * width + j;
		if (seen.has(key)) continue;
		seen.add(key);
		if (i === x.length && j === y.length) return true;
		const p = x[i];
		const q = y[j];
		if (p === "*") stack.push([i + 1, j]);
		if (q === "*") stack.push([i, j + 1]);
		if (p === undefined || q === undefined) continue;
		// Both consume one character: two literals must agree.
		if (p.startsWith("=") && q.startsWith("=") && p !== q) continue;
		stack.push([p === "*" ? i : i + 1, q === "*" ? j : j + 1]);
	}
	return false;
}

/**
 * A path the command writes: judged like the write tool (protected always reviewed). `creates` is false for a file
 * the command only removes (`rm`, the source of `mv`).
 */
function judgeWritePath(word: BashWord, state: WalkState, judge: Judge, creates = true, folder = false): void {
	judgeLiteralPath(word);
	judgeWritePathText(word.value, state, judge, creates, folder);
}

/** Names of the context files Pi loads from the workspace folder, as they are usually written. */
const WORKSPACE_CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md", "AGENTS.override.md"] as const;

/**
 * The files whose links the shell follows for every call that may write: the workspace's context files, and the
 * files programs load from home when they start ({@link HOME_STARTUP_FILES}).
 */
function workspaceContextFiles(context: FloorContext): readonly string[] {
	let files = contextFilesOf.get(context);
	if (files === undefined) {
		const workspace = normalizeAbsolutePath(context.cwd);
		files = [
			...WORKSPACE_CONTEXT_FILE_NAMES.map((name) => (workspace === "/" ? `/${name}` : `${workspace}/${name}`)),
			...homeStartupFilePaths(context),
		];
		contextFilesOf.set(context, files);
	}
	return files;
}

/** {@link workspaceContextFiles} per context: a command may write 1,000 paths (a sixty-seventh review). */
const contextFilesOf = new WeakMap<FloorContext, readonly string[]>();

/** {@link HOME_STARTUP_FILES} as absolute paths below the context's home. */
function homeStartupFilePaths(context: FloorContext): string[] {
	return HOME_STARTUP_FILES.map((file) => resolveWrittenPath(file, context.home, context.home));
}

/**
 * Judges a login shell (`bash -lc`, `sh -lc`): it runs home's start-up files, and whatever they source
 * (`~/.cargo/env`) or put first on `PATH` (`~/bin`). With home in the workspace, or a start-up file linked into it
 * (a dotfiles repository), a workspace write could have changed any of those, so it is reviewed (a twenty-third
 * review). While facts are collected, the start-up files' links are asked for.
 */
function judgeLoginShell(judge: Judge): void {
	const { context } = judge;
	if (context.homeInWorkspace === true) throw new Review("not-read-only");
	const files = homeStartupFilePaths(context);
	if (judge.requests !== undefined) {
		for (const file of files) judge.requests.linkPaths.add(file);
		return;
	}
	const links = context.pathLinks;
	if (links === undefined) return;
	for (const file of files) {
		const target = links.get(file);
		if (typeof target !== "string") throw new Review("not-read-only");
		if (target !== file && isInWorkspace(target, judge.workspace, context.additionalDirectories))
			throw new Review("not-read-only");
	}
}

/**
 * True when `path` (absolute, links followed) is where a workspace context file or a home start-up file that is a
 * link leads, or lies below it: `AGENTS.md -> .github/copilot-instructions.md` makes a write of the latter a write
 * of what Pi loads into every later session's system prompt (a twentieth review), and a dotfiles repository's
 * `~/.bash_profile -> ~/dotfiles/bash_profile` a write of what `bash -lc` runs (a twenty-second review).
 */
function isLinkedContextFileTarget(path: string, context: FloorContext): boolean {
	const links = context.pathLinks;
	if (links === undefined) return false;
	return workspaceContextFiles(context).some((file) => {
		const target = links.get(file);
		// A write or move of a folder above the target replaces it too (`mv staged docs`; a twenty-third review).
		return (
			typeof target === "string" && target !== file && (isWithinAnyCase(target, path) || isWithinAnyCase(path, target))
		);
	});
}

/** A literal path the command writes, judged like the write tool: a workspace write, or the reason to review. */
function judgeWritePathText(path: string, state: WalkState, judge: Judge, creates = true, folder = false): void {
	if (HARMLESS_TARGETS.has(path)) return;
	// An empty folder (`mkdir`) runs nothing by its name: `src/components/Head` or `.vscode` is no file any tool loads
	// (a forty-fifth review of what the name rules sent to review needlessly).
	const armedName = (name: string) => !folder && reviewsEveryWrite(name);
	// A file named like an option (`./--pre=sh`) turns into one when a later glob expands to it.
	if (creates && path.split("/").some((part) => part.startsWith("-"))) throw new Review("writes");
	// Ignore files decide what rg and git read: `!.env` in `.ignore` makes `rg` print `.env`; attribute files what
	// git runs.
	if (armedName(path)) throw new Review("writes");
	// Pi loads a context file into every later session's system prompt.
	if (isPiContextFile(path)) throw new Review("protected-path");
	// Where the workspace's context files lead is asked for with every write.
	if (judge.requests !== undefined)
		for (const file of workspaceContextFiles(judge.context)) judge.requests.linkPaths.add(file);
	const resolved = resolveIn(path, state, judge);
	if (resolved === undefined) throw new Review("dynamic");
	// The repository around the folder it lands in may name a hooks folder there (a nested one's, a worktree's).
	if (judge.requests !== undefined) judge.requests.writeFolders.add(parentFolder(resolved));
	// The same by the folder it lands in: `cd .husky && echo id > pre-commit` writes a hook (a thirty-eighth review).
	if (armedName(resolved) || (!folder && writesGitArmedPath(resolved, judge.context))) throw new Review("writes");
	const pathClass = classifyOpened(path, resolved, state, judge, false, creates);
	if (pathClass === "protected") throw new Review("protected-path");
	// The same two by where a link leads (`notes.md -> AGENTS.md`, `lnk -> .ignore`).
	judgeLinkedWriteTarget(path, state, judge, creates, folder);
	const scope = judge.context.writeScope ?? "outside-workspace";
	if (scope === "always") throw new Review("writes");
	if (scope === "outside-workspace" && pathClass === "outside") throw new Review("outside-workspace");
	judge.allow("workspace-write");
	judge.wroteFiles = true;
	judge.writeCount++;
	if (nameSplitsInXargs(path)) {
		judge.wroteSplittingName = true;
		if (judge.concurrentSplitRead) throw new Review("writes");
	}
}

/**
 * Reviews a write through a link (per the link facts) to a file whose writes are reviewed in any case: an ignore or
 * attribute file, or a context file Pi loads (`notes.md -> AGENTS.md`, `lnk -> .ignore`).
 */
function judgeLinkedWriteTarget(path: string, state: WalkState, judge: Judge, creates: boolean, folder = false): void {
	const links = judge.context.pathLinks;
	const key = openedLinkKey(path, state, judge);
	const target = links === undefined || key === undefined ? null : linkTargetOf(links, key, creates);
	// A new empty folder (`mkdir`) runs nothing, whatever its name or where it lands.
	if (target !== null && !folder && (reviewsEveryWrite(target) || writesGitArmedPath(target, judge.context)))
		throw new Review("writes");
	if (target !== null && (isPiContextFile(target) || isLinkedContextFileTarget(target, judge.context)))
		throw new Review("protected-path");
}

function judgeRedirects(redirects: readonly BashRedirect[], state: WalkState, judge: Judge): void {
	for (const redirect of redirects) {
		const target = redirect.target;
		if (redirect.op === "<<" || redirect.op === "<<-") {
			const heredoc = redirect.heredoc;
			if (heredoc === undefined) throw new Review("unparsed");
			for (const body of heredoc.substitutions) judgeList(body, [state.cwd], judge);
			if (heredoc.expansions.length > 0) throw new Review("dynamic");
			continue;
		}
		judgeSubstitutions(target, state, judge);
		if (redirect.op === "<<<") {
			if (isDynamicWord(target)) throw new Review("dynamic");
			continue;
		}
		if ((redirect.op === ">&" || redirect.op === "<&") && isFdTarget(target.value)) continue;
		if (redirect.op === "<") {
			judgeOperandWord(target, state, judge, true);
			continue;
		}
		if (redirect.op === "<>") judgeOperandWord(target, state, judge, true);
		judgeWritePath(target, state, judge);
	}
}

function isFdTarget(value: string): boolean {
	if (value === "-") return true;
	if (value.length === 0 || value.length > 3) return false;
	for (const c of value) if (c < "0" || c > "9") return false;
	return true;
}

type VocabularyVerdict = "allowed" | ReviewReason;

/**
 * True when `ls` (recursive) or `du` follows the links below its folders (`ls -RL`, `du -L`, `--dereference`): it
 * then lists what lies wherever they lead.
 */
function followsLinksBelow(name: string, options: readonly BashWord[]): boolean {
	const dereferences = anyOption(options, (o) => shortFlag(o, "L") || longOptionOrPrefix(o, "--dereference"));
	if (name === "du") return dereferences;
	if (name !== "ls") return false;
	return dereferences && anyOption(options, (o) => shortFlag(o, "R") || longOptionOrPrefix(o, "--recursive"));
}

/** Options of a command, the words after them and whether `--` ended the options. */
function optionsAndOperands(args: readonly BashWord[]): { options: BashWord[]; operands: BashWord[] } {
	const options: BashWord[] = [];
	const operands: BashWord[] = [];
	let ended = false;
	for (const arg of args) {
		if (!ended && arg.value === "--") {
			ended = true;
			continue;
		}
		if (!ended && arg.value.startsWith("-") && arg.value.length > 1) options.push(arg);
		else operands.push(arg);
	}
	return { options, operands };
}

function anyOption(options: readonly BashWord[], test: (option: string) => boolean): boolean {
	return options.some((option) => test(option.value));
}

function longOption(option: string, name: string): boolean {
	return option === name || option.startsWith(`${name}=`);
}

/**
 * A long option or any abbreviation of it (getopt_long accepts a unique prefix: `--out=f` is `--output=f`), at
 * least `--` and one letter. Used for the options that write or run a program, so an ambiguous prefix counts too.
 */
function longOptionOrPrefix(option: string, name: string): boolean {
	if (!option.startsWith("--")) return false;
	const eq = option.indexOf("=");
	const given = eq < 0 ? option : option.slice(0, eq);
	return given.length >= 3 && name.startsWith(given);
}

/** A short-option bundle (`-ni`) containing the flag; long options never match. */
function shortFlag(option: string, flag: string): boolean {
	return option.startsWith("-") && !option.startsWith("--") && option.slice(1).includes(flag);
}

function readAll(words: readonly BashWord[], state: WalkState, judge: Judge): void {
	for (const word of words) judgeOperandWord(word, state, judge, true);
}

function noDynamic(words: readonly BashWord[]): void {
	for (const word of words) if (isDynamicWord(word)) throw new Review("dynamic");
}

/** The tokens of a print-only awk program: words, numbers, `$N`/`$NF`, strings, regexes and operators. */
const AWK_TOKEN =
	/\s*(?:(\$(?:\d{1,3}|NF))|([A-Za-z_]\w*)|(\d{1,9})|("[^"\\\n|>$]{0,200}")|(\/[A-Za-z0-9_ .:-]{1,100}\/)|(==|!=|>=|<=|&&|[<>{};,]))/y;

/**
 * True for an awk program that only prints: `{print $1}`, `{print $1, $NF}`, `NR>=10 && NR<=20`,
 * `/TODO/ {print NR}`. Nothing else is recognized, so `system()`, `getline`, a `|` or `>` in a print, `ENVIRON` and
 * every function stay out. One pass over the tokens, then a check of their sequence: linear in the program (a
 * sixty-sixth review found the regex this replaced backtracking for seconds on a run of blanks).
 */
export function isPrintOnlyAwkProgram(program: string): boolean {
	if (program.length > 1000) return false;
	const tokens: string[] = [];
	AWK_TOKEN.lastIndex = 0;
	while (AWK_TOKEN.lastIndex < program.length) {
		const at = AWK_TOKEN.lastIndex;
		const match = AWK_TOKEN.exec(program);
		if (match === null) return program.slice(at).trim() === "" && awkTokensPrintOnly(tokens);
		const [, field, word, number, text, regex] = match;
		const kind = field ? "item" : word ? word : number ? "number" : text ? "item" : regex ? "regex" : match[6];
		tokens.push(kind as string);
	}
	return awkTokensPrintOnly(tokens);
}

/** The sequence check of {@link isPrintOnlyAwkProgram}: `[pattern] [{ print [items] [;] }]`, not both empty. */
function awkTokensPrintOnly(tokens: readonly string[]): boolean {
	let at = 0;
	const next = () => tokens[at];
	const lineTest = (): boolean => {
		if (next() !== "NR" && next() !== "FNR") return false;
		at++;
		if (!["==", "!=", ">=", "<=", "<", ">"].includes(next() ?? "")) return false;
		at++;
		if (next() !== "number") return false;
		at++;
		return true;
	};
	let pattern = false;
	if (next() === "regex") {
		at++;
		pattern = true;
	} else if (next() === "NR" || next() === "FNR") {
		if (!lineTest()) return false;
		for (let tests = 1; next() === "&&"; tests++) {
			at++;
			if (tests > 3 || !lineTest()) return false;
		}
		pattern = true;
	}
	if (next() === undefined) return pattern;
	if (next() !== "{") return false;
	at++;
	if (next() !== "print") return false;
	at++;
	const item = (token: string | undefined) => token === "item" || token === "NR" || token === "NF" || token === "FNR";
	for (let items = 0; item(next()); items++) {
		if (items >= 16) return false;
		at++;
		if (next() === "," && item(tokens[at + 1])) at++;
	}
	if (next() === ";") at++;
	if (next() !== "}") return false;
	at++;
	return next() === undefined;
}

/**
 * awk allowed when it only prints (a sixty-fourth review: an everyday filter): options only `-F SEP`, a literal
 * {@link isPrintOnlyAwkProgram} program, and file operands of plain names read as `cat` reads them; an operand with `=` (awk's
 * `var=value`, which assigns) and every other option (`-f` program files, `-v`, gawk's `-i`/`-l` loads) are not.
 */
function judgeAwk(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	if (args.some((arg) => arg.literal === undefined)) return "dynamic";
	let index = 0;
	while (index < args.length) {
		const value = args[index]?.literal as string;
		if (value === "-F") index += 2;
		else if (value.startsWith("-F")) index++;
		else if (value === "--") {
			index++;
			break;
		} else if (value.startsWith("-")) return "not-read-only";
		else break;
	}
	const program = args[index]?.literal;
	if (program === undefined || !isPrintOnlyAwkProgram(program)) return "not-read-only";
	// Files are plain names: `var=value` assigns, and a name with blanks, quotes or `>` reads like more program (a
	// peer's case: `awk '{ print }' 'print > "out"'`).
	const files = args.slice(index + 1);
	if (files.some((file) => !/^[\w./@+,:-]+$/.test(file.value) || /^-./.test(file.value))) return "not-read-only";
	readAll(files, state, judge);
	return "allowed";
}

/** GNU date's long options that take a value, in the next word when not after `=`. */
const DATE_VALUE_OPTIONS = ["--date", "--file", "--reference", "--rfc-3339"];

/**
 * True when GNU date's arguments may set the clock: `-s`/`--set`, or an operand other than `+FORMAT` (`date
 * 010100002030`, the `MMDDhhmm[[CC]YY]` form). The values of `-d`, `-f`, `-r` and their long forms are no operands,
 * and `-I` takes its format in the same word (`-Iseconds` holds no `-s`; a sixty-fourth review).
 */
function dateSetsClock(args: readonly BashWord[]): boolean {
	let ended = false;
	for (let index = 0; index < args.length; index++) {
		const value = (args[index] as BashWord).value;
		if (!ended && value === "--") ended = true;
		else if (ended || !value.startsWith("-") || value === "-") {
			if (!value.startsWith("+")) return true;
		} else if (value.startsWith("--")) {
			if (longOptionOrPrefix(value, "--set")) return true;
			if (!value.includes("=") && value.length > 2 && DATE_VALUE_OPTIONS.some((name) => name.startsWith(value)))
				index++;
		} else {
			for (let at = 1; at < value.length; at++) {
				const flag = value[at] as string;
				if (flag === "s") return true;
				if (flag === "I") break;
				if ("dfr".includes(flag)) {
					if (at === value.length - 1) index++;
					break;
				}
			}
		}
	}
	return false;
}

/** grep's names: {@link judgeSearch} judges a word after an operand both as an option and as a file. */
const SEARCH_COMMANDS: ReadonlySet<string> = new Set(["grep", "egrep", "fgrep"]);

/** Commands that read their own arguments, whatever the platform's getopt does (`find . -name x`, `git log -5`). */
const OWN_ARGUMENT_PARSERS: ReadonlySet<string> = new Set([
	"find",
	"test",
	"[",
	"expr",
	"git",
	"xargs",
	"jq",
	"rg",
	"echo",
	"printf",
	"awk",
	"command",
	"type",
	"which",
	"cd",
	"set",
	"exit",
	"true",
	"false",
	":",
	"sleep",
	"seq",
]);

/** Commands that read their own arguments yet end options at `--`: a later `--` or `-x` is a file (a sixty-ninth review). */
const ENDS_OPTIONS_AT_DASHES: ReadonlySet<string> = new Set(["jq", "rg"]);

/**
 * The short options whose value is the next word, per command, as BSD's tools read them: the word after one is its
 * value, no operand (`sed -i '' -e …`, `head -n 5 f`).
 */
const OPTION_VALUE_LETTERS: Readonly<Record<string, string>> = {
	sed: "eif",
	head: "nc",
	tail: "nc",
	cut: "bcdf",
	sort: "kt",
	uniq: "fs",
	column: "cs",
	nl: "bdfhilnsvw",
	du: "dBI",
	tree: "LIP",
};

/**
 * True when an option-shaped word (`-f`, `--x`, or a `--` itself) follows an operand: where options end at the first
 * operand, it is a file. The value of a short option that takes one ({@link OPTION_VALUE_LETTERS}) is no operand.
 */
function optionAfterOperand(name: string, args: readonly BashWord[], bsd: boolean): boolean {
	// GNU's `-i` (under `POSIXLY_CORRECT`) takes no separate value; BSD's does.
	const letters = OPTION_VALUE_LETTERS[name] ?? "";
	const valueLetters = name === "sed" && !bsd ? letters.replace("i", "") : letters;
	let operandSeen = false;
	for (let index = 0; index < args.length; index++) {
		const value = (args[index] as BashWord).value;
		if (value === "--") return operandSeen;
		if (value.startsWith("-") && value.length > 1) {
			if (operandSeen) return true;
			if (!value.startsWith("--") && value.length === 2 && valueLetters.includes(value[1] as string)) index++;
		} else operandSeen = true;
	}
	return false;
}

/**
 * True when an option-shaped word follows the `--` that ended the options: any getopt reads it as a file. For `jq`
 * and `rg` (`firstIsProgram`), whose first word that is no option is the filter or pattern, that word may come right
 * after `--` (`rg -- -z file` searches for `-z`) when none came before.
 */
function optionShapedAfterEnd(args: readonly BashWord[], firstIsProgram = false): boolean {
	const end = args.findIndex((arg) => arg.value === "--");
	if (end < 0) return false;
	const programBefore = args.slice(0, end).some((arg) => !arg.value.startsWith("-"));
	const files = args.slice(end + 1 + (firstIsProgram && !programBefore ? 1 : 0));
	return files.some((arg) => arg.value.startsWith("-") && arg.value.length > 1);
}

/** Judges a command of the read-only vocabulary; `allowed`, or why it is not. */
function judgeVocabulary(name: string, args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	const { options, operands } = optionsAndOperands(args);
	if (options.some((option) => option.literal === undefined)) return "dynamic";
	// A brace word can expand to an option (`{-o,out}` is `-o out`, `{,}--pre=sh` is `--pre=sh`), wherever it stands
	// (a pattern slot included): the option rules cannot see it. And it shifts every word after it: an option's
	// value the rules skip, a script or filter slot, becomes that value plus words the command reads or runs
	// (`sed -l {5,~/.ssh/id_rsa} -e p`, `find -D {tree,~/.ssh} …`, `xargs -I {R,cat,f}`, `jq --rawfile x {a,.} f`,
	// `git log -p -- {src,.}`; a twenty-seventh review). Only commands whose every word is judged as a path when it
	// is a brace word take one.
	if (
		args.some(
			(arg) =>
				arg.expansions.includes("brace") &&
				(!BRACE_WORD_COMMANDS.has(name) ||
					(BRACE_SEQUENCE.test(arg.text)
						? expandBraceSequence(arg.text) === undefined
						: arg.value.includes("{-") || arg.value.includes(",-") || expandSimpleBraces(arg.value) === undefined)),
		)
	)
		return "dynamic";
	// A glob that starts with a wildcard can expand to a file named like an option (`[-]-pre=sh`, `*` meeting a file
	// `-o/root/.bashrc`): for the commands whose options run or write, such a word before `--` is not judged.
	if (OPTION_RISK_COMMANDS.has(name)) {
		const end = args.findIndex((arg) => arg.value === "--");
		if ((end < 0 ? args : args.slice(0, end)).some(startsWithWildcard)) return "dynamic";
	}
	// Where options end at the first operand (BSD's tools on macOS, GNU's under `POSIXLY_CORRECT`), an option word
	// after one is a file: `cp a b -f` copies into a link `-f` the repository ships (a sixty-seventh review). grep
	// judges those words both ways itself.
	if (
		judge.context.optionsEndAtOperand === true &&
		!OWN_ARGUMENT_PARSERS.has(name) &&
		!SEARCH_COMMANDS.has(name) &&
		optionAfterOperand(name, args, judge.context.bsdUserland === true)
	)
		return "dynamic";
	// After `--`, a word like `--` or `-f` is a file the operand rules skip as an option (`cat -- README.md --` with a
	// link `--` the repository ships; a sixty-eighth review).
	// The file operations judge every word after `--` as a path already (`rm -- -rf`).
	if (
		(!OWN_ARGUMENT_PARSERS.has(name) || ENDS_OPTIONS_AT_DASHES.has(name)) &&
		!Object.hasOwn(WORKSPACE_FILE_OPERATIONS, name) &&
		optionShapedAfterEnd(args, ENDS_OPTIONS_AT_DASHES.has(name))
	)
		return "dynamic";
	// With no path, these read the working directory: after `cd -` that is a folder the floor does not know.
	if (IMPLICIT_DOT_COMMANDS.has(name) && operands.length === 0) judgeReadPath(".", state, judge, true);
	switch (name) {
		case "awk":
			return judgeAwk(args, state, judge);
		case "printf":
			// `printf -v NAME` assigns a shell variable (PATH, say) for the commands after it; `?v` may expand to `-v`
			// (a file the repository ships; a twenty-fifth review).
			if (args[0]?.value.startsWith("-v") || args[0]?.expansions.includes("glob")) return "environment";
			noDynamic(args);
			for (const arg of args) if (arg.expansions.includes("glob")) judgeOperandWord(arg, state, judge, true);
			return "allowed";
		case "test":
		case "[":
			// `-v 'a[$(cmd)]'` evaluates an array subscript, and with it the substitution; a glob (`?v`, `-?`) may expand
			// to `-v` (a file the repository ships; a twenty-fifth review).
			if (
				args.some(
					(arg) => arg.value === "-v" || arg.value === "-R" || (arg.expansions.includes("glob") && arg.value !== "]"),
				)
			)
				return "dynamic";
			noDynamic(args);
			return "allowed";
		case "echo":
		case "realpath":
			// A glob lists a folder: the same as `ls` of it.
			noDynamic(args);
			for (const arg of args) if (arg.expansions.includes("glob")) judgeOperandWord(arg, state, judge, true);
			return "allowed";
		case "true":
		case "false":
		case ":":
		case "seq":
		case "expr":
		case "id":
		case "whoami":
		case "uname":
		case "basename":
		case "dirname":
		case "readlink":
		case "sleep":
		case "pwd":
		case "exit":
		case "tr":
			noDynamic(args);
			return "allowed";
		case "which":
		case "type":
			noDynamic(args);
			return "allowed";
		case "command":
			noDynamic(args);
			return args.length >= 2 && (args[0]?.literal === "-v" || args[0]?.literal === "-V") ? "allowed" : "not-read-only";
		case "set":
			// Shell options only; `set` alone prints every variable.
			if (args.length === 0) return "not-read-only";
			noDynamic(args);
			// Not `-k` (every NAME=value argument joins the environment) or `-a` (every assignment is exported).
			return args.every((arg) => /^[-+][euxvCo]+$/.test(arg.value) || SAFE_SHELL_OPTION_NAMES.has(arg.value))
				? "allowed"
				: "not-read-only";
		case "cd": {
			if (args.length > 1) return "not-read-only";
			const target = args[0];
			if (target === undefined) {
				// Home is outside the workspace: the commands after it read there.
				judgeReadPath(normalizeAbsolutePath(judge.context.home), state, judge, true);
				state.cwd = normalizeAbsolutePath(judge.context.home);
				return "allowed";
			}
			if (target.literal === "-") {
				state.cwd = undefined;
				return "allowed";
			}
			// `cd -L`, `cd -P`, `cd --` go home; `cd ''` stays: options and empty names are not followed.
			if (target.value === "" || (target.value.startsWith("-") && target.value !== "-")) return "not-read-only";
			judgeOperandWord(target, state, judge, true);
			if (
				target.expansions.includes("glob") ||
				target.expansions.includes("brace") ||
				(judge.context.cdSearchPath === true && searchesCdPath(target.value))
			) {
				state.cwd = undefined;
				return "allowed";
			}
			const logical = resolveIn(target.value, state, judge);
			state.cwd = cdMayLandElsewhere(target.value, logical, state, judge) ? undefined : logical;
			return "allowed";
		}
		case "ls":
		case "cat":
		case "head":
		case "tail":
		case "wc":
		case "nl":
		case "cut":
		case "paste":
		case "rev":
		case "tac":
		case "column":
		case "cmp":
		case "comm":
		case "stat":
		case "du":
		case "df":
		case "md5sum":
		case "sha1sum":
		case "sha256sum":
		case "cksum":
		case "od":
		case "strings":
			// binutils read `@FILE` as more arguments, and print what they cannot use.
			// So may a brace word (`{@.env,x}`) or a glob that starts with a wildcard (`*` after `touch @.env`; a
			// nineteenth review).
			if (
				name === "strings" &&
				args.some(
					(arg) =>
						arg.value.startsWith("@") ||
						arg.expansions.includes("brace") ||
						(arg.expansions.includes("glob") && /^[*?[]/.test(arg.value)),
				)
			)
				return "not-read-only";
			// `--files0-from=LIST` and `md5sum -c SUMS` read the files a list names, which the floor cannot see.
			if (anyOption(options, (o) => longOptionOrPrefix(o, "--files0-from"))) return "not-read-only";
			if (name.endsWith("sum") && anyOption(options, (o) => shortFlag(o, "c") || longOptionOrPrefix(o, "--check")))
				return "not-read-only";
			// Following every link below a folder (`ls -RL`, `du -L`) walks wherever the links lead (decision 0023).
			if (followsLinksBelow(name, options)) return "protected-path";
			readAll(args, state, judge);
			return "allowed";
		case "diff":
			// `-l` (`--paginate`) runs `pr` on the output.
			if (anyOption(options, (o) => shortFlag(o, "l") || longOptionOrPrefix(o, "--paginate"))) return "not-read-only";
			// A folder operand makes diff read the files in it (`diff -N e .` prints the root's `.env`), and `-r`
			// every file below: the workspace root or above is reviewed.
			if (operands.some((operand) => reachesWorkspaceRoot(operand, state, judge))) return "protected-path";
			// `--to-file=.` and `--from-file=.` name a folder too.
			for (let i = 0; i < args.length; i++) {
				const value = (args[i] as BashWord).value;
				if (!longOptionOrPrefix(value, "--to-file") && !longOptionOrPrefix(value, "--from-file")) continue;
				const eq = value.indexOf("=");
				const folder = eq >= 0 ? value.slice(eq + 1) : (args[i + 1] as BashWord | undefined)?.value;
				if (folder === undefined || isRootOrAbove(folder, state, judge)) return "protected-path";
				judgeSearchTree(folder, false, true, state, judge);
			}
			readAll(args, state, judge);
			// Below a folder operand, the shell looks for protected entries (`diff -r a b` reads `b/.env`).
			judgeDiffTrees(operands, state, judge);
			return "allowed";
		case "uniq":
			// uniq INPUT OUTPUT writes OUTPUT (a glob may expand to two).
			// So may a brace word (`uniq {a,AGENTS.md}`).
			if (
				operands.length > 1 ||
				args.some((arg) => arg.expansions.includes("glob") || arg.expansions.includes("brace"))
			)
				return "writes";
			readAll(args, state, judge);
			return "allowed";
		case "sort":
			if (
				anyOption(
					options,
					(o) =>
						shortFlag(o, "o") ||
						longOptionOrPrefix(o, "--output") ||
						longOptionOrPrefix(o, "--compress-program") ||
						longOptionOrPrefix(o, "--files0-from") ||
						shortFlag(o, "T") ||
						longOptionOrPrefix(o, "--temporary-directory"),
				)
			)
				return "writes";
			readAll(args, state, judge);
			return "allowed";
		case "tree":
			// -o FILE, also inside a bundle (`-Cofile`); `-R` with `-H` writes `00Tree.html` into every folder;
			// `--fromfile` reads a listing.
			if (
				anyOption(
					options,
					(o) =>
						shortFlag(o, "o") ||
						shortFlag(o, "R") ||
						shortFlag(o, "H") ||
						longOptionOrPrefix(o, "--output") ||
						longOptionOrPrefix(o, "--fromfile"),
				)
			)
				return "writes";
			// `-l` follows links to folders, wherever they lead (decision 0023).
			if (anyOption(options, (o) => shortFlag(o, "l"))) return "protected-path";
			readAll(args, state, judge);
			return "allowed";
		case "date":
			if (dateSetsClock(args)) return "writes";
			readAll(args, state, judge);
			return "allowed";
		case "base64":
			if (anyOption(options, (o) => shortFlag(o, "o") || longOptionOrPrefix(o, "--output"))) return "writes";
			readAll(args, state, judge);
			return "allowed";
		case "file":
			// `--co` is `--compile` (getopt takes any unique prefix); `-p` resets the access time of what it reads.
			if (
				anyOption(
					options,
					(o) =>
						shortFlag(o, "C") ||
						shortFlag(o, "p") ||
						longOptionOrPrefix(o, "--compile") ||
						longOptionOrPrefix(o, "--preserve-date"),
				)
			)
				return "writes";
			// `-z`/`-Z` look inside compressed files by running their decompressors (`zstd`, `lz4`) from PATH.
			if (
				anyOption(
					options,
					(o) =>
						shortFlag(o, "z") ||
						shortFlag(o, "Z") ||
						longOptionOrPrefix(o, "--uncompress") ||
						longOptionOrPrefix(o, "--uncompress-noreport"),
				)
			)
				return "not-read-only";
			// `-f LIST` reads the files a list names.
			if (anyOption(options, (o) => shortFlag(o, "f") || longOptionOrPrefix(o, "--files-from"))) return "not-read-only";
			// `-m MAGIC` loads each file of a colon-separated list, and of a folder every file in it, as magic, and
			// prints every line it cannot parse (an eighteenth and a twenty-first review).
			if (anyOption(options, (o) => shortFlag(o, "m") || longOptionOrPrefix(o, "--magic-file"))) return "not-read-only";
			readAll(args, state, judge);
			return "allowed";
		case "grep":
		case "egrep":
		case "fgrep":
			// Perl-compatible patterns (-P) are left to the reviewer.
			if (anyOption(options, (o) => shortFlag(o, "P") || o === "--perl-regexp")) return "not-read-only";
			return judgeSearch(args, options, state, judge, false);
		case "rg":
			if (
				anyOption(
					options,
					(o) =>
						longOption(o, "--pre") ||
						longOption(o, "--pre-glob") ||
						longOption(o, "--hostname-bin") ||
						longOption(o, "--search-zip") ||
						// `-zE=auto` is `-z` then `-E =auto`: any `z` before the first `=` of a short bundle.
						(!o.startsWith("--") && o.slice(0, o.includes("=") ? o.indexOf("=") : undefined).includes("z")),
				)
			)
				return "not-read-only";
			return judgeSearch(args, options, state, judge, true);
		case "find":
			return judgeFind(args, state, judge);
		case "xargs":
			return judgeXargs(args, state, judge);
		case "sed":
			return judgeSed(args, state, judge);
		case "jq":
			return judgeJq(args, state, judge);
		case "git":
			return judgeGit(args, state, judge);
		default:
			// A versioned interpreter name (`python3.9 --version`) is probed like its base name. With a workspace folder
			// on `PATH` the program may be one whose startup the agent wrote (`.venv/bin/pip` runs any `.pth` file).
			// Through a version manager's shims it is one a workspace file picks (`.python-version`, whose words pyenv
			// prints: a link there to `.env` shows the secret).
			if (
				(judge.context.workspaceOnPath === true || judge.context.versionShims === true) &&
				(VERSION_PROBES.has(name) || isVersionedPython(name))
			)
				return "not-read-only";
			if ((VERSION_PROBES.has(name) || isVersionedPython(name)) && args.length === 1) {
				const flag = args[0]?.literal;
				if (
					flag === "--version" ||
					(flag === "-V" && name.startsWith("python")) ||
					// Node, npm and tsc take `-v` for `--version`.
					(flag === "-v" && (name === "node" || name === "npm" || name === "tsc")) ||
					(flag === "version" && name === "go")
				)
					return "allowed";
			}
			if ((name === "pip" || name === "pip3") && isPipListing(args)) return "allowed";
			if (name === "mkdir") {
				// Creating directories is a workspace write, judged like the write tool.
				if (operands.length === 0) return "not-read-only";
				if (options.some((o) => !/^-[pv]+$/.test(o.value) && o.value !== "--parents")) return "not-read-only";
				for (const operand of operands) judgeWritePath(operand, state, judge, true, true);
				return "allowed";
			}
			if (Object.hasOwn(WORKSPACE_FILE_OPERATIONS, name))
				return judgeFileOperation(name, options, operands, state, judge);
			return "not-read-only";
	}
}

/**
 * The file operations the floor judges as workspace writes, with the only options each may carry: none recurses,
 * makes a link, takes a value or asks a question. `rm` removes, `touch` creates or stamps, `cp` writes its
 * destination, `mv` removes its sources and writes its destination.
 */
const WORKSPACE_FILE_OPERATIONS: Readonly<
	Record<string, { readonly short: string; readonly long: readonly string[] }>
> = {
	rm: { short: "fv", long: ["--force", "--verbose"] },
	touch: { short: "acm", long: ["--no-create"] },
	cp: { short: "fnpv", long: ["--force", "--no-clobber", "--preserve", "--verbose"] },
	mv: { short: "fnv", long: ["--force", "--no-clobber", "--verbose"] },
};

/**
 * `rm`, `touch`, `cp` and `mv` on named files: a workspace write exactly where the write tool would be allowed.
 * Every path the command removes or writes must be a literal (no glob, brace or expansion), unprotected workspace
 * path; `cp` reads its sources like any read. A destination may be a directory, so the file each source would
 * land on there is judged as well. Any other option (`-r`, `-i`, `-s`, `-t DIR`, `--backup`) is reviewed.
 */
/** The most operands `rm`, `touch`, `cp` or `mv` may name for the floor to judge them; more go to review. */
export const MAX_FILE_OPERATION_OPERANDS = 256;

function judgeFileOperation(
	name: string,
	options: readonly BashWord[],
	operands: readonly BashWord[],
	state: WalkState,
	judge: Judge,
): VocabularyVerdict {
	const allowed = WORKSPACE_FILE_OPERATIONS[name] as { short: string; long: readonly string[] };
	// Each operand is a write judged against every rule: past a bound the floor does not spend the time (a
	// sixty-seventh review timed `mv` of 1,000 sources at a second), and no agent names that many.
	if (operands.length > MAX_FILE_OPERATION_OPERANDS) return "not-read-only";
	for (const option of options) {
		const value = option.value;
		const short = !value.startsWith("--") && [...value.slice(1)].every((c) => allowed.short.includes(c));
		if (!short && !allowed.long.includes(value)) return "not-read-only";
	}
	if (name === "rm" || name === "touch") {
		if (operands.length === 0) return "not-read-only";
		for (const operand of operands) judgeFileOperand(operand, state, judge, name === "touch");
		if (name === "rm") judge.removedFiles = true;
		return "allowed";
	}
	if (operands.length < 2) return "not-read-only";
	const destination = operands[operands.length - 1] as BashWord;
	judgeFileOperand(destination, state, judge);
	for (const source of operands.slice(0, -1)) {
		if (name === "mv") judgeFileOperand(source, state, judge, false);
		else {
			judgeLiteralPath(source);
			judgeOperandWord(source, state, judge, true);
		}
		judgeWritePathText(`${destination.value}/${baseName(source.value)}`, state, judge);
	}
	// `mv conf sub/` may move a folder holding `.env` into a tree the shell looked at before the command ran, and
	// `mv kdir k2` a link to where a later path looks (decision 0023). Its own paths are judged before it moves.
	if (name === "mv") {
		// Renaming a folder a protected glob names by its parts takes what lies below out of it: `mv .kube k` when the
		// workspace is home, `mv node_modules nm && mv e node_modules` under a workspace folder on `PATH`.
		// By name and by where its links lead (`mv hl/.kube k` with `hl -> ~`): a source is renamed itself, so its
		// folder's links count; the destination's own link is followed.
		const links = judge.context.pathLinks;
		if (judge.requests !== undefined) {
			for (const operand of operands) {
				const resolved = resolveIn(operand.value, state, judge);
				if (resolved !== undefined) judge.requests.movedPaths.add(resolved);
			}
			for (const source of operands.slice(0, -1)) {
				const replaced = resolveIn(`${destination.value}/${baseName(source.value)}`, state, judge);
				if (replaced !== undefined) judge.requests.movedPaths.add(replaced);
			}
		}
		for (const operand of operands) {
			const resolved = resolveIn(operand.value, state, judge);
			if (resolved === undefined || holdsProtectedByName(resolved, judge.context)) throw new Review("protected-path");
			// A folder written under another name, renamed onto a tool's config folder (a fortieth review).
			if (namesArmedFolder(operand.value) || renamesArmedFolder(resolved, state, judge)) throw new Review("writes");
			const operandKey = openedLinkKey(operand.value, state, judge);
			const follows = operand === destination;
			const led = links === undefined || operandKey === undefined ? null : linkTargetOf(links, operandKey, follows);
			if (led !== null && holdsProtectedByName(led, judge.context)) throw new Review("protected-path");
			// The same by where a link leads (`mv stage/tools l` with `l -> a` and `a/tools/hooks` armed; a
			// forty-sixth review's lead).
			if (led !== null && renamesArmedFolder(led, state, judge)) throw new Review("writes");
		}
		// Where it wrote, by name and by where the destination's links lead (`mv ka sl/x` with `sl -> e` writes `e/x`).
		const key = openedLinkKey(destination.value, state, judge);
		const target = links === undefined || key === undefined ? null : linkTargetOf(links, key);
		treesMayChange(judge, [resolveIn(destination.value, state, judge) ?? "/", ...(target === null ? [] : [target])]);
		if (state.cwd !== judge.workspace) judge.directoryMayHaveMoved = true;
	}
	return "allowed";
}

/** A file `rm`, `touch`, `mv` or `cp` changes: a workspace write; a device (`rm /dev/null`) is never harmless here. */
function judgeFileOperand(word: BashWord, state: WalkState, judge: Judge, creates = true): void {
	const resolved = resolveIn(word.value, state, judge);
	if (resolved !== undefined && (resolved === "/dev" || resolved.startsWith("/dev/"))) throw new Review("writes");
	judgeWritePath(word, state, judge, creates);
}

/** Refuses a path word the shell would expand (a glob, brace or parameter word): the floor cannot see its files. */
function judgeLiteralPath(word: BashWord): void {
	if (isDynamicWord(word) || word.expansions.includes("glob") || word.expansions.includes("brace")) {
		throw new Review("dynamic");
	}
}

const PIP_LISTING_OPTIONS = new Set([
	"-l",
	"--local",
	"--user",
	"-e",
	"--editable",
	"--exclude-editable",
	"--include-editable",
	"--not-required",
	"-v",
	"--verbose",
	"-q",
	"--quiet",
	"--files",
	"--all",
	"--format",
	"freeze",
	"json",
	"columns",
]);

/** `python3.9`, `python2.7`: a Python interpreter with its version in the name. */
function isVersionedPython(name: string): boolean {
	return /^python[23]\.\d{1,2}$/.test(name);
}

function isPipListing(args: readonly BashWord[]): boolean {
	const sub = args[0]?.literal;
	if (sub !== "list" && sub !== "show" && sub !== "freeze") return false;
	// Not `-o`/`--outdated`/`-u`/`--uptodate` (they ask the index) or any other option that names an index or file.
	return args
		.slice(1)
		.every(
			(arg) =>
				arg.literal !== undefined &&
				!arg.literal.includes("/") &&
				(!arg.literal.startsWith("-") || PIP_LISTING_OPTIONS.has(arg.literal) || arg.literal.startsWith("--format=")),
		);
}

/** grep and rg: the first operand is the pattern unless `-e`/`-f`/`--regexp`/`--file` (or `rg --files`) is given. */
function judgeSearch(
	args: readonly BashWord[],
	options: readonly BashWord[],
	state: WalkState,
	judge: Judge,
	ripgrep: boolean,
): VocabularyVerdict {
	noDynamic(args);
	const scan = scanSearchWords(args, ripgrep);
	// A glob in the pattern slot or an option's value expands to several words: the first is the pattern, the others
	// files the floor never judged (`grep ''*` reads every file here). So does a brace word, option-shaped or not
	// (`grep {token,~/.kube/config} x`, `grep -r {s..t} x`, `grep -m {1,f} x`: a twenty-sixth review).
	const operands = new Set(scan.operands);
	if (
		args.some(
			(arg) =>
				!operands.has(arg) &&
				(arg.expansions.includes("brace") || (arg.expansions.includes("glob") && !arg.value.startsWith("-"))),
		)
	) {
		throw new Review("dynamic");
	}
	for (const file of scan.files) judgeReadPath(file, state, judge, true);
	for (const word of scan.operands) judgeOperandWord(word, state, judge, true);
	// Where options may end at the first operand (the shell says so on macOS and under `POSIXLY_CORRECT`), every word
	// after it may be a file: `grep -rn x src --include=*.py` then searches a folder or link `--include=*.py` the
	// repository may ship. macOS's BSD grep reads options with getopt_long, which permutes as GNU's does unless
	// `POSIXLY_CORRECT` is set; GNU grep first on PATH follows that variable too. So grep is judged both ways, and
	// allowed only where either reading is, instead of being reviewed for the option's place.
	// The GNU reading judges its operands, but an option-shaped one (`--line-number`, `--inc=x`) only by its value:
	// the other reading takes each by its whole name (a seventy-first review).
	const filesWhereOptionsEnd =
		judge.context.optionsEndAtOperand === true && !ripgrep
			? scan.afterFirstOperand.filter((word) => !operands.has(word) || word.value.startsWith("-"))
			: [];
	for (const word of filesWhereOptionsEnd) {
		judgeReadPath(word.value, state, judge, true, word.expansions.includes("glob"));
	}
	const roots = [...scan.roots, ...filesWhereOptionsEnd];
	const recursive = scan.recursive || searchesHiddenTree(options, ripgrep);
	// With no path, rg and a recursive grep search the working directory.
	if (scan.roots.length === 0 && (ripgrep || recursive)) judgeReadPath(".", state, judge, true);
	if (recursive) {
		// A search of the workspace root is judged by its tree like any other (the lister opens `.git/` only when
		// its config holds no credential, decision 0019); above the root, or where a glob may expand to `..` or a
		// protected folder, it is reviewed. An option the scan does not know may have taken the next word, so the
		// roots are then unknown.
		if (scan.uncertain || roots.some((root) => reachesAboveWorkspace(root, state, judge))) {
			throw new Review("protected-path");
		}
	}
	if (recursive || ripgrep) {
		// Below a named folder, the shell looks for protected entries (`grep -r x sub` reads `sub/.env`; rg skips
		// hidden entries unless told otherwise, but reads an unhidden `sub/key.pem`).
		const followsLinks = ripgrep
			? anyOption(options, (o) => shortFlag(o, "L") || longOption(o, "--follow"))
			: anyOption(
					options,
					// BSD grep's `-S` (macOS) follows every link below the root, as `-R` does (a sixty-eighth review).
					(o) =>
						shortFlag(o, "R") || isDereferenceRecursive(o) || (judge.context.bsdUserland === true && shortFlag(o, "S")),
				);
		if (scan.roots.length === 0) judgeSearchTree(".", !recursive, followsLinks, state, judge);
		for (const root of roots) judgeSearchTreeWord(root, !recursive, followsLinks, state, judge);
	}
	return "allowed";
}

/**
 * A tree a recursive read walks, named by a word: reviewed unless the shell found no protected entry in it that the
 * reader would read. A brace word is each of its words; a glob is walked whole from its
 * literal folder (`src/*` from `src`, hidden entries included), which holds every tree it can expand to.
 */
function judgeSearchTreeWord(
	word: BashWord,
	skipsHidden: boolean,
	followsLinks: boolean,
	state: WalkState,
	judge: Judge,
	splitsNames = false,
): void {
	const paths = pathsOfWord(word);
	if (paths === undefined) throw new Review("dynamic");
	const glob = word.expansions.includes("glob");
	for (const path of paths) {
		if (glob && hasGlobCharacter(path)) {
			judgeSearchTree(literalFolderOf(path), false, followsLinks, state, judge, undefined, splitsNames);
		} else judgeSearchTree(path, skipsHidden, followsLinks, state, judge, undefined, splitsNames);
	}
}

/** The paths a word names: each word of a simple brace expansion, or its value; undefined when they cannot be listed. */
function pathsOfWord(word: BashWord): string[] | undefined {
	return word.expansions.includes("brace") ? expandSimpleBraces(word.value) : [word.value];
}

function hasGlobCharacter(path: string): boolean {
	return path.includes("*") || path.includes("?") || path.includes("[");
}

/** The folder above a glob's first wildcard part: `src/*.py` → `src`, `*` → `.`, `/x/*` → `/x`, `/*` → `/`. */
function literalFolderOf(path: string): string {
	const parts = path.split("/");
	const first = parts.findIndex((part) => hasGlobCharacter(part));
	const literal = parts.slice(0, first < 0 ? parts.length : first).join("/");
	return literal === "" ? (path.startsWith("/") ? "/" : ".") : literal;
}

/**
 * One tree a recursive read walks, by path: in collecting mode, recorded for the shell; otherwise reviewed unless
 * the shell's fact for it is `none`. A move earlier in the command makes the fact stale.
 */
function judgeSearchTree(
	path: string,
	skipsHidden: boolean,
	followsLinks: boolean,
	state: WalkState,
	judge: Judge,
	pattern?: readonly string[],
	splitsNames = false,
): void {
	const root = resolveIn(path, state, judge);
	if (root === undefined) throw new Review("dynamic");
	if (judge.movedFiles) throw new Review("protected-path");
	// A tree that holds home's own configuration (Pi started in home: `grep -rn TOKEN ~`) reads outside the workspace.
	if (holdsHomeConfig(root, judge)) throw new Review("outside-workspace");
	const request: SearchTreeRequest = {
		root,
		skipsHidden,
		followsLinks,
		...(pattern === undefined ? {} : { pattern }),
		...(splitsNames ? { splitsNames: true } : {}),
	};
	const key = searchTreeKey(request);
	// The shell lists the tree by the names below its root: a root reached through a link is another tree.
	const linkKey = openedLinkKey(path, state, judge);
	if (judge.requests !== undefined) {
		judge.requests.searchTrees.set(key, request);
		if (linkKey !== undefined) judge.requests.linkPaths.add(linkKey);
		return;
	}
	const links = judge.context.pathLinks;
	if (links !== undefined && (linkKey === undefined || linkedPathClass(links, linkKey, root, () => "protected")))
		throw new Review("protected-path");
	// A tree walked by a part that may still run after the call returns is walked then (see `classifyOpened`).
	if (judge.concurrent > 0) throw new Review("dynamic");
	if (judge.context.searchTrees?.get(key) !== "none") throw new Review("protected-path");
}

/**
 * True when a tree rooted at `root` (absolute, normalized) holds home's own configuration while home lies in the
 * workspace (see `isHomeConfigPath`; a root inside that configuration is judged as a read outside the workspace).
 */
function holdsHomeConfig(root: string, judge: Judge): boolean {
	return judge.context.homeInWorkspace === true && isWithin(root, judge.home);
}

/** The operands of `diff` or `git diff --no-index`, each a tree (a file is a tree of one entry; diff follows links). */
function judgeDiffTrees(operands: readonly BashWord[], state: WalkState, judge: Judge): void {
	for (const operand of operands) {
		if (isBareProcessSubstitution(operand) || operand.value === "-" || HARMLESS_TARGETS.has(operand.value)) continue;
		judgeSearchTreeWord(operand, false, true, state, judge);
	}
}

/** A command that may move files into a tree (`mv dir sub/`, `git stash pop`): tree facts read before are stale. */
function treesMayChange(judge: Judge, destinations?: readonly string[]): void {
	judge.movedFiles = true;
	judge.removedFiles = true;
	// Where the move may have put a link (decision 0023): below its destinations, or anywhere (`git stash pop`).
	if (destinations === undefined) judge.movedTo = undefined;
	else judge.movedTo?.push(...destinations);
	judge.writeCount++;
}

/** What a grep or rg command line names: files it reads for patterns, operands and search roots. */
interface SearchWords {
	patternGiven: boolean;
	recursive: boolean;
	/** An option the scan does not know came without `=`: it may have taken the next word as its value. */
	uncertain: boolean;
	readonly files: string[];
	readonly operands: BashWord[];
	readonly roots: BashWord[];
	/** Every word after the first one that is no option (the pattern, or a file after `-e`), whatever it is. */
	afterFirstOperand: readonly BashWord[];
}

/**
 * Walks grep or rg words in order so that option values are not mistaken for the pattern: bundles (`-rne x`, `-e.`,
 * `-fFILE`) included, and for grep any unique prefix of a long option (`--fil` is `--file`).
 */
function scanSearchWords(args: readonly BashWord[], ripgrep: boolean): SearchWords {
	const valueOptions = ripgrep ? RG_VALUE_OPTIONS : GREP_VALUE_OPTIONS;
	const valueShorts = ripgrep ? RG_VALUE_SHORTS : GREP_VALUE_SHORTS;
	const out: SearchWords = {
		patternGiven: ripgrep && args.some((arg) => longOption(arg.value, "--files")),
		recursive: false,
		uncertain: false,
		files: [],
		operands: [],
		roots: [],
		afterFirstOperand: [],
	};
	/** The first word after the options, the pattern unless a later -e/-f gives one (grep and rg permute). */
	let pattern: BashWord | undefined;
	let firstOperand: number | undefined;
	let ended = false;
	for (let i = 0; i < args.length; i++) {
		const word = args[i] as BashWord;
		const value = word.value;
		if (!ended && value === "--") {
			ended = true;
			continue;
		}
		if (!ended && value.startsWith("--") && value.length > 2) {
			const eq = value.indexOf("=");
			const name = eq < 0 ? value : value.slice(0, eq);
			const attached = eq < 0 ? undefined : value.slice(eq + 1);
			const is = (option: string) => (ripgrep ? name === option : name.length >= 4 && option.startsWith(name));
			const takeValue = () => attached ?? (args[++i] as BashWord | undefined)?.value;
			if (is("--regexp") || is("--file")) {
				out.patternGiven = true;
				const file = takeValue();
				if (is("--file") && file !== undefined) out.files.push(file);
			} else if (is("--exclude-from") || is("--ignore-file")) {
				const file = takeValue();
				if (file !== undefined) out.files.push(file);
			} else if (name === "--include" || name === "--glob" || name === "--iglob") takeValue();
			else if (!ripgrep && (is("--directories") || is("--devices"))) {
				// GNU grep takes any unambiguous prefix of `recurse` (`-d rec`; a twentieth review): anything but `read` or
				// `skip` counts as recursive.
				const action = takeValue();
				if (is("--directories") && action !== "read" && action !== "skip") out.recursive = true;
			} else if (attached === undefined && valueOptions.has(name)) i++;
			else {
				if (attached === undefined && !SEARCH_FLAG_OPTIONS.some((flag) => (ripgrep ? flag === name : is(flag)))) {
					out.uncertain = true;
				}
				if (!SEARCH_FILTER_OPTIONS.includes(name)) out.operands.push(word);
			}
			continue;
		}
		if (!ended && value.startsWith("-") && value.length > 1) {
			for (let k = 1; k < value.length; k++) {
				const flag = value[k] as string;
				if (!valueShorts.includes(flag)) continue;
				const rest = value.slice(k + 1);
				const operand = rest !== "" ? rest : (args[++i] as BashWord | undefined)?.value;
				if (flag === "e") out.patternGiven = true;
				if (flag === "f") {
					out.patternGiven = true;
					if (operand !== undefined) out.files.push(operand);
				}
				if (flag === "d" && !ripgrep && operand !== "read" && operand !== "skip") out.recursive = true;
				break;
			}
			continue;
		}
		firstOperand ??= i;
		if (!out.patternGiven && pattern === undefined) {
			pattern = word;
			continue;
		}
		out.roots.push(word);
		out.operands.push(word);
	}
	if (out.patternGiven && pattern !== undefined) {
		out.roots.push(pattern);
		out.operands.push(pattern);
	}
	if (firstOperand !== undefined) out.afterFirstOperand = args.slice(firstOperand + 1);
	return out;
}

/** grep -r/-R/--recursive/-d recurse, or rg told to read hidden or ignored files (`--hidden`, `-u`, `-.`). */
function searchesHiddenTree(options: readonly BashWord[], ripgrep: boolean): boolean {
	return anyOption(options, (o) =>
		ripgrep
			? shortFlag(o, "u") ||
				shortFlag(o, ".") ||
				// rg 13 takes `--switch=ANYTHING` as the switch (`--hidden=1`; a twenty-second review).
				longOption(o, "--hidden") ||
				o.startsWith("--no-ignore") ||
				longOption(o, "--unrestricted") ||
				// A glob or file type whitelists what it matches, hidden entries included (`rg -g '*' x` reads `.env`,
				// `rg -t sh x` reads `.bashrc`), as does an extra ignore file's `!` line.
				shortFlag(o, "g") ||
				shortFlag(o, "t") ||
				["--glob", "--iglob", "--type", "--type-add", "--ignore-file"].some((name) => longOption(o, name))
			: shortFlag(o, "r") ||
				shortFlag(o, "R") ||
				o === "-drecurse" ||
				(o.startsWith("--") && o.length >= 5 && "--recursive".startsWith(o)) ||
				isDereferenceRecursive(o) ||
				o === "--directories=recurse",
	);
}

/** grep's `--dereference-recursive` or a prefix of it long enough to tell it from `--devices`/`--directories`. */
function isDereferenceRecursive(option: string): boolean {
	return option.length >= 5 && "--dereference-recursive".startsWith(option);
}

/** True when a search root is the workspace root, a folder above it, or unknown. */
function reachesWorkspaceRoot(root: BashWord, state: WalkState, judge: Judge): boolean {
	// A brace word is each of its words (`{,}.` is `.`); a glob may expand to a protected folder (`.*` to `.git`).
	const paths = pathsOfWord(root);
	if (paths === undefined) return true;
	return paths.some(
		(path) => (root.expansions.includes("glob") && mayMatchProtected(path, judge)) || isRootOrAbove(path, state, judge),
	);
}

/**
 * A recursive search root that reaches past what the tree lister can judge: a folder above the workspace root, an
 * unknown one, or a glob whose parts could reach hidden entries or `..` (`.*`; see {@link globReachOf}). Any other
 * glob root is walked whole from its literal folder, which holds every tree it can expand to.
 */
function reachesAboveWorkspace(root: BashWord, state: WalkState, judge: Judge): boolean {
	const paths = pathsOfWord(root);
	if (paths === undefined) return true;
	return paths.some((path) => {
		if (root.expansions.includes("glob") && hasGlobCharacter(path) && globReachOf(path) === undefined) return true;
		const resolved = resolveIn(path === "" ? "." : path, state, judge);
		return resolved === undefined || (resolved !== judge.workspace && isWithin(resolved, judge.workspace));
	});
}

/** True when a folder path (`""` is `.`) is the workspace root, a folder above it, or unknown. */
function isRootOrAbove(path: string, state: WalkState, judge: Judge): boolean {
	const resolved = resolveIn(path === "" ? "." : path, state, judge);
	return resolved === undefined || isWithin(resolved, judge.workspace);
}

/** Long options of grep and rg known to take no value (a grep prefix of one counts too). */
const SEARCH_FLAG_OPTIONS = [
	"--line-number",
	"--ignore-case",
	"--smart-case",
	"--case-sensitive",
	"--files-with-matches",
	"--files-without-match",
	"--count",
	"--word-regexp",
	"--line-regexp",
	"--invert-match",
	"--no-filename",
	"--with-filename",
	"--only-matching",
	"--quiet",
	"--silent",
	"--recursive",
	"--dereference-recursive",
	"--fixed-strings",
	"--extended-regexp",
	"--basic-regexp",
	"--null",
	"--null-data",
	"--text",
	"--binary",
	"--no-messages",
	"--byte-offset",
	"--initial-tab",
	"--no-heading",
	"--heading",
	"--hidden",
	"--no-ignore",
	"--follow",
	"--vimgrep",
	"--json",
	"--multiline",
	"--no-config",
	"--files",
	"--color",
	"--colour",
	"--column",
	"--trim",
	"--stats",
	"--pretty",
	"--crlf",
];
const GREP_VALUE_SHORTS = "efABCmdD";
const RG_VALUE_SHORTS = "efABCmgtTMjrE";

const SEARCH_FILTER_OPTIONS = [
	"--include",
	"--exclude",
	"--exclude-dir",
	"--glob",
	"--iglob",
	"--type",
	"--type-not",
	"--color",
	"--colour",
];
const GREP_VALUE_OPTIONS = new Set([
	"-A",
	"-B",
	"-C",
	"-m",
	"-d",
	"-D",
	"--include",
	"--exclude",
	"--exclude-dir",
	"--label",
	"--max-count",
	"--context",
]);
const RG_VALUE_OPTIONS = new Set([
	"-A",
	"-B",
	"-C",
	"-m",
	"-g",
	"-t",
	"-T",
	"-M",
	"-j",
	"--glob",
	"--iglob",
	"--type",
	"--type-not",
	"--max-count",
	"--max-columns",
	"--context",
	"--after-context",
	"--before-context",
	"--color",
	"--colors",
	"--max-depth",
	"--maxdepth",
	"--threads",
	"--sort",
	"--sortr",
	"--replace",
	"-r",
	"--encoding",
	"-E",
	"--type-add",
	"--max-filesize",
]);

/**
 * Commands `find -exec` and xargs may run on what find found without a model: readers that write nothing, run
 * nothing and take every found path as a file or as plain text. Their words are still judged by the vocabulary
 * (grep without `-P`). Not sed: a path in its script's place would be a script (`src/rxrw/tmp/x` is
 * `s r c/ r x r w/tmp/x`, which writes), and the floor judges the words with each root in place of the paths.
 */
const FIND_EXEC_READERS = new Set([
	"cat",
	"head",
	"tail",
	"grep",
	"egrep",
	"fgrep",
	"wc",
	"ls",
	"file",
	"stat",
	"echo",
	"nl",
	"md5sum",
	"sha1sum",
	"sha256sum",
	"du",
	"basename",
	"dirname",
	"realpath",
]);

/** The word find's `{}` stands for in an `-exec` clause, judged as each root in turn. */
function literalWord(value: string): BashWord {
	return { text: value, value, literal: value, quoted: false, expansions: [], substitutions: [] };
}

/**
 * find: paths before the expression; actions that write or run anything send it to review, except `-exec READER
 * … {} ;` (or `{} +`) with a reader of {@link FIND_EXEC_READERS}: the files it hands the reader all lie below the
 * roots, so each root is a tree the shell lists (hidden entries included, and links followed: the reader opens a
 * link's target), and the reader's words are judged with `{}` read as the root (decision 0021).
 */
function judgeFind(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	// BSD find's `-f PATH` (macOS) adds a root the scan below would not see; GNU find rejects it (a sixty-eighth review).
	const execAt = args.findIndex((arg) => ["-exec", "-execdir", "-ok", "-okdir"].includes(arg.value));
	if ((execAt < 0 ? args : args.slice(0, execAt)).some((arg) => arg.value === "-f")) return "not-read-only";
	// On BSD also in a bundle or with its path attached (`-sf DIR`, `-fDIR`; a sixty-ninth review), anywhere before
	// the first path, where getopt reads `-follow` as `-f ollow` too.
	if (judge.context.bsdUserland === true) {
		const firstPath = args.findIndex((arg) => !arg.value.startsWith("-"));
		const options = firstPath < 0 ? args : args.slice(0, firstPath);
		if (options.some((arg) => /^-[EHLPXdsx]*f/.test(arg.value))) return "not-read-only";
	}
	noDynamic(args);
	let inExpression = false;
	let pathsSeen = false;
	const roots: BashWord[] = [];
	const clauses: BashWord[][] = [];
	let followsLinks = false;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as BashWord;
		const value = arg.value;
		if (value === "-exec") {
			const end = findExecEnd(args, i + 1);
			if (end === undefined) return "not-read-only";
			clauses.push(args.slice(i + 1, end));
			inExpression = true;
			i = end;
			continue;
		}
		if (FIND_ACTIONS_THAT_WRITE_OR_RUN.has(value) || value === "-files0-from") return "not-read-only";
		// `-L` and `-follow` follow every link below the roots, wherever they lead; `-H` only the roots' own, which are
		// judged as paths.
		if ((value === "-L" && !inExpression && !pathsSeen) || value === "-follow") followsLinks = true;
		// Options before the paths: -H -L -P, -D DEBUGOPTS, -Olevel.
		if (
			!inExpression &&
			!pathsSeen &&
			(value === "-H" || value === "-L" || value === "-P" || value === "--" || /^-O\d*$/.test(value))
		)
			continue;
		if (!inExpression && !pathsSeen && value === "-D") {
			i++;
			continue;
		}
		if (!inExpression && !startsFindExpression(value)) pathsSeen = true;
		if (!inExpression && startsFindExpression(value)) inExpression = true;
		if (!inExpression) {
			judgeOperandWord(arg, state, judge, true);
			roots.push(arg);
			continue;
		}
		// Tests that compare with another file read its times or identity: judged like `stat FILE`. The file word is
		// still looked at as an action next: `-samefile -delete` is reviewed whichever way find reads it.
		if (FIND_FILE_TESTS.has(value) || /^-newer[aBcm][aBcm]$/.test(value)) {
			const file = args[i + 1];
			if (file !== undefined) judgeOperandWord(file, state, judge, true);
		}
	}
	if (clauses.length > 0) judgeFindExec(clauses, roots.length > 0 ? roots : [literalWord(".")], state, judge);
	// Printing only names, find with links followed still names what lies wherever they lead (`find -L . -name
	// 'id_*'` through `up -> ..`): its trees are listed as a reader's are, where any link leaves them unknown
	// (decision 0023).
	else if (followsLinks)
		for (const root of roots.length > 0 ? roots : [literalWord(".")]) judgeFoundTree(root, false, state, judge);
	return "allowed";
}

/**
 * Where find's expression starts: an option-looking word, `!` or `(`. A lone `-` is a path to find (GNU findutils
 * 4.9 `looks_like_expression`), so `find src - -exec cat {} +` walks a folder named `-` too.
 */
function startsFindExpression(value: string): boolean {
	return (value.startsWith("-") && value !== "-") || value === "!" || value === "(";
}

/** find tests whose value is another file they compare with (`-newer ~/.ssh/id_rsa` reads its times). */
const FIND_FILE_TESTS = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);

/** The index of the `;` that ends an `-exec` clause starting at `start`, or of a `+` right after `{}`. */
function findExecEnd(args: readonly BashWord[], start: number): number | undefined {
	for (let i = start; i < args.length; i++) {
		const value = (args[i] as BashWord).value;
		if (value === ";") return i;
		if (value === "+" && i > start && (args[i - 1] as BashWord).value === "{}") return i;
	}
	return undefined;
}

/**
 * The `-exec` clauses of one find: each must run a reader on `{}` words (GNU find also fills in `{}` inside a
 * longer word, such as `{}.out`, which is reviewed unless the reader is `echo`), that reader must stay read-only for every root, and every
 * root is a tree the shell lists.
 */
function judgeFindExec(
	clauses: readonly BashWord[][],
	roots: readonly BashWord[],
	state: WalkState,
	judge: Judge,
): void {
	for (const clause of clauses) {
		const name = clause[0]?.literal;
		if (name === undefined || !FIND_EXEC_READERS.has(name)) throw new Review("not-read-only");
		// echo opens no file: `-exec echo '== {} ==' \;` prints each path, as `-print` would.
		if (name !== "echo" && clause.some((word) => word.value !== "{}" && word.value.includes("{}")))
			throw new Review("not-read-only");
	}
	for (const root of roots) {
		judgeFoundTree(root, false, state, judge);
		for (const clause of clauses) {
			const readerArgs = clause.slice(1).map((word) => (word.value === "{}" ? root : word));
			judgeReaderOfFound(clause[0]?.literal as string, readerArgs, state, judge);
		}
	}
}

/**
 * A root whose entries find hands a reader: a tree the shell lists, hidden entries included. find hands the reader
 * a link it meets, and the reader opens its target, so any link makes the tree unknown. With `splitsNames`, the
 * paths reach the reader through xargs, and a name xargs would split makes it unknown too.
 */
function judgeFoundTree(root: BashWord, splitsNames: boolean, state: WalkState, judge: Judge): void {
	if (reachesAboveWorkspace(root, state, judge)) throw new Review("protected-path");
	if (splitsNames) {
		// The listing predates the command: a name this command wrote before may split (`touch "src/x .env"`).
		if (judge.wroteSplittingName) throw new Review("writes");
		if (judge.concurrent > 0) judge.concurrentSplitRead = true;
	}
	judgeSearchTreeWord(root, false, true, state, judge, splitsNames);
}

/**
 * A reader run on what find found (`{}` or xargs's items read as a root): judged by the vocabulary on a clean slate,
 * and reviewed if it would write, since `sed -i` would edit every file found.
 */
function judgeReaderOfFound(name: string, args: readonly BashWord[], state: WalkState, judge: Judge): void {
	const outer = judge.rule;
	judge.rule = "read-only";
	let verdict: VocabularyVerdict;
	let wrote: boolean;
	try {
		verdict = judgeVocabulary(name, args, state, judge);
	} finally {
		wrote = judge.rule !== "read-only";
		judge.rule = outer;
	}
	if (wrote) throw new Review("not-read-only");
	if (verdict !== "allowed") throw new Review(verdict);
}

/**
 * find actions that print something other than the found paths one per line (or per NUL with `-print0`), or run
 * or write: a find with one of them is no source of names for xargs.
 */
const FIND_ACTIONS_NOT_PRINTING_PATHS = new Set([...FIND_ACTIONS_THAT_WRITE_OR_RUN, "-printf", "-ls", "-files0-from"]);

/** find words that print fixed text (usage, version, the debug options' list) or debug output. */
const FIND_PRINTING_TEXT = new Set(["-help", "--help", "-version", "--version", "-D"]);

/** Redirects that leave a pipeline part's stdout alone: only stderr thrown away (`2>/dev/null`). */
function onlyDiscardsErrors(redirects: readonly BashRedirect[]): boolean {
	return redirects.every(
		(redirect) => redirect.fd === 2 && redirect.op === ">" && redirect.target.value === "/dev/null",
	);
}

/** The literal words of a plain simple command (no assignment, no expansion, stderr at most discarded). */
function plainWords(command: BashCommand): readonly BashWord[] | undefined {
	if (command.kind !== "simple" || command.assignments.length > 0 || !onlyDiscardsErrors(command.redirects)) {
		return undefined;
	}
	return command.words.every((word) => word.literal !== undefined) ? command.words : undefined;
}

/**
 * What a pipeline's first part prints when it is a `find` that prints only found paths: its roots (`.` when it
 * names none) and whether they end in NUL. Undefined for anything else.
 */
function foundNamesPrintedBy(command: BashCommand): FoundNames | undefined {
	const words = plainWords(command);
	if (words === undefined || words[0]?.literal !== "find") return undefined;
	const args = words.slice(1);
	const roots: BashWord[] = [];
	let inExpression = false;
	let print0 = false;
	let print = false;
	for (let i = 0; i < args.length; i++) {
		const value = (args[i] as BashWord).value;
		// `--help`, `-version` and `-D help` print fixed text, which xargs would read as names.
		if (FIND_ACTIONS_NOT_PRINTING_PATHS.has(value) || FIND_PRINTING_TEXT.has(value)) return undefined;
		if (value === "-print0") print0 = true;
		if (value === "-print") print = true;
		if (inExpression) continue;
		if (value === "-H" || value === "-L" || value === "-P" || value === "--" || /^-O\d*$/.test(value)) continue;
		if (startsFindExpression(value)) inExpression = true;
		else roots.push(args[i] as BashWord);
	}
	if (print && print0) return undefined;
	return { roots: roots.length > 0 ? roots : [literalWord(".")], nulSeparated: print0 };
}

/** grep options that keep each line whole (no `-o`, `-n`, `-c`, `-H`, `-l`, `-b`): it only drops lines. */
const WHOLE_LINE_GREP_BUNDLE = /^-[viEFGwxsy]+$/;
const WHOLE_LINE_GREP_LONG = new Set([
	"--invert-match",
	"--ignore-case",
	"--extended-regexp",
	"--fixed-strings",
	"--basic-regexp",
	"--word-regexp",
	"--line-regexp",
	"--no-messages",
]);

/**
 * True when a pipeline part passes found paths on unchanged, only dropping or reordering whole lines: `grep PATTERN`
 * and `grep -v PATTERN` on stdin, `head`/`tail -n N`, `sort` and `uniq` with no file and no option that changes a
 * line. NUL-separated names pass through none of them.
 */
function keepsWholeLines(command: BashCommand, names: FoundNames): boolean {
	const words = plainWords(command);
	const name = words?.[0]?.literal;
	if (words === undefined || name === undefined || names.nulSeparated) return false;
	const args = words.slice(1).map((word) => word.value);
	switch (name) {
		case "grep":
		case "egrep":
		case "fgrep": {
			let patterns = 0;
			let operands = 0;
			for (let i = 0; i < args.length; i++) {
				const value = args[i] as string;
				if (value === "-e") {
					patterns++;
					i++;
				} else if (WHOLE_LINE_GREP_BUNDLE.test(value) || WHOLE_LINE_GREP_LONG.has(value)) continue;
				else if (value.startsWith("-")) return false;
				else operands++;
			}
			// Patterns from -e and no operand, or one pattern operand: any other word, before the -e patterns too
			// (`grep list -e .`), is a file grep would read instead of stdin.
			return patterns > 0 ? operands === 0 : operands === 1;
		}
		case "head":
		case "tail":
			return isLineCount(args, name === "tail");
		case "sort":
			return args.every((value) => /^-[urfVnbd]+$/.test(value));
		case "uniq":
			return args.every((value) => /^-[udi]+$/.test(value));
		default:
			return false;
	}
}

/** `-n N`, `-nN`, `--lines=N` or `-N` (and `+N` for tail), or nothing: a count of lines, no file. */
function isLineCount(args: readonly string[], tail: boolean): boolean {
	const count = tail ? /^\+?\d{1,9}$/ : /^\d{1,9}$/;
	if (args.length === 0) return true;
	if (args.length === 2 && args[0] === "-n") return count.test(args[1] as string);
	if (args.length !== 1) return false;
	const only = args[0] as string;
	if (only.startsWith("--lines=")) return count.test(only.slice("--lines=".length));
	if (only.startsWith("-n")) return count.test(only.slice(2));
	return /^-\d{1,9}$/.test(only);
}

/** xargs options that only change how items are batched, run or echoed; each with its value, if it takes one. */
const XARGS_COUNT_OPTIONS = new Set(["-n", "-L", "-P", "-s"]);
const XARGS_COUNT_LONG = ["--max-args=", "--max-lines=", "--max-procs=", "--max-chars="];
const XARGS_FLAGS = new Set(["-t", "--verbose", "-x", "--exit"]);

/**
 * xargs after a `find` that printed only paths: each item is a path find found below one of its roots, so the
 * command is judged as a reader of those trees, as `find -exec` is (decision 0021). The names must reach it whole:
 * `-0` exactly when find printed with `-print0`, and otherwise every listed name free of blanks, quotes and
 * backslashes (`SearchTreeRequest.splitsNames`), and every root too. The reader is one of `find -exec`'s (`echo`
 * when none is named); with `-I R` each word `R` stands for a path. Reading items from a file (`-a`), asking on a
 * terminal (`-p`, `-o`) and any option the floor does not know are reviewed, and so is xargs fed by anything else.
 */
function judgeXargs(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	noDynamic(args);
	const names = state.foundNames;
	if (names === undefined) return "not-read-only";
	let nul = false;
	let replace: string | undefined;
	let noRunIfEmpty = false;
	/** `-L`/`-n` given: GNU xargs drops an earlier `-I` when `-L` follows it (and R is then a plain word). */
	let batchesByCount = false;
	let i = 0;
	for (; i < args.length; i++) {
		const value = (args[i] as BashWord).value;
		if (!value.startsWith("-")) break;
		if (value === "--") {
			i++;
			break;
		}
		if (value === "-0" || value === "--null") nul = true;
		else if (value === "-r" || value === "--no-run-if-empty") noRunIfEmpty = true;
		else if (XARGS_FLAGS.has(value)) continue;
		else if (XARGS_COUNT_OPTIONS.has(value) && /^\d{1,9}$/.test(args[i + 1]?.value ?? "")) {
			if (value === "-n" || value === "-L") batchesByCount = true;
			i++;
		} else if (/^-[nLPs]\d{1,9}$/.test(value)) {
			if (value[1] === "n" || value[1] === "L") batchesByCount = true;
		} else if (
			XARGS_COUNT_LONG.some((option) => value.startsWith(option) && /^\d{1,9}$/.test(value.slice(option.length)))
		) {
			if (value.startsWith("--max-args=") || value.startsWith("--max-lines=")) batchesByCount = true;
		} else if (value === "-I" && args[i + 1] !== undefined) replace = (args[++i] as BashWord).value;
		else if (value.startsWith("-I") && value.length > 2) replace = value.slice(2);
		else if (value.startsWith("--replace=") && value.length > "--replace=".length)
			replace = value.slice("--replace=".length);
		else return "not-read-only";
	}
	if (nul !== names.nulSeparated) return "not-read-only";
	if (replace !== undefined && batchesByCount) return "not-read-only";
	const reader = args[i]?.literal ?? "echo";
	if (!FIND_EXEC_READERS.has(reader)) return "not-read-only";
	const readerWords = args.slice(i + 1);
	if (replace !== undefined) {
		const token = replace;
		if (token === "" || readerWords.some((word) => word.value !== token && word.value.includes(token))) {
			return "not-read-only";
		}
	}
	// With no input and no `-r`, xargs still runs the reader once with none of find's paths (`xargs grep -r x` then
	// searches the working directory); with `-I` it runs nothing.
	if (replace === undefined && !noRunIfEmpty) judgeReaderOfFound(reader, readerWords, state, judge);
	for (const root of names.roots) {
		if (!nul && nameSplitsInXargs(root.value)) return "not-read-only";
		judgeFoundTree(root, !nul, state, judge);
		const readerArgs =
			replace === undefined
				? [...readerWords, root]
				: readerWords.map((word) => (word.value === replace ? root : word));
		judgeReaderOfFound(reader, readerArgs, state, judge);
	}
	return "allowed";
}

/** sed: print-only scripts (no `w`, `e`, `r`, in-place edits or script files). */
function judgeSed(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	noDynamic(args);
	const scripts: string[] = [];
	const files: BashWord[] = [];
	let explicit = false;
	let ended = false;
	/** The backup suffix of an in-place edit (`""` for none); undefined when sed only prints. */
	let inPlace: string | undefined;
	/** BSD's separate suffix word, which a GNU sed would edit as a file (see the `-i` branch). */
	let gnuEditedSuffix: BashWord | undefined;
	for (let i = 0; i < args.length; i++) {
		const word = args[i] as BashWord;
		const value = word.value;
		if (!ended && value === "--") {
			ended = true;
			continue;
		}
		if (!ended && value.startsWith("-") && value.length > 1) {
			if (value === "-e" || value === "--expression") {
				const script = args[i + 1];
				if (script === undefined) return "unparsed";
				if (isExpandedScript(script)) return "dynamic";
				scripts.push(script.value);
				explicit = true;
				i++;
				continue;
			}
			if (value.startsWith("--expression=")) {
				scripts.push(value.slice("--expression=".length));
				explicit = true;
				continue;
			}
			if (value.startsWith("--")) {
				if (value === "--in-place" || value.startsWith("--in-place=")) {
					inPlace = value === "--in-place" ? "" : value.slice("--in-place=".length);
					continue;
				}
				if (!SED_SAFE_LONG.has(value) && !value.startsWith("--line-length=")) return "writes";
				continue;
			}
			// Short bundles: n, E, r, s, u, z are safe, and i (in place) takes the rest of the bundle as its backup
			// suffix (`-i.bak`; `-ie` is suffix "e"); f (script file), e and anything else are not.
			const bundle = value.slice(1);
			const bsd = judge.context.bsdUserland === true;
			// GNU's `-l N` takes the line length; BSD's `-l` (line buffering) takes nothing, so the next word is the
			// script there (a sixty-seventh review).
			if (bundle === "l") {
				// A GNU sed first on `PATH` would read the next word as the line length: which word is the script
				// depends on which sed runs (a sixty-eighth review).
				if (bsd) return "writes";
				i++;
				continue;
			}
			for (let k = 0; k < bundle.length; k++) {
				const c = bundle[k] as string;
				if (c === "i") {
					inPlace = bundle.slice(k + 1);
					// BSD's `-i` always takes its backup suffix, the next word when the bundle ends here (`-i ''`, `-i .md`).
					// A GNU sed under the same name reads that word as its script, or with `-e` as a file it edits: only
					// a suffix neither reading can misuse (`''`, `.bak`, `~`), and it is judged as an edited file too.
					if (bsd && inPlace === "") {
						const suffix = args[i + 1];
						if (suffix === undefined) return "unparsed";
						if (suffix.value !== "" && !/^[.~_][\w.~-]*$/.test(suffix.value)) return "writes";
						inPlace = suffix.value;
						if (suffix.value !== "") gnuEditedSuffix = suffix;
						i++;
					}
					break;
				}
				if (!"nErsuz".includes(c)) return "writes";
			}
			continue;
		}
		files.push(word);
	}
	// GNU sed takes options after its operands too: with an `-e` anywhere before `--`, every operand is a file
	// (`sed -i .env -e 1d f` edits `.env`); without one, the first operand is the script.
	if (!explicit) {
		const script = files.shift();
		if (script === undefined) return "unparsed";
		if (isExpandedScript(script)) return "dynamic";
		scripts.push(script.value);
	}
	if (scripts.length === 0) return "unparsed";
	if (inPlace !== undefined) {
		if (gnuEditedSuffix !== undefined) judgeWritePath(gnuEditedSuffix, state, judge);
		return judgeSedInPlace(scripts, files, inPlace, state, judge);
	}
	// `r FILE` only in an in-place edit: printing a file through a sed script is no agent's way to read, and the
	// peers' read-only checkers count it as not read-only.
	for (const script of scripts) if (!isPrintOnlySedScript(script)) return "writes";
	readAll(files, state, judge);
	return "allowed";
}

/**
 * `sed -i`: an edit of the named files, judged like the edit tool. The script may only edit the stream (the
 * print-only commands plus `a`, `i` and `c` text, and `r`/`R FILE` with FILE judged as a read); each file, and its backup when a suffix is given, is a write
 * path: an unprotected workspace file is a workspace write, anything else is reviewed. A suffix naming another
 * directory or the file's base name (`/`, `*`) is reviewed.
 */
function judgeSedInPlace(
	scripts: readonly string[],
	files: readonly BashWord[],
	suffix: string,
	state: WalkState,
	judge: Judge,
): VocabularyVerdict {
	const reads: string[] = [];
	for (const script of scripts) if (!isPrintOnlySedScript(script, true, reads)) return "writes";
	if (files.length === 0) return "writes";
	// `r FILE`/`R FILE` read FILE into the edited file (`sed -i '68r patch.py' f.py`): FILE is a read.
	for (const path of reads) judgeReadPath(path, state, judge, true, false);
	if (suffix.includes("/") || suffix.includes("*")) return "writes";
	for (const file of files) {
		judgeWritePath(file, state, judge);
		if (suffix !== "") judgeWritePathText(`${file.value}${suffix}`, state, judge);
	}
	return "allowed";
}

/** An unquoted sed script the shell expands first (a glob, brace or tilde word): sed would run another script. */
function isExpandedScript(word: BashWord): boolean {
	return word.expansions.includes("glob") || word.expansions.includes("brace") || word.expansions.includes("tilde");
}

const SED_SAFE_LONG = new Set([
	"--quiet",
	"--silent",
	"--regexp-extended",
	"--separate",
	"--unbuffered",
	"--null-data",
	"--posix",
	"--debug",
	"--sandbox",
]);

/**
 * True when a sed script only prints and edits the stream: commands from `p P = l q Q d D n N y s`,
 * blocks, labels and branches, with `s` flags among `g p i I m M` and digits. `w`, `W`, `e`, `F`, `v`,
 * the hold-space commands and the `s` flags `w` and `e` are refused; so are the text commands `a`, `i` and `c`
 * unless `allowText` (an in-place edit, whose output is the file), and `r`/`R FILE` (which read FILE into the
 * output) unless `reads` is given: each FILE is then pushed there for the caller to judge as a read. One linear scan.
 */
export function isPrintOnlySedScript(script: string, allowText = false, reads?: string[]): boolean {
	let i = 0;
	const n = script.length;
	const skipBlank = () => {
		while (i < n && (script[i] === " " || script[i] === "\t" || script[i] === "\n" || script[i] === ";")) i++;
	};
	const readRegex = (delim: string, brackets = true): boolean => {
		while (i < n) {
			const c = script[i];
			if (c === "\\") {
				i += 2;
				continue;
			}
			if (c === "\n") return false;
			// GNU sed reads a bracket expression whole: a delimiter inside `[...]` does not end the regex.
			if (brackets && c === "[") {
				if (!skipBracket()) return false;
				continue;
			}
			if (c === delim) {
				i++;
				return true;
			}
			i++;
		}
		return false;
	};
	const skipBracket = (): boolean => {
		i++;
		if (script[i] === "^") i++;
		if (script[i] === "]") i++;
		while (i < n && script[i] !== "]") {
			if (script[i] === "\n") return false;
			if (script[i] === "[" && (script[i + 1] === ":" || script[i + 1] === "." || script[i + 1] === "=")) {
				const end = script.indexOf(`${script[i + 1]}]`, i + 2);
				if (end < 0) return false;
				i = end + 2;
				continue;
			}
			i++;
		}
		if (i >= n) return false;
		i++;
		return true;
	};
	const readAddress = (): boolean => {
		const c = script[i];
		if (c === undefined) return true;
		if (c >= "0" && c <= "9") {
			while (i < n && (script[i] as string) >= "0" && (script[i] as string) <= "9") i++;
			if (script[i] === "~") {
				i++;
				while (i < n && (script[i] as string) >= "0" && (script[i] as string) <= "9") i++;
			}
			return true;
		}
		if (c === "$") {
			i++;
			return true;
		}
		if (c === "/") {
			i++;
			if (!readRegex("/")) return false;
			while (script[i] === "I" || script[i] === "M") i++;
			return true;
		}
		if (c === "\\") {
			const delim = script[i + 1];
			if (delim === undefined || delim === "\n") return false;
			i += 2;
			if (!readRegex(delim)) return false;
			while (script[i] === "I" || script[i] === "M") i++;
			return true;
		}
		return true;
	};
	for (;;) {
		skipBlank();
		if (i >= n) return true;
		if (!readAddress()) return false;
		if (script[i] === ",") {
			i++;
			if (script[i] === "+" || script[i] === "~") i++;
			if (!readAddress()) return false;
		}
		while (script[i] === " " || script[i] === "\t") i++;
		if (script[i] === "!") i++;
		while (script[i] === " " || script[i] === "\t") i++;
		const command = script[i];
		if (command === undefined) return false;
		i++;
		if ("pP=lqQdDnN{}".includes(command)) {
			if (command === "q" || command === "Q" || command === "l")
				while (i < n && (script[i] as string) >= "0" && (script[i] as string) <= "9") i++;
			continue;
		}
		if (reads !== undefined && (command === "r" || command === "R")) {
			// The file name runs from the first non-blank to the end of the line, `;` and `}` included.
			while (script[i] === " " || script[i] === "\t") i++;
			const start = i;
			while (i < n && script[i] !== "\n") i++;
			if (i === start) return false;
			reads.push(script.slice(start, i));
			continue;
		}
		if (allowText && (command === "a" || command === "i" || command === "c")) {
			// The text runs to the first unescaped newline (`a\` + newline starts it on the next line).
			while (i < n && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
			continue;
		}
		if (command === ":" || command === "b" || command === "t" || command === "T") {
			// GNU sed ends a label at a blank too (`t x e CMD` is a branch, then `e CMD`): only a plain name, then
			// the end of the command.
			while (script[i] === " " || script[i] === "\t") i++;
			while (i < n && /[A-Za-z0-9_.-]/.test(script[i] as string)) i++;
			while (script[i] === " " || script[i] === "\t") i++;
			if (i < n && script[i] !== ";" && script[i] !== "\n" && script[i] !== "}") return false;
			continue;
		}
		if (command === "s" || command === "y") {
			const delim = script[i];
			if (delim === undefined || delim === "\n" || delim === "\\") return false;
			i++;
			if (!readRegex(delim, command === "s") || !readRegex(delim, false)) return false;
			if (command === "y") continue;
			while (i < n && script[i] !== ";" && script[i] !== "\n" && script[i] !== "}") {
				const flag = script[i] as string;
				if (!"gpiImM0123456789 \t".includes(flag)) return false;
				i++;
			}
			continue;
		}
		return false;
	}
}

/** jq without reading the environment and with file operands judged as reads (jq cannot write files). */
/** jq's long options that take no value and read no file. */
const JQ_PLAIN_LONG_OPTIONS = new Set([
	"--null-input",
	"--raw-input",
	"--slurp",
	"--compact-output",
	"--raw-output",
	"--raw-output0",
	"--join-output",
	"--ascii-output",
	"--sort-keys",
	"--color-output",
	"--monochrome-output",
	"--exit-status",
	"--seq",
	"--stream",
	"--stream-errors",
	"--unbuffered",
	"--nul-output",
	"--help",
	"--version",
	"--build-configuration",
]);

function judgeJq(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	noDynamic(args);
	let filterSeen = false;
	let ended = false;
	let positionalStrings = false;
	const files = new Set<BashWord>();
	for (let i = 0; i < args.length; i++) {
		const word = args[i] as BashWord;
		const value = word.value;
		if (!ended && value === "--") {
			ended = true;
			continue;
		}
		if (!ended && value.startsWith("-") && value.length > 1) {
			if (
				(!value.startsWith("--") && (value.includes("f") || value.includes("L"))) ||
				longOptionOrPrefix(value, "--from-file") ||
				longOptionOrPrefix(value, "--library-path") ||
				longOptionOrPrefix(value, "--run-tests")
			)
				return "not-read-only";
			// The words after `--args` are strings, not files; options still follow.
			if (value === "--args" || value === "--jsonargs") {
				if (!filterSeen) return "not-read-only";
				positionalStrings = true;
				continue;
			}
			if (value === "--arg" || value === "--argjson") {
				i += 2;
				continue;
			}
			if (value === "--slurpfile" || value === "--rawfile" || value === "--argfile") {
				const file = args[i + 2];
				if (file !== undefined) {
					files.add(file);
					judgeOperandWord(file, state, judge, true);
				}
				i += 2;
				continue;
			}
			if (value === "--indent" || value === "--tab") {
				if (value === "--indent") i++;
				continue;
			}
			// Any other option must be one that reads nothing (jq 1.6 and 1.7).
			if (value.startsWith("--") ? !JQ_PLAIN_LONG_OPTIONS.has(value) : !/^-[nrjascCMSeRhV0]+$/.test(value))
				return "not-read-only";
			continue;
		}
		if (!filterSeen) {
			filterSeen = true;
			// `env`/`$ENV` read the environment, `import`/`include` read modules and data files (`search: "~/.docker"`).
			const lower = value.toLowerCase();
			if (["env", "$__loc__", "input_filename", "import", "include", "$__prog"].some((name) => lower.includes(name)))
				return "environment";
			continue;
		}
		if (positionalStrings) continue;
		files.add(word);
		judgeOperandWord(word, state, judge, true);
	}
	// A glob or brace word as the filter, an option's value or a `--args` string expands to several words (`e{nv,}` is
	// the filter `env`, a nineteenth review), and jq may read the later ones as files (`jq -R ''*`): only file
	// operands may be globs or braces.
	if (args.some((arg) => (arg.expansions.includes("glob") || arg.expansions.includes("brace")) && !files.has(arg)))
		return "dynamic";
	return "allowed";
}

const GIT_SAFE_GLOBALS = new Set([
	"--no-pager",
	"-P",
	"--no-optional-locks",
	"--literal-pathspecs",
	"--no-replace-objects",
]);

/** git: read-only subcommands and forms, only when the repository config was checked and runs no program. */
function judgeGit(args: readonly BashWord[], state: WalkState, judge: Judge): VocabularyVerdict {
	noDynamic(args);
	const { sub, rest, globals } = gitSubcommand(args);
	if (globals.some((option) => !GIT_SAFE_GLOBALS.has(option.value))) return "not-read-only";
	if (sub === undefined) return "not-read-only";
	if (sub === "--version" || (sub === "version" && rest.length === 0)) return "allowed";
	const indexWrite = gitIndexWritePaths(sub, rest);
	if (indexWrite !== undefined) {
		if (indexWrite === "refused") return "not-read-only";
		const facts = gitFactsAt(state, judge);
		if (facts.config !== "safe" || facts.hooks !== "none") return "git-config";
		for (const path of indexWrite) judgeOperandWord(path, state, judge, true);
		// The index and a stash's files belong to the whole repository: with its top above the workspace, `git stash`
		// or `git add -A` rewrites or stages the user's files outside it (a twenty-first review).
		if (
			judge.requests === undefined &&
			(facts.top === undefined || !isInWorkspace(facts.top, judge.workspace, judge.context.additionalDirectories))
		)
			return "outside-workspace";
		judge.allow("workspace-write");
		// git after it cannot trust the facts when `git add` may stage a nested repository as a submodule (whose config
		// `git status` then runs), or after a stash, which takes files out of the worktree and puts them back.
		if (sub === "add") judge.requests?.gitAddDirectories.add(state.cwd ?? judge.workspace);
		if (sub === "stash" || facts.untrackedRepositories !== "none") {
			judge.wroteFiles = true;
			judge.writeCount++;
		}
		if (sub === "stash") treesMayChange(judge);
		return "allowed";
	}
	if (!(READ_ONLY_GIT_SUBCOMMANDS as readonly string[]).includes(sub)) return "not-read-only";
	if (!gitFormIsReadOnly(sub, rest)) return "not-read-only";
	const facts = gitFactsAt(state, judge);
	if (facts.config !== "safe") return "git-config";
	// `git remote -v` and `get-url` print the URLs, with any token in them (`https://user:ghp_…@github.com/…`).
	if (sub === "remote" && rest.length > 0 && facts.urlCredentials !== "none") return "protected-path";
	// A reflog walk prints the reflog's messages, which keep `git pull URL`'s command line as typed, token and all
	// (`pull https://oauth2:glpat-…@host/x main`; a thirty-fifth review). git takes these two spellings only.
	if (rest.some((arg) => arg.value === "-g" || arg.value === "--walk-reflogs")) return "protected-path";
	const content = gitContentPrinted(sub, rest, facts.contentSettings ?? GIT_CONTENT_SETTINGS);
	if (content === "unknown") return "protected-path";
	if (content !== undefined) {
		judge.requests?.gitHistoryDirectories.add(state.cwd ?? judge.workspace);
		if (content.printsFiles && printsProtectedHistory(facts.historyProtected, content.pathspecs, state, judge))
			return "protected-path";
		// While facts are collected the listing does not exist yet (and the walk must go on to later requests).
		const reached = (name: string) => reachesListedCommit(facts.historyCommits, name);
		if (judge.requests === undefined && !content.objects.every(reached)) return "protected-path";
	}
	// `git diff --no-index a .` compares folders recursively, `.git/` and `.env` at the root included; git drops
	// into that mode by itself when a path lies outside the working tree (`git diff /elsewhere src`, and
	// `cd vendor/lib && git diff ../a ../b` inside the workspace but above the repository's top).
	if (
		sub === "diff" &&
		rest.some(
			(arg) =>
				longOptionOrPrefix(arg.value, "--no-index") ||
				(!arg.value.startsWith("-") && liesOutsideWorkingTree(arg.value, facts.top, state, judge)),
		)
	) {
		const folders = rest.filter((arg) => !arg.value.startsWith("-"));
		if (folders.some((arg) => reachesWorkspaceRoot(arg, state, judge))) return "protected-path";
		judgeDiffTrees(folders, state, judge);
	}
	for (const arg of rest) {
		if (arg.value.startsWith("-")) {
			judgeOperandWord(arg, state, judge, true);
			continue;
		}
		judgeOperandWord(arg, state, judge, true);
		// rev:path names a file's content in history (`:0:path`, `HEAD^{/a:b}:path`): judge what follows each colon,
		// from the repository's top folder as git reads it (`./` and `../` from the working directory). While facts
		// are collected the top is not known yet.
		let colon = arg.value.indexOf(":");
		while (colon >= 0 && colon < arg.value.length - 1) {
			const path = arg.value.slice(colon + 1);
			const fromHere = path.startsWith("./") || path.startsWith("../") || path.startsWith("/");
			const top = facts.top ?? (judge.requests !== undefined ? (state.cwd ?? judge.workspace) : undefined);
			if (!fromHere && top === undefined) return "protected-path";
			judgeReadPath(fromHere || top === undefined ? path : `${top}/${path}`, state, judge, true);
			colon = arg.value.indexOf(":", colon + 1);
		}
	}
	return "allowed";
}

/**
 * True when a git operand names a path (`/x`, `../a`, `~/a`; a revision never) outside the workspace or outside the
 * repository's top folder `top`, or may (it does not resolve, or the top is not known: while facts are collected,
 * or no fact came).
 */
function liesOutsideWorkingTree(value: string, top: string | undefined, state: WalkState, judge: Judge): boolean {
	// A `..` part anywhere may climb above the top (`cd lib && git diff ./.. .`, a twenty-first review).
	if (!value.startsWith("/") && !value.startsWith("~") && !climbsOut(value)) return false;
	const resolved = resolveIn(value, state, judge);
	return (
		resolved === undefined ||
		!isInWorkspace(resolved, judge.workspace, []) ||
		top === undefined ||
		!isWithin(top, resolved)
	);
}

/** The options of `git diff` and `git show` that ask for names or counts instead of the patch. */
const GIT_NAMES_ONLY_OPTIONS = [
	"--stat",
	"--numstat",
	"--shortstat",
	"--name-only",
	"--name-status",
	"--raw",
	"--summary",
	"--compact-summary",
	"--quiet",
	"-s",
	"--no-patch",
];
/**
 * Options of `git log`, `git stash`, `git diff` and `git show` known to print no file content: names, counts,
 * formats and commit selection. Any other option (`-p`, `--binary`, `-pR`, `--diff-merges=on`, `-L`, …) may
 * print a patch, so the form counts as printing content.
 */
const GIT_NO_CONTENT_OPTIONS = new Set([
	...GIT_NAMES_ONLY_OPTIONS,
	"--oneline",
	"--graph",
	"--decorate",
	"--no-decorate",
	"--all",
	"--branches",
	"--tags",
	"--remotes",
	"--reverse",
	"--no-merges",
	"--merges",
	"--first-parent",
	"--abbrev-commit",
	"--no-abbrev-commit",
	"--topo-order",
	"--date-order",
	"--author-date-order",
	"--no-color",
	"--color",
	"--cached",
	"--staged",
	"--no-renames",
	"-M",
	"--left-right",
	"--cherry-pick",
	"--boundary",
	"--source",
	"--parents",
	"--children",
	"--no-walk",
	"--simplify-by-decoration",
	"--full-history",
	"--ancestry-path",
	"-i",
	"-E",
	"-F",
	"--regexp-ignore-case",
	"--extended-regexp",
	"--fixed-strings",
	"--invert-grep",
	"--all-match",
	"--exit-code",
	"-z",
	"--pretty",
	"--no-ext-diff",
	"--no-textconv",
]);
const GIT_NO_CONTENT_PREFIXES = [
	"--format=",
	"--pretty=",
	"--date=",
	"--since=",
	"--until=",
	"--after=",
	"--before=",
	"--author=",
	"--committer=",
	"--grep=",
	"--max-count=",
	"--skip=",
	"--abbrev=",
	"--decorate=",
	"--color=",
	"--stat=",
	"--dirstat=",
	"--stat-width=",
	"--stat-name-width=",
	"--stat-count=",
	"--stat-graph-width=",
	"--max-parents=",
	"--min-parents=",
	"--diff-filter=",
];
/** `git log` options whose value is the next word. */
const GIT_LOG_VALUE_OPTIONS = new Set(["-n", "--max-count", "--author", "--committer", "--grep", "--since", "--until"]);

/** True when every option is one of {@link GIT_NO_CONTENT_OPTIONS} (numeric counts and pickaxe searches too). */
function gitOptionsPrintNoContent(rest: readonly BashWord[]): boolean {
	for (let i = 0; i < rest.length; i++) {
		const value = (rest[i] as BashWord).value;
		if (value === "--") return true;
		if (!value.startsWith("-")) continue;
		if (GIT_LOG_VALUE_OPTIONS.has(value)) {
			i++;
			continue;
		}
		if (GIT_NO_CONTENT_OPTIONS.has(value) || GIT_NO_CONTENT_PREFIXES.some((prefix) => value.startsWith(prefix)))
			continue;
		// `-5`, `-n5`, `-M90%`: counts and rename scores. Not `-Sneedle`/`-Gregex`: a search of every version of every
		// file, which answers yes or no about a committed key one guess at a time.
		if (/^-(?:\d+|n\d+|M\d*%?)$/.test(value)) continue;
		return false;
	}
	return true;
}

/** Options that widen what a pathspec limits: `--follow` (renames) and `--full-diff` (whole commits). */
function gitWidensPathspecs(values: readonly string[]): boolean {
	return values.some((value) => value === "--follow" || value === "--full-diff");
}

/** Options that print the content of submodules, whose histories the shell does not list. */
function gitReachesSubmodules(values: readonly string[]): boolean {
	// git accepts a unique prefix of a long option (`git grep --recurse`).
	return values.some((value) => longOptionOrPrefix(value, "--recurse-submodules") || value.startsWith("--submodule"));
}

/**
 * A `tree-ish:path` operand (`HEAD:README.md`, `:0:f`, `main~2:src/a.py`) with a non-empty path, judged on its own.
 * Not a commit found by message (`:/fix`, `HEAD^{/fix:}`) or a reflog selector (`stash@{0}:f` is left to review).
 */
function isRevisionPath(word: BashWord): boolean {
	const value = word.value;
	if (value.startsWith("-") || value.startsWith(":/") || value.includes("{")) return false;
	const colon = value.lastIndexOf(":");
	return colon >= 0 && colon < value.length - 1;
}

/**
 * The revisions a revision word names, before any `:path`: each end of a range (`A..B`, `A...B`) and what follows
 * `^` (`^A`, `x^FETCH_HEAD`).
 */
function revisionEnds(value: string): string[] {
	const revision = value.startsWith(":") ? "" : (value.split(":")[0] ?? "");
	return revision.split(/\.\.\.?|\^/).filter((end) => end !== "");
}

/**
 * The object names a revision word names by hash: git takes 4 hex digits and more (`3b18`, `3b18e51^3`,
 * `3b18e51~2:f`), at each of its ends (see {@link revisionEnds}), and the hash after `-g` in `describe` output
 * (`v1.0-3-g978110a`).
 */
function revisionObjectNames(value: string): string[] {
	return revisionEnds(value).flatMap((end) =>
		[/^([0-9a-fA-F]{4,64})(?=$|[~@])/, /-g([0-9a-fA-F]{4,64})(?=$|[~@])/].flatMap((name) => name.exec(end)?.[1] ?? []),
	);
}

/**
 * The first parts of names git resolves as files in its own folder, before any ref (it tries `$GIT_DIR/<name>`
 * first): other worktrees' folders and refs (`worktrees/wt/refs/bisect/bad`, `main-worktree/…`), a rebase's or
 * merge's saved state (`rebase-merge/autostash`), `git fsck --lost-found` output (`lost-found/commit/<hash>`),
 * reflogs, the sequencer, submodules' git folders and the like. Any file there holding a hash names an object that
 * no ref reaches, so the listing may not have seen it.
 */
const GIT_FOLDER_ENTRIES: ReadonlySet<string> = new Set([
	"worktrees",
	"main-worktree",
	"rebase-merge",
	"rebase-apply",
	"lost-found",
	"logs",
	"sequencer",
	"modules",
	"objects",
	"info",
	"hooks",
	"lfs",
]);

/**
 * True when a revision end may name a file in git's folder rather than a ref the listing covers: a pseudo-ref's
 * shape (capitals, `_` and `-`, other than `HEAD`: `FETCH_HEAD`, `MERGE_AUTOSTASH`, `AUTO_MERGE`), also as the last
 * part of another worktree's spelling (`main-worktree/FETCH_HEAD`), or a name under one of {@link GIT_FOLDER_ENTRIES}.
 * A reflog selector on a ref that may have held a tree or blob (`origin/x@{1}`) counts too: only branches, `HEAD`
 * and the stash are held to commits; `@{-1}` and `@{upstream}` name branches.
 */
function namesGitFolderFile(end: string): boolean {
	const at = end.search(/[~@]/);
	const name = at < 0 ? end : end.slice(0, at);
	const last = name.slice(name.lastIndexOf("/") + 1);
	if (/^[A-Z][A-Z_-]*$/.test(last) && last !== "HEAD") return true;
	// Other worktrees' HEADs are listed (`--all`), not their other refs (`worktrees/wt/refs/bisect/bad`).
	if (at < 0 && /^(?:main-worktree|worktrees\/[^/]+)\/HEAD$/.test(name)) return false;
	if (name.includes("/") && GIT_FOLDER_ENTRIES.has(name.slice(0, name.indexOf("/")))) return true;
	if (at < 0 || !end.slice(at).includes("@{")) return false;
	const selector = end.slice(end.indexOf("@{") + 2);
	if (/^(?:-\d+|u|upstream|push)\}/i.test(selector)) return false;
	return !(name === "" || name === "@" || name === "HEAD" || name === "stash" || name === "refs/stash");
}

/**
 * Options that add revisions the words do not show: read from standard input, the alternates' refs, or every
 * worktree's index (`--indexed-objects`: the listing reads this worktree's only).
 */
function gitTakesHiddenRevisions(values: readonly string[]): boolean {
	return values.some(
		(value) =>
			longOptionOrPrefix(value, "--stdin") ||
			longOptionOrPrefix(value, "--alternate-refs") ||
			longOptionOrPrefix(value, "--indexed-objects"),
	);
}

/** Options known to take no value: a `--` after one of them ends the options (after any other it may be a value). */
const GIT_FLAGS_BEFORE_SEPARATOR = new Set([
	...GIT_NO_CONTENT_OPTIONS,
	"-p",
	"-u",
	"--patch",
	"-w",
	"-l",
	"-h",
	"-H",
	"-I",
	"-a",
	"--text",
	"--word-diff",
	"--name-only",
]);

/**
 * Where the options end: the index of the `--` that separates pathspecs, `-1` when there is none, or `ambiguous`
 * when the `--` follows an option that may take it as its value (`git grep -e -- -e KEY`,
 * `git log -p --decorate-refs -- HEAD`): then every word may be a revision or pattern, and no pathspec limits it.
 */
function gitPathspecSeparator(values: readonly string[]): number | "ambiguous" {
	const dashes = values.indexOf("--");
	if (dashes <= 0) return dashes;
	const previous = values[dashes - 1] as string;
	if (!previous.startsWith("-") || previous.includes("=") || GIT_FLAGS_BEFORE_SEPARATOR.has(previous)) return dashes;
	return "ambiguous";
}

/** What {@link gitContentPrinted} finds a form prints. */
interface GitContentPrinted {
	/** The pathspecs that limit the files it prints (empty: the whole repository). */
	readonly pathspecs: readonly BashWord[];
	/** The object names it names by hash, which must be commits the listing reached. */
	readonly objects: readonly string[];
	/** False when it prints only names or counts of files (the objects it names are still checked). */
	readonly printsFiles: boolean;
}

/**
 * What file content a read-only git form prints from the index or history: undefined for none (names, counts,
 * refs, messages, or only `tree-ish:path` blobs, whose paths are judged); `unknown` for content the shell's listing
 * does not cover (`git cat-file` by object name, submodules, revisions read from standard input or pseudo-refs such
 * as `FETCH_HEAD`); otherwise the pathspecs after `--` that limit it (empty: the whole repository) and the object
 * names it names, which must be commits the listing reached (a dropped stash or a loose blob is printed by
 * `git show SHA`, `-s` or not, as readily as by `cat-file`). `settings`: the config settings in force that make
 * these forms print more (see `GIT_CONTENT_SETTINGS`).
 */
function gitContentPrinted(
	sub: string,
	rest: readonly BashWord[],
	settings: readonly GitContentSetting[],
): GitContentPrinted | "unknown" | undefined {
	const values = rest.map((word) => word.value);
	const separator = gitPathspecSeparator(values);
	const dashes = separator === "ambiguous" ? -1 : separator;
	const before = dashes < 0 ? rest : rest.slice(0, dashes);
	const operands = before.filter((word) => !word.value.startsWith("-"));
	// `log.follow` makes `git log -p -- cfg.txt` go on through a rename from `.env` (`git show` prints one commit).
	const followed = settings.includes("follows-renames") && sub === "log";
	const pathspecs = dashes < 0 || followed || gitWidensPathspecs(values) ? [] : rest.slice(dashes + 1);
	// `diff.submodule=diff` and `submodule.recurse` print submodules' files, which the listing does not cover.
	const reachesSubmodules = gitReachesSubmodules(values) || settings.includes("submodule-content");
	// Not the value of an option (`-n 1234567`, `--author cafe123`), nor grep's pattern (`git grep deadbeef`); a
	// pattern given by an option, attached or not (`-e`, `-eKEY`, `-ie KEY`, `--regexp=…`, `-fFILE`), is none.
	const patternGiven = values.some(
		(v) => /^-[^-]*[ef]/.test(v) || longOptionOrPrefix(v, "--regexp") || longOptionOrPrefix(v, "--file"),
	);
	const pattern = sub === "grep" && !patternGiven ? operands[0] : undefined;
	// In `git grep`, `-n` is a flag (line numbers), not a count with a value.
	const takesValue = (option: string) => GIT_LOG_VALUE_OPTIONS.has(option) && !(sub === "grep" && option === "-n");
	const revisionWords = before.filter(
		(word, i) => !word.value.startsWith("-") && word !== pattern && !takesValue(before[i - 1]?.value ?? ""),
	);
	const hidden =
		gitTakesHiddenRevisions(values) || revisionWords.some((word) => revisionEnds(word.value).some(namesGitFolderFile));
	const objects = revisionWords.flatMap((word) => revisionObjectNames(word.value));
	const content: GitContentPrinted = { pathspecs, objects, printsFiles: true };
	const namesOnly: GitContentPrinted = { pathspecs, objects, printsFiles: false };
	switch (sub) {
		case "grep":
			return reachesSubmodules || hidden ? "unknown" : content;
		case "diff":
		case "show": {
			// `git diff --no-index a b` compares files, not history: judged as the trees they are.
			if (values.some((value) => longOptionOrPrefix(value, "--no-index"))) return undefined;
			if (hidden) return "unknown";
			// Only `tree-ish:path` operands and no option (`--reflog`, `--all` or `--indexed-objects` add more): their
			// paths are judged from the top, so a hash must be a listed commit, not a folder's tree (a twenty-first review).
			if (sub === "show" && operands.length > 0 && operands.length === values.length && operands.every(isRevisionPath))
				return revisionPathsOnly(objects);
			const names =
				values.some((value) => GIT_NAMES_ONLY_OPTIONS.some((option) => longOption(value, option))) &&
				gitOptionsPrintNoContent(rest);
			// `git show -s BLOB` still prints the blob: the names it names are checked all the same.
			if (names) return objects.length > 0 && sub === "show" ? namesOnly : undefined;
			if (reachesSubmodules) return "unknown";
			return content;
		}
		case "log":
		case "stash":
			if (hidden) return "unknown";
			// `stash.showPatch` makes a bare `git stash show` print the patch.
			if (
				gitOptionsPrintNoContent(rest) &&
				!(sub === "stash" && values[0] === "show" && settings.includes("stash-shows-patch"))
			)
				return undefined;
			return reachesSubmodules ? "unknown" : content;
		case "status":
			// `git status -v` prints the staged diff (`-vv` the unstaged one too), whose files the listing covers.
			return values.some((v) => longOptionOrPrefix(v, "--verbose") || /^-[^-]*v/.test(v)) ? content : undefined;
		case "blame":
			// `blame.ignoreRevsFile` names a file `git blame` reads, and prints a line of when it names no commit.
			return settings.includes("blame-reads-file") ? "unknown" : undefined;
		case "cat-file":
			if (values.some((value) => value === "-t" || value === "-s" || value === "-e")) return undefined;
			return operands.length > 0 && operands.every(isRevisionPath) ? revisionPathsOnly(objects) : "unknown";
		default:
			return undefined;
	}
}

/**
 * `tree-ish:path` operands alone print blobs whose paths are judged from the repository's top: nothing more when
 * they name no object by hash; otherwise each hash must be a commit the listing reached, since a tree's hash (from
 * `git ls-tree`) puts the path below that tree's folder (`git show <hash of secrets/>:db.txt`).
 */
function revisionPathsOnly(objects: readonly string[]): GitContentPrinted | undefined {
	return objects.length === 0 ? undefined : { pathspecs: [], objects, printsFiles: false };
}

/**
 * True when git may print a protected file's content from the repository's index or history: the shell did not
 * list them (`historyProtected` missing), or one lies under a pathspec (no pathspec: the whole repository; a
 * pathspec with magic or a wildcard may match anything).
 */
function printsProtectedHistory(
	historyProtected: readonly string[] | undefined,
	pathspecs: readonly BashWord[],
	state: WalkState,
	judge: Judge,
): boolean {
	if (historyProtected === undefined) return true;
	if (historyProtected.length === 0) return false;
	if (pathspecs.length === 0) return true;
	return pathspecs.some((word) => {
		// Magic (`:(icase)`), wildcards and git's own backslash escapes may match any path.
		if (word.value.startsWith(":") || /[*?[\\]/.test(word.value)) return true;
		const spec = resolveIn(word.value, state, judge);
		if (spec === undefined) return true;
		return historyProtected.some((path) => path === spec || path.startsWith(spec === "/" ? "/" : `${spec}/`));
	});
}

/**
 * True when `name` (a full or abbreviated hash) is a commit the shell's history listing reached: any other object
 * (a dropped stash, a loose blob) holds content the listing never saw.
 */
function reachesListedCommit(commits: ReadonlySet<string> | undefined, name: string): boolean {
	if (commits === undefined) return false;
	const hash = name.toLowerCase();
	if (commits.has(hash)) return true;
	if (hash.length >= 40) return false;
	for (const commit of commits) if (commit.startsWith(hash)) return true;
	return false;
}

const SAFE_GIT_FACTS: GitRepositoryFacts = {
	config: "safe",
	hooks: "none",
	urlCredentials: "none",
	historyProtected: [],
	// While facts are collected (before the config is read), settings that only widen what is printed count as on,
	// so that a bare `git stash show` asks for the listing; one that sends the command to review would end the walk.
	contentSettings: ["follows-renames", "stash-shows-patch"],
	// And git after a `git add` is walked on, for the requests it makes.
	untrackedRepositories: "none",
};
const UNKNOWN_GIT_FACTS: GitRepositoryFacts = { config: "unknown", hooks: "unknown", urlCredentials: "unknown" };

/**
 * The repository facts for the directory a git command runs in: the shell's facts for the working directory, or
 * for another directory the command moved to (`cd sub && git status`), which may be a different repository with
 * its own config and hooks. An unknown directory (after `cd -`) or one the shell gave no facts for is `unknown`.
 */
function gitFactsAt(state: WalkState, judge: Judge): GitRepositoryFacts {
	const collected = judge.requests?.gitDirectories;
	if (collected !== undefined) {
		if (state.cwd !== undefined && state.cwd !== judge.workspace) collected.add(state.cwd);
		return SAFE_GIT_FACTS;
	}
	// The facts were read before the command ran: a file it writes first may be a new repository, config or hook.
	if (judge.wroteFiles) return UNKNOWN_GIT_FACTS;
	// git in a `&` statement or a `<(…)` may still be running when the call returns, and later calls change the files
	// its facts were read from with nothing in flight: `(sleep 3; cd fixture && git diff …) &`, then `mkdir
	// fixture/objects fixture/refs` beside a shipped `fixture/HEAD`, made `fixture` a git folder whose `diff.external`
	// the waiting git ran (a forty-seventh review). No fact read now holds for it then.
	if (judge.concurrent > 0) throw new Review("git-config");
	const context = judge.context;
	if (state.cwd === judge.workspace) {
		return {
			config: context.gitConfig ?? "unknown",
			hooks: context.gitHooks ?? "unknown",
			urlCredentials: context.gitUrlCredentials ?? "unknown",
			...(context.gitHistoryProtected === undefined ? {} : { historyProtected: context.gitHistoryProtected }),
			...(context.gitHistoryCommits === undefined ? {} : { historyCommits: context.gitHistoryCommits }),
			...(context.gitUntrackedRepositories === undefined
				? {}
				: { untrackedRepositories: context.gitUntrackedRepositories }),
			...(context.gitContentSettings === undefined ? {} : { contentSettings: context.gitContentSettings }),
			...(context.gitTop === undefined ? {} : { top: context.gitTop }),
		};
	}
	if (state.cwd === undefined) return UNKNOWN_GIT_FACTS;
	return context.gitFactsByDirectory?.get(state.cwd) ?? UNKNOWN_GIT_FACTS;
}

/** At most this many directories besides the working directory are collected for one command's git facts. */
export const MAX_GIT_DIRECTORIES = 8;

/** At most this many module paths are checked for one call (two per part of each test label); the rest count as missing. */
export const MAX_MODULE_PATHS = 256;
/** At most this many folders a command writes in are named in `FloorFactRequests.writeFolders`. */
export const MAX_WRITE_FOLDERS = 32;
/** At most this many trees are collected for one command; a command that reads more is reviewed. */
export const MAX_SEARCH_TREES = 16;

/** The facts one bash command needs from the shell before the floor can decide it. */
export interface FloorFactRequests {
	/** The directories other than the working directory the command runs git in (at most {@link MAX_GIT_DIRECTORIES}). */
	readonly gitDirectories: readonly string[];
	/**
	 * The directories (the working directory included) where the command runs git that prints file content from the
	 * index or history (`git diff`, `git show`, `git log -p`, `git grep`): the shell lists the protected files the
	 * repository there holds (`FloorFacts.gitHistoryProtected`, `GitRepositoryFacts.historyProtected`).
	 */
	readonly gitHistoryDirectories: readonly string[];
	/**
	 * The directories (the working directory included) where the command runs `git add`: the shell tells whether the
	 * repository there holds a nested repository git does not track (`GitRepositoryFacts.untrackedRepositories`).
	 */
	readonly gitAddDirectories: readonly string[];
	/** The trees the command reads recursively (at most {@link MAX_SEARCH_TREES}). */
	readonly searchTrees: readonly SearchTreeRequest[];
	/**
	 * The paths the command opens, as bash hands them to the system (see {@link bashPathLinkKey}; at most
	 * {@link MAX_LINK_PATHS}): the shell follows their links into `FloorFacts.pathLinks`.
	 */
	readonly linkPaths: readonly string[];
	/**
	 * The paths (absolute) a trusted test runner would import a test label's modules from (`tests/__init__.py`,
	 * `tests.py`, `tests/test_x/__init__.py` and `tests/test_x.py` for `python -m unittest tests.test_x`; at most
	 * {@link MAX_MODULE_PATHS}): the shell tells which exist (`FloorFacts.existingPaths`).
	 */
	readonly modulePaths: readonly string[];
	/**
	 * The folders the command writes in (absolute; at most {@link MAX_WRITE_FOLDERS} + 1, so that more shows): the
	 * shell reads the `core.hooksPath` folders of the repository around each (`FloorFacts.gitArmedPaths`).
	 */
	readonly writeFolders: readonly string[];
	/**
	 * The paths an `mv` renames or replaces (absolute; its sources, its destination and the destination's entry of each
	 * source's name; at most {@link MAX_WRITE_FOLDERS} + 1): a folder renamed as a whole takes every file below it,
	 * however deep, so the shell looks below each for links from home's configuration (a fifty-fourth review).
	 */
	readonly movedPaths: readonly string[];
}

const NO_FACT_REQUESTS: FloorFactRequests = {
	gitDirectories: [],
	gitHistoryDirectories: [],
	gitAddDirectories: [],
	searchTrees: [],
	linkPaths: [],
	modulePaths: [],
	writeFolders: [],
	movedPaths: [],
};

/**
 * The facts the shell gathers for one bash command, as the floor walks it: the directories other than the working
 * directory in which it runs git (`cd sub && git status` runs git in `sub`, which may be another repository; the
 * shell reads each one's facts into `FloorFacts.gitByDirectory`), and the trees it reads recursively (`grep -r x sub`;
 * the shell looks for protected entries in each, into `FloorFacts.searchTrees`). Empty when the command is one the
 * floor reviews without looking (too long, unparseable). Pure; never throws.
 */
export function floorFactRequestsOf(command: string, context: FloorContext): FloorFactRequests {
	try {
		if (typeof command !== "string" || command.length > MAX_BASH_COMMAND_CHARS || hasControlCharacter(command)) {
			return NO_FACT_REQUESTS;
		}
		const parsed = parseBashSyntax(command);
		if (!parsed.ok || countWords(parsed.tree) > MAX_FLOOR_WORDS) return NO_FACT_REQUESTS;
		const requests: CollectedFactRequests = {
			gitDirectories: new Set(),
			gitHistoryDirectories: new Set(),
			gitAddDirectories: new Set(),
			searchTrees: new Map(),
			linkPaths: new Set(),
			modulePaths: new Set(),
			writeFolders: new Set(),
			movedPaths: new Set(),
		};
		const judge = new Judge(context, requests);
		try {
			judgeList(parsed.tree, [judge.workspace], judge);
		} catch {
			// The walk stopped at a part the floor reviews anyway: facts after it cannot change the decision.
		}
		return {
			gitDirectories: [...requests.gitDirectories].slice(0, MAX_GIT_DIRECTORIES),
			gitHistoryDirectories: [...requests.gitHistoryDirectories].slice(0, MAX_GIT_DIRECTORIES + 1),
			gitAddDirectories: [...requests.gitAddDirectories].slice(0, MAX_GIT_DIRECTORIES + 1),
			searchTrees: [...requests.searchTrees.values()].slice(0, MAX_SEARCH_TREES),
			linkPaths: [...requests.linkPaths].slice(0, MAX_LINK_PATHS),
			modulePaths: [...requests.modulePaths].slice(0, MAX_MODULE_PATHS),
			writeFolders: [...requests.writeFolders].slice(0, MAX_WRITE_FOLDERS + 1),
			movedPaths: [...requests.movedPaths].slice(0, MAX_WRITE_FOLDERS + 1),
		};
	} catch {
		return NO_FACT_REQUESTS;
	}
}

/** The directories other than the working directory in which a bash command would run git; see {@link floorFactRequestsOf}. */
export function gitDirectoriesOf(command: string, context: FloorContext): readonly string[] {
	return floorFactRequestsOf(command, context).gitDirectories;
}

/** `git add` options that only choose what is staged: no patch, edit or interactive mode, no pathspec file. */
const GIT_ADD_OPTIONS = new Set([
	"--all",
	"--update",
	"--intent-to-add",
	"--verbose",
	"--dry-run",
	"--ignore-errors",
	"--no-all",
	"--ignore-removal",
	"--no-ignore-removal",
]);
/**
 * `git stash push`/`save` options that only choose what is stashed: not `-p`, not `-a` (ignored files too) and not
 * `-u` (untracked files, which it deletes from the worktree).
 */
const GIT_STASH_SAVE_OPTIONS = new Set(["--keep-index", "--no-keep-index", "--staged", "--quiet"]);
const STASH_REFERENCE = /^(?:stash@\{\d{1,6}\}|\d{1,6})$/;

/** A pathspec with no magic: `:.env`, `:(top).env`, `:(icase)ENV` and `:!x` name files the path check cannot see. */
function isPlainPathspec(word: BashWord): boolean {
	return !word.value.startsWith(":");
}

/**
 * git's index writes: `git add` and the stash forms that save or restore changes (`git stash`, `push`, `save`, `pop`,
 * `apply`). They change only the index, the object store, the stash ref and the worktree's files, and run no
 * program when the config check finds none (the shell also checks for the hooks they run: see ADR 0013). Returns
 * the pathspecs to judge as reads (a protected or outside path sends the call to review), `refused` for such a
 * form with another option (`-p`, `-e`, `-i`, `-a`, `--pathspec-from-file`), or undefined when it is not one.
 * `stash drop` and `stash clear` destroy stashed work and are never index writes.
 */
function gitIndexWritePaths(sub: string, rest: readonly BashWord[]): readonly BashWord[] | "refused" | undefined {
	if (sub === "add") {
		const { options, operands } = optionsAndOperands(rest);
		// Not `-f`: it stages ignored files, such as `.env`, for `git diff --cached` to print.
		const known = options.every((o) => GIT_ADD_OPTIONS.has(o.value) || /^-[AuNvn]+$/.test(o.value));
		return known && operands.every(isPlainPathspec) ? operands : "refused";
	}
	if (sub !== "stash") return undefined;
	const form = rest[0]?.value;
	if (form === "pop" || form === "apply") {
		const args = rest.slice(1).map((arg) => arg.value);
		const refs = args.filter((arg) => arg !== "--index" && arg !== "-q" && arg !== "--quiet");
		return refs.length <= 1 && refs.every((ref) => STASH_REFERENCE.test(ref)) ? [] : "refused";
	}
	if (form !== undefined && form !== "push" && form !== "save" && form.startsWith("-") === false) return undefined;
	const args = form === "push" || form === "save" ? rest.slice(1) : rest;
	const paths: BashWord[] = [];
	let ended = false;
	for (let i = 0; i < args.length; i++) {
		const value = (args[i] as BashWord).value;
		if (ended || !value.startsWith("-")) {
			// `save` takes a message, `push` pathspecs.
			if (form === "save") continue;
			paths.push(args[i] as BashWord);
			continue;
		}
		if (value === "--") ended = true;
		else if (value === "-m" || value === "--message") i++;
		else if (!value.startsWith("--message=") && !GIT_STASH_SAVE_OPTIONS.has(value) && !/^-[kSq]+$/.test(value))
			return "refused";
	}
	return paths.every(isPlainPathspec) ? paths : "refused";
}

/**
 * git options that write a file or run a program: `--show-signature` runs gpg, `--textconv` and `--filters` run
 * the configured drivers, `--help` starts man or a browser.
 */
const GIT_WRITING_OPTIONS = [
	"--output",
	"--ext-diff",
	"--open-files-in-pager",
	"-O",
	"--paginate",
	"--show-signature",
	"--textconv",
	"--filters",
	"--help",
	"--web",
];

/** `git branch` filters that imply `--list`: with one, the other words are patterns or the filter's commit. */
const BRANCH_LIST_FILTERS = ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at"];

function gitFormIsReadOnly(sub: string, rest: readonly BashWord[]): boolean {
	const values = rest.map((arg) => arg.value);
	// git accepts a unique prefix of a long option (`git grep --open=CMD`), so any prefix counts.
	const writes = (value: string, option: string) =>
		option.startsWith("--") ? longOptionOrPrefix(value, option) : value.startsWith(option);
	if (values.some((value) => GIT_WRITING_OPTIONS.some((option) => writes(value, option)))) return false;
	if (values.some(formatRunsGpg)) return false;
	if (sub === "grep" && values.some((value) => /^-[A-Za-z]*O/.test(value))) return false;
	// `git grep --no-index` and `--untracked` search files git does not track: ignored `.env` and keys included.
	if (
		sub === "grep" &&
		values.some((value) =>
			["--no-index", "--untracked", "--no-exclude-standard"].some((option) => longOptionOrPrefix(value, option)),
		)
	)
		return false;
	switch (sub) {
		case "branch": {
			// These list the branches (`--contains REV` takes the next word as its commit), so no operand names a new one.
			const lists = values.some(
				(value) =>
					value === "-l" ||
					value === "--list" ||
					BRANCH_LIST_FILTERS.some((option) => value === option || value.startsWith(`${option}=`)),
			);
			return values.every(
				(value) =>
					[
						"-a",
						"--all",
						"-r",
						"--remotes",
						"-l",
						"--list",
						"-v",
						"-vv",
						"--verbose",
						"--show-current",
						"--no-color",
						"--color",
					].includes(value) ||
					// A `signature` atom checks a commit's signature by running `gpg.program` (git 2.42's ref-filter; a
					// sixty-fourth review), as a sort key too.
					(value.startsWith("--sort=") && !/signature/i.test(value)) ||
					// `%(raw)` prints the object a ref names, which may be a blob (a remote-tracking ref set to one).
					(value.startsWith("--format=") && !/%\(\*?(?:raw|signature)\b/.test(value)) ||
					BRANCH_LIST_FILTERS.some((option) => value === option || value.startsWith(`${option}=`)) ||
					(lists && !value.startsWith("-")),
			);
		}
		case "remote":
			return (
				values.length === 0 ||
				(values.length === 1 && (values[0] === "-v" || values[0] === "--verbose")) ||
				(values[0] === "get-url" && values.length === 2)
			);
		case "stash":
			return values[0] === "list" || (values[0] === "show" && values.length <= 3);
		case "tag":
			return (
				values.length === 0 ||
				(values.every(
					(value) =>
						value === "-l" ||
						value === "--list" ||
						// `-n9` prints each tag's first lines of annotation (a sixty-fourth review).
						/^-n\d{0,4}$/.test(value) ||
						(value.startsWith("--sort=") && !/signature/i.test(value)) ||
						value.startsWith("--contains") ||
						!value.startsWith("-"),
				) &&
					(values.length === 0 || values.includes("-l") || values.includes("--list")))
			);
		case "rev-parse":
			return !values.some((value) => value === "--local-env-vars" || value === "--parseopt" || value === "--sq-quote");
		default:
			return true;
	}
}

// ------------------------------------------------------------------------------------------------------------
// Trusted commands

interface TrustedToken {
	readonly kind: "glob" | "workspace-file";
	readonly text: string;
}

const compiledTrusted = new Map<string, readonly TrustedToken[] | undefined>();

/** Splits a trusted-command pattern into word tokens; `<workspace file>` (or `<workspace path>`) is one token. */
export function parseTrustedCommandPattern(pattern: string): readonly TrustedToken[] | undefined {
	const cached = compiledTrusted.get(pattern);
	if (cached !== undefined || compiledTrusted.has(pattern)) return cached;
	const tokens: TrustedToken[] = [];
	let i = 0;
	let valid = true;
	while (i < pattern.length) {
		const c = pattern[i] as string;
		if (c === " " || c === "\t") {
			i++;
			continue;
		}
		if (c === "<") {
			const close = pattern.indexOf(">", i);
			const inner = close < 0 ? "" : pattern.slice(i + 1, close).trim();
			if (inner !== "workspace file" && inner !== "workspace path") {
				valid = false;
				break;
			}
			tokens.push({ kind: "workspace-file", text: inner });
			i = close + 1;
			continue;
		}
		let end = i;
		while (end < pattern.length && pattern[end] !== " " && pattern[end] !== "\t") end++;
		tokens.push({ kind: "glob", text: pattern.slice(i, end) });
		i = end;
	}
	const result = valid && tokens.length > 0 && tokens[0]?.kind === "glob" ? tokens : undefined;
	if (compiledTrusted.size < 1_000) compiledTrusted.set(pattern, result);
	return result;
}

/** True (and recorded) when the words match a trusted pattern; their remaining paths are still judged. */
function matchTrusted(words: readonly BashWord[], state: WalkState, judge: Judge): boolean {
	const patterns = judge.context.trustedCommands ?? [];
	// A runner runs the code of the folder it starts in: after `cd -` or a `cd` searched through CDPATH, that may be
	// another project's (a nineteenth review).
	if (patterns.length === 0 || state.cwd === undefined) return false;
	for (const pattern of patterns) {
		const tokens = parseTrustedCommandPattern(pattern);
		if (tokens === undefined || tokens.length > words.length) continue;
		let matched = true;
		for (let i = 0; i < tokens.length && matched; i++) {
			const token = tokens[i] as TrustedToken;
			const word = words[i] as BashWord;
			if (word.literal === undefined) matched = false;
			else if (token.kind === "glob")
				// A relative path the pattern names (`bin/test`, `./tests/runtests.py`) is a program or script of the
				// workspace only where no link leads it out (`bin -> ~/elsewhere`; a twenty-eighth review).
				matched =
					globMatches(token.text, word.literal) &&
					(!word.literal.includes("/") || /^[/~]/.test(token.text) || isWorkspaceFile(word.literal, state, judge));
			else matched = isWorkspaceFile(word.literal, state, judge);
		}
		if (!matched) continue;
		const last = tokens.at(-1);
		// A runner reading a stdin the command feeds may run it: pytest's `--trace`, Django's `--pdb`, a label or
		// setting that names a console (`sys.breakpointhook`, `code.interact`; a thirtieth review). Pi's bash gives
		// commands no stdin of their own. Not where the user trusted the script on stdin (`python -`), nor for a
		// workspace script run with no argument, which only its own code reads (`python3 fix.py < src/a.py`).
		const stdinScript = last?.kind === "glob" && last.text === "-";
		if (judge.stdinFed > 0 && !stdinScript && !runsScriptAlone(words)) throw new Review("not-read-only");
		const runner = trustedRunnerOf(words);
		const args = words.slice(tokens.length);
		judgeTestLabels(words, state, judge);
		judgeSetupScriptOptions(words);
		// The script after a trusted `python -c` (or `node -e`) is code the user trusted: it may quote.
		const inlineScript = last?.kind === "glob" && /^-[ce]$/.test(last.text);
		// A runner may resolve a relative argument from a folder above the one it starts in (pytest's rootdir, npm's
		// package root): below the workspace root, a `..` may climb out of it (`cd tests && pytest -o cache_dir=../x`;
		// a twenty-second review).
		const belowRoot = state.cwd !== judge.workspace;
		for (const [index, word] of args.entries()) {
			if (belowRoot && PARENT_SEGMENT.test(word.value)) throw new Review("outside-workspace");
			if (namesDevice(word.value)) throw new Review("outside-workspace");
			if (!isPlainTrustedArgument(word.value, inlineScript && index === 0)) throw new Review("not-read-only");
			// A glob that starts with a wildcard, a `-` or an `@` may expand to a name such as `@.env` or `-pthis` (made
			// by an earlier `touch` or Pi's write tool; a twentieth review: `pytest -q -*`).
			if (word.expansions.includes("glob") && /^[-@*?[]/.test(word.value)) throw new Review("not-read-only");
			if (runsOtherCode(runner, word.value, args[index + 1]?.value)) throw new Review("not-read-only");
			judgeOperandWord(word, state, judge, true, true);
			judgeTrustedWriteName(word.value, state, judge);
			judgeTrustedArgumentParts(runner, word.value, state, judge, 0, inlineScript && index === 0);
		}
		judge.allow("trusted-command");
		return true;
	}
	return false;
}

/**
 * True for a trusted argument that names a device (`/dev/null`): harmless to read, but a runner uses its folder
 * (`pytest -c /dev/null` makes `/dev` the rootdir and loads a `conftest.py` from the folders above it;
 * `py_compile /dev/null` writes `/dev/__pycache__`; a thirty-second review).
 */
function namesDevice(value: string): boolean {
	return value.startsWith("/dev/") || value === "/dev";
}

/** True for `python FILE` (any `python3.X`) with nothing else: the interpreter runs that file and reads no option. */
function runsScriptAlone(words: readonly BashWord[]): boolean {
	const interpreter = words[0]?.literal ?? "";
	return (
		words.length === 2 &&
		/^python[0-9.]*$/.test(interpreter.slice(interpreter.lastIndexOf("/") + 1)) &&
		!(words[1] as BashWord).value.startsWith("-")
	);
}

/** A `..` path segment anywhere in an argument, also after `=`, `:` or `,` or a blank (`-o cache_dir=../x`). */
const PARENT_SEGMENT = /(?:^|[/=:,\s])\.\.(?=$|[/:,\s])/;

/**
 * False for a trusted command's argument that the runner may read otherwise than as its text (a fifteenth review):
 * `@FILE` (pytest reads more arguments from that file, and prints them), a `$` (pytest expands `$HOME` in
 * `--junitxml`, `cache_dir` and `--rootdir`, even single-quoted for bash), an option whose value is an option
 * (`npm test --node-options=--require=/x`), and an option word holding a blank (`'--require /x'`).
 */
function isPlainTrustedArgument(value: string, inlineScript = false): boolean {
	if (value.startsWith("@") || value.includes("$") || /(?:^|[^A-Za-z0-9_])data:/i.test(value)) return false;
	// Quotes, backslashes and braces left after bash's quote removal are the runner's to read: pytest splits
	// `addopts='@.env'` as a shell would, jest parses `--config '{"globalSetup":"/x.js"}'` (a nineteenth review).
	if (!inlineScript && /['"\\{}]/.test(value)) return false;
	if (!value.startsWith("-")) return true;
	const eq = value.indexOf("=");
	if (RUNNER_CODE_SETTINGS.has(runnerSettingName(value, eq))) return false;
	return !/\s/.test(value) && (eq < 0 || !value.slice(eq + 1).startsWith("-"));
}

/**
 * The runner a trusted command starts, for its own options: the program's base name (`py.test` is `pytest`), or
 * for `python -m MODULE` the module.
 */
function trustedRunnerOf(words: readonly BashWord[]): string | undefined {
	const first = words[0]?.literal;
	if (first === undefined) return undefined;
	const base = first.slice(first.lastIndexOf("/") + 1);
	if (/^python[0-9.]*$/.test(base)) {
		const module = words.findIndex((word) => word.literal === "-m");
		return module < 0 ? undefined : words[module + 1]?.literal;
	}
	return base === "py.test" ? "pytest" : base;
}

/** Long options (name without dashes, then `=value` or the next word) that make a runner run code of the caller's choosing. */
const RUNNER_CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
	// `--pyargs PKG` runs installed tests; `--pastebin` uploads the session log; pytest-benchmark stores elsewhere;
	// `--pdbcls=MOD:CLASS`, `--benchmark-timer=MOD.FN` and pytest-django's `--ds`/`--dc` import a module.
	// pytest-xdist's `--tx popen//python=PROG` (or `ssh=HOST`, `socket=HOST:PORT`) starts any program or reaches
	// the network; `--px` the same for proxies (a twenty-eighth review).
	pytest: ["pyargs", "pastebin", "benchmark-storage", "pdbcls", "benchmark-timer", "ds", "dc", "tx", "px"],
	// `--eval=TEXT` and a makefile from `--file=-` (stdin) are makefile text: recipes are shell commands.
	make: ["eval", "file", "makefile"],
	// `--config 'target.….runner=[…]'` (or a rustc wrapper) runs a program; `-Z` unstable flags.
	cargo: ["config"],
	// `-exec PROG`, `-toolexec PROG`, `-vettool PROG`; linker and compiler flags name programs (`-extld`).
	go: ["exec", "toolexec", "vettool", "ldflags", "gcflags", "asmflags", "gccgoflags", "compiler"],
	// `-x testenv.commands=…` / `--override` sets the commands tox runs.
	tox: ["override"],
};

/** npm and its kin expand an unambiguous prefix of a setting (`--node-opt` is `--node-options`). */
const NPM_LIKE_RUNNERS = new Set(["npm", "npx", "pnpm", "yarn"]);

/**
 * True for a trusted command's argument that makes its runner run code other than the workspace's (an eighteenth
 * review): the options of {@link RUNNER_CODE_OPTIONS} (getopt and argparse also take a prefix of a long option), make's
 * `-E`/`-f` and variable overrides (`CC=…`, `.SHELLFLAGS=…`), cargo's `-Z`, tox's `-x`, an npm setting's prefix,
 * pytest's `-p MODULE` (only `no:NAME` passes) and a warning filter whose category imports a module other than
 * Python's or pytest's (`-W error::this.X`).
 */
function runsOtherCode(runner: string | undefined, value: string, next: string | undefined): boolean {
	if (runner === undefined) return false;
	// npm's option parser reads a single-dash word of two letters or more as a setting too, by any prefix
	// (`-node-opt` is `--node-options`; a twenty-second review).
	const npmLong = NPM_LIKE_RUNNERS.has(runner) && /^-[^-]{2,}/.test(value);
	const long = value.startsWith("--") || npmLong ? runnerSettingName(value, value.indexOf("=")) : undefined;
	const exactOnly = runner === "pytest" || runner === "cargo";
	// getopt takes any unambiguous prefix, one letter included (`make --f -`; a nineteenth review).
	const named = (names: readonly string[]) =>
		long !== undefined && long.length >= 1 && names.some((name) => (exactOnly ? long === name : name.startsWith(long)));
	if (named(RUNNER_CODE_OPTIONS[runner] ?? [])) return true;
	// go's flags take one dash too (`-exec prog`).
	if (runner === "go" && value.startsWith("-") && !value.startsWith("--")) {
		const name = runnerSettingName(value, value.indexOf("="));
		if ((RUNNER_CODE_OPTIONS.go ?? []).includes(name)) return true;
	}
	if (NPM_LIKE_RUNNERS.has(runner) && named([...RUNNER_CODE_SETTINGS])) return true;
	const short = value.startsWith("-") && !value.startsWith("--") ? value.slice(1) : undefined;
	switch (runner) {
		case "make":
			return (short !== undefined && /^[A-Za-z]*[Ef]/.test(short)) || (!value.startsWith("-") && value.includes("="));
		case "cargo":
			return (short !== undefined && /^[A-Za-z]*Z/.test(short)) || long?.startsWith("config") === true;
		case "tox":
			return short !== undefined && /^[A-Za-z]*x/.test(short);
		// `python -m py_compile -` compiles the files stdin names (and prints a line of each that fails).
		case "py_compile":
			return value === "-";
		case "sphinx-build":
			return sphinxGoesOnlineOrImports(value, next);
		case "pytest": {
			// pytest resolves these settings from its rootdir or ini folder, not from where it starts, and the options
			// move the rootdir: a link the floor judged from the working directory may lead elsewhere from there
			// (`cd tests && pytest -o cache_dir=shared/x` with `shared -> ~/shared`; a thirty-second review).
			if (PYTEST_ROOTDIR_SETTINGS.test(value)) return true;
			if (long !== undefined && PYTEST_ROOTDIR_OPTIONS.has(long)) return true;
			if (long === "debug" && !value.includes("=")) return true;
			if (short !== undefined) {
				const option = pytestShortOptionValue(short, next);
				if (option?.letter === "c") return true;
				if (option?.letter === "p") return option.value === undefined || !option.value.startsWith("no:");
				if (option?.letter === "W") return importsWarningModule(option.value);
			}
			if (long === "pythonwarnings")
				return importsWarningModule(value.includes("=") ? value.slice(value.indexOf("=") + 1) : next);
			// An ini setting (`-o filterwarnings=…`, `--override-ini=filterwarnings=…`).
			const setting = value.indexOf("filterwarnings=");
			return setting >= 0 && importsWarningModule(value.slice(setting + "filterwarnings=".length));
		}
		default:
			return false;
	}
}

/** sphinx-build's short options that take a value: in a bundle (`-Eb linkcheck`) the first of them takes the rest. */
const SPHINX_SHORT_VALUE_OPTIONS = new Set(["b", "M", "d", "c", "D", "A", "t", "j", "w"]);

/**
 * True for a sphinx-build argument that reaches the network, runs a program or imports a module of the caller's
 * choosing (a twenty-eighth review): a builder (`-b`, `-M`, `--builder`) other than Sphinx's offline ones (`linkcheck`
 * fetches every link the documents hold), and a `-D` (`--define`) setting other than plain text (`-D extensions=MOD`
 * imports MOD; a thirtieth review).
 */
function sphinxGoesOnlineOrImports(value: string, next: string | undefined): boolean {
	let letter: string | undefined;
	let optionValue: string | undefined;
	if (value.startsWith("--")) {
		const eq = value.indexOf("=");
		// argparse takes a prefix (`--b`, `--def`; a twenty-ninth review).
		const name = value.slice(2, eq < 0 ? undefined : eq);
		letter = name === "" ? undefined : "builder".startsWith(name) ? "b" : "define".startsWith(name) ? "D" : undefined;
		optionValue = eq < 0 ? next : value.slice(eq + 1);
	} else if (value.startsWith("-")) {
		for (let i = 1; i < value.length && letter === undefined; i++) {
			if (!SPHINX_SHORT_VALUE_OPTIONS.has(value[i] as string)) continue;
			letter = value[i];
			// `-b=linkcheck` and `-D=extensions=x` are the values after the `=` (a twenty-ninth review).
			optionValue = i + 1 < value.length ? value.slice(i + 1).replace(/^=/, "") : next;
		}
	}
	if (letter === "b" || letter === "M") return optionValue === undefined || !SPHINX_OFFLINE_BUILDERS.has(optionValue);
	if (letter === "D") {
		const setting = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(optionValue ?? "")?.[1];
		return setting === undefined || !SPHINX_PLAIN_SETTINGS.has(setting);
	}
	return false;
}

/**
 * Sphinx's own builders that write files only (`-b`, `-M`). `linkcheck` fetches every link; `latexpdf` and `info`
 * run make and LaTeX; any other name is looked up among installed packages' entry points, which imports them.
 */
const SPHINX_OFFLINE_BUILDERS: ReadonlySet<string> = new Set([
	"html",
	"dirhtml",
	"singlehtml",
	"text",
	"man",
	"texinfo",
	"latex",
	"xml",
	"pseudoxml",
	"json",
	"pickle",
	"epub",
	"changes",
	"gettext",
	"dummy",
	"doctest",
	"coverage",
]);

/**
 * `-D` settings that are plain text for Sphinx. Others may name what it imports or calls: `extensions`,
 * `template_bridge` (`code.interact` read code from stdin), `pygments_style` (`antigravity.X` opened a browser),
 * `html_search_options` (a thirtieth review).
 */
const SPHINX_PLAIN_SETTINGS: ReadonlySet<string> = new Set([
	"project",
	"author",
	"copyright",
	"version",
	"release",
	"language",
	"today",
	"today_fmt",
	"root_doc",
	"master_doc",
	"nitpicky",
	"show_authors",
	"html_title",
	"html_short_title",
	"keep_warnings",
	"smartquotes",
]);

/** pytest ini settings resolved from the rootdir or the ini file's folder, in any form (`-o`, `--override-ini=`, addopts). */
const PYTEST_ROOTDIR_SETTINGS = /(?:^|[\s=,:])(?:cache_dir|pythonpath|testpaths)\s*=/;

/**
 * pytest options reviewed in any form: those that choose the rootdir or the ini file (`-c` is judged with the short
 * options), `--basetemp` (pytest deletes that folder first, whatever it holds: `--basetemp=config` removed
 * `config/.env`), and those that write a file of pytest's own naming in the working directory, which a shipped link
 * may lead out (`--debug` without a value writes `pytestdebug.log`, pytest-benchmark's saves go to `.benchmarks`;
 * a thirty-third review).
 */
const PYTEST_ROOTDIR_OPTIONS: ReadonlySet<string> = new Set([
	"rootdir",
	"config-file",
	"inifile",
	"basetemp",
	"benchmark-autosave",
	"benchmark-save",
]);

/** pytest's short options that take a value: in a bundle (`-vp this`, `-rp`) the first of them takes the rest. */
const PYTEST_SHORT_VALUE_OPTIONS = new Set(["k", "m", "p", "r", "W", "o", "c"]);

/** The value-taking letter of a pytest short option bundle (without its dash) and its value, if any. */
function pytestShortOptionValue(
	bundle: string,
	next: string | undefined,
): { letter: string; value: string | undefined } | undefined {
	for (let i = 0; i < bundle.length; i++) {
		const letter = bundle[i] as string;
		if (PYTEST_SHORT_VALUE_OPTIONS.has(letter))
			return { letter, value: i + 1 < bundle.length ? bundle.slice(i + 1) : next };
	}
	return undefined;
}

/** Modules a warning category may come from without running code of the caller's choosing. */
const WARNING_CATEGORY_MODULES = new Set(["builtins", "warnings", "pytest", "_pytest"]);

/**
 * True when a warnings filter (`action:message:category:module:lineno`) names a dotted category, which Python
 * imports, from a module other than {@link WARNING_CATEGORY_MODULES}. Read both ways: `PYTHONWARNINGS` separates
 * filters by commas, while pytest's `-W`, `--pythonwarnings` and `filterwarnings` lines take a comma as part of the
 * message (`ignore:a,b:this.W` imports `this`; a forty-second review).
 */
function importsWarningModule(filter: string | undefined): boolean {
	if (filter === undefined) return true;
	return [...filter.split("\n"), ...filter.split(/[\n,]/)].some((one) => {
		const category = one.split(":")[2]?.trim() ?? "";
		const dot = category.indexOf(".");
		return dot >= 0 && !WARNING_CATEGORY_MODULES.has(category.slice(0, dot));
	});
}

/**
 * npm settings that name the code or shell a script runs with, or a config file that may set them (a seventeenth
 * review): `--node-options` becomes NODE_OPTIONS, `--script-shell` runs the script. Reviewed in either form
 * (`--name=value` or `--name value`); npm reads `_` as `-`.
 */
const RUNNER_CODE_SETTINGS: ReadonlySet<string> = new Set([
	"node-options",
	"script-shell",
	"shell",
	"userconfig",
	"globalconfig",
	"onload-script",
	"init-module",
	"editor",
	"browser",
	"viewer",
	"git",
	"call",
]);

function runnerSettingName(value: string, eq: number): string {
	return (eq < 0 ? value : value.slice(0, eq)).replace(/^-+/, "").toLowerCase().replaceAll("_", "-");
}

/**
 * Judges the parts a trusted argument carries (see {@link trustedArgumentParts}) as arguments of their own, since
 * a runner may parse them as more arguments (pytest's `-o addopts=--basetemp=/x @.env`, a seventeenth review).
 * Nesting deeper than a few levels is reviewed.
 */
function judgeTrustedArgumentParts(
	runner: string | undefined,
	value: string,
	state: WalkState,
	judge: Judge,
	depth: number,
	inlineScript = false,
): void {
	const parts = trustedArgumentParts(value);
	if (parts.length > 0 && depth >= 4) throw new Review("not-read-only");
	// The runner reads a setting such as `addopts` as more arguments, split at blanks (`-W error::this.X` whole).
	const words = (trustedArgumentSetting(value) ?? "").split(/\s+/).filter((word) => word !== "");
	if (words.some((word, index) => word !== value && runsOtherCode(runner, word, words[index + 1])))
		throw new Review("not-read-only");
	for (const [index, part] of parts.entries()) {
		if (!isPlainTrustedArgument(part, inlineScript) || runsOtherCode(runner, part, parts[index + 1]))
			throw new Review("not-read-only");
		if (namesDevice(part)) throw new Review("outside-workspace");
		judgeOperandWord(literalWord(part), state, judge, true, true);
		judgeTrustedWriteName(part, state, judge);
		judgeTrustedArgumentParts(runner, part, state, judge, depth + 1, inlineScript);
	}
}

/**
 * The paths a trusted command's argument may carry beyond its plain reading: runners parse settings inside a word
 * whatever its quoting (`pytest -o 'pythonpath=..'`, `--override-ini=pythonpath=/tmp/x`, `--rootdir=' ..'`), so
 * every `NAME=` is stripped and each part between blanks, commas and colons is judged as a path too.
 */
function trustedArgumentParts(value: string): readonly string[] {
	const rest = trustedArgumentSetting(value);
	if (rest === undefined) return [];
	// Not at `://`: a URL is one word (`--url=http://host/x`).
	const parts = rest.split(/[\s,]+|:(?!\/\/)/).filter((part) => part !== "");
	return parts.length === 1 && parts[0] === value ? [] : parts;
}

/** A trusted command's argument after its option name and every `NAME=` (`-o addopts=-x -q` → `-x -q`), if any. */
function trustedArgumentSetting(value: string): string | undefined {
	if (value.startsWith("-") && !value.includes("=")) return undefined;
	let rest = value.startsWith("-") ? value.slice(value.indexOf("=") + 1) : value;
	while (isAssignmentShaped(rest)) rest = rest.slice(rest.indexOf("=") + 1);
	return rest;
}

/**
 * Reviews a trusted command's argument (or a part of one) that names a file whose writes are reviewed in any case,
 * by its name or where a link leads: a runner may write what its options name (`pytest --junitxml=AGENTS.md` puts a
 * test's output into the file Pi loads into every later session; a twenty-eighth review).
 */
function judgeTrustedWriteName(part: string, state: WalkState, judge: Judge): void {
	if (reviewsEveryWrite(part)) throw new Review("writes");
	if (isPiContextFile(part)) throw new Review("protected-path");
	if (judge.requests !== undefined) {
		for (const file of workspaceContextFiles(judge.context)) judge.requests.linkPaths.add(file);
		return;
	}
	judgeLinkedWriteTarget(part, state, judge, true);
}

/** A test label a runner imports: a dotted Python name (`tests.test_x.TestX.test_y`, `migrations`). */
const TEST_LABEL = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Long options of unittest's and Django's test runners whose value is a name they never import (a test name
 * pattern, a tag, a label to start at, a browser, a host, a folder put on the path), though it may look like a
 * module path. argparse takes any unique prefix (`--pat`).
 */
const TEST_RUNNER_NAME_OPTIONS = [
	"--pattern",
	"--tag",
	"--exclude-tag",
	"--start-at",
	"--start-after",
	"--top-level-directory",
	// Their value is optional and typed: a label after them is taken as the value and fails, importing nothing.
	"--parallel",
	"--shuffle",
	"--verbosity",
] as const;

/**
 * Django test runner options that start a browser or reach the network (a thirty-fourth review): `--selenium
 * BROWSER` runs Selenium Manager, which downloads a browser and its driver; `--selenium-hub URL` sends requests to
 * any host; `--external-host` and `--liveserver` make the live server listen elsewhere; `--screenshots` saves them.
 * Reviewed by any argparse prefix (`--sel`).
 */
const TEST_RUNNER_NETWORK_OPTIONS = [
	"--selenium",
	"--selenium-hub",
	"--external-host",
	"--liveserver",
	"--screenshots",
	"--headless",
] as const;

/** Long options whose value such a runner imports, or discovers from (`--settings`, `discover --start-directory`). */
const TEST_RUNNER_MODULE_OPTIONS = [
	"--settings",
	"--testrunner",
	"--start-directory",
	"--pair",
	"--bisect",
	"--default",
] as const;

/** Short options of those runners that take a value: `s` a start folder it imports from; `k`, `p`, `t` names. */
const TEST_RUNNER_SHORT_VALUE_OPTIONS = new Set(["s", "k", "p", "t"]);

/** Django management commands a trusted `manage.py`, `django-admin` or `python -m django` may run without review. */
const DJANGO_PLAIN_COMMANDS = new Set([
	"test",
	"check",
	"makemigrations",
	"migrate",
	"showmigrations",
	"sqlmigrate",
	"diffsettings",
	"help",
	"version",
]);

/**
 * The words a trusted unittest or Django test runner imports as test labels, and the folder it imports them from:
 * after `python -m unittest` (and its `discover`), after the `test` of `python -m django`, `django-admin` or
 * `manage.py`, and after Django's `tests/runtests.py`; the folder is the working directory, or the script's own.
 * Undefined for any other command. A Django command other than {@link DJANGO_PLAIN_COMMANDS} is reviewed (`manage.py
 * shell -c CODE` runs the code, `runserver` listens, `dbshell` starts a client; a twenty-ninth review).
 */
function testLabelWords(
	words: readonly BashWord[],
	state: WalkState,
	judge: Judge,
):
	| { readonly labels: readonly BashWord[]; readonly base: string | undefined; readonly optionsOnly?: true }
	| undefined {
	const runner = trustedRunnerOf(words);
	const script = words.findIndex((word) => /(?:^|\/)(?:runtests|manage)\.py$/.test(word.value));
	const scriptFolder = () => {
		const path = words[script]?.value ?? "";
		return resolveIn(path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".", state, judge);
	};
	if (runner === "unittest" || runner?.startsWith("unittest.") === true) {
		const at = words.findIndex((word) => word.value === runner);
		const rest = words.slice(at + 1);
		return { labels: rest[0]?.value === "discover" ? rest.slice(1) : rest, base: state.cwd };
	}
	if (runner === "django" || runner === "django-admin" || words[script]?.value.endsWith("manage.py") === true) {
		const from = script >= 0 ? script : words.findIndex((word) => word.value === runner);
		const at = words.findIndex((word, index) => index > from && !word.value.startsWith("-"));
		const command = words[at]?.value;
		if (command === undefined) return undefined;
		if (!DJANGO_PLAIN_COMMANDS.has(command)) throw new Review("not-read-only");
		// Only `test` imports its labels; the others take app labels from the project's settings, but every one imports
		// the module its `--settings` (and `diffsettings --default`) names (a thirtieth review).
		return {
			labels: words.slice(at + 1),
			base: script >= 0 ? scriptFolder() : state.cwd,
			...(command === "test" ? {} : { optionsOnly: true }),
		};
	}
	if (script >= 0) return { labels: words.slice(script + 1), base: scriptFolder() };
	return undefined;
}

/** True when `name` (`--pat`) is a prefix of one of `options` (`--pattern`), as argparse reads an abbreviation. */
function abbreviates(name: string, options: readonly string[]): boolean {
	return name.length > 2 && options.some((option) => option.startsWith(name));
}

/**
 * The module names a runner's label words import ({@link testLabelWords}): every dotted name, `=value` or option
 * value except those of name options ({@link TEST_RUNNER_NAME_OPTIONS}, `-k`, `-p`, `-t`), a start folder (`-s X`,
 * `-sX`, `-vsX`, `--start=X`), and a relative `.py` path as unittest converts it (`tests/test_a.py` is
 * `tests.test_a`). Words that are no dotted name (a folder path, a number) import nothing.
 */
function testModuleNames(labels: readonly BashWord[], optionsOnly = false): string[] {
	const names: string[] = [];
	for (let index = 0; index < labels.length; index++) {
		const value = (labels[index] as BashWord).value;
		if (value.startsWith("--")) {
			const eq = value.indexOf("=");
			const name = eq < 0 ? value : value.slice(0, eq);
			const nameOnly = abbreviates(name, TEST_RUNNER_NAME_OPTIONS) && !abbreviates(name, TEST_RUNNER_MODULE_OPTIONS);
			if (nameOnly) {
				if (eq < 0) index++;
			} else if (eq >= 0) names.push(value.slice(eq + 1));
			else if (optionsOnly && abbreviates(name, TEST_RUNNER_MODULE_OPTIONS)) {
				const next = labels[++index]?.value;
				if (next !== undefined) names.push(next);
			}
			continue;
		}
		if (optionsOnly) continue;
		if (value.startsWith("-") && value.length > 1) {
			for (let i = 1; i < value.length; i++) {
				const letter = value[i] as string;
				if (!TEST_RUNNER_SHORT_VALUE_OPTIONS.has(letter)) continue;
				const attached = value.slice(i + 1).replace(/^=/, "");
				const optionValue = attached !== "" ? attached : labels[++index]?.value;
				if (letter === "s" && optionValue !== undefined) names.push(optionValue);
				break;
			}
			continue;
		}
		names.push(value);
	}
	return names.flatMap((name) => {
		if (TEST_LABEL.test(name)) return [name];
		// unittest turns a relative path of a .py file into its dotted name.
		const module = /^(?:\.\/)*([A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*)\.py$/i.exec(name)?.[1];
		return module === undefined ? [] : [module.replaceAll("/", ".")];
	});
}

/**
 * Commands a trusted `setup.py` may run without review: they build into the workspace. `install`, `develop` and
 * `easy_install` write into site-packages or download, `upload` and `register` reach the network, `setopt` writes a
 * config file (a thirtieth review).
 */
const SETUP_SCRIPT_BUILD_COMMANDS: ReadonlySet<string> = new Set([
	"build",
	"build_py",
	"build_ext",
	"build_clib",
	"build_scripts",
	"egg_info",
	"dist_info",
	"sdist",
	"bdist",
	"bdist_wheel",
	"check",
	"clean",
	"test",
]);

/**
 * Reviews a trusted `setup.py` that runs a command other than {@link SETUP_SCRIPT_BUILD_COMMANDS} (every word that
 * is no option counts as a command: an option's value goes in its `=` form), or whose options import a module of the
 * caller's choosing (a twenty-ninth review): `--command-packages=MOD` (getopt takes a prefix down to `--com`), and
 * the `test` command's suite, module or runner (`-s`, `-m`, `-r`, `--test-…`), which it imports and calls like a
 * unittest label.
 */
function judgeSetupScriptOptions(words: readonly BashWord[]): void {
	const script = words.findIndex((word) => /(?:^|\/)setup\.py$/.test(word.value));
	if (script < 0) return;
	const rest = words.slice(script + 1).map((word) => word.value);
	if (rest.some((value) => !value.startsWith("-") && !SETUP_SCRIPT_BUILD_COMMANDS.has(value)))
		throw new Review("not-read-only");
	const longName = (value: string) => value.slice(0, value.includes("=") ? value.indexOf("=") : undefined);
	if (rest.some((value) => value.length >= 5 && "--command-packages".startsWith(longName(value))))
		throw new Review("not-read-only");
	const test = rest.indexOf("test");
	if (test >= 0 && rest.slice(test + 1).some((value) => /^-[smr]|^--test-/.test(value)))
		throw new Review("not-read-only");
}

/**
 * Judges the test labels a trusted unittest or Django runner imports ({@link testLabelWords}, {@link
 * testModuleNames}): each is a module path, and Python imports its first module from wherever it finds one first. A
 * runner calls what a label names when it is callable, so `python -m unittest CODE timeit.main` ran `CODE` through
 * the standard library's `timeit.main` (a twenty-eighth review), and `discover -s email` runs an installed package's
 * tests. A label is allowed only when its first module is no standard-library name ({@link PYTHON_STDLIB_MODULES}:
 * a built-in, frozen or already imported one wins, and so does a regular module over a workspace folder without
 * `__init__.py`; a twenty-ninth review), the folder the runner imports from holds its modules as regular packages
 * and modules (`tests/__init__.py`, `tests/test_a.py`), which the shell checks on disk (`existingPaths`), and what
 * follows the last of them is at most a test class and a test method ({@link isTestAttributePath}): after that, the
 * label walks through whatever the module imported (`tests.test_a.unittest.case.sys.breakpointhook` opened pdb; a
 * thirtieth review). The disk was read before the command ran, so a label after a removal or rename in the same
 * command (`rm IPython.py; python -m unittest IPython.embed`, also `mv` and `git stash`), or in a part that runs
 * beside others, is reviewed.
 */
function judgeTestLabels(words: readonly BashWord[], state: WalkState, judge: Judge): void {
	const found = testLabelWords(words, state, judge);
	if (found === undefined) return;
	const { labels, base } = found;
	const optionName = (value: string) => value.slice(0, value.includes("=") ? value.indexOf("=") : undefined);
	if (
		labels.some(
			(word) => word.value.startsWith("--") && abbreviates(optionName(word.value), TEST_RUNNER_NETWORK_OPTIONS),
		)
	)
		throw new Review("not-read-only");
	if (base === undefined) throw new Review("dynamic");
	const names = testModuleNames(labels, found.optionsOnly === true);
	if (names.length > 0 && judge.requests === undefined && (judge.removedFiles || judge.concurrent > 0))
		throw new Review("writes");
	for (const label of names) {
		const parts = label.split(".");
		if (PYTHON_STDLIB_MODULES.has(parts[0] as string)) throw new Review("not-read-only");
		const candidatesAt = (depth: number) => {
			const path = `${base}/${parts.slice(0, depth).join("/")}`;
			return [`${path}/__init__.py`, `${path}.py`].map(normalizeAbsolutePath);
		};
		if (judge.requests !== undefined) {
			for (let depth = 1; depth <= parts.length; depth++) {
				for (const candidate of candidatesAt(depth)) {
					judge.requests.modulePaths.add(candidate);
					classifyOpened(candidate, candidate, state, judge, true);
				}
			}
			continue;
		}
		// A package comes before a module of the same name; a module ends the import path.
		let modules = 0;
		while (modules < parts.length) {
			const [packageInit, moduleFile] = candidatesAt(modules + 1) as [string, string];
			const module = [packageInit, moduleFile].find((path) => judge.context.existingPaths?.has(path) === true);
			if (module === undefined) break;
			if (classifyOpened(module, module, state, judge, true) !== "workspace") throw new Review("not-read-only");
			modules++;
			if (module === moduleFile) break;
		}
		if (modules === 0 || !isTestAttributePath(parts.slice(modules))) throw new Review("not-read-only");
	}
}

/**
 * True for what may follow a test label's modules: nothing, a test class (`TestParser`, `test_case`), or a test
 * class and a test method (`TestParser.test_empty`). Anything else names an object the module imported.
 */
function isTestAttributePath(attributes: readonly string[]): boolean {
	const [testClass, method, ...rest] = attributes;
	if (testClass === undefined) return true;
	if (rest.length > 0 || !/^(?:[A-Z]|[Tt]est)/.test(testClass)) return false;
	return method === undefined || /^test/.test(method);
}

function isWorkspaceFile(literal: string, state: WalkState, judge: Judge): boolean {
	if (literal.startsWith("-") || literal.length === 0) return false;
	const resolved = resolveIn(literal, state, judge);
	if (resolved === undefined) return false;
	return classifyOpened(literal, resolved, state, judge) === "workspace";
}
