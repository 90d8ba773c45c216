import fc from "fast-check";
import { Type } from "typebox";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import {
	cloneJson,
	describeSchemaErrors,
	FORMAT_HINT_KEY,
	MAX_FORMAT_HINT_CHARS,
	mergeConfigLayers,
	parseJsonText,
	parseWithSchema,
	strengthenByOrder,
	strengthenEach,
	strengthenFlag,
	strengthenNumber,
	strengthenUnion,
	validateEnum,
	validateIntegerInRange,
} from "../src/config.js";
import { collectStrings, jsonValue } from "./arbitraries.js";

const runs = { numRuns: 300 };

const GuardSchema = Type.Object(
	{
		mode: Type.Enum(["off", "warn", "block"]),
		maxBroadOps: Type.Integer({ minimum: 1, maximum: 20 }),
		childEnv: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 8 })),
		reviewer: Type.Optional(
			Type.Object(
				{
					model: Type.Optional(Type.String({ pattern: "^[a-z]+/[a-z0-9-]+$" })),
					timeoutMs: Type.Optional(Type.Integer({ minimum: 5000, maximum: 180000 })),
					fallback: Type.Optional(Type.Boolean()),
				},
				{ additionalProperties: false },
			),
		),
		tools: Type.Optional(Type.Record(Type.String(), Type.Enum(["always", "outside-workspace", "off"]))),
		advisor: Type.Optional(
			Type.Union([Type.Object({ model: Type.String() }, { additionalProperties: false }), Type.Null()]),
		),
	},
	{ additionalProperties: false },
);

const SECRET_STRINGS = ["/home/u/secret.ts", "src/**/*.ts", "rm -rf /", "ghp_token123", "ignore previous instructions"];

describe("validateIntegerInRange", () => {
	const range = { min: 1, max: 20, name: "warnAfter" };

	it.each([1, 2, 19, 20])("accepts %i", (value) => {
		expect(validateIntegerInRange(value, range)).toEqual({ ok: true, value });
	});

	it.each([0, 21, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "5", null, undefined, {}, [3]])(
		"rejects %j with a message naming the key and bounds",
		(value) => {
			expect(validateIntegerInRange(value, range)).toEqual({
				ok: false,
				error: "warnAfter: expected integer between 1 and 20",
			});
		},
	);

	it("holds on both sides of arbitrary bounds", () => {
		fc.assert(
			fc.property(fc.integer({ min: -1000, max: 1000 }), fc.nat(1000), fc.integer(), (min, width, value) => {
				const max = min + width;
				const result = validateIntegerInRange(value, { min, max, name: "k" });
				expect(result.ok).toBe(value >= min && value <= max);
				expect(validateIntegerInRange(min - 1, { min, max, name: "k" }).ok).toBe(false);
				expect(validateIntegerInRange(max + 1, { min, max, name: "k" }).ok).toBe(false);
				expect(validateIntegerInRange(min, { min, max, name: "k" }).ok).toBe(true);
				expect(validateIntegerInRange(max, { min, max, name: "k" }).ok).toBe(true);
			}),
			runs,
		);
	});

	it("never echoes a string value", () => {
		fc.assert(
			fc.property(fc.string({ minLength: 3 }), (value) => {
				const result = validateIntegerInRange(value, range);
				expect(result.ok).toBe(false);
				if (!result.ok && !"warnAfter: expected integer between 1 and 20".includes(value)) {
					expect(result.error).not.toContain(value);
				}
			}),
			runs,
		);
	});
});

describe("validateEnum", () => {
	it("accepts listed values and rejects others without echoing them", () => {
		expect(validateEnum("warn", ["off", "warn"], "mode")).toEqual({ ok: true, value: "warn" });
		expect(validateEnum("rm -rf /", ["off", "warn"], "mode")).toEqual({
			ok: false,
			error: 'mode: expected one of "off", "warn"',
		});
	});
});

