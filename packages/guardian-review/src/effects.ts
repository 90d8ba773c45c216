// Carries out the guardian pipeline's effects: audit entries, verdict events, notifications, the review-in-progress
// status and working message, the turn abort, the input freeze and the optional review log.
import type { ExtensionAPI, ExtensionContext, ToolCallEvent } from "@earendil-works/pi-coding-agent";
import { decodeEventPayload, VERDICT_CHANNEL } from "@pi-policy/policy-kernel/events";
import type { GuardianEffect, GuardianReviewConfig, ReviewerPrompt } from "@pi-policy/policy-kernel/guardian";
import type { AuditWriter } from "@pi-policy/policy-kernel/host";
import { appendReviewLog } from "./review-log.js";
import type { ReviewOutcome } from "./reviewer.js";

/** The footer status key. */
export const STATUS_KEY = "guardian-review";

/** The details a review-log line needs beyond the pipeline's record. */
export interface ReviewContext {
	readonly toolName: string;
	readonly prompt: ReviewerPrompt;
	readonly review: ReviewOutcome;
	readonly config: GuardianReviewConfig;
}

/** Deep-freezes a tool input so that a later `tool_call` handler cannot change what was approved. */
export function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
	}
	return value;
}

/** Creates the function that carries out one effect for one tool call. Never throws for the bus. */
export function createEffectPerformer(
	pi: Pick<ExtensionAPI, "events">,
	audit: AuditWriter<"guardian-review">,
	onReviewLogFailed: () => void,
): (effect: GuardianEffect, event: ToolCallEvent, ctx: ExtensionContext, review?: ReviewContext) => void {
	return (effect, event, ctx, review) => {
		switch (effect.type) {
			case "audit":
				audit.write(effect.entry);
				return;
			case "verdict": {
				const decoded = decodeEventPayload(VERDICT_CHANNEL, { v: 1, ...effect.payload });
				if (!decoded.ok) return;
				try {
					pi.events.emit(VERDICT_CHANNEL, decoded.value);
				} catch {
					// The bus is best effort.
				}
				return;
			}
			case "notify":
				if (ctx.hasUI) ctx.ui.notify(effect.text, effect.level);
				return;
			case "abort-turn":
				ctx.abort();
				return;
			case "freeze-input":
				deepFreeze(event.input);
				return;
			case "review-status":
				if (ctx.hasUI) {
					ctx.ui.setStatus(STATUS_KEY, effect.status);
					ctx.ui.setWorkingMessage(effect.workingMessage);
				}
				return;
			case "review-log":
				if (review === undefined || !review.config.reviewLog) return;
				void appendReviewLog(
					{
						time: new Date().toISOString(),
						tool: review.toolName,
						action: review.prompt.action,
						source: "reviewer",
						...effect.record,
						latencyMs: review.review.latencyMs,
						...(review.review.modelRef === undefined ? {} : { model: review.review.modelRef }),
						promptTokens: review.prompt.estimatedTokens,
					},
					onReviewLogFailed,
				);
				return;
		}
	};
}
