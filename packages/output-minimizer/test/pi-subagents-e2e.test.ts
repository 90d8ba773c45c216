// End to end: the real `pi` CLI with the real pi-subagents 0.67.0 and this extension (loaded from source with -e),
// both models served by the loopback provider. A foreground child returns a large answer; the parent's next
// request must not contain it, and the referenced file must hold it byte for byte.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	type LoopbackProvider,
	type PiCliFixture,
	type PiCliResult,
	type PiJsonEvent,
	type PiSubagentProfile,
	requestSystemPrompt,
	resolvePiSubagentsExtensionPath,
	startPiCliFixture,
	toolResultTexts,
} from "@pi-policy/loopback-provider";
import { realText } from "@pi-policy/pi-harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileMatchesReference, leakedProbes, proseProbes, referencesIn } from "./support/helpers.ts";

// pi-subagents' own reader of a result's output, which its TUI uses to decide whether a child returned any text.
const { getSingleResultOutput } = (await import(
	join(dirname(resolvePiSubagentsExtensionPath()), "src/shared/utils.ts")
)) as { getSingleResultOutput: (result: { finalOutput?: string; messages?: unknown[] }) => string };
const EXTENSION = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const KERNEL_DIST = fileURLToPath(new URL("../../policy-kernel/dist/minimize.js", import.meta.url));
const CHILD_TOKEN = "OUTPUT-MINIMIZER-E2E-CHILD";
// A large, real-looking answer: changelog prose and code, 48 KB, with a marker line the test can look for.
const CHILD_ANSWER = `E2E-CHILD-MARKER: the child's full report follows.\n${realText(48_000, 2_500)}`;

const CHILD_AGENT: PiSubagentProfile = {
	name: "big-child",
	description: "Loopback test child that returns a long report",
	prompt: `${CHILD_TOKEN}: you are a test child. Return the full report.`,
};

function subagentEndOf(run: PiCliResult): PiJsonEvent | undefined {
	return run.jsonEvents.find((event) => event.type === "tool_execution_end" && event.toolName === "subagent");
}

/** Runs the real CLI with pi-subagents (and optionally this extension) against a fresh loopback server. */
async function delegateWithCli(prefix: string, withMinimizer: boolean) {
	const fixture = await startPiCliFixture({
		prefix,
		provider: {
			chunkSize: 4096,
			router: (request) => (requestSystemPrompt(request).includes(CHILD_TOKEN) ? { text: CHILD_ANSWER } : undefined),
			steps: [
				{
					toolCalls: [{ name: "subagent", arguments: { agent: "big-child", task: "Write the report.", async: false } }],
				},
				(request) => ({ text: `Parent saw ${toolResultTexts(request).join(" ").length} characters.` }),
			],
		},
		agents: [CHILD_AGENT],
	});
	const result = await fixture.run(
		[
			"--mode",
			"json",
			"--model",
			"loop/loop-1",
			"-e",
			resolvePiSubagentsExtensionPath(),
			...(withMinimizer ? ["-e", EXTENSION] : []),
			"-p",
			"Delegate the report to big-child.",
		],
		{ timeoutMs: 90_000 },
	);
	return { fixture, result };
}

