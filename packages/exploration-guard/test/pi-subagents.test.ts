// Real pi-subagents 0.67.0 foreground delegation through the real `pi` CLI and the loopback provider: the guard
// (loaded from source with -e) warns, a real delegated run resets the streak, and the guard then blocks again.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	type LoopbackProvider,
	type PiCliFixture,
	type PiCliResult,
	type PiSubagentProfile,
	requestSystemPrompt,
	requestText,
	resolvePiSubagentsExtensionPath,
	startPiCliFixture,
	toolResultTexts,
} from "@pi-policy/loopback-provider";
import { validateAuditEntry } from "@pi-policy/policy-kernel/audit";
import { EXPLORATION_GUARD_DEFAULTS, explorationBlockReason } from "@pi-policy/policy-kernel/exploration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_STRINGS, SECRET_PATTERN, workspaceFiles } from "./support.ts";

const GUARD_ENTRY = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const CHILD_TOKEN = "LOOPBACK-SCOUT-PROFILE";
const CHILD_ANSWER = "SCOUT-REPORT: three modules, one config loader.";
const NUDGE_PREFIX = "Exploration guard: this session keeps making";

const SCOUT_AGENT: PiSubagentProfile = {
	name: "loop-scout",
	description: "Loopback test scout that answers in one line",
	prompt: `${CHILD_TOKEN}: you are a test scout. Answer in one line.`,
};

const grep = { toolCalls: [{ name: "grep", arguments: { pattern: SECRET_PATTERN } }] };

async function findSessionFiles(dir: string): Promise<string[]> {
	const found: string[] = [];
	let entries: Array<{ name: string; isDirectory(): boolean }>;
	try {
		entries = await readdir(dir, { withFileTypes: true, encoding: "utf8" });
	} catch {
		return found;
	}
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) found.push(...(await findSessionFiles(path)));
		else if (entry.name.endsWith(".jsonl")) found.push(path);
	}
	return found;
}

describe("exploration-guard with real pi-subagents foreground delegation", () => {
	let fixture: PiCliFixture;
	let server: LoopbackProvider;
	let result: PiCliResult;
	let toolEnds: Array<{ toolName: string; isError: boolean }>;
	let audit: Array<Record<string, unknown>>;

	beforeAll(async () => {
		fixture = await startPiCliFixture({
			prefix: "exploration-guard-subagents-",
			provider: {
				router: (request) => (requestSystemPrompt(request).includes(CHILD_TOKEN) ? { text: CHILD_ANSWER } : undefined),
				steps: [
					grep,
					grep,
					grep,
					grep,
					{
						toolCalls: [
							{
								name: "subagent",
								arguments: { agent: "loop-scout", task: "Survey the remaining modules.", async: false },
							},
						],
					},
					grep,
					grep,
					grep,
					grep,
					grep,
					{ text: "Done surveying." },
				],
			},
			files: workspaceFiles(),
			agents: [SCOUT_AGENT],
			config: { "exploration-guard": { mode: "block" } },
		});
		server = fixture.server;
		result = await fixture.run(
			[
				"--mode",
				"json",
				"--model",
				"loop/loop-1",
				"--tools",
				"read,bash,edit,write,grep,find,ls,subagent",
				"-e",
				resolvePiSubagentsExtensionPath(),
				"-e",
				GUARD_ENTRY,
				"-p",
				"Survey the repository.",
			],
			{ timeoutMs: 90_000 },
		);
		toolEnds = result.jsonEvents
			.filter((event) => event.type === "tool_execution_end")
			.map((event) => ({ toolName: String(event.toolName), isError: event.isError === true }));
		const sessionFiles = await findSessionFiles(join(fixture.agentDir, "sessions"));
		audit = [];
		for (const file of sessionFiles) {
			for (const line of (await readFile(file, "utf8")).split("\n")) {
				if (!line.trim()) continue;
				const entry = JSON.parse(line) as Record<string, unknown>;
				if (entry.type === "custom" && entry.customType === "pi-policy.audit")
					audit.push(entry.data as Record<string, unknown>);
			}
		}
	}, 120_000);

	afterAll(async () => {
		await fixture?.dispose();
	});

	it("runs to completion with the child answered by its own request", () => {
		expect(result.timedOut, result.stderr).toBe(false);
		expect(result.code, result.stderr).toBe(0);
		expect(server.pendingSteps).toBe(0);
		const child = server.chatRequests.filter((request) => request.replySource === "router");
		expect(child).toHaveLength(1);
		// The guard never loads in the in-process child: no nudge ever reaches it.
		expect(requestText(child[0] as never)).not.toContain(NUDGE_PREFIX);
	});

	it("allows four broad greps, resets on the real delegated run, allows four more, then blocks the next", () => {
		expect(toolEnds).toEqual([
			...Array(4).fill({ toolName: "grep", isError: false }),
			{ toolName: "subagent", isError: false },
			...Array(4).fill({ toolName: "grep", isError: false }),
			{ toolName: "grep", isError: true },
		]);
		const last = server.chatRequests.filter((request) => request.replySource === "script").at(-1);
		expect(toolResultTexts(last as never).at(-1)).toBe(explorationBlockReason(EXPLORATION_GUARD_DEFAULTS));
		// The parent received the child's answer through the real subagent result.
		const afterDelegation = server.chatRequests.filter((request) => request.replySource === "script")[5];
		expect(toolResultTexts(afterDelegation as never).join("\n")).toContain(CHILD_ANSWER);
	});

	it("nudged once per streak through a steer message", () => {
		const parentRequests = server.chatRequests.filter((request) => request.replySource === "script");
		const lastText = requestText(parentRequests.at(-1) as never);
		expect(lastText.split(NUDGE_PREFIX).length - 1).toBe(2);
	});

	it("recorded the delegation in the audit trail of the session file", () => {
		expect(audit.map((entry) => entry.event)).toEqual([
			"activated",
			"warned",
			"threshold-reached",
			"delegation-started",
			"delegation-succeeded",
			"warned",
			"threshold-reached",
			"blocked",
		]);
		for (const entry of audit) expect(validateAuditEntry(entry).ok).toBe(true);
		expect(audit[4]).toMatchObject({ state: "tracking", counters: { streak: 0, delegationsSucceeded: 1 } });
		const text = JSON.stringify(audit);
		for (const secret of PRIVATE_STRINGS) expect(text).not.toContain(secret);
	});
});
