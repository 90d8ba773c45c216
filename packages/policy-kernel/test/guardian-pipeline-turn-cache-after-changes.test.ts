// The guardian pipeline's per-turn verdict cache after a call that may have changed files has run (a fifty-fifth
// review): code mode's nested calls and sibling calls Pi runs one after another come later in the same turn, so a
// reviewer's allow of `sh build.sh` must not be reused after `write build.sh` ran.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	forgetAllowOnce,
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

/** A `write build.sh` the floor allows is planned and then ends: a call that may have changed files. */
function writeRan(state: GuardianState): GuardianState {
	const write: ToolCallFacts = {
		...bashFacts("unused"),
		toolName: "write",
		input: { path: "build.sh", content: "echo pwned" },
		hash: "h-write",
	};
	const planned = planToolCall(state, write);
	expect(planned.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	return noteToolCallEnded(planned.state, { madeLastDenied: false });
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
		state = noteToolCallEnded(state, { madeLastDenied: false }); // a write allowed earlier ended during the review
		const settled = settleReview(state, call, verdictOf("allow"));
		expect(settled.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(settled.state.turnCache.has("h-sh build.sh")).toBe(false);
		expect(planToolCall(settled.state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("still caches such a review's denial", () => {
		let state: GuardianState = initialGuardianState();
		const call = pending(planToolCall(state, bashFacts("sh build.sh")));
		state = noteToolCallEnded(state, { madeLastDenied: false });
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

	it("the code-mode script that made the denied call leaves it grantable when it ends", () => {
		let state: GuardianState = initialGuardianState();
		const nested = planToolCall(state, bashFacts("sh build.sh", true));
		state = settleReview(nested.state, pending(nested), verdictOf("deny")).state;
		expect(grantAllowOnce(noteToolCallEnded(state, { madeLastDenied: true }), 2_000).granted).toBe(true);
		expect(grantAllowOnce(noteToolCallEnded(state, { madeLastDenied: false }), 2_000).granted).toBe(false);
	});
});

describe("allow-once while a call that may change files still runs (a fifty-eighth review)", () => {
	/** `sh build.sh` denied, granted, and a new turn. */
	function granted(): GuardianState {
		return startTurn(grantAllowOnce(reviewed(initialGuardianState(), "deny"), 2_000).state);
	}

	it("a grant is not used while such a call runs, and is used once none does", () => {
		const state = granted();
		const held = planToolCall(state, { ...bashFacts("sh build.sh"), changeRunning: true });
		expect(held.next.kind).toBe("review");
		expect(held.state.allowOnce.grants).toHaveLength(1);
		const alone = planToolCall(state, { ...bashFacts("sh build.sh"), changeRunning: false });
		expect(alone.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	});

	it("nothing is granted while such a call runs", () => {
		const state = reviewed(initialGuardianState(), "deny");
		expect(grantAllowOnce(state, 2_000, true).granted).toBe(false);
		expect(grantAllowOnce(state, 2_000, false).granted).toBe(true);
	});
});

describe("the rest of a turn in which a grant was used (a fifty-ninth review)", () => {
	function afterGrantUsed(): GuardianState {
		const state = startTurn(grantAllowOnce(reviewed(initialGuardianState(), "deny"), 2_000).state);
		const used = planToolCall(state, { ...bashFacts("sh build.sh"), mayChangeFiles: true });
		expect(used.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		return used.state;
	}
	const write = (path: string): ToolCallFacts => ({
		...bashFacts("unused"),
		toolName: "write",
		input: { path, content: "x" },
		hash: `h-write-${path}`,
		mayChangeFiles: true,
	});

	it("a write the floor would allow goes to review: the granted call may still be running", () => {
		const state = afterGrantUsed();
		const next = planToolCall(state, write("build.sh"));
		expect(next.next.kind).toBe("review");
		expect(next.state.stats.passedOn).toEqual({ "not-read-only": 2, writes: 1 });
	});

	it("a read-only bash call, or a call that cannot change files, is still decided by the floor", () => {
		const state = afterGrantUsed();
		expect(planToolCall(state, { ...bashFacts("cat a.txt"), mayChangeFiles: true }).next).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
			readsOnly: true,
		});
		expect(planToolCall(state, { ...write("notes.md"), toolName: "write", mayChangeFiles: false }).next.kind).toBe(
			"done",
		);
	});

	it("the next turn is decided as usual", () => {
		expect(planToolCall(startTurn(afterGrantUsed()), write("build.sh")).next.kind).toBe("done");
	});
});

describe("leaving and entering mode off", () => {
	it("drops grants and the denial waiting for one", () => {
		const denied = reviewed(initialGuardianState(), "deny");
		expect(grantAllowOnce(forgetAllowOnce(denied), 2_000).granted).toBe(false);
		const granted = startTurn(grantAllowOnce(denied, 2_000).state);
		expect(planToolCall(forgetAllowOnce(granted), bashFacts("sh build.sh")).next.kind).toBe("review");
	});
});

describe("allow-once with the files' fingerprint (a sixtieth review)", () => {
	function grantedWith(fingerprint: string | undefined): GuardianState {
		return startTurn(grantAllowOnce(reviewed(initialGuardianState(), "deny"), 2_000, false, fingerprint).state);
	}

	it("uses a grant only while the named files match the fingerprint it was made with", () => {
		const state = grantedWith("f1");
		expect(planToolCall(state, { ...bashFacts("sh build.sh"), fingerprint: "f1" }).next).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
		const changed = planToolCall(state, { ...bashFacts("sh build.sh"), fingerprint: "f2" });
		expect(changed.next.kind).toBe("review");
		expect(changed.state.allowOnce.grants).toHaveLength(1);
		expect(planToolCall(state, bashFacts("sh build.sh")).next.kind).toBe("review");
	});

	it("a grant made without one is used as before", () => {
		expect(planToolCall(grantedWith(undefined), { ...bashFacts("sh build.sh"), fingerprint: "f2" }).next.kind).toBe(
			"done",
		);
	});
});
