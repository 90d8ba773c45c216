// Modes, commands, config layers and session-entry restore in a real Pi session.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { listDir, makeLog, type ShuntSession, startShunt } from "./helpers.ts";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

const registrations = (into: { commands: string[]; tools: string[] }) => (pi: ExtensionAPI) => {
	pi.on("session_start", () => {
		into.commands = pi.getCommands().map((c) => c.name);
		into.tools = pi.getAllTools().map((t) => t.name);
	});
};

describe("modes and tools", () => {
	it("registers the tools only in observe or enforce, and deactivates them when off", async () => {
		// Host fact: Pi 1.6.0 declares removals as `toolsRemoved: [{ name }]`; the harness folds them into toolNames.
		session = await startShunt(undefined);
		const h = session.harness;
		const toolsNow = async () => {
			h.script("ok");
			await h.prompt("hi");
			return h.requests.at(-1)!.toolNames;
		};
		expect(await toolsNow()).not.toContain("context_shunt_recover");
		await h.command("/context-shunt enforce");
		expect(await toolsNow()).toEqual(expect.arrayContaining(["context_shunt_recover", "context_shunt_delegate"]));
		await h.command("/context-shunt off");
		const off = await toolsNow();
		expect(off).not.toContain("context_shunt_recover");
		expect(off).not.toContain("context_shunt_delegate");
		await h.command("/context-shunt observe");
		expect(await toolsNow()).toContain("context_shunt_recover");
		expect(h.ui?.statuses.get("context-shunt")).toBe("shunt:observe");
	});

	it("stores mode changes as session entries and restores only the latest valid one", async () => {
		const junk = (pi: ExtensionAPI) => {
			pi.registerCommand("junk-mode", {
				description: "append an invalid mode entry",
				handler: async () => pi.appendEntry("context-shunt.mode", { v: 9, mode: "loud" }),
			});
		};
		session = await startShunt({ mode: "observe" }, {}, { after: [junk] });
		const h = session.harness;
		await h.command("/context-shunt enforce");
		await h.command("/context-shunt enforce");
		await h.command("/junk-mode");
		expect(h.entries("context-shunt.mode")).toEqual([
			{ v: 1, mode: "enforce" },
			{ v: 9, mode: "loud" },
		]);
		await h.session.reload();
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode enforce\n/);
		expect(session.audit().filter((e) => e.event === "mode-changed")).toEqual([
			{ v: 1, ext: "context-shunt", event: "mode-changed", mode: "enforce" },
		]);
	});

	it("resets counters, exceptions and artifacts", async () => {
		session = await startShunt({ mode: "enforce" }, {}, { files: { "big.log": makeLog(600) } });
		const h = session.harness;
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		const dir = session.storeDirs[0]!;
		expect(await listDir(dir)).toHaveLength(1);
		await h.command("/context-shunt reset");
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(await listDir(dir)).toEqual([]);
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toContain("blocked 0 · would-block 0 · bounded 0");
		expect(session.audit().at(-1)?.event).toBe("reset");
	});

	it("answers bad arguments with the usage and changes nothing", async () => {
		session = await startShunt(undefined);
		await session.harness.command("/context-shunt loud /etc/passwd");
		expect(session.harness.ui?.notifications().at(-1)?.message).toBe(
			"context-shunt: usage: /context-shunt off|observe|enforce|status|reset|allow <token> <maxLines> <maxBytes>",
		);
		expect(session.audit()).toEqual([]);
	});
});

