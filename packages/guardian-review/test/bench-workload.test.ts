// The `pnpm bench` workload: a 220-call replay where the floor decides >= 70% without a model call.
import { describe, expect, it } from "vitest";
import guardianReviewWorkload, { guardianReplayCalls } from "../../../tooling/bench/src/workloads/guardian-review.ts";

describe("guardian-review bench workload", () => {
	it("replays >= 200 calls and passes every check", async () => {
		expect(guardianReplayCalls().length).toBeGreaterThanOrEqual(200);
		const result = await guardianReviewWorkload.run();
		const figures = Object.fromEntries(result.figures.map((f) => [f.name, f.value]));
		console.log(JSON.stringify(figures, null, 1));
		for (const check of result.checks) expect([check.name, check.passed]).toEqual([check.name, true]);
		expect(figures["decided without a model call"]).toBeGreaterThanOrEqual(0.7);
	}, 120_000);
});
