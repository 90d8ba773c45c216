// context-shunt's two tools, built with Pi's defineTool over the kernel's TypeBox schemas: context_shunt_recover
// (bounded ranges, pattern and jsonPointer reads of an artifact or of an aged result) and context_shunt_delegate
// (the cited reader). The shell supplies state and effects through ShuntToolHost.
import { type Api, getSupportedThinkingLevels, type Model } from "@earendil-works/pi-ai";
import { type AgentToolResult, defineTool, type ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { DelegationStateV1 } from "@pi-policy/policy-kernel/events";
import type { AuditInput } from "@pi-policy/policy-kernel/host";
import {
	authorizeReaderCall,
	buildReaderRequest,
	buildReceipt,
	type ContextShuntConfig,
	checkReaderThinking,
	checkToolParamsStrictly,
	DelegateParamsSchema,
	formatShuntError,
	RecoverParamsSchema,
	recoverFromSnapshot,
	resolveReaderModel,
	type ShuntError,
	type ShuntMode,
	serializeReaderResult,
	shuntError,
	toolResultText,
	validateDelegateInput,
	validateReaderAnswer,
	validateRecoverInput,
} from "@pi-policy/policy-kernel/shunt";
import { type ReaderTimers, type RunningReaderCall, startReaderCall } from "./reader-call.js";

/** The recovery tool. */
export const RECOVER_TOOL = "context_shunt_recover";
/** The reader tool. */
export const DELEGATE_TOOL = "context_shunt_delegate";

/** What the tools need from the shell: current state, and the effects only the shell performs. */
export interface ShuntToolHost {
	readonly mode: () => ShuntMode;
	readonly configValid: () => boolean;
	readonly config: () => ContextShuntConfig;
	readonly delegationState: () => DelegationStateV1 | undefined;
	readonly now: () => number;
	readonly randomHex: (bytes: number) => string;
	readonly timers: ReaderTimers;
	readonly readerTimeoutMs: number | undefined;
	/** The text of a live artifact, or `undefined` when unknown or expired. */
	readonly readArtifact: (id: string) => Promise<string | undefined>;
	readonly isArtifactLive: (id: string) => boolean;
	/** Preserves a reader answer too large to return inline. */
	readonly preserveAnswer: (
		text: string,
		lines: number,
		bytes: number,
	) => Promise<{ id: string; expiresAt: number } | { failure: "quota-exhausted" | "write-failed" }>;
	readonly write: (fields: AuditInput<"context-shunt">) => void;
	readonly onArchiveFailure: () => void;
	readonly setRunningReader: (running: RunningReaderCall | undefined) => void;
}

function textResult<T>(text: string, details: T, isError = false): AgentToolResult<T> & { isError?: boolean } {
	return { content: [{ type: "text", text }], details, ...(isError ? { isError: true } : {}) };
}

/** The bounded error a strict parameter check throws from `prepareArguments`; Pi turns it into an error result. */
function strictArguments<T>(
	tool: typeof RECOVER_TOOL | typeof DELEGATE_TOOL,
	checked: { ok: true; value: T } | { ok: false; error: ShuntError },
): T {
	if (!checked.ok) throw new Error(formatShuntError(tool, checked.error));
	return checked.value;
}

/**
 * The text of tool result `toolCallId` on the session's current branch: `undefined` when no such result is on this
 * branch (another branch, or never), `"not-text"` for images, mixed content and errors, which are never aged.
 */
export function branchToolResultText(ctx: ExtensionContext, toolCallId: string): string | "not-text" | undefined {
	const branch = ctx.sessionManager.getBranch();
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i] as {
			type?: string;
			message?: { role?: string; toolCallId?: string; isError?: boolean; content?: unknown };
		};
		const message = entry?.type === "message" ? entry.message : undefined;
		if (message?.role !== "toolResult" || message.toolCallId !== toolCallId) continue;
		if (message.isError === true) return "not-text";
		return toolResultText(message.content) ?? "not-text";
	}
	return undefined;
}

/** Builds context_shunt_recover. */
export function createRecoverTool(host: ShuntToolHost) {
	const fail = (error: ShuntError) => {
		host.write({ event: "recovery-failed", category: error.code });
		return textResult(formatShuntError(RECOVER_TOOL, error), { error: error.code }, true);
	};
	return defineTool({
		name: RECOVER_TOOL,
		label: "Recover shunted output",
		description:
			"Read back exactly what context-shunt kept out of the context: an artifact (artifactId) or an aged result " +
			"(toolCallId). One bounded form: lines (lineOffset, lineLimit <= 250), bytes (byteOffset, maxBytes), " +
			"pattern (matching lines, numbered) or jsonPointer (RFC 6901, JSON output).",
		promptSnippet: "Read back a range, matching lines or a JSON subtree of a shunted or aged output",
		// It only reads what context-shunt kept, so permission extensions (guardian-review among them) need not review it.
		annotations: { readOnlyHint: true },
		parameters: RecoverParamsSchema,
		prepareArguments: (args) => strictArguments(RECOVER_TOOL, checkToolParamsStrictly(RecoverParamsSchema, args)),
		async execute(_toolCallId, params, _signal, _onUpdate, ctx): Promise<AgentToolResult<unknown>> {
			const maxRangeBytes = host.config().limits.targetedReadBytes;
			const request = validateRecoverInput(params, maxRangeBytes);
			if (!request.ok) return fail(request.error);
			const r = request.value;
			let snapshot: string | undefined;
			let label: string;
			if ("toolCallId" in r) {
				const text = branchToolResultText(ctx, r.toolCallId);
				if (text === undefined)
					return fail(shuntError("evidence-expired", "no tool result with this id on this branch"));
				if (text === "not-text") return fail(shuntError("invalid-request", "that result is not text"));
				snapshot = text;
				label = `tool result ${r.toolCallId}`;
			} else {
				if (!host.configValid() || host.mode() === "off") {
					return fail(shuntError("output-unavailable", "context-shunt is off"));
				}
				snapshot = await host.readArtifact(r.artifactId);
				if (snapshot === undefined) return fail(shuntError("evidence-expired"));
				label = `artifact ${r.artifactId}`;
			}
			const out = recoverFromSnapshot(snapshot, r, label, maxRangeBytes, host.now);
			if (!out.ok) return fail(out.error);
			host.write({ event: "recovered", counters: { bytes: out.value.bytes } });
			const target = "toolCallId" in r ? { toolCallId: r.toolCallId } : { artifactId: r.artifactId };
			return {
				content: [
					{ type: "text", text: out.value.header },
					{ type: "text", text: out.value.body },
				],
				details: { ...target, ...out.value.details },
			};
		},
	});
}