describe("config", () => {
	it("registers only its command (which answers) when disabled", async () => {
		const seen = { commands: [] as string[], tools: [] as string[] };
		session = await startShunt({ enabled: false, mode: "enforce" }, {}, { after: [registrations(seen)] });
		expect(seen.commands).toContain("context-shunt");
		expect(seen.tools).not.toContain("context_shunt_recover");
		expect(session.harness.session.extensionRunner.hasHandlers("tool_call")).toBe(false);
		expect(session.harness.ui?.notifications()).toEqual([]);
		await session.harness.command("/context-shunt status");
		expect(session.harness.ui?.notifications().at(-1)?.message).toBe("context-shunt: off (set in the config file)");
		expect(session.harness.requests).toEqual([]);
	});

	it("a malformed global file disables the extension with one concise notice", async () => {
		const seen = { commands: [] as string[], tools: [] as string[] };
		session = await startShunt("{ not json", {}, { after: [registrations(seen)] });
		expect(seen.commands).toContain("context-shunt");
		expect(seen.tools).not.toContain("context_shunt_recover");
		expect(session.harness.ui?.notifications()).toEqual([
			{ message: "context-shunt disabled: global: invalid JSON at line 1, column 3", level: "warning" },
		]);
		expect(session.audit()).toEqual([{ v: 1, ext: "context-shunt", event: "config-invalid" }]);
	});

	it("an invalid global value disables it too, naming the key only", async () => {
		session = await startShunt({ mode: "enforce", fullReadLines: 0 });
		expect(session.harness.ui?.notifications()).toEqual([
			{
				message: "context-shunt disabled: global fullReadLines: expected integer between 1 and 1048576",
				level: "warning",
			},
		]);
	});

	it("merges a trusted project layer, ignores an untrusted one, and goes inactive on an invalid one", async () => {
		session = await startShunt({ mode: "off" }, {}, { projectConfig: { "context-shunt": { mode: "enforce" } } });
		await session.harness.command("/context-shunt status");
		expect(session.harness.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode enforce/);
		await session.dispose();

		session = await startShunt(
			{ mode: "off" },
			{},
			{ projectConfig: { "context-shunt": { mode: "enforce" } }, projectTrusted: false },
		);
		await session.harness.command("/context-shunt status");
		expect(session.harness.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode off/);
		await session.dispose();

		session = await startShunt(
			{ mode: "enforce" },
			{},
			{ projectConfig: { "context-shunt": { mode: "loud" } }, files: { "big.log": makeLog(600) } },
		);
		const h = session.harness;
		expect(h.ui?.notifications()[0]?.message).toMatch(/^context-shunt disabled: project mode: expected one of/);
		h.script(callTool("bash", { command: "cat big.log" }), "done");
		await h.prompt("log");
		expect(session.text(0)).toBe(makeLog(600));
		await h.command("/context-shunt enforce");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(
			/^context-shunt enforce: unavailable, disabled: project mode: expected one of/,
		);
	});
});

describe("a mode command whose session entry cannot be written", () => {
	it("keeps the recorded mode, footer and tools, and shows no raw error (which names the session file)", async () => {
		session = await startShunt({ mode: "enforce" });
		const h = session.harness;
		const errors: unknown[] = [];
		h.session.extensionRunner.onError((error) => errors.push(error));
		h.script("ok");
		await h.prompt("hi");
		// The disk refuses the append, as a read-only or full disk would; the host's error names the file.
		const manager = h.session.sessionManager as unknown as { appendCustomEntry: (...args: unknown[]) => unknown };
		const original = manager.appendCustomEntry;
		manager.appendCustomEntry = () => {
			throw new Error(`EROFS: read-only file system, open '${h.agentDir}/sessions/x.jsonl'`);
		};
		await h.command("/context-shunt observe");
		manager.appendCustomEntry = original;
		const shown = h.ui?.displayedText().join("\n") ?? "";
		expect(h.ui?.notifications().at(-1)?.message).toBe(
			"context-shunt command failed: internal error; nothing was changed.",
		);
		expect(shown).not.toContain(h.agentDir);
		expect(JSON.stringify(errors)).not.toContain(h.agentDir);
		expect(h.ui?.statuses.get("context-shunt")).toBe("shunt:enforce");
		await h.command("/context-shunt status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/^context-shunt: mode enforce\n/);
	});
});
