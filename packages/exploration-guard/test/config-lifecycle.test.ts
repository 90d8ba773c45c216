// exploration-guard on the kernel's one config lifecycle, in real sessions: the shared acceptance suite
// ("$schema", FIFO and /dev/zero, broken configs, status with no config file), then the guard's own layering.
import { callTool, createHarness } from "@pi-policy/pi-harness";
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { describe, expect, it } from "vitest";
import { auditEvents, explorationGuard, lastNotification, workspaceFiles } from "./support.ts";

const env = { PI_SUBAGENT_CHILD: undefined, SELESAI_SUBAGENT_CHILD: undefined };

configLifecycleSuite({
	name: "exploration-guard",
	command: "/exploration-guard",
	harness: () => ({ files: workspaceFiles(), extensions: [explorationGuard], env }),
	validConfig: { mode: "warn", warnAfter: 3 },
	expectLive: async (harness) => {
		expect(auditEvents(harness)).toEqual(["activated"]);
		await harness.command("/exploration-guard status");
		expect(lastNotification(harness)).toContain("mode warn");
	},
	failure: "open",
	noConfigStatus: "exploration-guard: off (no config file)",
	broken: [
		{
			label: "invalid JSON",
			content: '{\n\t"mode": "warn",\n}\n',
			problem: "global: invalid JSON at line 3, column 1",
		},
		{ label: "an unknown key", content: { mode: "warn", foo: 1 }, problem: 'global: unknown key "foo"' },
		{
			label: "a value out of range",
			content: { mode: "warn", warnAfter: 21 },
			problem: "global warnAfter: expected integer between 1 and 20",
		},
		{
			label: "an invalid project value",
			file: "project",
			content: { mode: "strict" },
			problem: 'project mode: expected one of "off", "warn", "block"',
		},
		{
			label: "a cross-key rule broken by the project file",
			file: "project",
			content: { blockAfter: 3 },
			problem: "project blockAfter: expected integer between 4 and 50",
		},
		{ label: "a file with thresholds but no mode", content: { warnAfter: 3 }, problem: "global mode: required" },
		{
			label: "a delegation tool name with a space",
			content: { mode: "warn", delegationTool: "sub agent" },
			problem:
				'global delegationTool: expected string: a tool name such as "subagent" (a letter, then letters, digits, _ . -, at most 64 characters)',
		},
	],
});

describe("exploration-guard: the one project-layer rule", () => {
	it("a trusted project file overrides the global one key by key", async () => {
		const harness = await createHarness({
			files: workspaceFiles(),
			extensions: [explorationGuard],
			env,
			config: { "exploration-guard": { mode: "warn", warnAfter: 5, blockAfter: 9 } },
			projectConfig: { "exploration-guard": { $schema: "./schema.json", mode: "block" } },
		});
		try {
			await harness.command("/exploration-guard status");
			const status = lastNotification(harness);
			expect(status).toContain("mode block");
			expect(status).toContain("nudge at 5, block after 9");
			expect(harness.requests).toEqual([]);
		} finally {
			await harness.dispose();
		}
	});

	it("action subcommands explain why they are unavailable", async () => {
		const harness = await createHarness({ files: workspaceFiles(), extensions: [explorationGuard], env });
		try {
			await harness.command("/exploration-guard allow 2");
			expect(lastNotification(harness)).toBe("exploration-guard allow: unavailable, off (no config file)");
			await harness.command("/exploration-guard off");
			expect(lastNotification(harness)).toBe("exploration-guard off: unavailable, off (no config file)");
			harness.script(callTool("grep", { pattern: "x" }), "done");
			await harness.prompt("look");
			expect(harness.requests).toHaveLength(2);
			expect(harness.requests.map((r) => harness.requestText(r)).join("\n")).not.toContain("/exploration-guard");
		} finally {
			await harness.dispose();
		}
	});
});