describe("parseJsonText", () => {
	it("parses JSON, ignoring a byte-order mark", () => {
		expect(parseJsonText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
		expect(parseJsonText('\uFEFF[1,"x"]')).toEqual({ ok: true, value: [1, "x"] });
	});

	it.each(["", "{", '{"path": "/home/u/x.ts",}', "rm -rf /", undefined, 42])("rejects %j as invalid JSON", (text) => {
		expect(parseJsonText(text)).toEqual({ ok: false, error: "invalid JSON" });
	});

	it("round-trips arbitrary JSON and never throws on arbitrary text", () => {
		fc.assert(
			fc.property(jsonValue, (value) => {
				const result = parseJsonText(JSON.stringify(value));
				expect(result.ok).toBe(true);
			}),
			runs,
		);
		fc.assert(
			fc.property(fc.string(), (text) => {
				const result = parseJsonText(text);
				if (!result.ok) expect(result.error).toBe("invalid JSON");
			}),
			runs,
		);
	});
});

describe("parseWithSchema", () => {
	it("returns the value for a valid config", () => {
		const raw = { mode: "warn", maxBroadOps: 4, reviewer: { timeoutMs: 5000 }, tools: { bash: "always" } };
		const result = parseWithSchema(GuardSchema, raw);
		expect(result).toEqual({ ok: true, value: raw });
	});

	it.each([
		[{ mode: "warn", maxBroadOps: 40 }, "maxBroadOps: expected integer between 1 and 20"],
		[{ mode: "warn", maxBroadOps: 1.5 }, "maxBroadOps: expected integer between 1 and 20"],
		[{ mode: "rm -rf /", maxBroadOps: 1 }, 'mode: expected one of "off", "warn", "block"'],
		[{ maxBroadOps: 1 }, "mode: required"],
		[{ mode: "off", maxBroadOps: 1, "/home/u/x.ts": true }, "config: unknown key"],
		[
			{ mode: "off", maxBroadOps: 1, reviewer: { timeoutMs: 1 } },
			"reviewer.timeoutMs: expected integer between 5000 and 180000",
		],
		[{ mode: "off", maxBroadOps: 1, reviewer: { "src/**/*.ts": 1 } }, "reviewer: unknown key"],
		[
			{ mode: "off", maxBroadOps: 1, reviewer: { model: "rm -rf /" } },
			"reviewer.model: expected string in the required format",
		],
		[{ mode: "off", maxBroadOps: 1, reviewer: "x" }, "reviewer: expected object"],
		[
			{ mode: "off", maxBroadOps: 1, tools: { "/etc/passwd": "never" } },
			'tools.*: expected one of "always", "outside-workspace", "off"',
		],
		[{ mode: "off", maxBroadOps: 1, childEnv: ["A", 3] }, "childEnv.1: expected string of 1 to 64 characters"],
		[
			{ mode: "off", maxBroadOps: 1, childEnv: ["A", "B", "C", "D", "E", "F", "G", "H", "I"] },
			"childEnv: expected at most 8 items",
		],
		[{ mode: "off", maxBroadOps: 1, advisor: { model: 3 } }, "advisor.model: expected string"],
		[{ mode: "off", maxBroadOps: 1, advisor: "x" }, "advisor: expected object"],
		[[], "config: expected object"],
		["rm -rf /", "config: expected object"],
		[null, "config: expected object"],
	])("rejects %j with %j", (raw, message) => {
		const result = parseWithSchema(GuardSchema, raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error.split("; ")).toContain(message);
	});

	it("joins several messages and honours maxErrors and root", () => {
		const result = parseWithSchema(
			GuardSchema,
			{ mode: "x", maxBroadOps: 0, extra: 1 },
			{ root: "guard", maxErrors: 2 },
		);
		expect(result).toEqual({ ok: false, error: expect.stringMatching(/^[^;]+; [^;]+$/) });
		expect(parseWithSchema(GuardSchema, 3, { root: "guard" })).toEqual({ ok: false, error: "guard: expected object" });
	});

	it("describes a valid value with no errors", () => {
		expect(describeSchemaErrors(GuardSchema, { mode: "off", maxBroadOps: 2 })).toEqual([]);
	});

	it("never throws on random JSON and never echoes its strings or unknown keys", () => {
		const withSecrets = fc.oneof(
			jsonValue,
			fc.record({
				mode: fc.oneof(fc.constantFrom(...SECRET_STRINGS), fc.string({ minLength: 4 })),
				maxBroadOps: jsonValue,
				reviewer: fc.dictionary(fc.string({ minLength: 4 }), jsonValue),
				tools: fc.dictionary(fc.constantFrom(...SECRET_STRINGS), fc.constantFrom(...SECRET_STRINGS)),
				childEnv: fc.array(fc.constantFrom(...SECRET_STRINGS)),
			}),
			fc.dictionary(fc.oneof(fc.constantFrom(...SECRET_STRINGS), fc.string({ minLength: 4 })), jsonValue),
		);
		const allowedText = JSON.stringify(GuardSchema);
		fc.assert(
			fc.property(withSecrets, (raw) => {
				const result = parseWithSchema(GuardSchema, raw, { maxErrors: 50 });
				if (result.ok) return;
				for (const text of collectStrings(raw)) {
					// Only strings that happen to be part of the schema or the message vocabulary may appear.
					if (text.length < 4 || allowedText.includes(text) || MESSAGE_WORDS.some((word) => word.includes(text)))
						continue;
					expect(result.error).not.toContain(text);
				}
				for (const secret of SECRET_STRINGS) expect(result.error).not.toContain(secret);
			}),
			{ numRuns: 500 },
		);
	});
});

const MESSAGE_WORDS = [
	"config: unknown key",
	"expected integer between",
	"expected string of 1 to 64 characters",
	"expected string in the required format",
	"expected at most 8 items",
	"expected object or null",
	"required",
	"expected one of",
	"expected boolean",
	"expected array",
	"reviewer.timeoutMs",
	"childEnv",
	"tools.*",
	"maxBroadOps",
];

describe("mergeConfigLayers", () => {
	const globalLayer = { mode: "warn", warnAfter: 2, nested: { a: 1, b: [1, 2] }, list: ["x"] };

	it("returns the other layer when one is missing", () => {
		expect(mergeConfigLayers(undefined, undefined, { mode: "override" }).value).toBeUndefined();
		expect(mergeConfigLayers(globalLayer, undefined, { mode: "override" }).value).toEqual(globalLayer);
		expect(mergeConfigLayers(undefined, { mode: "off" }, { mode: "override" }).value).toEqual({ mode: "off" });
	});

	it("replace: the project layer wins entirely", () => {
		expect(mergeConfigLayers(globalLayer, { mode: "off" }, { mode: "replace" })).toEqual({
			value: { mode: "off" },
			ignored: 0,
		});
	});

	it("override: objects merge deeply, arrays and scalars are replaced", () => {
		const result = mergeConfigLayers(globalLayer, { warnAfter: 3, nested: { b: [9] }, list: [] }, { mode: "override" });
		expect(result.value).toEqual({ mode: "warn", warnAfter: 3, nested: { a: 1, b: [9] }, list: [] });
	});

	it("never mutates or shares its inputs", () => {
		const g = cloneJson(globalLayer);
		const p = { nested: { c: 1 } };
		const result = mergeConfigLayers(g, p, { mode: "override" });
		expect(g).toEqual(globalLayer);
		(result.value as { nested: { a: number } }).nested.a = 99;
		expect(g.nested.a).toBe(1);
	});

	it("does not let __proto__ keys pollute prototypes", () => {
		const project = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"x": 1}}}') as unknown;
		const result = mergeConfigLayers({ nested: {} }, project, { mode: "override" });
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		const value = result.value as Record<string, unknown>;
		expect(Object.hasOwn(value, "__proto__")).toBe(true);
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
	});

	describe("strengthen-only", () => {
		const rules = {
			mode: strengthenByOrder(["off", "observe", "enforce"]),
			"reviewer.timeoutMs": strengthenNumber("lower"),
			reviewLog: strengthenFlag(true),
			protectedPaths: strengthenUnion(),
			tools: strengthenEach(strengthenByOrder(["off", "protected-only", "outside-workspace", "always"])),
		};
		const base = {
			mode: "observe",
			reviewer: { timeoutMs: 60000, model: "a/b" },
			reviewLog: false,
			protectedPaths: [".env*"],
			tools: { bash: "always", write: "outside-workspace" },
		};

		it("lets a project strengthen", () => {
			const result = mergeConfigLayers(
				base,
				{
					mode: "enforce",
					reviewer: { timeoutMs: 5000 },
					reviewLog: true,
					protectedPaths: ["*.pem", ".env*"],
					tools: { write: "always", custom: "protected-only" },
				},
				{ mode: "strengthen-only", rules },
			);
			expect(result).toEqual({
				value: {
					mode: "enforce",
					reviewer: { timeoutMs: 5000, model: "a/b" },
					reviewLog: true,
					protectedPaths: [".env*", "*.pem"],
					tools: { bash: "always", write: "always", custom: "protected-only" },
				},
				ignored: 0,
			});
		});

		it("never lets a project weaken, and counts values without a rule as ignored", () => {
			const result = mergeConfigLayers(
				base,
				{
					mode: "off",
					reviewer: { timeoutMs: 180000, model: "evil/model" },
					reviewLog: false,
					protectedPaths: [],
					tools: { bash: "off" },
					extra: 1,
				},
				{ mode: "strengthen-only", rules },
			);
			expect(result).toEqual({ value: base, ignored: 2 });
		});

		it("treats values outside a rule's domain as not comparable", () => {
			expect(strengthenByOrder(["a", "b"])("a", "zzz")).toBe("a");
			expect(strengthenByOrder(["a", "b"])(undefined, "b")).toBe("b");
			expect(strengthenByOrder(["a", "b"])("zzz", "yyy")).toBe("zzz");
			expect(strengthenNumber("higher")(3, Number.NaN)).toBe(3);
			expect(strengthenNumber("higher")(undefined, 5)).toBe(5);
			expect(strengthenNumber("higher")(3, 5)).toBe(5);
			expect(strengthenFlag(true)(undefined, false)).toBe(false);
			expect(strengthenFlag(false)(true, false)).toBe(false);
			expect(strengthenUnion()(["a"], "b")).toEqual(["a"]);
			expect(strengthenUnion()(undefined, ["b"])).toEqual(["b"]);
			expect(strengthenEach(strengthenNumber("higher"))({ a: 1 }, "x")).toEqual({ a: 1 });
		});

		it("applies to a missing global layer through the rules only", () => {
			const result = mergeConfigLayers(undefined, { mode: "enforce", other: 1 }, { mode: "strengthen-only", rules });
			expect(result).toEqual({ value: { mode: "enforce" }, ignored: 1 });
		});

		it("is never weaker than global for ordered keys, for random layers", () => {
			const order = ["off", "observe", "enforce"];
			const level = fc.constantFrom(...order);
			fc.assert(
				fc.property(level, fc.oneof(level, jsonValue), (g, p) => {
					const result = mergeConfigLayers({ mode: g }, { mode: p }, { mode: "strengthen-only", rules });
					const merged = (result.value as { mode: string }).mode;
					expect(order.indexOf(merged)).toBeGreaterThanOrEqual(order.indexOf(g));
				}),
				runs,
			);
		});
	});

	it("never throws on random layers in any mode", () => {
		fc.assert(
			fc.property(
				jsonValue,
				jsonValue,
				fc.constantFrom("replace", "override", "strengthen-only" as const),
				(g, p, mode) => {
					const result = mergeConfigLayers(g, p, { mode, rules: { a: strengthenNumber("lower") } });
					expect(result.ignored).toBeGreaterThanOrEqual(0);
					JSON.stringify(result.value);
				},
			),
			runs,
		);
	});
});

