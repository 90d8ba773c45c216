// exploration-guard in a real Pi 1.6.0 AgentSession (pi-harness, faux provider): every acceptance point of the
// spec, then a privacy scan over everything these runs persisted, emitted or displayed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, callTools, createHarness, type Harness } from "@pi-policy/pi-harness";
import {
	EXPLORATION_GUARD_DEFAULTS,
	EXPLORATION_NOTICES,
	explorationBlockReason,
	explorationGateReport,
} from "@pi-policy/policy-kernel/exploration";
import { describe, expect, it } from "vitest";
import type { ExplorationGuardHandle } from "../src/index.ts";
import {
	auditEvents,
	broadGrep,
	capturingGuard,
	collectOutput,
	customSearchTool,
	explorationGuard,
	guardAudit,
	guardRunsPerFile,
	lastNotification,
	nudgeCount,
	PRIVATE_STRINGS,
	resultSummary,
	SECRET_DIR,
	SECRET_DOC,
	SECRET_FILE,
	SECRET_PATTERN,
	standInSubagent,
	stateOf,
	workspaceFiles,
} from "./support.ts";

const TOOLS_WITH_SUBAGENT = ["read", "bash", "edit", "write", "grep", "find", "ls", "subagent", "my_search"];
const BLOCK_REASON = explorationBlockReason(EXPLORATION_GUARD_DEFAULTS);
const {
	collected,
	start: startGuard,
	finish,
} = guardRunsPerFile({
	tools: TOOLS_WITH_SUBAGENT,
	extensions: [standInSubagent, customSearchTool],
});

function registeredEvents(harness: Harness): string[] {
	const runner = harness.session.extensionRunner;
	return [
		"session_start",
		"session_shutdown",
		"tool_call",
		"tool_result",
		"turn_start",
		"turn_end",
		"agent_end",
	].filter((event) => runner.hasHandlers(event));
}

function hasGuardCommand(harness: Harness): boolean {
	return harness.session.extensionRunner
		.getRegisteredCommands()
		.some((command) => command.name === "exploration-guard");
}

describe("inert by default", () => {
	it.each([
		["no config file", undefined],
		["a file holding false", false],
		['mode "off"', { mode: "off", warnAfter: 3 }],
	])(
		"registers only session_start and the command (which answers), no tool hook and no audit with %s",
		async (label, config) => {
			const handles: Array<ExplorationGuardHandle | undefined> = [];
			const harness = await createHarness({
				files: workspaceFiles(),
				extensions: [capturingGuard(handles)],
				...(config === undefined ? {} : { config: { "exploration-guard": config } }),
			});
			try {
				expect(handles).toHaveLength(1);
				expect(handles[0]?.state()).toBeUndefined();
				expect(registeredEvents(harness)).toEqual(["session_start", "session_shutdown"]);
				expect(hasGuardCommand(harness)).toBe(true);
				harness.script(...Array.from({ length: 6 }, broadGrep), "done");
				await harness.prompt("survey the repository");
				expect(resultSummary(harness)).toEqual(Array(6).fill("grep:ok"));
				expect(nudgeCount(harness)).toBe(0);
				expect(harness.entries("pi-policy.audit")).toEqual([]);
				expect(harness.ui?.notifications()).toEqual([]);
				collected.push(collectOutput(`inert ${label}`, harness));
			} finally {
				await harness.dispose();
			}
		},
	);
});

