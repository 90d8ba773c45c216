// Config edges a user sees: how many messages one resolver error joins, which unknown key names are shown, the list
// bounds of exploration-guard and output-minimizer, a configured fallback bound kept, the locked-key count, and a
// fail-closed config that turns invalid before Pi registered its hooks, a project whose trust is unknown, and which
// file a cross-key error names.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { applyProjectLayer, type ConfigFileRead, type PolicyConfigSpec, resolvePolicyConfig } from "../src/config.js";
import { ok } from "../src/decision.js";
import { ExplorationGuardConfigSchema, resolveExplorationGuardConfig } from "../src/exploration/config.js";
import { createPolicyConfig, type PolicyConfigContext } from "../src/host/index.js";
import { parseOutputMinimizerConfig, withOutputMinimizerDefaults } from "../src/minimize/config.js";
import { configDirsPerTest } from "./config-dirs.js";

const text = (value: unknown): ConfigFileRead => ({ kind: "text", text: JSON.stringify(value) });

const Schema = Type.Object(
	{ mode: Type.Enum(["off", "warn", "block"]), warnAfter: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) },
	{ additionalProperties: false },
);

const spec: PolicyConfigSpec<{ mode: string }> = {
	schema: Schema,
	projectLayer: {},
	resolve: (merged) => ok({ mode: (merged as { mode?: string } | undefined)?.mode ?? "off" }),
};

describe("unknown key names in a config issue", () => {
	it("names an unknown key of 64 characters and leaves a 65-character one unnamed", () => {
		const named = `k${"a".repeat(63)}`;
		const unnamed = `k${"a".repeat(64)}`;
		const first = resolvePolicyConfig({ global: text({ mode: "warn", [named]: 1 }) }, spec);
		const second = resolvePolicyConfig({ global: text({ mode: "warn", [unnamed]: 1 }) }, spec);
		expect(first.status === "invalid" && first.issues).toEqual([{ file: "global", reason: `unknown key "${named}"` }]);
		expect(second.status === "invalid" && second.issues).toEqual([{ file: "global", reason: "unknown key" }]);
	});
});

describe("a cross-key error names the file that sets the key", () => {
	it("blames the global file for blockAfter when only the project file raises warnAfter", () => {
		const resolution = resolvePolicyConfig(
			{ global: text({ mode: "warn", blockAfter: 3 }), project: text({ warnAfter: 5 }) },
			{ schema: ExplorationGuardConfigSchema, projectLayer: {}, resolve: resolveExplorationGuardConfig },
		);
		expect(resolution.status === "invalid" && resolution.issues).toEqual([
			{ file: "global", key: "blockAfter", reason: "expected integer between 6 and 50" },
		]);
	});
});

describe("a resolver error joins at most three messages", () => {
	it("reports the first three of five broken exploration-guard keys", () => {
		const resolved = resolveExplorationGuardConfig({
			mode: "sometimes",
			warnAfter: 0,
			blockAfter: 99,
			smallReadMaxLines: 0,
			bash: "never",
		});
		expect(resolved).toEqual({
			ok: false,
			error:
				'mode: expected one of "off", "warn", "block"; warnAfter: expected integer between 1 and 20; blockAfter: expected integer between 2 and 50',
		});
	});
});

describe("list bounds", () => {
	const names = (count: number) => Array.from({ length: count }, (_, i) => `VAR_${i}`);

	it("exploration-guard accepts 16 childEnv names and rejects 17", () => {
		expect(resolveExplorationGuardConfig({ mode: "warn", childEnv: names(16) }).ok).toBe(true);
		expect(resolveExplorationGuardConfig({ mode: "warn", childEnv: names(17) })).toEqual({
			ok: false,
			error: "childEnv: expected at most 16 items",
		});
	});

	it("output-minimizer accepts 16 tools and rejects 17", () => {
		expect(parseOutputMinimizerConfig({ tools: names(16) }).ok).toBe(true);
		expect(parseOutputMinimizerConfig({ tools: names(17) })).toEqual({
			ok: false,
			error: "tools: expected at most 16 items",
		});
	});
});

