// policy-report on the kernel's one config lifecycle, in real sessions: the shared acceptance suite ("$schema",
// FIFO and /dev/zero, broken configs, status with no config file), then the telemetry key a project cannot set.
import { createHarness } from "@pi-policy/pi-harness";
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { describe, expect, it } from "vitest";
import policyReport from "../src/index.ts";

const env = { PI_POLICY_ENABLE_TELEMETRY: undefined };
const lastNotification = (harness: { ui?: { notifications(): Array<{ message: string }> } | undefined }) =>
	harness.ui?.notifications().at(-1)?.message ?? "";

configLifecycleSuite({
	name: "policy-report",
	command: "/policy",
	harness: () => ({ extensions: [policyReport], env }),
	validConfig: { entryRenderer: true },
	expectLive: async (harness) => {
		expect(harness.session.extensionRunner.getEntryRenderer("pi-policy.audit")).toBeDefined();
		await harness.command("/policy status");
		expect(lastNotification(harness)).toBe("policy-report: active (entry renderer on, telemetry off)");
	},
	failure: "open",
	noConfigStatus: "policy-report: active (entry renderer off, telemetry off)",
	broken: [
		{
			label: "invalid JSON",
			content: '{\n\t"entryRenderer": true,\n}\n',
			problem: "global: invalid JSON at line 3, column 1",
		},
		{ label: "an unknown key", content: { entryRenderer: true, foo: 1 }, problem: 'global: unknown key "foo"' },
		{
			label: "a value out of range",
			content: { telemetry: { exportIntervalMs: 10 } },
			problem: "global telemetry.exportIntervalMs: expected integer between 1000 and 600000",
		},
		{
			label: "an invalid project value",
			file: "project",
			content: { entryRenderer: "yes" },
			problem: "project entryRenderer: expected boolean",
		},
	],
});

describe("policy-report: the project layer", () => {
	it("a trusted project may turn the renderer on but never telemetry", async () => {
		const harness = await createHarness({
			extensions: [policyReport],
			env,
			projectConfig: { "policy-report": { entryRenderer: true, telemetry: { enabled: true } } },
		});
		try {
			// The refused key is named as a count at session start, once.
			const ignored =
				"policy-report: ignored 1 project setting that only the global file may set or weaken; the global values stand.";
			expect(harness.ui?.notifications().filter((note) => note.message === ignored)).toHaveLength(1);
			await harness.command("/policy status");
			expect(lastNotification(harness)).toBe("policy-report: active (entry renderer on, telemetry off)");
			expect(harness.session.extensionRunner.getEntryRenderer("pi-policy.audit")).toBeDefined();
		} finally {
			await harness.dispose();
		}
	});

	it("says nothing of ignored settings when the project sets only what it may", async () => {
		const harness = await createHarness({
			extensions: [policyReport],
			env,
			projectConfig: { "policy-report": { entryRenderer: true } },
		});
		try {
			expect(
				harness.ui
					?.notifications()
					.map((note) => note.message)
					.join("\n"),
			).not.toContain("ignored");
		} finally {
			await harness.dispose();
		}
	});
});
