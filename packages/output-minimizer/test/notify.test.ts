// Session tests: background completion messages (`subagent-notify`, `subagent-incremental-child-notify`) sent
// through pi.sendMessage in pi-subagents 0.67.0's exact format (its own formatters) are rewritten at message_end.
// Real background mode fails on Pi 1.6.0 (host-facts.md), so the messages are sent the way its notifier sends them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { type Harness, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { bytesOf, fileMatchesReference, leakedProbes, observableOutput, referencesIn } from "./support/helpers.ts";
import { loadPiSubagentsNotify, type PiSubagentsNotify } from "./support/pi-subagents-source.ts";

let notify: PiSubagentsNotify;
const sessions = sessionPerTest();
let sender: ExtensionAPI | undefined;

beforeAll(async () => {
	notify = await loadPiSubagentsNotify();
});

afterEach(async () => {
	sender = undefined;
});

/** A stand-in for pi-subagents' notifier: it only keeps `pi` so the test can call `sendMessage` like `sendCompletion`. */
function notifierExtension(pi: ExtensionAPI) {
	sender = pi;
}

function start(agentDirFiles?: Record<string, string>) {
	return sessions.start({
		extensions: [notifierExtension, outputMinimizer],
		...(agentDirFiles ? { agentDirFiles } : {}),
	});
}

/** Sends like pi-subagents' `sendCompletion` / incremental notifier, then waits for the triggered turn to finish. */
async function send(h: Harness, customType: string, content: string, display = true) {
	const before = h.requests.length;
	sender!.sendMessage({ customType, content, display }, { triggerTurn: true });
	for (let i = 0; i < 200 && h.requests.length === before; i++) await new Promise((r) => setTimeout(r, 10));
	await h.session.waitForIdle();
	expect(h.requests.length).toBe(before + 1);
	return h.requests.at(-1)!;
}

function storedCustomMessage(h: Harness, customType: string): string {
	const entries = h.session.sessionManager.getBranch() as unknown as Array<Record<string, unknown>>;
	const entry = entries.filter((e) => e.type === "custom_message" && e.customType === customType).at(-1);
	if (!entry) throw new Error(`no ${customType} entry`);
	const content = entry.content;
	return typeof content === "string" ? content : JSON.stringify(content);
}

