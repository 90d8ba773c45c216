// guardian-review: before a risky tool call runs, a deterministic floor and then a reviewer model decide allow or
// deny, failing closed. This is the Pi shell: the decision order lives in the kernel's pipeline reducer
// (@pi-policy/policy-kernel/guardian); the shell gathers facts, runs the reviewer and the dialog, and carries out
// the effects (./effects.ts).
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { delimiter } from "node:path";
import {
	type BeforeAgentStartEvent,
	type ExtensionAPI,
	type ExtensionContext,
	getAgentDir,
	type InputEvent,
	type ToolCallEvent,
	type ToolCallEventResult,
	type ToolExecutionEndEvent,
} from "@earendil-works/pi-coding-agent";
import {
	actionIdentityText,
	bashCommandArgument,
	buildReviewerPrompt,
	customShellSetup,
	type FloorFacts,
	floorContextFor,
	floorFactRequestsOf,
	GUARDIAN_PROJECT_LOCKED_KEYS,
	GUARDIAN_STRENGTHEN_RULES,
	type GuardianMode,
	type GuardianReviewConfig,
	GuardianReviewConfigSchema,
	type GuardianState,
	grepToolSearchTree,
	guardianDefaultsLayer,
	initialGuardianState,
	judgeShellSetup,
	type LoadedPiResources,
	loadedPiResourcesOf,
	normalizeAbsolutePath,
	notePrompt,
	type PipelineStep,
	planToolCall,
	resolveAdditionalDirectories,
	resolveGuardianReviewLayer,
	resolveToolScope,
	type ShellSetupFacts,
	settleReview,
	settleUserAnswer,
	startTurn,
	toolCallLinkPaths,
	toolWriteFolders,
	UNAVAILABLE_DIALOG_TITLE,
	unavailableDialogMessage,
} from "@pi-policy/policy-kernel/guardian";
import {
	createAuditWriter,
	createPolicyConfig,
	type PolicyConfig,
	toolCallBlockedResult,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import { createGuardianCommand } from "./command.js";
import { createEffectPerformer, type ReviewContext, STATUS_KEY } from "./effects.js";
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
import { type ReviewOutcome, runReview } from "./reviewer.js";
import { createSearchTreeFacts } from "./search-tree-reader.js";

export { deepFreeze } from "./effects.js";

import { sessionTranscript } from "./session-transcript.js";
import { createToolFactsLookup } from "./tool-facts.js";

/** Shown once a session when home's configuration folders hold too many entries to look for links among. */
export const HOME_LINKS_INCOMPLETE_NOTICE = `guardian-review: home's configuration folders hold more than ${MAX_HOME_CONFIG_ENTRIES.toLocaleString("en-US")} entries to look for links into the workspace, so every write in the workspace is reviewed this session.`;

/** Pi's built-in tools that only read: they cannot change the repository's git config. */
const READ_ONLY_BUILTINS = new Set(["read", "grep", "find", "ls"]);

/** The package folder name: the config file is `policy/guardian-review.json`, audit entries carry this `ext`. */
export const NAME = "guardian-review";
/** @deprecated The old name of {@link NAME}, kept for code written against it. */
export const GUARDIAN_REVIEW = NAME;

/** Options for {@link createGuardianReview}; the default export uses none. */
export interface GuardianReviewOptions {
	/** The clock for allow-once expiry (tests inject one). Default `Date.now`. */
	readonly now?: () => number;
	/** The home directory used for `~` and protected paths. Default `os.homedir()`. */
	readonly home?: string;
	/** The environment Pi's bash tool passes on (tests inject one). Default `process.env`. */
	readonly environment?: Readonly<Record<string, string | undefined>>;
	/**
	 * How many entries of home's configuration folders are looked at for links into the workspace (tests lower it).
	 * Default `MAX_HOME_CONFIG_ENTRIES`.
	 */
	readonly homeConfigEntryBound?: number;
}

/**
 * The shell Pi's bash tool runs commands in, judged by the kernel: Pi's `shellPath` and `shellCommandPrefix`
 * settings and the environment bash inherits. A host whose settings cannot be read counts as custom (fails closed).
 */
function readShellSetup(
	pi: ExtensionAPI,
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
	} as const;
	return judgeShellSetup({ ...input, realPaths: readShellSetupRealPaths(input) });
}

