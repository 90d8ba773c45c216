// The facts the floor judges one tool call by, read by the shell: the judged shell setup, home's configuration links
// into the workspace, the git facts of the repositories a call runs git in or writes around, the listings of the
// trees a recursive read walks, where the call's paths lead through links, and which modules exist. Also which
// allowed calls are still running: while one that may change files runs, later calls read no fresh facts.
import { delimiter } from "node:path";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@earendil-works/pi-coding-agent";
import {
	bashCommandArgument,
	customShellSetup,
	type FloorFacts,
	floorContextFor,
	floorFactRequestsOf,
	type GuardianReviewConfig,
	grepToolSearchTree,
	judgeShellSetup,
	type LoadedPiResources,
	normalizeAbsolutePath,
	pathThroughRoots,
	resolveAdditionalDirectories,
	resolveToolScope,
	type ShellSetupFacts,
	type ToolFacts,
	toolCallLinkPaths,
	toolWriteFolders,
} from "@pi-policy/policy-kernel/guardian";
import { createGitConfigFacts, mayRunGit } from "./git-config-reader.js";
import {
	createPathLinkReader,
	homeNamedLikeWorkspace,
	MAX_HOME_CONFIG_ENTRIES,
	readExistingPaths,
	readHomeConfigLinkTargets,
	readMirroredHomeLinkTargets,
	readShellSetupRealPaths,
} from "./path-link-reader.js";
import { createSearchTreeFacts } from "./search-tree-reader.js";

/** Shown once a session when home's configuration folders hold too many entries to look for links among. */
export const HOME_LINKS_INCOMPLETE_NOTICE = `guardian-review: home's configuration folders hold more than ${MAX_HOME_CONFIG_ENTRIES.toLocaleString("en-US")} entries to look for links into the workspace, so every write in the workspace is reviewed this session.`;

/** Pi's built-in tools that only read: they cannot change the repository's git config. */
const READ_ONLY_BUILTINS = new Set(["read", "grep", "find", "ls"]);

/** Whether a call of this tool may change files: any tool but Pi's read-only built-ins. */
export function mayChangeFiles(toolName: string): boolean {
	return !READ_ONLY_BUILTINS.has(toolName);
}

/**
 * The shell Pi's bash tool runs commands in, judged by the kernel: Pi's `shellPath` and `shellCommandPrefix`
 * settings and the environment bash inherits. A host whose settings cannot be read counts as custom (fails closed).
 */
function readShellSetup(
	pi: Pick<ExtensionAPI, "getSettings">,
	cwd: string,
	additionalDirectories: readonly string[],
	home: string,
	environment: Readonly<Record<string, string | undefined>>,
): ShellSetupFacts {
	const custom = customShellSetup("unreadable-settings", (environment.CDPATH ?? "") !== "");
	let settings: { shellPath?: unknown; shellCommandPrefix?: unknown };
	try {
		settings = pi.getSettings();
	} catch {
		return custom;
	}
	const { shellPath, shellCommandPrefix } = settings;
	const isText = (value: unknown): value is string | undefined => value === undefined || typeof value === "string";
	if (!isText(shellPath) || !isText(shellCommandPrefix)) return custom;
	const input = {
		shellPath,
		commandPrefix: shellCommandPrefix,
		environment,
		workspace: cwd,
		additionalDirectories,
		home,
		pathDelimiter: delimiter === ";" ? ";" : ":",
		platform: process.platform,
	} as const;
	return judgeShellSetup({ ...input, realPaths: readShellSetupRealPaths(input) });
}

/** Where the facts are read from. */
export interface FloorFactsSources {
	readonly pi: Pick<ExtensionAPI, "getSettings">;
	/** The home directory used for `~` and protected paths. */
	readonly home: string;
	/** The environment Pi's bash tool passes on. */
	readonly environment: Readonly<Record<string, string | undefined>>;
	/** How many entries of home's configuration folders are looked at for links into the workspace. */
	readonly homeConfigEntryBound?: number;
	/** What Pi reports about a tool (built in, annotations). */
	readonly toolFacts: (toolName: string) => ToolFacts;
}

/**
 * One call's facts; home as the workspace's path names it (Pi's folder is a real path; `$HOME` may lead through a
 * link); whether the call reads a listed tree (it then counts as such a read while it runs).
 */
