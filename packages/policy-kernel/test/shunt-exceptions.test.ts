import { describe, expect, it } from "vitest";
import {
	EXCEPTION_RULES,
	type ExceptionEffect,
	type ExceptionEvent,
	type ExceptionState,
	emptyExceptionState,
	findGrant,
	grantNarrowing,
	reduceExceptions,
} from "../src/shunt/index.js";

function run(events: ExceptionEvent[], start: ExceptionState = emptyExceptionState()) {
	let state = start;
	const effects: ExceptionEffect[] = [];
	for (const event of events) {
		const result = reduceExceptions(state, event);
		state = result.state;
		effects.push(...result.effects);
	}
	return { state, effects };
}

const issue = (token: string, fingerprint: string, now = 0, declaredLines = 1000): ExceptionEvent => ({
	type: "issue",
	token,
	tool: "read",
	fingerprint,
	declaredLines,
	now,
});
const grant = (token: string, now = 0, maxLines = 2000, maxBytes = 60000): ExceptionEvent => ({
	type: "grant",
	token,
	maxLines,
	maxBytes,
	now,
});
const consume = (token: string, toolCallId: string, now = 0, admittedFingerprint = "fp"): ExceptionEvent => ({
	type: "consume",
	token,
	toolCallId,
	admittedFingerprint,
	now,
});

