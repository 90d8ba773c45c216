// The optional local review log: off by default; when on, one JSON line per review under the agent directory.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, createGuardianHarness, type GuardianHarness, REVIEWER_MODEL, verdict } from "./helpers.ts";

let h: GuardianHarness | undefined;
afterEach(async () => {
	await h?.dispose();
	h = undefined;
});

async function waitFor(check: () => boolean): Promise<boolean> {
	for (let i = 0; i < 50; i++) {
		if (check()) return true;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return check();
}

describe("review log", () => {
	it("is not written by default", async () => {
		h = await createGuardianHarness({ ui: false });
		h.agent(callTool("bash", { command: "ln -s /dev/null logged.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(existsSync(join(h.agentDir, "guardian-review", "review-log.jsonl"))).toBe(false);
	});

	it("keeps the action, verdict and rationale locally when on, and never the transcript", async () => {
		h = await createGuardianHarness({
			ui: false,
			guardian: {
				mode: "enforce",
				reviewLog: true,
				reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false },
			},
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null logged.txt" }), "done");
		h.reviewer(verdict("deny", { risk_level: "medium", rationale: "not asked for" }));
		await h.prompt("SECRET-PROMPT-TEXT please");
		const path = join(h.agentDir, "guardian-review", "review-log.jsonl");
		// Whole lines only: the log is appended while the test goes on.
		expect(await waitFor(() => existsSync(path) && readFileSync(path, "utf8").endsWith("\n"))).toBe(true);
		const lines = readFileSync(path, "utf8").trim().split("\n");
		expect(lines).toHaveLength(1);
		const record = JSON.parse(lines[0]!) as Record<string, unknown>;
		expect(record).toMatchObject({
			tool: "bash",
			action: { tool: "bash", command: "ln -s /dev/null logged.txt" },
			decision: "deny",
			source: "reviewer",
			riskLevel: "medium",
			rationale: "not asked for",
			model: REVIEWER_MODEL,
		});
		expect(lines[0]).not.toContain("SECRET-PROMPT-TEXT");
	});
});