describe("root-only", () => {
	it.each([
		["PI_SUBAGENT_CHILD", { PI_SUBAGENT_CHILD: "1" }, undefined],
		["SELESAI_SUBAGENT_CHILD", { SELESAI_SUBAGENT_CHILD: "1" }, undefined],
		["a configured child variable", { MY_RUNNER_CHILD: "1" }, ["MY_RUNNER_CHILD"]],
	])("registers nothing when %s is 1", async (_label, env, childEnv) => {
		const handles: Array<ExplorationGuardHandle | undefined> = [];
		const harness = await createHarness({
			files: workspaceFiles(),
			extensions: [capturingGuard(handles)],
			config: { "exploration-guard": { mode: "block", ...(childEnv ? { childEnv } : {}) } },
			env: { PI_SUBAGENT_CHILD: undefined, SELESAI_SUBAGENT_CHILD: undefined, MY_RUNNER_CHILD: undefined, ...env },
		});
		try {
			expect(handles).toEqual([undefined]);
			expect(registeredEvents(harness)).toEqual([]);
			expect(hasGuardCommand(harness)).toBe(false);
			harness.script(...Array.from({ length: 7 }, broadGrep), "done");
			await harness.prompt("survey");
			expect(resultSummary(harness)).toEqual(Array(7).fill("grep:ok"));
			expect(harness.entries("pi-policy.audit")).toEqual([]);
		} finally {
			await harness.dispose();
		}
	});

	it("runs in the root when the child variable is set to something other than 1", async () => {
		const run = await startGuard(
			"child variable 0",
			{ mode: "block" },
			{ env: { PI_SUBAGENT_CHILD: "0", SELESAI_SUBAGENT_CHILD: undefined } },
		);
		expect(run.handles[0]).toBeDefined();
		expect(auditEvents(run.harness)).toEqual(["activated"]);
		await finish(run);
	});

	it("stays inert and records a child activation when a child variable appears after registration", async () => {
		// A later extension sets the variable in its factory: the guard registered already, then sees it at session_start.
		const lateChild = (_pi: ExtensionAPI) => {
			process.env.PI_SUBAGENT_CHILD = "1";
		};
		const handles: Array<ExplorationGuardHandle | undefined> = [];
		const harness = await createHarness({
			files: workspaceFiles(),
			extensions: [capturingGuard(handles), lateChild],
			config: { "exploration-guard": { mode: "block" } },
			env: { PI_SUBAGENT_CHILD: undefined },
		});
		try {
			harness.script(...Array.from({ length: 6 }, broadGrep), "done");
			await harness.prompt("survey");
			expect(resultSummary(harness)).toEqual(Array(6).fill("grep:ok"));
			expect(nudgeCount(harness)).toBe(0);
			expect(hasGuardCommand(harness)).toBe(true);
			const entries = guardAudit(harness);
			expect(entries).toHaveLength(1);
			expect(entries[0]).toMatchObject({ event: "activated", counters: { childSession: 1 } });
			expect(explorationGateReport(harness.entries("pi-policy.audit")).childActivations).toBe(1);
			collected.push(collectOutput("late child", harness));
		} finally {
			await harness.dispose();
		}
	});
});

