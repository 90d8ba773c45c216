// context-shunt beyond the built-ins: per-tool policy, caps, JSON outline and pointers, pattern search, strict tool
// parameters, head + tail receipts, settlement and the aging plan.
import { describe, expect, it } from "vitest";
import {
	applyAgingPlan,
	buildReceipt,
	checkToolParamsStrictly,
	collectAgingCandidates,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	DelegateParamsSchema,
	EMPTY_AGING_PLAN,
	emptyArtifactLedger,
	formatAgingStub,
	formatRefusedNotice,
	matchToolGlob,
	outlineJson,
	planAging,
	RecoverParamsSchema,
	recoverFromSnapshot,
	reduceArtifactLedger,
	resolveContextShuntConfig,
	resolveJsonPointer,
	resolveToolPolicy,
	searchArtifactLines,
	settleToolResult,
	simulateReservation,
	toolLedgerBounds,
	validateRecoverInput,
} from "../src/shunt/index.ts";
import { utf8ByteLength } from "../src/text.ts";

const ID = `csa_${"a".repeat(24)}`;

describe("per-tool policy", () => {
	it("matches globs literally except for *", () => {
		expect(matchToolGlob("mcp__*", "mcp__fs__read")).toBe(true);
		expect(matchToolGlob("mcp__*", "mcp_fs")).toBe(false);
		expect(matchToolGlob("*__read*", "mcp__fs__read_text_file")).toBe(true);
		expect(matchToolGlob("a*b*c", "abc")).toBe(true);
		expect(matchToolGlob("a*b*c", "acb")).toBe(false);
		expect(matchToolGlob("a.b", "axb")).toBe(false);
		expect(matchToolGlob("my_tool", "my_tool")).toBe(true);
	});

	it("lets an exact key win over globs, then the first glob, and leaves unlisted tools and built-ins intact", () => {
		const tools = [
			["mcp__*", "shunt"],
			["mcp__fs__*", "intact"],
			["mcp__fs__read", "intact"],
		] as const;
		expect(resolveToolPolicy(tools, "mcp__fs__read", false)).toBe("intact");
		expect(resolveToolPolicy(tools, "mcp__fs__list", false)).toBe("shunt");
		expect(resolveToolPolicy(tools, "other", false)).toBe("intact");
		expect(resolveToolPolicy([["*", "shunt"]], "bash", true)).toBe("intact");
		expect(resolveToolPolicy([["*", "shunt"]], "context_shunt_recover", false)).toBe("intact");
	});
});

describe("config", () => {
	it("keeps seed 004's defaults and adds the new ones", () => {
		const c = DEFAULT_CONTEXT_SHUNT_CONFIG;
		expect(c.tools).toEqual([]);
		expect(c.toolArtifactBytes).toBe(1_048_576);
		expect(c.toolSessionBytes).toBe(8_388_608);
		expect(c.aging).toEqual({ enabled: false, keepTurns: 4, atBytes: 200_000, atContextShare: 0.5 });
		expect(c.previewLines).toBe(10);
		expect(c.previewTailLines).toBe(8);
	});

	it("resolves tools, caps and aging, and rejects bad values with key paths", () => {
		const r = resolveContextShuntConfig({
			tools: { "mcp__*": "shunt", my_tool: "intact" },
			toolArtifactBytes: 2048,
			aging: { mode: "on", keepTurns: 2 },
		});
		expect(r.ok && r.value.tools).toEqual([
			["mcp__*", "shunt"],
			["my_tool", "intact"],
		]);
		expect(r.ok && r.value.aging).toEqual({ enabled: true, keepTurns: 2, atBytes: 200_000, atContextShare: 0.5 });
		expect(resolveContextShuntConfig({ tools: { x: "cut" } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ tools: { "a b": "shunt" } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ aging: { mode: "on", keepTurns: 0 } })).toMatchObject({ ok: false });
		expect(resolveContextShuntConfig({ aging: { atContextShare: 1.5 } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ aging: { extra: 1 } }).ok).toBe(false);
		expect(resolveContextShuntConfig({ toolArtifactBytes: 4096, toolSessionBytes: 2048 })).toEqual({
			ok: false,
			error: "toolArtifactBytes: expected at most toolSessionBytes",
		});
	});
});

