// context-shunt on an MCP-heavy workload: a real MCP server from npm (@modelcontextprotocol/server-filesystem),
// connected through Pi's own MCP support, returns large text and JSON (a 5,000-line log, a 300 KB JSON document, a
// directory tree). Stock Pi against context-shunt with `"tools": { "mcp__fs__*": "shunt" }`: the bytes that reach
// the model, and exact recovery through jsonPointer, pattern and byte ranges.
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMcpExtension, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, callTools, createHarness, type Harness } from "@pi-policy/pi-harness";
import { createContextShunt } from "../../../../packages/context-shunt/src/index.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

const shuntPackage = join(dirname(fileURLToPath(import.meta.url)), "../../../../packages/context-shunt/package.json");
const SERVER = join(
	dirname(createRequire(shuntPackage).resolve("@modelcontextprotocol/server-filesystem/package.json")),
	"dist",
	"index.js",
);
const READ = "mcp__fs__read_text_file";
const TREE = "mcp__fs__directory_tree";

const logLines = Array.from(
	{ length: 5000 },
	(_, i) =>
		`2026-11-30T10:${String(i % 60).padStart(2, "0")} worker-${i % 8} ${i % 211 === 0 ? "ERROR timeout on shard" : "ok batch"} ${i + 1}`,
);
const LOG = `${logLines.join("\n")}\n`;
const DOC = {
	total: 1200,
	items: Array.from({ length: 1200 }, (_, i) => ({
		number: 1000 + i,
		title: `Crash when parsing config section ${i}`,
		state: i % 3 === 0 ? "closed" : "open",
		labels: [{ name: "bug" }, { name: i % 2 ? "p1" : "p2" }],
		body: `Steps to reproduce ${i}: ${"run the tool with a long config; ".repeat(4)}`,
	})),
};
const JSON_TEXT = JSON.stringify(DOC, null, 2);

function workspace(): Record<string, string> {
	const files: Record<string, string> = { "logs/server.log": LOG, "data/issues.json": JSON_TEXT };
	for (let d = 0; d < 30; d++)
		for (let f = 0; f < 25; f++) files[`src/module_${d}/file_${f}.ts`] = `export const v${f} = ${d};\n`;
	return files;
}

function filesystemServer(pi: ExtensionAPI): void {
	pi.on("session_start", (_event, ctx) => {
		pi.registerMcpServer("fs", { command: process.execPath, args: [SERVER, ctx.cwd], exposure: "direct" });
	});
}

const calls = (cwd: string) => [
	callTool(READ, { path: join(cwd, "logs/server.log") }, "m-log"),
	callTool(READ, { path: join(cwd, "data/issues.json") }, "m-json"),
	callTool(TREE, { path: join(cwd, "src") }, "m-tree"),
];

function resultBytes(harness: Harness): number {
	let total = 0;
	for (const result of harness.toolResults()) total += Buffer.byteLength(harness.toolResultText(result));
	return total;
}

