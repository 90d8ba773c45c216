// The guardian pipeline's per-turn verdict cache after a call that may have changed files has run (a fifty-fifth
// review): code mode's nested calls and sibling calls Pi runs one after another come later in the same turn, so a
// reviewer's allow of `sh build.sh` must not be reused after `write build.sh` ran.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	type GuardianState,
	grantAllowOnce,
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

function bashFacts(command: string, nested = false): ToolCallFacts {
	return {
		toolName: "bash",
		input: { command },
		hash: `h-${command}`,
		nested,
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

/**
 * A `write build.sh` the floor allows is planned and then ends: a call that may have changed files, planned after
 * everything before it.
 */
function writeRan(state: GuardianState): GuardianState {
	const write: ToolCallFacts = {
		...bashFacts("unused"),
		toolName: "write",
		input: { path: "build.sh", content: "echo pwned" },
		hash: "h-write",
	};
	const planned = planToolCall(state, write);
	expect(planned.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	return noteToolCallEnded(planned.state, planned.state.plannedCalls);
}

/** `sh build.sh` reviewed with the given outcome, from `state`. */
function reviewed(state: GuardianState, outcome: "allow" | "deny", command = "sh build.sh"): GuardianState {
	const planned = planToolCall(state, bashFacts(command));
	return settleReview(planned.state, pending(planned), verdictOf(outcome)).state;
}

describe("the turn's verdict cache after a call that may have changed files", () => {
	it("reuses an allow while nothing that may change files has ended (the contrast)", () => {
		let state = reviewed(initialGuardianState(), "allow");
		state = noteToolCallEnded(state, undefined); // a `read` ended
		const again = planToolCall(state, bashFacts("sh build.sh"));
		expect(again.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(again.effects).toContainEqual(
			expect.objectContaining({ entry: expect.objectContaining({ category: "cache" }) }),
		);
	});

	it("sends the same action to a new review once such a call has ended", () => {
		let state = reviewed(initialGuardianState(), "allow");
		state = writeRan(state);
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("keeps cached denials: reusing one can only deny", () => {
		let state = reviewed(initialGuardianState(), "deny");
		state = writeRan(state);
		expect(planToolCall(state, bashFacts("sh build.sh")).next).toMatchObject({
			kind: "done",
			resolution: { kind: "block" },
		});
	});

	it("does not cache an allow whose review ran while such a call ended", () => {
		let state: GuardianState = initialGuardianState();
		const call = pending(planToolCall(state, bashFacts("sh build.sh")));
		state = noteToolCallEnded(state, 0); // a write allowed earlier ended during the review
		const settled = settleReview(state, call, verdictOf("allow"));
		expect(settled.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(settled.state.turnCache.has("h-sh build.sh")).toBe(false);
		expect(planToolCall(settled.state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("still caches such a review's denial", () => {
		let state: GuardianState = initialGuardianState();
		const call = pending(planToolCall(state, bashFacts("sh build.sh")));
		state = noteToolCallEnded(state, 0);
		const settled = settleReview(state, call, verdictOf("deny"));
		expect(settled.state.turnCache.get("h-sh build.sh")).toMatchObject({ decision: "deny" });
	});

	it("a new turn still clears everything, as before", () => {
		const state = startTurn(reviewed(initialGuardianState(), "allow"));
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});
});

describe("calls another tool made (code mode's nested calls)", () => {
	it("take no allow from the turn's cache: they may run while the turn's other calls run", () => {
		const state = reviewed(initialGuardianState(), "allow");
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("done");
		expect(planToolCall(state, bashFacts("sh build.sh", true)).next.kind).toBe("review");
	});

	it("leave no verdict in it", () => {
		let state: GuardianState = initialGuardianState();
		const planned = planToolCall(state, bashFacts("sh build.sh", true));
		state = settleReview(planned.state, pending(planned), verdictOf("allow")).state;
		expect(state.turnCache.size).toBe(0);
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});
});

describe("allow-once after a call that may have changed files (a fifty-seventh review)", () => {
	it("a grant is dropped when such a call planned after it ends: `sh build.sh` is reviewed again", () => {
		// Denied in one turn, granted, and tried again in the next, after `write build.sh` ran.
		let state = reviewed(initialGuardianState(), "deny");
		const grant = grantAllowOnce(state, 2_000);
		expect(grant.granted).toBe(true);
		state = writeRan(startTurn(grant.state));
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("the grant is used when nothing changed since (the contrast)", () => {
		const state = startTurn(grantAllowOnce(reviewed(initialGuardianState(), "deny"), 2_000).state);
		expect(planToolCall(state, bashFacts("sh build.sh")).next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	});

	it("a denial waiting for a grant is dropped when such a call planned after it ends", () => {
		const state = writeRan(reviewed(initialGuardianState(), "deny"));
		expect(grantAllowOnce(state, 2_000).granted).toBe(false);
	});

	it("a call planned before the denial (code mode's script around its nested call) leaves it grantable", () => {
		let state: GuardianState = initialGuardianState();
		const script = planToolCall(state, {
			...bashFacts("unused"),
			toolName: "codemode",
			tool: { builtin: false },
			input: { code: "x" },
			hash: "h-cm",
		});
		const scriptCall = pending(script);
		state = settleReview(script.state, scriptCall, verdictOf("allow")).state;
		const nested = planToolCall(state, bashFacts("sh build.sh", true));
		state = settleReview(nested.state, pending(nested), verdictOf("deny")).state;
		state = noteToolCallEnded(state, scriptCall.sequence); // the script ends after its nested call was denied
		expect(grantAllowOnce(state, 2_000).granted).toBe(true);
	});
});

describe("allow-once while a call that may change files still runs (a fifty-eighth review)", () => {
	/** `sh build.sh` denied, granted, and a new turn. */
	function granted(): GuardianState {
		return startTurn(grantAllowOnce(reviewed(initialGuardianState(), "deny"), 2_000).state);
	}

	it("a grant is not used while a call planned after it runs, and is used once none does", () => {
		const state = granted();
		const after = state.plannedCalls + 1; // `write build.sh`, allowed as a sibling, still running
		const held = planToolCall(state, { ...bashFacts("sh build.sh"), runningChange: after });
		expect(held.next.kind).toBe("review");
		expect(held.state.allowOnce.grants).toHaveLength(1);
		const earlier = planToolCall(state, { ...bashFacts("sh build.sh"), runningChange: state.plannedCalls });
		expect(earlier.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	});

	it("nothing is granted while a call planned after the denial runs", () => {
		const state = reviewed(initialGuardianState(), "deny");
		expect(grantAllowOnce(state, 2_000, state.plannedCalls + 1).granted).toBe(false);
		expect(grantAllowOnce(state, 2_000, state.plannedCalls - 1).granted).toBe(true);
		expect(grantAllowOnce(state, 2_000).granted).toBe(true);
	});
});
