// Privacy: status, notifications, audit entries, bus payloads, block reasons and error texts carry enums and
// counts only, never the paths, commands, questions or content a session used.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, reply } from "@pi-policy/pi-harness";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, makeLog, SHUNT_TOOLS, type ShuntSession, startShunt, tokenOf } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

describe("privacy", () => {
	it("never exposes source paths, commands, questions or content", async () => {
		const bus: unknown[] = [];
		const busProbe = (pi: ExtensionAPI) => {
			pi.events.on("pi-policy:audit", (payload) => bus.push(payload));
		};
		const content = `${makeLog(700, 40, "SECRETCONTENT")}`;
		session = await startShunt(
			{ mode: "enforce", reader: { enabled: true, model: "faux/faux-1" } },
			{},
			{ files: { "SECRETDIR/SECRETFILE.log": content }, before: [busProbe] },
		);
		const h = session.harness;
		h.script(
			callTool("read", { path: "SECRETDIR/SECRETFILE.log", limit: 700 }),
			callTool("bash", { command: "cat SECRETDIR/SECRETFILE.log # SECRETCOMMAND" }),
			"ok",
		);
		await h.prompt("look");
		const token = tokenOf(session.text(0));
		const id = artifactIdOf(session.text(1));
		await h.command(`/context-shunt allow ${token} 5 100`);
		await h.command("/context-shunt allow SECRETFILE 1 1");
		h.script(
			callTool("read", { path: "SECRETDIR/SECRETFILE.log", limit: 700 }),
			callTool("context_shunt_recover", { artifactId: "csa_../SECRETDIR/SECRETFILE" }),
			callTool("context_shunt_recover", { artifactId: id, lineLimit: 999 }),
			callTool("context_shunt_recover", { artifactId: id, lineOffset: 9999 }),
			callTool("context_shunt_delegate", { artifactId: id, question: "SECRETQUESTION?", thinking: "high" }),
			callTool("context_shunt_delegate", { artifactId: id, question: "SECRETQUESTION?", thinking: "off" }),
			() => reply("SECRETCONTENT 3 is the answer"),
			"done",
		);
		await h.prompt("continue");
		await h.command("/context-shunt status");
		await h.command("/context-shunt observe");
		await h.command("/context-shunt reset");

		const results = h.toolResults();
		const errors = results.filter((r) => r.isError).map((r) => h.toolResultText(r));
		expect(errors.length).toBeGreaterThanOrEqual(6);
		const surfaces = {
			audit: JSON.stringify(session.audit()),
			bus: JSON.stringify(bus),
			ui: JSON.stringify(h.ui?.displayedText() ?? []),
			statuses: JSON.stringify([...(h.ui?.statuses.entries() ?? [])]),
			errors: errors.join("\n"),
		};
		expect(session.audit().length).toBeGreaterThan(8);
		expect(bus).toHaveLength(session.audit().length);
		for (const [name, text] of Object.entries(surfaces)) {
			for (const secret of [
				"SECRETDIR",
				"SECRETFILE",
				"SECRETCONTENT",
				"SECRETCOMMAND",
				"SECRETQUESTION",
				h.cwd,
				session.tempRoot,
			]) {
				expect({ name, leaked: text.includes(secret) ? secret : undefined }).toEqual({ name, leaked: undefined });
			}
		}
	});
});

describe("privacy beyond the built-ins", () => {
	it("keeps configured tool names, patterns, pointers and aged content out of audit, bus and status", async () => {
		const bus: unknown[] = [];
		const busProbe = (pi: ExtensionAPI) => {
			pi.events.on("pi-policy:audit", (payload) => bus.push(payload));
			pi.registerTool({
				name: "SECRETTOOL_list",
				label: "list",
				description: "list",
				parameters: Type.Object({}),
				async execute() {
					return {
						content: [{ type: "text", text: JSON.stringify({ SECRETKEY: makeLog(800, 40, "SECRETCONTENT") }) }],
						details: {},
					};
				},
			});
		};
		session = await startShunt(
			{ mode: "enforce", tools: { "SECRETTOOL_*": "shunt" }, aging: { mode: "on", keepTurns: 1, atBytes: 1024 } },
			{},
			{
				tools: [...SHUNT_TOOLS, "SECRETTOOL_list"],
				files: { "SECRETDIR/a.log": makeLog(100, 40, "SECRETCONTENT") },
				before: [busProbe],
			},
		);
		const h = session.harness;
		h.script(callTool("SECRETTOOL_list", {}, "s-1"), callTool("read", { path: "SECRETDIR/a.log" }, "s-2"), "ok");
		await h.prompt("look");
		const id = artifactIdOf(session.text(0));
		h.script(
			callTool("context_shunt_recover", { artifactId: id, jsonPointer: "/SECRETKEY" }),
			callTool("context_shunt_recover", { artifactId: id, pattern: "SECRETPATTERN" }),
			callTool("context_shunt_recover", { toolCallId: "s-2", pattern: "(SECRETREGEX+)+", regex: true }),
			callTool("context_shunt_recover", { toolCallId: "SECRETHANDLE" }),
			"done",
		);
		await h.prompt("recover");
		await h.command("/context-shunt status");
		expect(session.audit().map((e) => e.event)).toContain("aged");
		const surfaces = {
			audit: JSON.stringify(session.audit()),
			bus: JSON.stringify(bus),
			ui: JSON.stringify(h.ui?.displayedText() ?? []),
		};
		for (const [name, text] of Object.entries(surfaces)) {
			for (const secret of [
				"SECRETTOOL",
				"SECRETKEY",
				"SECRETCONTENT",
				"SECRETPATTERN",
				"SECRETREGEX",
				"SECRETHANDLE",
				"SECRETDIR",
				"s-2",
				h.cwd,
			]) {
				expect({ name, leaked: text.includes(secret) ? secret : undefined }).toEqual({ name, leaked: undefined });
			}
		}
		const errors = h
			.toolResults()
			.filter((r) => r.isError)
			.map((r) => h.toolResultText(r))
			.join("\n");
		for (const secret of ["SECRETPATTERN", "SECRETREGEX", "SECRETHANDLE"]) expect(errors).not.toContain(secret);
	});
});

describe("host behaviour this package relies on", () => {
	it("AgentSession.dispose() does not emit session_shutdown (the tests emit it the way the runtime does on quit)", async () => {
		const seen: string[] = [];
		session = await startShunt(
			undefined,
			{},
			{
				after: [
					(pi: ExtensionAPI) => {
						pi.on("session_shutdown", (e) => void seen.push(e.reason));
					},
				],
			},
		);
		session.harness.session.dispose();
		expect(seen).toEqual([]);
		await session.shutdown();
		expect(seen).toEqual(["quit"]);
	});
});
