// Runs the context-shunt demo scenario (tooling/demo) in a real session and checks each beat of it.
import { expect, it } from "vitest";
import { runScenario } from "../../../tooling/demo/src/run.ts";
import scenario from "../../../tooling/demo/src/scenarios/context-shunt.ts";

it("demo: blocked then granted once, receipt, byte-identical recovery, cited answer", async () => {
	const { narration, notifications } = await runScenario(scenario);
	expect(narration[0]).toBe("read blocked before it ran: yes; granted once by token: yes");
	expect(narration[1]).toMatch(/^bash log -> receipt of \d+ bytes \(\d+ bytes, 2002 lines preserved\)$/);
	expect(Number(/receipt of (\d+)/.exec(narration[1]!)?.[1])).toBeLessThanOrEqual(2048);
	expect(narration[2]).toBe(
		'recovered lines 1995-2000: ["step 4000: ok","step 4001: FAILED retry budget exhausted",""]',
	);
	expect(JSON.parse(narration[3]!.replace("reader answer: ", ""))).toMatchObject({
		status: "answered",
		citations: [{ startLine: 2000, endLine: 2000 }],
	});
	expect(notifications.some((n) => n.message.includes("granted once"))).toBe(true);
	expect(notifications.at(-1)?.message).toContain("blocked 1");
});
