// The guardian pipeline's per-turn verdict cache after a call that may have changed files has run (a fifty-fifth
// review): code mode's nested calls and sibling calls Pi runs one after another come later in the same turn, so a
// reviewer's allow of `sh build.sh` must not be reused after `write build.sh` ran.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	type GuardianState,
	initialGuardianState,
	noteToolCallEnded,
	type PendingCall,
	type PipelineStep,
	planToolCall,
	settleReview,
	startTurn,
	type ToolCallFacts,
} from "../src/guardian/index.js";

const config = applyGuardianDefaults({ mode: "enforce" });

function bashFacts(command: string): ToolCallFacts {
	return {
		toolName: "bash",
		input: { command },
		hash: `h-${command}`,
		tool: { builtin: true },
		config,
		mode: config.mode,
		floorContext: floorContextFor(config, "/work/repo", "/home/u"),
		now: 1_000,
		hasUI: false,
	};
}

function pending(step: PipelineStep): PendingCall {
	if (step.next.kind !== "review") throw new Error(`expected a review, got ${step.next.kind}`);
	return step.next.call;
}

const verdictOf = (outcome: "allow" | "deny") =>
	({
		ok: true,
		verdict: { outcome, risk_level: outcome === "allow" ? "low" : "high" },
		latencyMs: 20,
		attempts: 1,
		promptTokens: 100,
	}) as const;

/** `sh build.sh` reviewed with the given outcome, from `state`. */
function reviewed(state: GuardianState, outcome: "allow" | "deny", command = "sh build.sh"): GuardianState {
	return settleReview(state, pending(planToolCall(state, bashFacts(command))), verdictOf(outcome)).state;
}

describe("the turn's verdict cache after a call that may have changed files", () => {
	it("reuses an allow while nothing that may change files has ended (the contrast)", () => {
		let state = reviewed(initialGuardianState(), "allow");
		state = noteToolCallEnded(state, false); // a `read` ended
		const again = planToolCall(state, bashFacts("sh build.sh"));
		expect(again.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(again.effects).toContainEqual(
			expect.objectContaining({ entry: expect.objectContaining({ category: "cache" }) }),
		);
	});

	it("sends the same action to a new review once such a call has ended", () => {
		let state = reviewed(initialGuardianState(), "allow");
		state = noteToolCallEnded(state, true); // `write build.sh` ended
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("keeps cached denials: reusing one can only deny", () => {
		let state = reviewed(initialGuardianState(), "deny");
		state = noteToolCallEnded(state, true);
		expect(planToolCall(state, bashFacts("sh build.sh")).next).toMatchObject({
			kind: "done",
			resolution: { kind: "block" },
		});
	});

	it("does not cache an allow whose review ran while such a call ended", () => {
		let state: GuardianState = initialGuardianState();
		const call = pending(planToolCall(state, bashFacts("sh build.sh")));
		state = noteToolCallEnded(state, true); // a concurrently running write ended during the review
		const settled = settleReview(state, call, verdictOf("allow"));
		expect(settled.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(settled.state.turnCache.has("h-sh build.sh")).toBe(false);
		expect(planToolCall(settled.state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("still caches such a review's denial", () => {
		let state: GuardianState = initialGuardianState();
		const call = pending(planToolCall(state, bashFacts("sh build.sh")));
		state = noteToolCallEnded(state, true);
		const settled = settleReview(state, call, verdictOf("deny"));
		expect(settled.state.turnCache.get("h-sh build.sh")).toMatchObject({ decision: "deny" });
	});

	it("a new turn still clears everything, as before", () => {
		const state = startTurn(reviewed(initialGuardianState(), "allow"));
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});
});
