// The pure part of the config lifecycle: JSON positions, `$schema`, issues with file and key path, the one
// project-layer rule, and resolvePolicyConfig.
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import {
	applyProjectLayer,
	CONFIG_UNREADABLE_REASON,
	type ConfigFileRead,
	describeConfigIssues,
	formatConfigIssue,
	formatConfigIssues,
	issuesFromResolverError,
	type PolicyConfigSpec,
	parseConfigJson,
	resolvePolicyConfig,
	strengthenByOrder,
	strengthenEach,
	strengthenNumber,
	strengthenUnion,
	stripSchemaKey,
	textPositionAt,
} from "../src/config.js";
import { err, ok } from "../src/decision.js";

const text = (value: unknown): ConfigFileRead => ({
	kind: "text",
	text: typeof value === "string" ? value : JSON.stringify(value),
});
const missing: ConfigFileRead = { kind: "missing" };

describe("parseConfigJson", () => {
	it.each([
		['{\n  "a": 1,\n  b: 2}', "invalid JSON at line 3, column 3"],
		['{\n  "a": 1,', "invalid JSON at line 2, column 10"],
		["", "invalid JSON at line 1, column 1"],
		['{"mode": "warn",}', "invalid JSON at line 1, column 17"],
		['\uFEFF{\n"x": tru }', "invalid JSON at line 2, column 9"],
		["[1, 2", "invalid JSON at line 1, column 6"],
		['{"a": "\\q"}', "invalid JSON at line 1, column 9"],
		["[01]", "invalid JSON at line 1, column 3"],
		["{} x", "invalid JSON at line 1, column 4"],
	])("reports %j as %s, without echoing the text", (input, expected) => {
		const parsed = parseConfigJson(input);
		expect(parsed).toEqual({ ok: false, error: expected });
	});

	it("parses valid JSON and ignores a byte-order mark", () => {
		expect(parseConfigJson('\uFEFF{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
	});
});

describe("textPositionAt", () => {
	it.each([
		["abc", 0, { line: 1, column: 1 }],
		["abc", 2, { line: 1, column: 3 }],
		["a\nbc", 2, { line: 2, column: 1 }],
		["a\nbc\n", 5, { line: 3, column: 1 }],
		["a\nb", 99, { line: 2, column: 2 }],
		["ab", -3, { line: 1, column: 1 }],
	])("%j at %i is %j", (input, offset, expected) => {
		expect(textPositionAt(input, offset)).toEqual(expected);
	});
});

describe("stripSchemaKey", () => {
	it("removes a top-level $schema string and leaves the input unchanged", () => {
		const input = { $schema: "./schema.json", mode: "warn" };
		expect(stripSchemaKey(input)).toEqual({ mode: "warn" });
		expect(input).toEqual({ $schema: "./schema.json", mode: "warn" });
	});
	it.each([[{ $schema: 5, mode: "warn" }], [false], [[1]], [{ nested: { $schema: "x" } }]])(
		"keeps %j as it is",
		(input) => {
			expect(stripSchemaKey(input)).toEqual(input);
		},
	);
});

const Schema = Type.Object(
	{
		mode: Type.Enum(["off", "warn", "block"]),
		bash: Type.Optional(Type.Enum(["auto", "count", "off"])),
		limits: Type.Optional(
			Type.Object({ lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) }, { additionalProperties: false }),
		),
		paths: Type.Optional(Type.Array(Type.String())),
	},
	{ additionalProperties: false },
);

describe("describeConfigIssues", () => {
	it.each([
		[{ mode: "warn", bash: "sometimes" }, 'project bash: expected one of "auto", "count", "off"'],
		[{ mode: "warn", foo: 1 }, 'project: unknown key "foo"'],
		[{ mode: "warn", limits: { lines: 99 } }, "project limits.lines: expected integer between 1 and 20"],
		[{ mode: "warn", limits: { extra: true } }, 'project limits: unknown key "extra"'],
		[{ mode: "warn", "/home/me/secret": 1 }, "project: unknown key"],
		["warn", "project: expected object"],
	])("%j gives %s", (layer, expected) => {
		const issues = describeConfigIssues(Schema, layer, "project");
		expect(issues.map(formatConfigIssue)).toEqual([expected]);
	});

	it("names unknown keys also when there are 8 or more (TypeBox stops after 8 errors), up to the cap of 8", () => {
		const layer = (count: number) => ({
			mode: "warn",
			...Object.fromEntries(Array.from({ length: count }, (_, index) => [`extra${index + 1}`, 1])),
		});
		const named = (count: number) =>
			Array.from({ length: count }, (_, index) => `global: unknown key "extra${index + 1}"`);
		expect(describeConfigIssues(Schema, layer(7), "global").map(formatConfigIssue)).toEqual(named(7));
		expect(describeConfigIssues(Schema, layer(8), "global").map(formatConfigIssue)).toEqual(named(8));
		expect(describeConfigIssues(Schema, layer(12), "global").map(formatConfigIssue)).toEqual(named(8));
		expect(describeConfigIssues(Schema, { ...layer(8), limits: { a: 1 } }, "global").map(formatConfigIssue)).toEqual(
			named(8),
		);
	});

	it("names every unknown key, and can leave required keys to the merged value", () => {
		expect(describeConfigIssues(Schema, { a: 1, b: 2 }, "global", { ignoreRequired: true })).toEqual([
			{ file: "global", reason: 'unknown key "a"' },
			{ file: "global", reason: 'unknown key "b"' },
		]);
		expect(describeConfigIssues(Schema, {}, "global").map(formatConfigIssue)).toEqual(["global mode: required"]);
	});
});

describe("formatConfigIssues and issuesFromResolverError", () => {
	it("shows the first issue and how many more", () => {
		expect(
			formatConfigIssues([
				{ file: "global", key: "a", reason: "x" },
				{ file: "project", reason: "y" },
			]),
		).toBe("global a: x (+1 more)");
		expect(formatConfigIssues([])).toBe("config invalid");
	});

	it("attributes a resolver error to the file that sets the key", () => {
		const layers = { global: { warnAfter: 5 }, project: { blockAfter: 3 } };
		expect(issuesFromResolverError("blockAfter: expected integer between 6 and 50", layers)).toEqual([
			{ file: "project", key: "blockAfter", reason: "expected integer between 6 and 50" },
		]);
		expect(issuesFromResolverError("mode: required; config: bad", { global: {} })).toEqual([
			{ file: "global", key: "mode", reason: "required" },
			{ file: "global", reason: "bad" },
		]);
		expect(issuesFromResolverError("mode: required", { project: {} })).toEqual([
			{ file: "project", key: "mode", reason: "required" },
		]);
	});
});

describe("applyProjectLayer (the one project-layer rule)", () => {
	const rule = {
		strengthen: {
			mode: strengthenByOrder(["off", "warn", "block"]),
			paths: strengthenUnion(),
			scopes: strengthenEach(strengthenNumber("higher")),
			drop: (base: unknown, project: unknown) =>
				strengthenUnion()(
					base,
					(project as string[]).filter((entry) => !entry.startsWith("!")),
				),
		},
		locked: ["limits.lines"],
	};
	it.each([
		["overrides key by key", { mode: "warn", bash: "auto" }, { bash: "off" }, { mode: "warn", bash: "off" }, 0],
		["merges objects recursively", { limits: { a: 1, b: 2 } }, { limits: { b: 3 } }, { limits: { a: 1, b: 3 } }, 0],
		["replaces arrays", { list: [1, 2] }, { list: [3] }, { list: [3] }, 0],
		["strengthens a security key", { mode: "warn" }, { mode: "block" }, { mode: "block" }, 0],
		["refuses to weaken a security key", { mode: "block" }, { mode: "off" }, { mode: "block" }, 1],
		["unions a security list (nothing ignored)", { paths: ["a"] }, { paths: ["b", "a"] }, { paths: ["a", "b"] }, 0],
		["ignores a locked key", { limits: { lines: 5 } }, { limits: { lines: 9 } }, { limits: { lines: 5 } }, 1],
		["keeps the base without a project", { mode: "warn" }, undefined, { mode: "warn" }, 0],
		// A record rule that strengthens key by key: the global file's other keys are not the project's ignored ones.
		[
			"strengthens one key of a record",
			{ scopes: { a: 1, b: 1 } },
			{ scopes: { b: 2 } },
			{ scopes: { a: 1, b: 2 } },
			0,
		],
		[
			"ignores a weakened key of a record",
			{ scopes: { a: 1, b: 2 } },
			{ scopes: { b: 1 } },
			{ scopes: { a: 1, b: 2 } },
			1,
		],
		["ignores an entry a list rule dropped", { drop: ["a"] }, { drop: ["b", "!c"] }, { drop: ["a", "b"] }, 1],
		["ignores a list where a rule keeps a value", { mode: "warn" }, { mode: ["block"] }, { mode: "warn" }, 1],
		["ignores a record where a rule keeps a value", { mode: "warn" }, { mode: { a: "block" } }, { mode: "warn" }, 1],
	])("%s", (_name, base, project, value, ignored) => {
		const before = JSON.stringify([base, project]);
		expect(applyProjectLayer(base, project, rule)).toEqual({ value, ignored });
		expect(JSON.stringify([base, project])).toBe(before);
	});

	it("never writes through __proto__", () => {
		const merged = applyProjectLayer({}, JSON.parse('{"__proto__": {"polluted": true}}'), {}).value as object;
		expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

interface Cfg {
	readonly mode: string;
	readonly bash: string;
	readonly lines: number;
}

const spec: PolicyConfigSpec<Cfg> = {
	schema: Schema,
	normalizeLayer: (layer) => (layer === false ? { mode: "off" } : layer),
	projectLayer: { strengthen: { mode: strengthenByOrder(["off", "warn", "block"]) } },
	resolve: (merged) => {
		const raw = (merged ?? { mode: "off" }) as Record<string, unknown>;
		if (typeof raw.mode !== "string") return err("mode: required");
		const lines = (raw.limits as { lines?: number } | undefined)?.lines ?? 10;
		if (raw.mode === "block" && lines < 5) return err("limits.lines: expected integer between 5 and 20");
		return ok({ mode: raw.mode, bash: typeof raw.bash === "string" ? raw.bash : "auto", lines });
	},
};

describe("resolvePolicyConfig", () => {
	it("gives the defaults when no file exists", () => {
		expect(resolvePolicyConfig({ global: missing, project: missing }, spec)).toEqual({
			status: "absent",
			config: { mode: "off", bash: "auto", lines: 10 },
		});
	});

	it('accepts "$schema" in either file', () => {
		const result = resolvePolicyConfig(
			{ global: text({ $schema: "./schema.json", mode: "warn" }), project: text({ $schema: "x", bash: "off" }) },
			spec,
		);
		expect(result).toEqual({
			status: "valid",
			config: { mode: "warn", bash: "off", lines: 10 },
			files: ["global", "project"],
			ignored: 0,
		});
	});

	it("lets a required key come from either file", () => {
		const result = resolvePolicyConfig({ global: text({ bash: "off" }), project: text({ mode: "warn" }) }, spec);
		expect(result.status === "valid" ? result.config : undefined).toEqual({ mode: "warn", bash: "off", lines: 10 });
	});

	it("applies strengthen rules to the project file", () => {
		const result = resolvePolicyConfig({ global: text({ mode: "block" }), project: text({ mode: "off" }) }, spec);
		expect(result).toMatchObject({ status: "valid", config: { mode: "block" }, ignored: 1 });
	});

	it("normalises a layer before validating it", () => {
		const result = resolvePolicyConfig({ global: text(false) }, spec);
		expect(result).toMatchObject({ status: "valid", config: { mode: "off" } });
	});

	it.each([
		["invalid JSON", { global: text('{\n "mode": "warn"\n,}') }, "global: invalid JSON at line 3, column 2"],
		["an unknown key", { global: text({ mode: "warn", foo: 1 }) }, 'global: unknown key "foo"'],
		[
			"an out-of-range value",
			{ global: text({ mode: "warn" }), project: text({ limits: { lines: 50 } }) },
			"project limits.lines: expected integer between 1 and 20",
		],
		[
			"an invalid enum",
			{ global: missing, project: text({ mode: "warn", bash: "x" }) },
			'project bash: expected one of "auto", "count", "off"',
		],
		["an unreadable file", { global: { kind: "unreadable" } as const }, `global: ${CONFIG_UNREADABLE_REASON}`],
		[
			"a cross-key rule",
			{ global: text({ mode: "block" }), project: text({ limits: { lines: 2 } }) },
			"project limits.lines: expected integer between 5 and 20",
		],
		["a missing required key", { global: text({ bash: "off" }) }, "global mode: required"],
	])("reports %s with file and key path", (_name, reads, expected) => {
		const result = resolvePolicyConfig(reads, spec);
		expect(result.status).toBe("invalid");
		expect(result.status === "invalid" ? formatConfigIssues(result.issues) : "").toBe(expected);
	});

	it("resolves the valid files only as the fallback of an invalid config", () => {
		const result = resolvePolicyConfig(
			{ global: text({ mode: "block", foo: 1 }), project: text({ mode: "warn" }) },
			spec,
		);
		expect(result).toMatchObject({ status: "invalid", fallback: { mode: "warn" } });
	});

	it('never reads a project file when the rule is "none"', () => {
		const result = resolvePolicyConfig(
			{ global: text({ mode: "warn" }), project: text("not json") },
			{ ...spec, projectLayer: "none" },
		);
		expect(result).toMatchObject({ status: "valid", files: ["global"] });
	});

	it("applies the defaults under the global file before the project rule", () => {
		const withDefaults: PolicyConfigSpec<Cfg> = { ...spec, defaults: { mode: "block" } };
		const result = resolvePolicyConfig({ global: missing, project: text({ mode: "off" }) }, withDefaults);
		expect(result).toMatchObject({ status: "valid", config: { mode: "block" }, ignored: 1 });
	});
});
