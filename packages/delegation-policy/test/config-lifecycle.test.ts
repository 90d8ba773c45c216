// delegation-policy on the kernel's one config lifecycle, in real sessions: the shared acceptance suite
// ("$schema", FIFO and /dev/zero, broken documents failing closed, status with no config file). It has no project
// file: a project file is never read, even when trusted.
import { callTool } from "@pi-policy/pi-harness";
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { describe, expect, it } from "vitest";
import delegationPolicy from "../src/index.ts";
import { FAUX_MODELS, startDelegationSession, validGlobal } from "./support.ts";

configLifecycleSuite({
	name: "delegation-policy",
	command: "/delegate",
	harness: () => ({ extensions: [delegationPolicy], models: FAUX_MODELS }),
	validConfig: validGlobal(),
	expectLive: async (harness) => {
		await harness.command("/delegate status");
		expect(harness.ui?.notifications().at(-1)?.message).toMatch(/^delegation-policy D:NORM/);
	},
	failure: "closed",
	closedNote: "global defaults ignored",
	noConfigStatus: /^delegation-policy D:OFF/,
	projectFile: false,
	broken: [
		{ label: "invalid JSON", content: '{"version": 1,,}', problem: "global: invalid JSON at line 1, column 15" },
		{
			label: "an unknown key",
			content: validGlobal({ intensityy: "normal" }),
			problem: 'global: unknown key "intensityy"',
		},
		{
			label: "a value out of range",
			content: validGlobal({ intensity: "max" }),
			problem: 'global intensity: expected one of "off", "normal", "aggressive", "orchestrator"',
		},
	],
});

describe("delegation-policy: no project file", () => {
	it("never reads a project file, even a trusted one", async () => {
		const harness = await startDelegationSession({
			projectConfig: { "delegation-policy": "{ not json" },
			projectTrusted: true,
		});
		try {
			expect(harness.ui?.notifications().filter((n) => n.message.includes("config invalid"))).toEqual([]);
			harness.script(callTool("read", { path: "nothing.txt" }), "done");
			await harness.prompt("go");
			await harness.command("/delegate status");
			expect(harness.ui?.notifications().at(-1)?.message).toMatch(/^delegation-policy D:NORM/);
		} finally {
			await harness.dispose();
		}
	});
});