describe("real pi-subagents foreground delegation with output-minimizer (pi CLI + loopback provider)", () => {
	const fixtures: PiCliFixture[] = [];
	let server: LoopbackProvider;
	let agentDir: string;
	let result: PiCliResult;
	let subagentEnd: PiJsonEvent | undefined;
	let stock: { server: LoopbackProvider; result: PiCliResult; subagentEnd: PiJsonEvent | undefined };

	beforeAll(async () => {
		// Bare kernel imports resolve to the kernel's dist in the CLI process: build it first.
		if (!existsSync(KERNEL_DIST))
			throw new Error("build the kernel first: pnpm --filter @pi-policy/policy-kernel run build");
		// The same delegation twice, side by side: stock pi-subagents alone, then with output-minimizer.
		const stockRun = await delegateWithCli("om-e2e-stock-", false);
		fixtures.push(stockRun.fixture);
		stock = { server: stockRun.fixture.server, result: stockRun.result, subagentEnd: subagentEndOf(stockRun.result) };
		const minimized = await delegateWithCli("om-e2e-minimized-", true);
		fixtures.push(minimized.fixture);
		server = minimized.fixture.server;
		result = minimized.result;
		agentDir = minimized.fixture.agentDir;
		subagentEnd = subagentEndOf(result);
	}, 180_000);

	afterAll(async () => {
		for (const fixture of fixtures) await fixture.dispose();
	});

	it("pins the stock baseline: without the minimizer the child's whole answer reaches the parent", () => {
		expect(stock.result.code, stock.result.stderr).toBe(0);
		const [toolResult] = toolResultTexts(stock.server.chatRequests[2]!);
		expect(toolResult).toContain(CHILD_ANSWER);
		// Host fact not in host-facts.md: 0.67.0 also embeds a preview of the child's output in the foreground
		// details, as details.mission.summary, and stamps results[].outputMode "inline" when the caller set none.
		const details = (stock.subagentEnd?.result as { details?: Record<string, unknown> } | undefined)?.details;
		expect(String((details?.mission as { summary?: unknown } | undefined)?.summary)).toContain("E2E-CHILD-MARKER");
		const [first] = (details?.results ?? []) as Array<Record<string, unknown>>;
		expect(first).toMatchObject({ outputMode: "inline", finalOutput: CHILD_ANSWER });
		expect(first?.savedOutputPath).toBeUndefined();
	});

	it("cuts the parent's delegated tool-result bytes by more than 95% against stock", () => {
		const stockBytes = Buffer.byteLength(toolResultTexts(stock.server.chatRequests[2]!).join(""));
		const minimizedBytes = Buffer.byteLength(toolResultTexts(server.chatRequests[2]!).join(""));
		expect(stockBytes).toBeGreaterThan(48_000);
		expect(1 - minimizedBytes / stockBytes).toBeGreaterThan(0.95);
	});

	it("runs parent, child and parent follow-up to completion", () => {
		expect(result.timedOut, result.stderr).toBe(false);
		expect(result.code, result.stderr).toBe(0);
		expect(server.chatRequests.map((request) => request.replySource)).toEqual(["script", "router", "script"]);
	});

	it("keeps the child's answer out of the parent's next request and references a file that holds it exactly", () => {
		const followUp = server.chatRequests[2];
		const body = JSON.stringify(followUp?.body ?? {});
		expect(proseProbes(CHILD_ANSWER).length).toBeGreaterThan(4);
		expect(body).not.toContain("E2E-CHILD-MARKER");
		expect(leakedProbes(body, CHILD_ANSWER)).toEqual([]);

		const [toolResult] = toolResultTexts(followUp!);
		expect(toolResult?.split("\n")[0]).toBe("Run fan-out: 1/64 used, 63 remaining");
		expect(toolResult).toMatch(/^Mission: \S+ \(completed\)$/m);
		const references = referencesIn(toolResult ?? "");
		expect(references).toHaveLength(1);
		expect(references[0]!.line).toMatch(/^big-child: completed\. Output saved to: /);
		const file = fileMatchesReference(references[0]!);
		expect(file.content).toBe(CHILD_ANSWER);
		expect(file.bytesOk && file.linesOk).toBe(true);
		expect(references[0]!.path.startsWith(join(agentDir, "policy", "outputs"))).toBe(true);
		expect(Buffer.byteLength(toolResult ?? "")).toBeLessThan(1_024);
	});

	it("replaces finalOutput in the details the CLI reports with the reference line, keeping status", () => {
		expect(subagentEnd?.isError).toBe(false);
		const details = (subagentEnd?.result as { details?: Record<string, unknown> } | undefined)?.details;
		expect(details?.mode).toBe("single");
		expect(JSON.stringify(details)).not.toContain("E2E-CHILD-MARKER");
		const [child] = (details?.results ?? []) as Array<Record<string, unknown>>;
		expect(child).toMatchObject({ agent: "big-child", exitCode: 0 });
		const reference = child?.outputReference as { bytes?: number; message?: string } | undefined;
		expect(reference?.bytes).toBe(Buffer.byteLength(CHILD_ANSWER));
		// The reference line stands in for the text: pi-subagents' own reader of a result's output (its TUI row says
		// "Done (no text output)" when that is empty) finds the reference, not the child's prose.
		expect(child?.finalOutput).toBe(reference?.message);
		expect(getSingleResultOutput(child as { finalOutput?: string })).toMatch(/^Output saved to: /);
	});

	it("writes one file for the session and persists a minimized audit entry", () => {
		const outputs = join(agentDir, "policy", "outputs");
		const sessions = readdirSync(outputs);
		expect(sessions).toHaveLength(1);
		expect(readdirSync(join(outputs, sessions[0]!))).toEqual(["0001-big-child.md"]);
		// The parent's session file (directly under sessions/<cwd>/) holds the audit entries.
		const sessionsRoot = join(agentDir, "sessions");
		const sessionFiles = readdirSync(sessionsRoot).flatMap((folder) =>
			readdirSync(join(sessionsRoot, folder))
				.filter((name) => name.endsWith(".jsonl"))
				.map((name) => join(sessionsRoot, folder, name)),
		);
		expect(sessionFiles).toHaveLength(1);
		const entries = readFileSync(sessionFiles[0]!, "utf8")
			.split("\n")
			.filter((line) => line.trim() !== "")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		const audit = entries.filter((entry) => entry.customType === "pi-policy.audit").map((entry) => entry.data);
		expect(audit).toEqual([
			expect.objectContaining({ ext: "output-minimizer", event: "minimized", mode: "reference", category: "single" }),
		]);
		const persistedResult = JSON.stringify(entries.filter((entry) => JSON.stringify(entry).includes('"toolResult"')));
		expect(persistedResult).not.toContain("E2E-CHILD-MARKER");
	});
});
