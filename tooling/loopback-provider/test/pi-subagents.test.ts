// Real pi-subagents 0.67.0 foreground delegation through the real `pi` CLI: parent and child both reach the loopback.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	finalAssistantText,
	type LoopbackProvider,
	lastUserText,
	type PiCliResult,
	type PiJsonEvent,
	requestSystemPrompt,
	requestToolNames,
	resolvePiSubagentsExtensionPath,
	runPiCli,
	startLoopbackProvider,
	toolResultTexts,
} from "../src/index.ts";
import { itemAt } from "./support.ts";

const CHILD_PROFILE_TOKEN = "LOOPBACK-CHILD-PROFILE";
const CHILD_ANSWER = "CHILD-ANSWER-42: the child finished its task.";
const CHILD_TASK = "Report the loopback child answer.";

const CHILD_AGENT = `---
name: loop-child
description: Loopback test child that answers in one line
model: loop/loop-1
tools: read
---
${CHILD_PROFILE_TOKEN}: you are a test child. Answer in one line.
`;

describe("pi-subagents foreground delegation through the real pi CLI", () => {
	let server: LoopbackProvider;
	let root: string;
	let result: PiCliResult;
	let subagentEnd: PiJsonEvent | undefined;

	beforeAll(async () => {
		server = await startLoopbackProvider({
			// The child is answered by the router, recognised by its profile prompt; the parent follows the script.
			router: (request) =>
				requestSystemPrompt(request).includes(CHILD_PROFILE_TOKEN) ? { text: CHILD_ANSWER } : undefined,
			steps: [
				{ toolCalls: [{ name: "subagent", arguments: { agent: "loop-child", task: CHILD_TASK, async: false } }] },
				(request) => ({ text: `Parent relays: ${toolResultTexts(request).join(" ")}` }),
			],
		});
		root = await mkdtemp(join(tmpdir(), "loopback-subagents-"));
		const cwd = join(root, "cwd");
		const agentDir = join(root, "agent");
		const home = join(root, "home");
		await Promise.all([cwd, join(agentDir, "agents"), home].map((dir) => mkdir(dir, { recursive: true })));
		// User-scope profile: <agentDir>/agents is where pi-subagents looks when PI_CODING_AGENT_DIR is set, and it
		// needs no project trust (a project .pi/ folder would).
		await writeFile(join(agentDir, "agents", "loop-child.md"), CHILD_AGENT);
		await server.writeModelsJson(agentDir);
		result = await runPiCli({
			cwd,
			agentDir,
			args: [
				"--mode",
				"json",
				"--model",
				"loop/loop-1",
				"-e",
				resolvePiSubagentsExtensionPath(),
				"-p",
				"Delegate to loop-child.",
			],
			// pi-subagents keeps run state under os.tmpdir() unless PI_SUBAGENTS_TEMP_ROOT moves it.
			env: { HOME: home, PI_SUBAGENTS_TEMP_ROOT: join(root, "subagents-tmp") },
			timeoutMs: 55_000,
		});
		subagentEnd = result.jsonEvents.find(
			(event) => event.type === "tool_execution_end" && event.toolName === "subagent",
		);
	});

	afterAll(async () => {
		await server?.close();
		if (root) await rm(root, { recursive: true, force: true });
	});

	it("runs to completion: parent turn, child turn, parent follow-up", () => {
		expect(result.timedOut, result.stderr).toBe(false);
		expect(result.code, result.stderr).toBe(0);
		expect(server.chatRequests.map((request) => request.replySource)).toEqual(["script", "router", "script"]);
		expect(server.pendingSteps).toBe(0);
	});

	it("offers the subagent tool to the parent without --tools", () => {
		expect(requestToolNames(itemAt(server.chatRequests, 0))).toContain("subagent");
	});

	it("sends the child's own request to the same server, with its profile prompt, task and tool allowlist", () => {
		const child = itemAt(server.chatRequests, 1);
		expect(requestSystemPrompt(child)).toContain(CHILD_PROFILE_TOKEN);
		expect(requestSystemPrompt(child)).toContain('<active_agent name="loop-child"/>');
		expect(lastUserText(child)).toContain(CHILD_TASK);
		expect(child.body?.model).toBe("loop-1");
		const childTools = requestToolNames(child);
		expect(childTools).toContain("read");
		for (const parentOnly of ["subagent", "bash", "edit", "write"]) expect(childTools).not.toContain(parentOnly);
	});

	it("returns the child's final text to the parent's next request as the subagent tool result", () => {
		const followUp = itemAt(server.chatRequests, 2);
		const [toolResult] = toolResultTexts(followUp);
		expect(toolResult).toContain(CHILD_ANSWER);
		expect(finalAssistantText(result.jsonEvents)).toContain(CHILD_ANSWER);
	});

	it("pins the 0.67.0 foreground result: the child's text framed by a fan-out line and a mission line", () => {
		// host-facts.md says the content text is the child's full final text (plus an "Output saved to" line when a
		// file was saved). Observed on 0.67.0 with no output file: a budget line before it and a mission line after.
		const [toolResult] = toolResultTexts(itemAt(server.chatRequests, 2));
		const lines = (toolResult ?? "").split("\n");
		expect(lines).toHaveLength(3);
		expect(lines[0]).toBe("Run fan-out: 1/64 used, 63 remaining");
		expect(lines[1]).toBe(CHILD_ANSWER);
		expect(lines[2]).toMatch(/^Mission: [0-9a-f-]{36} \(completed\)$/);
	});

	it("reports the child run in the tool details (finalOutput, exit code, model)", () => {
		expect(subagentEnd?.isError).toBe(false);
		const details = (subagentEnd?.result as { details?: Record<string, unknown> } | undefined)?.details;
		expect(details?.mode).toBe("single");
		const [child] = (details?.results ?? []) as Array<Record<string, unknown>>;
		expect(child).toMatchObject({ agent: "loop-child", exitCode: 0, finalOutput: CHILD_ANSWER, model: "loop/loop-1" });
		expect(child?.savedOutputPath).toBeUndefined();
	});
});
