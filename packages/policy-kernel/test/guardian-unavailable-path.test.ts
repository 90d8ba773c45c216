// Unit tests for the guardian pipeline reducer on an unavailable review: an aborted review never asks the user, the
// fallback denial's notification names the failure reason, the failure is counted by reason for /guardian status,
// and the review log gets a record with the failure reason.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	type GuardianReviewConfig,
	initialGuardianState,
	type PendingCall,
	type PipelineStep,
	planToolCall,
	settleReview,
	type ToolCallFacts,
} from "../src/guardian/index.js";

function configOf(layer: Record<string, unknown> = {}): GuardianReviewConfig {
	return applyGuardianDefaults({ mode: "enforce", ...layer } as never);
}

function publishFacts(hasUI: boolean, config: GuardianReviewConfig = configOf()): ToolCallFacts {
	return {
		toolName: "bash",
		input: { command: "npm publish" },
		hash: "h-npm-publish",
		tool: { builtin: true },
		config,
		mode: config.mode,
		floorContext: floorContextFor(config, "/work/repo", "/home/u"),
		now: 1_000,
		hasUI,
	};
}

function pending(step: PipelineStep): PendingCall {
	if (step.next.kind !== "review") throw new Error(`expected a review, got ${step.next.kind}`);
	return step.next.call;
}

function failed(reason: "aborted" | "timeout" | "parse-failure", facts: ToolCallFacts): PipelineStep {
	const plan = planToolCall(initialGuardianState(), facts);
	return settleReview(plan.state, pending(plan), { ok: false, reason, latencyMs: 40, attempts: 1 });
}

describe("settleReview: an unavailable review", () => {
	it("an aborted review denies as the fallback and never asks, even with a UI and onUnavailable ask", () => {
		const step = failed("aborted", publishFacts(true));
		expect(step.next).toEqual({
			kind: "done",
			resolution: { kind: "block", reason: expect.stringContaining("Guardian review unavailable (aborted)") },
		});
		expect(step.effects).toContainEqual({
			type: "verdict",
			payload: {
				decision: "deny",
				source: "fallback",
				mode: "enforce",
				tool: "bash",
				failureReason: "aborted",
				latencyBucket: 0,
			},
		});
		// A timeout in the same situation asks (the control).
		expect(failed("timeout", publishFacts(true)).next).toMatchObject({ kind: "ask-user", failure: "timeout" });
	});

	it("the fallback denial notification names the source with the failure reason", () => {
		const step = failed("timeout", publishFacts(true, configOf({ onUnavailable: "deny" })));
		expect(step.effects).toContainEqual({
			type: "notify",
			text: "guardian-review denied a bash call (source: review unavailable, timeout). /guardian allow-once lets it run once.",
			level: "warning",
		});
		expect(failed("aborted", publishFacts(true)).effects).toContainEqual({
			type: "notify",
			text: "guardian-review denied a bash call (source: review unavailable, aborted). /guardian allow-once lets it run once.",
			level: "warning",
		});
	});

	it("counts the failure by its reason in the session stats", () => {
		const first = failed("parse-failure", publishFacts(false));
		expect(first.state.stats.unavailable).toEqual({ "parse-failure": 1 });
		const plan = planToolCall(first.state, { ...publishFacts(false), hash: "h-other" });
		const second = settleReview(plan.state, pending(plan), {
			ok: false,
			reason: "parse-failure",
			latencyMs: 10,
			attempts: 1,
		});
		expect(second.state.stats.unavailable).toEqual({ "parse-failure": 2 });
	});

	it("logs the failed review with its failure reason", () => {
		for (const hasUI of [false, true]) {
			const step = failed("timeout", publishFacts(hasUI));
			expect(step.effects.filter((effect) => effect.type === "review-log")).toEqual([
				{ type: "review-log", record: { decision: "unavailable", failureReason: "timeout" } },
			]);
		}
	});
});
