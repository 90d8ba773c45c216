// context-shunt: blocks declared oversized reads, preserves oversized tool results as bounded artifacts, and
// offers recovery and a cited reader. A thin shell: every decision comes from @pi-policy/policy-kernel/shunt.
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
import type { AuditInput } from "@pi-policy/policy-kernel/host";
import { createAuditWriter, createPolicyConfig, type PolicyConfig, wrapHandler } from "@pi-policy/policy-kernel/host";
import {
	type AgingPlan,
	type ArtifactLedger,
	type ArtifactSource,
	applyAgingPlan,
	buildReceipt,
	bumpShuntCounter,
	type ContextShuntConfig,
	ContextShuntConfigSchema,
	canonicalToolCall,
	collectAgingCandidates,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	decidePreCall,
	EMPTY_AGING_PLAN,
	type ExceptionEffect,
	type ExceptionEvent,
	type ExceptionState,
	emptyArtifactLedger,
	emptyExceptionState,
	emptyShuntCounters,
	findGrant,
	formatPreCallBlockReason,
	formatRefusedNotice,
	formatShuntStatus,
	grantNarrowing,
	latestValidMode,
	narrowPowerShellHeadCommand,
	parseShuntCommand,
	planAging,
	planModeChange,
	type ReaderStatus,
	reduceExceptions,
	resolveContextShuntConfig,
	resolveReaderModel,
	resolveToolPolicy,
	type SettlementDecision,
	SHUNT_MODE_ENTRY_TYPE,
	type ShuntCounters,
	type ShuntMode,
	settleToolResult,
	shuntFooterStatus,
	simulateReservation,
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

	// Session state; rebuilt at session_start. `configError` is set while the config does not make it live.
	let config: ContextShuntConfig = policy.startup.config ?? DEFAULT_CONTEXT_SHUNT_CONFIG;
	let configError: string | undefined = policy.startup.state === "active" ? undefined : policy.startup.state;
	let mode: ShuntMode = "off";
	let counters: ShuntCounters = emptyShuntCounters();
	let simulatedLedger: ArtifactLedger = emptyArtifactLedger();
	let exceptions: ExceptionState = emptyExceptionState();
	const wouldBlockCalls = new Set<string>();
	let delegationState: DelegationStateV1 | undefined;
	let runningReader: RunningReaderCall | undefined;
	let toolsRegistered = false;
	// Aging: the last plan, what it kept out of the last request, and result sizes by tool call id.
	let agingPlan: AgingPlan = EMPTY_AGING_PLAN;
	let agingStats = { aged: 0, keptOutBytes: 0 };
	const agingSizes = new Map<string, { bytes: number; lines: number }>();

	const active = () => configError === undefined && mode !== "off";
	const agingOn = () => configError === undefined && config.aging.enabled;
	const resetAging = () => {
		agingPlan = EMPTY_AGING_PLAN;
		agingStats = { aged: 0, keptOutBytes: 0 };
		agingSizes.clear();
	};
	const write = (fields: AuditInput<"context-shunt">) => audit.write({ mode, ...fields });
	const bump = (name: keyof ShuntCounters) => {
		counters = bumpShuntCounter(counters, name);
	};
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

	function showFooter(ctx: ExtensionContext | undefined): void {
		if (ctx?.hasUI !== true) return;
		ctx.ui.setStatus(NAME, configError === undefined ? shuntFooterStatus(mode) : "shunt:inactive");
	}

	function notify(ctx: ExtensionContext | undefined, message: string, level: "info" | "warning" = "info"): void {
		if (ctx?.hasUI === true) ctx.ui.notify(message, level);
	}

	// ---- artifacts --------------------------------------------------------------------------------------------

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

	// ---- exceptions ---------------------------------------------------------------------------------------------

	function applyExceptions(event: ExceptionEvent): ExceptionEffect[] {
		const result = reduceExceptions(exceptions, event);
		exceptions = result.state;
		for (const effect of result.effects) {
			if (effect.type === "lapsed") {
				for (let i = 0; i < Math.min(effect.count, 8); i++)
					write({ event: "exception-lapsed", category: effect.reason });
			}
		}
		return result.effects;
	}

	// ---- reader -------------------------------------------------------------------------------------------------

	function cancelReader(): void {
		runningReader?.cancel();
	}

	function readerStatus(): ReaderStatus {
		if (!config.reader.enabled) return "off";
		return resolveReaderModel(config.reader.source, delegationState) === undefined ? "unavailable" : "ready";
	}

	// ---- tools --------------------------------------------------------------------------------------------------

	const toolHost: ShuntToolHost = {
		mode: () => mode,
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
		onArchiveFailure: () => bump("archiveFailures"),
		setRunningReader: (running) => {
			runningReader = running;
		},
	};
	const recoverTool = createRecoverTool(toolHost);
	const delegateTool = createDelegateTool(toolHost);

	function syncTools(): void {
		const want = active() || agingOn();
		const names = [RECOVER_TOOL, DELEGATE_TOOL];
		if (want && !toolsRegistered) {
			pi.registerTool(recoverTool);
			pi.registerTool(delegateTool);
			toolsRegistered = true;
			return;
		}
		if (!toolsRegistered) return;
		const current = pi.getActiveTools();
		if (want) {
			const missing = names.filter((name) => !current.includes(name));
			if (missing.length > 0) pi.setActiveTools([...current, ...missing]);
		} else if (current.some((name) => names.includes(name))) {
			pi.setActiveTools(current.filter((name) => !names.includes(name)));
		}
	}

	// ---- mode ---------------------------------------------------------------------------------------------------

	function branchModeEntries(ctx: ExtensionContext): unknown[] {
		return ctx.sessionManager
			.getBranch()
			.filter(
				(entry) => entry.type === "custom" && (entry as { customType?: string }).customType === SHUNT_MODE_ENTRY_TYPE,
			)
			.map((entry) => (entry as { data?: unknown }).data);
	}

	function restoreMode(ctx: ExtensionContext): void {
		const restored = latestValidMode(branchModeEntries(ctx));
		mode = restored.mode ?? config.mode;
	}

	function changeMode(to: ShuntMode, ctx: ExtensionContext): void {
		const plan = planModeChange(mode, to);
		if (!plan.changed) return;
		mode = to;
		if (plan.cancelReader) cancelReader();
		if (plan.lapseExceptions) applyExceptions({ type: "lapse", reason: "cancelled" });
		if (plan.persist) pi.appendEntry(SHUNT_MODE_ENTRY_TYPE, { v: 1, mode: to });
		write({ event: "mode-changed" });
		syncTools();
		showFooter(ctx);
	}

	// ---- events -------------------------------------------------------------------------------------------------

	pi.registerCommand(NAME, {
		description: "context-shunt: off | observe | enforce | status | reset | allow <token> <maxLines> <maxBytes>",
		handler: async (args, ctx) => runCommand(args, ctx),
	});

	pi.on(
		"session_start",
		wrapHandler(async (_event, ctx: ExtensionContext) => {
			const loaded = await policy.load(ctx);
			config = loaded.config ?? DEFAULT_CONTEXT_SHUNT_CONFIG;
			configError = loaded.state === "active" ? undefined : loaded.state;
			resetAging();
			if (!policy.hooks) return;
			restoreMode(ctx);
			syncTools();
			showFooter(ctx);
			pi.events.emit(DELEGATION_STATE_CHANNEL, { v: 1, kind: "request" });
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
			cancelReader();
			applyExceptions({ type: "lapse", reason: "branch-changed" });
			wouldBlockCalls.clear();
			resetAging();
			if (configError === undefined) {
				restoreMode(ctx);
				syncTools();
				showFooter(ctx);
			}
		}, handlerOptions("session_tree")),
	);

	// After compaction the request starts from the summary: aging starts again from the new branch.
	pi.on(
		"session_compact",
		wrapHandler(() => {
			resetAging();
		}, handlerOptions("session_compact")),
	);

	pi.on(
		"agent_end",
		wrapHandler(() => {
			if (configError === undefined) applyExceptions({ type: "lapse", reason: "agent-ended" });
			wouldBlockCalls.clear();
		}, handlerOptions("agent_end")),
	);

	pi.on(
		"session_shutdown",
		wrapHandler(async () => {
			cancelReader();
			exceptions = emptyExceptionState();
			simulatedLedger = emptyArtifactLedger();
			await artifacts.dispose();
		}, handlerOptions("session_shutdown")),
	);

	pi.on(
		"tool_call",
		wrapHandler((event: ToolCallEvent): ToolCallEventResult | undefined => {
			if (!active()) return undefined;
			const decision = decidePreCall({
				toolName: event.toolName,
				input: event.input,
				builtin: isBuiltin(event.toolName),
				limits: config.limits,
			});
			if (decision.kind === "uncovered") {
				bump("uncovered");
				write({ event: "uncovered", category: decision.tool });
				return undefined;
			}
			if (decision.kind !== "oversized") return undefined;
			const tool = decision.range.tool;
			if (mode === "observe") {
				bump("wouldBlock");
				wouldBlockCalls.add(event.toolCallId);
				write({ event: "would-block", category: tool, counters: { lines: decision.range.lines } });
				return undefined;
			}
			const print = fingerprint(event.toolName, event.input);
			applyExceptions({ type: "expire", now: now() });
			const grant = findGrant(exceptions, print, now());
			if (grant !== undefined) {
				const narrowTo = grantNarrowing(grant);
				const input = event.input as Record<string, unknown>;
				if (narrowTo !== undefined) {
					if (tool === "read") input.limit = narrowTo;
					else {
						const narrowed = narrowPowerShellHeadCommand(String(input.command), narrowTo);
						if (narrowed !== undefined) input.command = narrowed;
					}
				}
				applyExceptions({
					type: "consume",
					token: grant.token,
					toolCallId: event.toolCallId,
					admittedFingerprint: fingerprint(event.toolName, input),
					now: now(),
				});
				bump("exceptions");
				write({ event: "exception-consumed", category: tool });
				return undefined;
			}
			const token = `cst_${randomHex(6)}`;
			applyExceptions({
				type: "issue",
				token,
				tool,
				fingerprint: print,
				declaredLines: decision.range.lines,
				now: now(),
			});
			bump("blocked");
			write({ event: "blocked", category: tool, counters: { lines: decision.range.lines } });
			return {
				block: true,
				reason: formatPreCallBlockReason({
					range: decision.range,
					maxLines: decision.maxLines,
					limits: config.limits,
					token,
				}),
			};
		}, handlerOptions("tool_call")),
	);

	pi.on(
		"tool_result",
		wrapHandler(async (event: ToolResultEvent, ctx: ExtensionContext): Promise<ToolResultEventResult | undefined> => {
			if (!active()) return undefined;
			const wasWouldBlocked = wouldBlockCalls.delete(event.toolCallId);
			const builtin = isBuiltin(event.toolName);
			let grant: { maxLines: number; maxBytes: number; admittedLines: number } | undefined;
			if (mode === "enforce") {
				const settled = applyExceptions({
					type: "settle",
					toolCallId: event.toolCallId,
					fingerprint: fingerprint(event.toolName, event.input),
					now: now(),
				});
				const applied = settled.find((effect) => effect.type === "applied");
				if (applied?.type === "applied") {
					grant = { maxLines: applied.maxLines, maxBytes: applied.maxBytes, admittedLines: applied.admittedLines };
				}
			}
			// Nested calls (codemode) feed a script, not the model: a configured tool's result stays whole for it.
			const policy =
				builtin || event.parentToolCallId !== undefined
					? "intact"
					: resolveToolPolicy(config.tools, event.toolName, builtin);
			const decision = settleToolResult({
				mode,
				toolName: event.toolName,
				builtin,
				policy,
				isError: event.isError,
				content: event.content,
				structuredContent: event.structuredContent,
				input: event.input,
				limits: config.limits,
				...(grant !== undefined ? { grant } : {}),
				wasWouldBlocked,
			});
			return performSettlement(decision, event, ctx);
		}, handlerOptions("tool_result")),
	);

	/** Carries out one settlement decision: counts, audit, the simulated or real reservation, and the receipt. */
	async function performSettlement(
		decision: SettlementDecision,
		event: ToolResultEvent,
		ctx: ExtensionContext,
	): Promise<ToolResultEventResult | undefined> {
		if (decision.kind === "pass") return undefined;
		if (decision.kind === "uncovered") {
			bump("uncovered");
			write({ event: "uncovered" });
			return undefined;
		}
		if (decision.kind === "would-bound") {
			const simulated = simulateReservation(
				simulatedLedger,
				decision,
				`sim_${randomHex(6)}`,
				now(),
				toolLedgerBounds(config),
			);
			simulatedLedger = simulated.ledger;
			if (simulated.admitted) {
				bump("wouldBound");
				write({ event: "would-bound", category: decision.source, counters: { bytes: decision.bytes } });
			}
			return undefined;
		}
		if (ctx.signal?.aborted) return undefined;
		const saved = await preserve(decision.text, decision.source, decision.lines, decision.bytes);
		if ("failure" in saved) {
			bump("archiveFailures");
			write({ event: "archive-failed", category: saved.failure });
			// A configured tool's output over its cap is refused whole, never passed on unbounded or silently cut.
			if (decision.source === "tool" && saved.refusal !== undefined) {
				write({ event: "refused", category: "tool", counters: { bytes: decision.bytes } });
				const capBytes = saved.refusal === "artifact-too-large" ? config.toolArtifactBytes : config.toolSessionBytes;
				return {
					content: [
						{
							type: "text",
							text: formatRefusedNotice({
								toolName: decision.toolName,
								bytes: decision.bytes,
								lines: decision.lines,
								reason: saved.refusal,
								capBytes,
							}),
						},
					],
					details: { contextShunt: { refused: saved.refusal, bytes: decision.bytes, lines: decision.lines } },
					isError: true,
				};
			}
			return undefined;
		}
		if (ctx.signal?.aborted) {
			artifacts.release(saved.id);
			return undefined;
		}
		bump("bounded");
		write({
			event: "bounded",
			category: decision.jsonOutline !== undefined ? "json" : decision.source,
			counters: { bytes: decision.bytes, lines: decision.lines },
		});
		const receipt = buildReceipt({
			artifactId: saved.id,
			source: decision.source,
			toolName: decision.toolName,
			bytes: decision.bytes,
			lines: decision.lines,
			maxLines: decision.limits.maxLines,
			maxBytes: decision.limits.maxBytes,
			expiresAt: new Date(saved.expiresAt).toISOString(),
			rangeBytes: config.limits.targetedReadBytes,
			offerReader: config.reader.enabled,
			text: decision.text,
			previewLines: config.previewLines,
			previewTailLines: config.previewTailLines,
			...(decision.jsonOutline !== undefined ? { jsonOutline: decision.jsonOutline } : {}),
		});
		// The built-ins keep a second copy of the text in `details` (read/grep/bash truncation); replace it too, but
		// keep Pi's pointer to its own full-output file (bash, MCP).
		const fullOutputPath = (event.details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
		return {
			content: [{ type: "text", text: receipt }],
			details: {
				contextShunt: { artifactId: saved.id, source: decision.source, bytes: decision.bytes, lines: decision.lines },
				...(typeof fullOutputPath === "string" ? { fullOutputPath } : {}),
			},
			...(event.structuredContent !== undefined ? { structuredContent: event.structuredContent } : {}),
		};
	}

	// Aging: off by default, and then this returns at once. On, it replaces old tool results with stubs in the
	// request only; the session keeps every original, which context_shunt_recover reads back by tool call id.
	pi.on("context", (event, ctx) => {
		if (!agingOn()) return undefined;
		try {
			const candidates = collectAgingCandidates(event.messages, (id, text) => {
				const known = agingSizes.get(id);
				if (known !== undefined) return known;
				const size = { bytes: utf8ByteLength(text), lines: countContentLines(text) };
				agingSizes.set(id, size);
				return size;
			});
			const usage = ctx.getContextUsage();
			const contextShare = typeof usage?.percent === "number" ? usage.percent / 100 : undefined;
			const outcome = planAging({ candidates, last: agingPlan, settings: config.aging, contextShare });
			agingPlan = outcome.plan;
			agingStats = { aged: outcome.plan.aged.length, keptOutBytes: outcome.keptOutBytes };
			if (outcome.newBatch) {
				write({ event: "aged", counters: { results: outcome.plan.aged.length, bytes: outcome.keptOutBytes } });
			}
			if (outcome.plan.aged.length === 0) return undefined;
			return { messages: applyAgingPlan(event.messages, outcome.plan, candidates) };
		} catch {
			if (!reported.has("context")) {
				reported.add("context");
				audit.write({ event: "handler-error" });
			}
			return undefined;
		}
	});

	async function runCommand(args: string, ctx: ExtensionContext): Promise<void> {
		{
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
			const statusText = () =>
				formatShuntStatus({
					mode,
					counters,
					artifacts: artifacts.summary().count,
					artifactBytes: artifacts.summary().bytes,
					reader: readerStatus(),
					configError: configError !== undefined,
					aging: {
						enabled: agingOn(),
						aged: agingStats.aged,
						keptOutBytes: agingStats.keptOutBytes,
						batches: agingPlan.batches,
					},
				});
			if (command.kind === "status") {
				artifacts.expire();
				notify(ctx, statusText());
				return;
			}
			if (configError !== undefined) {
				notify(ctx, "context-shunt is inactive for this session: its configuration is invalid.", "warning");
				return;
			}
			if (command.kind === "mode") {
				changeMode(command.mode, ctx);
				notify(ctx, `context-shunt: mode ${mode}`);
				return;
			}
			if (command.kind === "reset") {
				cancelReader();
				applyExceptions({ type: "lapse", reason: "cancelled" });
				counters = emptyShuntCounters();
				wouldBlockCalls.clear();
				simulatedLedger = emptyArtifactLedger();
				await artifacts.clear();
				write({ event: "reset" });
				notify(ctx, "context-shunt: counters, exceptions and artifacts reset");
				return;
			}
			const effects = applyExceptions({
				type: "grant",
				token: command.token,
				maxLines: command.maxLines,
				maxBytes: command.maxBytes,
				now: now(),
			});
			const granted = effects.find((effect) => effect.type === "granted");
			if (granted?.type === "granted") {
				write({ event: "exception-granted" });
				notify(
					ctx,
					`context-shunt: granted once for one minute (up to ${command.maxLines} lines and ${command.maxBytes} bytes)${granted.narrows ? "; the call will be narrowed" : ""}`,
				);
				return;
			}
			notify(ctx, "context-shunt: unknown, used or expired token", "warning");
		}
	}
}
