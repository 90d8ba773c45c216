// exploration-guard's shell in real Pi 1.6.0 sessions (pi-harness, faux provider): the exact handler-error audit
// entry, notification levels, the command's own failure path, when bash counts, code mode's nested bash, how often
// the context usage is read, and forgetting a launch that never produced a result at the end of a turn.
import { createCodemodeExtension, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, type Harness } from "@pi-policy/pi-harness";
import { describe, expect, it } from "vitest";
import {
	auditEvents,
	broadGrep,
	guardAudit,
	guardRunsPerFile,
	resultSummary,
	SECRET_FILE,
	SECRET_PATTERN,
	standInSubagent,
	stateOf,
	workspaceFiles,
} from "./support.ts";

/** Pi's default tools. */
const STOCK = ["read", "bash", "edit", "write"];
const WITH_SUBAGENT = ["read", "bash", "edit", "write", "grep", "find", "ls", "subagent"];

/** Another extension's policy: refuses every `subagent` launch for agent "refused" (no result ever reaches it). */
function refuseSubagent(pi: ExtensionAPI): void {
	pi.on("tool_call", (event) => {
		const input = event.input as { agent?: unknown } | undefined;
		if (event.toolName === "subagent" && input?.agent === "refused") {
			return { block: true, reason: "refused by another policy" };
		}
		return undefined;
	});
}

const runs = guardRunsPerFile({ tools: WITH_SUBAGENT, extensions: [standInSubagent, refuseSubagent] });

/** Makes `parentToolCallId` of the next `times` grep tool_call events throw when read: a fault in the guard. */
function grepFault(times: number) {
	return (pi: ExtensionAPI) => {
		let left = times;
		pi.on("tool_call", (event) => {
			if (event.toolName !== "grep" || left-- <= 0) return undefined;
			Object.defineProperty(event, "parentToolCallId", {
				get() {
					throw new Error("injected fault");
				},
			});
			return undefined;
		});
	};
}

const notifications = (harness: Harness) => harness.ui?.notifications() ?? [];
const bash = (command: string) => callTool("bash", { command });

describe("the handler-error audit entry", () => {
	it.each([
		["block", { mode: "block" }],
		["warn", { mode: "warn" }],
	] as const)("carries the session's mode (%s) after a handler fault", async (mode, config) => {
		const run = await runs.start(`handler-error ${mode}`, config, { extensions: [grepFault(1)] });
		const { harness } = run;
		harness.script(broadGrep(), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["grep:ok"]);
		const errors = guardAudit(harness).filter((entry) => entry.event === "handler-error");
		expect(errors).toEqual([{ v: 1, ext: "exploration-guard", event: "handler-error", mode }]);
		await runs.finish(run);
	});
});

describe("notification levels", () => {
	it("the nudge notice is info, the blocked notice and the handler-failure notice are warnings", async () => {
		const run = await runs.start("levels block", { mode: "block" }, { extensions: [grepFault(1)] });
		const { harness } = run;
		// The first grep faults (not counted); then five broad greps: nudge at two, the fifth is blocked.
		harness.script(...Array.from({ length: 6 }, broadGrep), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["grep:ok", "grep:ok", "grep:ok", "grep:ok", "grep:ok", "grep:error"]);
		expect(notifications(harness)).toEqual([
			{
				message: "exploration-guard tool_call failed: internal error; the original call proceeds unchanged.",
				level: "warning",
			},
			{
				message: "Exploration guard: repeated broad exploration; the agent was nudged to narrow it or delegate it.",
				level: "info",
			},
			{
				message:
					"Exploration guard paused a broad exploration call. Run /exploration-guard allow [n] or /exploration-guard off to permit more.",
				level: "warning",
			},
		]);
		await runs.finish(run);
	});

	it("the fallback notices (delegation tool not active, delegated run failed) are warnings", async () => {
		const inactive = await runs.start(
			"levels unavailable",
			{ mode: "block" },
			{ tools: ["read", "bash", "grep", "find", "ls"] },
		);
		inactive.harness.script(...Array.from({ length: 5 }, broadGrep), "done");
		await inactive.harness.prompt("survey");
		expect(notifications(inactive.harness).at(-1)).toEqual({
			message: "Exploration guard: the delegation tool is not active; warn-only for the rest of this session.",
			level: "warning",
		});
		await runs.finish(inactive);

		const failed = await runs.start("levels failed", { mode: "block" });
		failed.harness.script(callTool("subagent", { agent: "broken", task: "Survey." }), "done");
		await failed.harness.prompt("delegate");
		expect(notifications(failed.harness)).toEqual([
			{
				message: "Exploration guard: a delegated run failed; warn-only for the rest of this session.",
				level: "warning",
			},
		]);
		await runs.finish(failed);
	});
});