describe("JSON", () => {
	const doc = { items: [{ id: 1, name: "a/b", tags: ["x"] }], "m~n": { "a/b": 7 }, total: 1, next: null };

	it("outlines type, top-level keys, array lengths and one element's shape, never values", () => {
		const outline = outlineJson({ ...doc, secretValue: "hunter2" });
		expect(outline).toContain("JSON object with 5 top-level keys");
		expect(outline).toContain('"items": array(1) of { "id": number, "name": string, "tags": array(1) }');
		expect(outline).toContain('"total": number');
		expect(outline).not.toContain("hunter2");
		expect(outlineJson([1, 2, 3])).toBe("JSON array(3) of number\n");
		const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key_${i}_${"k".repeat(60)}`, i]));
		expect(utf8ByteLength(outlineJson(wide))).toBeLessThanOrEqual(900);
	});

	it("resolves RFC 6901 pointers with escapes and rejects bad ones", () => {
		expect(resolveJsonPointer(doc, "")).toEqual({ ok: true, value: doc });
		expect(resolveJsonPointer(doc, "/items/0/name")).toEqual({ ok: true, value: "a/b" });
		expect(resolveJsonPointer(doc, "/m~0n/a~1b")).toEqual({ ok: true, value: 7 });
		expect(resolveJsonPointer(doc, "/next")).toEqual({ ok: true, value: null });
		for (const bad of ["items", "/items/01", "/items/1", "/items/-", "/nope", "/m~2n"]) {
			expect(resolveJsonPointer(doc, bad)).toMatchObject({ ok: false, error: { code: "invalid-request" } });
		}
	});

	it("recovers a subtree exactly, and over the cap returns the subtree's outline instead", () => {
		const text = JSON.stringify(doc);
		const r = recoverFromSnapshot(text, { mode: "pointer", jsonPointer: "/items/0" }, "artifact x", 16384);
		expect(r.ok && JSON.parse(r.value.body)).toEqual(doc.items[0]);
		const big = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i, s: "y".repeat(20) })) });
		const over = recoverFromSnapshot(big, { mode: "pointer", jsonPointer: "/rows" }, "artifact x", 16384);
		expect(over).toMatchObject({ ok: false, error: { code: "invalid-request" } });
		expect(!over.ok && over.error.detail).toContain("array(2000)");
		expect(recoverFromSnapshot("not json", { mode: "pointer", jsonPointer: "" }, "x", 100).ok).toBe(false);
	});
});

describe("pattern search", () => {
	const log = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}${(i + 1) % 1000 === 0 ? " ERROR boom" : ""}`).join(
		"\n",
	);

	it("returns matching lines with their line numbers and context", () => {
		const r = searchArtifactLines(log, { pattern: "ERROR", regex: false, ignoreCase: false, contextLines: 1 }, 16384);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.value.matches).toBe(5);
		expect(r.value.text.split("\n").slice(0, 4)).toEqual([
			"999- line 999",
			"1000: line 1000 ERROR boom",
			"1001- line 1001",
			"--",
		]);
		expect(r.value.text).toContain("5000: line 5000 ERROR boom\n");
	});

	it("supports bounded regexes, stops at the byte cap, and rejects risky or slow ones", () => {
		const r = searchArtifactLines(
			log,
			{ pattern: "^line 4\\d{3}$", regex: true, ignoreCase: false, contextLines: 0 },
			16384,
		);
		expect(r.ok && r.value.stopped).toBe("match-cap");
		const capped = searchArtifactLines(log, { pattern: "line", regex: false, ignoreCase: false, contextLines: 0 }, 50);
		expect(capped.ok && capped.value.stopped).toBe("byte-cap");
		expect(capped.ok && utf8ByteLength(capped.value.text)).toBeLessThanOrEqual(50);
		for (const pattern of ["(a+)+$", "(x*)*", "(a)\\1", "[", ""]) {
			expect(searchArtifactLines(log, { pattern, regex: true, ignoreCase: false, contextLines: 0 }, 100).ok).toBe(
				false,
			);
		}
		let t = 0;
		const slow = searchArtifactLines(
			log,
			{ pattern: "zzz", regex: true, ignoreCase: false, contextLines: 0 },
			100,
			() => (t += 100),
		);
		expect(slow).toMatchObject({ ok: false, error: { detail: expect.stringContaining("too long") } });
		const ci = searchArtifactLines(
			"Alpha\nbeta\n",
			{ pattern: "ALPHA", regex: false, ignoreCase: true, contextLines: 0 },
			100,
		);
		expect(ci.ok && ci.value.text).toBe("1: Alpha\n");
	});

	it("validates the pattern form and its exclusivity", () => {
		expect(validateRecoverInput({ artifactId: ID, pattern: "x" }, 16384)).toEqual({
			ok: true,
			value: { artifactId: ID, mode: "pattern", pattern: "x", regex: false, ignoreCase: false, contextLines: 2 },
		});
		expect(validateRecoverInput({ toolCallId: "call_1", jsonPointer: "/a" }, 16384)).toEqual({
			ok: true,
			value: { toolCallId: "call_1", mode: "pointer", jsonPointer: "/a" },
		});
		expect(validateRecoverInput({ artifactId: ID, pattern: "x", lineOffset: 1 }, 16384).ok).toBe(false);
		expect(validateRecoverInput({ artifactId: ID, toolCallId: "c" }, 16384).ok).toBe(false);
		expect(validateRecoverInput({ artifactId: ID, contextLines: 6, pattern: "x" }, 16384).ok).toBe(false);
		expect(validateRecoverInput({ toolCallId: "has space" }, 16384).ok).toBe(false);
	});
});

