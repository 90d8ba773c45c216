// The reviewer call: resolve the model, send the prompt through ctx.modelRegistry with a forced verdict tool call
// where the API supports it, one deadline, at most one retry on a transient error, abortable through ctx.signal.
import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import {
	buildReviewerPrompt,
	forcedToolChoiceFor,
	type GuardianReviewConfig,
	isTransientModelError,
	type ParsedVerdict,
	parseModelRef,
	parseVerdictAnswer,
	type ReviewerAvailability,
	type ReviewerPrompt,
	type ReviewFailureReason,
	type ReviewResult,
	resolveAdditionalDirectories,
	UNAVAILABLE_DIALOG_TITLE,
	unavailableDialogMessage,
	VERDICT_TOOL,
	VERDICT_TOOL_NAME,
} from "@pi-policy/policy-kernel/guardian";
import { sessionTranscript } from "./session-transcript.js";

/** The outcome of one review. */
export type ReviewOutcome =
	| {
			readonly ok: true;
			readonly verdict: ParsedVerdict;
			readonly latencyMs: number;
			readonly attempts: number;
			readonly modelRef: string;
	  }
	| {
			readonly ok: false;
			readonly reason: ReviewFailureReason;
			readonly latencyMs: number;
			readonly attempts: number;
			readonly modelRef: string | undefined;
	  };

/** The reviewer model for this context: the configured one, else (when allowed) the session model. */
export function resolveReviewerModel(
	ctx: Pick<ExtensionContext, "modelRegistry" | "model">,
	config: GuardianReviewConfig,
): Model<Api> | undefined {
	const ref = parseModelRef(config.reviewer.model);
	if (ref !== undefined) {
		const found = ctx.modelRegistry.find(ref.provider, ref.id);
		if (found !== undefined) return found;
	}
	if (!config.reviewer.fallbackToSessionModel) return undefined;
	return ctx.model ?? undefined;
}

/** Whether `model` can be asked: found, and with credentials Pi has (a registry that throws counts as none). */
export function reviewerAvailability(
	ctx: Pick<ExtensionContext, "modelRegistry">,
	model: Model<Api> | undefined,
): ReviewerAvailability {
	if (model === undefined) return "no-model";
	try {
		return ctx.modelRegistry.hasConfiguredAuth(model) ? "ready" : "no-auth";
	} catch {
		return "no-auth";
	}
}

/** `"provider/id"` of a model. */
export function modelRefOf(model: Model<Api> | undefined): string | undefined {
	return model === undefined ? undefined : `${model.provider}/${model.id}`;
}

type Attempt =
	| { kind: "message"; message: AssistantMessage }
	| { kind: "timeout" }
	| { kind: "aborted" }
	| { kind: "thrown"; error: unknown };

/** Runs one review with a single deadline covering every attempt. Never throws. */
export async function runReview(
	ctx: ExtensionContext,
	config: GuardianReviewConfig,
	prompt: ReviewerPrompt,
): Promise<ReviewOutcome> {
	const started = Date.now();
	const elapsed = () => Date.now() - started;
	let model: Model<Api> | undefined;
	try {
		model = resolveReviewerModel(ctx, config);
	} catch {
		model = undefined;
	}
	const modelRef = modelRefOf(model);
	const availability = reviewerAvailability(ctx, model);
	if (availability !== "ready" || model === undefined)
		return {
			ok: false,
			reason: model === undefined ? "no-model" : "no-auth",
			latencyMs: elapsed(),
			attempts: 0,
			modelRef,
		};
	const signal = ctx.signal;
	if (signal?.aborted) return { ok: false, reason: "aborted", latencyMs: elapsed(), attempts: 0, modelRef };

	const controller = new AbortController();
	let timedOut = false;
	let onDeadline: () => void = () => {};
	let onAbort: () => void = () => {};
	const deadline = new Promise<Attempt>((resolve) => {
		onDeadline = () => resolve({ kind: "timeout" });
	});
	const aborted = new Promise<Attempt>((resolve) => {
		onAbort = () => resolve({ kind: "aborted" });
	});
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
		onDeadline();
	}, config.reviewer.timeoutMs);
	const forwardAbort = () => {
		controller.abort();
		onAbort();
	};
	signal?.addEventListener("abort", forwardAbort, { once: true });

	const toolChoice = forcedToolChoiceFor(model.api);
	const options = {
		signal: controller.signal,
		maxTokens: config.reviewer.maxOutputTokens,
		...(toolChoice === undefined ? {} : { toolChoice }),
	};
	const context = {
		systemPrompt: prompt.systemPrompt,
		messages: [{ role: "user" as const, content: prompt.userText, timestamp: Date.now() }],
		tools: [VERDICT_TOOL],
	};
	let attempts = 0;
	try {
		while (attempts < 2) {
			attempts++;
			const call: Promise<Attempt> = ctx.modelRegistry
				.complete(model, context, options as never)
				.then((message): Attempt => ({ kind: "message", message }))
				.catch((error: unknown): Attempt => ({ kind: "thrown", error }));
			const result = await Promise.race([call, deadline, aborted]);
			if (result.kind === "timeout") return { ok: false, reason: "timeout", latencyMs: elapsed(), attempts, modelRef };
			if (result.kind === "aborted" || signal?.aborted) {
				return { ok: false, reason: timedOut ? "timeout" : "aborted", latencyMs: elapsed(), attempts, modelRef };
			}
			if (result.kind === "thrown") {
				if (attempts < 2 && isTransientModelError(errorText(result.error))) continue;
				return { ok: false, reason: "model-error", latencyMs: elapsed(), attempts, modelRef };
			}
			const message = result.message;
			if (message.stopReason === "aborted") {
				return { ok: false, reason: timedOut ? "timeout" : "aborted", latencyMs: elapsed(), attempts, modelRef };
			}
			if (message.stopReason === "error") {
				if (attempts < 2 && isTransientModelError(message.errorMessage)) continue;
				return { ok: false, reason: "model-error", latencyMs: elapsed(), attempts, modelRef };
			}
			const verdict = parseAnswer(message);
			if (!verdict.ok) return { ok: false, reason: "parse-failure", latencyMs: elapsed(), attempts, modelRef };
			return { ok: true, verdict: verdict.value, latencyMs: elapsed(), attempts, modelRef: modelRef as string };
		}
		return { ok: false, reason: "model-error", latencyMs: elapsed(), attempts, modelRef };
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener("abort", forwardAbort);
	}
}

