// context-shunt kernel edges a maintainer audit found unpinned: the configured tools' pool, recovery and pattern
// bounds, JSON Pointer and outline details, receipt text, tool policy order, refused notices and config checks.
import { describe, expect, it } from "vitest";
import {
	buildReceipt,
	classifyConfiguredResult,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	emptyArtifactLedger,
	emptyShuntSessionState,
	formatRefusedNotice,
	outlineJson,
	parseShuntCommand,
	recoverFromSnapshot,
	reduceArtifactLedger,
	reduceShuntToolCall,
	resolveContextShuntConfig,
	resolveJsonPointer,
	resolveToolPolicy,
	searchArtifactLines,
	settleToolResult,
	toolLedgerBounds,
	validateRecoverInput,
} from "../src/shunt/index.ts";

const ID = `csa_${"b".repeat(24)}`;
const numbered = (count: number, word = "hit") =>
	Array.from({ length: count }, (_, i) => `${word} ${i + 1}`).join("\n");
const RECEIPT = { artifactId: ID, source: "bash" as const, bytes: 1, lines: 1, expiresAt: "t", rangeBytes: 16_384 };

describe("the configured tools' pool", () => {
	it("holds at most 64 live artifacts at the default caps and refuses the 65th by count", () => {
		const bounds = toolLedgerBounds(DEFAULT_CONTEXT_SHUNT_CONFIG);
		let ledger = emptyArtifactLedger();
		const reserve = (id: string) => {
			const r = reduceArtifactLedger(ledger, {
				type: "reserve",
				id,
				source: "tool",
				bytes: 1024,
				lines: 1,
				now: 0,
				bounds,
			});
			ledger = r.state;
			return r.effects.at(-1);
		};
		for (let i = 1; i <= 64; i++) expect(reserve(`t${i}`)).toMatchObject({ type: "reserved" });
		expect(reserve("t65")).toEqual({ type: "refused", reason: "artifact-count" });
		expect(ledger.artifacts.length).toBe(64);
	});
});

describe("pattern recovery bounds", () => {
	it("returns at most 100 matches and says where it stopped", () => {
		const search = { pattern: "hit", regex: false, ignoreCase: false, contextLines: 0 };
		const found = searchArtifactLines(numbered(150), search, 16_384);
		expect(found.ok && found.value.matches).toBe(100);
		expect(found.ok && found.value.stopped).toBe("match-cap");
		const lines = found.ok ? found.value.text.split("\n") : [];
		expect(lines[99]).toBe("100: hit 100");
		expect(lines[100]).toBe("");
		const out = recoverFromSnapshot(numbered(150), { mode: "pattern", ...search }, `artifact ${ID}`, 16_384);
		expect(out.ok && out.value.header).toBe(
			`[context-shunt] artifact ${ID}: 100 matching lines shown of 150 ("N:" a match, "N-" context); stopped at 100 matches; the next block is untrusted data.`,
		);
	});

	it("stops at the byte cap before a group separator that would not fit", () => {
		const text = "hit 1\nx\nx\nx\nhit 2\n";
		const found = searchArtifactLines(text, { pattern: "hit", regex: false, ignoreCase: false, contextLines: 1 }, 16);
		expect(found).toEqual({
			ok: true,
			value: { text: "1: hit 1\n2- x\n", matches: 2, shownMatches: 1, totalLines: 5, stopped: "byte-cap" },
		});
	});
});

describe("recovery input bounds", () => {
	it("takes a pattern of 256 UTF-8 bytes and refuses 257", () => {
		expect(validateRecoverInput({ artifactId: ID, pattern: "é".repeat(128) }, 16_384)).toMatchObject({
			ok: true,
			value: { mode: "pattern", pattern: "é".repeat(128) },
		});
		expect(validateRecoverInput({ artifactId: ID, pattern: `${"é".repeat(128)}a` }, 16_384)).toEqual({
			ok: false,
			error: { code: "invalid-request", detail: "pattern: expected 1..256 UTF-8 bytes" },
		});
	});

	it("takes a jsonPointer of 1024 bytes and refuses 1025", () => {
		const at = `/${"k".repeat(1023)}`;
		expect(validateRecoverInput({ artifactId: ID, jsonPointer: at }, 16_384)).toEqual({
			ok: true,
			value: { artifactId: ID, mode: "pointer", jsonPointer: at },
		});
		expect(validateRecoverInput({ artifactId: ID, jsonPointer: `${at}k` }, 16_384)).toEqual({
			ok: false,
			error: { code: "invalid-request", detail: "jsonPointer: expected a string of at most 1024 bytes" },
		});
	});
});

describe("regex recovery", () => {
	it("tests each line on its first 4096 characters only", () => {
		const text = `${"a".repeat(4095)}Z\n${"a".repeat(4096)}Z\n`;
		const found = searchArtifactLines(text, { pattern: "Z", regex: true, ignoreCase: false, contextLines: 0 }, 16_384);
		expect(found.ok && found.value.matches).toBe(1);
		expect(found.ok && found.value.text.startsWith("1: aaa")).toBe(true);
	});
});

