// Aging in a real Pi session: old tool results become one-line stubs in batches, the message prefix stays stable
// between batches, stubs recover exactly from the session, and compaction and /tree leave no dangling handle.
import type { Message } from "@earendil-works/pi-ai";
import { callTool, type Harness, type ModelRequest } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { makeLog, type ShuntSession, startShunt } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

const TURNS = 60;
const files = Object.fromEntries(
	Array.from({ length: TURNS }, (_, i) => [`f${i + 1}.txt`, makeLog(150, 39, `file${i + 1}`)]),
);
const readTurns = (from = 1, to = TURNS) =>
	Array.from({ length: to - from + 1 }, (_, i) => callTool("read", { path: `f${from + i}.txt` }, `r-${from + i}`));

/** True when every message of `before` appears, byte-identical, at the same place at the start of `after`. */
function prefixStable(before: ModelRequest, after: ModelRequest): boolean {
	if (after.messages.length < before.messages.length) return false;
	return before.messages.every((message, i) => JSON.stringify(message) === JSON.stringify(after.messages[i]));
}

const STUB =
	/\[context-shunt aged: (\w+) result, (\d+) bytes, (\d+) lines; context_shunt_recover \{"toolCallId":"([^"]+)"\}\]/g;

function stubHandles(request: ModelRequest): string[] {
	const text = request.messages
		.filter((m: Message) => m.role === "toolResult")
		.flatMap((m) => (m.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? ""))
		.join("\n");
	return [...text.matchAll(STUB)].map((match) => match[4] as string);
}

function branchResultIds(h: Harness): Set<string> {
	const ids = new Set<string>();
	for (const entry of h.session.sessionManager.getBranch()) {
		const message = (entry as { type: string; message?: { role?: string; toolCallId?: string } }).message;
		if (entry.type === "message" && message?.role === "toolResult" && message.toolCallId) ids.add(message.toolCallId);
	}
	return ids;
}

function original(h: Harness, id: string): string {
	const result = h.toolResults().find((r) => r.toolCallId === id);
	if (result === undefined) throw new Error(`no result ${id}`);
	return h.toolResultText(result);
}

const recovered = (h: Harness, index: number) =>
	(h.toolResults()[index]?.content as Array<{ text: string }> | undefined)?.[1]?.text;