describe("the command's own failure path", () => {
	it("a fault inside /exploration-guard status gives one concise warning and a handler-error entry", async () => {
		const run = await runs.start("command fault", { mode: "block" });
		const { harness } = run;
		const state = stateOf(run.handles);
		expect(state).toBeDefined();
		// A fault inside the command: reading the session's counters throws.
		Object.defineProperty(state, "counters", {
			get() {
				throw new Error("injected fault");
			},
		});
		const before = notifications(harness).length;
		await harness.command("/exploration-guard status");
		expect(notifications(harness).slice(before)).toEqual([
			{ message: "exploration-guard command failed: internal error; nothing was changed.", level: "warning" },
		]);
		expect(guardAudit(harness)).toEqual([
			expect.objectContaining({ event: "activated" }),
			{ v: 1, ext: "exploration-guard", event: "handler-error", mode: "block" },
		]);
		expect(harness.requests).toHaveLength(0);
		await runs.finish(run);
	});
});

describe("when bash exploration counts", () => {
	it('"auto" counts broad bash when grep and find are active but ls is not', async () => {
		const run = await runs.start("bash auto without ls", { mode: "warn" }, { tools: [...STOCK, "grep", "find"] });
		const { harness } = run;
		harness.script(bash(`grep -rn ${SECRET_PATTERN} .`), bash("find . -name '*.ts'"), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["bash:ok", "bash:ok"]);
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 2, bashBroad: 2 });
		expect(auditEvents(harness)).toEqual(["activated", "warned"]);
		await runs.finish(run);
	});
});

describe("code mode: nested bash", () => {
	it("three nested broad bash explorations in one script count once, as a nested event, not as bash", async () => {
		const run = await runs.start(
			"nested bash",
			{ mode: "block", bashBlock: true },
			{ tools: [...STOCK, "codemode", "subagent"], extensions: [createCodemodeExtension({ mode: "on" })] },
		);
		const { harness } = run;
		const commands = [`grep -rn ${SECRET_PATTERN} .`, "find . -name '*.ts'", "ls -R ."];
		const script = () =>
			callTool("codemode", {
				code: `let n = 0; for (const command of ${JSON.stringify(commands)}) { await tools.bash({ command }); n++; } return n;`,
			});
		harness.script(script(), "done");
		await harness.prompt("explore in a script");
		expect(resultSummary(harness)).toEqual(["codemode:ok"]);
		expect(stateOf(run.handles)?.counters).toMatchObject({
			broadAttempts: 1,
			nestedBroad: 1,
			bashBroad: 0,
			blockedBroad: 0,
		});
		expect(auditEvents(harness)).toEqual(["activated"]);
		await runs.finish(run);
	});
});

describe("context pressure", () => {
	it("reads the context usage only until the pressure nudge was sent", async () => {
		const big = `${Array.from({ length: 700 }, (_, i) => `export const line${i} = "${"y".repeat(12)}";`).join("\n")}\n`;
		const run = await runs.start(
			"pressure reads",
			{ mode: "warn", warnAfter: 10, blockAfter: 20, nudgeAtContextShare: 0.5 },
			{
				tools: STOCK,
				models: [{ id: "faux-1", contextWindow: 10_000 }],
				files: { ...workspaceFiles(), "src/big.ts": big },
			},
		);
		const { harness } = run;
		// Count every read of the context usage through an extension context.
		const runner = harness.session.extensionRunner as unknown as { getContextUsageFn: () => unknown };
		const original = runner.getContextUsageFn;
		let reads = 0;
		runner.getContextUsageFn = () => {
			reads++;
			return original();
		};
		harness.script(
			callTool("read", { path: "src/big.ts" }),
			bash(`grep -rn ${SECRET_PATTERN} .`),
			bash("find . -name '*.ts'"),
			bash("ls -R ."),
			callTool("read", { path: SECRET_FILE }),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(["read:ok", "bash:ok", "bash:ok", "bash:ok", "read:ok"]);
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 5, pressureNudges: 1, warnings: 1 });
		const warned = guardAudit(harness).find((entry) => entry.event === "warned");
		expect(warned).toMatchObject({ counters: { broadAttempts: 2, pressureNudges: 1 } });
		// One read per broad call up to and including the one that nudged; none after.
		expect(reads).toBe(2);
		await runs.finish(run);
	});
});

describe("a launch that never produced a result", () => {
	it("is forgotten at the end of its turn, so the next isolated broad call is paused again", async () => {
		const run = await runs.start("refused launch", { mode: "block" });
		const { harness } = run;
		harness.script(
			...Array.from({ length: 4 }, broadGrep),
			callTool("subagent", { agent: "refused", task: "Survey." }),
			broadGrep(),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual([
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"grep:ok",
			"subagent:error",
			"grep:error",
		]);
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached", "delegation-started", "blocked"]);
		expect(guardAudit(harness)[4]).toMatchObject({
			state: "blocking",
			counters: { delegationsStarted: 1, delegationsSucceeded: 0, delegationsFailed: 0, blockedBroad: 1 },
		});
		expect(stateOf(run.handles)?.pendingLaunches).toBe(0);
		await runs.finish(run);
	});
});
