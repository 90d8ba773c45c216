// The `pnpm demo` scenario of exploration-guard runs in a real session and shows nudge, pause and recovery.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../tooling/demo/src/run.ts";
import explorationGuardScenario from "../../../tooling/demo/src/scenarios/exploration-guard.ts";
import { loadScenarios } from "../../../tooling/demo/src/scenarios.ts";

describe("pnpm demo: exploration-guard", () => {
	it("is discovered by the demo", async () => {
		const ids = (await loadScenarios()).map((scenario) => scenario.id);
		expect(ids).toContain("exploration-guard");
	});

	it("nudges once, pauses the fifth broad grep, and recovers after delegating", async () => {
		const { rows, notifications, narration } = await runScenario(explorationGuardScenario);
		expect(rows).toHaveLength(explorationGuardScenario.steps().length);
		const errors = rows.flatMap((row) => row.arrived.filter((label) => label.includes("result error")));
		expect(errors).toEqual([expect.stringMatching(/^grep result error/)]);
		expect(rows[5]?.arrived[0]).toMatch(/^grep result error/);
		expect(rows[6]?.arrived[0]).toMatch(/^subagent result/);
		expect(rows[7]?.arrived[0]).toMatch(/^grep result \(/);
		expect(narration).toContain("steer nudge delivered: yes, once");
		expect(narration.join("\n")).toContain(
			"audit trail (aggregate only): activated → warned → threshold-reached → blocked → delegation-started → delegation-succeeded",
		);
		expect(notifications.at(-1)?.message).toContain("Delegation: started 1, succeeded 1, failed 0");
	});
});
