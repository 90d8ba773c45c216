// context-shunt beyond the built-ins, in a real Pi session: configured extension tools, JSON outline receipts with
// jsonPointer recovery, pattern recovery with line numbers, caps that refuse whole, and strict tool parameters.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool } from "@pi-policy/pi-harness";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, makeLog, originalsProbe, SHUNT_TOOLS, type ShuntSession, startShunt } from "./helpers.ts";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

/** An extension that registers tools returning fixed texts. */
function textTools(outputs: Record<string, string>): (pi: ExtensionAPI) => void {
	return (pi) => {
		for (const [name, text] of Object.entries(outputs)) {
			pi.registerTool({
				name,
				label: name,
				description: `Test tool ${name}`,
				parameters: Type.Object({}),
				async execute() {
					return { content: [{ type: "text", text }], details: {} };
				},
			});
		}
	};
}

function bigJson(): string {
	const items = Array.from({ length: 1500 }, (_, i) => ({
		id: i,
		title: `Issue number ${i} about the parser`,
		labels: ["bug", i % 2 === 0 ? "p1" : "p2"],
		body: "b".repeat(120),
	}));
	return JSON.stringify({ total: items.length, items, page: { next: null, size: 1500 } }, null, 2);
}

const body = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[1]?.text ?? "";

describe("configured tools", () => {
	it("preserves a configured tool's 200 KB result as an artifact, and passes an unconfigured one intact", async () => {
		const text = makeLog(5000, 39, "out");
		expect(bytes(text)).toBe(200_000);
		const originals = new Map<string, string>();
		session = await startShunt(
			{ mode: "enforce", tools: { "my_*": "shunt", my_other: "intact" } },
			{},
			{
				tools: [...SHUNT_TOOLS, "my_tool", "my_other", "plain_tool"],
				before: [textTools({ my_tool: text, my_other: text, plain_tool: text }), originalsProbe(originals)],
			},
		);
		const h = session.harness;
		h.script(
			callTool("my_tool", {}, "t-1"),
			callTool("my_other", {}, "t-2"),
			callTool("plain_tool", {}, "t-3"),
			"done",
		);
		await h.prompt("go");
		const receipt = session.text(0);
		expect(receipt).toContain("This my_tool result was preserved as artifact");
		expect(receipt).toContain("200000 bytes, 5000 lines");
		expect(bytes(receipt)).toBeLessThanOrEqual(2048);
		expect(session.text(1)).toBe(text);
		expect(session.text(2)).toBe(text);
		expect(
			session
				.audit()
				.filter((e) => e.event === "bounded")
				.map((e) => e.category),
		).toEqual(["tool"]);
		// Every byte of it is recoverable.
		const id = artifactIdOf(receipt);
		h.script(callTool("context_shunt_recover", { artifactId: id, byteOffset: 100_000, maxBytes: 16_384 }, "r-1"), "ok");
		await h.prompt("recover");
		expect(body(h.toolResults()[3]!)).toBe(Buffer.from(text).subarray(100_000, 116_384).toString("utf8"));
	});

	it("keeps a configured tool under the limits intact, and leaves everything intact at the defaults", async () => {
		session = await startShunt(
			{ mode: "enforce" },
			{},
			{
				tools: [...SHUNT_TOOLS, "my_tool", "small_tool"],
				before: [textTools({ my_tool: makeLog(5000), small_tool: "ok" })],
			},
		);
		session.harness.script(callTool("my_tool", {}, "t-1"), "done");
		await session.harness.prompt("go");
		expect(session.text(0)).toBe(makeLog(5000));
	});

	it("refuses a configured tool's output over toolArtifactBytes whole, with a bounded notice", async () => {
		const text = makeLog(5000, 39, "out");
		session = await startShunt(
			{ mode: "enforce", tools: { my_tool: "shunt" }, toolArtifactBytes: 65_536 },
			{},
			{ tools: [...SHUNT_TOOLS, "my_tool"], before: [textTools({ my_tool: text })] },
		);
		session.harness.script(callTool("my_tool", {}, "t-1"), "done");
		await session.harness.prompt("go");
		const notice = session.text(0);
		expect(notice).toContain("was refused whole");
		expect(notice).toContain("65536-byte cap of one artifact");
		expect(notice).not.toContain("out 1 ");
		expect(bytes(notice)).toBeLessThanOrEqual(2048);
		expect(session.harness.toolResults()[0]!.isError).toBe(true);
		expect(session.audit().map((e) => e.event)).toContain("refused");
	});
});

describe("bash receipts", () => {
	it("keep Pi's fullOutputPath in details when Pi truncated the log", async () => {
		session = await startShunt({ mode: "enforce" });
		const h = session.harness;
		h.script(
			callTool("bash", { command: 'for i in $(seq 1 6000); do echo "line $i of the long build log"; done' }, "b-1"),
			"done",
		);
		await h.prompt("build");
		const result = h.toolResults()[0]!;
		expect(h.toolResultText(result)).toContain("This bash result was preserved");
		const details = result.details as { fullOutputPath?: unknown; contextShunt?: { source?: string } };
		expect(details.contextShunt?.source).toBe("bash");
		expect(typeof details.fullOutputPath).toBe("string");
		expect(String(details.fullOutputPath)).toMatch(/\.log$/);
	});
});