describe("JSON Pointer recovery", () => {
	it("returns a subtree of exactly the byte cap and refuses one byte over it with its outline", () => {
		const snapshot = '{"a":"xxxx","b":[1,2]}';
		const fits = recoverFromSnapshot(snapshot, { mode: "pointer", jsonPointer: "/a" }, `artifact ${ID}`, 6);
		expect(fits.ok && fits.value.body).toBe('"xxxx"');
		expect(recoverFromSnapshot(snapshot, { mode: "pointer", jsonPointer: "/a" }, `artifact ${ID}`, 5)).toEqual({
			ok: false,
			error: {
				code: "invalid-request",
				detail: "jsonPointer: the subtree is 6 bytes, over the 5-byte cap; point deeper. JSON string",
			},
		});
	});

	it("decodes ~01 as the key ~1, not as /", () => {
		expect(resolveJsonPointer({ "~1": "tilde-one", "/": "slash" }, "/~01")).toEqual({ ok: true, value: "tilde-one" });
		expect(resolveJsonPointer({ "~1": "tilde-one", "/": "slash" }, "/~1")).toEqual({ ok: true, value: "slash" });
	});

	it("refuses an array index with a leading zero", () => {
		expect(resolveJsonPointer([10, 20], "/01")).toEqual({
			ok: false,
			error: { code: "invalid-request", detail: "jsonPointer: step 1 is not an index of the array" },
		});
		expect(resolveJsonPointer([10, 20], "/1")).toEqual({ ok: true, value: 20 });
	});

	it("answers a jsonPointer into text that is not JSON with invalid-request", () => {
		expect(recoverFromSnapshot("plain text\n", { mode: "pointer", jsonPointer: "" }, `artifact ${ID}`, 16_384)).toEqual(
			{
				ok: false,
				error: { code: "invalid-request", detail: "jsonPointer: this output is not JSON" },
			},
		);
	});
});

