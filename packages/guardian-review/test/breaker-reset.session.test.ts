// The denial breaker's consecutive count resets on a person's prompt only: a turn that another extension starts
// (pi.sendMessage with triggerTurn, or pi.sendUserMessage) must not wipe the count.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, createGuardianHarness, type GuardianHarness, verdict } from "./helpers.ts";

let h: GuardianHarness | undefined;
afterEach(async () => {
	await h?.dispose();
	h = undefined;
});

/** A test extension whose command starts an agent turn the way extensions do. */
function turnStarter(pi: ExtensionAPI): void {
	pi.registerCommand("nudge-turn", {
		description: "start a turn from an extension",
		handler: async () => {
			pi.sendUserMessage("Continue with the next file.");
		},
	});
}

function trips(harness: GuardianHarness): number {
	return harness.audit().filter((entry) => entry.event === "breaker-tripped").length;
}

describe("breaker reset", () => {
	it("does not reset the consecutive count for an extension-started turn", async () => {
		h = await createGuardianHarness({ ui: {}, after: [turnStarter] });
		h.agent(
			callTool("bash", { command: "ln -s /dev/null one.txt" }),
			callTool("bash", { command: "ln -s /dev/null two.txt" }),
			"stop",
		);
		h.reviewer(verdict("deny"), verdict("deny"));
		await h.prompt("make two files");
		expect(trips(h)).toBe(0);

		h.agent(callTool("bash", { command: "ln -s /dev/null three.txt" }), "never reached");
		h.reviewer(verdict("deny"));
		await h.command("/nudge-turn");
		await h.session.waitForIdle();
		expect(trips(h)).toBe(1);
	});

	it("resets the consecutive count when the user prompts again", async () => {
		h = await createGuardianHarness({ ui: {} });
		h.agent(
			callTool("bash", { command: "ln -s /dev/null one.txt" }),
			callTool("bash", { command: "ln -s /dev/null two.txt" }),
			"stop",
		);
		h.reviewer(verdict("deny"), verdict("deny"));
		await h.prompt("make two files");

		h.agent(callTool("bash", { command: "ln -s /dev/null three.txt" }), "stopped");
		h.reviewer(verdict("deny"));
		await h.prompt("try the third one");
		expect(trips(h)).toBe(0);
	});
});