describe("aging", () => {
	it("ages old results in batches over 60 turns, keeps the prefix stable between batches, and recovers a stub exactly", async () => {
		session = await startShunt({ aging: { mode: "on", keepTurns: 4, atBytes: 100_000 } }, {}, { files });
		const h = session.harness;
		h.script(...readTurns(), "done");
		await h.prompt("read everything");
		expect(h.requests).toHaveLength(TURNS + 1);

		// Stubs appear, and the newest keepTurns turns are never aged.
		const last = h.requests.at(-1)!;
		const handles = stubHandles(last);
		expect(handles.length).toBeGreaterThan(40);
		for (const recent of ["r-57", "r-58", "r-59", "r-60"]) expect(handles).not.toContain(recent);
		expect(JSON.stringify(last.messages)).toContain("file60 150");
		expect(JSON.stringify(last.messages)).not.toContain("file1 150");
		// The message list is unchanged in order and role.
		expect(last.messages.map((m) => m.role)).toEqual(
			h.session.messages.slice(0, last.messages.length).map((m) => m.role),
		);
		expect(last.messages.filter((m) => m.role === "toolResult")).toHaveLength(TURNS);

		// The set of aged results changes only at a batch: every other consecutive pair keeps its prefix.
		const batches = session.audit().filter((e) => e.event === "aged").length;
		expect(batches).toBeGreaterThanOrEqual(3);
		let breaks = 0;
		for (let i = 1; i < h.requests.length; i++) if (!prefixStable(h.requests[i - 1]!, h.requests[i]!)) breaks++;
		expect(breaks).toBe(batches);
		expect((h.requests.length - 1 - breaks) / (h.requests.length - 1)).toBeGreaterThanOrEqual(0.9);
		// Peak request bytes stay well under a stock session's (every result whole).
		const peak = Math.max(...h.requests.map((r) => h.requestBytes(r)));
		const stockToolBytes = Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
		expect(peak).toBeLessThan(stockToolBytes * 0.5);

		// A stub comes back exactly, as a range and by pattern.
		h.script(
			callTool("context_shunt_recover", { toolCallId: "r-3", lineOffset: 1, lineLimit: 250 }, "x-1"),
			callTool("context_shunt_recover", { toolCallId: "r-3", pattern: "file3 77 ", contextLines: 0 }, "x-2"),
			"done",
		);
		await h.prompt("recover");
		expect(recovered(h, TURNS)).toBe(original(h, "r-3"));
		expect(recovered(h, TURNS + 1)).toBe(`77: ${makeLog(150, 39, "file3").split("\n")[76]}\n`);

		await h.command("/context-shunt status");
		const status = h.ui!.notifications().at(-1)!.message;
		expect(status).toMatch(/aging on · aged \d+ results \(\d+ bytes kept out\) · batches \d+/);
		expect(status).toContain("mode off");
	});

	it("starts again from the new branch after /tree, and a handle from another branch is a bounded error", async () => {
		session = await startShunt({ aging: { mode: "on", keepTurns: 2, atBytes: 20_000 } }, {}, { files });
		const h = session.harness;
		h.script(...readTurns(1, 10), "done");
		await h.prompt("first ten");
		const fork = h.session.sessionManager.getLeafId();
		h.script(...readTurns(11, 30), "done");
		await h.prompt("twenty more");
		expect(stubHandles(h.requests.at(-1)!)).toContain("r-20");
		if (fork) await h.session.navigateTree(fork, { summarize: false });
		h.script(callTool("context_shunt_recover", { toolCallId: "r-20" }, "x-1"), ...readTurns(31, 36), "done");
		await h.prompt("other branch");
		const error = h.toolResults().find((r) => r.toolCallId === "x-1")!;
		expect(error.isError).toBe(true);
		expect(h.toolResultText(error)).toBe(
			"context_shunt_recover failed: evidence-expired: the preserved source is gone (no tool result with this id on this branch).",
		);
		const onBranch = branchResultIds(h);
		const requestsAfter = h.requests.slice(-7);
		for (const request of requestsAfter) {
			for (const handle of stubHandles(request)) expect(onBranch.has(handle)).toBe(true);
			expect(stubHandles(request)).not.toContain("r-20");
		}
	});

	it("leaves no dangling handle after compaction: every stub recovers from the branch", async () => {
		session = await startShunt({ aging: { mode: "on", keepTurns: 2, atBytes: 20_000 } }, {}, { files });
		const h = session.harness;
		h.script(...readTurns(1, 20), "done");
		await h.prompt("twenty");
		h.script("Summary: read twenty files.");
		await h.session.compact();
		h.script(...readTurns(21, 32), "done");
		await h.prompt("twelve more");
		const after = h.requests.at(-1)!;
		const handles = stubHandles(after);
		expect(handles.length).toBeGreaterThan(0);
		const onBranch = branchResultIds(h);
		for (const handle of handles) expect(onBranch.has(handle)).toBe(true);
		const one = handles[0]!;
		h.script(callTool("context_shunt_recover", { toolCallId: one }, "x-1"), "done");
		await h.prompt("recover");
		expect(recovered(h, h.toolResults().length - 1)).toBe(original(h, one));
	});

	it("does nothing at the defaults: the context handler leaves every request whole", async () => {
		session = await startShunt(undefined, {}, { files });
		const h = session.harness;
		h.script(...readTurns(1, 20), "done");
		await h.prompt("twenty");
		for (const request of h.requests) expect(stubHandles(request)).toEqual([]);
		for (let i = 1; i < h.requests.length; i++) expect(prefixStable(h.requests[i - 1]!, h.requests[i]!)).toBe(true);
		expect(h.requests.at(-1)!.toolNames).not.toContain("context_shunt_recover");
	});
});