describe("exception tokens", () => {
	it("has the contract's numbers: one minute, 8 consumed", () => {
		expect(EXCEPTION_RULES.grantTtlMs).toBe(60_000);
		expect(EXCEPTION_RULES.maxConsumed).toBe(8);
	});

	it("grants once: the matching call consumes it and the next finds nothing", () => {
		const { state, effects } = run([issue("t1", "fp"), grant("t1", 10)]);
		expect(effects).toContainEqual({ type: "granted", token: "t1", narrows: false, expiresAt: 60_010 });
		const found = findGrant(state, "fp", 20);
		expect(found?.token).toBe("t1");
		expect(findGrant(state, "other", 20)).toBeUndefined();
		const consumed = run([consume("t1", "call-1", 20)], state);
		expect(consumed.effects).toContainEqual({ type: "consumed", toolCallId: "call-1", narrowTo: undefined });
		expect(findGrant(consumed.state, "fp", 21)).toBeUndefined();
		const again = run([grant("t1", 22)], consumed.state);
		expect(again.effects).toEqual([{ type: "grant-refused", reason: "unknown-token" }]);
	});

	it("pins the grant expiry at one minute minus 1 ms and one minute", () => {
		const { state } = run([issue("t1", "fp"), grant("t1", 1000)]);
		expect(findGrant(state, "fp", 1000 + 60_000 - 1)).toBeDefined();
		expect(findGrant(state, "fp", 1000 + 60_000)).toBeUndefined();
		const late = run([{ type: "expire", now: 1000 + 60_000 }], state);
		expect(late.effects).toEqual([{ type: "lapsed", reason: "expired", count: 1 }]);
	});

	it("narrows when maxLines is below the declared range", () => {
		const { state, effects } = run([issue("t1", "fp", 0, 1000), grant("t1", 0, 400)]);
		expect(effects).toContainEqual(expect.objectContaining({ type: "granted", narrows: true }));
		const found = findGrant(state, "fp", 1);
		expect(found && grantNarrowing(found)).toBe(400);
		const consumed = run([consume("t1", "c", 1, "narrowed")], state);
		expect(consumed.effects).toContainEqual({ type: "consumed", toolCallId: "c", narrowTo: 400 });
		expect(consumed.state.consumed[0]).toMatchObject({ admittedLines: 400, fingerprint: "narrowed" });
	});

	it("rejects unknown tokens and out-of-bounds grants", () => {
		expect(run([grant("nope")]).effects).toEqual([{ type: "grant-refused", reason: "unknown-token" }]);
		expect(run([issue("t", "fp"), grant("t", 0, 0)]).effects.at(-1)).toEqual({
			type: "grant-refused",
			reason: "invalid-bounds",
		});
		expect(run([issue("t", "fp"), grant("t", 0, 5, 1_048_577)]).effects.at(-1)).toEqual({
			type: "grant-refused",
			reason: "invalid-bounds",
		});
		expect(run([issue("t", "fp"), grant("t", 0, 1_048_576, 1_048_576)]).effects.at(-1)?.type).toBe("granted");
	});

	it("keeps the 8 most recent issued tokens", () => {
		const events = Array.from({ length: 9 }, (_, i) => issue(`t${i}`, `fp${i}`));
		const { state } = run(events);
		expect(state.issued.map((t) => t.token)).toEqual(["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]);
		expect(run([grant("t0")], state).effects).toEqual([{ type: "grant-refused", reason: "unknown-token" }]);
	});

	it("retains 8 consumed authorizations and evicts the ninth-oldest", () => {
		const events: ExceptionEvent[] = [];
		for (let i = 0; i < 9; i++)
			events.push(issue(`t${i}`, `fp${i}`), grant(`t${i}`), consume(`t${i}`, `call${i}`, 0, `fp${i}`));
		const eight = run(events.slice(0, 24));
		expect(eight.state.consumed).toHaveLength(8);
		expect(eight.effects.filter((e) => e.type === "lapsed")).toEqual([]);
		const nine = run(events.slice(24), eight.state);
		expect(nine.effects).toContainEqual({ type: "lapsed", reason: "evicted", count: 1 });
		expect(nine.state.consumed.map((c) => c.toolCallId)).not.toContain("call0");
		const settle = run([{ type: "settle", toolCallId: "call0", fingerprint: "fp0", now: 1 }], nine.state);
		expect(settle.effects).toEqual([]);
	});

	it("settles a consumed authorization: applied, changed or expired", () => {
		const base = run([issue("t", "fp"), grant("t", 0, 2000, 50_000), consume("t", "c", 0, "fp")]).state;
		expect(run([{ type: "settle", toolCallId: "c", fingerprint: "fp", now: 59_999 }], base).effects).toEqual([
			{ type: "applied", toolCallId: "c", maxLines: 2000, maxBytes: 50_000, admittedLines: 1000 },
		]);
		expect(run([{ type: "settle", toolCallId: "c", fingerprint: "other", now: 1 }], base).effects).toEqual([
			{ type: "lapsed", reason: "changed", count: 1 },
		]);
		expect(run([{ type: "settle", toolCallId: "c", fingerprint: "fp", now: 60_000 }], base).effects).toEqual([
			{ type: "lapsed", reason: "expired", count: 1 },
		]);
		const settled = run([{ type: "settle", toolCallId: "c", fingerprint: "fp", now: 1 }], base).state;
		expect(settled.consumed).toEqual([]);
	});

	it("keeps unconsumed grants across an agent end, and drops everything on branch change, cancel or shutdown", () => {
		const base = run([
			issue("a", "fpa"),
			grant("a"),
			issue("b", "fpb"),
			grant("b"),
			consume("b", "cb", 0, "fpb"),
		]).state;
		const ended = run([{ type: "lapse", reason: "agent-ended" }], base);
		expect(ended.effects).toEqual([{ type: "lapsed", reason: "agent-ended", count: 1 }]);
		expect(findGrant(ended.state, "fpa", 1)).toBeDefined();
		for (const reason of ["branch-changed", "cancelled", "terminal"] as const) {
			const dropped = run([{ type: "lapse", reason }], base);
			expect(dropped.effects).toEqual([{ type: "lapsed", reason, count: 2 }]);
			expect(dropped.state).toEqual(emptyExceptionState());
		}
	});

	it("ignores malformed events", () => {
		const state = emptyExceptionState();
		expect(reduceExceptions(state, { type: "nope" } as unknown as ExceptionEvent)).toEqual({ state, effects: [] });
	});
});