describe("strict tool parameters", () => {
	it('rejects what the host would coerce: 1.5, "10", unknown keys, out-of-range values', () => {
		for (const raw of [
			{ artifactId: ID, lineOffset: 1.5 },
			{ artifactId: ID, lineOffset: "10" },
			{ artifactId: ID, lineLimit: 251 },
			{ artifactId: ID, contextLines: 9, pattern: "x" },
			{ artifactId: ID, extra: true },
			{ artifactId: "csa_bad" },
		]) {
			const r = checkToolParamsStrictly(RecoverParamsSchema, raw);
			expect(r).toMatchObject({ ok: false, error: { code: "invalid-request" } });
			expect(!r.ok && r.error.detail).not.toContain("csa_bad");
		}
		expect(checkToolParamsStrictly(RecoverParamsSchema, { artifactId: ID, lineOffset: 10 }).ok).toBe(true);
		expect(checkToolParamsStrictly(DelegateParamsSchema, { artifactId: ID, question: "q", thinking: "loud" }).ok).toBe(
			false,
		);
		expect(checkToolParamsStrictly(DelegateParamsSchema, { artifactId: ID, question: "q", thinking: "off" }).ok).toBe(
			true,
		);
	});
});

describe("receipts", () => {
	const base = { artifactId: ID, source: "bash" as const, bytes: 1, lines: 1, expiresAt: "t", rangeBytes: 16384 };

	it("shows the head and the tail within 2 KiB", () => {
		const text = Array.from({ length: 500 }, (_, i) => `row ${i + 1}`).join("\n");
		const r = buildReceipt({ ...base, offerReader: false, text, previewLines: 12, previewTailLines: 8 });
		expect(r).toContain("row 1\n");
		expect(r).toContain("row 12\n");
		expect(r).not.toContain("row 13\n");
		expect(r).toContain("Last lines, from line 493 of 500");
		expect(r.endsWith("row 500")).toBe(true);
		expect(utf8ByteLength(r)).toBeLessThanOrEqual(2048);
		const wide = `${"é".repeat(3000)}\n`.repeat(30);
		expect(
			utf8ByteLength(buildReceipt({ ...base, offerReader: true, text: wide, previewLines: 12, previewTailLines: 8 })),
		).toBeLessThanOrEqual(2048);
		expect(
			buildReceipt({ ...base, offerReader: false, text: "a\nb\n", previewLines: 12, previewTailLines: 8 }),
		).not.toContain("Last lines");
	});

	it("carries a JSON outline for JSON and a bounded refused notice", () => {
		const r = buildReceipt({
			...base,
			source: "tool",
			toolName: "mcp__api__list",
			offerReader: false,
			jsonOutline: "JSON array(3) of number\n",
		});
		expect(r).toContain("This mcp__api__list JSON result was preserved");
		expect(r).toContain('"jsonPointer"');
		expect(r).toContain("JSON array(3) of number");
		const notice = formatRefusedNotice({
			toolName: "my_tool",
			bytes: 2_000_000,
			lines: 9,
			reason: "artifact-too-large",
			capBytes: 1_048_576,
		});
		expect(notice).toContain("refused whole");
		expect(notice).toContain("1048576-byte cap");
		expect(utf8ByteLength(notice)).toBeLessThanOrEqual(2048);
	});
});

