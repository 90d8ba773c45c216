// guardian-review on the kernel's one config lifecycle, in real sessions: the shared acceptance suite
// ("$schema", FIFO and /dev/zero, broken configs failing closed, status with no config file), then the project
// rule for a security extension: a project file may only strengthen, and some keys are locked.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { afterEach, describe, expect, it } from "vitest";
import guardianReview from "../src/index.ts";
import { callTool, createGuardianHarness, type GuardianHarness, REVIEWER_MODEL, verdict } from "./helpers.ts";

const CLOSED_NOTE = "enforcing with the valid config file or the defaults";

configLifecycleSuite({
	name: "guardian-review",
	command: "/guardian",
	harness: () => ({ extensions: [guardianReview] }),
	validConfig: { mode: "observe", reviewer: { timeoutMs: 5000 } },
	expectLive: async (harness) => {
		await harness.command("/guardian status");
		expect(harness.ui?.notifications().at(-1)?.message).toMatch(/^guardian-review: observe\n/);
	},
	failure: "closed",
	closedNote: CLOSED_NOTE,
	noConfigStatus: "guardian-review: off (no config file)",
	broken: [
		{ label: "invalid JSON", content: '{"mode": "enforce"', problem: "global: invalid JSON at line 1, column 19" },
		{
			label: "an unknown key",
			content: { mode: "enforce", reviewers: {} },
			problem: 'global: unknown key "reviewers"',
		},
		{
			label: "a value out of range",
			content: { mode: "enforce", reviewer: { timeoutMs: 1000 } },
			problem: "global reviewer.timeoutMs: expected integer between 5000 and 180000",
		},
		{
			label: "an invalid project scope",
			file: "project",
			content: { tools: { bash: "sometimes" } },
			problem: 'project tools.*: expected one of "off", "protected-only", "outside-workspace", "always"',
		},
	],
});

let h: GuardianHarness | undefined;
afterEach(async () => {
	await h?.dispose();
	h = undefined;
});

describe("guardian-review: the one project-layer rule (security settings only strengthen)", () => {
	it("the README's stricter project file is applied whole, with no 'ignored' notice", async () => {
		// A first-hour review: any project `tools` key was reported as ignored (the merged map held the global
		// file's other tools too), although the scope was applied.
		h = await createGuardianHarness({
			ui: {},
			guardian: { mode: "enforce", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: {
				"guardian-review": {
					tools: { read: "outside-workspace", deploy: "always" },
					protectedPaths: ["secrets/", "deploy/*.key"],
					floor: { hardDeny: ["terraform destroy", "kubectl delete namespace"] },
					onUnavailable: "deny",
				},
			},
		});
		h.agent(callTool("read", { path: "/etc/hostname" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.ui?.notifications().filter((n) => n.message.includes("ignored"))).toEqual([]);
	});

	it("a project scope that would weaken one tool is named as ignored, once", async () => {
		h = await createGuardianHarness({
			ui: {},
			guardian: { mode: "enforce", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: { "guardian-review": { tools: { read: "outside-workspace", bash: "off" } } },
		});
		await h.prompt("go");
		const ignored =
			"guardian-review: ignored 1 project setting that only the global file may set or weaken; the global values stand.";
		expect(h.ui?.notifications().filter((n) => n.message === ignored)).toHaveLength(1);
	});

	it("a project file cannot weaken the mode, add read-only patterns or change the reviewer", async () => {
		h = await createGuardianHarness({
			ui: {},
			guardian: { mode: "enforce", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: {
				"guardian-review": {
					$schema: "./schema.json",
					mode: "off",
					floor: { readOnly: ["ln"] },
					reviewer: { model: "faux/faux-1" },
				},
			},
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null weakened.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "weakened.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.ui?.notifications().filter((n) => n.message.includes("config invalid"))).toEqual([]);
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/^guardian-review: enforce\nreviewer: faux\/faux-reviewer\n/);
	});

	it("a project file cannot weaken a default the global file left out", async () => {
		h = await createGuardianHarness({
			ui: false,
			guardian: { mode: "enforce", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: { "guardian-review": { tools: { bash: "off" } } },
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null default-kept.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "default-kept.txt"))).toBe(false);
	});

	it("an invalid project file fails closed: enforce, even over a global observe", async () => {
		h = await createGuardianHarness({
			ui: {},
			guardian: { mode: "observe", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: { "guardian-review": { mode: "strict" } },
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null closed.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "closed.txt"))).toBe(false);
		expect(h.ui?.notifications().map((n) => n.message)).toContain(
			`guardian-review: config invalid: project mode: expected one of "off", "observe", "enforce"; ${CLOSED_NOTE}.`,
		);
		expect(h.audit().filter((e) => e.event === "config-invalid")).toEqual([
			{ v: 1, ext: "guardian-review", event: "config-invalid", mode: "enforce" },
		]);
	});
});