/** Builds context_shunt_delegate. */
export function createDelegateTool(host: ShuntToolHost) {
	let busy = false;
	const fail = (error: ShuntError) => {
		host.write({ event: "reader-failed", category: error.code });
		return textResult(formatShuntError(DELEGATE_TOOL, error), { error: error.code }, true);
	};
	return defineTool({
		name: DELEGATE_TOOL,
		label: "Ask about shunted output",
		description:
			"Ask one question (at most 2048 UTF-8 bytes) about one preserved context-shunt artifact. A reader model " +
			"sees only that snapshot and the question, and answers JSON with line-range citations into the artifact. " +
			"Needs context-shunt enforce mode and an enabled reader.",
		promptSnippet: "Ask a cited question about one preserved context-shunt artifact",
		parameters: DelegateParamsSchema,
		prepareArguments: (args) => strictArguments(DELEGATE_TOOL, checkToolParamsStrictly(DelegateParamsSchema, args)),
		async execute(_toolCallId, params, signal, _onUpdate, ctx): Promise<AgentToolResult<unknown>> {
			const config = host.config();
			const authorized = authorizeReaderCall({
				mode: host.mode(),
				configValid: host.configValid(),
				readerEnabled: config.reader.enabled,
			});
			if (!authorized.ok) return fail(authorized.error);
			const input = validateDelegateInput(params);
			if (!input.ok) return fail(input.error);
			const ref = resolveReaderModel(config.reader.source, host.delegationState());
			if (ref === undefined) return fail(shuntError("reader-unavailable"));
			const model = ctx.modelRegistry.find(ref.provider, ref.model) as Model<Api> | undefined;
			if (model === undefined || !ctx.modelRegistry.hasConfiguredAuth(model)) {
				return fail(shuntError("reader-unavailable"));
			}
			const thinking = checkReaderThinking(input.value.thinking, getSupportedThinkingLevels(model));
			if (!thinking.ok) return fail(thinking.error);
			if (busy) return fail(shuntError("reader-busy"));
			busy = true;
			try {
				const { artifactId, question } = input.value;
				const snapshot = await host.readArtifact(artifactId);
				if (snapshot === undefined) return fail(shuntError("evidence-expired"));
				const sourceId = `src_${host.randomHex(8)}`;
				const request = buildReaderRequest({ sourceId, snapshot, question });
				const running = startReaderCall(ctx, model, request, {
					thinking: input.value.thinking,
					timeoutMs: host.readerTimeoutMs ?? config.reader.timeoutMs,
					signal,
					timers: host.timers,
					now: host.now,
				});
				host.setRunningReader(running);
				const outcome = await running.outcome;
				if (outcome.kind === "cancelled") return fail(shuntError("reader-cancelled"));
				if (outcome.kind === "timed-out") return fail(shuntError("reader-timed-out"));
				if (outcome.kind === "failed") return fail(shuntError("reader-failed"));
				const answer = validateReaderAnswer(outcome.text, { sourceId, lineCount: request.lineCount });
				if (!answer.ok) return fail(answer.error);
				if (!host.isArtifactLive(artifactId)) return fail(shuntError("evidence-expired"));
				const event = answer.value.status === "answered" ? "reader-answered" : "reader-insufficient-evidence";
				const serialized = serializeReaderResult(answer.value, artifactId, config.reader.answerMaxBytes);
				if (serialized.fits) {
					host.write({ event, counters: { citations: answer.value.citations.length } });
					return textResult(serialized.text, { artifactId, status: answer.value.status });
				}
				const lines = serialized.artifactText.split("\n").length - 1;
				const saved = await host.preserveAnswer(serialized.artifactText, lines, serialized.bytes);
				if ("failure" in saved) {
					host.onArchiveFailure();
					host.write({ event: "archive-failed", category: saved.failure });
					return fail(shuntError("output-unavailable", "the answer could not be preserved"));
				}
				host.write({ event, counters: { citations: answer.value.citations.length, bytes: serialized.bytes } });
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
				busy = false;
				host.setRunningReader(undefined);
			}
		},
	});
}
