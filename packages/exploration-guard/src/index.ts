// exploration-guard: paces repeated broad read/grep/find/ls exploration in the main Pi session and points the
// agent at delegation. A thin shell over @pi-policy/policy-kernel/exploration: it binds Pi events to the pure
// classifier and reducer, and performs their effects (steer nudge, notice, block, audit entry).
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@earendil-works/pi-coding-agent";
import {
	classifyBashExplorationCommand,
	classifyBroadExplorationCall,
	classifyDelegationCall,
	createExplorationGuardState,
	DEFAULT_CHILD_ENV,
	EXPLORATION_GUARD_COMMAND,
	EXPLORATION_NOTICE_LEVELS,
	EXPLORATION_NOTICES,
	type ExplorationCategory,
	type ExplorationGuardConfig,
	ExplorationGuardConfigSchema,
	type ExplorationGuardEffect,
	type ExplorationGuardEvent,
	type ExplorationGuardState,
	type ExplorationSource,
	explorationActivatedFields,
	explorationBlockReason,
	explorationNudgeText,
	isChildEnvironment,
	parseExplorationGuardCommand,
	reduceExplorationGuard,
	renderExplorationGuardStatus,
	resolveExplorationGuardConfig,
} from "@pi-policy/policy-kernel/exploration";
import {
	createAuditWriter,
	createPolicyConfig,
	type HandlerDiagnostic,
	type PolicyConfig,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import { readBatch } from "./batch.js";

/** The package folder name: the config file is `policy/exploration-guard.json`, audit entries carry this `ext`. */
export const NAME = "exploration-guard";
/** @deprecated The old name of {@link NAME}, kept for code written against it. */
export const EXPLORATION_GUARD_NAME = NAME;

/** Options for {@link registerExplorationGuard}; the defaults are what Pi uses. */
export interface ExplorationGuardOptions {
	/** The environment checked for child variables. Default `process.env`. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** The agent directory holding `policy/exploration-guard.json`. Default Pi's `getAgentDir()`. */
	readonly agentDir?: string;
	/** Receives concise local diagnostics when no UI is available. Default `console.error`. */
	readonly onDiagnostic?: (message: string) => void;
}

/** A registered guard. `undefined` is returned instead when nothing was registered (a subagent child). */
export interface ExplorationGuardHandle {
	/** Makes every handler and the command inert and unsubscribes the handlers. Idempotent. */
	dispose(): void;
	/** Whether {@link dispose} ran (explicitly, or on `session_shutdown`). */
	readonly disposed: boolean;
	/** The current session's state, or `undefined` while the guard is inactive. */
	state(): ExplorationGuardState | undefined;
}

interface ActiveSession {
	state: ExplorationGuardState;
	readonly config: ExplorationGuardConfig;
}

/**
 * The guard's config lifecycle: `policy/exploration-guard.json` (a file holding `false` means off), global then
 * trusted project file by the kernel's one project-layer rule (key by key; the guard has no security settings).
 * An invalid config disables the guard for the session (fails open).
 */
function createExplorationGuardConfig(
	pi: ExtensionAPI,
	agentDir: string | undefined,
	diagnose: (message: string) => void,
): PolicyConfig<ExplorationGuardConfig> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "open",
		schema: ExplorationGuardConfigSchema,
		normalizeLayer: (layer) => (layer === false ? { mode: "off" } : layer),
		projectLayer: {},
		resolve: resolveExplorationGuardConfig,
		enabled: (config) => config.mode !== "off",
		onDiagnostic: diagnose,
		...(agentDir ? { agentDir } : {}),
	});
}

/**
 * Registers the exploration guard on `pi`, or registers nothing and returns `undefined` when this process hosts
 * a subagent child. The command and `session_start` are always registered, so `/exploration-guard status` answers
 * even when the guard is off or its config is broken. The tool hooks are registered only when the startup gate
 * (the global file, read synchronously here, or a project file in the launch folder) may turn the guard on; the
 * effective config is resolved at each `session_start`.
 */
