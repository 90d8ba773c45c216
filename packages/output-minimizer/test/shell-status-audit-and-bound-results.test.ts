// Session tests for shell behaviours a mutation audit found unguarded: running totals in audit entries after
// /reload, the exact not-live status, the usage line, failed notify saves, a failed bounded child, and the
// pass-through category.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, type Harness, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { loadPiSubagentsNotify } from "./support/pi-subagents-source.ts";
import { createStockSubagent, type StockSubagent } from "./support/stock-subagent.ts";

const sessions = sessionPerTest({ tools: ["read", "subagent"] });

interface AuditEntry {
	event: string;
	category?: string;
	counters?: Record<string, number>;
}

function start(stock: StockSubagent, config?: unknown, extra: Parameters<typeof sessions.start>[0] = {}) {
	return sessions.start({
		extensions: [stock.extension, outputMinimizer],
		...(config !== undefined ? { config: { "output-minimizer": config } } : {}),
		...extra,
	});
}

async function delegate(h: Harness, args: Record<string, unknown>) {
	h.script(callTool("subagent", args), "done");
	await h.prompt("Delegate.");
}

function audit(h: Harness): AuditEntry[] {
	return h.entries<AuditEntry>("pi-policy.audit");
}

describe("running totals in minimized audit entries", () => {
	it("continues referencesTotal and bytesKeptOutTotal after /reload", async () => {
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
		const minimized = audit(h).filter((entry) => entry.event === "minimized");
		expect(minimized).toHaveLength(2);
		const [first, second] = minimized as [AuditEntry, AuditEntry];
		expect(first.counters).toMatchObject({ outputs: 1, referencesTotal: 1, reusedTotal: 0 });
		expect(second.counters).toMatchObject({ outputs: 1, referencesTotal: 2, reusedTotal: 0 });
		expect(first.counters!.bytesKeptOutTotal).toBe(first.counters!.bytesKeptOut);
		expect(second.counters!.bytesKeptOutTotal).toBe(first.counters!.bytesKeptOut! + second.counters!.bytesKeptOut!);
		expect(second.counters!.bytesKeptOut).toBeGreaterThan(19_000);
	});
});

describe("/output-minimizer status when not live", () => {
	it.each([
		["off", "output-minimizer: off (set in the config file)"],
		["loud", 'output-minimizer: disabled: global mode: expected one of "off", "reference"'],
	])("with mode %s and nothing counted answers its state line alone", async (mode, first) => {
		const h = await start(createStockSubagent(), { mode });
		await h.command("/output-minimizer status");
		expect(h.ui!.notifications().at(-1)).toEqual({ message: first, level: "info" });
	});

	it("turned off by /reload after minimizing, lists what this branch counted earlier", async () => {
		const stock = createStockSubagent();
		stock.queue({ kind: "single", child: { agent: "scout", output: realText(20_000, 7) } });
		const h = await start(stock);
		await delegate(h, { agent: "scout", task: "one" });
		await writeFile(join(h.agentDir, "policy", "output-minimizer.json"), '{ "mode": "off" }');
		await h.session.reload();
		await h.command("/output-minimizer status");
		const lines = h.ui!.notifications().at(-1)!.message.split("\n");
		expect(lines.slice(0, 3)).toEqual([
			"output-minimizer: off (set in the config file)",
			"counted earlier in this branch:",
			"results minimized: 1 (single 1, workflow 0, notify 0)",
		]);
		expect(lines[3]).toMatch(/^bytes kept out of context: [1-9]\d{3,}$/);
		expect(lines).toHaveLength(7);
	});
});

describe("/output-minimizer with a bad subcommand", () => {
	it("answers with the usage line, not the status", async () => {
		const h = await start(createStockSubagent());
		await h.command("/output-minimizer foo");
		expect(h.ui!.notifications().at(-1)).toEqual({ message: "Usage: /output-minimizer status", level: "warning" });
	});
});

describe("a notification that cannot be saved", () => {
	it("records persistence-failed and bounded-fallback, and no minimized entry", async () => {
		const notify = await loadPiSubagentsNotify();
		let sender: ExtensionAPI | undefined;
		const h = await sessions.start({
			extensions: [(pi: ExtensionAPI) => (sender = pi), outputMinimizer],
			agentDirFiles: { "policy/outputs": "blocked\n" },
		});
		const original = notify.formatSingleCompletion(
			notify.buildCompletionDetails({
				agent: "scout",
				success: true,
				summary: realText(20_000, 8_000),
				sessionId: "p",
			}),
		);
		const before = h.requests.length;
		sender!.sendMessage({ customType: "subagent-notify", content: original, display: true }, { triggerTurn: true });
		for (let i = 0; i < 200 && h.requests.length === before; i++) await new Promise((r) => setTimeout(r, 10));
		await h.session.waitForIdle();
		expect(audit(h)).toEqual([
			{
				v: 1,
				ext: "output-minimizer",
				event: "persistence-failed",
				mode: "reference",
				category: "notify",
				counters: { outputs: 1 },
			},
			{
				v: 1,
				ext: "output-minimizer",
				event: "bounded-fallback",
				mode: "reference",
				category: "notify",
				counters: { outputs: 1 },
			},
		]);
	});
});

describe("output: false", () => {
	it("keeps isError on a failed child's bounded result", async () => {
		const stock = createStockSubagent();
		stock.queue({
			kind: "single",
			child: { agent: "worker", output: realText(10_000, 321), error: "Tool budget exceeded after 40 calls" },
		});
		const h = await start(stock);
		await delegate(h, { agent: "worker", task: "Fix it", output: false });
		expect(audit(h)).toEqual([
			{ v: 1, ext: "output-minimizer", event: "bounded-inline", mode: "reference", category: "single" },
		]);
		expect((h.toolResults().at(-1) as { isError?: boolean }).isError).toBe(true);
	});
});

describe("pass-through audit category", () => {
	it("records a small workflow result as a workflow pass-through", async () => {
		const stock = createStockSubagent();
		stock.queue({
			kind: "workflow",
			children: [
				{ agent: "reviewer", key: "a", output: "ok" },
				{ agent: "reviewer", key: "b", output: "fine" },
			],
		});
		const h = await start(stock);
		await delegate(h, { workflowScript: "return results" });
		expect(audit(h)).toEqual([
			{ v: 1, ext: "output-minimizer", event: "passthrough-small", mode: "reference", category: "workflow" },
		]);
	});
});