describe("settlement and the tool pool", () => {
	const limits = DEFAULT_CONTEXT_SHUNT_CONFIG.limits;
	const big = "x\n".repeat(20_000);
	const settle = (over: Partial<Parameters<typeof settleToolResult>[0]>) =>
		settleToolResult({
			mode: "enforce",
			toolName: "my_tool",
			builtin: false,
			policy: "shunt",
			isError: false,
			content: [{ type: "text", text: big }],
			input: {},
			limits,
			wasWouldBlocked: false,
			...over,
		});

	it("preserves a configured tool's over-limit text and JSON, and leaves unconfigured tools intact", () => {
		expect(settle({})).toMatchObject({ kind: "preserve", source: "tool", bytes: 40_000, jsonOutline: undefined });
		const json = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ i })));
		expect(settle({ content: [{ type: "text", text: json }] })).toMatchObject({
			kind: "preserve",
			jsonOutline: 'JSON array(3000) of { "i": number }\n',
		});
		expect(settle({ policy: "intact" })).toEqual({ kind: "pass" });
		expect(settle({ isError: true })).toEqual({ kind: "pass" });
		expect(settle({ content: [{ type: "image", data: "", mimeType: "image/png" }] })).toEqual({ kind: "pass" });
		expect(settle({ mode: "observe" })).toMatchObject({ kind: "would-bound", source: "tool" });
		expect(settle({ mode: "off" })).toEqual({ kind: "pass" });
		// Built-in JSON stays intact at the defaults (seed 004), whatever the tools policy says.
		expect(settle({ toolName: "bash", builtin: true, content: [{ type: "text", text: json }] })).toEqual({
			kind: "pass",
		});
	});

	it("prefers the untruncated text of an MCP CallToolResult", () => {
		const full = "y\n".repeat(30_000);
		const cut = `${full.slice(0, 100)}…cut…`;
		expect(
			settle({
				content: [{ type: "text", text: cut }],
				structuredContent: { content: [{ type: "text", text: full }] },
			}),
		).toMatchObject({ kind: "preserve", bytes: 60_000 });
	});

	it("gives configured tools their own pool and caps", () => {
		const bounds = toolLedgerBounds({ toolArtifactBytes: 1_048_576, toolSessionBytes: 2_097_152 });
		let ledger = emptyArtifactLedger();
		const reserve = (id: string, source: "tool" | "bash", bytes: number) => {
			const r = reduceArtifactLedger(ledger, { type: "reserve", id, source, bytes, lines: 1, now: 0, bounds });
			ledger = r.state;
			return r.effects.at(-1);
		};
		expect(reserve("a", "tool", 1_048_576)).toMatchObject({ type: "reserved" });
		expect(reserve("b", "tool", 1_048_577)).toEqual({ type: "refused", reason: "artifact-too-large" });
		expect(reserve("c", "bash", 65_536)).toMatchObject({ type: "reserved" });
		expect(reserve("d", "bash", 65_537)).toEqual({ type: "refused", reason: "artifact-too-large" });
		expect(reserve("e", "tool", 1_048_576)).toMatchObject({ type: "reserved" });
		expect(reserve("f", "tool", 1)).toEqual({ type: "refused", reason: "session-bytes" });
		const sim = simulateReservation(
			emptyArtifactLedger(),
			{ source: "tool", bytes: 2_000_000, lines: 1 },
			"s",
			0,
			bounds,
		);
		expect(sim.admitted).toBe(false);
	});
});

