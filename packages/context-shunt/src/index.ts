// context-shunt: blocks declared oversized reads, preserves oversized tool results as bounded artifacts, and
// offers recovery and a cited reader, and ages old tool results. A thin shell: the kernel's session reducers
// (@pi-policy/policy-kernel/shunt) decide every hook and command and return effects; `perform` carries them out, and
// the shell keeps only I/O (config files, the artifact store, timers, UI, the reader's model call).
import { createHash, randomBytes } from "node:crypto";
import type {
	ExtensionAPI,
	ExtensionContext,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
} from "@earendil-works/pi-coding-agent";
import { DELEGATION_STATE_CHANNEL, type DelegationStateV1, decodeEventPayload } from "@pi-policy/policy-kernel/events";
import {
	answerCommand,
	createAuditWriter,
	createPolicyConfig,
	type PolicyConfig,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import {
	type ArtifactSource,
	type ContextShuntConfig,
	ContextShuntConfigSchema,
	canonicalToolCall,
	countShuntArchiveFailure,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	emptyShuntSessionState,
	modeOnBranch,
	parseShuntCommand,
	planShuntToolActivation,
	reduceShuntAgentEnd,
	reduceShuntArchived,
	reduceShuntCommand,
	reduceShuntContext,
	reduceShuntSessionCompact,
	reduceShuntSessionStart,
	reduceShuntSessionTree,
	reduceShuntShutdown,
	reduceShuntToolCall,
	reduceShuntToolResult,
	resolveContextShuntConfig,
	SHUNT_MODE_ENTRY_TYPE,
	type ShuntAuditFields,
	type ShuntEffect,
	type ShuntSessionState,
	type ShuntStep,
	shuntFooterStatus,
	shuntReaderStatus,
	toolLedgerBounds,
} from "@pi-policy/policy-kernel/shunt";
import { countContentLines, utf8ByteLength } from "@pi-policy/policy-kernel/text";
import { SessionArtifacts } from "./artifacts.js";
import type { ReaderTimers, RunningReaderCall } from "./reader-call.js";
import { createDelegateTool, createRecoverTool, DELEGATE_TOOL, RECOVER_TOOL, type ShuntToolHost } from "./tools.js";

export { DELEGATE_TOOL, RECOVER_TOOL };

/** The extension's name: its config file, audit `ext` and command. */
export const NAME = "context-shunt";

/** Internal options; the default export uses none of them. Tests inject clocks, timers and the temp root. */
export interface ContextShuntOptions {
	/** Milliseconds since the epoch. Default `Date.now`. */
	readonly now?: () => number;
	/** Schedules artifact cleanup and the reader's time budget. Default `setTimeout` (unref'd). */
	readonly setTimer?: (callback: () => void, ms: number) => unknown;
	readonly clearTimer?: (handle: unknown) => void;
	/** Where the private store directory is created. Default `os.tmpdir()`. */
	readonly tempRoot?: string;
	/** Overrides `reader.timeoutMs` (tests use a short budget). */
	readonly readerTimeoutMs?: number;
	/** Random hex of `bytes` bytes. Default `crypto.randomBytes`. */
	readonly randomHex?: (bytes: number) => string;
	/** Receives the store directory when it is created (tests only). */
	readonly onStoreCreated?: (path: string) => void;
}

function defaultSetTimer(callback: () => void, ms: number): unknown {
	const handle = setTimeout(callback, ms);
	handle.unref?.();
	return handle;
}

function defaultClearTimer(handle: unknown): void {
	clearTimeout(handle as ReturnType<typeof setTimeout>);
}

function fingerprint(toolName: string, input: unknown): string {
	return createHash("sha256").update(canonicalToolCall(toolName, input), "utf8").digest("hex");
}

/** Creates the extension factory with injected clocks and timers (tests); the default export uses the real ones. */
export function createContextShunt(options: ContextShuntOptions = {}): (pi: ExtensionAPI) => void {
	return (pi) => registerContextShunt(pi, options);
}

/** The extension Pi loads (the package's default export). */
export default function contextShunt(pi: ExtensionAPI): void {
	registerContextShunt(pi, {});
}

/**
 * The config lifecycle: `policy/context-shunt.json`, global then trusted project file by the kernel's one
 * project-layer rule (key by key, `reader` merged recursively; no security settings). Invalid fails open.
 */
function createContextShuntConfig(pi: ExtensionAPI): PolicyConfig<ContextShuntConfig> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "open",
		schema: ContextShuntConfigSchema,
		projectLayer: {},
		resolve: resolveContextShuntConfig,
		enabled: (config) => config.enabled,
	});
}