describe("output-minimizer defaults fill only what the file leaves out", () => {
	it("keeps a configured fallbackLines and fallbackBytes", () => {
		expect(withOutputMinimizerDefaults({ fallbackLines: 10, fallbackBytes: 300 })).toEqual({
			mode: "reference",
			tools: ["subagent"],
			notifyTypes: ["subagent-notify", "subagent-incremental-child-notify"],
			fallbackLines: 10,
			fallbackBytes: 300,
			minBytesToMinimize: 512,
		});
	});
});

describe("a locked key", () => {
	it("counts a project value as ignored only when it differs from the global one", () => {
		const rule = { locked: ["telemetry"] };
		const base = { telemetry: { enabled: false } };
		expect(applyProjectLayer(base, { telemetry: { enabled: false } }, rule)).toEqual({
			value: { telemetry: { enabled: false } },
			ignored: 0,
		});
		expect(applyProjectLayer(base, { telemetry: { enabled: true } }, rule)).toEqual({
			value: { telemetry: { enabled: false } },
			ignored: 1,
		});
	});
});

describe("a fail-closed config that turns invalid after start", () => {
	let agentDir: string;
	let cwd: string;
	configDirsPerTest("config-gaps-", (dirs) => {
		({ agentDir, cwd } = dirs);
	});

	it("ignores the project file when the project's trust cannot be determined", async () => {
		writeFileSync(join(agentDir, "policy", "exploration-guard.json"), JSON.stringify({ mode: "warn" }));
		writeFileSync(join(cwd, CONFIG_DIR_NAME, "policy", "exploration-guard.json"), JSON.stringify({ mode: "block" }));
		const pi = { appendEntry: () => {}, events: { emit: () => {}, on: () => () => {} } };
		const policy = createPolicyConfig(pi as never, {
			name: "exploration-guard",
			failure: "open",
			agentDir,
			launchCwd: cwd,
			schema: Schema,
			projectLayer: {},
			resolve: (merged) => ok({ mode: (merged as { mode?: string } | undefined)?.mode ?? "off" }),
			enabled: (config) => config.mode !== "off",
			onDiagnostic: () => {},
		});
		const ctx: PolicyConfigContext = {
			cwd,
			hasUI: false,
			isProjectTrusted: () => {
				throw new Error("trust unknown");
			},
		};
		const session = await policy.load(ctx);
		expect(session.state).toBe("active");
		expect(session.config).toEqual({ mode: "warn" });
	});

	it("says run /reload when Pi started without its hooks, and does not claim to fail closed", async () => {
		const path = join(agentDir, "policy", "exploration-guard.json");
		writeFileSync(path, JSON.stringify({ mode: "off" }));
		const pi = {
			appendEntry: () => {},
			events: { emit: () => {}, on: () => () => {} },
		};
		const policy = createPolicyConfig(pi as never, {
			name: "exploration-guard",
			failure: "closed",
			agentDir,
			launchCwd: cwd,
			schema: Schema,
			projectLayer: "none",
			resolve: (merged) => ok({ mode: (merged as { mode?: string } | undefined)?.mode ?? "off" }),
			enabled: (config) => config.mode !== "off",
			onDiagnostic: () => {},
		});
		expect(policy.hooks).toBe(false);
		writeFileSync(path, JSON.stringify({ mode: "loud" }));
		const ctx: PolicyConfigContext = { cwd, hasUI: false, isProjectTrusted: () => true };
		const session = await policy.load(ctx);
		expect(session.state).toBe("needs-reload");
		expect(policy.statusLine()).toBe("inactive: the config turns it on, but Pi started without its hooks; run /reload");
		expect(policy.unavailable("allow")).toBe(
			"exploration-guard allow: unavailable, inactive: the config turns it on, but Pi started without its hooks; run /reload",
		);
	});
});
