// exploration-guard config: defaults, every validation rule on both sides of each bound, and layer resolution.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	DEFAULT_CHILD_ENV,
	EXPLORATION_GUARD_DEFAULTS,
	isChildEnvironment,
	resolveExplorationGuardConfig,
	resolveExplorationGuardLayers,
} from "../src/exploration/index.js";
import { jsonValue } from "./arbitraries.js";

describe("resolveExplorationGuardConfig", () => {
	it.each([
		["a missing file", undefined],
		["false", false],
	])("treats %s as off with defaults", (_name, raw) => {
		const result = resolveExplorationGuardConfig(raw);
		expect(result).toEqual({ ok: true, value: EXPLORATION_GUARD_DEFAULTS });
		expect(result.ok && result.value.mode).toBe("off");
	});

	it("fills the spec defaults when enabled", () => {
		expect(resolveExplorationGuardConfig({ mode: "warn" })).toEqual({
			ok: true,
			value: {
				mode: "warn",
				warnAfter: 2,
				blockAfter: 4,
				smallReadMaxLines: 400,
				delegationTool: "subagent",
				childEnv: ["PI_SUBAGENT_CHILD", "SELESAI_SUBAGENT_CHILD"],
				bash: "auto",
				bashBlock: false,
			},
		});
		expect(Object.hasOwn(EXPLORATION_GUARD_DEFAULTS, "nudgeAtContextShare")).toBe(false);
		expect(DEFAULT_CHILD_ENV).toEqual(["PI_SUBAGENT_CHILD", "SELESAI_SUBAGENT_CHILD"]);
	});

	it("keeps every explicit value", () => {
		const raw = {
			mode: "block",
			warnAfter: 3,
			blockAfter: 7,
			smallReadMaxLines: 120,
			delegationTool: "delegate",
			childEnv: ["MY_CHILD"],
			bash: "count",
			bashBlock: true,
			nudgeAtContextShare: 0.5,
		};
		expect(resolveExplorationGuardConfig(raw)).toEqual({ ok: true, value: raw });
	});

	it.each([
		["bash auto", { mode: "warn", bash: "auto" }, true, undefined],
		["bash count", { mode: "warn", bash: "count" }, true, undefined],
		["bash off", { mode: "warn", bash: "off" }, true, undefined],
		["bash an unknown value", { mode: "warn", bash: "always" }, false, "bash"],
		["bash a boolean", { mode: "warn", bash: true }, false, "bash"],
		["bashBlock true", { mode: "block", bashBlock: true }, true, undefined],
		["bashBlock a string", { mode: "block", bashBlock: "yes" }, false, "bashBlock"],
		["nudgeAtContextShare at 1", { mode: "warn", nudgeAtContextShare: 1 }, true, undefined],
		["nudgeAtContextShare small", { mode: "warn", nudgeAtContextShare: 0.01 }, true, undefined],
		["nudgeAtContextShare 0", { mode: "warn", nudgeAtContextShare: 0 }, false, "nudgeAtContextShare"],
		["nudgeAtContextShare above 1", { mode: "warn", nudgeAtContextShare: 1.5 }, false, "nudgeAtContextShare"],
		["nudgeAtContextShare negative", { mode: "warn", nudgeAtContextShare: -0.2 }, false, "nudgeAtContextShare"],
		["nudgeAtContextShare a string", { mode: "warn", nudgeAtContextShare: "0.5" }, false, "nudgeAtContextShare"],
	])("the new keys: %s", (_name, raw, valid, key) => {
		const result = resolveExplorationGuardConfig(raw);
		expect(result.ok).toBe(valid);
		if (!result.ok) {
			expect(result.error.startsWith(`${key}:`)).toBe(true);
			expect(result.error.length).toBeLessThan(120);
		}
	});

	it("defaults bash to auto and bashBlock to false, and leaves the context-pressure trigger off", () => {
		const result = resolveExplorationGuardConfig({ mode: "block" });
		expect(result.ok && result.value.bash).toBe("auto");
		expect(result.ok && result.value.bashBlock).toBe(false);
		expect(result.ok && result.value.nudgeAtContextShare).toBeUndefined();
	});

	it.each([
		// [case, raw, ok?, error]
		["warnAfter at the lower bound", { mode: "warn", warnAfter: 1 }, true, undefined],
		[
			"warnAfter below the lower bound",
			{ mode: "warn", warnAfter: 0 },
			false,
			"warnAfter: expected integer between 1 and 20",
		],
		["warnAfter at the upper bound", { mode: "warn", warnAfter: 20, blockAfter: 21 }, true, undefined],
		[
			"warnAfter above the upper bound",
			{ mode: "warn", warnAfter: 21, blockAfter: 30 },
			false,
			"warnAfter: expected integer between 1 and 20",
		],
		[
			"warnAfter not an integer",
			{ mode: "warn", warnAfter: 2.5 },
			false,
			"warnAfter: expected integer between 1 and 20",
		],
		["warnAfter a string", { mode: "warn", warnAfter: "2" }, false, "warnAfter: expected integer between 1 and 20"],
		["blockAfter at warnAfter + 1", { mode: "block", warnAfter: 2, blockAfter: 3 }, true, undefined],
		[
			"blockAfter equal to warnAfter",
			{ mode: "block", warnAfter: 2, blockAfter: 2 },
			false,
			"blockAfter: expected integer between 3 and 50",
		],
		[
			"blockAfter below warnAfter",
			{ mode: "block", warnAfter: 5, blockAfter: 4 },
			false,
			"blockAfter: expected integer between 6 and 50",
		],
		[
			"blockAfter below a default warnAfter",
			{ mode: "block", blockAfter: 2 },
			false,
			"blockAfter: expected integer between 3 and 50",
		],
		["blockAfter at the upper bound", { mode: "block", blockAfter: 50 }, true, undefined],
		[
			"blockAfter above the upper bound",
			{ mode: "block", blockAfter: 51 },
			false,
			"blockAfter: expected integer between 2 and 50",
		],
		[
			"blockAfter below the schema floor",
			{ mode: "block", blockAfter: 1 },
			false,
			"blockAfter: expected integer between 2 and 50",
		],
		[
			"blockAfter not an integer",
			{ mode: "block", blockAfter: 4.5 },
			false,
			"blockAfter: expected integer between 2 and 50",
		],
		["smallReadMaxLines at the lower bound", { mode: "warn", smallReadMaxLines: 1 }, true, undefined],
		[
			"smallReadMaxLines below the lower bound",
			{ mode: "warn", smallReadMaxLines: 0 },
			false,
			"smallReadMaxLines: expected integer between 1 and 1000",
		],
		["smallReadMaxLines at the upper bound", { mode: "warn", smallReadMaxLines: 1000 }, true, undefined],
		[
			"smallReadMaxLines above the upper bound",
			{ mode: "warn", smallReadMaxLines: 1001 },
			false,
			"smallReadMaxLines: expected integer between 1 and 1000",
		],
		[
			"smallReadMaxLines not an integer",
			{ mode: "warn", smallReadMaxLines: 10.5 },
			false,
			"smallReadMaxLines: expected integer between 1 and 1000",
		],
		["an unknown mode", { mode: "enforce" }, false, 'mode: expected one of "off", "warn", "block"'],
		["a missing mode", { warnAfter: 2 }, false, "mode: required"],
		["an unknown key", { mode: "warn", maxBroad: 3 }, false, "config: unknown key"],
		["a bad delegation tool name", { mode: "warn", delegationTool: "sub agent" }, false, "delegationTool: expected"],
		["an empty childEnv", { mode: "warn", childEnv: [] }, false, "childEnv: expected at least 1 items"],
		["a bad childEnv name", { mode: "warn", childEnv: ["1BAD"] }, false, "childEnv.0: expected"],
		["duplicate childEnv names", { mode: "warn", childEnv: ["A", "A"] }, false, "childEnv: expected unique items"],
		["null", null, false, "config: expected an object or false"],
		["true", true, false, "config: expected an object or false"],
		["an array", [{ mode: "warn" }], false, "config: expected an object or false"],
		["a string", "warn", false, "config: expected an object or false"],
	])("%s", (_name, raw, valid, error) => {
		const result = resolveExplorationGuardConfig(raw);
		expect(result.ok).toBe(valid);
		if (!result.ok) {
			expect(result.error.startsWith(error as string)).toBe(true);
			// One concise error: short, single line, no echo of the offending value.
			expect(result.error.length).toBeLessThan(200);
			expect(result.error).not.toContain("\n");
		}
	});

	it("never echoes input values in errors", () => {
		const secret = "SECRET_PATH_/home/me/private";
		const result = resolveExplorationGuardConfig({ mode: secret, delegationTool: secret, [secret]: 1 });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).not.toContain("SECRET");
	});

	it("never throws and always returns a bounded result for any JSON", () => {
		fc.assert(
			fc.property(jsonValue, (raw) => {
				const result = resolveExplorationGuardConfig(raw);
				if (result.ok) {
					expect(result.value.blockAfter).toBeGreaterThan(result.value.warnAfter);
					expect(result.value.warnAfter).toBeGreaterThanOrEqual(1);
					expect(result.value.blockAfter).toBeLessThanOrEqual(50);
				} else {
					expect(result.error.length).toBeLessThan(400);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("accepts every valid threshold pair and rejects every inverted one", () => {
		fc.assert(
			fc.property(fc.integer({ min: -5, max: 60 }), fc.integer({ min: -5, max: 60 }), (warnAfter, blockAfter) => {
				const result = resolveExplorationGuardConfig({ mode: "block", warnAfter, blockAfter });
				const valid = warnAfter >= 1 && warnAfter <= 20 && blockAfter > warnAfter && blockAfter <= 50;
				expect(result.ok).toBe(valid);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("resolveExplorationGuardLayers", () => {
	it("uses the global layer when there is no project layer", () => {
		const result = resolveExplorationGuardLayers({ global: { mode: "warn" }, errors: [] });
		expect(result.ok && result.value.mode).toBe("warn");
	});

	it("lets a present project layer replace the global one", () => {
		const result = resolveExplorationGuardLayers({
			global: { mode: "block", warnAfter: 5, blockAfter: 9 },
			project: { mode: "warn" },
			projectTrusted: true,
			errors: [],
		});
		expect(result).toEqual({ ok: true, value: { ...EXPLORATION_GUARD_DEFAULTS, mode: "warn" } });
	});

	it("lets a project layer enable the guard and turn it off", () => {
		expect(resolveExplorationGuardLayers({ project: { mode: "block" }, errors: [] }).ok).toBe(true);
		const off = resolveExplorationGuardLayers({ global: { mode: "block" }, project: { mode: "off" }, errors: [] });
		expect(off.ok && off.value.mode).toBe("off");
	});

	it("reports loader errors of the layer in use, naming the layer only", () => {
		expect(resolveExplorationGuardLayers({ errors: ["global config: invalid JSON"] })).toEqual({
			ok: false,
			error: "global config: invalid JSON",
		});
		expect(
			resolveExplorationGuardLayers({ global: { mode: "warn" }, errors: ["project config: invalid JSON"] }),
		).toEqual({ ok: false, error: "project config: invalid JSON" });
		// A broken global file does not matter once a valid project file replaces it.
		const replaced = resolveExplorationGuardLayers({ project: { mode: "warn" }, errors: ["global config: too large"] });
		expect(replaced.ok).toBe(true);
	});

	it("rejects a non-object", () => {
		expect(resolveExplorationGuardLayers(null as never).ok).toBe(false);
	});
});

describe("isChildEnvironment", () => {
	it.each([
		[{ PI_SUBAGENT_CHILD: "1" }, true],
		[{ SELESAI_SUBAGENT_CHILD: "1" }, true],
		[{ PI_SUBAGENT_CHILD: "0" }, false],
		[{ PI_SUBAGENT_CHILD: "true" }, false],
		[{ PI_SUBAGENT_CHILD: "" }, false],
		[{}, false],
	])("%j → %s", (env, expected) => {
		expect(isChildEnvironment(env, DEFAULT_CHILD_ENV)).toBe(expected);
	});

	it("checks only the configured names", () => {
		expect(isChildEnvironment({ PI_SUBAGENT_CHILD: "1" }, ["MY_CHILD"])).toBe(false);
		expect(isChildEnvironment({ MY_CHILD: "1" }, ["MY_CHILD"])).toBe(true);
		expect(isChildEnvironment(null as never, DEFAULT_CHILD_ENV)).toBe(false);
	});
});
