// guardian-review: before a risky tool call runs, a deterministic floor and then a reviewer model decide allow or
// deny, failing closed. This is the Pi shell: the decision order lives in the kernel's pipeline reducer
// (@pi-policy/policy-kernel/guardian); the shell gathers facts, runs the reviewer and the dialog, and carries out
// the effects (./effects.ts).
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import type {
	BeforeAgentStartEvent,
	ExtensionAPI,
	ExtensionContext,
	InputEvent,
	ToolCallEvent,
	ToolCallEventResult,
	ToolExecutionEndEvent,
} from "@earendil-works/pi-coding-agent";
import {
	actionIdentityText,
	floorContextFor,
	forgetAllowOnce,
	GUARDIAN_PROJECT_LOCKED_KEYS,
	GUARDIAN_STRENGTHEN_RULES,
	type GuardianMode,
	type GuardianReviewConfig,
	GuardianReviewConfigSchema,
	type GuardianState,
	guardianDefaultsLayer,
	initialGuardianState,
	type LoadedPiResources,
	loadedPiResourcesOf,
	notePrompt,
	noteToolCallEnded,
	type PipelineStep,
	planToolCall,
	resolveGuardianReviewLayer,
	settleReview,
	settleUserAnswer,
	startTurn,
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
import { createFloorFactsReader, mayChangeFiles } from "./floor-facts.js";
import { actionFingerprint } from "./grant-fingerprint.js";
import { askUserWhenUnavailable, reviewToolCall } from "./reviewer.js";
import { noteSessionId, seenSessionIds, sessionProcessIds } from "./session-processes.js";
import { createToolFactsLookup } from "./tool-facts.js";

export { deepFreeze } from "./effects.js";
export { HOME_LINKS_INCOMPLETE_NOTICE } from "./floor-facts.js";

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
	/**
	 * How many workspace entries an allow-once fingerprint looks at (tests lower it). Default
	 * `MAX_FINGERPRINT_WORKSPACE_ENTRIES`.
	 */
	readonly fingerprintEntryBound?: number;
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
	const audit = createAuditWriter(pi, NAME, { onDiagnostic: diagnose });
	const toolFacts = createToolFactsLookup(() => pi.getAllTools());
	const floorFacts = createFloorFactsReader({
		pi,
		home: options.home ?? homedir(),
		environment: options.environment ?? process.env,
		toolFacts: (toolName) => toolFacts.of(toolName),
		...(options.homeConfigEntryBound === undefined ? {} : { homeConfigEntryBound: options.homeConfigEntryBound }),
	});
	/** What Pi loaded for the model to read this prompt (skills, context files), from `before_agent_start`. */
	let loadedResources: LoadedPiResources | undefined;
	/** Allowed calls that may change files (not bash the floor allowed as read-only) and have not finished. */
	const changingCalls = new Set<string>();
	/** The last call guardian blocked: the denial `/guardian allow-once` would grant. */
	let lastBlocked: { id: string; fingerprint: () => string } | undefined;
	/** Live processes carrying a session id guardian saw: work the agent's commands left running. */
	const sessionProcesses = (ctx: ExtensionContext): number[] | undefined => {
		noteSessionId(ctx.sessionManager);
		return sessionProcessIds(seenSessionIds);
	};
	/** Whether `maker` made the call `id` (nested ids are `<maker's id>/<n>`, at any depth). */
	const made = (maker: string, id: string | undefined) => id?.startsWith(`${maker}/`) === true;
	/** Whether such a call still runs, other than the calls that made `id` (a code-mode script around it). */
	const changeRunning = (id: string | undefined): boolean => {
		for (const running of changingCalls) if (running !== id && !made(running, id)) return true;
		return false;
	};

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
		const { facts, home, readsTree } = await floorFacts.forCall(toolName, input, ctx, active, loadedResources);
		const fingerprint = () => actionFingerprint(toolName, input, ctx.cwd, home, options.fingerprintEntryBound);
		let hash: string | undefined;
		const hashOnce = () => {
			hash ??= actionHash(toolName, input);
			return hash;
		};
		const granted = state.allowOnce.grants.some((grant) => grant.hash === hashOnce());
		let step = perform(
			planToolCall(state, {
				toolName,
				input,
				hash: hashOnce,
				tool: toolFacts.of(toolName),
				config: active,
				mode,
				floorContext: floorContextFor(active, ctx.cwd, home, facts),
				now: now(),
				hasUI: ctx.hasUI,
				nested: event.parentToolCallId !== undefined,
				// Work the agent's commands left running keeps a grant from being used, as a running change does.
				changeRunning: changeRunning(event.toolCallId) || (granted && (sessionProcesses(ctx)?.length ?? 0) > 0),
				mayChangeFiles: mayChangeFiles(toolName),
				// A grant is used only while its fingerprint matches (the workspace walk runs only for a granted action).
				...(granted ? { fingerprint: fingerprint() } : {}),
			}),
			event,
			ctx,
		);
		if (step.next.kind === "review") {
			const call = step.next.call;
			const { prompt, review, result } = await reviewToolCall(ctx, active, { toolName, input, home });
			step = perform(settleReview(state, call, result), event, ctx, { toolName, prompt, review, config: active });
			if (step.next.kind === "ask-user") {
				const { failure } = step.next;
				const approved = await askUserWhenUnavailable(ctx, toolName, failure);
				step = perform(settleUserAnswer(state, call, failure, approved, review.latencyMs), event, ctx);
			}
		}
		// Every path ends `done`; anything else fails closed.
		if (step.next.kind !== "done") return toolCallBlockedResult(NAME);
		if (step.next.resolution.kind === "block") {
			lastBlocked = { id: event.toolCallId, fingerprint };
			return { block: true, reason: step.next.resolution.reason };
		}
		floorFacts.callAllowed(event.toolCallId, toolName, readsTree);
		if (mayChangeFiles(toolName) && step.next.readsOnly !== true) changingCalls.add(event.toolCallId);
		return undefined;
	};

	pi.on(
		"session_start",
		wrapHandler(
			async (_event, ctx) => {
				state = initialGuardianState();
				noteSessionId(ctx.sessionManager);
				toolFacts.clear();
				floorFacts.reset();
				changingCalls.clear();
				lastBlocked = undefined;
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
			shellSetup: floorFacts.shellSetupFor,
			setMode: (mode) => {
				// Calls run unseen while guardian is off: no grant or denial waiting for one outlives that.
				if ((effectiveMode() === "off") !== (mode === "off")) state = forgetAllowOnce(state);
				modeOverride = mode;
			},
			state: () => state,
			setState: (next) => {
				state = next;
			},
			reviewLogFailed: () => reviewLogFailed,
			loadedResources: () => loadedResources,
			changeRunning: () => changeRunning(lastBlocked?.id),
			fingerprint: () => lastBlocked?.fingerprint(),
			sessionProcesses,
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
				floorFacts.callEnded(event.toolCallId, event.toolName);
				// A verdict of this turn, or an allow-once grant, is not reused once a call that may have changed what it
				// does has run.
				if (changingCalls.delete(event.toolCallId))
					state = noteToolCallEnded(state, { madeLastDenied: made(event.toolCallId, lastBlocked?.id) });
				return undefined;
			},
			{ failure: "open", name: "guardian-review tool_execution_end" },
		),
	);
	pi.on(
		"agent_end",
		wrapHandler(
			() => {
				floorFacts.agentEnded();
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
