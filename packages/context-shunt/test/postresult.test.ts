// Post-result preservation in a real Pi session: receipts, byte-identical recovery, results left intact,
// quota, expiry with an injected clock, shutdown, and observe mode.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, callTools, realisticWorkspaceFiles } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, fakeClock, listDir, makeLog, originalsProbe, type ShuntSession, startShunt } from "./helpers.ts";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

describe("bounded results", () => {
	it("turns an over-limit bash log into a receipt of at most 2 KiB, and recovery returns byte-identical ranges", async () => {
		const originals = new Map<string, string>();
		session = await startShunt(
			{ mode: "enforce" },
			{},
			{ files: { "build.log": makeLog(1500, 30, "build") }, before: [originalsProbe(originals)] },
		);
		const h = session.harness;
		h.script(callTool("bash", { command: "cat build.log" }, "bash-1"), "done");
		await h.prompt("build");
		const receipt = session.text(0);
		const original = originals.get("bash-1")!;
		expect(bytes(original)).toBe(46500);
		expect(bytes(receipt)).toBeLessThanOrEqual(2048);
		expect(receipt).toContain("This bash result was preserved");
		expect(receipt).toContain(`${bytes(original)} bytes, 1500 lines (limits: 250 lines, 16384 bytes)`);
		// The model saw the receipt, not the log; the built-in's details (which hold a second copy) are replaced too.
		// The receipt previews the head and the tail (10 + 8 lines); the middle stays out.
		expect(h.requestText(h.requests.at(-1)!)).not.toContain("build 750");
		expect(JSON.stringify(h.requests.at(-1)!.messages)).not.toContain("build 750");
		expect(receipt).toContain("build 10 ");
		expect(receipt).not.toContain("build 11 ");
		expect(receipt).toContain("Last lines, from line 1493 of 1500");
		expect(receipt).toContain("build 1500");
		expect(h.toolResults()[0]!.details).toEqual({
			contextShunt: { artifactId: artifactIdOf(receipt), source: "bash", bytes: 46500, lines: 1500 },
		});
		const id = artifactIdOf(receipt);

		// Page through every line range and every byte range; both rebuild the original exactly.
		const lineCalls = Array.from({ length: 6 }, (_, i) => ({
			name: "context_shunt_recover",
			args: { artifactId: id, lineOffset: i * 250 + 1, lineLimit: 250 },
		}));
		const byteCalls = Array.from({ length: 3 }, (_, i) => ({
			name: "context_shunt_recover",
			args: { artifactId: id, byteOffset: i * 16384, maxBytes: 16384 },
		}));
		h.script(callTools(...lineCalls), callTools(...byteCalls), "done");
		await h.prompt("recover");
		const results = h.toolResults().slice(1);
		const body = (index: number) => {
			const content = results[index]!.content as Array<{ type: string; text: string }>;
			expect(content).toHaveLength(2);
			return content[1]!.text;
		};
		const byLines = Array.from({ length: 6 }, (_, i) => body(i)).join("");
		const byBytes = Array.from({ length: 3 }, (_, i) => body(6 + i)).join("");
		expect(Buffer.from(byLines).equals(Buffer.from(original))).toBe(true);
		expect(Buffer.from(byBytes).equals(Buffer.from(original))).toBe(true);
		expect(h.toolResultText(results[0]!)).toContain("lines 1-250 of 1500");
		expect(session.audit().filter((e) => e.event === "recovered")).toHaveLength(9);
	});

	it("turns a broad grep over real sources into a receipt", async () => {
		const originals = new Map<string, string>();
		session = await startShunt(
			{ mode: "enforce" },
			{},
			{ files: realisticWorkspaceFiles(), before: [originalsProbe(originals)] },
		);
		const h = session.harness;
		h.script(callTool("grep", { pattern: "this", limit: 1000 }, "grep-1"), "done");
		await h.prompt("grep");
		const original = originals.get("grep-1")!;
		expect(bytes(original)).toBeGreaterThan(16384);
		expect(session.text(0)).toContain("This grep result was preserved");
		expect(session.audit().map((e) => [e.event, e.category])).toEqual([["bounded", "grep"]]);
	});

	it("pins a full read at a 350-line and a 351-line file (each ending in a newline)", async () => {
		const file = (n: number) => Array.from({ length: n }, (_, i) => `row ${i + 1}\n`).join("");
		session = await startShunt({ mode: "enforce" }, {}, { files: { "a.txt": file(350), "b.txt": file(351) } });
		const h = session.harness;
		h.script(callTool("read", { path: "a.txt" }), callTool("read", { path: "b.txt" }), "done");
		await h.prompt("read");
		expect(session.text(0)).toBe(file(350));
		expect(session.text(1)).toContain("This read result was preserved");
		expect(session.text(1)).toContain("351 lines (limits: 350 lines, 16384 bytes)");
	});

	it("pins 16384 and 16385 returned bytes", async () => {
		session = await startShunt({ mode: "enforce" });
		const h = session.harness;
		h.script(
			callTool("bash", { command: "head -c 16384 /dev/zero | tr '\\0' a" }),
			callTool("bash", { command: "head -c 16385 /dev/zero | tr '\\0' a" }),
			"done",
		);
		await h.prompt("bytes");
		expect(session.text(0)).toBe("a".repeat(16384));
		expect(session.text(1)).toContain("16385 bytes, 1 lines");
	});
});

