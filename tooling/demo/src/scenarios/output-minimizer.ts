// output-minimizer demo: a delegated review whose child outputs stay in files; the parent sees receipts, shown
// next to what stock Pi with pi-subagents would have put in context.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { callTool, hostPackageDir, realText } from "@pi-policy/pi-harness";
import outputMinimizer from "../../../../packages/output-minimizer/src/index.ts";
import {
	createStockSubagent,
	type StockSubagent,
} from "../../../../packages/output-minimizer/test/support/stock-subagent.ts";
import { formatBytes } from "../report.ts";
import type { DemoScenario } from "../scenario.ts";

let stock: StockSubagent | undefined;

function firstLines(text: string, count: number, width = 110): string[] {
	return text
		.split("\n")
		.slice(0, count)
		.map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
}

/** A delegated code review: one scout, then a three-child review workflow, on real text from the host package. */
export const outputMinimizerScenario: DemoScenario = {
	id: "output-minimizer",
	title: "output-minimizer: delegated output by reference",
	summary:
		"Two delegations (one child, then a 3-child workflow). The parent gets receipts; the full text stays in files.",
	prompt: "Review the session manager and its docs with subagents, then summarize the findings.",
	tools: ["read", "bash", "edit", "write", "grep", "find", "ls", "subagent"],
	extensions: () => {
		stock = createStockSubagent();
		const docs = (name: string) => readFileSync(join(hostPackageDir(), "docs", name), "utf8");
		stock.queue(
			{ kind: "single", child: { agent: "scout", output: realText(45_000, 2_000) } },
			{
				kind: "workflow",
				children: [
					{ agent: "reviewer", key: "sdk", output: docs("sdk.md") },
					{ agent: "reviewer", key: "sessions", output: docs("session-format.md") },
					{ agent: "tester", key: "tests", output: realText(9_000, 30_000) },
				],
			},
		);
		return [stock.extension, outputMinimizer];
	},
	steps: () => [
		callTool("subagent", { agent: "scout", task: "Survey recent changes to session handling.", async: false }),
		callTool("subagent", {
			workflowScript:
				"const r = await Promise.all([...]); return { sdk: r[0].output, sessions: r[1].output, tests: r[2].output };",
			async: false,
		}),
		"The scout's survey and the three reviews are saved as files; I read the test report before patching.",
	],
	afterCommands: ["/output-minimizer status"],
	narrate: (harness) => {
		const lines: string[] = [];
		const results = harness.toolResults().filter((result) => result.toolName === "subagent");
		(stock?.produced ?? []).forEach((produced, index) => {
			const stockText = produced.content.map((block) => block.text).join("\n");
			const receipt = results[index] ? harness.toolResultText(results[index]) : "";
			const stockBytes = Buffer.byteLength(stockText);
			const receiptBytes = Buffer.byteLength(receipt);
			const change =
				receiptBytes <= stockBytes ? `${((1 - receiptBytes / stockBytes) * 100).toFixed(1)}% less` : "larger";
			lines.push(
				`delegation ${index + 1}: stock pi-subagents would put ${formatBytes(stockBytes)} in context; the receipt is ${formatBytes(receiptBytes)} (${change}).`,
			);
			lines.push("  stock (first lines):");
			for (const line of firstLines(stockText, 4)) lines.push(`    | ${line}`);
			lines.push("  with output-minimizer:");
			for (const line of firstLines(receipt, 8, 160)) lines.push(`    | ${line}`);
		});
		return lines;
	},
};

export default outputMinimizerScenario;
