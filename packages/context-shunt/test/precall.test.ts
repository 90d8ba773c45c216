// Pre-call admission in a real Pi session: declared oversized reads are blocked before they run, and a user
// token grants the identical call exactly once.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool } from "@pi-policy/pi-harness";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClock, type ShuntSession, startShunt, tokenOf } from "./helpers.ts";

const MARKER = "UNIQUE-FILE-MARKER";
const file = (n: number) =>
	Array.from({ length: n }, (_, i) => `${MARKER} ${i + 1}`)
		.join("\n")
		.concat("\n");
let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

describe("pre-call blocking", () => {
	it("pins the full-read boundary: limit 350 runs, limit 351 is blocked before it runs", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(2000) } });
		const h = session.harness;
		h.script(
			callTool("read", { path: "big.txt", limit: 350 }),
			callTool("read", { path: "big.txt", limit: 351 }),
			"done",
		);
		await h.prompt("read it");
		const [within, blocked] = h.toolResults();
		expect(within?.isError).toBe(false);
		expect(h.toolResultText(within!)).toContain(`${MARKER} 350`);
		expect(blocked?.isError).toBe(true);
		const reason = h.toolResultText(blocked!);
		expect(reason).toMatch(
			/context-shunt blocked this read before it ran: it declares 351 lines, over the 350-line limit/,
		);
		expect(reason).not.toContain(MARKER);
		expect(reason).not.toContain("big.txt");
		expect(session.audit().map((e) => e.event)).toEqual(["blocked"]);
	});

	it("pins the targeted boundary: offset with limit 250 runs, 251 is blocked", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(2000) } });
		const h = session.harness;
		h.script(
			callTool("read", { path: "big.txt", offset: 100, limit: 250 }),
			callTool("read", { path: "big.txt", offset: 100, limit: 251 }),
			"done",
		);
		await h.prompt("read it");
		const [within, blocked] = h.toolResults();
		expect(h.toolResultText(within!)).toContain(`${MARKER} 349`);
		expect(h.toolResultText(blocked!)).toContain("over the 250-line limit for a read with an offset");
	});

	it("grants the identical call exactly once with a user token", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		const call = { path: "big.txt", limit: 1000 };
		h.script(callTool("read", call), "Please allow it.");
		await h.prompt("read the whole file");
		const blocked = session.text(0);
		// The model never saw the file: the block happened before the read ran.
		expect(h.requestText(h.requests.at(-1)!)).not.toContain(`${MARKER} 1`);
		const token = tokenOf(blocked);
		await h.command(`/context-shunt allow ${token} 1000 60000`);
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/granted once for one minute/);
		h.script(callTool("read", call), callTool("read", call), "done");
		await h.prompt("now read it");
		const granted = h.toolResults()[1]!;
		const again = h.toolResults()[2]!;
		expect(granted.isError).toBe(false);
		expect(h.toolResultText(granted)).toContain(`${MARKER} 1000`);
		expect(again.isError).toBe(true);
		expect(tokenOf(h.toolResultText(again))).not.toBe(token);
		// The token cannot be granted a second time.
		await h.command(`/context-shunt allow ${token} 1000 60000`);
		expect(h.ui?.notifications().at(-1)?.message).toBe("context-shunt: unknown, used or expired token");
		expect(session.audit().map((e) => e.event)).toEqual([
			"blocked",
			"exception-granted",
			"exception-consumed",
			"blocked",
		]);
	});

	it("narrows the call when maxLines is below the declared range", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 900 }), "ask");
		await h.prompt("read");
		await h.command(`/context-shunt allow ${tokenOf(session.text(0))} 400 60000`);
		h.script(callTool("read", { path: "big.txt", limit: 900 }), "done");
		await h.prompt("again");
		const text = session.text(1);
		expect(text).toContain(`${MARKER} 400\n`);
		expect(text).not.toContain(`${MARKER} 401`);
		expect(text).toContain("more lines in file. Use offset=401");
	});

	it("applies the grant's byte limit to the real result: over it, the result is preserved instead", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "ask");
		await h.prompt("read");
		await h.command(`/context-shunt allow ${tokenOf(session.text(0))} 1000 100`);
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "done");
		await h.prompt("again");
		expect(session.text(1)).toMatch(/^\[context-shunt\] This read result was preserved as artifact csa_/);
		expect(session.text(1)).toContain("(limits: 1000 lines, 100 bytes)");
	});

	it("lets a grant lapse after one minute (injected clock)", async () => {
		const clock = fakeClock();
		session = await startShunt({ mode: "enforce" }, clock, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "ask");
		await h.prompt("read");
		await h.command(`/context-shunt allow ${tokenOf(session.text(0))} 1000 60000`);
		clock.advance(60_000);
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "done");
		await h.prompt("again");
		expect(h.toolResults()[1]?.isError).toBe(true);
		expect(session.audit().some((e) => e.event === "exception-lapsed" && e.category === "expired")).toBe(true);
	});

	it("keeps a grant across an agent end, and a changed call does not match it", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "ask");
		await h.prompt("read");
		await h.command(`/context-shunt allow ${tokenOf(session.text(0))} 1000 60000`);
		h.script("thinking about it");
		await h.prompt("wait");
		h.script(
			callTool("read", { path: "big.txt", limit: 999 }),
			callTool("read", { path: "big.txt", limit: 1000 }),
			"done",
		);
		await h.prompt("go");
		expect(h.toolResults()[1]?.isError).toBe(true);
		expect(h.toolResults()[2]?.isError).toBe(false);
	});

	it("never blocks a same-named extension read; it only counts it as uncovered", async () => {
		const replacementRead = (pi: ExtensionAPI) => {
			pi.registerTool({
				name: "read",
				label: "read",
				description: "An extension's own read.",
				parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Number()) }),
				async execute() {
					return { content: [{ type: "text", text: "extension read result" }], details: {} };
				},
			});
		};
		session = await startShunt({ mode: "enforce" }, {}, { after: [replacementRead] });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 5000 }), "done");
		await h.prompt("read");
		expect(session.text(0)).toBe("extension read result");
		expect(session.audit().map((e) => [e.event, e.category])).toEqual([["uncovered", "read"]]);
	});

	it("does nothing in off mode", async () => {
		session = await startShunt(undefined, {}, { files: { "big.txt": file(1000) } });
		const h = session.harness;
		h.script(callTool("read", { path: "big.txt", limit: 1000 }), "done");
		await h.prompt("read");
		expect(session.text(0)).toContain(`${MARKER} 1000`);
		expect(session.audit()).toEqual([]);
		expect(h.requests.at(-1)?.toolNames).not.toContain("context_shunt_recover");
	});
});
