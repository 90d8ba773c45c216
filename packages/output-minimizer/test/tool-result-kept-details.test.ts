// Session tests (real Pi AgentSession, faux provider): the metadata a minimized `subagent` result keeps in its
// details, value for value.
import { callTool, type Harness, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { createStockSubagent, type StockChildRun, type StockSubagent } from "./support/stock-subagent.ts";

const sessions = sessionPerTest({ tools: ["read", "bash", "subagent"] });

async function start(stock: StockSubagent) {
	return sessions.start({ extensions: [stock.extension, outputMinimizer] });
}

async function delegate(h: Harness, args: Record<string, unknown>) {
	h.script(callTool("subagent", args), "done");
	await h.prompt("Delegate the review.");
}

function toolResultDetails(h: Harness): Record<string, unknown> {
	const result = h.toolResults().at(-1) as unknown as { details?: Record<string, unknown> };
	return result.details ?? {};
}

describe("kept details metadata", () => {
	it("keeps a single result's totalChildUsage exactly as pi-subagents reported it", async () => {
		const stock = createStockSubagent();
		stock.queue({ kind: "single", child: { agent: "scout", output: realText(20_000, 5_000) } });
		const h = await start(stock);
		await delegate(h, { agent: "scout", task: "Survey", async: false });

		const details = toolResultDetails(h);
		expect(details.outputMinimizer).toMatchObject({ v: 1, surface: "single", outputs: [{ delivery: "referenced" }] });
		expect(details.totalChildUsage).toEqual({
			input: 1200,
			output: 800,
			cacheRead: 0,
			cacheWrite: 0,
			cost: 0.0021,
			turns: 2,
		});
	});

	it("keeps a workflow's workflowChildren inventory and totalChildUsage exactly", async () => {
		const stock = createStockSubagent();
		const children: StockChildRun[] = [
			{ agent: "reviewer", key: "api", output: realText(40_000, 100) },
			{ agent: "tester", key: "tests", output: realText(12_000, 40_000), error: "tests failed: 3 of 120" },
		];
		stock.queue({ kind: "workflow", children });
		const h = await start(stock);
		await delegate(h, { workflowScript: "return await Promise.all(...)", async: false });

		const details = toolResultDetails(h);
		expect(details.outputMinimizer).toMatchObject({ v: 1, surface: "workflow" });
		const runId = details.runId as string;
		expect(runId).toMatch(/^[0-9a-f]{8}$/);
		expect(details.workflowChildren).toEqual({
			version: 1,
			parentToolCallId: "call",
			workflowRunId: runId,
			inventoryComplete: true,
			workflowState: "failed",
			children: [
				{ childId: "api", runId: `${runId}-0`, agent: "reviewer", state: "completed" },
				{ childId: "tests", runId: `${runId}-1`, agent: "tester", state: "failed" },
			],
		});
		expect(details.totalChildUsage).toEqual({
			input: 1200,
			output: 800,
			cacheRead: 0,
			cacheWrite: 0,
			cost: 0.0021,
			turns: 2,
		});
	});
});