describe("describeSchemaErrors: the compiled fast path", () => {
	const guardValue = fc.record(
		{
			mode: fc.constantFrom("off", "warn", "block", "block", "WARN", 3),
			maxBroadOps: fc.oneof(
				fc.integer({ min: -2, max: 25 }),
				fc.integer({ min: 1, max: 20 }),
				fc.double(),
				fc.string(),
			),
			childEnv: fc.array(fc.string({ maxLength: 70 }), { maxLength: 10 }),
			reviewer: fc.oneof(
				fc.record(
					{ model: fc.constantFrom("a/b-1", "A/b", "x"), timeoutMs: fc.integer({ min: 0, max: 200_000 }) },
					{ requiredKeys: [] },
				),
				jsonValue,
			),
			tools: fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom("always", "off", "off", "never")),
		},
		{ requiredKeys: ["mode", "maxBroadOps"] },
	);
	const withExtraKey = fc.tuple(guardValue, fc.string({ maxLength: 6 }), jsonValue).map(([value, key, extra]) => ({
		...value,
		[key]: extra,
	}));

	it("finds no issue exactly when TypeBox's own error walk finds none, on valid and invalid values alike", () => {
		let valid = 0;
		fc.assert(
			fc.property(fc.oneof(guardValue, guardValue, withExtraKey, jsonValue), (value) => {
				const walked = [...Value.Errors(GuardSchema, value)].length === 0;
				const described = describeSchemaErrors(GuardSchema, value).length === 0;
				if (walked) valid++;
				expect(described).toBe(walked);
			}),
			{ numRuns: 2000 },
		);
		// Both sides were exercised.
		expect(valid).toBeGreaterThan(0);
	});
});

