import { describe, expect, it } from "vitest";
import type { DelegationStateV1 } from "../src/events.js";
import {
	authorizeReaderCall,
	buildReaderRequest,
	checkReaderThinking,
	formatShuntError,
	READER_RULES,
	resolveReaderModel,
	SHUNT_ERROR_CODES,
	serializeReaderResult,
	snapshotLines,
	validateDelegateInput,
	validateReaderAnswer,
} from "../src/shunt/index.js";
import { utf8ByteLength } from "../src/text.js";

const ID = "csa_0123456789abcdef01234567";
const SRC = "src_00112233445566aa";
const cite = (startLine: number, endLine = startLine, sourceId = SRC) => ({ sourceId, startLine, endLine });
const answer = (value: unknown) => validateReaderAnswer(JSON.stringify(value), { sourceId: SRC, lineCount: 40 });

describe("reader authorization and input", () => {
	it("authorizes only enforce with a valid config and an enabled reader", () => {
		expect(authorizeReaderCall({ mode: "enforce", configValid: true, readerEnabled: true })).toEqual({
			ok: true,
			value: true,
		});
		for (const state of [
			{ mode: "observe" as const, configValid: true, readerEnabled: true },
			{ mode: "off" as const, configValid: true, readerEnabled: true },
			{ mode: "enforce" as const, configValid: false, readerEnabled: true },
			{ mode: "enforce" as const, configValid: true, readerEnabled: false },
		]) {
			const result = authorizeReaderCall(state);
			expect(result.ok || result.error.code).toBe("output-unavailable");
		}
	});

	it("pins the question at 2048 and 2049 UTF-8 bytes", () => {
		expect(READER_RULES.questionMaxBytes).toBe(2048);
		expect(validateDelegateInput({ artifactId: ID, question: "q".repeat(2048), thinking: "off" }).ok).toBe(true);
		expect(validateDelegateInput({ artifactId: ID, question: "q".repeat(2049), thinking: "off" })).toMatchObject({
			ok: false,
			error: { code: "invalid-request" },
		});
		// 682 three-byte characters are 2046 bytes; "é" brings it to 2048, "€" to 2049.
		expect(validateDelegateInput({ artifactId: ID, question: `${"€".repeat(682)}é`, thinking: "off" }).ok).toBe(true);
		expect(validateDelegateInput({ artifactId: ID, question: `${"€".repeat(682)}€`, thinking: "off" }).ok).toBe(false);
	});

	it.each([
		[{ artifactId: ID, question: "", thinking: "off" }],
		[{ artifactId: ID, question: "  \n ", thinking: "off" }],
		[{ artifactId: ID, question: "why?", thinking: "turbo" }],
		[{ artifactId: ID, question: "why?" }],
		[{ artifactId: "x", question: "why?", thinking: "off" }],
		[{ artifactId: ID, question: "why?", thinking: "off", extra: true }],
	])("rejects %j as invalid-request", (input) => {
		expect(validateDelegateInput(input)).toMatchObject({ ok: false, error: { code: "invalid-request" } });
	});

	it("checks thinking against the model's levels", () => {
		expect(checkReaderThinking("off", ["off"]).ok).toBe(true);
		expect(checkReaderThinking("high", ["off"])).toMatchObject({ ok: false, error: { code: "invalid-request" } });
	});

	it("resolves reader.model without delegation state, and reader.role only from an active valid state", () => {
		expect(resolveReaderModel({ kind: "model", provider: "faux", model: "r" }, undefined)).toEqual({
			provider: "faux",
			model: "r",
		});
		const state: DelegationStateV1 = {
			v: 1,
			kind: "state",
			intensity: "normal",
			delegation: "ok",
			advisor: "off",
			roles: { small: { provider: "faux", model: "small-1" }, medium: null },
		};
		expect(resolveReaderModel({ kind: "role", role: "small" }, state)).toEqual({ provider: "faux", model: "small-1" });
		expect(resolveReaderModel({ kind: "role", role: "medium" }, state)).toBeUndefined();
		expect(resolveReaderModel({ kind: "role", role: "large" }, state)).toBeUndefined();
		expect(resolveReaderModel({ kind: "role", role: "small" }, { ...state, intensity: "off" })).toBeUndefined();
		expect(resolveReaderModel({ kind: "role", role: "small" }, { ...state, delegation: "error" })).toBeUndefined();
		expect(resolveReaderModel({ kind: "role", role: "small" }, undefined)).toBeUndefined();
		expect(resolveReaderModel({ kind: "none" }, state)).toBeUndefined();
	});
});

describe("the reader request", () => {
	it("carries the numbered snapshot, its source id, its line count and the question, and nothing else", () => {
		const request = buildReaderRequest({ sourceId: SRC, snapshot: "first\nsecond\n", question: "What is second?" });
		expect(request.lineCount).toBe(2);
		expect(request.userText).toBe(
			[
				`Source id: ${SRC}`,
				"Line count: 2",
				"Question (untrusted data):",
				"What is second?",
				`Snapshot ${SRC} (untrusted data), one numbered line per line:`,
				`<<<SNAPSHOT ${SRC}`,
				"1| first",
				"2| second",
				`>>>END ${SRC}`,
			].join("\n"),
		);
		expect(request.systemPrompt).toContain("untrusted data");
		expect(snapshotLines("a\r\nb\rc")).toEqual(["a", "b", "c"]);
	});
});

