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
	noConfigStatus: "delegation-policy D:OFF A:OFF (delegation is off)",
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
		{
			label: "a role's model reference in the wrong form",
			content: validGlobal({ roles: { small: { provider: "faux/x", model: "faux-small" } } }),
			problem:
				'global roles.small.provider: expected string: a provider id such as "anthropic" (letters, digits, . _ -, no spaces, at most 64 characters)',
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

describe('delegation-policy: saving defaults keeps "$schema"', () => {
	it("writes the document with the $schema the file named, and it still loads", async () => {
		const { mkdtemp, readFile, rm, writeFile, mkdir } = await import("node:fs/promises");
		const { tmpdir } = await import("node:os");
		const { join } = await import("node:path");
		const { saveGlobalDefaults, resolveGlobalDefaults } = await import("../src/global-config.ts");
		const root = await mkdtemp(join(tmpdir(), "dp-save-"));
		const saved = process.env.PI_CODING_AGENT_DIR;
		process.env.PI_CODING_AGENT_DIR = root;
		try {
			await mkdir(join(root, "policy"), { recursive: true });
			const file = join(root, "policy", "delegation-policy.json");
			await writeFile(file, JSON.stringify({ $schema: "./schema.json", version: 1, intensity: "off" }));
			expect(await saveGlobalDefaults(root, { intensity: "normal" })).toBe(true);
			const written = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
			expect(written).toMatchObject({ $schema: "./schema.json", version: 1, intensity: "normal" });
			const { $schema: _hint, ...document } = written;
			expect(resolveGlobalDefaults(document)).toMatchObject({ ok: true, value: { settings: { intensity: "normal" } } });
		} finally {
			if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
			else process.env.PI_CODING_AGENT_DIR = saved;
			await rm(root, { recursive: true, force: true });
		}
	});
});