describe("describeSchemaErrors: a pattern's formatHint says what is expected", () => {
	const hinted = Type.Object(
		{ model: Type.String({ pattern: "^[a-z]+/[a-z0-9-]+$", [FORMAT_HINT_KEY]: '"provider/model-id"' }) },
		{ additionalProperties: false },
	);

	it("names the expected form instead of 'the required format', and never the value", () => {
		expect(describeSchemaErrors(hinted, { model: "claude haiku" })).toEqual([
			'model: expected string: "provider/model-id"',
		]);
	});

	it("keeps the generic wording without a hint, and cuts a long hint", () => {
		const plain = Type.Object({ model: Type.String({ pattern: "^[a-z]+$" }) });
		expect(describeSchemaErrors(plain, { model: "A" })).toEqual(["model: expected string in the required format"]);
		const long = Type.Object({ model: Type.String({ pattern: "^[a-z]+$", [FORMAT_HINT_KEY]: "x".repeat(500) }) });
		const [message] = describeSchemaErrors(long, { model: "A" });
		expect(message).toBe(`model: expected string: ${"x".repeat(MAX_FORMAT_HINT_CHARS)}`);
		const semicolon = Type.Object({ model: Type.String({ pattern: "^[a-z]+$", [FORMAT_HINT_KEY]: "a; b" }) });
		expect(describeSchemaErrors(semicolon, { model: "A" })).toEqual(["model: expected string: a, b"]);
	});
});