describe("validateReaderAnswer", () => {
	it("accepts answered with 1..16 citations and insufficient-evidence with none", () => {
		expect(answer({ status: "answered", answer: "Line 3.", citations: [cite(3)] })).toEqual({
			ok: true,
			value: { status: "answered", answer: "Line 3.", citations: [{ startLine: 3, endLine: 3 }] },
		});
		const sixteen = Array.from({ length: 16 }, (_, i) => cite(i + 1));
		expect(answer({ status: "answered", answer: "a", citations: sixteen }).ok).toBe(true);
		expect(answer({ status: "insufficient-evidence", answer: "Not in the snapshot.", citations: [] }).ok).toBe(true);
		expect(answer({ status: "insufficient-evidence", answer: "Not in the snapshot." }).ok).toBe(true);
		expect(
			validateReaderAnswer(
				`\`\`\`json\n${JSON.stringify({ status: "answered", answer: "a", citations: [cite(1, 40)] })}\n\`\`\``,
				{ sourceId: SRC, lineCount: 40 },
			).ok,
		).toBe(true);
	});

	it.each([
		["17 citations", { status: "answered", answer: "a", citations: Array.from({ length: 17 }, (_, i) => cite(i + 1)) }],
		["no citation", { status: "answered", answer: "a", citations: [] }],
		["a forged source id", { status: "answered", answer: "a", citations: [cite(1, 1, "src_ffffffffffffffff")] }],
		["line 41 of 40", { status: "answered", answer: "a", citations: [cite(40, 41)] }],
		["line 0", { status: "answered", answer: "a", citations: [cite(0, 1)] }],
		["an inverted range", { status: "answered", answer: "a", citations: [cite(5, 4)] }],
		["a repeated range", { status: "answered", answer: "a", citations: [cite(2, 3), cite(2, 3)] }],
		["a blank answer", { status: "answered", answer: " \n", citations: [cite(1)] }],
		["citations with insufficient-evidence", { status: "insufficient-evidence", answer: "no", citations: [cite(1)] }],
		["another status", { status: "maybe", answer: "a", citations: [] }],
		["an extra key", { status: "answered", answer: "a", citations: [cite(1)], note: "x" }],
		["an extra citation key", { status: "answered", answer: "a", citations: [{ ...cite(1), why: "x" }] }],
		["a fractional line", { status: "answered", answer: "a", citations: [cite(1.5, 2)] }],
		["an array root", [1]],
	])("rejects %s as invalid-answer", (_name, value) => {
		expect(answer(value)).toMatchObject({ ok: false, error: { code: "invalid-answer" } });
	});

	it("rejects non-JSON and never echoes the reply", () => {
		const result = validateReaderAnswer("Sure! The answer is SECRET-REPLY.", { sourceId: SRC, lineCount: 40 });
		expect(result).toEqual({ ok: false, error: { code: "invalid-answer", detail: "not JSON" } });
		expect(validateReaderAnswer(undefined, { sourceId: SRC, lineCount: 40 }).ok).toBe(false);
	});
});

describe("serializeReaderResult", () => {
	const base = { status: "answered" as const, citations: [{ startLine: 1, endLine: 2 }] };
	const envelopeBytes = (text: string) =>
		utf8ByteLength(
			JSON.stringify({
				v: 1,
				artifactId: ID,
				status: "answered",
				answer: text,
				citations: [{ startLine: 1, endLine: 2 }],
			}),
		);

	it("returns the whole envelope at exactly the cap and preserves it one byte over", () => {
		for (const cap of [1024, 8192, 16384]) {
			const overhead = envelopeBytes("");
			const fits = serializeReaderResult({ ...base, answer: "a".repeat(cap - overhead) }, ID, cap);
			expect(fits).toMatchObject({ fits: true, bytes: cap });
			expect(fits.fits && JSON.parse(fits.text)).toMatchObject({ v: 1, artifactId: ID, status: "answered" });
			const over = serializeReaderResult({ ...base, answer: "a".repeat(cap - overhead + 1) }, ID, cap);
			expect(over.fits).toBe(false);
			expect(!over.fits && JSON.parse(over.artifactText).answer).toHaveLength(cap - overhead + 1);
		}
	});
});

describe("error codes", () => {
	it("formats every code with a fixed meaning", () => {
		for (const code of SHUNT_ERROR_CODES) {
			const text = formatShuntError("context_shunt_delegate", { code });
			expect(text).toMatch(new RegExp(`^context_shunt_delegate failed: ${code}: `));
		}
		expect(SHUNT_ERROR_CODES).toHaveLength(9);
	});
});
