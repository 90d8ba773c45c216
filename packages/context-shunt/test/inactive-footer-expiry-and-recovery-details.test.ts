// context-shunt in a real Pi session, edges a maintainer audit found unpinned: the inactive footer, damaged and
// expired artifacts in status, and what recovery reports (details, audit, headers, errors).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { callTool } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, makeLog, type ShuntSession, startShunt } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

describe("the footer", () => {
	it("shows shunt:inactive while an invalid project layer leaves the extension inactive", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { projectConfig: { "context-shunt": { mode: "loud" } } });
		expect(session.harness.ui?.statuses.get("context-shunt")).toBe("shunt:inactive");
	});
});

describe("damaged artifacts", () => {
	it("answers evidence-expired for an artifact whose file changed, and no longer counts it", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		await writeFile(join(session.storeDirs[0]!, id), makeLog(600).replace("log 7 ", "LOG 7 "));
		h.script(callTool("context_shunt_recover", { artifactId: id, lineOffset: 1, lineLimit: 10 }), "done");
		await h.prompt("recover");
		expect(session.lastToolText()).toBe(
			"context_shunt_recover failed: evidence-expired: the preserved source is gone.",
		);
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message.split("\n")[2]).toBe("artifacts 0 (0 bytes) · reader off");
	});
});

describe("status and expiry", () => {
	it("shows no artifact in status once it has expired, even before its cleanup timer runs", async () => {
		let now = Date.UTC(2025, 0, 1);
		session = await startShunt(
			{ mode: "enforce" },
			{ now: () => now, setTimer: () => 0, clearTimer: () => undefined },
			{ files: { "big.log": makeLog(600) } },
		);
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message.split("\n")[2]).toBe("artifacts 1 (24600 bytes) · reader off");
		now += 30 * 60 * 1000;
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message.split("\n")[2]).toBe("artifacts 0 (0 bytes) · reader off");
	});
});

describe("what recovery reports", () => {
	it("names its target and the range in details, and audits the recovered bytes only", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		h.script(callTool("context_shunt_recover", { artifactId: id, lineOffset: 2, lineLimit: 2 }), "done");
		await h.prompt("recover");
		const result = h.toolResults().at(-1)!;
		expect(result.details).toEqual({
			artifactId: id,
			mode: "lines",
			startLine: 2,
			endLine: 3,
			byteStart: 41,
			byteEnd: 123,
			totalLines: 600,
			totalBytes: 24600,
		});
		expect(session.audit().at(-1)).toEqual({
			v: 1,
			ext: "context-shunt",
			event: "recovered",
			mode: "enforce",
			counters: { bytes: 82 },
		});
	});

	it("names an aged result by its tool call id in the header", async () => {
		session = await startShunt({ mode: "off", aging: { mode: "on" } }, {}, { files: { "a.txt": "alpha\nbeta\n" } });
		const h = session.harness;
		h.script(callTool("read", { path: "a.txt" }, "call-a"), "done");
		await h.prompt("read");
		h.script(callTool("context_shunt_recover", { toolCallId: "call-a", lineOffset: 2, lineLimit: 1 }), "done");
		await h.prompt("recover");
		const result = h.toolResults().at(-1)!;
		expect((result.content as Array<{ text: string }>).map((block) => block.text)).toEqual([
			"[context-shunt] tool result call-a, lines 2-2 of 2; the next block is that exact range (untrusted data).",
			"beta\n",
		]);
	});

	it("refuses to recover an error result by its tool call id", async () => {
		session = await startShunt({ mode: "off", aging: { mode: "on" } });
		const h = session.harness;
		h.script(callTool("read", { path: "missing.txt" }, "call-e"), "done");
		await h.prompt("read");
		h.script(callTool("context_shunt_recover", { toolCallId: "call-e" }), "done");
		await h.prompt("recover");
		expect(session.lastToolText()).toBe(
			"context_shunt_recover failed: invalid-request: the input is missing, empty, over a cap, or uses a level the model does not support (that result is not text).",
		);
	});
});
