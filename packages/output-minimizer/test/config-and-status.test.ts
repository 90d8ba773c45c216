// Session tests: config layers (off registers only the command, invalid fails open, trusted project replaces global),
// /output-minimizer status, privacy of everything persisted or displayed, and the fail-open handler.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { callTool, createHarness, type Harness, type HarnessOptions, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { validateAuditEntry } from "@pi-policy/policy-kernel/audit";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { lastToolResultText, leakedProbes, observableOutput } from "./support/helpers.ts";
import { createStockSubagent, type StockSubagent } from "./support/stock-subagent.ts";

const sessions = sessionPerTest({ tools: ["read", "subagent"] });

function start(stock: StockSubagent, options: HarnessOptions = {}) {
	return sessions.start({ extensions: [stock.extension, outputMinimizer], ...options });
}

async function delegate(h: Harness, args: Record<string, unknown>) {
	h.script(callTool("subagent", args), "done");
	await h.prompt("Delegate.");
	return lastToolResultText(h, h.requests.length - 1);
}

function commandNames(h: Harness): string[] {
	return h.session.extensionRunner.getRegisteredCommands().map((command) => command.name);
}

describe("config", () => {
	it("registers only its command (and session_start) when the global config says mode off", async () => {
		const stock = createStockSubagent();
		const output = realText(10_000);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start(stock, { config: { "output-minimizer": { mode: "off" } } });
		expect(commandNames(h)).toContain("output-minimizer");
		expect(h.session.extensionRunner.hasHandlers("message_end")).toBe(false);
		expect(h.session.extensionRunner.hasHandlers("tool_result")).toBe(false);
		const seen = await delegate(h, { agent: "scout", task: "x" });
		expect(seen).toContain(output);
		expect(h.entries("pi-policy.audit")).toEqual([]);
	});

	it("registers its handlers and command by default (installing opts in)", async () => {
		const h = await start(createStockSubagent());
		expect(commandNames(h)).toContain("output-minimizer");
		expect(h.session.extensionRunner.hasHandlers("tool_result")).toBe(true);
		expect(h.session.extensionRunner.hasHandlers("message_end")).toBe(true);
	});

	it("fails open on an invalid config: one notification, an audit config-invalid, results unchanged", async () => {
		const stock = createStockSubagent();
		const output = realText(10_000);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start(stock, { config: { "output-minimizer": { mode: "aggressive", fallbackLines: 500 } } });
		const warnings = h.ui!.notifications().filter((n) => n.message.startsWith("output-minimizer"));
		expect(warnings).toEqual([
			{
				message: 'output-minimizer disabled: global mode: expected one of "off", "reference" (+1 more)',
				level: "warning",
			},
		]);
		expect(h.entries("pi-policy.audit")).toEqual([{ v: 1, ext: "output-minimizer", event: "config-invalid" }]);
		const seen = await delegate(h, { agent: "scout", task: "x" });
		expect(seen).toContain(output);
		await h.command("/output-minimizer status");
		expect(h.ui!.notifications().at(-1)?.message).toContain(
			'output-minimizer: disabled: global mode: expected one of "off", "reference" (+1 more)',
		);
	});

	it("fails open on malformed JSON in the global file", async () => {
		const h = await start(createStockSubagent(), { config: { "output-minimizer": "{ not json" } });
		expect(h.ui!.notifications().map((n) => n.message)).toContain(
			"output-minimizer disabled: global: invalid JSON at line 1, column 3",
		);
	});

	it("lets a trusted project config replace the global one, and ignores it when the project is not trusted", async () => {
		const output = realText(10_000, 77);
		for (const trusted of [true, false]) {
			const stock = createStockSubagent();
			stock.queue({ kind: "single", child: { agent: "scout", output } });
			const h = await start(stock, {
				config: { "output-minimizer": { minBytesToMinimize: 100 } },
				projectConfig: { "output-minimizer": { mode: "off" } },
				projectTrusted: trusted,
			});
			const seen = await delegate(h, { agent: "scout", task: "x" });
			if (trusted) expect(seen).toContain(output);
			else expect(seen).not.toContain(output.slice(0, 200));
			await h.dispose();
		}
	});

	it("honours a configured tool list and lower fallback bounds", async () => {
		const stock = createStockSubagent();
		const output = realText(10_000, 500);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start(stock, { config: { "output-minimizer": { tools: ["delegate"] } } });
		expect(await delegate(h, { agent: "scout", task: "x" })).toContain(output);

		const bounded = createStockSubagent();
		bounded.queue({ kind: "single", child: { agent: "scout", output } });
		await h.dispose();
		const h2 = await start(bounded, { config: { "output-minimizer": { fallbackLines: 10, fallbackBytes: 1024 } } });
		const seen = await delegate(h2, { agent: "scout", task: "x", output: false });
		expect(seen.split("\n").length).toBeLessThanOrEqual(10);
		expect(Buffer.byteLength(seen)).toBeLessThanOrEqual(1024);
	});
});

