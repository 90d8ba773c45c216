// Code mode in a real Pi session: calls a codemode script makes (they reach tool_call and tool_result with a
// parentToolCallId) feed the script, not the model, so they are never blocked, preserved or counted, built-ins
// included; the script's own top-level result and later top-level results are judged as always.
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { callTool } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { makeLog, SHUNT_TOOLS, type ShuntSession, startShunt } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

const files: Record<string, string> = { "big.log": makeLog(600, 40, "line") };
for (let i = 1; i <= 8; i++) files[`f${i}.log`] = makeLog(600, 40, `f${i}`);

function start() {
	return startShunt(
		{ mode: "enforce" },
		{},
		{ files, tools: [...SHUNT_TOOLS, "codemode"], before: [createCodemodeExtension({ mode: "on" })] },
	);
}

describe("context-shunt with code mode", () => {
	it("a script's grep gets its matches, not a receipt", async () => {
		session = await start();
		session.harness.script(
			callTool("codemode", {
				code: `const g = await tools.grep({ pattern: "line", path: "big.log", limit: 1000 });
text("GREP " + String(JSON.stringify(g).includes("line 599")) + " " + String(JSON.stringify(g).includes("[context-shunt]")));`,
			}),
			"done",
		);
		await session.harness.prompt("go");
		expect(session.text(0)).toContain("GREP true false");
		expect(session.audit().filter((entry) => entry.event === "bounded")).toEqual([]);
	});

	it("a script's reads take no artifact or quota, so a later top-level log still becomes a receipt", async () => {
		session = await start();
		const h = session.harness;
		h.script(
			callTool("codemode", {
				code: `let n = 0; for (let i = 1; i <= 8; i++) { const r = await tools.read({ path: "f" + i + ".log" }); if (String(JSON.stringify(r)).includes("f" + i + " 300 ")) n++; } return "whole reads: " + n;`,
			}),
			callTool("bash", { command: "cat big.log" }, "top"),
			"done",
		);
		await h.prompt("go");
		expect(session.text(0)).toContain("whole reads: 8");
		expect(session.text(1)).toContain("[context-shunt] This bash result was preserved");
		await h.command("/context-shunt status");
		const status = h.ui?.notifications().at(-1)?.message ?? "";
		expect(status).toMatch(/bounded 1\b/);
		expect(status).toContain("archive-failures 0");
		expect(status).toContain("artifacts 1 (24600 bytes)");
	});
});
