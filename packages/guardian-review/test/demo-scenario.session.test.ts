// The `pnpm demo` scenario runs in a real session and shows what the issue asks for.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../tooling/demo/src/run.ts";
import guardianReviewScenario, {
	GUARDIAN_DEMO_RATIONALE,
} from "../../../tooling/demo/src/scenarios/guardian-review.ts";

describe("guardian-review demo scenario", () => {
	it("allows git status and denies rm -rf ~ by the floor, denies the install by the reviewer, then allow-once", async () => {
		const { narration, notifications } = await runScenario(guardianReviewScenario);
		const text = narration.join("\n");
		expect(text).toContain(
			"decisions, in order: allowed by floor, denied by floor, denied by reviewer, allowed by allow-once",
		);
		expect(text).toContain("reviewer model calls: 1");
		expect(text).toContain("the reviewer's rationale reached the agent: yes");
		expect(text).toContain("hard-deny rule (recursive deletion of the home directory)");
		expect(text).toContain("denied this bash call as risky");
		expect(notifications.some((n) => n.message.includes("may run once within 5 minutes"))).toBe(true);
		expect(notifications.at(-1)?.message).toContain("allowed: floor 1, allow-once 1");
		expect(GUARDIAN_DEMO_RATIONALE.length).toBeGreaterThan(0);
	});
});
