// output-minimizer on the kernel's one config lifecycle, in real sessions: the shared acceptance suite
// ("$schema", FIFO and /dev/zero, broken configs, status with no config file), then its own layering.
import { callTool, createHarness, realText } from "@pi-policy/pi-harness";
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { lastToolResultText } from "./support/helpers.ts";
import { createStockSubagent } from "./support/stock-subagent.ts";

configLifecycleSuite({
	name: "output-minimizer",
	command: "/output-minimizer",
	harness: () => ({ extensions: [createStockSubagent().extension, outputMinimizer], tools: ["read", "subagent"] }),
	validConfig: { mode: "reference", minBytesToMinimize: 100 },
	expectLive: async (harness) => {
		await harness.command("/output-minimizer status");
		expect(harness.ui?.notifications().at(-1)?.message).toMatch(/^output-minimizer: active \(mode reference\)/);
	},
	failure: "open",
	noConfigStatus: "output-minimizer: active (mode reference)",
	broken: [
		{
			label: "invalid JSON",
			content: '{ "mode": "reference" "tools": [] }',
			problem: "global: invalid JSON at line 1, column 23",
		},
		{ label: "an unknown key", content: { mode: "reference", extra: true }, problem: 'global: unknown key "extra"' },
		{
			label: "a value out of range",
			content: { fallbackLines: 500 },
			problem: "global fallbackLines: expected integer between 1 and 80",
		},
		{
			label: "an invalid project list entry",
			file: "project",
			content: { tools: ["sub agent"] },
			problem:
				'project tools.0: expected string: a name such as "subagent" (letters, digits, _ . : -, no spaces, at most 64 characters)',
		},
	],
});

describe("output-minimizer: the one project-layer rule", () => {
	it("a trusted project file overrides the global one key by key", async () => {
		const stock = createStockSubagent();
		const output = realText(10_000, 41);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const harness = await createHarness({
			extensions: [stock.extension, outputMinimizer],
			tools: ["read", "subagent"],
			config: { "output-minimizer": { tools: ["delegate"] } },
			projectConfig: { "output-minimizer": { $schema: "./schema.json", minBytesToMinimize: 100 } },
		});
		try {
			// The global tool list still applies (the project file only set minBytesToMinimize): not minimized.
			harness.script(callTool("subagent", { agent: "scout", task: "x" }), "done");
			await harness.prompt("Delegate.");
			expect(lastToolResultText(harness, harness.requests.length - 1)).toContain(output);
		} finally {
			await harness.dispose();
		}
	});

	it("with mode off, status says so and no result hook is registered", async () => {
		const harness = await createHarness({
			extensions: [createStockSubagent().extension, outputMinimizer],
			tools: ["read", "subagent"],
			config: { "output-minimizer": { mode: "off" } },
		});
		try {
			expect(harness.session.extensionRunner.hasHandlers("tool_result")).toBe(false);
			await harness.command("/output-minimizer status");
			expect(harness.ui?.notifications().at(-1)?.message).toBe("output-minimizer: off (set in the config file)");
			expect(harness.requests).toEqual([]);
		} finally {
			await harness.dispose();
		}
	});
});