/** SHA-256 (hex) of the action's canonical identity: the key of verdict reuse and allow-once grants. */
export function actionHash(toolName: string, input: unknown): string {
	return createHash("sha256").update(actionIdentityText(toolName, input), "utf8").digest("hex");
}

/**
 * The config lifecycle: `policy/guardian-review.json`, global over the defaults, then a trusted project file by
 * the kernel's one project-layer rule, where every key is a security setting: strengthened by its rule or locked.
 * An invalid file fails closed: the valid files (or the defaults) run in `enforce`.
 */
function createGuardianReviewConfig(
	pi: ExtensionAPI,
	diagnose: (message: string) => void,
): PolicyConfig<GuardianReviewConfig> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "closed",
		schema: GuardianReviewConfigSchema,
		defaults: guardianDefaultsLayer(),
		projectLayer: { strengthen: GUARDIAN_STRENGTHEN_RULES, locked: GUARDIAN_PROJECT_LOCKED_KEYS },
		resolve: resolveGuardianReviewLayer,
		enabled: (config) => config.mode !== "off",
		auditFields: { mode: "enforce" },
		closedNote: "enforcing with the valid config file or the defaults",
		onDiagnostic: diagnose,
	});
}

/** Creates the extension factory with injected options (tests use a fake clock). */
export function createGuardianReview(options: GuardianReviewOptions = {}): (pi: ExtensionAPI) => void {
	return (pi) => registerGuardianReview(pi, options);
}

/** The guardian-review extension. */
export default function guardianReview(pi: ExtensionAPI): void {
	registerGuardianReview(pi, {});
}

/**
 * Registers guardian-review. The `/guardian` command and `session_start` are always registered, so
 * `/guardian status` answers whatever the config says. The review hooks are registered when the startup gate (the
 * global file, read synchronously here, or a project file in the launch folder) may turn it on, or when the
 * global file is invalid (which fails closed).
 */
