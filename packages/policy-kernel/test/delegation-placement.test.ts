// Placement of the marked block: plain text, sections maps, transcripts and provider payload shapes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	applyPolicyBlockToPayload,
	applyPolicyBlockToSections,
	applyPolicyBlockToTranscript,
	countPolicyBlocks,
	detectPayloadShape,
	removePolicyBlocksFromText,
	replacePolicyBlockInText,
	wrapPolicyBlock,
} from "../src/delegation/index.js";
import { anyText } from "./arbitraries.js";

const A = wrapPolicyBlock("policy A");
const B = wrapPolicyBlock("policy B");

describe("replacePolicyBlockInText", () => {
	it.each([
		["appends after a blank line", "base", B, `base\n\n${B}`],
		["fills an empty text", "", B, B],
		["replaces in place", `head\n\n${A}\n\ntail`, B, `head\n\n${B}\n\ntail`],
		["keeps the first and removes the rest", `${A}\n\nmid\n\n${A}`, B, `${B}\n\nmid`],
		["removes with its separator", `head\n\n${A}\n\ntail`, undefined, "head\n\ntail"],
		["removes a trailing block", `head\n\n${A}`, undefined, "head"],
		["ignores an unclosed tag", "x <delegation_policy> y", undefined, "x <delegation_policy> y"],
	])("%s", (_name, text, block, expected) => {
		expect(replacePolicyBlockInText(text, block).value).toBe(expected);
	});

	it("reports no change when the text already holds exactly the block", () => {
		expect(replacePolicyBlockInText(`x\n\n${B}`, B)).toEqual({ value: `x\n\n${B}`, changed: false });
		expect(removePolicyBlocksFromText("plain")).toEqual({ value: "plain", changed: false });
	});

	it("property: any text ends with exactly one block, and removal leaves none", () => {
		fc.assert(
			fc.property(anyText, fc.array(fc.constantFrom(A, B, "\n\n", "x"), { maxLength: 6 }), (noise, parts) => {
				const text = noise.replaceAll("<delegation_policy>", "") + parts.join("");
				const placed = replacePolicyBlockInText(text, B).value;
				expect(countPolicyBlocks(placed)).toBe(1);
				expect(placed).toContain(B);
				expect(countPolicyBlocks(replacePolicyBlockInText(placed, undefined).value)).toBe(0);
				expect(replacePolicyBlockInText(placed, B).changed).toBe(false);
			}),
		);
	});
});

describe("applyPolicyBlockToSections", () => {
	it("appends, replaces in place, and removes while keeping the other sections in order", () => {
		const base = { preamble: "p", tools: "<tools>t</tools>", cwd: "<cwd>c</cwd>" };
		const added = applyPolicyBlockToSections(base, A);
		expect(Object.keys(added.value ?? {})).toEqual(["preamble", "tools", "cwd", "delegation_policy"]);
		const replaced = applyPolicyBlockToSections({ preamble: "p", delegation_policy: A, cwd: "c" }, B);
		expect(Object.entries(replaced.value ?? {})).toEqual([
			["preamble", "p"],
			["delegation_policy", B],
			["cwd", "c"],
		]);
		expect(applyPolicyBlockToSections(replaced.value, B).changed).toBe(false);
		const removed = applyPolicyBlockToSections({ preamble: "p", delegation_policy: A, cwd: "c" }, undefined);
		expect(removed).toEqual({ value: { preamble: "p", cwd: "c" }, changed: true });
		expect(applyPolicyBlockToSections(undefined, undefined)).toEqual({ value: undefined, changed: false });
	});
});

