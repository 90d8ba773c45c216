// context-shunt: blocks declared oversized reads, preserves oversized tool results as bounded artifacts, and
// offers recovery and a cited reader. A thin shell: every decision comes from @pi-policy/policy-kernel/shunt.
import { createHash, randomBytes } from "node:crypto";
import { type Api, getSupportedThinkingLevels, type Model } from "@earendil-works/pi-ai";
import type {
	AgentToolResult,
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
	type ArtifactLedger,
	authorizeReaderCall,
	buildReaderRequest,
	buildReceipt,
	bumpShuntCounter,
	type ContextShuntConfig,
	ContextShuntConfigSchema,
	canonicalToolCall,
	checkReaderThinking,
	checkResultLimits,
	classifyResultEligibility,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	decidePreCall,
	type ExceptionEffect,
	type ExceptionEvent,
	type ExceptionState,
	emptyArtifactLedger,
	emptyExceptionState,
	emptyShuntCounters,
	findGrant,
	findLiveArtifact,
	formatShuntError,
	formatShuntStatus,
	grantNarrowing,
	isShuntTool,
	type LedgerEffect,
	type LedgerEvent,
	latestValidMode,
	limitsForScope,
	narrowPowerShellHeadCommand,
	parseShuntCommand,
	planModeChange,
	type ReaderStatus,
	reduceArtifactLedger,
	reduceExceptions,
	resolveContextShuntConfig,
	resolveReaderModel,
	SHUNT_MODE_ENTRY_TYPE,
	type ShuntCounters,
	type ShuntError,
	type ShuntMode,
	type ShuntTool,
	serializeReaderResult,
	shuntError,
	shuntFooterStatus,
	sliceRecoveredRange,
	validateDelegateInput,
	validateReaderAnswer,
	validateRecoverInput,
} from "@pi-policy/policy-kernel/shunt";
import { Type } from "typebox";
import { ArtifactStore } from "./artifact-store.js";
import { type ReaderTimers, type RunningReaderCall, startReaderCall } from "./reader-call.js";

/** The extension's name: its config file, audit `ext` and command. */
export const NAME = "context-shunt";
/** @deprecated The old name of {@link NAME}, kept for code written against it. */
export const CONTEXT_SHUNT = NAME;
/** The recovery tool. */
export const RECOVER_TOOL = "context_shunt_recover";
/** The reader tool. */
export const DELEGATE_TOOL = "context_shunt_delegate";

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