describe("subagent-notify", () => {
	it("keeps the header and session line, moves the summary to a file, and still parses as pi-subagents' notice", async () => {
		const h = await start();
		const summary = realText(30_000, 3_000);
		const sessionFile = "/tmp/pi-subagents/async/run-1/session.jsonl";
		const details = notify.buildCompletionDetails({
			agent: "scout",
			success: true,
			summary,
			sessionFile,
			sessionId: "parent",
			durationMs: 1234,
		});
		const original = notify.formatSingleCompletion(details);
		expect(original.startsWith("Background task completed: **scout**\n\n")).toBe(true);
		const request = await send(h, "subagent-notify", original, false);

		const seenText = h.requestText(request);
		expect(leakedProbes(seenText, summary)).toEqual([]);
		expect(seenText).toContain("Background task completed: **scout**");
		expect(seenText).toContain(`Session file: ${sessionFile}`);
		const stored = storedCustomMessage(h, "subagent-notify");
		expect(leakedProbes(stored, summary)).toEqual([]);
		expect(bytesOf(stored)).toBeLessThan(1_024);

		const [reference] = referencesIn(stored);
		const file = fileMatchesReference(reference!);
		expect(file.content).toBe(original);
		expect(file.bytesOk && file.linesOk).toBe(true);
		expect(reference!.path).toMatch(/\/0001-notify-scout\.md$/);

		const reparsed = notify.parseSubagentNotifyContent(stored);
		expect(reparsed).toMatchObject({
			agent: "scout",
			status: "completed",
			sessionLabel: "session file",
			sessionValue: sessionFile,
		});
		expect(String(reparsed?.resultPreview)).toContain("Output saved to:");
		expect(h.entries("pi-policy.audit")).toContainEqual(
			expect.objectContaining({ event: "minimized", category: "notify" }),
		);
		expect(observableOutput(h)).not.toContain(h.agentDir);
	});

	it("keeps a failed background task's status and error header while moving its output", async () => {
		const h = await start();
		const summary = `Error: build failed with 3 errors\n\n${realText(12_000, 9_000)}`;
		const details = notify.buildCompletionDetails({
			agent: "worker",
			success: false,
			exitCode: 1,
			summary,
			sessionId: "p",
		});
		const original = notify.formatSingleCompletion(details);
		const request = await send(h, "subagent-notify", original);
		const stored = storedCustomMessage(h, "subagent-notify");
		expect(stored.split("\n")[0]).toBe("Background task failed: **worker**");
		expect(leakedProbes(h.requestText(request), summary)).toEqual([]);
		expect(fileMatchesReference(referencesIn(stored)[0]!).content).toBe(original);
	});

	it("keeps per-item titles and run lines of a grouped completion and drops every preview", async () => {
		const h = await start();
		const first = realText(9_000, 100);
		const second = realText(9_000, 30_000);
		const grouped = notify.formatGroupedCompletion([
			notify.buildCompletionDetails({
				agent: "api-review",
				success: true,
				summary: first,
				sessionFile: "/tmp/a.jsonl",
				sessionId: "p",
			}),
			notify.buildCompletionDetails({
				agent: "docs-review",
				success: true,
				summary: second,
				sessionFile: "/tmp/b.jsonl",
				sessionId: "p",
			}),
		]);
		const request = await send(h, "subagent-notify", grouped, false);
		const stored = storedCustomMessage(h, "subagent-notify");
		const lines = stored.split("\n");
		expect(lines[0]).toBe("Background tasks completed (2): **api-review**, **docs-review**");
		expect(lines).toEqual(
			expect.arrayContaining([
				"1. api-review",
				"2. docs-review",
				"Session file: /tmp/a.jsonl",
				"Session file: /tmp/b.jsonl",
			]),
		);
		for (const text of [first, second]) expect(leakedProbes(h.requestText(request), text)).toEqual([]);
		expect(fileMatchesReference(referencesIn(stored)[0]!).content).toBe(grouped);
	});

	it("keeps workflow child keys, statuses and saved-output paths of a workflow completion, not its previews", async () => {
		const h = await start();
		const childA = realText(6_000, 4_000);
		const childB = realText(6_000, 44_000);
		const original = notify.formatSingleCompletion(
			notify.buildCompletionDetails({
				agent: "workflow",
				mode: "workflow",
				runId: "wf-77",
				success: true,
				summary: "Workflow completed.",
				sessionId: "p",
				results: [
					{
						workflowKey: "api",
						runId: "c-1",
						agent: "reviewer",
						success: true,
						output: childA,
						outputReference: "/tmp/wf/api.md",
					},
					{ workflowKey: "docs", runId: "c-2", agent: "reviewer", success: false, output: childB },
				],
			}),
		);
		expect(original).toContain("    | ");
		const request = await send(h, "subagent-notify", original);
		const stored = storedCustomMessage(h, "subagent-notify");
		for (const text of [childA, childB]) expect(leakedProbes(h.requestText(request), text)).toEqual([]);
		expect(stored).not.toContain("    | ");
		for (const kept of [
			"Child outputs:",
			"- key=api run=c-1 status=completed",
			"  Saved output: /tmp/wf/api.md",
			"- key=docs run=c-2 status=failed",
			"Workflow run: wf-77",
		]) {
			expect(stored.split("\n")).toContain(kept);
		}
		expect(stored).toMatch(/Child runs: api=c-1 \(completed\), docs=c-2 \(failed\)/);
	});

	it("passes a short notification (body under minBytesToMinimize) through unchanged", async () => {
		const h = await start();
		const original = notify.formatSingleCompletion(
			notify.buildCompletionDetails({
				agent: "scout",
				success: true,
				summary: "Done: 3 files updated.",
				sessionId: "p",
			}),
		);
		await send(h, "subagent-notify", original, false);
		expect(storedCustomMessage(h, "subagent-notify")).toBe(original);
		expect(h.entries("pi-policy.audit")).toContainEqual(
			expect.objectContaining({ event: "passthrough-small", category: "notify" }),
		);
	});

	it("shows the bounded fallback and claims no file when the notification cannot be saved", async () => {
		const h = await start({ "policy/outputs": "blocked\n" });
		const summary = realText(20_000, 8_000);
		const original = notify.formatSingleCompletion(
			notify.buildCompletionDetails({ agent: "scout", success: true, summary, sessionId: "p" }),
		);
		await send(h, "subagent-notify", original);
		const stored = storedCustomMessage(h, "subagent-notify");
		expect(stored).toMatch(/could not be saved: write failed \((ENOTDIR|EEXIST)\); intended path: /);
		expect(stored).toContain("The full text is unavailable");
		expect(stored).not.toContain("Output saved to");
		expect(bytesOf(stored)).toBeLessThan(4096 + 1024);
		expect(existsSync(join(h.agentDir, "policy", "outputs", "x"))).toBe(false);
	});
});

describe("subagent-incremental-child-notify", () => {
	it("keeps status, run, output-reference and status lines and moves a long multi-line error to a file", async () => {
		const h = await start();
		const errorBody = realText(6_000, 12_000);
		const original = notify.formatIncrementalChildCompletion({
			workflowRunId: "wf-9",
			childKey: "review",
			childRunId: "c-9",
			outcome: "failed",
			outputReference: "/tmp/wf-9/review.md",
			error: `Child crashed:\n${errorBody}`,
			workflowRunning: true,
		});
		const request = await send(h, "subagent-incremental-child-notify", original);
		const stored = storedCustomMessage(h, "subagent-incremental-child-notify");
		expect(leakedProbes(h.requestText(request), errorBody)).toEqual([]);
		const lines = stored.split("\n");
		expect(lines[0]).toBe("Workflow child failed: **review**");
		expect(lines).toEqual(
			expect.arrayContaining([
				"Workflow run: wf-9",
				"Child run: c-9",
				"Output: /tmp/wf-9/review.md",
				"Error: Child crashed:",
				"Status: workflow still running",
			]),
		);
		expect(fileMatchesReference(referencesIn(stored)[0]!).content).toBe(original);
	});

	it("leaves a reference-only child notice unchanged", async () => {
		const h = await start();
		const original = notify.formatIncrementalChildCompletion({
			workflowRunId: "wf-9",
			childKey: "review",
			outcome: "paused",
			outputReference: "/tmp/wf-9/review.md",
			workflowRunning: false,
		});
		await send(h, "subagent-incremental-child-notify", original);
		expect(storedCustomMessage(h, "subagent-incremental-child-notify")).toBe(original);
	});
});
