// Shell behaviours a mutation audit found unguarded, in a real Pi session: hook faults fail open (tool_result and
// the aging context handler), /tree restores the target branch's mode, the kernel's warnings keep their level, and
// recovery of an artifact answers output-unavailable while the mode is off.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, type ModelRequest } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, makeLog, type ShuntSession, startShunt } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

/** Makes `parentToolCallId` throw when read on the next `times` tool_result events: a fault inside the handler. */
function toolResultFault(times: number) {
	return (pi: ExtensionAPI) => {
		let left = times;
		pi.on("tool_result", (event) => {
			if (left-- <= 0) return undefined;
			Object.defineProperty(event, "parentToolCallId", {
				get() {
					throw new Error("injected fault");
				},
			});
			return undefined;
		});
	};
}

/** Makes `getContextUsage` throw in the next `times` context events: a fault inside the aging handler. */
function contextFault(times: number) {
	return (pi: ExtensionAPI) => {
		let left = times;
		pi.on("context", (_event, ctx) => {
			if (left-- <= 0) return undefined;
			(ctx as { getContextUsage: () => unknown }).getContextUsage = () => {
				throw new Error("injected fault");
			};
			return undefined;
		});
	};
}

const STUB = /\[context-shunt aged: /;

function requestHasStub(request: ModelRequest): boolean {
	return STUB.test(JSON.stringify(request.messages));
}

describe("hook faults fail open", () => {
	it("passes an over-limit result through unchanged, with one notice and a handler-error entry per fault", async () => {
		session = await startShunt(
			{ mode: "enforce" },
			{},
			{ files: { "big.log": makeLog(600) }, before: [toolResultFault(2)] },
		);
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log twice");
		expect(session.text(0)).toBe(makeLog(600));
		expect(session.text(1)).toBe(makeLog(600));
		expect(h.ui?.notifications().filter((n) => n.message.startsWith("context-shunt"))).toEqual([
			{
				message: "context-shunt tool_result failed: internal error; the original call proceeds unchanged.",
				level: "warning",
			},
		]);
		expect(session.audit()).toEqual([
			{ v: 1, ext: "context-shunt", event: "handler-error" },
			{ v: 1, ext: "context-shunt", event: "handler-error" },
		]);
	});

	it("sends the request unaged when the aging handler faults, and records one handler-error", async () => {
		const files = Object.fromEntries(
			Array.from({ length: 10 }, (_, i) => [`f${i + 1}.txt`, makeLog(150, 39, `file${i + 1}`)]),
		);
		const reads = Array.from({ length: 10 }, (_, i) => callTool("read", { path: `f${i + 1}.txt` }, `r-${i + 1}`));
		session = await startShunt(
			{ aging: { mode: "on", keepTurns: 2, atBytes: 20_000 } },
			{},
			{ files, before: [contextFault(100)] },
		);
		const h = session.harness;
		h.script(...reads, "done");
		await h.prompt("read ten");
		expect(h.requests).toHaveLength(11);
		expect(h.requests.some(requestHasStub)).toBe(false);
		expect(JSON.stringify(h.requests.at(-1)!.messages)).toContain("file1 150");
		expect(session.audit()).toEqual([{ v: 1, ext: "context-shunt", event: "handler-error" }]);
	});
});

describe("/tree", () => {
	it("restores the mode recorded on the branch it moves to", async () => {
		session = await startShunt({ mode: "off" });
		const h = session.harness;
		h.script("ok");
		await h.prompt("hi");
		const plain = h.session.sessionManager.getLeafId();
		await h.command("/context-shunt enforce");
		h.script("ok");
		await h.prompt("again");
		const enforced = h.session.sessionManager.getLeafId();
		await h.session.navigateTree(plain as string, { summarize: false });
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode off\n/);
		await h.session.navigateTree(enforced as string, { summarize: false });
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode enforce\n/);
		expect(h.ui?.statuses.get("context-shunt")).toBe("shunt:enforce");
	});
});

describe("warnings from the kernel", () => {
	it("shows an unknown allow token as a warning", async () => {
		session = await startShunt({ mode: "enforce" });
		await session.harness.command("/context-shunt allow cst_000000000000 1000 60000");
		expect(session.harness.ui?.notifications().at(-1)).toEqual({
			message: "context-shunt: unknown, used or expired token",
			level: "warning",
		});
	});
});

describe("recovering an artifact while the mode is off", () => {
	it("answers output-unavailable", async () => {
		session = await startShunt({ mode: "enforce", aging: { mode: "on" } }, {}, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		const id = artifactIdOf(session.text(0));
		await h.command("/context-shunt off");
		h.script(callTool("context_shunt_recover", { artifactId: id, lineOffset: 1, lineLimit: 5 }), "done");
		await h.prompt("recover");
		const result = h.toolResults()[1]!;
		expect(result.isError).toBe(true);
		expect(h.toolResultText(result)).toBe(
			"context_shunt_recover failed: output-unavailable: the call is not authorized, or the validated answer cannot be preserved (context-shunt is off).",
		);
	});
});
