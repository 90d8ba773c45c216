import { describe, expect, it } from "vitest";
import * as config from "../src/config.js";
import {
	allow,
	block,
	combineDecisions,
	decisionOnFailure,
	err,
	isErr,
	isOk,
	mapResult,
	ok,
	strongerDecision,
	unwrapOr,
	warn,
} from "../src/decision.js";
import * as kernel from "../src/index.js";

describe("Result", () => {
	it("builds and inspects results", () => {
		expect(ok(1)).toEqual({ ok: true, value: 1 });
		expect(err("bad")).toEqual({ ok: false, error: "bad" });
		expect(isOk(ok(1))).toBe(true);
		expect(isErr(err("x"))).toBe(true);
		expect(mapResult(ok(2), (n) => n * 3)).toEqual(ok(6));
		expect(mapResult(err("x"), (n: number) => n * 3)).toEqual(err("x"));
		expect(unwrapOr(err("x"), 5)).toBe(5);
		expect(unwrapOr(ok(1), 5)).toBe(1);
	});

	it("is exported from decision, config and the index as the same functions", () => {
		expect(config.ok).toBe(ok);
		expect(config.err).toBe(err);
		expect(kernel.ok).toBe(ok);
	});
});

describe("Decision", () => {
	it("orders block over warn over allow, keeping the first on ties", () => {
		expect(strongerDecision(allow(), warn("w"))).toEqual(warn("w"));
		expect(strongerDecision(block("b"), warn("w"))).toEqual(block("b"));
		expect(strongerDecision(warn("first"), warn("second"))).toEqual(warn("first"));
		expect(combineDecisions([])).toEqual(allow());
		expect(combineDecisions([allow(), warn("w"), block("b1"), block("b2")])).toEqual(block("b1"));
	});

	it("maps a failure direction to a fallback decision", () => {
		expect(decisionOnFailure("open", "internal")).toEqual(allow());
		expect(decisionOnFailure("closed", "internal")).toEqual(block("internal"));
	});
});
