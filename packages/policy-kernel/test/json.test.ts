import { describe, expect, it } from "vitest";
import { canonicalJson as guardianCanonicalJson } from "../src/guardian/action.js";
import { canonicalJson, isRecord } from "../src/json.js";
import { canonicalToolCall } from "../src/shunt/admission.js";

describe("canonicalJson", () => {
	it.each([
		[{ b: 1, a: [true, null, "x"] }, '{"a":[true,null,"x"],"b":1}'],
		[{ a: undefined, b: () => 1 }, "{}"],
		[[undefined, Number.NaN, Number.POSITIVE_INFINITY], "[null,null,null]"],
		["é\n", '"é\\n"'],
		[undefined, "null"],
	])("%j encodes as %s", (value, expected) => {
		expect(canonicalJson(value)).toBe(expected);
	});

	it("gives the same text in any key order and replaces a cycle with null", () => {
		expect(canonicalJson({ x: { q: 1, p: 2 }, y: 0 })).toBe(canonicalJson({ y: 0, x: { p: 2, q: 1 } }));
		const cycle: Record<string, unknown> = { a: 1 };
		cycle.self = cycle;
		expect(canonicalJson(cycle)).toBe('{"a":1,"self":null}');
	});

	it("is the one encoding guardian-review and context-shunt use", () => {
		expect(guardianCanonicalJson).toBe(canonicalJson);
		expect(canonicalToolCall("read", { path: "a", limit: 5 })).toBe(canonicalJson(["read", { limit: 5, path: "a" }]));
	});
});

describe("isRecord", () => {
	it.each([
		[{}, true],
		[Object.create(null), true],
		[new Date(0), true],
		[[], false],
		[null, false],
		["x", false],
		[1, false],
	])("%j is %s", (value, expected) => {
		expect(isRecord(value)).toBe(expected);
	});
});