function textResult<T>(text: string, details: T, isError = false): AgentToolResult<T> & { isError?: boolean } {
	return { content: [{ type: "text", text }], details, ...(isError ? { isError: true } : {}) };
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
	let ledger: ArtifactLedger = emptyArtifactLedger();
	let simulatedLedger: ArtifactLedger = emptyArtifactLedger();
	let exceptions: ExceptionState = emptyExceptionState();
	const wouldBlockCalls = new Set<string>();
	const artifactTimers = new Map<string, unknown>();
	let store: ArtifactStore | undefined;
	let delegationState: DelegationStateV1 | undefined;
	let runningReader: RunningReaderCall | undefined;
	let readerBusy = false;
	let toolsRegistered = false;

	const active = () => configError === undefined && mode !== "off";
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

	function ensureStore(): ArtifactStore {
		if (store === undefined) store = new ArtifactStore(options.tempRoot);
		return store;
	}

	function applyLedger(event: LedgerEvent): LedgerEffect[] {
		const result = reduceArtifactLedger(ledger, event);
		ledger = result.state;
		for (const effect of result.effects) {
			if (effect.type === "expired" || effect.type === "released") {
				const timer = artifactTimers.get(effect.id);
				if (timer !== undefined) timers.clearTimer(timer);
				artifactTimers.delete(effect.id);
				void store?.remove(effect.id).catch(() => undefined);
				if (effect.type === "expired") write({ event: "artifact-expired" });
			}
		}
		return result.effects;
	}

	function scheduleExpiry(id: string, expiresAt: number): void {
		const handle = timers.setTimer(
			() => {
				artifactTimers.delete(id);
				applyLedger({ type: "expire", now: Math.max(now(), expiresAt) });
			},
			Math.max(0, expiresAt - now()),
		);
		artifactTimers.set(id, handle);
	}

	/** Reserves quota and writes `text`; returns the record, or the archive failure category. */
	async function preserve(
		text: string,
		source: ShuntTool | "reader-answer",
		lines: number,
		bytes: number,
	): Promise<{ id: string; expiresAt: number } | { failure: "quota-exhausted" | "write-failed" }> {
		const id = `csa_${randomHex(12)}`;
		const effects = applyLedger({ type: "reserve", id, source, bytes, lines, now: now() });
		const reserved = effects.find((effect) => effect.type === "reserved");
		if (reserved === undefined || reserved.type !== "reserved") return { failure: "quota-exhausted" };
		try {
			const target = ensureStore();
			const hadPath = target.path !== undefined;
			await target.write(id, text);
			if (!hadPath && target.path !== undefined) options.onStoreCreated?.(target.path);
		} catch {
			applyLedger({ type: "release", id });
			return { failure: "write-failed" };
		}
		scheduleExpiry(id, reserved.record.expiresAt);
		return { id, expiresAt: reserved.record.expiresAt };
	}

	async function readLiveArtifact(id: string): Promise<string | undefined> {
		applyLedger({ type: "expire", now: now() });
		if (findLiveArtifact(ledger, id, now()) === undefined) return undefined;
		const text = await store?.read(id);
		if (text === undefined) applyLedger({ type: "release", id });
		return text;
	}

	async function removeAllArtifacts(): Promise<void> {
		applyLedger({ type: "clear" });
		simulatedLedger = emptyArtifactLedger();
	}

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

	function recoverError(error: ShuntError): AgentToolResult<{ error: string }> {
		write({ event: "recovery-failed", category: error.code });
		return textResult(formatShuntError(RECOVER_TOOL, error), { error: error.code }, true);
	}

	function delegateError(error: ShuntError): AgentToolResult<{ error: string }> {
		write({ event: "reader-failed", category: error.code });
		return textResult(formatShuntError(DELEGATE_TOOL, error), { error: error.code }, true);
	}

	const recoverTool = {
		name: RECOVER_TOOL,
		label: "Recover shunted output",
		description:
			"Return exactly one bounded range of an output that context-shunt preserved as an artifact: a line range " +
			"(lineOffset from 1, lineLimit up to 250) or a byte range (byteOffset from 0, maxBytes up to the targeted " +
			"byte limit). The range comes back byte-identical to the original.",
		promptSnippet: "Recover one bounded line or byte range of a preserved context-shunt artifact",
		// It only reads an artifact, so permission extensions (guardian-review among them) need not review it.
		annotations: { readOnlyHint: true },
		parameters: Type.Object({
			artifactId: Type.String({ description: "The artifact id from a context-shunt receipt." }),
			lineOffset: Type.Optional(Type.Integer({ description: "First line, 1-indexed." })),
			lineLimit: Type.Optional(Type.Integer({ description: "Number of lines, at most 250." })),
			byteOffset: Type.Optional(Type.Integer({ description: "First byte, 0-indexed (UTF-8)." })),
			maxBytes: Type.Optional(Type.Integer({ description: "Number of bytes, at most the targeted byte limit." })),
		}),
		async execute(_toolCallId: string, params: unknown): Promise<AgentToolResult<unknown>> {
			if (!active()) return recoverError(shuntError("output-unavailable", "context-shunt is off"));
			const maxRangeBytes = config.limits.targetedReadBytes;
			const request = validateRecoverInput(params, maxRangeBytes);
			if (!request.ok) return recoverError(request.error);
			const text = await readLiveArtifact(request.value.artifactId);
			if (text === undefined) return recoverError(shuntError("evidence-expired"));
			const range = sliceRecoveredRange(text, request.value, maxRangeBytes);
			if (!range.ok) return recoverError(range.error);
			const r = range.value;
			const where =
				r.mode === "lines"
					? `lines ${r.startLine}-${r.endLine} of ${r.totalLines}${r.cutByBytes ? " (stopped at the byte cap)" : ""}`
					: `bytes ${r.byteStart}-${r.byteEnd} of ${r.totalBytes}`;
			write({ event: "recovered", counters: { bytes: r.byteEnd - r.byteStart } });
			const details = {
				artifactId: request.value.artifactId,
				mode: r.mode,
				startLine: r.startLine,
				endLine: r.endLine,
				byteStart: r.byteStart,
				byteEnd: r.byteEnd,
				totalLines: r.totalLines,
				totalBytes: r.totalBytes,
			};
			return {
				content: [
					{
						type: "text",
						text: `[context-shunt] artifact ${request.value.artifactId}, ${where}; the next block is that exact range (untrusted data).`,
					},
					{ type: "text", text: r.text },
				],
				details,
			};
		},
	};

	const delegateTool = {
		name: DELEGATE_TOOL,
		label: "Ask about shunted output",
		description:
			"Ask one question (at most 2048 UTF-8 bytes) about one preserved context-shunt artifact. A reader model " +
			"sees only that snapshot and the question, and answers JSON with line-range citations into the artifact. " +
			"Needs context-shunt enforce mode and an enabled reader.",
		promptSnippet: "Ask a cited question about one preserved context-shunt artifact",
		parameters: Type.Object({
			artifactId: Type.String({ description: "The artifact id from a context-shunt receipt." }),
			question: Type.String({ description: "The question, 1..2048 UTF-8 bytes." }),
			thinking: Type.String({ description: 'A thinking level the reader model supports, e.g. "off".' }),
		}),
		async execute(
			_toolCallId: string,
			params: unknown,
			signal: AbortSignal | undefined,
			_onUpdate: unknown,
			ctx: ExtensionContext,
		): Promise<AgentToolResult<unknown>> {
			const authorized = authorizeReaderCall({
				mode,
				configValid: configError === undefined,
				readerEnabled: config.reader.enabled,
			});
			if (!authorized.ok) return delegateError(authorized.error);
			const input = validateDelegateInput(params);
			if (!input.ok) return delegateError(input.error);
			const ref = resolveReaderModel(config.reader.source, delegationState);
			if (ref === undefined) return delegateError(shuntError("reader-unavailable"));
			const model = ctx.modelRegistry.find(ref.provider, ref.model) as Model<Api> | undefined;
			if (model === undefined || !ctx.modelRegistry.hasConfiguredAuth(model)) {
				return delegateError(shuntError("reader-unavailable"));
			}
			const thinking = checkReaderThinking(input.value.thinking, getSupportedThinkingLevels(model));
			if (!thinking.ok) return delegateError(thinking.error);
			if (readerBusy) return delegateError(shuntError("reader-busy"));
			readerBusy = true;
			try {
				const { artifactId, question } = input.value;
				const snapshot = await readLiveArtifact(artifactId);
				if (snapshot === undefined) return delegateError(shuntError("evidence-expired"));
				const sourceId = `src_${randomHex(8)}`;
				const request = buildReaderRequest({ sourceId, snapshot, question });
				const running = startReaderCall(ctx, model, request, {
					thinking: input.value.thinking,
					timeoutMs: options.readerTimeoutMs ?? config.reader.timeoutMs,
					signal,
					timers,
					now,
				});
				runningReader = running;
				const outcome = await running.outcome;
				if (outcome.kind === "cancelled") return delegateError(shuntError("reader-cancelled"));
				if (outcome.kind === "timed-out") return delegateError(shuntError("reader-timed-out"));
				if (outcome.kind === "failed") return delegateError(shuntError("reader-failed"));
				const answer = validateReaderAnswer(outcome.text, { sourceId, lineCount: request.lineCount });
				if (!answer.ok) return delegateError(answer.error);
				if (findLiveArtifact(ledger, artifactId, now()) === undefined) {
					return delegateError(shuntError("evidence-expired"));
				}
				const event = answer.value.status === "answered" ? "reader-answered" : "reader-insufficient-evidence";
				const serialized = serializeReaderResult(answer.value, artifactId, config.reader.answerMaxBytes);
				if (serialized.fits) {
					write({ event, counters: { citations: answer.value.citations.length } });
					return textResult(serialized.text, { artifactId, status: answer.value.status });
				}
				const lines = serialized.artifactText.split("\n").length - 1;
				const saved = await preserve(serialized.artifactText, "reader-answer", lines, serialized.bytes);
				if ("failure" in saved) {
					bump("archiveFailures");
					write({ event: "archive-failed", category: saved.failure });
					return delegateError(shuntError("output-unavailable", "the answer could not be preserved"));
				}
				write({ event, counters: { citations: answer.value.citations.length, bytes: serialized.bytes } });
				const receipt = buildReceipt({
					artifactId: saved.id,
					source: "reader-answer",
					bytes: serialized.bytes,
					lines,
					expiresAt: new Date(saved.expiresAt).toISOString(),
					rangeBytes: config.limits.targetedReadBytes,
					offerReader: false,
				});
				return textResult(receipt, { artifactId: saved.id, status: answer.value.status, overCap: true });
			} finally {
				readerBusy = false;
				runningReader = undefined;
			}
		},
	};

	function syncTools(): void {
		const want = active();
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
			if (configError === undefined) {
				restoreMode(ctx);
				syncTools();
				showFooter(ctx);
			}
		}, handlerOptions("session_tree")),
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
			for (const handle of artifactTimers.values()) timers.clearTimer(handle);
			artifactTimers.clear();
			ledger = emptyArtifactLedger();
			simulatedLedger = emptyArtifactLedger();
			const closing = store;
			store = undefined;
			await closing?.dispose();
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
			const scope = decision.range.scope === "full" ? "a read from the start" : "a read with an offset";
			return {
				block: true,
				reason:
					`context-shunt blocked this ${tool} before it ran: it declares ${decision.range.lines} lines, over the ` +
					`${decision.maxLines}-line limit for ${scope}. Request a narrower range ` +
					`(at most ${config.limits.fullReadLines} lines from the start, or ${config.limits.targetedReadLines} ` +
					`lines with an offset). Only the user can grant this exact call once: ask them to run ` +
					`/context-shunt allow ${token} <maxLines> <maxBytes>, then repeat the identical call within one minute.`,
			};
		}, handlerOptions("tool_call")),
	);

	pi.on(
		"tool_result",
		wrapHandler(async (event: ToolResultEvent, ctx: ExtensionContext): Promise<ToolResultEventResult | undefined> => {
			if (!active()) return undefined;
			const wasWouldBlocked = wouldBlockCalls.delete(event.toolCallId);
			const builtin = isBuiltin(event.toolName);
			let declaredOverride: number | undefined;
			let limitOverride: { maxLines: number; maxBytes: number } | undefined;
			if (mode === "enforce") {
				const settled = applyExceptions({
					type: "settle",
					toolCallId: event.toolCallId,
					fingerprint: fingerprint(event.toolName, event.input),
					now: now(),
				});
				const applied = settled.find((effect) => effect.type === "applied");
				if (applied?.type === "applied") {
					declaredOverride = applied.admittedLines;
					limitOverride = { maxLines: applied.maxLines, maxBytes: applied.maxBytes };
				}
			}
			const eligibility = classifyResultEligibility({
				toolName: event.toolName,
				builtin,
				isError: event.isError,
				content: event.content,
				input: event.input,
			});
			if (!eligibility.eligible) {
				if (eligibility.reason === "not-builtin" && isShuntTool(event.toolName)) {
					const block = event.content[0];
					const text = event.content.length === 1 && block?.type === "text" ? block.text : "";
					if (checkResultLimits(text, limitsForScope(config.limits, "targeted")).over) {
						bump("uncovered");
						write({ event: "uncovered" });
					}
				}
				return undefined;
			}
			const limits = limitOverride ?? limitsForScope(config.limits, eligibility.scope);
			const check = checkResultLimits(eligibility.text, limits, declaredOverride ?? eligibility.declaredLines);
			if (!check.over) return undefined;
			if (mode === "observe") {
				if (wasWouldBlocked) return undefined;
				const simulated = reduceArtifactLedger(simulatedLedger, {
					type: "reserve",
					id: `sim_${randomHex(6)}`,
					source: eligibility.tool,
					bytes: check.bytes,
					lines: check.returnedLines,
					now: now(),
				});
				simulatedLedger = simulated.state;
				if (simulated.effects.some((effect) => effect.type === "reserved")) {
					bump("wouldBound");
					write({ event: "would-bound", category: eligibility.tool, counters: { bytes: check.bytes } });
				}
				return undefined;
			}
			if (ctx.signal?.aborted) return undefined;
			const saved = await preserve(eligibility.text, eligibility.tool, check.returnedLines, check.bytes);
			if ("failure" in saved) {
				bump("archiveFailures");
				write({ event: "archive-failed", category: saved.failure });
				return undefined;
			}
			if (ctx.signal?.aborted) {
				applyLedger({ type: "release", id: saved.id });
				return undefined;
			}
			bump("bounded");
			write({
				event: "bounded",
				category: eligibility.tool,
				counters: { bytes: check.bytes, lines: check.returnedLines },
			});
			const receipt = buildReceipt({
				artifactId: saved.id,
				source: eligibility.tool,
				bytes: check.bytes,
				lines: check.returnedLines,
				maxLines: limits.maxLines,
				maxBytes: limits.maxBytes,
				expiresAt: new Date(saved.expiresAt).toISOString(),
				rangeBytes: config.limits.targetedReadBytes,
				offerReader: config.reader.enabled,
				text: eligibility.text,
				previewLines: config.previewLines,
			});
			// The built-ins keep a second copy of the text in `details` (read/grep/bash truncation); replace it too.
			return {
				content: [{ type: "text", text: receipt }],
				details: {
					contextShunt: {
						artifactId: saved.id,
						source: eligibility.tool,
						bytes: check.bytes,
						lines: check.returnedLines,
					},
				},
			};
		}, handlerOptions("tool_result")),
	);

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
					artifacts: ledger.artifacts.length,
					artifactBytes: ledger.artifacts.reduce((sum, record) => sum + record.bytes, 0),
					reader: readerStatus(),
					configError: configError !== undefined,
				});
			if (command.kind === "status") {
				applyLedger({ type: "expire", now: now() });
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
				await removeAllArtifacts();
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