describe("what is considered", () => {
	it("never blocks or counts bash (grep, find and ls active: bash auto leaves it alone), write, edit, custom tools or subagent, even while blocking", async () => {
		const run = await startGuard("other tools", { mode: "block", warnAfter: 1, blockAfter: 2 });
		const { harness } = run;
		harness.script(
			broadGrep(),
			broadGrep(),
			broadGrep(),
			callTool("bash", { command: `grep -rn ${SECRET_PATTERN} . | head -5` }),
			callTool("write", { path: "notes.txt", content: "hello\n" }),
			callTool("edit", { path: "notes.txt", edits: [{ oldText: "hello", newText: "hi" }] }),
			callTool("my_search", { path: ".", pattern: SECRET_PATTERN }),
			callTool("subagent", { action: "list" }),
			callTool("bash", { command: "ls -R ." }),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual([
			"grep:ok",
			"grep:ok",
			"grep:error",
			"bash:ok",
			"write:ok",
			"edit:ok",
			"my_search:ok",
			"subagent:ok",
			"bash:ok",
		]);
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(3);
		expect(stateOf(run.handles)?.counters.blockedBroad).toBe(1);
		await finish(run);
	});

	it("never counts small reads, excluded paths or narrow searches", async () => {
		const run = await startGuard("exempt calls", { mode: "block", warnAfter: 1, blockAfter: 2, smallReadMaxLines: 50 });
		const { harness } = run;
		const exempt = [
			callTool("read", { path: SECRET_FILE, limit: 50 }),
			callTool("read", { path: SECRET_FILE, offset: 10, limit: 5 }),
			callTool("read", { path: "AGENTS.md" }),
			callTool("read", { path: "package.json" }),
			callTool("read", { path: SECRET_DOC }),
			callTool("grep", { pattern: SECRET_PATTERN, path: SECRET_DIR }),
			callTool("grep", { pattern: SECRET_PATTERN, path: "src" }),
			callTool("grep", { pattern: SECRET_PATTERN, limit: 10 }),
			callTool("find", { pattern: "*.ts", path: "src" }),
			callTool("find", { pattern: "*.ts", limit: 20 }),
			callTool("ls", { path: "src" }),
			callTool("ls", { path: ".", limit: 10 }),
		];
		harness.script(...exempt, "done");
		await harness.prompt("look around carefully");
		expect(resultSummary(harness).every((r) => r.endsWith(":ok"))).toBe(true);
		expect(resultSummary(harness)).toHaveLength(12);
		expect(stateOf(run.handles)?.streak).toBe(0);
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(0);
		expect(nudgeCount(harness)).toBe(0);
		expect(auditEvents(harness)).toEqual(["activated"]);
		// A larger read of the same file is broad: the exemptions above were not luck.
		harness.script(callTool("read", { path: SECRET_FILE, limit: 51 }), "done");
		await harness.prompt("read more");
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(1);
		expect(nudgeCount(harness)).toBe(1);
		await finish(run);
	});
});

describe("warn mode with defaults", () => {
	it("warns exactly once after two broad operations and never blocks", async () => {
		const run = await startGuard("warn once", { mode: "warn" });
		const { harness } = run;
		let sawNudgeAtRequest = -1;
		harness.script(
			callTool("grep", { pattern: SECRET_PATTERN }),
			callTool("find", { pattern: "*.ts" }),
			(request) => {
				sawNudgeAtRequest = harness.requestText(request).includes("Exploration guard: this session keeps making")
					? request.index
					: -1;
				return callTool("ls", {});
			},
			callTool("read", { path: SECRET_FILE }),
			broadGrep(),
			broadGrep(),
			broadGrep(),
			"done",
		);
		await harness.prompt("survey the repository");
		expect(resultSummary(harness)).toEqual(["grep:ok", "find:ok", "ls:ok", "read:ok", "grep:ok", "grep:ok", "grep:ok"]);
		expect(nudgeCount(harness)).toBe(1);
		// The steer nudge reached the model on the turn right after the second broad call.
		expect(sawNudgeAtRequest).toBe(2);
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached"]);
		expect(guardAudit(harness)[1]).toMatchObject({ mode: "warn", state: "warned", category: "find" });
		const notices = harness.ui?.notifications().map((n) => n.message) ?? [];
		expect(notices.filter((n) => n === EXPLORATION_NOTICES.warned)).toHaveLength(1);
		await finish(run);
	});

	it("still nudges without a UI (headless)", async () => {
		const run = await startGuard("headless", { mode: "warn" }, { ui: false });
		run.harness.script(broadGrep(), broadGrep(), "done");
		await run.harness.prompt("survey");
		expect(nudgeCount(run.harness)).toBe(1);
		await finish(run);
	});
});

describe("block mode", () => {
	it("allows four broad operations and blocks the fifth isolated one with the documented reason", async () => {
		const run = await startGuard("block fifth", { mode: "block" });
		const { harness } = run;
		harness.script(...Array.from({ length: 6 }, broadGrep), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["grep:ok", "grep:ok", "grep:ok", "grep:ok", "grep:error", "grep:error"]);
		const fifth = harness.toolResults()[4];
		expect(fifth && harness.toolResultText(fifth)).toBe(BLOCK_REASON);
		expect(BLOCK_REASON).toBe(
			"Exploration guard: repeated broad repo exploration is paused. Delegate the remaining survey with subagent, or ask the user to run /exploration-guard allow or off. Small targeted reads remain allowed.",
		);
		expect(nudgeCount(harness)).toBe(1);
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached", "blocked", "blocked"]);
		expect(guardAudit(harness)[3]).toMatchObject({
			event: "blocked",
			mode: "block",
			state: "blocking",
			category: "grep",
			counters: { broadAttempts: 5, allowedBroad: 4, blockedBroad: 1 },
		});
		expect(harness.ui?.notifications().some((n) => n.message === EXPLORATION_NOTICES.blocked)).toBe(true);
		// Small targeted reads remain allowed while blocking.
		harness.script(callTool("read", { path: SECRET_FILE, limit: 20 }), "done");
		await harness.prompt("read a bit");
		expect(resultSummary(harness).at(-1)).toBe("read:ok");
		await harness.command("/exploration-guard status");
		const status = lastNotification(harness);
		expect(status).toContain("mode block, state blocking");
		expect(status).toContain("attempts 6, allowed 4, blocked 2");
		expect(status).toContain("Next threshold: blocking isolated broad operations now");
		expect(status).toContain("Fallback (warn-only): inactive");
		await finish(run);
	});

	it("never blocks a multi-tool batch, and counts it once", async () => {
		const run = await startGuard("batch", { mode: "block" });
		const { harness } = run;
		harness.script(
			// A three-call batch at the start counts once: no nudge yet (warnAfter 2).
			callTools(
				{ name: "grep", args: { pattern: SECRET_PATTERN } },
				{ name: "find", args: { pattern: "*.md" } },
				{ name: "ls", args: {} },
			),
			(request) => {
				expect(harness.requestText(request)).not.toContain("Exploration guard: this session keeps making");
				return broadGrep();
			},
			broadGrep(),
			broadGrep(),
			// The streak is at four: a batch of broad calls still runs in full.
			callTools(
				{ name: "grep", args: { pattern: SECRET_PATTERN } },
				{ name: "read", args: { path: SECRET_FILE } },
				{ name: "ls", args: { path: "." } },
			),
			broadGrep(),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual([
			"grep:ok",
			"find:ok",
			"ls:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"read:ok",
			"ls:ok",
			"grep:error",
		]);
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(6);
		expect(stateOf(run.handles)?.counters.blockedBroad).toBe(1);
		expect(nudgeCount(harness)).toBe(1);
		await finish(run);
	});
});

describe("delegation", () => {
	it("resets the streak after a successful launch, and not after action list", async () => {
		const run = await startGuard("delegation reset", { mode: "block" });
		const { harness } = run;
		harness.script(
			broadGrep(),
			broadGrep(),
			broadGrep(),
			broadGrep(),
			callTool("subagent", { action: "list" }),
			broadGrep(),
			callTool("subagent", { agent: "scout", task: "Survey the remaining modules." }),
			broadGrep(),
			broadGrep(),
			broadGrep(),
			broadGrep(),
			broadGrep(),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual([
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"subagent:ok",
			"grep:error",
			"subagent:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"grep:error",
		]);
		expect(nudgeCount(harness)).toBe(2);
		expect(auditEvents(harness)).toEqual([
			"activated",
			"warned",
			"threshold-reached",
			"blocked",
			"delegation-started",
			"delegation-succeeded",
			"warned",
			"threshold-reached",
			"blocked",
		]);
		expect(guardAudit(harness)[5]).toMatchObject({
			state: "tracking",
			counters: { streak: 0, delegationsSucceeded: 1 },
		});
		await finish(run);
	});

	it("falls back to warn-only when the delegation tool is not active", async () => {
		const run = await startGuard(
			"delegation inactive",
			{ mode: "block" },
			{ tools: ["read", "bash", "edit", "write", "grep", "find", "ls"] },
		);
		const { harness } = run;
		harness.script(...Array.from({ length: 7 }, broadGrep), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(Array(7).fill("grep:ok"));
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached", "delegation-unavailable"]);
		expect(harness.ui?.notifications().some((n) => n.message === EXPLORATION_NOTICES["fallback-unavailable"])).toBe(
			true,
		);
		await harness.command("/exploration-guard status");
		expect(lastNotification(harness)).toContain("state fallback-warn-only");
		expect(lastNotification(harness)).toContain("Fallback (warn-only): active");
		await finish(run);
	});

	it("falls back to warn-only when a delegated launch fails", async () => {
		const run = await startGuard("delegation failed", { mode: "block" });
		const { harness } = run;
		harness.script(
			broadGrep(),
			broadGrep(),
			callTool("subagent", { agent: "broken", task: "Survey." }),
			...Array.from({ length: 6 }, broadGrep),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["grep:ok", "grep:ok", "subagent:error", ...Array(6).fill("grep:ok")]);
		expect(auditEvents(harness)).toEqual([
			"activated",
			"warned",
			"delegation-started",
			"delegation-failed",
			"threshold-reached",
		]);
		expect(harness.ui?.notifications().some((n) => n.message === EXPLORATION_NOTICES["fallback-failed"])).toBe(true);
		expect(stateOf(run.handles)?.fallback).toBe(true);
		await finish(run);
	});
});

describe("user escape hatch", () => {
	it("allow 2 permits exactly two, off permits all, and the config file is untouched", async () => {
		const config = { mode: "block" };
		const run = await startGuard("allow and off", config);
		const { harness } = run;
		const configPath = join(harness.agentDir, "policy", "exploration-guard.json");
		const before = await readFile(configPath, "utf8");
		harness.script(...Array.from({ length: 5 }, broadGrep), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness).at(-1)).toBe("grep:error");
		await harness.command("/exploration-guard allow 2");
		expect(lastNotification(harness)).toContain("2 more otherwise-blocked broad operation(s) allowed");
		harness.script(broadGrep(), broadGrep(), broadGrep(), "done");
		await harness.prompt("continue");
		expect(resultSummary(harness).slice(5)).toEqual(["grep:ok", "grep:ok", "grep:error"]);
		await harness.command("/exploration-guard allow 21");
		expect(lastNotification(harness)).toBe("allow: expected an integer between 1 and 20");
		await harness.command("/exploration-guard off");
		expect(lastNotification(harness)).toContain("off for this session");
		harness.script(...Array.from({ length: 4 }, broadGrep), callTool("read", { path: SECRET_FILE }), "done");
		await harness.prompt("continue");
		expect(resultSummary(harness).slice(8)).toEqual(["grep:ok", "grep:ok", "grep:ok", "grep:ok", "read:ok"]);
		await harness.command("/exploration-guard status");
		expect(lastNotification(harness)).toContain("state bypassed");
		expect(auditEvents(harness)).toEqual([
			"activated",
			"warned",
			"threshold-reached",
			"blocked",
			"user-allow",
			"blocked",
			"user-off",
		]);
		expect(await readFile(configPath, "utf8")).toBe(before);
		await finish(run);
	});

	it("the model cannot reach the command: no tool exists for it", async () => {
		const run = await startGuard("no model bypass", { mode: "block" });
		run.harness.script(broadGrep(), "done");
		await run.harness.prompt("survey");
		const toolNames = run.harness.requests[0]?.toolNames ?? [];
		expect(toolNames.some((name) => name.includes("exploration"))).toBe(false);
		expect(hasGuardCommand(run.harness)).toBe(true);
		await finish(run);
	});
});

describe("failure direction", () => {
	/** Makes one property of the next N events throw when read: a fault inside the guard's handler. */
	function faultInjector(events: Array<"tool_call" | "tool_result">, times: number) {
		return (pi: ExtensionAPI) => {
			for (const name of events) {
				let left = times;
				pi.on(name as "tool_call", (event) => {
					if (left-- <= 0 || event.toolName !== "grep") return undefined;
					Object.defineProperty(event, "parentToolCallId", {
						get() {
							throw new Error(`injected fault ${SECRET_FILE}`);
						},
					});
					return undefined;
				});
			}
		};
	}

	it("fails open on a handler error: the call proceeds unchanged and the error is recorded", async () => {
		const run = await startGuard(
			"handler error",
			{ mode: "block", warnAfter: 1, blockAfter: 2 },
			{ extensions: [faultInjector(["tool_call", "tool_result"], 6)] },
		);
		const { harness } = run;
		harness.script(...Array.from({ length: 6 }, broadGrep), "done");
		await harness.prompt("survey");
		// Every faulted call ran and returned its real output.
		expect(resultSummary(harness)).toEqual(Array(6).fill("grep:ok"));
		const first = harness.toolResults()[0];
		expect(first && harness.toolResultText(first)).toContain(SECRET_PATTERN);
		expect(auditEvents(harness).filter((e) => e === "handler-error").length).toBe(12);
		const notices = harness.ui?.notifications().map((n) => n.message) ?? [];
		expect(notices).toContain(
			"exploration-guard tool_call failed: internal error; the original call proceeds unchanged.",
		);
		expect(notices.filter((n) => n.startsWith("exploration-guard tool_call failed")).length).toBe(1);
		expect(explorationGateReport(harness.entries("pi-policy.audit")).handlerErrors).toBe(12);
		// After the faults stop the guard works again.
		harness.script(broadGrep(), broadGrep(), broadGrep(), "done");
		await harness.prompt("again");
		expect(resultSummary(harness).slice(6)).toEqual(["grep:ok", "grep:ok", "grep:error"]);
		await finish(run);
	});

	it("pins the host: an unguarded throwing tool_call handler blocks the call (why every guard handler catches)", async () => {
		const throwing = (pi: ExtensionAPI) => {
			pi.on("tool_call", () => {
				throw new Error("unguarded");
			});
		};
		const harness = await createHarness({ files: workspaceFiles(), extensions: [throwing] });
		try {
			harness.script(broadGrep(), "done");
			await harness.prompt("survey");
			expect(resultSummary(harness)).toEqual(["grep:error"]);
		} finally {
			await harness.dispose();
		}
	});
});

describe("invalid configs", () => {
	const invalid: Array<[string, unknown, string]> = [
		["warnAfter 0", { mode: "warn", warnAfter: 0 }, "global warnAfter: expected integer between 1 and 20"],
		[
			"warnAfter 21",
			{ mode: "warn", warnAfter: 21, blockAfter: 30 },
			"global warnAfter: expected integer between 1 and 20",
		],
		["warnAfter 1.5", { mode: "warn", warnAfter: 1.5 }, "global warnAfter: expected integer between 1 and 20"],
		[
			"blockAfter equal to warnAfter",
			{ mode: "block", warnAfter: 3, blockAfter: 3 },
			"global blockAfter: expected integer between 4 and 50",
		],
		["blockAfter 51", { mode: "block", blockAfter: 51 }, "global blockAfter: expected integer between 2 and 50"],
		[
			"smallReadMaxLines 0",
			{ mode: "warn", smallReadMaxLines: 0 },
			"global smallReadMaxLines: expected integer between 1 and 1000",
		],
		[
			"smallReadMaxLines 1001",
			{ mode: "warn", smallReadMaxLines: 1001 },
			"global smallReadMaxLines: expected integer between 1 and 1000",
		],
		["an unknown mode", { mode: "strict" }, 'global mode: expected one of "off", "warn", "block"'],
		["an unknown key", { mode: "block", path: SECRET_DIR }, 'global: unknown key "path"'],
		[
			"invalid JSON",
			`{ "mode": "block", "note": "${SECRET_DIR}" `,
			`global: invalid JSON at line 1, column ${`{ "mode": "block", "note": "${SECRET_DIR}" `.length + 1}`,
		],
	];

	it.each(invalid)("%s disables only this guard with one concise error", async (label, config, error) => {
		const handles: Array<ExplorationGuardHandle | undefined> = [];
		const harness = await createHarness({
			files: workspaceFiles(),
			extensions: [capturingGuard(handles), standInSubagent],
			tools: TOOLS_WITH_SUBAGENT,
			config: { "exploration-guard": config },
		});
		try {
			const notices = harness.ui?.notifications() ?? [];
			expect(notices).toEqual([{ message: `exploration-guard disabled: ${error}`, level: "warning" }]);
			expect(auditEvents(harness)).toEqual(["config-invalid"]);
			expect(hasGuardCommand(harness)).toBe(true);
			harness.script(
				...Array.from({ length: 6 }, broadGrep),
				callTool("subagent", { agent: "scout", task: "x" }),
				"done",
			);
			await harness.prompt("survey");
			expect(resultSummary(harness)).toEqual([...Array(6).fill("grep:ok"), "subagent:ok"]);
			expect(nudgeCount(harness)).toBe(0);
			expect(harness.ui?.notifications()).toHaveLength(1);
			const requests = harness.requests.length;
			await harness.command("/exploration-guard status");
			expect(harness.ui?.notifications().at(-1)?.message).toBe(`exploration-guard: disabled: ${error}`);
			expect(harness.requests).toHaveLength(requests);
			collected.push(collectOutput(`invalid ${label}`, harness));
		} finally {
			await harness.dispose();
		}
	});

	it.each([
		["warnAfter 1", { mode: "warn", warnAfter: 1 }],
		["warnAfter 20", { mode: "warn", warnAfter: 20, blockAfter: 21 }],
		["blockAfter warnAfter + 1", { mode: "block", warnAfter: 3, blockAfter: 4 }],
		["blockAfter 50", { mode: "block", blockAfter: 50 }],
		["smallReadMaxLines 1", { mode: "warn", smallReadMaxLines: 1 }],
		["smallReadMaxLines 1000", { mode: "warn", smallReadMaxLines: 1000 }],
	])("accepts the valid side of the bound: %s", async (_label, config) => {
		const harness = await createHarness({
			files: workspaceFiles(),
			extensions: [explorationGuard],
			config: { "exploration-guard": config },
		});
		try {
			expect(auditEvents(harness)).toEqual(["activated"]);
			expect(harness.ui?.notifications()).toEqual([]);
			expect(hasGuardCommand(harness)).toBe(true);
		} finally {
			await harness.dispose();
		}
	});
});

describe("config layers", () => {
	it.each([
		["a trusted project file replaces the global one", true, { mode: "block" }, "mode block"],
		["an untrusted project file is ignored", false, { mode: "block" }, "mode warn"],
	])("%s", async (_label, trusted, project, expected) => {
		const run = await startGuard(
			"layers",
			{ mode: "warn" },
			{ projectConfig: { "exploration-guard": project }, projectTrusted: trusted },
		);
		await run.harness.command("/exploration-guard status");
		expect(lastNotification(run.harness)).toContain(expected);
		await finish(run);
	});

	it("a trusted project file with mode off leaves the guard inert", async () => {
		const run = await startGuard(
			"project off",
			{ mode: "block" },
			{ projectConfig: { "exploration-guard": { mode: "off" } } },
		);
		run.harness.script(...Array.from({ length: 6 }, broadGrep), "done");
		await run.harness.prompt("survey");
		expect(resultSummary(run.harness)).toEqual(Array(6).fill("grep:ok"));
		expect(guardAudit(run.harness)).toEqual([]);
		expect(hasGuardCommand(run.harness)).toBe(true);
		await finish(run);
	});
});

describe("lifecycle", () => {
	it("dispose() makes the handlers inert", async () => {
		const run = await startGuard("dispose", { mode: "block" });
		const { harness } = run;
		harness.script(broadGrep(), broadGrep(), broadGrep(), broadGrep(), "done");
		await harness.prompt("survey");
		run.handles[0]?.dispose();
		expect(run.handles[0]?.disposed).toBe(true);
		harness.script(broadGrep(), broadGrep(), "done");
		await harness.prompt("more");
		expect(resultSummary(harness).slice(4)).toEqual(["grep:ok", "grep:ok"]);
		await harness.command("/exploration-guard status");
		expect(lastNotification(harness)).toBe("Exploration guard is not active in this session.");
		await finish(run);
	});

	it("after /reload the old instance is disposed, counters restart, and a changed config applies", async () => {
		const run = await startGuard("reload", { mode: "block" });
		const { harness } = run;
		harness.script(...Array.from({ length: 5 }, broadGrep), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness).at(-1)).toBe("grep:error");
		await harness.session.reload();
		expect(run.handles).toHaveLength(2);
		expect(run.handles[0]?.disposed).toBe(true);
		expect(run.handles[1]?.state()?.streak).toBe(0);
		harness.script(...Array.from({ length: 4 }, broadGrep), "done");
		await harness.prompt("again");
		// One live instance: exactly one more nudge, and nothing blocked within the new streak of four.
		expect(resultSummary(harness).slice(5)).toEqual(Array(4).fill("grep:ok"));
		expect(nudgeCount(harness)).toBe(2);
		// Rollback: mode off, then /reload, registers no tool hook (the command still answers).
		const { writeFile } = await import("node:fs/promises");
		await writeFile(join(harness.agentDir, "policy", "exploration-guard.json"), JSON.stringify({ mode: "off" }));
		await harness.session.reload();
		expect(run.handles).toHaveLength(3);
		expect(run.handles[2]?.state()).toBeUndefined();
		expect(run.handles[1]?.disposed).toBe(true);
		harness.script(...Array.from({ length: 6 }, broadGrep), "done");
		await harness.prompt("after rollback");
		expect(resultSummary(harness).slice(9)).toEqual(Array(6).fill("grep:ok"));
		await finish(run);
	});

	it("session counters reset on a new session", async () => {
		const run = await startGuard("new session", { mode: "block" });
		run.harness.script(...Array.from({ length: 3 }, broadGrep), "done");
		await run.harness.prompt("survey");
		expect(run.handles.at(-1)?.state()?.streak).toBe(3);
		await run.harness.session.reload();
		expect(run.handles.at(-1)?.state()?.streak).toBe(0);
		expect(auditEvents(run.harness).filter((e) => e === "activated")).toHaveLength(2);
		await finish(run);
	});
});

describe("privacy", () => {
	it("nothing persisted, emitted on the bus or displayed contains a test path or grep pattern", () => {
		const runs = collected.filter((run) => run.texts.length > 0);
		expect(runs.length).toBeGreaterThanOrEqual(15);
		const allTexts = runs.flatMap((run) => run.texts);
		// The scan has material: audit entries, bus payloads, notices and status output.
		expect(allTexts.some((text) => text.includes('"event":"blocked"'))).toBe(true);
		expect(allTexts.some((text) => text.includes("Exploration guard: mode block"))).toBe(true);
		expect(allTexts.some((text) => text.startsWith("exploration-guard disabled:"))).toBe(true);
		for (const run of runs) {
			for (const text of run.texts) {
				for (const secret of PRIVATE_STRINGS) {
					expect(text.includes(secret), `${run.label}: ${text}`).toBe(false);
				}
			}
		}
	});

	it("the bus carries exactly the persisted audit entries", () => {
		const withBus = collected.find((run) => run.label === "delegation reset");
		expect(withBus).toBeDefined();
		const texts = withBus?.texts ?? [];
		const persisted = texts.filter((t) => t.includes('"ext":"exploration-guard"'));
		// Each entry appears twice, the same text: once persisted, once on the bus.
		const counts = new Map<string, number>();
		for (const text of persisted) counts.set(text, (counts.get(text) ?? 0) + 1);
		expect(counts.size).toBeGreaterThan(0);
		expect([...counts.values()].filter((count) => count % 2 !== 0)).toEqual([]);
	});
});
