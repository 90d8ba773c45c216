// context-shunt aging at its exact boundaries: the 256-byte floor of an agable result, `atBytes` (passed, not
// reached) and `atContextShare` (reached).
import { describe, expect, it } from "vitest";
import { applyAgingPlan, collectAgingCandidates, EMPTY_AGING_PLAN, planAging } from "../src/shunt/index.ts";

const candidate = (id: string, turnsAgo: number, bytes: number) => ({
	id,
	toolName: "read",
	bytes,
	lines: 10,
	turnsAgo,
	agable: true,
});

describe("aging floor", () => {
	it("never ages a 255-byte result and ages a result of exactly 256 bytes", () => {
		const messages = [
			{ role: "user", content: "go" },
			{ role: "assistant", content: [] },
			{
				role: "toolResult",
				toolCallId: "t255",
				toolName: "read",
				isError: false,
				content: [{ type: "text", text: "a".repeat(255) }],
			},
			{
				role: "toolResult",
				toolCallId: "t256",
				toolName: "read",
				isError: false,
				content: [{ type: "text", text: "b".repeat(256) }],
			},
			{ role: "assistant", content: [] },
			{ role: "assistant", content: [] },
		];
		const candidates = collectAgingCandidates(messages);
		expect(candidates.map((c) => [c.id, c.bytes, c.turnsAgo, c.agable])).toEqual([
			["t255", 255, 2, false],
			["t256", 256, 2, true],
		]);
		const outcome = planAging({
			candidates,
			last: EMPTY_AGING_PLAN,
			settings: { keepTurns: 1, atBytes: 100, atContextShare: 0.9 },
		});
		expect(outcome.newBatch).toBe(true);
		expect(outcome.plan).toEqual({ aged: ["t256"], batches: 1 });
		const aged = applyAgingPlan(messages, outcome.plan, candidates) as Array<{
			content: Array<{ text: string }>;
		}>;
		expect(aged[2]).toBe(messages[2]);
		expect(aged[3]?.content).toEqual([
			{
				type: "text",
				text: '[context-shunt aged: read result, 256 bytes, 1 lines; context_shunt_recover {"toolCallId":"t256"}]',
			},
		]);
	});
});

describe("aging thresholds", () => {
	const settings = { keepTurns: 2, atBytes: 10_000, atContextShare: 0.5 };

	it("does not age a request of exactly atBytes of tool-result text, and ages one a byte over", () => {
		const at = planAging({
			candidates: [candidate("a", 3, 5000), candidate("b", 0, 5000)],
			last: EMPTY_AGING_PLAN,
			settings,
		});
		expect(at.newBatch).toBe(false);
		expect(at.plan).toEqual({ aged: [], batches: 0 });
		expect(at.requestToolBytes).toBe(10_000);
		expect(at.keptOutBytes).toBe(0);

		const over = planAging({
			candidates: [candidate("a", 3, 5001), candidate("b", 0, 5000)],
			last: EMPTY_AGING_PLAN,
			settings,
		});
		expect(over.newBatch).toBe(true);
		expect(over.plan).toEqual({ aged: ["a"], batches: 1 });
	});

	it("ages when the context share is exactly atContextShare, and not just under it", () => {
		const candidates = [candidate("a", 3, 3000), candidate("b", 0, 3000)];
		const at = planAging({ candidates, last: EMPTY_AGING_PLAN, settings, contextShare: 0.5 });
		expect(at.newBatch).toBe(true);
		expect(at.plan).toEqual({ aged: ["a"], batches: 1 });

		const under = planAging({ candidates, last: EMPTY_AGING_PLAN, settings, contextShare: 0.4999 });
		expect(under.newBatch).toBe(false);
		expect(under.plan).toEqual({ aged: [], batches: 0 });
		expect(under.requestToolBytes).toBe(6000);
	});
});
