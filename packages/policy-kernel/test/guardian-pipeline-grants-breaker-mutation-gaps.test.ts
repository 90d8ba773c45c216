// A mutation audit of guardian/pipeline.ts, allow-once.ts and breaker.ts (m4): each test kills a mutant that
// survived the kernel tests (and, where named, the allow-once and breaker session tests).
import { describe, expect, it } from "vitest";
import {
	ALLOW_ONCE_TTL_MS,
	type AllowOnceState,
	type BreakerState,
	type GuardianState,
	grantAllowOnce,
	initialAllowOnceState,
	initialBreakerState,
	initialGuardianState,
	type PipelineStep,
	planToolCall,
	reduceAllowOnce,
	reduceBreaker,
	settleReview,
	settleUserAnswer,
	startTurn,
	type ToolCallFacts,
} from "../src/guardian/index.js";
import { bashFacts, configOf, pending } from "./pipeline-facts.js";

const verdict = (outcome: "allow" | "deny") =>
	({ ok: true, verdict: { outcome, risk_level: "medium" }, latencyMs: 20, attempts: 1, promptTokens: 100 }) as const;
const failed = { ok: false, reason: "timeout", latencyMs: 20, attempts: 2 } as const;

/** Reviews `command` with `outcome` and returns the state after. */
function reviewed(
	state: GuardianState,
	command: string,
	outcome: "allow" | "deny",
	extra: Partial<ToolCallFacts> = {},
) {
	const config = configOf();
	return settleReview(state, pending(planToolCall(state, bashFacts(command, config, 1_000, extra))), verdict(outcome))
		.state;
}

