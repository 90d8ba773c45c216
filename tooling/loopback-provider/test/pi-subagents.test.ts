// Real pi-subagents 0.67.0 foreground delegation through the real `pi` CLI: parent and child both reach the loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	finalAssistantText,
	type LoopbackProvider,
	lastUserText,
	type PiCliFixture,
	type PiCliResult,
	type PiJsonEvent,
	type PiSubagentProfile,
	requestSystemPrompt,
	requestToolNames,
	resolvePiSubagentsExtensionPath,
	startPiCliFixture,
	toolResultTexts,
} from "../src/index.ts";
import { itemAt } from "./support.ts";

const CHILD_PROFILE_TOKEN = "LOOPBACK-CHILD-PROFILE";
const CHILD_ANSWER = "CHILD-ANSWER-42: the child finished its task.";
const CHILD_TASK = "Report the loopback child answer.";

const CHILD_AGENT: PiSubagentProfile = {
	name: "loop-child",
	description: "Loopback test child that answers in one line",
	model: "loop/loop-1",
	tools: ["read"],
	prompt: `${CHILD_PROFILE_TOKEN}: you are a test child. Answer in one line.`,
};

describe("pi-subagents foreground delegation through the real pi CLI", () => {
	let fixture: PiCliFixture;
	let server: LoopbackProvider;
	let result: PiCliResult;
	let subagentEnd: PiJsonEvent | undefined;

	beforeAll(async () => {
		fixture = await startPiCliFixture({
			prefix: "loopback-subagents-",
			provider: {
				// The child is answered by the router, recognised by its profile prompt; the parent follows the script.
				router: (request) =>
					requestSystemPrompt(request).includes(CHILD_PROFILE_TOKEN) ? { text: CHILD_ANSWER } : undefined,
				steps: [
					{ toolCalls: [{ name: "subagent", arguments: { agent: "loop-child", task: CHILD_TASK, async: false } }] },
					(request) => ({ text: `Parent relays: ${toolResultTexts(request).join(" ")}` }),
				],
			},
			// User-scope profile: <agentDir>/agents is where pi-subagents looks when PI_CODING_AGENT_DIR is set, and it
			// needs no project trust (a project .pi/ folder would).
			agents: [CHILD_AGENT],
		});
		server = fixture.server;
		// pi-subagents keeps run state under os.tmpdir() unless PI_SUBAGENTS_TEMP_ROOT moves it (the fixture sets it).
		result = await fixture.run(
			[
				"--mode",
				"json",
				"--model",
				"loop/loop-1",
				"-e",
				resolvePiSubagentsExtensionPath(),
				"-p",
				"Delegate to loop-child.",
			],
			{ timeoutMs: 55_000 },
		);
		subagentEnd = result.jsonEvents.find(
			(event) => event.type === "tool_execution_end" && event.toolName === "subagent",
		);
	});

	afterAll(async () => {
		await fixture?.dispose();
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