export function registerExplorationGuard(
	pi: ExtensionAPI,
	options: ExplorationGuardOptions = {},
): ExplorationGuardHandle | undefined {
	const env = options.env ?? process.env;
	const diagnose = options.onDiagnostic ?? ((message: string) => console.error(message));
	const agentDir = options.agentDir;
	const policy = createExplorationGuardConfig(pi, agentDir, diagnose);
	const factoryChildEnv = policy.startup.config?.childEnv ?? DEFAULT_CHILD_ENV;
	if (isChildEnvironment(env, factoryChildEnv)) return undefined;

	let disposed = false;
	let session: ActiveSession | undefined;
	const unsubscribers: Array<() => void> = [];
	const reported = new Set<string>();
	const audit = createAuditWriter(pi, NAME, { onDiagnostic: diagnose });

	const say = (ctx: ExtensionContext | undefined, message: string, level: "info" | "warning" | "error" = "info") => {
		try {
			if (ctx?.hasUI === true) {
				ctx.ui.notify(message, level);
				return;
			}
		} catch {
			// Fall through to the local diagnostic.
		}
		try {
			diagnose(message);
		} catch {
			// Diagnostics are best effort.
		}
	};

	const reportHandlerError = () => {
		const mode = session?.config.mode;
		audit.write({ event: "handler-error", ...(mode === "warn" || mode === "block" ? { mode } : {}) });
	};

	const wrapOptions = (name: string) => ({
		failure: "open" as const,
		name: `exploration-guard ${name}`,
		reported,
		report: (diagnostic: HandlerDiagnostic, ctx: unknown) =>
			say(ctx as ExtensionContext | undefined, diagnostic.message, "warning"),
		onError: () => reportHandlerError(),
	});

	const perform = (effects: readonly ExplorationGuardEffect[], ctx: ExtensionContext) => {
		let block = false;
		for (const effect of effects) {
			switch (effect.type) {
				case "block":
					block = true;
					break;
				case "audit":
					audit.write(effect.fields);
					break;
				case "notify":
					try {
						if (ctx.hasUI) ctx.ui.notify(EXPLORATION_NOTICES[effect.notice], EXPLORATION_NOTICE_LEVELS[effect.notice]);
					} catch {
						// The notice is best effort.
					}
					break;
				case "nudge":
					try {
						pi.sendUserMessage(explorationNudgeText(effect.wording), { deliverAs: "steer" });
					} catch {
						diagnose("exploration-guard: nudge not delivered");
					}
					break;
			}
		}
		return block;
	};

	const dispatch = (event: ExplorationGuardEvent, ctx: ExtensionContext): boolean => {
		const current = session;
		if (current === undefined || disposed) return false;
		const { state, effects } = reduceExplorationGuard(current.state, event);
		current.state = state;
		return perform(effects, ctx);
	};

	const on: ExtensionAPI["on"] = ((event: string, handler: (...args: never[]) => unknown) => {
		const unsubscribe = (pi.on as (e: string, h: unknown) => () => void)(event, handler);
		unsubscribers.push(unsubscribe);
		return unsubscribe;
	}) as ExtensionAPI["on"];

	const handle: ExplorationGuardHandle = {
		dispose() {
			if (disposed) return;
			disposed = true;
			session = undefined;
			for (const unsubscribe of unsubscribers.splice(0)) {
				try {
					unsubscribe();
				} catch {
					// A stale runtime may refuse; the disposed flag keeps the handler inert anyway.
				}
			}
		},
		get disposed() {
			return disposed;
		},
		state: () => session?.state,
	};

	const runCommand = (args: string, ctx: ExtensionCommandContext) => {
		const parsed = parseExplorationGuardCommand(args);
		if (!parsed.ok) {
			say(ctx, parsed.error, "warning");
			return;
		}
		const command = parsed.value;
		const notLive = disposed ? undefined : policy.statusLine();
		if (notLive !== undefined) {
			if (command.action === "status") say(ctx, `exploration-guard: ${notLive}`);
			else
				say(ctx, policy.unavailable(command.action) ?? `exploration-guard ${command.action}: unavailable`, "warning");
			return;
		}
		const current = session;
		if (disposed || current === undefined) {
			say(ctx, "Exploration guard is not active in this session.");
			return;
		}
		if (command.action === "status") {
			say(ctx, renderExplorationGuardStatus(current.state));
		} else if (command.action === "allow") {
			const before = current.state.allowance;
			dispatch({ type: "user-allow", count: command.count }, ctx);
			// The bank has a cap: say what was added, not what was asked for (a twenty-seventh review).
			const added = Math.max(0, current.state.allowance - before);
			say(
				ctx,
				`Exploration guard: ${added} more otherwise-blocked broad operation(s) allowed this session (${current.state.allowance} banked${added < command.count ? ", the most it holds" : ""}).`,
			);
		} else {
			dispatch({ type: "user-off" }, ctx);
			say(ctx, "Exploration guard: off for this session. The config file is unchanged.");
		}
	};

	// Always registered, so the command never falls through to the model as a prompt.
	pi.registerCommand(EXPLORATION_GUARD_COMMAND, {
		description: "Exploration guard for this session: status | allow [1..20] | off",
		handler: async (args, ctx) => {
			try {
				runCommand(args, ctx);
			} catch {
				reportHandlerError();
				say(ctx, "exploration-guard command failed: internal error; nothing was changed.", "warning");
			}
		},
	});

	on(
		"session_start",
		wrapHandler(async (_event, ctx) => {
			if (disposed) return;
			session = undefined;
			const loaded = await policy.load(ctx);
			if (disposed || loaded.state !== "active" || loaded.config === undefined) return;
			const config = loaded.config;
			const state = createExplorationGuardState(config);
			if (isChildEnvironment(env, config.childEnv)) {
				// Registered, then found in a child: record the anomaly for the telemetry gate and stay inert.
				audit.write(explorationActivatedFields(state, true));
				return;
			}
			session = { state, config };
			audit.write(explorationActivatedFields(state, false));
		}, wrapOptions("session_start")),
	);

	on(
		"session_shutdown",
		wrapHandler(() => {
			handle.dispose();
		}, wrapOptions("session_shutdown")),
	);

	// The tool hooks only when the startup gate says the config may turn the guard on: none otherwise (no overhead).
	if (!policy.hooks) return handle;

	/** Whether bash exploration counts right now: `auto` counts it unless grep, find and ls are all active. */
	const bashCounted = (config: ExplorationGuardConfig, activeTools: readonly string[] | undefined): boolean => {
		if (config.bash === "off") return false;
		if (config.bash === "count") return true;
		const active = activeTools ?? [];
		return !(active.includes("grep") && active.includes("find") && active.includes("ls"));
	};

	const activeToolNames = (): readonly string[] | undefined => {
		try {
			return pi.getActiveTools();
		} catch {
			return undefined;
		}
	};

	/** The context share in use (0..1), or `undefined` when Pi does not know it. */
	const contextShareOf = (ctx: ExtensionContext): number | undefined => {
		try {
			const usage = ctx.getContextUsage();
			if (usage === undefined || usage.tokens === null || !(usage.contextWindow > 0)) return undefined;
			const share = usage.tokens / usage.contextWindow;
			return Number.isFinite(share) && share >= 0 ? share : undefined;
		} catch {
			return undefined;
		}
	};

	on(
		"tool_call",
		wrapHandler((event, ctx) => {
			const current = session;
			if (disposed || current === undefined) return undefined;
			const { config } = current;
			const nested = event.parentToolCallId !== undefined;
			if (event.toolName === config.delegationTool) {
				if (nested) return undefined;
				dispatch({ type: "delegation-call", launch: classifyDelegationCall(event.input) === "launch" }, ctx);
				return undefined;
			}
			let category: ExplorationCategory;
			let activeTools: readonly string[] | undefined;
			let source: ExplorationSource = nested ? "nested" : "tool";
			if (event.toolName === "bash") {
				if (config.bash === "off") return undefined;
				activeTools = activeToolNames();
				if (!bashCounted(config, activeTools)) return undefined;
				const input = event.input as { command?: unknown } | undefined;
				// Parsed once per call; anything but pure exploration is never counted.
				const bash = classifyBashExplorationCommand(input?.command, ctx.cwd, config.smallReadMaxLines);
				if (bash.kind !== "broad") return undefined;
				category = bash.category;
				if (!nested) source = "bash";
			} else {
				const classification = classifyBroadExplorationCall(event, ctx.cwd, config.smallReadMaxLines);
				if (classification.kind !== "broad") return undefined;
				category = classification.category;
			}
			activeTools ??= activeToolNames();
			const delegationToolActive = activeTools?.includes(config.delegationTool) === true;
			const wantsShare = config.nudgeAtContextShare !== undefined && !current.state.pressureLatched;
			const contextShare = wantsShare ? contextShareOf(ctx) : undefined;
			const block = dispatch(
				{
					type: "broad-call",
					category,
					batch: readBatch(ctx, nested ? event.parentToolCallId : event.toolCallId),
					delegationToolActive,
					source,
					bashCounted: bashCounted(config, activeTools),
					...(contextShare === undefined ? {} : { contextShare }),
				},
				ctx,
			);
			return block && !nested ? { block: true, reason: explorationBlockReason(config) } : undefined;
		}, wrapOptions("tool_call")),
	);

	on(
		"tool_result",
		wrapHandler((event, ctx) => {
			const current = session;
			if (disposed || current === undefined) return undefined;
			if (event.parentToolCallId !== undefined || event.toolName !== current.config.delegationTool) return undefined;
			const launch = classifyDelegationCall(event.input) === "launch";
			dispatch({ type: "delegation-result", launch, isError: event.isError === true }, ctx);
			return undefined;
		}, wrapOptions("tool_result")),
	);

	// The end of a turn is seen at the next `turn_start` and at `agent_end`, never through `turn_end`: in Pi 1.6.0
	// `turn_end` is an actionable boundary, and one handler makes Pi rebuild a preview of the whole session for
	// every turn (docs/decisions/0005-no-actionable-boundary-handlers.md).
	const turnOver = wrapHandler((_event: unknown, ctx: ExtensionContext) => {
		if (disposed || session === undefined) return;
		dispatch({ type: "turn-end" }, ctx);
	}, wrapOptions("turn boundary"));
	on("turn_start", turnOver);
	on("agent_end", turnOver);

	return handle;
}

/** The extension factory Pi loads. A failure while registering leaves the guard out (fail open). */
export default function explorationGuard(pi: ExtensionAPI): void {
	try {
		registerExplorationGuard(pi);
	} catch {
		console.error("exploration-guard failed to load: internal error; the guard is inactive.");
	}
}