describe("JSON and pattern recovery", () => {
	it("gives a 300 KB JSON result an outline receipt, and jsonPointer returns the exact subtree", async () => {
		const json = bigJson();
		expect(bytes(json)).toBeGreaterThan(300_000);
		session = await startShunt(
			{ mode: "enforce", tools: { issues_list: "shunt" } },
			{},
			{ tools: [...SHUNT_TOOLS, "issues_list"], before: [textTools({ issues_list: json })] },
		);
		const h = session.harness;
		h.script(callTool("issues_list", {}, "j-1"), "done");
		await h.prompt("list");
		const receipt = session.text(0);
		expect(receipt).toContain("This issues_list JSON result was preserved");
		expect(receipt).toContain("JSON object with 3 top-level keys");
		expect(receipt).toContain(
			'"items": array(1500) of { "id": number, "title": string, "labels": array(2), "body": string }',
		);
		expect(receipt).not.toContain("Issue number");
		expect(bytes(receipt)).toBeLessThanOrEqual(2048);
		const id = artifactIdOf(receipt);
		h.script(
			callTool("context_shunt_recover", { artifactId: id, jsonPointer: "/items/1234" }, "r-1"),
			callTool("context_shunt_recover", { artifactId: id, jsonPointer: "/page" }, "r-2"),
			callTool("context_shunt_recover", { artifactId: id, jsonPointer: "/items" }, "r-3"),
			callTool("context_shunt_recover", { artifactId: id, jsonPointer: "/nope/0" }, "r-4"),
			"done",
		);
		await h.prompt("recover");
		const results = h.toolResults();
		const parsed = JSON.parse(json) as { items: unknown[]; page: unknown };
		expect(JSON.parse(body(results[1]!))).toEqual(parsed.items[1234]);
		expect(JSON.parse(body(results[2]!))).toEqual(parsed.page);
		expect(results[3]!.isError).toBe(true);
		expect(h.toolResultText(results[3]!)).toContain("over the 16384-byte cap; point deeper. JSON array(1500)");
		expect(h.toolResultText(results[4]!)).toContain("invalid-request");
	});

	it("finds the lines of a 5,000-line log by pattern, with correct line numbers and context", async () => {
		const lines = Array.from({ length: 5000 }, (_, i) =>
			(i + 1) % 997 === 0 ? `${i + 1} FAILED test_case_${i + 1}` : `${i + 1} ok test_case_${i + 1}`,
		);
		const log = `${lines.join("\n")}\n`;
		session = await startShunt(
			{ mode: "enforce", tools: { ci_log: "shunt" } },
			{},
			{ tools: [...SHUNT_TOOLS, "ci_log"], before: [textTools({ ci_log: log })] },
		);
		const h = session.harness;
		h.script(callTool("ci_log", {}, "l-1"), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		h.script(
			callTool("context_shunt_recover", { artifactId: id, pattern: "FAILED", contextLines: 1 }, "p-1"),
			callTool(
				"context_shunt_recover",
				{ artifactId: id, pattern: "^4\\d{3} FAILED", regex: true, contextLines: 0 },
				"p-2",
			),
			callTool("context_shunt_recover", { artifactId: id, pattern: "(a+)+", regex: true }, "p-3"),
			"done",
		);
		await h.prompt("search");
		const results = h.toolResults();
		const found = body(results[1]!)
			.split("\n")
			.filter((line) => line.length > 0);
		const expected: string[] = [];
		for (const n of [997, 1994, 2991, 3988, 4985]) {
			if (expected.length > 0) expected.push("--");
			expected.push(`${n - 1}- ${lines[n - 2]}`, `${n}: ${lines[n - 1]}`, `${n + 1}- ${lines[n]}`);
		}
		expect(found).toEqual(expected);
		expect(h.toolResultText(results[1]!)).toContain("5 matching lines shown of 5000");
		expect(body(results[2]!)).toBe("4985: 4985 FAILED test_case_4985\n");
		expect(results[3]!.isError).toBe(true);
		expect(h.toolResultText(results[3]!)).toContain("nested quantifiers");
	});

	it('rejects what the host would coerce (lineOffset 1.5 or "10") with a bounded error', async () => {
		session = await startShunt(
			{ mode: "enforce", tools: { ci_log: "shunt" } },
			{},
			{ tools: [...SHUNT_TOOLS, "ci_log"], before: [textTools({ ci_log: makeLog(1000) })] },
		);
		const h = session.harness;
		h.script(callTool("ci_log", {}, "l-1"), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		h.script(
			callTool("context_shunt_recover", { artifactId: id, lineOffset: 1.5 }, "x-1"),
			callTool("context_shunt_recover", { artifactId: id, lineOffset: "10" }, "x-2"),
			callTool("context_shunt_recover", { artifactId: id, lineOffset: 10, lineLimit: 1 }, "x-3"),
			"done",
		);
		await h.prompt("recover");
		const results = h.toolResults();
		for (const index of [1, 2]) {
			expect(results[index]!.isError).toBe(true);
			expect(h.toolResultText(results[index]!)).toMatch(
				/^context_shunt_recover failed: invalid-request: .*lineOffset: expected integer/,
			);
		}
		expect(body(results[3]!)).toBe(makeLog(1000).split("\n")[9] + "\n");
	});
});