export function registerGuardianReview(pi: ExtensionAPI, options: GuardianReviewOptions = {}): void {
	const diagnose = (message: string) => console.error(message);
	const policy = createGuardianReviewConfig(pi, diagnose);
	const now = options.now ?? Date.now;
	const home = options.home ?? homedir();
	const environment = options.environment ?? process.env;
	/**
	 * The judged shell setup, per working directory and additional workspace directories: read at session start
	 * (a `/reload` starts one).
	 */
	let shellSetup: { key: string; facts: ShellSetupFacts } | undefined;
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
	let homeLinks: { key: string; targets: readonly string[] } | undefined;
	const homeConfigLinkTargetsFor = (ctx: ExtensionContext, active: GuardianReviewConfig, workspaceHome: string) => {
		const directories = resolveAdditionalDirectories(active.additionalDirectories, workspaceHome);
		const key = [workspaceHome, ctx.cwd, ...directories].join("\u0000");
		if (homeLinks?.key !== key) {
			const roots = [normalizeAbsolutePath(ctx.cwd), ...directories];
			const read = readHomeConfigLinkTargets(workspaceHome, roots, options.homeConfigEntryBound);
			homeLinks = { key, targets: read.targets };
			if (!read.complete && ctx.hasUI) ctx.ui.notify(HOME_LINKS_INCOMPLETE_NOTICE, "warning");
		}
		return homeLinks.targets;
	};
	const audit = createAuditWriter(pi, NAME, { onDiagnostic: diagnose });
	const toolFacts = createToolFactsLookup(() => pi.getAllTools());
	const gitFacts = createGitConfigFacts(home);
	const treeFacts = createSearchTreeFacts();
	const linkReader = createPathLinkReader();
	/** Allowed calls that may change files (anything but Pi's read-only built-ins) and have not finished. */
	const inFlight = new Set<string>();
	// Allowed calls of Pi's reading tools still running, and of those (and bash) the ones that read a listed tree.
	const readsInFlight = new Set<string>();
	const treeReadsInFlight = new Set<string>();
	/** What Pi loaded for the model to read this prompt (skills, context files), from `before_agent_start`. */
	let loadedResources: LoadedPiResources | undefined;

	let config: GuardianReviewConfig | undefined;
	let modeOverride: GuardianMode | undefined;
	let state: GuardianState = initialGuardianState();
	let chain: Promise<unknown> = Promise.resolve();
	let reviewLogFailed = false;

	const effectiveMode = (): GuardianMode => modeOverride ?? config?.mode ?? "enforce";

	const loadConfig = async (ctx: ExtensionContext): Promise<GuardianReviewConfig> => {
		const loaded = await policy.load(ctx);
		const base = loaded.config ?? defaultConfig();
		// Fails closed: an invalid file leaves the valid one (or the defaults), always enforced.
		config = loaded.problem !== undefined ? { ...base, mode: "enforce" } : base;
		return config;
	};

	const performEffect = createEffectPerformer(pi, audit, () => {
		reviewLogFailed = true;
	});
	/** Carries out the pipeline's effects, in order, and keeps its state. */
	const perform = (
		step: PipelineStep,
		event: ToolCallEvent,
		ctx: ExtensionContext,
		review?: ReviewContext,
	): PipelineStep => {
		state = step.state;
		for (const effect of step.effects) performEffect(effect, event, ctx, review);
		return step;
	};

	const decideToolCall = async (
		event: ToolCallEvent,
		ctx: ExtensionContext,
	): Promise<ToolCallEventResult | undefined> => {
		const active = config ?? (await loadConfig(ctx));
		const mode = effectiveMode();
		if (mode === "off") return undefined;
		const { toolName } = event;
		const input: unknown = event.input;
		// Home as the workspace's path names it (Pi's folder is a real path; `$HOME` may lead through a link).
		const workspaceHome = homeNamedLikeWorkspace(home, ctx.cwd);
		// The shell's facts are read only while no call that may change them runs: the repositories' git facts for git
		// commands, and the trees a recursive read walks. Links are followed for every call; while a call is in flight,
		// a path with a missing part is unknown, since that call may make it (`mv lnk n2` beside `cat n2/x`).
		const command = toolName === "bash" ? bashCommandArgument(input) : undefined;
		const settled = inFlight.size === 0;
		// A read still running may open a path this call makes: its missing parts are unknown too (`mv root n2`
		// after `read n2/.kube/config` in the same message; a twenty-second review).
		const quiet = settled && readsInFlight.size === 0;
		let readsTree = false;
		// bash inherits this process's environment and Pi's shell settings (a CDPATH makes `cd NAME` search other
		// folders; an alias or exported function may redefine `ls`); Pi's agent directory is protected.
		let facts: FloorFacts = {
			shell: shellSetupFor(ctx.cwd, active),
			homeConfigLinkTargets: homeConfigLinkTargetsFor(ctx, active, workspaceHome),
			agentDir: getAgentDir(),
			...(loadedResources === undefined ? {} : { loadedResources }),
			...(treeReadsInFlight.size > 0 ? { treeReadInFlight: true } : {}),
		};
		const requests =
			command === undefined
				? undefined
				: floorFactRequestsOf(command, floorContextFor(active, ctx.cwd, workspaceHome, facts));
		// A write in a folder a repository's `core.hooksPath` names arms a hook: the folders of the repositories around
		// where the call writes are read (one that cannot be judged counts as such a folder itself).
		if (requests !== undefined || toolName === "write" || toolName === "edit") {
			const folders =
				requests?.writeFolders ??
				toolWriteFolders(toolName, input, floorContextFor(active, ctx.cwd, workspaceHome, facts));
			const roots = resolveAdditionalDirectories(active.additionalDirectories, workspaceHome);
			// Home's links into those folders at any depth, by their mirror image (a fifty-first review).
			const mirrored = readMirroredHomeLinkTargets(
				workspaceHome,
				[normalizeAbsolutePath(ctx.cwd), ...roots],
				folders,
				requests?.movedPaths,
			);
			facts = {
				...facts,
				gitArmedPaths: gitFacts.armedPathsAround(ctx.cwd, folders, roots),
				...(mirrored.length === 0
					? {}
					: { homeConfigLinkTargets: [...(facts.homeConfigLinkTargets ?? []), ...mirrored] }),
			};
		}
		if (command !== undefined && requests !== undefined) {
			const factContext = floorContextFor(active, ctx.cwd, workspaceHome, facts);
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
			readsTree = requests.searchTrees.length > 0;
		} else if (toolName !== "bash" && resolveToolScope(active, toolName, toolFacts.of(toolName), input) !== "off") {
			const factContext = floorContextFor(active, ctx.cwd, workspaceHome, facts);
			// Pi's grep tool reads every file below its path, hidden ones included: list that tree.
			const tree = settled ? grepToolSearchTree(toolName, input, factContext) : undefined;
			if (tree !== undefined) facts = { ...facts, searchTrees: await treeFacts.forTrees([tree], factContext) };
			facts = {
				...facts,
				pathLinks: linkReader.read(toolCallLinkPaths(toolName, input, factContext), factContext, !quiet),
			};
			readsTree = tree !== undefined;
		}
		let step = perform(
			planToolCall(state, {
				toolName,
				input,
				hash: () => actionHash(toolName, input),
				tool: toolFacts.of(toolName),
				config: active,
				mode,
				floorContext: floorContextFor(active, ctx.cwd, workspaceHome, facts),
				now: now(),
				hasUI: ctx.hasUI,
			}),
			event,
			ctx,
		);
		if (step.next.kind === "review") {
			const call = step.next.call;
			const prompt = buildReviewerPrompt({
				toolName,
				input,
				cwd: ctx.cwd,
				home: workspaceHome,
				additionalDirectories: resolveAdditionalDirectories(active.additionalDirectories, workspaceHome),
				transcript: sessionTranscript(ctx.sessionManager),
			});
			let review: ReviewOutcome;
			try {
				review = await runReview(ctx, active, prompt);
			} catch {
				review = { ok: false, reason: "model-error", latencyMs: 0, attempts: 0, modelRef: undefined };
			}
			const result = review.ok
				? {
						ok: true as const,
						verdict: review.verdict.verdict,
						latencyMs: review.latencyMs,
						attempts: review.attempts,
						promptTokens: prompt.estimatedTokens,
					}
				: review;
			step = perform(settleReview(state, call, result), event, ctx, { toolName, prompt, review, config: active });
			if (step.next.kind === "ask-user") {
				const { failure } = step.next;
				let approved = false;
				try {
					approved = await ctx.ui.confirm(UNAVAILABLE_DIALOG_TITLE, unavailableDialogMessage(toolName, failure), {
						...(ctx.signal ? { signal: ctx.signal } : {}),
					});
				} catch {
					approved = false;
				}
				step = perform(settleUserAnswer(state, call, failure, approved, review.latencyMs), event, ctx);
			}
		}
		// Every path ends `done`; anything else fails closed.
		if (step.next.kind !== "done") return toolCallBlockedResult(NAME);
		if (step.next.resolution.kind === "block") return { block: true, reason: step.next.resolution.reason };
		if (!READ_ONLY_BUILTINS.has(toolName)) inFlight.add(event.toolCallId);
		else readsInFlight.add(event.toolCallId);
		if (readsTree) treeReadsInFlight.add(event.toolCallId);
		return undefined;
	};

	pi.on(
		"session_start",
		wrapHandler(
			async (_event, ctx) => {
				state = initialGuardianState();
				toolFacts.clear();
				gitFacts.invalidate();
				treeFacts.invalidate();
				linkReader.invalidate();
				inFlight.clear();
				readsInFlight.clear();
				treeReadsInFlight.clear();
				shellSetup = undefined;
				homeLinks = undefined;
				loadedResources = undefined;
				await loadConfig(ctx);
			},
			{ failure: "open", name: "guardian-review session_start" },
		),
	);
	pi.registerCommand(
		"guardian",
		createGuardianCommand({
			policy,
			audit,
			now,
			config: (ctx) => (config === undefined ? loadConfig(ctx) : Promise.resolve(config)),
			mode: effectiveMode,
			shellSetup: shellSetupFor,
			setMode: (mode) => {
				modeOverride = mode;
			},
			state: () => state,
			setState: (next) => {
				state = next;
			},
			reviewLogFailed: () => reviewLogFailed,
			loadedResources: () => loadedResources,
		}),
	);

	// The review hooks only when the startup gate says the config may turn it on: none otherwise (no overhead).
	if (!policy.hooks) return;

	pi.on(
		"input",
		wrapHandler(
			(event: InputEvent) => {
				state = notePrompt(state, event.source === "extension");
				toolFacts.clear();
				return undefined;
			},
			{ failure: "open", name: "guardian-review input" },
		),
	);
	pi.on(
		"before_agent_start",
		wrapHandler(
			(event: BeforeAgentStartEvent) => {
				// Pi names each skill's file in the system prompt for the model to read, and loads the context files.
				loadedResources = loadedPiResourcesOf(event.systemPromptOptions);
				return undefined;
			},
			{ failure: "open", name: "guardian-review before_agent_start" },
		),
	);
	pi.on(
		"turn_start",
		wrapHandler(
			() => {
				state = startTurn(state);
				return undefined;
			},
			{ failure: "open", name: "guardian-review turn_start" },
		),
	);

	pi.on(
		"tool_execution_end",
		wrapHandler(
			(event: ToolExecutionEndEvent) => {
				inFlight.delete(event.toolCallId);
				readsInFlight.delete(event.toolCallId);
				treeReadsInFlight.delete(event.toolCallId);
				if (!READ_ONLY_BUILTINS.has(event.toolName)) {
					gitFacts.invalidate();
					treeFacts.invalidate();
					linkReader.invalidate();
				}
				return undefined;
			},
			{ failure: "open", name: "guardian-review tool_execution_end" },
		),
	);
	pi.on(
		"agent_end",
		wrapHandler(
			() => {
				inFlight.clear();
				readsInFlight.clear();
				treeReadsInFlight.clear();
				return undefined;
			},
			{ failure: "open", name: "guardian-review agent_end" },
		),
	);

	const toolCallHandler = wrapHandler(
		(event: ToolCallEvent, ctx: ExtensionContext) => {
			// Sibling calls are decided one at a time, so a verdict and the breaker see them in order.
			const run = chain.then(() => decideToolCall(event, ctx));
			chain = run.catch(() => undefined);
			return run;
		},
		{
			failure: "closed",
			name: "guardian-review tool_call",
			closedResult: (name: string) => (effectiveMode() === "enforce" ? toolCallBlockedResult(name) : undefined),
			report: (diagnostic, ctx) => {
				audit.write({ event: "handler-error", mode: effectiveMode() });
				const notifyCtx = ctx as ExtensionContext | undefined;
				if (notifyCtx?.hasUI) {
					notifyCtx.ui.setStatus(STATUS_KEY, undefined);
					notifyCtx.ui.setWorkingMessage();
					notifyCtx.ui.notify(diagnostic.message, "error");
				}
			},
		},
	);
	pi.on(
		"tool_call",
		toolCallHandler as (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallEventResult | undefined>,
	);
}

/** The defaults, for a lifecycle that returned no config. */
function defaultConfig(): GuardianReviewConfig {
	const resolved = resolveGuardianReviewLayer(undefined);
	if (resolved.ok) return resolved.value;
	throw new Error("guardian-review: defaults unavailable");
}