describe("applyPolicyBlockToTranscript", () => {
	const head = {
		role: "system",
		content: "",
		sections: { preamble: "p", delegation_policy: A },
		toolsAdded: [{ name: "read" }],
		timestamp: 0,
	};
	const user = { role: "user", content: `quoted ${A}`, timestamp: 1 };

	it("sets the leading section, drops patches of it, strips stray copies, never touches user messages", () => {
		const patch = { role: "system", content: "", sections: { delegation_policy: B }, timestamp: 2 };
		const mixed = {
			role: "system",
			content: `note\n\n${A}`,
			sections: { other: "o", delegation_policy: null },
			timestamp: 3,
		};
		const input = [head, user, patch, mixed];
		const snapshot = JSON.stringify(input);
		const placed = applyPolicyBlockToTranscript(input, B);
		expect(placed.value).toEqual([
			{ ...head, sections: { preamble: "p", delegation_policy: B } },
			user,
			{ role: "system", content: "note", sections: { other: "o" }, timestamp: 3 },
		]);
		expect(JSON.stringify(input)).toBe(snapshot);
	});

	it("removes the block entirely when inactive and returns the same array when nothing changes", () => {
		const off = applyPolicyBlockToTranscript([head, user], undefined);
		expect(off.value[0]).toEqual({ ...head, sections: { preamble: "p" } });
		const again = applyPolicyBlockToTranscript(off.value, undefined);
		expect(again.changed).toBe(false);
		expect(again.value).toBe(off.value);
	});

	it("inserts a leading system message when there is none", () => {
		const placed = applyPolicyBlockToTranscript([user], A);
		expect(placed.value[0]).toEqual({ role: "system", content: "", sections: { delegation_policy: A }, timestamp: 0 });
	});
});

describe("applyPolicyBlockToPayload", () => {
	it.each([
		[
			"openai-chat",
			{
				model: "m",
				messages: [
					{ role: "system", content: "base" },
					{ role: "user", content: "u" },
				],
			},
		],
		["openai-chat", { model: "m", messages: [{ role: "developer", content: [{ type: "text", text: "base" }] }] }],
		["openai-responses", { model: "m", instructions: "base", input: [{ role: "user", content: "u" }] }],
		[
			"openai-responses",
			{
				model: "m",
				input: [
					{ role: "developer", content: "base" },
					{ role: "user", content: "u" },
				],
			},
		],
		["anthropic", { model: "m", system: "base", messages: [{ role: "user", content: "u" }] }],
		[
			"anthropic",
			{ model: "m", system: [{ type: "text", text: "base", cache_control: { type: "ephemeral" } }], messages: [] },
		],
		["google", { model: "m", contents: [], config: { systemInstruction: "base" } }],
		["google", { contents: [], systemInstruction: { parts: [{ text: "base" }] } }],
	])("%s: adds, replaces and removes exactly one block in the instruction field", (shape, payload) => {
		expect(detectPayloadShape(payload)).toBe(shape);
		const snapshot = JSON.stringify(payload);
		const added = applyPolicyBlockToPayload(payload, A);
		expect(added.changed).toBe(true);
		const addedText = JSON.stringify(added.value);
		expect(countPolicyBlocks(addedText)).toBe(1);
		expect(addedText).toContain(JSON.stringify(`base\n\n${A}`).slice(1, -1));
		const replaced = applyPolicyBlockToPayload(added.value, B);
		expect(JSON.stringify(replaced.value)).toBe(addedText.replace("policy A", "policy B"));
		const removed = applyPolicyBlockToPayload(replaced.value, undefined);
		expect(JSON.stringify(removed.value)).toBe(snapshot);
		expect(JSON.stringify(payload)).toBe(snapshot);
	});

	it("keeps one block when several instruction fields carry copies, and leaves user content alone", () => {
		const payload = {
			messages: [
				{ role: "system", content: `base\n\n${A}` },
				{ role: "user", content: `user quotes ${A}` },
				{ role: "system", content: `later\n\n${A}` },
			],
		};
		const placed = applyPolicyBlockToPayload(payload, B);
		expect(placed.value).toEqual({
			messages: [
				{ role: "system", content: `base\n\n${B}` },
				{ role: "user", content: `user quotes ${A}` },
				{ role: "system", content: "later" },
			],
		});
	});

	it.each([
		["null", null],
		["a string", "payload"],
		["an array", [1, 2]],
		["an object without instruction fields", { model: "m", prompt: "base" }],
		["chat messages without a system or developer message", { messages: [{ role: "user", content: "u" }] }],
	])("returns %s untouched", (_name, payload) => {
		const placed = applyPolicyBlockToPayload(payload, A);
		expect(placed).toEqual({ value: payload, changed: false, shape: "unknown" });
		expect(placed.value).toBe(payload);
	});

	it("adds an instruction field where the shape has none", () => {
		expect(applyPolicyBlockToPayload({ input: [{ role: "user", content: "u" }] }, A).value).toEqual({
			input: [{ role: "user", content: "u" }],
			instructions: A,
		});
		expect(applyPolicyBlockToPayload({ contents: [] }, A).value).toEqual({
			contents: [],
			systemInstruction: { parts: [{ text: A }] },
		});
	});
});
