// context-shunt on the kernel's one config lifecycle, in real sessions: the shared acceptance suite
// ("$schema", FIFO and /dev/zero, broken configs, status with no config file), then its own layering.
import { configLifecycleSuite } from "@pi-policy/pi-harness/config-lifecycle";
import { describe, expect, it } from "vitest";
import contextShunt from "../src/index.ts";
import { SHUNT_TOOLS, startShunt } from "./helpers.ts";

configLifecycleSuite({
	name: "context-shunt",
	command: "/context-shunt",
	harness: () => ({ extensions: [contextShunt], tools: SHUNT_TOOLS }),
	validConfig: { mode: "observe", reader: { enabled: false } },
	expectLive: async (harness) => {
		await harness.command("/context-shunt status");
		expect(harness.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode observe\n/);
	},
	failure: "open",
	noConfigStatus: "context-shunt: mode off\n",
	broken: [
		{ label: "invalid JSON", content: '{\n  "mode": observe\n}', problem: "global: invalid JSON at line 2, column 11" },
		{
			label: "an unknown key",
			content: { mode: "observe", fullReadLine: 10 },
			problem: 'global: unknown key "fullReadLine"',
		},
		{
			label: "a value out of range",
			content: { fullReadLines: 0 },
			problem: "global fullReadLines: expected integer between 1 and 1048576",
		},
		{
			label: "a nested unknown key in the project file",
			file: "project",
			content: { reader: { enabled: true, modle: "a/b" } },
			problem: 'project reader: unknown key "modle"',
		},
		{
			label: "a cross-key rule",
			content: { reader: { model: "faux/faux-1", role: "small" } },
			problem: "global reader: set model or role, not both",
		},
		{
			label: "a reader model without its provider",
			content: { reader: { model: "claude-haiku" } },
			problem: 'global reader.model: expected string: "provider/model-id", e.g. "anthropic/claude-haiku-4-5"',
		},
	],
});

describe("context-shunt: the one project-layer rule", () => {
	it("a trusted project file overrides the global one key by key (reader merged recursively)", async () => {
		const session = await startShunt(
			{ mode: "observe", reader: { enabled: true, role: "small" } },
			{},
			{ projectConfig: { "context-shunt": { $schema: "./schema.json", reader: { timeoutMs: 60_000 } } } },
		);
		try {
			await session.harness.command("/context-shunt status");
			const status = session.harness.ui?.notifications().at(-1)?.message ?? "";
			expect(status).toMatch(/^context-shunt: mode observe\n/);
			// The global reader role survives the project's reader object: the reader is on (not "off").
			expect(status).toMatch(/reader (ready|unavailable)/);
			expect(session.harness.requests).toEqual([]);
		} finally {
			await session.dispose();
		}
	});

	it("a value out of range names the key and its bounds", async () => {
		const session = await startShunt({ previewLines: 1_000_000 });
		try {
			expect(session.harness.ui?.notifications().map((n) => n.message)).toEqual([
				expect.stringMatching(/^context-shunt disabled: global previewLines: expected integer between 0 and \d+$/),
			]);
		} finally {
			await session.dispose();
		}
	});
});