describe("aging plan", () => {
	const settings = { keepTurns: 2, atBytes: 10_000, atContextShare: 0.5 };
	const candidate = (id: string, turnsAgo: number, bytes = 3000, agable = true) => ({
		id,
		toolName: "read",
		bytes,
		lines: 10,
		turnsAgo,
		agable,
	});

	it("ages nothing below the thresholds, and a batch of everything keepTurns old when crossed", () => {
		const below = planAging({ candidates: [candidate("a", 2), candidate("b", 1)], last: EMPTY_AGING_PLAN, settings });
		expect(below).toMatchObject({ newBatch: false, plan: EMPTY_AGING_PLAN });
		const four = [
			candidate("a", 4),
			candidate("b", 3, 3000, false),
			candidate("c", 2),
			candidate("d", 1),
			candidate("e", 0),
		];
		const crossed = planAging({ candidates: four, last: EMPTY_AGING_PLAN, settings });
		expect(crossed.newBatch).toBe(true);
		expect(crossed.plan).toEqual({ aged: ["a", "c"], batches: 1 });
		expect(crossed.keptOutBytes).toBe(2 * (3000 - utf8ByteLength(formatAgingStub(candidate("a", 4)))));
		expect(planAging({ candidates: four, last: EMPTY_AGING_PLAN, settings, contextShare: 0.6 }).newBatch).toBe(true);
	});

	it("keeps the set unchanged between batches (the same plan object), and drops ids no longer present", () => {
		const first = planAging({
			candidates: [candidate("a", 3), candidate("b", 2), candidate("c", 1), candidate("d", 0, 6000)],
			last: EMPTY_AGING_PLAN,
			settings,
		}).plan;
		expect(first.aged).toEqual(["a", "b"]);
		const next = planAging({
			candidates: [
				candidate("a", 4),
				candidate("b", 3),
				candidate("c", 2),
				candidate("d", 1, 6000),
				candidate("e", 0, 10),
			],
			last: first,
			settings,
		});
		expect(next.newBatch).toBe(false);
		expect(next.plan).toBe(first);
		const compacted = planAging({ candidates: [candidate("b", 3), candidate("e", 0, 10)], last: first, settings });
		expect(compacted.plan).toEqual({ aged: ["b"], batches: 1 });
	});

	it("collects candidates by model turn and replaces only aged contents", () => {
		const messages = [
			{ role: "user", content: "go" },
			{ role: "assistant", content: [] },
			{
				role: "toolResult",
				toolCallId: "t1",
				toolName: "read",
				isError: false,
				content: [{ type: "text", text: "r".repeat(600) }],
			},
			{
				role: "toolResult",
				toolCallId: "t2",
				toolName: "bash",
				isError: true,
				content: [{ type: "text", text: "e".repeat(600) }],
			},
			{ role: "assistant", content: [] },
			{
				role: "toolResult",
				toolCallId: "t3",
				toolName: "read",
				isError: false,
				content: [{ type: "image", data: "", mimeType: "image/png" }],
			},
			{ role: "assistant", content: [] },
			{
				role: "toolResult",
				toolCallId: "t4",
				toolName: "read",
				isError: false,
				content: [{ type: "text", text: "small" }],
			},
		];
		const candidates = collectAgingCandidates(messages);
		expect(candidates.map((c) => [c.id, c.turnsAgo, c.agable])).toEqual([
			["t1", 2, true],
			["t2", 2, false],
			["t3", 1, false],
			["t4", 0, false],
		]);
		const aged = applyAgingPlan(messages, { aged: ["t1"], batches: 1 }, candidates);
		expect(aged).toHaveLength(messages.length);
		expect(aged.map((m) => m.role)).toEqual(messages.map((m) => m.role));
		expect((aged[2] as { content: Array<{ text: string }> }).content[0]?.text).toBe(formatAgingStub(candidates[0]!));
		expect(aged[3]).toBe(messages[3]);
		expect(applyAgingPlan(messages, EMPTY_AGING_PLAN, candidates)).toBe(messages);
	});
});

describe("pattern search without context", () => {
	it("lists matching lines without group separators", () => {
		const r = searchArtifactLines(
			"a\nb\na\nc\na\n",
			{ pattern: "a", regex: false, ignoreCase: false, contextLines: 0 },
			100,
		);
		expect(r.ok && r.value.text).toBe("1: a\n3: a\n5: a\n");
	});
});
