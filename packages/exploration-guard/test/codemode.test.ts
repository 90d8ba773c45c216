// Code mode in real Pi sessions: two codemode calls in one assistant message are one multi-tool batch, counted once
// and never blocked, also when Pi runs the two scripts side by side and their nested reads interleave (a
// twenty-seventh review counted such a message 6 times, and the next isolated read was paused).
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { callTools } from "@pi-policy/pi-harness";
import { describe, expect, it } from "vitest";
import { guardRunsPerFile, resultSummary, SECRET_FILE, standInSubagent, stateOf } from "./support.ts";

const STOCK = ["read", "bash", "edit", "write"];
const runs = guardRunsPerFile({ tools: STOCK, extensions: [standInSubagent] });
const FILES = [SECRET_FILE, "src/app.ts", "README.md"];
/** A script that reads the files one after the other, pausing 0.1 s after each, so two scripts interleave. */
const sequential = () => ({
	name: "codemode",
	args: {
		code: `let n = 0; for (const p of ${JSON.stringify(FILES)}) { await tools.read({ path: p }); await tools.bash({ command: "sleep 0.1" }); n++; } return n;`,
	},
});

describe("exploration-guard with code mode", () => {
	it("two scripts in one message count once; the next isolated read is not paused", async () => {
		const run = await runs.start(
			"two scripts",
			{ mode: "block" },
			{ tools: [...STOCK, "codemode", "subagent"], extensions: [createCodemodeExtension({ mode: "on" })] },
		);
		const { harness } = run;
		harness.script(
			callTools(sequential(), sequential()),
			callTools({ name: "read", args: { path: "README.md" } }),
			"done",
		);
		await harness.prompt("read in two scripts, then one file");
		expect(resultSummary(harness)).toEqual(["codemode:ok", "codemode:ok", "read:ok"]);
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 2, nestedBroad: 1, blockedBroad: 0 });
		await runs.finish(run);
	});
});

describe("batches after /tree, and the allowance's cap", () => {
	it("a batch on a new branch counts even where an abandoned counted batch stood", async () => {
		const run = await runs.start("tree batch", { mode: "warn" }, { tools: [...STOCK, "grep", "find", "ls"] });
		const { harness } = run;
		harness.script("ok");
		await harness.prompt("hello");
		const before = harness.session.sessionManager.getLeafId();
		const batch = () =>
			callTools({ name: "grep", args: { pattern: "retry" } }, { name: "find", args: { pattern: "*.ts" } });
		harness.script(batch(), "done");
		await harness.prompt("survey A");
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(1);
		await harness.session.navigateTree(before as string, { summarize: false });
		harness.script(batch(), "done");
		await harness.prompt("survey B");
		expect(stateOf(run.handles)?.counters.broadAttempts).toBe(2);
		await runs.finish(run);
	});

	it("allow at the cap says what it added", async () => {
		const run = await runs.start("allow cap", { mode: "block" }, { tools: [...STOCK, "subagent"] });
		const { harness } = run;
		await harness.command("/exploration-guard allow 20");
		await harness.command("/exploration-guard allow 20");
		expect(harness.ui?.notifications().at(-1)?.message).toBe(
			"Exploration guard: 0 more otherwise-blocked broad operation(s) allowed this session (20 banked, the most it holds).",
		);
		await runs.finish(run);
	});
});