describe("results left intact", () => {
	it("passes error, JSON, NUL and multi-block results through unchanged", async () => {
		const splitter = (pi: ExtensionAPI) => {
			pi.on("tool_result", (event) => {
				const block = event.content[0];
				if (event.toolCallId === "multi" && block?.type === "text") {
					const half = Math.floor(block.text.length / 2);
					return {
						content: [
							{ type: "text", text: block.text.slice(0, half) },
							{ type: "text", text: block.text.slice(half) },
						],
					};
				}
				return undefined;
			});
		};
		const big = makeLog(1000, 40);
		// Compact JSON under Pi's own 50 KB bash cap (a truncated JSON output carries a notice and is no longer JSON).
		const json = JSON.stringify({ rows: Array.from({ length: 1000 }, (_, i) => ({ i, name: `row ${i}` })) });
		session = await startShunt(
			{ mode: "enforce" },
			{},
			{ files: { "big.log": big, "data.json": json }, before: [splitter] },
		);
		const h = session.harness;
		h.script(
			callTool("bash", { command: "cat big.log; exit 3" }, "error"),
			callTool("bash", { command: "cat data.json" }, "json"),
			callTool("bash", { command: "printf 'a\\0b'; cat big.log" }, "nul"),
			callTool("bash", { command: "cat big.log" }, "multi"),
			"done",
		);
		await h.prompt("intact");
		const [error, jsonResult, nul, multi] = h.toolResults();
		expect(error?.isError).toBe(true);
		expect(h.toolResultText(error!)).toContain("log 1000");
		expect(bytes(h.toolResultText(jsonResult!))).toBeGreaterThan(16384);
		expect(JSON.parse(h.toolResultText(jsonResult!))).toEqual(JSON.parse(json));
		expect(h.toolResultText(nul!)).toBe(`a\u0000b${big}`);
		expect(multi?.content).toHaveLength(2);
		expect(h.toolResultText(multi!)).toContain("log 1000");
		expect(session.audit()).toEqual([]);
		expect(session.storeDirs).toEqual([]);
	});
});

describe("quota, expiry and shutdown", () => {
	it("leaves the ninth result intact and counts an archive failure", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		const nine = Array.from({ length: 9 }, (_, i) => callTool("bash", { command: `echo run ${i}; cat big.log` }));
		h.script(...nine, "done");
		await h.prompt("nine");
		const texts = h.toolResults().map((r) => h.toolResultText(r));
		expect(texts.slice(0, 8).every((t) => t.startsWith("[context-shunt]"))).toBe(true);
		expect(texts[8]).toBe(`run 8\n${makeLog(600)}`);
		expect(await listDir(session.storeDirs[0]!)).toHaveLength(8);
		const events = session.audit();
		expect(events.filter((e) => e.event === "bounded")).toHaveLength(8);
		expect(events.at(-1)).toMatchObject({ event: "archive-failed", category: "quota-exhausted" });
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toContain("archive-failures 1");
	});

	it("expires an artifact 30 minutes after creation, and recovery does not renew it (injected clock)", async () => {
		const clock = fakeClock();
		session = await startShunt({ mode: "enforce" }, clock, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		const dir = session.storeDirs[0]!;
		expect(await listDir(dir)).toEqual([id]);
		clock.advance(30 * 60 * 1000 - 1);
		h.script(callTool("context_shunt_recover", { artifactId: id, lineOffset: 1, lineLimit: 1 }), "done");
		await h.prompt("recover");
		expect(session.lastToolText()).toContain("lines 1-1 of 600");
		clock.advance(1);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(await listDir(dir)).toEqual([]);
		h.script(callTool("context_shunt_recover", { artifactId: id }), "done");
		await h.prompt("recover again");
		expect(session.lastToolText()).toBe(
			"context_shunt_recover failed: evidence-expired: the preserved source is gone.",
		);
		expect(session.audit().map((e) => e.event)).toContain("artifact-expired");
	});

	it("removes the directory and cancels cleanup timers at shutdown", async () => {
		const clock = fakeClock();
		session = await startShunt({ mode: "enforce" }, clock, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), callTool("bash", { command: "tac big.log" }), "done");
		await h.prompt("logs");
		const dir = session.storeDirs[0]!;
		expect(await listDir(dir)).toHaveLength(2);
		expect(clock.pendingTimers()).toBe(2);
		await session.shutdown();
		expect(await listDir(dir)).toBeUndefined();
		expect(clock.pendingTimers()).toBe(0);
	});

	it("creates the store privately: directory 0700, files 0600", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.log": makeLog(600) } });
		session.harness.script(callTool("bash", { command: "cat big.log" }), "done");
		await session.harness.prompt("log");
		const { stat } = await import("node:fs/promises");
		const dir = session.storeDirs[0]!;
		expect((await stat(dir)).mode & 0o777).toBe(0o700);
		const [file] = (await listDir(dir))!;
		expect((await stat(`${dir}/${file}`)).mode & 0o777).toBe(0o600);
	});
});

describe("observe mode", () => {
	it("returns originals while counting would-block and would-bound", async () => {
		const file = Array.from({ length: 1000 }, (_, i) => `row ${i + 1}`).join("\n");
		session = await startShunt({ mode: "observe" }, {}, { files: { "big.txt": file, "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("observe");
		expect(session.text(0)).toContain("row 1000");
		expect(session.text(1)).toBe(makeLog(600));
		expect(session.audit().map((e) => [e.event, e.mode, e.category])).toEqual([
			["would-block", "observe", "read"],
			["would-bound", "observe", "bash"],
		]);
		expect(session.storeDirs).toEqual([]);
		await h.command("/context-shunt status");
		const status = h.ui?.notifications().at(-1)?.message ?? "";
		expect(status).toContain("blocked 0 · would-block 1 · bounded 0 · would-bound 1");
	});
});