function errorText(error: unknown): string {
	if (error instanceof Error) return error.message;
	return typeof error === "string" ? error : "";
}

/**
 * The verdict in an answer, strictly: exactly one verdict (one `submit_verdict` call, or else one JSON verdict in
 * the text) and nothing in the text that contradicts it. Anything else is a parse failure.
 */
export function parseAnswer(message: AssistantMessage): ReturnType<typeof parseVerdictAnswer> {
	const verdictCalls: unknown[] = [];
	const texts: string[] = [];
	for (const block of message.content) {
		if (block.type === "toolCall" && block.name === VERDICT_TOOL_NAME) verdictCalls.push(block.arguments);
		else if (block.type === "text") texts.push(block.text);
	}
	// An answer cut off by the output limit (`length`) may have lost the words that contradict its verdict.
	const finished = message.stopReason === "stop" || message.stopReason === "toolUse";
	return parseVerdictAnswer({ verdictCalls, text: texts.join("\n"), finished });
}

/** One call's review: the prompt sent, the reviewer's outcome, and the result the pipeline settles it with. */
export interface ToolCallReview {
	readonly prompt: ReviewerPrompt;
	readonly review: ReviewOutcome;
	readonly result: ReviewResult;
}

/**
 * Reviews one tool call the pipeline sent to review: builds the prompt (the call, the workspace and the session's
 * transcript) and runs the reviewer. Never throws: a thrown error is a model error.
 */
export async function reviewToolCall(
	ctx: ExtensionContext,
	config: GuardianReviewConfig,
	call: { readonly toolName: string; readonly input: unknown; readonly home: string },
): Promise<ToolCallReview> {
	const prompt = buildReviewerPrompt({
		toolName: call.toolName,
		input: call.input,
		cwd: ctx.cwd,
		home: call.home,
		additionalDirectories: resolveAdditionalDirectories(config.additionalDirectories, call.home),
		transcript: sessionTranscript(ctx.sessionManager),
	});
	let review: ReviewOutcome;
	try {
		review = await runReview(ctx, config, prompt);
	} catch {
		review = { ok: false, reason: "model-error", latencyMs: 0, attempts: 0, modelRef: undefined };
	}
	const result: ReviewResult = review.ok
		? {
				ok: true,
				verdict: review.verdict.verdict,
				latencyMs: review.latencyMs,
				attempts: review.attempts,
				promptTokens: prompt.estimatedTokens,
			}
		: review;
	return { prompt, review, result };
}

/** Asks the user whether to run a call the reviewer could not judge. Never throws: an error is a no. */
export async function askUserWhenUnavailable(
	ctx: ExtensionContext,
	toolName: string,
	failure: ReviewFailureReason,
): Promise<boolean> {
	try {
		return await ctx.ui.confirm(UNAVAILABLE_DIALOG_TITLE, unavailableDialogMessage(toolName, failure), {
			...(ctx.signal ? { signal: ctx.signal } : {}),
		});
	} catch {
		return false;
	}
}