/**
 * Registers context-shunt on `pi`. The command and `session_start` are always registered, so
 * `/context-shunt status` answers whatever the config says. The other hooks are registered when the startup gate
 * (the global file, read synchronously here, or a project file in the launch folder) may turn it on
 * (`enabled: false` turns it off); the effective config is resolved at every session_start.
 */
export function registerContextShunt(pi: ExtensionAPI, options: ContextShuntOptions = {}): void {
	const now = options.now ?? Date.now;
	const timers: ReaderTimers = {
		setTimer: options.setTimer ?? defaultSetTimer,
		clearTimer: options.clearTimer ?? defaultClearTimer,
	};
	const randomHex = options.randomHex ?? ((bytes: number) => randomBytes(bytes).toString("hex"));

	const policy = createContextShuntConfig(pi);
	const audit = createAuditWriter(pi, NAME, {
		onDiagnostic: (message) => console.error(message),
	});
	const reported = new Set<string>();

	// The config (rebuilt at session_start; `configError` is set while it does not make the shunt live), the kernel's
	// session state, and the I/O the kernel does not do: the delegation state, the running reader, the tools.
	let config: ContextShuntConfig = policy.startup.config ?? DEFAULT_CONTEXT_SHUNT_CONFIG;
	let configError: string | undefined = policy.startup.state === "active" ? undefined : policy.startup.state;
	let state: ShuntSessionState = emptyShuntSessionState();
	let delegationState: DelegationStateV1 | undefined;
	let runningReader: RunningReaderCall | undefined;
	let toolsRegistered = false;
	// A memo of tool-result sizes by tool call id, for the aging plan; cleared whenever aging starts over.
	const agingSizes = new Map<string, { bytes: number; lines: number }>();

	const active = () => configError === undefined && state.mode !== "off";
	const agingOn = () => configError === undefined && config.aging.enabled;
	const write = (fields: ShuntAuditFields) => audit.write({ mode: state.mode, ...fields });
	const handlerOptions = (name: string) => ({
		failure: "open" as const,
		name: `context-shunt ${name}`,
		reported,
		onError: () => audit.write({ event: "handler-error" }),
	});
	const isBuiltin = (toolName: string): boolean => {
		const info = pi.getAllTools().find((tool) => tool.name === toolName);
		return info?.sourceInfo?.path === `builtin:${toolName}`;
	};

	const artifacts = new SessionArtifacts({
		now,
		timers,
		randomHex,
		tempRoot: options.tempRoot,
		onStoreCreated: options.onStoreCreated,
		onExpired: () => write({ event: "artifact-expired" }),
	});
	const preserve = (text: string, source: ArtifactSource, lines: number, bytes: number) =>
		artifacts.preserve(text, source, lines, bytes, toolLedgerBounds(config));

	const toolHost: ShuntToolHost = {
		mode: () => state.mode,
		configValid: () => configError === undefined,
		config: () => config,
		delegationState: () => delegationState,
		now,
		randomHex,
		timers,
		readerTimeoutMs: options.readerTimeoutMs,
		readArtifact: (id) => artifacts.read(id),
		isArtifactLive: (id) => artifacts.isLive(id),
		preserveAnswer: (text, lines, bytes) => preserve(text, "reader-answer", lines, bytes),
		write,
		onArchiveFailure: () => {
			state = countShuntArchiveFailure(state);
		},
		setRunningReader: (running) => {
			runningReader = running;
		},
	};
	const recoverTool = createRecoverTool(toolHost);
	const delegateTool = createDelegateTool(toolHost);

	function syncTools(): void {
		const plan = planShuntToolActivation({
			want: active() || agingOn(),
			registered: toolsRegistered,
			active: toolsRegistered ? pi.getActiveTools() : [],
			names: [RECOVER_TOOL, DELEGATE_TOOL],
		});
		if (plan.kind === "register") {
			pi.registerTool(recoverTool);
			pi.registerTool(delegateTool);
			toolsRegistered = true;
		} else if (plan.kind === "set-active") pi.setActiveTools([...plan.tools]);
	}

	/** The context of the `/context-shunt` command being answered: its notices reach the user without a UI too. */
	let answering: ExtensionContext | undefined;

	function notify(ctx: ExtensionContext | undefined, message: string, level: "info" | "warning" = "info"): void {
		if (ctx !== undefined && ctx === answering) answerCommand(ctx, message, level);
		else if (ctx?.hasUI === true) ctx.ui.notify(message, level);
	}

	/** Carries out one effect of the kernel. */
	function performOne(effect: ShuntEffect, ctx: ExtensionContext | undefined): void {
		switch (effect.type) {
			case "audit":
				audit.write(effect.entry);
				return;
			case "notify":
				notify(ctx, effect.message, effect.level);
				return;
			case "cancel-reader":
				runningReader?.cancel();
				return;
			case "persist-mode":
				pi.appendEntry(SHUNT_MODE_ENTRY_TYPE, { v: 1, mode: effect.mode });
				return;
			case "sync-tools":
				syncTools();
				return;
			// "clear-artifacts" comes only from commands, whose runner awaits it itself.
			case "show-footer":
				if (ctx?.hasUI === true)
					ctx.ui.setStatus(NAME, configError === undefined ? shuntFooterStatus(state.mode) : "shunt:inactive");
				return;
		}
	}

	/** Takes a reducer's state, performs its effects, and returns its result. */
	function perform<R>(step: ShuntStep<R>, ctx: ExtensionContext | undefined): R {
		state = step.state;
		for (const effect of step.effects) performOne(effect, ctx);
		return step.result;
	}

	const restoredMode = (ctx: ExtensionContext) => modeOnBranch(ctx.sessionManager.getBranch());

	// ---- events -------------------------------------------------------------------------------------------------

	pi.registerCommand(NAME, {
		description: "context-shunt: off | observe | enforce | status | reset | allow <token> <maxLines> <maxBytes>",
		handler: async (args, ctx) => {
			const before = state;
			answering = ctx;
			try {
				await runCommand(args, ctx);
			} catch {
				// A failed effect (a session file that cannot be written) must not leave a mode the session did not
				// record, nor show the host's raw error, which names the session file.
				state = before;
				try {
					performOne({ type: "sync-tools" }, ctx);
					performOne({ type: "show-footer" }, ctx);
				} catch {
					// Nothing more to restore.
				}
				notify(ctx, "context-shunt command failed: internal error; nothing was changed.", "warning");
			} finally {
				answering = undefined;
			}
		},
	});

	pi.on(
		"session_start",
		wrapHandler(async (_event, ctx: ExtensionContext) => {
			const loaded = await policy.load(ctx);
			config = loaded.config ?? DEFAULT_CONTEXT_SHUNT_CONFIG;
			configError = loaded.state === "active" ? undefined : loaded.state;
			agingSizes.clear();
			const hooks = policy.hooks;
			perform(
				reduceShuntSessionStart(state, {
					hooks,
					restoredMode: hooks ? restoredMode(ctx) : undefined,
					configMode: config.mode,
				}),
				ctx,
			);
			if (hooks) pi.events.emit(DELEGATION_STATE_CHANNEL, { v: 1, kind: "request" });
		}, handlerOptions("session_start")),
	);

	// The other hooks only when the startup gate says the config may turn it on: none otherwise (no overhead).
	if (!policy.hooks) return;

	pi.events.on(DELEGATION_STATE_CHANNEL, (payload: unknown) => {
		const decoded = decodeEventPayload(DELEGATION_STATE_CHANNEL, payload);
		if (decoded.ok && decoded.value.kind === "state") delegationState = decoded.value;
	});

	pi.on(
		"session_tree",
		wrapHandler((_event, ctx: ExtensionContext) => {
			agingSizes.clear();
			const configValid = configError === undefined;
			perform(
				reduceShuntSessionTree(state, {
					configValid,
					restoredMode: configValid ? restoredMode(ctx) : undefined,
					configMode: config.mode,
				}),
				ctx,
			);
		}, handlerOptions("session_tree")),
	);

	pi.on(
		"session_compact",
		wrapHandler(() => {
			agingSizes.clear();
			perform(reduceShuntSessionCompact(state), undefined);
		}, handlerOptions("session_compact")),
	);

	pi.on(
		"agent_end",
		wrapHandler(() => {
			perform(reduceShuntAgentEnd(state, { configValid: configError === undefined }), undefined);
		}, handlerOptions("agent_end")),
	);

	pi.on(
		"session_shutdown",
		wrapHandler(async () => {
			perform(reduceShuntShutdown(state), undefined);
			await artifacts.dispose();
		}, handlerOptions("session_shutdown")),
	);

	pi.on(
		"tool_call",
		wrapHandler((event: ToolCallEvent, ctx: ExtensionContext): ToolCallEventResult | undefined => {
			if (!active()) return undefined;
			const result = perform(
				reduceShuntToolCall(state, {
					toolName: event.toolName,
					toolCallId: event.toolCallId,
					input: event.input,
					builtin: isBuiltin(event.toolName),
					parentToolCallId: (event as { parentToolCallId?: string }).parentToolCallId,
					config,
					now: now(),
					fingerprint,
					newToken: () => `cst_${randomHex(6)}`,
				}),
				ctx,
			);
			if (result.kind === "block") return { block: true, reason: result.reason };
			// A user grant smaller than the call: Pi runs the call with its (mutable) input narrowed.
			if (result.narrow !== undefined) Object.assign(event.input as Record<string, unknown>, result.narrow);
			return undefined;
		}, handlerOptions("tool_call")),
	);

	pi.on(
		"tool_result",
		wrapHandler(async (event: ToolResultEvent, ctx: ExtensionContext): Promise<ToolResultEventResult | undefined> => {
			if (!active()) return undefined;
			const request = perform(
				reduceShuntToolResult(state, {
					toolName: event.toolName,
					toolCallId: event.toolCallId,
					parentToolCallId: event.parentToolCallId,
					builtin: isBuiltin(event.toolName),
					isError: event.isError,
					content: event.content,
					structuredContent: event.structuredContent,
					input: event.input,
					config,
					now: now(),
					fingerprint,
					newSimulatedId: () => `sim_${randomHex(6)}`,
				}),
				ctx,
			);
			if (request === undefined || ctx.signal?.aborted) return undefined;
			const saved = await preserve(request.text, request.source, request.lines, request.bytes);
			const archived = perform(
				reduceShuntArchived(state, {
					request,
					outcome: "failure" in saved ? saved : { saved },
					aborted: ctx.signal?.aborted === true,
					details: event.details,
					structuredContent: event.structuredContent,
					config,
				}),
				ctx,
			);
			if (archived.kind === "release") artifacts.release(archived.id);
			return archived.kind === "replace" ? (archived.replacement as ToolResultEventResult) : undefined;
		}, handlerOptions("tool_result")),
	);

	// Aging: off by default, and then this returns at once. On, it replaces old tool results with stubs in the
	// request only; the session keeps every original, which context_shunt_recover reads back by tool call id.
	pi.on("context", (event, ctx) => {
		if (!agingOn()) return undefined;
		try {
			const usage = ctx.getContextUsage();
			const messages = perform(
				reduceShuntContext(state, {
					messages: event.messages,
					settings: config.aging,
					contextShare: typeof usage?.percent === "number" ? usage.percent / 100 : undefined,
					sizeOf: (id, text) => {
						const known = agingSizes.get(id);
						if (known !== undefined) return known;
						const size = { bytes: utf8ByteLength(text), lines: countContentLines(text) };
						agingSizes.set(id, size);
						return size;
					},
				}),
				ctx,
			);
			return messages === undefined ? undefined : { messages };
		} catch {
			if (!reported.has("context")) {
				reported.add("context");
				audit.write({ event: "handler-error" });
			}
			return undefined;
		}
	});

	async function runCommand(args: string, ctx: ExtensionContext): Promise<void> {
		const parsed = parseShuntCommand(args);
		if (!parsed.ok) {
			notify(ctx, `context-shunt: ${parsed.error}`, "warning");
			return;
		}
		const command = parsed.value;
		const notLive = policy.statusLine();
		if (notLive !== undefined) {
			if (command.kind === "status") notify(ctx, `${NAME}: ${notLive}`);
			else {
				const action = command.kind === "mode" ? command.mode : command.kind;
				notify(ctx, policy.unavailable(action) ?? `${NAME} ${action}: unavailable`, "warning");
			}
			return;
		}
		if (command.kind === "status") artifacts.expire();
		const summary = artifacts.summary();
		const step = reduceShuntCommand(state, {
			command,
			now: now(),
			status: {
				artifacts: summary.count,
				artifactBytes: summary.bytes,
				reader: shuntReaderStatus(config.reader, delegationState),
				configValid: configError === undefined,
				agingEnabled: agingOn(),
			},
		});
		state = step.state;
		for (const effect of step.effects) {
			if (effect.type === "clear-artifacts") await artifacts.clear();
			else performOne(effect, ctx);
		}
	}
}