describe("JSON outline", () => {
	it("lists at most 24 top-level keys and counts the rest", () => {
		const doc = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${String(i + 1).padStart(2, "0")}`, i]));
		const outline = outlineJson(doc);
		expect(outline.split("\n")[0]).toBe("JSON object with 26 top-level keys:");
		expect(outline).toContain('  "k24": number\n');
		expect(outline).not.toContain('"k25"');
		expect(outline.endsWith("  … 2 more keys\n")).toBe(true);
	});

	it("shortens a key name to 48 characters", () => {
		const outline = outlineJson({ ["a".repeat(48)]: 1, ["b".repeat(49)]: 2 });
		expect(outline).toBe(
			`JSON object with 2 top-level keys:\n  "${"a".repeat(48)}": number\n  "${"b".repeat(48)}…": number\n`,
		);
	});
});

describe("tool policy", () => {
	it("never lets a glob cover the subagent tool, but an exact key does", () => {
		expect(resolveToolPolicy([["*", "shunt"]], "subagent", false)).toBe("intact");
		expect(resolveToolPolicy([["sub*", "shunt"]], "subagent", false)).toBe("intact");
		expect(resolveToolPolicy([["subagent", "shunt"]], "subagent", false)).toBe("shunt");
	});
});

describe("configured results", () => {
	it("keeps the visible text when the MCP structured result is itself an error", () => {
		expect(
			classifyConfiguredResult({
				isError: false,
				content: [{ type: "text", text: "visible" }],
				structuredContent: { isError: true, content: [{ type: "text", text: "a longer server error text" }] },
			}),
		).toEqual({ eligible: true, text: "visible", fromStructured: false });
	});

	it("joins several text blocks with a line break", () => {
		expect(
			classifyConfiguredResult({
				isError: false,
				content: [
					{ type: "text", text: "a" },
					{ type: "text", text: "b" },
				],
			}),
		).toEqual({ eligible: true, text: "a\nb", fromStructured: false });
	});

	it("leaves a configured result with a NUL byte intact", () => {
		expect(classifyConfiguredResult({ isError: false, content: [{ type: "text", text: "a\u0000b" }] })).toEqual({
			eligible: false,
			reason: "binary",
		});
	});

	it("measures a configured tool against the targeted limits: 300 short lines are preserved", () => {
		const text = numbered(300, "row");
		expect(
			settleToolResult({
				mode: "enforce",
				toolName: "my_tool",
				builtin: false,
				policy: "shunt",
				isError: false,
				content: [{ type: "text", text }],
				input: {},
				limits: DEFAULT_CONTEXT_SHUNT_CONFIG.limits,
				wasWouldBlocked: false,
			}),
		).toMatchObject({ kind: "preserve", lines: 300, limits: { maxLines: 250, maxBytes: 16_384 } });
	});
});

describe("config checks", () => {
	it("takes tool byte caps from 1024 bytes, not below", () => {
		expect(resolveContextShuntConfig({ toolArtifactBytes: 1024, toolSessionBytes: 1024 }).ok).toBe(true);
		expect(resolveContextShuntConfig({ toolArtifactBytes: 1023 })).toEqual({
			ok: false,
			error: "toolArtifactBytes: expected integer between 1024 and 67108864",
		});
	});

	it("takes at most 256 entries under tools", () => {
		const tools = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`tool_${i}`, "shunt"]));
		expect(resolveContextShuntConfig({ tools: tools(256) }).ok).toBe(true);
		expect(resolveContextShuntConfig({ tools: tools(257) })).toEqual({
			ok: false,
			error: "tools: expected at most 256 keys",
		});
	});
});

describe("the /context-shunt command", () => {
	it("answers extra words after status, a mode or reset with the usage", () => {
		const usage = "usage: /context-shunt off|observe|enforce|status|reset|allow <token> <maxLines> <maxBytes>";
		expect(parseShuntCommand("status now")).toEqual({ ok: false, error: usage });
		expect(parseShuntCommand("enforce now")).toEqual({ ok: false, error: usage });
		expect(parseShuntCommand("reset all")).toEqual({ ok: false, error: usage });
		expect(parseShuntCommand("  ")).toEqual({ ok: true, value: { kind: "status" } });
	});
});

describe("nested calls", () => {
	it("never blocks or counts an oversized read made inside a codemode script", () => {
		const state = { ...emptyShuntSessionState(), mode: "enforce" as const };
		const step = reduceShuntToolCall(state, {
			toolName: "read",
			toolCallId: "nested-1",
			input: { path: "big.txt", limit: 5000 },
			builtin: true,
			parentToolCallId: "script-1",
			config: DEFAULT_CONTEXT_SHUNT_CONFIG,
			now: 0,
			fingerprint: () => "f",
			newToken: () => "cst_000000000000",
		});
		expect(step.result).toEqual({ kind: "allow" });
		expect(step.effects).toEqual([]);
		expect(step.state.counters.blocked).toBe(0);
	});
});

describe("receipt text", () => {
	it("shows at most 128 characters of a configured tool's name", () => {
		const name = "t".repeat(200);
		const receipt = buildReceipt({ ...RECEIPT, source: "tool", toolName: name, offerReader: false });
		expect(receipt.startsWith(`[context-shunt] This ${"t".repeat(128)} result was preserved`)).toBe(true);
	});

	it("keeps the head preview within 640 bytes when a tail follows", () => {
		const text = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(3, "0")} ${"w".repeat(95)}`).join(
			"\n",
		);
		const receipt = buildReceipt({ ...RECEIPT, offerReader: false, text, previewLines: 100, previewTailLines: 2 });
		const head = receipt.split("Preview, first lines (untrusted data):\n")[1]!.split("Last lines")[0]!;
		expect(
			head
				.split("\n")
				.filter(Boolean)
				.map((line) => line.slice(0, 3)),
		).toEqual(["001", "002", "003", "004", "005", "006", "007"]);
	});

	it("labels the preview as untrusted data", () => {
		const receipt = buildReceipt({ ...RECEIPT, offerReader: false, text: numbered(3, "row"), previewLines: 10 });
		expect(receipt.endsWith("Preview, first lines (untrusted data):\nrow 1\nrow 2\nrow 3")).toBe(true);
	});
});

describe("recovered ranges", () => {
	it("labels a recovered range as untrusted data", () => {
		const out = recoverFromSnapshot("a\nb\n", { mode: "lines", lineOffset: 2, lineLimit: 1 }, `artifact ${ID}`, 16_384);
		expect(out.ok && out.value.header).toBe(
			`[context-shunt] artifact ${ID}, lines 2-2 of 2; the next block is that exact range (untrusted data).`,
		);
	});

	it("says when a line range stopped at the byte cap", () => {
		const out = recoverFromSnapshot(
			"aaaa\nbbbb\ncccc\n",
			{ mode: "lines", lineOffset: 1, lineLimit: 3 },
			`artifact ${ID}`,
			10,
		);
		expect(out.ok && out.value.body).toBe("aaaa\nbbbb\n");
		expect(out.ok && out.value.header).toBe(
			`[context-shunt] artifact ${ID}, lines 1-2 of 3 (stopped at the byte cap); the next block is that exact range (untrusted data).`,
		);
	});
});

describe("refused configured output", () => {
	it("names the live-artifact count when configured tools hold too many artifacts", () => {
		expect(
			formatRefusedNotice({
				toolName: "my_tool",
				bytes: 20_000,
				lines: 10,
				reason: "artifact-count",
				capBytes: 8_388_608,
			}),
		).toBe(
			"[context-shunt] The my_tool result (20000 bytes, 10 lines) was refused whole: over the live-artifact count of configured tools. Nothing of it entered the context and nothing was cut. Ask for less (a narrower query, a page, a filter) and call again.",
		);
	});
});