async function run(shunt: boolean) {
	const tempRoot = await mkdtemp(join(tmpdir(), "cs-mcp-bench-"));
	const harness = await createHarness({
		files: workspace(),
		tools: ["read", "bash", "edit", "write", READ, TREE, "context_shunt_recover"],
		extensions: [createMcpExtension(), filesystemServer, ...(shunt ? [createContextShunt({ tempRoot })] : [])],
		...(shunt ? { config: { "context-shunt": { mode: "enforce", tools: { "mcp__fs__*": "shunt" } } } } : {}),
	});
	try {
		harness.script(...calls(harness.cwd), "Read the log, the issues and the tree.");
		await harness.prompt("Look at the server log, the open issues and the source tree.");
		const last = harness.requests.at(-1);
		const figures = {
			resultBytes: resultBytes(harness),
			requestBytes: last === undefined ? 0 : harness.requestBytes(last),
			receipts: 0,
			pointerExact: false,
			patternExact: false,
			bytesExact: false,
		};
		if (!shunt) return figures;
		const ids = new Map<string, string>();
		for (const result of harness.toolResults()) {
			const match = /artifact (csa_[0-9a-f]{24})/.exec(harness.toolResultText(result));
			if (match?.[1]) ids.set(result.toolCallId, match[1]);
		}
		figures.receipts = ids.size;
		const logId = ids.get("m-log") ?? "";
		const jsonId = ids.get("m-json") ?? "";
		const pages = Math.ceil(Buffer.byteLength(LOG) / 16_384);
		harness.script(
			callTools(
				{ name: "context_shunt_recover", args: { artifactId: jsonId, jsonPointer: "/items/777" }, id: "p-1" },
				{
					name: "context_shunt_recover",
					args: { artifactId: logId, pattern: "ERROR timeout", contextLines: 0 },
					id: "p-2",
				},
				...Array.from({ length: pages }, (_, page) => ({
					name: "context_shunt_recover",
					args: { artifactId: logId, byteOffset: page * 16_384, maxBytes: 16_384 },
					id: `b-${page}`,
				})),
			),
			"Recovered.",
		);
		await harness.prompt("Recover issue 1777, the errors and the whole log.");
		const byId = new Map(harness.toolResults().map((r) => [r.toolCallId, r]));
		const body = (id: string) => (byId.get(id)?.content as Array<{ text?: string }> | undefined)?.[1]?.text ?? "";
		try {
			figures.pointerExact = JSON.stringify(JSON.parse(body("p-1"))) === JSON.stringify(DOC.items[777]);
		} catch {
			figures.pointerExact = false;
		}
		const expected = logLines
			.flatMap((line, i) => (line.includes("ERROR timeout") ? [`${i + 1}: ${line}\n`] : []))
			.join("");
		figures.patternExact = body("p-2") === expected;
		const whole = Array.from({ length: pages }, (_, page) => body(`b-${page}`)).join("");
		figures.bytesExact = Buffer.from(whole).equals(Buffer.from(LOG));
		return figures;
	} finally {
		await harness.shutdown();
		await harness.dispose();
		await rm(tempRoot, { recursive: true, force: true });
	}
}

export const contextShuntMcpWorkload: BenchWorkload = {
	id: "context-shunt-mcp",
	title: "context-shunt on an MCP-heavy workload (real @modelcontextprotocol/server-filesystem): stock vs shunt",
	async run(): Promise<BenchResult> {
		const stock = await run(false);
		const shunt = await run(true);
		const cut = 1 - shunt.resultBytes / stock.resultBytes;
		return {
			id: this.id,
			title: this.title,
			figures: [
				{ name: "stock: MCP output reaching the model", value: stock.resultBytes, unit: "bytes" },
				{ name: "shunt: MCP output reaching the model", value: shunt.resultBytes, unit: "bytes" },
				{ name: "cut in MCP output bytes", value: cut, unit: "percent" },
				{ name: "stock: request after the reads", value: stock.requestBytes, unit: "bytes" },
				{ name: "shunt: request after the reads", value: shunt.requestBytes, unit: "bytes" },
				{ name: "originals preserved whole (of 3)", value: shunt.receipts, unit: "count" },
				{ name: "jsonPointer recovery exact", value: shunt.pointerExact ? 1 : 0, unit: "count" },
				{ name: "pattern recovery exact", value: shunt.patternExact ? 1 : 0, unit: "count" },
				{ name: "whole log recovered byte-identical", value: shunt.bytesExact ? 1 : 0, unit: "count" },
			],
			checks: [
				{ name: "every large MCP output preserved", passed: shunt.receipts === 3 },
				{ name: "MCP output bytes reaching the model cut >= 80%", passed: cut >= 0.8 },
				{ name: "jsonPointer returns the exact subtree", passed: shunt.pointerExact },
				{ name: "pattern returns the exact matching lines with their numbers", passed: shunt.patternExact },
				{ name: "the whole original comes back byte-identical", passed: shunt.bytesExact },
			],
		};
	},
};

export default contextShuntMcpWorkload;
