// The guardian pipeline reducer: observe mode reviews even after the breaker would have tripped, and an
// allow-once grant, once used, leaves no cached denial behind for the same action in the same turn.
import { describe, expect, it } from "vitest";
import {
	ALLOW_ONCE_TTL_MS,
	type GuardianState,
	grantAllowOnce,
	initialGuardianState,
	type PipelineStep,
	planToolCall,
	settleReview,
	startTurn,
	type ToolCallFacts,
	waitingGrantOf,
} from "../src/guardian/index.js";
import { bashFacts, configOf, pending } from "./pipeline-facts.js";

const denyVerdict = {
	ok: true,
	verdict: { outcome: "deny", risk_level: "high" },
	latencyMs: 20,
	attempts: 1,
	promptTokens: 100,
} as const;

describe("observe mode and the breaker", () => {
	it("after three consecutive reviewer denials in observe mode, the next call still goes to the reviewer", () => {
		const config = configOf({ mode: "observe" });
		let state: GuardianState = initialGuardianState();
		for (let n = 0; n < 3; n++) {
			const settled = settleReview(state, pending(planToolCall(state, bashFacts(`deploy ${n}`, config))), denyVerdict);
			expect(settled.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
			state = settled.state;
		}
		expect(state.breaker.tripped).toBe(true);
		const next = planToolCall(state, bashFacts("deploy 3", config));
		expect(next.next.kind).toBe("review");
		expect(pending(next)).toMatchObject({ toolName: "bash", hash: "h-bash-deploy 3", observe: true });
		expect(next.effects).toEqual([]);
	});

	it("in enforce mode the same history blocks the next call on the breaker (the contrast)", () => {
		const config = configOf();
		let state: GuardianState = initialGuardianState();
		for (let n = 0; n < 3; n++)
			state = settleReview(state, pending(planToolCall(state, bashFacts(`deploy ${n}`, config))), denyVerdict).state;
		const next = planToolCall(state, bashFacts("deploy 3", config));
		expect(next.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
	});
});

describe("allow-once within one turn", () => {
	it("after the granted call, the same action again in the same turn goes to a new review, not the cached denial", () => {
		const config = configOf();
		const facts = bashFacts("npm publish", config, 10);
		const denied = settleReview(
			initialGuardianState(),
			pending(planToolCall(initialGuardianState(), facts)),
			denyVerdict,
		);
		expect(denied.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		// Granted within the turn whose cache holds the reviewer's denial of this action.
		expect(denied.state.turnCache.get("h-bash-npm publish")).toMatchObject({ decision: "deny" });
		const granted = grantAllowOnce(denied.state, 20);
		expect(granted.granted).toBe(true);
		const once = planToolCall(granted.state, { ...facts, now: 30 });
		expect(once.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		// Same turn (no startTurn): the grant is spent, and the action is reviewed again.
		const again = planToolCall(once.state, { ...facts, now: 40 });
		expect(again.next.kind).toBe("review");
		expect(pending(again)).toMatchObject({ toolName: "bash", hash: "h-bash-npm publish", observe: false });
	});
});

describe("a denial beside a grant the user made says why the grant did not let it run", () => {
	const config = configOf();
	const withUI = (facts: ToolCallFacts): ToolCallFacts => ({ ...facts, hasUI: true });
	const notices = (step: PipelineStep) =>
		step.effects.flatMap((effect) => (effect.type === "notify" ? [effect.text] : []));
	/** `sh build.sh` denied at 10 and granted at 20 with fingerprint `before`; the agent's next turn. */
	function grantedBuild(): GuardianState {
		const facts = withUI(bashFacts("sh build.sh", config, 10));
		const denied = settleReview(
			initialGuardianState(),
			pending(planToolCall(initialGuardianState(), facts)),
			denyVerdict,
		);
		const granted = grantAllowOnce(denied.state, 20, false, "before");
		expect(granted.granted).toBe(true);
		return startTurn(granted.state);
	}

	it("the granted call held back by changed files: its grant was not used", () => {
		const state = grantedBuild();
		const planned = planToolCall(state, { ...withUI(bashFacts("sh build.sh", config, 30)), fingerprint: "after" });
		const settled = settleReview(planned.state, pending(planned), denyVerdict);
		expect(notices(settled)).toEqual([
			"guardian-review denied a bash call (source: reviewer, risk high). Its allow-once grant was not used: files the call names changed since the grant, or a command the agent started still ran. /guardian allow-once lets it run once.",
		]);
	});

	it("a different call: the grant waits for the exact call that was denied", () => {
		const state = grantedBuild();
		const planned = planToolCall(state, withUI(bashFacts("sh build.sh --fast", config, 30)));
		const settled = settleReview(planned.state, pending(planned), denyVerdict);
		expect(notices(settled)).toEqual([
			"guardian-review denied a bash call (source: reviewer, risk high). An allow-once grant waits for a different call: a grant is for the exact call that was denied. /guardian allow-once lets it run once.",
		]);
		// The same different call again in the turn, denied from the cache, says so too.
		const cached = planToolCall(settled.state, withUI(bashFacts("sh build.sh --fast", config, 40)));
		expect(notices(cached)[0]).toContain("(source: reviewer, earlier in this turn). An allow-once grant waits");
	});

	it("says nothing of a grant once it expired, or when none was made", () => {
		const state = grantedBuild();
		const late = planToolCall(state, withUI(bashFacts("sh build.sh --fast", config, 20 + ALLOW_ONCE_TTL_MS)));
		const settled = settleReview(late.state, pending(late), denyVerdict);
		expect(notices(settled)).toEqual([
			"guardian-review denied a bash call (source: reviewer, risk high). /guardian allow-once lets it run once.",
		]);
		expect(waitingGrantOf(state.allowOnce, "h-bash-sh build.sh", 20 + ALLOW_ONCE_TTL_MS - 1)).toBe("this-call");
		expect(waitingGrantOf(initialGuardianState().allowOnce, "h-bash-sh build.sh", 0)).toBeUndefined();
	});
});