describe("/output-minimizer status and privacy", () => {
	it("reports aggregate counters with no paths, and every audit entry is valid and free of user content", async () => {
		const stock = createStockSubagent();
		const big = realText(40_000, 1_234);
		stock.queue(
			{ kind: "single", child: { agent: "secret-agent-name", output: big } },
			{ kind: "single", child: { agent: "scout", output: "tiny" } },
			{ kind: "single", child: { agent: "scout", output: big } },
			{ kind: "single", child: { agent: "scout", output: big } },
		);
		const h = await start(stock);
		h.script(
			callTool("subagent", { agent: "secret-agent-name", task: "Investigate src/secret/path.ts for TOKEN_123" }),
			callTool("subagent", { agent: "scout", task: "small" }),
			callTool("subagent", { agent: "scout", task: "inline", outputMode: "inline" }),
			callTool("subagent", { agent: "scout", task: "bounded", output: false }),
			"done",
		);
		await h.prompt("Delegate four times.");
		await h.command("/output-minimizer status");
		const status = h.ui!.notifications().at(-1)!.message;
		const minimizedBytes =
			Buffer.byteLength(stock.produced[0]!.content[0]!.text) - Buffer.byteLength(lastToolResultText(h, 1));
		expect(status).toBe(
			[
				"output-minimizer: active (mode reference)",
				"results minimized: 1 (single 1, workflow 0, notify 0)",
				`bytes kept out of context: ${minimizedBytes}`,
				"outputs referenced: 1 (host files reused: 0)",
				"bounded fallbacks: 0 (persistence failures: 0)",
				"pass-throughs: inline 1, small 1, output:false bounded 1",
			].join("\n"),
		);
		expect(minimizedBytes).toBeGreaterThan(38_000);

		const audit = h.entries("pi-policy.audit");
		expect(audit).toHaveLength(4);
		for (const entry of audit) expect(validateAuditEntry(entry).ok).toBe(true);
		const observable = observableOutput(h);
		for (const secret of [h.agentDir, h.cwd, "secret-agent-name", "src/secret/path.ts", "TOKEN_123", "/tmp/"]) {
			expect(observable).not.toContain(secret);
		}
		expect(leakedProbes(observable, big)).toEqual([]);
	});

	it("keeps its running totals across /reload", async () => {
		const stock = createStockSubagent();
		const big = realText(20_000, 99);
		stock.queue(
			{ kind: "single", child: { agent: "scout", output: big } },
			{ kind: "single", child: { agent: "scout", output: big } },
		);
		const h = await start(stock);
		await delegate(h, { agent: "scout", task: "one" });
		await h.session.reload();
		await delegate(h, { agent: "scout", task: "two" });
		await h.command("/output-minimizer status");
		expect(h.ui!.notifications().at(-1)!.message).toContain("outputs referenced: 2 (host files reused: 0)");
		const dir = join(h.agentDir, "policy", "outputs", h.session.sessionManager.getSessionId());
		expect(existsSync(join(dir, "0001-scout.md")) && existsSync(join(dir, "0002-scout.md"))).toBe(true);
	});

	it("fails open when its handler hits an internal error: the result passes unchanged with one warning", async () => {
		const stock = createStockSubagent();
		const output = realText(10_000, 4_321);
		stock.queue(
			{ kind: "single", child: { agent: "scout", output } },
			{ kind: "single", child: { agent: "scout", output } },
		);
		// A getter that throws makes planning fail inside the handler, as an unexpected host shape would.
		const hostile = (pi: Parameters<typeof outputMinimizer>[0]) => {
			pi.on("tool_result", (event) => ({
				details: Object.defineProperty({}, "results", {
					enumerable: false,
					get() {
						throw new Error("boom");
					},
				}),
				content: event.content,
			}));
		};
		const h = await sessions.start({ extensions: [stock.extension, hostile, outputMinimizer], tools: ["subagent"] });
		h.script(
			callTool("subagent", { agent: "scout", task: "a" }),
			callTool("subagent", { agent: "scout", task: "b" }),
			"done",
		);
		await h.prompt("Delegate twice.");
		expect(lastToolResultText(h, 1)).toContain(output);
		expect(lastToolResultText(h, 2)).toContain(output);
		const warnings = h.ui!.notifications().filter((n) => n.message.includes("output-minimizer"));
		expect(warnings).toEqual([
			{ message: "output-minimizer: internal error; the result was left unchanged.", level: "warning" },
		]);
		expect(h.entries("pi-policy.audit")).toEqual([{ v: 1, ext: "output-minimizer", event: "handler-error" }]);
	});
});

describe("status after /tree", () => {
	it("counts the branch /tree moved to, not the abandoned one", async () => {
		const stock = createStockSubagent();
		stock.queue(
			{ kind: "single", child: { agent: "scout", output: realText(100_000, 1) } },
			{ kind: "single", child: { agent: "scout", output: realText(5_000, 2) } },
		);
		const h = await createHarness({
			extensions: [stock.extension, outputMinimizer],
			tools: ["read", "bash", "subagent"],
		});
		try {
			h.script("ok");
			await h.prompt("hello");
			const before = h.session.sessionManager.getLeafId();
			h.script(callTool("subagent", { agent: "scout", task: "one" }), "done");
			await h.prompt("Delegate one.");
			await h.session.navigateTree(before as string, { summarize: false });
			h.script(callTool("subagent", { agent: "scout", task: "two" }), "done");
			await h.prompt("Delegate two.");
			await h.command("/output-minimizer status");
			const status = h.ui?.notifications().at(-1)?.message ?? "";
			expect(status).toContain("results minimized: 1");
			expect(status).toMatch(/outputs referenced: 1\b/);
			expect(status).not.toContain("104");
		} finally {
			await h.dispose();
		}
	});
});