export interface CallFloorFacts {
	readonly facts: FloorFacts;
	readonly home: string;
	readonly readsTree: boolean;
}

/** The shell's fact reader; one per extension instance. */
export interface FloorFactsReader {
	/** The judged shell setup, per working directory and additional workspace directories (read once a session). */
	shellSetupFor(cwd: string, active: GuardianReviewConfig): ShellSetupFacts;
	/** Reads the facts of one tool call. */
	forCall(
		toolName: string,
		input: unknown,
		ctx: ExtensionContext,
		active: GuardianReviewConfig,
		loadedResources: LoadedPiResources | undefined,
	): Promise<CallFloorFacts>;
	/** An allowed call starts running. */
	callAllowed(toolCallId: string, toolName: string, readsTree: boolean): void;
	/** A call finished: after one that may change files, the repository, tree and link facts are read again. */
	callEnded(toolCallId: string, toolName: string): void;
	/** The agent stopped: no call runs any more. */
	agentEnded(): void;
	/** A new session: everything is read again. */
	reset(): void;
}

/** Creates the shell's fact reader. */
export function createFloorFactsReader(sources: FloorFactsSources): FloorFactsReader {
	const { pi, home, environment } = sources;
	const gitFacts = createGitConfigFacts(home);
	const treeFacts = createSearchTreeFacts();
	const linkReader = createPathLinkReader();
	/** Allowed calls that may change files (anything but Pi's read-only built-ins) and have not finished. */
	const inFlight = new Set<string>();
	// Allowed calls of Pi's reading tools still running, and of those (and bash) the ones that read a listed tree.
	const readsInFlight = new Set<string>();
	const treeReadsInFlight = new Set<string>();
	let shellSetup: { key: string; facts: ShellSetupFacts } | undefined;
	let homeLinks: { key: string; targets: readonly string[] } | undefined;

	const shellSetupFor = (cwd: string, active: GuardianReviewConfig): ShellSetupFacts => {
		const directories = resolveAdditionalDirectories(active.additionalDirectories, home);
		const key = [cwd, ...directories].join("\u0000");
		if (shellSetup?.key !== key) shellSetup = { key, facts: readShellSetup(pi, cwd, directories, home, environment) };
		return shellSetup.facts;
	};
	/**
	 * Where links among home's configuration lead into the workspace, read like the shell setup (session start). When
	 * there are too many entries to look at, every write in the workspace is reviewed, and the user is told once.
	 */
	const homeConfigLinkTargetsFor = (ctx: ExtensionContext, active: GuardianReviewConfig, workspaceHome: string) => {
		const directories = resolveAdditionalDirectories(active.additionalDirectories, workspaceHome);
		const key = [workspaceHome, ctx.cwd, ...directories].join("\u0000");
		if (homeLinks?.key !== key) {
			const roots = [normalizeAbsolutePath(ctx.cwd), ...directories];
			const read = readHomeConfigLinkTargets(workspaceHome, roots, sources.homeConfigEntryBound);
			homeLinks = { key, targets: read.targets };
			if (!read.complete && ctx.hasUI) ctx.ui.notify(HOME_LINKS_INCOMPLETE_NOTICE, "warning");
		}
		return homeLinks.targets;
	};
	const invalidate = () => {
		gitFacts.invalidate();
		treeFacts.invalidate();
		linkReader.invalidate();
	};
	const clearInFlight = () => {
		inFlight.clear();
		readsInFlight.clear();
		treeReadsInFlight.clear();
	};

	return {
		shellSetupFor,
		async forCall(toolName, input, ctx, active, loadedResources) {
			const workspaceHome = homeNamedLikeWorkspace(home, ctx.cwd);
			const contextOf = (facts: FloorFacts) => floorContextFor(active, ctx.cwd, workspaceHome, facts);
			// The shell's facts are read only while no call that may change them runs: the repositories' git facts for
			// git commands, and the trees a recursive read walks. Links are followed for every call; while a call is in
			// flight, a path with a missing part is unknown, since that call may make it (`mv lnk n2` beside `cat n2/x`).
			const command = toolName === "bash" ? bashCommandArgument(input) : undefined;
			const settled = inFlight.size === 0;
			// A read still running may open a path this call makes: its missing parts are unknown too (`mv root n2`
			// after `read n2/.kube/config` in the same message; a twenty-second review).
			const quiet = settled && readsInFlight.size === 0;
			// bash inherits this process's environment and Pi's shell settings (a CDPATH makes `cd NAME` search other
			// folders; an alias or exported function may redefine `ls`); Pi's agent directory is protected.
			let facts: FloorFacts = {
				shell: shellSetupFor(ctx.cwd, active),
				homeConfigLinkTargets: homeConfigLinkTargetsFor(ctx, active, workspaceHome),
				agentDir: getAgentDir(),
				...(loadedResources === undefined ? {} : { loadedResources }),
				...(treeReadsInFlight.size > 0 ? { treeReadInFlight: true } : {}),
			};
			const requests = command === undefined ? undefined : floorFactRequestsOf(command, contextOf(facts));
			// A write in a folder a repository's `core.hooksPath` names arms a hook: the folders of the repositories around
			// where the call writes are read (one that cannot be judged counts as such a folder itself).
			if (requests !== undefined || toolName === "write" || toolName === "edit") {
				const folders = requests?.writeFolders ?? toolWriteFolders(toolName, input, contextOf(facts));
				const roots = resolveAdditionalDirectories(active.additionalDirectories, workspaceHome);
				// Home's links into those folders at any depth, by their mirror image (a fifty-first review).
				const mirrored = readMirroredHomeLinkTargets(
					workspaceHome,
					[normalizeAbsolutePath(ctx.cwd), ...roots],
					folders,
					requests?.movedPaths,
				);
				// Named through the workspace's and the additional directories' names too, as the kernel names a write's
				// real path (an eightieth review: `~/lib -> ~/data/lib` with a hook linked to `scripts/pre-commit`, whose
				// target is armed only by its real path).
				const linkRoots = linkReader.roots(contextOf(facts));
				const armed = await gitFacts.armedPathsAround(ctx.cwd, folders, roots);
				facts = {
					...facts,
					gitArmedPaths: [...new Set([...armed, ...armed.map((path) => pathThroughRoots(path, linkRoots))])],
					...(mirrored.length === 0
						? {}
						: { homeConfigLinkTargets: [...(facts.homeConfigLinkTargets ?? []), ...mirrored] }),
				};
			}
			if (command !== undefined && requests !== undefined) {
				const factContext = contextOf(facts);
				if (settled && mayRunGit(command))
					facts = {
						...facts,
						...(await gitFacts.forDirectories(
							requests.gitDirectories,
							factContext,
							requests.gitHistoryDirectories,
							requests.gitAddDirectories,
						)),
					};
				if (settled) facts = { ...facts, searchTrees: await treeFacts.forTrees(requests.searchTrees, factContext) };
				facts = {
					...facts,
					pathLinks: linkReader.read(requests.linkPaths, factContext, !quiet),
					existingPaths: readExistingPaths(requests.modulePaths, quiet),
				};
				return { facts, home: workspaceHome, readsTree: requests.searchTrees.length > 0 };
			}
			if (toolName === "bash" || resolveToolScope(active, toolName, sources.toolFacts(toolName), input) === "off")
				return { facts, home: workspaceHome, readsTree: false };
			const factContext = contextOf(facts);
			// Pi's grep tool reads every file below its path, hidden ones included: list that tree.
			const tree = settled ? grepToolSearchTree(toolName, input, factContext) : undefined;
			if (tree !== undefined) facts = { ...facts, searchTrees: await treeFacts.forTrees([tree], factContext) };
			facts = {
				...facts,
				pathLinks: linkReader.read(toolCallLinkPaths(toolName, input, factContext), factContext, !quiet),
			};
			return { facts, home: workspaceHome, readsTree: tree !== undefined };
		},
		callAllowed(toolCallId, toolName, readsTree) {
			if (mayChangeFiles(toolName)) inFlight.add(toolCallId);
			else readsInFlight.add(toolCallId);
			if (readsTree) treeReadsInFlight.add(toolCallId);
		},
		callEnded(toolCallId, toolName) {
			inFlight.delete(toolCallId);
			readsInFlight.delete(toolCallId);
			treeReadsInFlight.delete(toolCallId);
			if (mayChangeFiles(toolName)) invalidate();
		},
		agentEnded: clearInFlight,
		reset() {
			invalidate();
			clearInFlight();
			shellSetup = undefined;
			homeLinks = undefined;
		},
	};
}