describe("allow-once grants the denial the user saw last, whoever denied it (m4)", () => {
	// pipeline.ts:618 `denied(current, call.hash, call.now, true)` to `current`: a fallback denial (review
	// unavailable, no UI) is not remembered, so `/guardian allow-once` grants the reviewer's earlier denial of X.
	it("after a reviewer denial of X and a fallback denial of Y, the grant is for Y, not X", () => {
		const config = configOf();
		let state = reviewed(initialGuardianState(), "deploy-x", "deny");
		const y = planToolCall(state, bashFacts("deploy-y", config));
		const fallback = settleReview(y.state, pending(y), failed);
		expect(fallback.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		const granted = grantAllowOnce(fallback.state, 2_000);
		expect(granted.granted).toBe(true);
		state = startTurn(granted.state);
		expect(planToolCall(state, bashFacts("deploy-x", config, 3_000)).next).not.toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
		expect(planToolCall(state, bashFacts("deploy-y", config, 3_000)).next).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
	});

	// pipeline.ts:648 `denied(state, call.hash, call.now, true)` to `state`: the user's own "deny" in the
	// unavailable-review dialog is not remembered, so the grant goes to the reviewer's earlier denial of X.
	it("after a reviewer denial of X and the user's denial of Y in the dialog, the grant is for Y, not X", () => {
		const config = configOf();
		let state = reviewed(initialGuardianState(), "deploy-x", "deny");
		const y = planToolCall(state, bashFacts("deploy-y", config, 1_000, { hasUI: true }));
		const asked = settleReview(y.state, pending(y), failed);
		if (asked.next.kind !== "ask-user") throw new Error(`expected ask-user, got ${asked.next.kind}`);
		const refused = settleUserAnswer(asked.state, asked.next.call, asked.next.failure, false, 5);
		expect(refused.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		const granted = grantAllowOnce(refused.state, 2_000);
		expect(granted.granted).toBe(true);
		state = startTurn(granted.state);
		expect(planToolCall(state, bashFacts("deploy-x", config, 3_000)).next).not.toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
	});
});

describe("beside a grant used in the turn (m4)", () => {
	/** X and Y each denied, then granted: two live grants, in a fresh turn. */
	function twoGrants(): GuardianState {
		let state = reviewed(initialGuardianState(), "deploy-x", "deny");
		state = grantAllowOnce(state, 1_100).state;
		state = reviewed(state, "deploy-y", "deny");
		state = grantAllowOnce(state, 1_200).state;
		return startTurn(state);
	}

	// pipeline.ts:435 `facts.changeRunning === true || besideGrant` to `facts.changeRunning === true`: a second
	// grant is used by a call that may change files while the first granted call may still run.
	it("a second grant is not used by a call that may change files after a grant was used in the turn", () => {
		const config = configOf();
		const x = planToolCall(twoGrants(), bashFacts("deploy-x", config, 2_000, { mayChangeFiles: true }));
		expect(x.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		const y = planToolCall(x.state, bashFacts("deploy-y", config, 2_001, { mayChangeFiles: true }));
		expect(y.next.kind).toBe("review");
	});

	// pipeline.ts:446 `facts.nested === true || besideGrant` to `facts.nested === true`: a cached allow decides a
	// call that may change files after a grant was used in the turn.
	it("a cached allow does not decide a call that may change files after a grant was used in the turn", () => {
		const config = configOf();
		let state = reviewed(initialGuardianState(), "deploy-x", "deny");
		state = startTurn(grantAllowOnce(state, 1_100).state);
		state = reviewed(state, "make build", "allow", { mayChangeFiles: true });
		expect(state.turnCache.get("h-bash-make build")).toMatchObject({ decision: "allow" });
		const x = planToolCall(state, bashFacts("deploy-x", config, 2_000, { mayChangeFiles: true }));
		expect(x.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		const again = planToolCall(x.state, bashFacts("make build", config, 2_001, { mayChangeFiles: true }));
		expect(again.next.kind).toBe("review");
	});
});

describe("a floor hard-deny beside a grant (m4)", () => {
	// pipeline.ts:375 `judged.kind === "allow" && ` dropped: after a grant was used in the turn, a floor hard-deny
	// becomes a question for the reviewer.
	it("rm -rf / after a grant was used in the turn is still hard-denied by the floor", () => {
		const config = configOf();
		let state = reviewed(initialGuardianState(), "deploy-x", "deny");
		state = startTurn(grantAllowOnce(state, 1_100).state);
		const x = planToolCall(state, bashFacts("deploy-x", config, 2_000, { mayChangeFiles: true }));
		expect(x.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		const rm = planToolCall(x.state, bashFacts("rm -rf /", config, 2_001, { mayChangeFiles: true }));
		expect(rm.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		expect(rm.effects).toContainEqual(
			expect.objectContaining({ type: "verdict", payload: expect.objectContaining({ source: "floor" }) }),
		);
	});
});

describe("floor hard-denies feed the breaker (README: 'Hard-deny and reviewer denials count') (m4)", () => {
	// pipeline.ts:409 `noteBreaker(result.state, effects, call, "deny")` to `result.state`.
	it("three floor hard-denies in a row trip the breaker and abort the turn", () => {
		const config = configOf();
		let state = initialGuardianState();
		let last: PipelineStep | undefined;
		for (let n = 0; n < 3; n++) {
			last = planToolCall(state, bashFacts("rm -rf /", config, 1_000 + n));
			expect(last.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
			state = last.state;
		}
		expect(state.breaker.tripped).toBe(true);
		expect(last?.effects.some((effect) => effect.type === "abort-turn")).toBe(true);
	});
});

describe("the allow-once reducer (m4)", () => {
	const denyGrant = (state: AllowOnceState, hash: string, at: number) =>
		reduceAllowOnce(reduceAllowOnce(state, { type: "denied", hash, at, eligible: true }).state, {
			type: "grant",
			now: at,
		}).state;
	const consumed = (state: AllowOnceState, hash: string, now: number) =>
		reduceAllowOnce(state, { type: "check", hash, now }).effects.some((effect) => effect.type === "consumed");

	// allow-once.ts:123 `&& grant.hash !== state.lastDenied?.hash` dropped: the same action granted twice runs twice.
	it("granting the same action again replaces its grant: it runs once, not twice", () => {
		let state = denyGrant(initialAllowOnceState(), "x", 0);
		state = denyGrant(state, "x", 10);
		const first = reduceAllowOnce(state, { type: "check", hash: "x", now: 20 });
		expect(first.effects).toEqual([{ type: "consumed" }]);
		expect(consumed(first.state, "x", 30)).toBe(false);
	});

	// allow-once.ts:126 `.slice(-MAX_ALLOW_ONCE_GRANTS)` to `.slice(0, MAX_ALLOW_ONCE_GRANTS)`, and
	// allow-once.ts:7 16 to 1: with more than 16 grants, the newest (the one just reported "granted") is kept and
	// the oldest dropped; 16 live grants are all usable.
	it("keeps the 16 newest grants, the one just granted among them", () => {
		let state = initialAllowOnceState();
		for (let n = 0; n < 17; n++) state = denyGrant(state, `h${n}`, n);
		expect(consumed(state, "h16", 100)).toBe(true);
		expect(consumed(state, "h1", 100)).toBe(true);
		expect(consumed(state, "h0", 100)).toBe(false);
	});

	// allow-once.ts:148 `grants: []` to `grants: state.grants`: a change drops the remembered denial but keeps an
	// earlier grant, which then runs against files that changed since it was granted (decision 0025).
	it("a call that may have changed files drops waiting grants even while a later denial is remembered", () => {
		let state = denyGrant(initialAllowOnceState(), "x", 0);
		state = reduceAllowOnce(state, { type: "denied", hash: "y", at: 5, eligible: true }).state;
		state = reduceAllowOnce(state, { type: "files-changed", madeDenied: false }).state;
		expect(consumed(state, "x", 10)).toBe(false);
	});

	// allow-once.ts:142 `lastDenied: state.lastDenied` to `undefined`: using a grant for X forgets the later denial
	// of Y, so `/guardian allow-once` then finds nothing to grant.
	it("using a grant keeps a later denial grantable", () => {
		let state = denyGrant(initialAllowOnceState(), "x", 0);
		state = reduceAllowOnce(state, { type: "denied", hash: "y", at: 5, eligible: true }).state;
		const used = reduceAllowOnce(state, { type: "check", hash: "x", now: 10 });
		expect(used.effects).toEqual([{ type: "consumed" }]);
		expect(reduceAllowOnce(used.state, { type: "grant", now: 20 }).effects[0]?.type).toBe("granted");
	});

	// allow-once.ts:153 `lastDenied: state.lastDenied` to `undefined`: the code-mode script that made the denied call
	// ends; its denial stays grantable (README: "The code-mode script that made the denied call does not count").
	it("the end of the call that made the denied call keeps the denial grantable while dropping grants", () => {
		let state = denyGrant(initialAllowOnceState(), "x", 0);
		state = reduceAllowOnce(state, { type: "denied", hash: "y", at: 5, eligible: true }).state;
		state = reduceAllowOnce(state, { type: "files-changed", madeDenied: true }).state;
		expect(consumed(state, "x", 10)).toBe(false);
		expect(reduceAllowOnce(state, { type: "grant", now: 20 }).effects[0]?.type).toBe("granted");
	});

	// allow-once.ts:5 `5 * 60 * 1000` to `+ 1`: a denial exactly five minutes old is granted, one a millisecond
	// older is not.
	it("a grant's life is exactly five minutes", () => {
		expect(ALLOW_ONCE_TTL_MS).toBe(300_000);
		const denied = reduceAllowOnce(initialAllowOnceState(), { type: "denied", hash: "x", at: 0, eligible: true }).state;
		expect(reduceAllowOnce(denied, { type: "grant", now: 300_000 }).effects[0]?.type).toBe("granted");
		expect(reduceAllowOnce(denied, { type: "grant", now: 300_001 }).effects[0]).toEqual({
			type: "nothing-to-grant",
			reason: "expired",
		});
	});
});

describe("the breaker reducer (m4)", () => {
	const decide = (state: BreakerState, decision: "allow" | "deny") =>
		reduceBreaker(state, { type: "review-decided", decision });

	// breaker.ts:9 50 to 49: the tenth denial trips when the first is exactly fifty reviews back.
	it("counts a denial fifty reviews back in the window", () => {
		const denials = new Set([1, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
		let state = initialBreakerState();
		let tripped = false;
		for (let n = 1; n <= 50; n++) {
			const step = decide(state, denials.has(n) ? "deny" : "allow");
			state = step.state;
			if (step.effects.length > 0) {
				tripped = true;
				expect(n).toBe(50);
			}
		}
		expect(tripped).toBe(true);
	});

	// breaker.ts:67 `trips: state.trips + 1` to `trips: state.trips` (shown in `/guardian status`).
	it("counts its trips", () => {
		let state = initialBreakerState();
		for (let n = 0; n < 3; n++) state = decide(state, "deny").state;
		expect(state.trips).toBe(1);
	});
});
