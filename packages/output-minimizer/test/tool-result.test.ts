// Session tests (real Pi AgentSession, faux provider): the `subagent` tool result surfaces, single and workflow.
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { callTool, type Harness, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import {
	bytesOf,
	fileMatchesReference,
	lastToolResultText,
	leakedProbes,
	observableOutput,
	proseProbes,
	referencesIn,
} from "./support/helpers.ts";
import { createStockSubagent, type StockChildRun, type StockSubagent } from "./support/stock-subagent.ts";

const TOOLS = ["read", "bash", "subagent"];
const sessions = sessionPerTest({ tools: TOOLS });

async function start(options: {
	stock: StockSubagent;
	minimizer?: boolean;
	config?: unknown;
	agentDirFiles?: Record<string, string>;
}) {
	return sessions.start({
		extensions: [options.stock.extension, ...(options.minimizer === false ? [] : [outputMinimizer])],
		...(options.config !== undefined ? { config: { "output-minimizer": options.config } } : {}),
		...(options.agentDirFiles ? { agentDirFiles: options.agentDirFiles } : {}),
	});
}

async function delegate(h: Harness, args: Record<string, unknown>) {
	h.script(callTool("subagent", args), "done");
	await h.prompt("Delegate the review.");
	return lastToolResultText(h, 1);
}

function outputsDir(h: Harness): string {
	return join(h.agentDir, "policy", "outputs", h.session.sessionManager.getSessionId());
}

function toolResultDetails(h: Harness): Record<string, unknown> {
	const result = h.toolResults().at(-1) as unknown as { details?: Record<string, unknown> };
	return result.details ?? {};
}

function receiptBytesWithoutPaths(line: string): number {
	return bytesOf(line.replace(/Output saved to: \S+/g, "Output saved to: "));
}

describe("foreground single result", () => {
	it("keeps the child's prose out of the parent's next request and references a matching file", async () => {
		const stock = createStockSubagent();
		const output = realText(60_000, 1_000);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start({ stock });
		const seen = await delegate(h, { agent: "scout", task: "Survey the changelog", async: false });

		const requestText = h.requestText(h.requests[1]!);
		expect(proseProbes(output).length).toBeGreaterThan(4);
		expect(leakedProbes(requestText, output)).toEqual([]);
		expect(bytesOf(seen)).toBeLessThan(1_200);
		// The frame lines pi-subagents puts around the child text stay: budget first, mission last.
		expect(seen.split("\n")[0]).toBe("Run fan-out: 1/64 used, 63 remaining");
		expect(seen.split("\n").at(-1)).toMatch(/^Mission: \S+ \(completed\)$/);

		const [reference, ...others] = referencesIn(seen);
		expect(others).toEqual([]);
		expect(reference?.line).toMatch(/^scout: completed\. Output saved to: /);
		const file = fileMatchesReference(reference!);
		expect(file.content).toBe(output);
		expect(file.bytesOk && file.linesOk).toBe(true);
		expect(reference!.path.startsWith(`${outputsDir(h)}/`)).toBe(true);
		expect(reference!.path).toMatch(/\/0001-scout\.md$/);
		expect(statSync(outputsDir(h)).mode & 0o777).toBe(0o700);
		expect(statSync(join(h.agentDir, "policy", "outputs")).mode & 0o777).toBe(0o700);
		expect(statSync(reference!.path).mode & 0o777).toBe(0o600);
		expect(readdirSync(outputsDir(h)).filter((name) => name.startsWith("."))).toEqual([]);
		expect(receiptBytesWithoutPaths(reference!.line)).toBeLessThanOrEqual(1024);
	});

	it("removes raw output from the persisted details and keeps status, usage, session and the reference", async () => {
		const stock = createStockSubagent();
		const output = realText(20_000, 5_000);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start({ stock });
		await delegate(h, { agent: "scout", task: "Survey", async: false });

		const details = toolResultDetails(h);
		const serialized = JSON.stringify(details);
		expect(leakedProbes(serialized, output)).toEqual([]);
		const [child] = details.results as Array<Record<string, unknown>>;
		expect(child?.finalOutput).toMatch(/^Output saved to: /);
		expect(child).not.toHaveProperty("messages");
		expect(child).toMatchObject({ agent: "scout", exitCode: 0, model: "faux/faux-1" });
		expect(child?.usage).toMatchObject({ input: 1200, output: 800 });
		expect(child?.sessionFile).toMatch(/scout-0\.jsonl$/);
		expect(child?.toolCalls).toEqual([{ name: "read", args: "src/index.ts" }]);
		const reference = child?.outputReference as { path: string; bytes: number; lines: number };
		expect(child?.savedOutputPath).toBe(reference.path);
		expect(reference.bytes).toBe(bytesOf(output));
		expect(details.outputMinimizer).toMatchObject({ v: 1, surface: "single", outputs: [{ delivery: "referenced" }] });
		expect(details.totalChildUsage).toBeDefined();

		const audit = h.entries<Record<string, unknown>>("pi-policy.audit");
		expect(audit).toContainEqual(expect.objectContaining({ event: "minimized", category: "single" }));
		const observable = observableOutput(h);
		expect(observable).not.toContain(h.agentDir);
		expect(leakedProbes(observable, output)).toEqual([]);
	});

	it("reuses the file pi-subagents saved for an explicit output path instead of copying it", async () => {
		const stock = createStockSubagent();
		const output = realText(9_000, 200);
		stock.queue({ kind: "single", child: { agent: "writer", output } });
		const h = await start({ stock });
		const seen = await delegate(h, { agent: "writer", task: "Write notes", output: "notes/writer.md", async: false });

		const [reference] = referencesIn(seen);
		expect(reference?.path).toBe(join(h.cwd, "notes", "writer.md"));
		const file = fileMatchesReference(reference!);
		expect(file.content).toBe(output);
		expect(file.bytesOk && file.linesOk).toBe(true);
		expect(existsSync(outputsDir(h))).toBe(false);
		expect(leakedProbes(h.requestText(h.requests[1]!), output)).toEqual([]);
		// The host's own "Output saved to: … (8.8 KB, …)" line is replaced by the exact-byte receipt.
		expect(seen).not.toMatch(/\d\.\d KB/);
		expect((toolResultDetails(h).outputMinimizer as { outputs: unknown[] }).outputs).toEqual([
			expect.objectContaining({ delivery: "reused", path: reference!.path }),
		]);
	});

	it("passes an explicit outputMode: inline result through unchanged, details included", async () => {
		const stock = createStockSubagent();
		const output = realText(15_000, 300);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start({ stock });
		const seen = await delegate(h, { agent: "scout", task: "Survey", outputMode: "inline", async: false });

		const produced = stock.produced[0]!;
		expect(seen).toBe(produced.content[0]!.text);
		expect(seen).toContain(output);
		expect(toolResultDetails(h)).toEqual(produced.details);
		expect(existsSync(outputsDir(h))).toBe(false);
		expect(h.entries("pi-policy.audit")).toContainEqual(
			expect.objectContaining({ event: "passthrough-inline", category: "single" }),
		);
	});

	it("passes output under minBytesToMinimize through unchanged", async () => {
		const stock = createStockSubagent();
		stock.queue({ kind: "single", child: { agent: "scout", output: "All 12 tests pass." } });
		const h = await start({ stock });
		const seen = await delegate(h, { agent: "scout", task: "Run tests", async: false });
		expect(seen).toBe(stock.produced[0]!.content[0]!.text);
		expect(h.entries("pi-policy.audit")).toContainEqual(expect.objectContaining({ event: "passthrough-small" }));
	});

	it("bounds output: false to 80 lines and 4 KiB, cut on a UTF-8 boundary, with no file", async () => {
		const stock = createStockSubagent();
		// Multi-byte text around every possible cut point: CJK, emoji and accented letters on long lines.
		const line = (n: number) => `${n}: résumé 😀 漢字かな交じり — ${"ÿ€".repeat(20)}`;
		const output = Array.from({ length: 400 }, (_, i) => line(i)).join("\n");
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start({ stock });
		const seen = await delegate(h, { agent: "scout", task: "Survey", output: false, async: false });

		expect(bytesOf(seen)).toBeLessThanOrEqual(4096);
		expect(seen.split("\n").length).toBeLessThanOrEqual(80);
		expect(seen).not.toContain("\uFFFD");
		expect(Buffer.from(seen, "utf8").toString("utf8")).toBe(seen);
		expect(seen).toContain(line(0));
		expect(seen).not.toContain(line(399));
		expect(seen).toContain("output: false keeps no file");
		expect(seen).not.toContain("Output saved to");
		expect(existsSync(join(h.agentDir, "policy", "outputs"))).toBe(false);
		expect(h.entries("pi-policy.audit")).toContainEqual(expect.objectContaining({ event: "bounded-inline" }));
		expect(JSON.stringify(toolResultDetails(h))).not.toContain(line(399));
	});

	it("gives the bounded fallback with no false claim when the output directory cannot be created", async () => {
		// Tests run as root, so chmod cannot make a directory read-only: a regular file where the outputs folder
		// should be makes mkdir fail for real (ENOTDIR/EEXIST).
		const stock = createStockSubagent();
		const output = realText(30_000, 700);
		stock.queue({ kind: "single", child: { agent: "scout", output } });
		const h = await start({ stock, agentDirFiles: { "policy/outputs": "not a directory\n" } });
		const seen = await delegate(h, { agent: "scout", task: "Survey", async: false });

		expect(seen).toMatch(/The output could not be saved: write failed \((ENOTDIR|EEXIST)\); intended path: \S+/);
		expect(seen).toContain(join(h.agentDir, "policy", "outputs"));
		expect(seen).toContain("The full output is unavailable");
		expect(seen).not.toContain("Output saved to");
		expect(seen).not.toContain("Read this file");
		expect(seen).not.toContain("kept out of context; each reference");
		const excerpt = seen.slice(seen.indexOf("the first lines follow.\n") + "the first lines follow.\n".length);
		const body = excerpt.slice(0, excerpt.lastIndexOf("\n[output-minimizer: showed"));
		expect(output.startsWith(body)).toBe(true);
		expect(bytesOf(body)).toBeLessThanOrEqual(4096);
		expect(body.split("\n").length).toBeLessThanOrEqual(80);
		expect(bytesOf(seen)).toBeLessThan(4096 + 1024);
		const events = h.entries<{ event: string }>("pi-policy.audit").map((entry) => entry.event);
		expect(events).toEqual(expect.arrayContaining(["persistence-failed", "bounded-fallback"]));
		expect(events).not.toContain("minimized");
		expect(statSync(join(h.agentDir, "policy", "outputs")).isFile()).toBe(true);
	});
});

describe("failed, paused, stopped and timed-out children", () => {
	const cases: Array<[string, StockChildRun, RegExp, RegExp]> = [
		[
			"failed",
			{ agent: "worker", output: realText(8_000, 900), error: "Tool budget exceeded after 40 calls" },
			/^worker: failed \(exit 1\)\. Error: Tool budget exceeded after 40 calls\. Output saved to: /m,
			/Recovery: the child failed; the saved output holds what it produced\./,
		],
		[
			"paused",
			{ agent: "worker", output: realText(8_000, 1900), interrupted: true },
			/^worker: paused\. Output saved to: /m,
			/Recovery: the child is paused, not finished; .*subagent\(\{ action: "resume", id: "[0-9a-f]{8}"/,
		],
		[
			"stopped",
			{ agent: "worker", output: realText(8_000, 2900), stopped: true, error: "Stopped by user" },
			/^worker: stopped \(exit 1\)\. Error: Stopped by user\. Output saved to: /m,
			/Recovery: the child was stopped before finishing; the saved output holds what it produced\./,
		],
	];

	it.each(cases)(
		"keeps the %s status, error and recovery guidance, and references the output",
		async (_name, child, status, recovery) => {
			const stock = createStockSubagent();
			stock.queue({ kind: "single", child });
			const h = await start({ stock });
			const seen = await delegate(h, { agent: "worker", task: "Fix it", async: false });
			expect(seen).toMatch(status);
			expect(seen).toMatch(recovery);
			expect(leakedProbes(h.requestText(h.requests[1]!), child.output)).toEqual([]);
			const [reference] = referencesIn(seen);
			expect(fileMatchesReference(reference!).content).toBe(child.output);
			expect(receiptBytesWithoutPaths(reference!.line)).toBeLessThanOrEqual(1024);
			const produced = stock.produced[0]!;
			expect((h.toolResults().at(-1) as { isError?: boolean }).isError).toBe(produced.isError);
			if (child.interrupted)
				expect(seen).toContain("Run paused after interrupt (worker). Waiting for explicit next action.");
		},
	);

	it("keeps a timed-out child's status inside a workflow, with one receipt line per child and no prose", async () => {
		const stock = createStockSubagent();
		const children: StockChildRun[] = [
			{ agent: "reviewer", key: "api", output: realText(40_000, 100) },
			{ agent: "reviewer", key: "docs", output: realText(25_000, 20_000) },
			{ agent: "tester", key: "tests", output: realText(12_000, 40_000), error: "tests failed: 3 of 120" },
			{
				agent: "scout",
				key: "perf",
				output: "Subagent timed out after 600000ms.",
				timedOut: true,
				error: "Subagent timed out after 600000ms.",
			},
		];
		stock.queue({ kind: "workflow", children });
		const h = await start({ stock });
		const seen = await delegate(h, { workflowScript: "return await Promise.all(...)", async: false });

		const requestText = h.requestText(h.requests[1]!);
		for (const child of children) expect(leakedProbes(requestText, child.output)).toEqual([]);
		const receiptLines = seen.split("\n").filter((line) => line.startsWith("- "));
		expect(receiptLines).toHaveLength(5);
		expect(receiptLines[0]).toMatch(/^- reviewer \(key api\): completed\. Output saved to: /);
		expect(receiptLines[1]).toMatch(/^- reviewer \(key docs\): completed\. Output saved to: /);
		expect(receiptLines[2]).toMatch(
			/^- tester \(key tests\): failed \(exit 1\)\. Error: tests failed: 3 of 120\. Output saved to: /,
		);
		expect(receiptLines[2]).toMatch(/Recovery: the child failed/);
		expect(receiptLines[3]).toMatch(
			/^- scout \(key perf\): timed out \(exit 1\)\. Error: Subagent timed out after 600000ms\. /,
		);
		expect(receiptLines[3]).toMatch(/Recovery: the child timed out; .*Rerun with a longer timeout or resume it\./);
		expect(receiptLines[4]).toMatch(/^- workflow text \(return value, console, call trace\): Output saved to: /);
		expect(seen.split("\n")[1]).toMatch(/^Workflow failed: /);
		for (const line of receiptLines) expect(receiptBytesWithoutPaths(line)).toBeLessThanOrEqual(1024);

		const references = referencesIn(seen);
		expect(references).toHaveLength(5);
		references.slice(0, 4).forEach((reference, index) => {
			const file = fileMatchesReference(reference);
			expect(file.content).toBe(children[index]!.output);
			expect(file.bytesOk && file.linesOk).toBe(true);
		});
		expect(fileMatchesReference(references[4]!).content).toBe(stock.produced[0]!.content[0]!.text);

		const details = toolResultDetails(h);
		const serialized = JSON.stringify(details);
		for (const child of children) expect(leakedProbes(serialized, child.output)).toEqual([]);
		expect(details.workflow).not.toHaveProperty("console");
		expect(details.workflow).not.toHaveProperty("value");
		expect(details.workflow).toHaveProperty("trace");
		expect(details.workflowChildren).toBeDefined();
		expect((details.results as Array<Record<string, unknown>>).map((r) => r.workflowKey)).toEqual([
			"api",
			"docs",
			"tests",
			"perf",
		]);
		expect(h.entries("pi-policy.audit")).toContainEqual(
			expect.objectContaining({ event: "minimized", category: "workflow" }),
		);
	});

	it("minimizes a completed workflow whose return value embeds every child's output", async () => {
		const stock = createStockSubagent();
		const children: StockChildRun[] = [
			{ agent: "reviewer", key: "a", output: realText(5_000, 10) },
			{ agent: "reviewer", key: "b", output: realText(5_000, 50_000) },
		];
		stock.queue({ kind: "workflow", children });
		const h = await start({ stock });
		const seen = await delegate(h, { workflowScript: "return results", async: false });
		expect(stock.produced[0]!.content[0]!.text).toContain(JSON.stringify(children[0]!.output).slice(1, 60));
		expect(seen.split("\n").slice(0, 3)).toEqual([
			"Run fan-out: 2/64 used, 62 remaining",
			"Workflow completed.",
			"[output-minimizer] 2 workflow child outputs kept out of context; each reference below points to the full text.",
		]);
		for (const child of children) expect(leakedProbes(h.requestText(h.requests[1]!), child.output)).toEqual([]);
		expect(referencesIn(seen)).toHaveLength(3);
	});
});

describe("results the minimizer leaves alone", () => {
	it("does not touch management results or other tools", async () => {
		const stock = createStockSubagent();
		const h = await start({ stock });
		await mkdir(join(h.cwd, "big"), { recursive: true });
		writeFileSync(join(h.cwd, "big", "file.md"), realText(20_000));
		h.script(callTool("subagent", { action: "list" }), callTool("read", { path: "big/file.md" }), "done");
		await h.prompt("List agents, then read the file.");
		expect(lastToolResultText(h, 1)).toBe("Agents: reviewer, scout, worker");
		expect(lastToolResultText(h, 2)).toContain(realText(20_000).slice(0, 200));
		expect(h.entries("pi-policy.audit")).toEqual([]);
	});
});
