// output-minimizer: parent-context bytes of a delegated workload with stock pi-subagents result shapes versus
// with the minimizer, measured side by side in one run, plus a byte-for-byte recoverability check of every
// child output from the files the receipts reference.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { callTool, createHarness, type Harness, hostPackageDir, realText } from "@pi-policy/pi-harness";
import outputMinimizer from "../../../../packages/output-minimizer/src/index.ts";
import {
	createStockSubagent,
	type StockRun,
} from "../../../../packages/output-minimizer/test/support/stock-subagent.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

/** Child outputs from real text files: a few KB to several hundred KB. */
function childOutputs(): Record<string, string> {
	const host = hostPackageDir();
	const read = (path: string) => readFileSync(join(host, path), "utf8");
	return {
		"tests (3 KB)": realText(3_000, 11_000),
		"api-review (19 KB, cli.md)": read("docs/cli.md"),
		"session-audit (62 KB, session-manager.js)": read("dist/core/session-manager.js"),
		"docs-review (158 KB, extensions.md)": read("docs/extensions.md"),
		"architecture (176 KB, agent-session.js)": read("dist/core/agent-session.js"),
		"changelog-digest (400 KB)": realText(400_000, 5_000),
	};
}

function runs(outputs: Record<string, string>): { runs: StockRun[]; calls: Array<Record<string, unknown>> } {
	const [tests, api, session, docs, architecture, changelog] = Object.values(outputs) as string[];
	return {
		runs: [
			{ kind: "single", child: { agent: "tester", output: tests as string } },
			{ kind: "single", child: { agent: "scout", output: changelog as string } },
			{
				kind: "workflow",
				children: [
					{ agent: "reviewer", key: "api", output: api as string },
					{ agent: "reviewer", key: "docs", output: docs as string },
					{ agent: "auditor", key: "session", output: session as string },
				],
			},
			{ kind: "single", child: { agent: "architect", output: architecture as string } },
		],
		calls: [
			{ agent: "tester", task: "Run the test suite and report failures.", async: false },
			{ agent: "scout", task: "Digest the changelog.", async: false },
			{
				workflowScript:
					"const [a, b, c] = await Promise.all([...]); return { api: a.output, docs: b.output, session: c.output };",
				async: false,
			},
			{ agent: "architect", task: "Explain the agent session architecture.", async: false },
		],
	};
}

/** Bytes of every delegated tool result the parent model saw in its last request. */
function delegatedBytes(harness: Harness): number {
	const last = harness.requests.at(-1);
	if (!last) return 0;
	let bytes = 0;
	for (const message of last.messages) {
		if (message.role !== "toolResult" || message.toolName !== "subagent") continue;
		for (const block of message.content) if (block.type === "text") bytes += Buffer.byteLength(block.text);
	}
	return bytes;
}

function delegatedTexts(harness: Harness): string[] {
	const last = harness.requests.at(-1);
	return (last?.messages ?? [])
		.filter((message) => message.role === "toolResult" && message.toolName === "subagent")
		.map((message) => (message.role === "toolResult" ? message.content : []))
		.map((content) => content.map((block) => (block.type === "text" ? block.text : "")).join("\n"));
}

async function runSide(withMinimizer: boolean) {
	const outputs = childOutputs();
	const plan = runs(outputs);
	const stock = createStockSubagent();
	stock.queue(...plan.runs);
	const harness = await createHarness({
		extensions: [stock.extension, ...(withMinimizer ? [outputMinimizer] : [])],
		tools: ["read", "bash", "subagent"],
	});
	try {
		harness.script(...plan.calls.map((args) => callTool("subagent", args)), "All delegated work is summarized above.");
		await harness.prompt("Review the project with subagents and report.");
		const lastRequest = harness.requests.at(-1);
		return {
			outputs,
			bytes: delegatedBytes(harness),
			lastRequest: lastRequest ? harness.requestBytes(lastRequest) : 0,
			texts: delegatedTexts(harness),
			stockTexts: stock.produced.map((result) => result.content.map((block) => block.text).join("\n")),
		};
	} finally {
		// Read the referenced files before the temp agentDir is removed.
		if (withMinimizer) recoverability.value = measureRecoverability(harness);
		await harness.dispose();
	}
}

const recoverability: { value: { recovered: number; total: number; files: number } } = {
	value: { recovered: 0, total: 0, files: 0 },
};

function measureRecoverability(harness: Harness): { recovered: number; total: number; files: number } {
	const outputs = Object.values(childOutputs());
	const files = new Map<string, string>();
	for (const text of delegatedTexts(harness)) {
		for (const match of text.matchAll(/Output saved to: (\S+) \((\d+) bytes?, (\d+) lines?\)/g)) {
			const content = readFileSync(match[1] as string);
			if (content.byteLength === Number(match[2])) files.set(match[1] as string, content.toString("utf8"));
		}
	}
	const contents = [...files.values()];
	let recovered = 0;
	let total = 0;
	for (const output of outputs) {
		const bytes = Buffer.byteLength(output);
		total += bytes;
		if (contents.includes(output)) recovered += bytes;
	}
	return { recovered, total, files: files.size };
}

export const outputMinimizerWorkload: BenchWorkload = {
	id: "output-minimizer",
	title: "output-minimizer: delegated output reaching the parent, stock pi-subagents shapes vs reference-first",
	async run(): Promise<BenchResult> {
		const stock = await runSide(false);
		const minimized = await runSide(true);
		const { recovered, total, files } = recoverability.value;
		const cut = stock.bytes > 0 ? 1 - minimized.bytes / stock.bytes : 0;
		const childBytes = Object.values(stock.outputs).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
		return {
			id: this.id,
			title: this.title,
			figures: [
				{ name: "children", value: Object.keys(stock.outputs).length, unit: "count" },
				{ name: "child output (sum)", value: childBytes, unit: "bytes" },
				{ name: "delegated bytes reaching the parent, stock", value: stock.bytes, unit: "bytes" },
				{ name: "delegated bytes reaching the parent, minimized", value: minimized.bytes, unit: "bytes" },
				{ name: "parent-context cut", value: cut, unit: "ratio" },
				{ name: "last request, stock", value: stock.lastRequest, unit: "bytes" },
				{ name: "last request, minimized", value: minimized.lastRequest, unit: "bytes" },
				{ name: "referenced files", value: files, unit: "count" },
				{ name: "child bytes recoverable from references", value: total > 0 ? recovered / total : 0, unit: "ratio" },
			],
			checks: [
				{ name: "parent-context cut >= 95%", passed: cut >= 0.95 },
				{
					name: "100% of child output bytes recoverable from referenced files",
					passed: total > 0 && recovered === total,
				},
				{ name: "stock delivered every child's full output", passed: stock.bytes >= childBytes },
			],
		};
	},
};

export default outputMinimizerWorkload;
