// exploration-guard on stock Pi 1.6.0 (pi-harness, real AgentSession, Pi's default tools read/bash/edit/write):
// bash exploration counts and is never paused unless bashBlock, code mode's nested calls count once per parent and
// are never blocked, the nudge says only what is true, and the context-pressure nudge fires once. Then a privacy
// scan over everything these runs persisted, emitted or displayed.
import { createCodemodeExtension, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, contentText, createHarness, type Harness, type HarnessOptions } from "@pi-policy/pi-harness";
import {
	EXPLORATION_GUARD_DEFAULTS,
	EXPLORATION_NUDGE_PREFIX,
	explorationBlockReason,
	explorationGateReport,
} from "@pi-policy/policy-kernel/exploration";
import { describe, expect, it } from "vitest";
import {
	auditEvents,
	guardAudit,
	guardRunsPerFile,
	PRIVATE_STRINGS,
	resultSummary,
	SECRET_DIR,
	SECRET_FILE,
	SECRET_PATTERN,
	standInSubagent,
	stateOf,
	workspaceFiles,
} from "./support.ts";

/** Pi's default tools. */
const STOCK = ["read", "bash", "edit", "write"];
const BLOCK_REASON = explorationBlockReason(EXPLORATION_GUARD_DEFAULTS);
const runs = guardRunsPerFile({ tools: STOCK, extensions: [standInSubagent], moreTexts: (harness) => nudges(harness) });
const { collected, open, finish } = runs;

function start(label: string, guard: unknown, options: Omit<HarnessOptions, "config"> & { subagent?: boolean } = {}) {
	const { subagent, ...rest } = options;
	return runs.start(label, guard, { tools: subagent ? [...STOCK, "subagent"] : STOCK, ...rest });
}

/** The guard's steer nudges that reached the session, in order. */
function nudges(harness: Harness): string[] {
	return harness.session.messages.flatMap((m) =>
		m.role === "user" && contentText(m.content).startsWith(EXPLORATION_NUDGE_PREFIX) ? [contentText(m.content)] : [],
	);
}

const bash = (command: string) => callTool("bash", { command });
/** Broad bash explorations over the whole repository, each a different tool. */
const BROAD_BASH = [
	`grep -rn ${SECRET_PATTERN} .`,
	"find . -name '*.ts'",
	"ls -R",
	`cat ${SECRET_FILE}`,
	`grep -rn ${SECRET_PATTERN}`,
	"find . -type f",
	"ls -R .",
];
const broadBash = (i: number) => bash(BROAD_BASH[i % BROAD_BASH.length] as string);

describe("stock Pi: bash exploration in warn mode", () => {
	it("two broad bash explorations produce the nudge; a bash build, a write and narrow commands do not count", async () => {
		const run = await start("stock warn", { mode: "warn" });
		const { harness } = run;
		expect(harness.session.getActiveToolNames()).toEqual(STOCK);
		let nudgedAt = -1;
		harness.script(
			bash("npm run build --if-present 2>&1 | tail -5"),
			bash(`rg -n ${SECRET_PATTERN} ${SECRET_DIR} || true`),
			bash("cat package.json"),
			bash(`nl -ba ${SECRET_FILE} | sed -n '1,20p'`),
			bash("ls -la src"),
			bash("echo built > build.log"),
			broadBash(0),
			bash("ls && npm test --if-present"),
			(request) => {
				nudgedAt = harness.requestText(request).includes(EXPLORATION_NUDGE_PREFIX) ? request.index : -1;
				return broadBash(1);
			},
			(request) => {
				nudgedAt = harness.requestText(request).includes(EXPLORATION_NUDGE_PREFIX) ? request.index : nudgedAt;
				return broadBash(2);
			},
			"done",
		);
		await harness.prompt("survey the repository");
		expect(resultSummary(harness).every((r) => r.startsWith("bash:"))).toBe(true);
		expect(harness.toolResults().every((r) => !harness.toolResultText(r).includes("Exploration guard"))).toBe(true);
		// Nothing before the first broad exploration counted, and one more broad one nudged.
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 3, bashBroad: 3, blockedBroad: 0 });
		expect(nudges(harness)).toHaveLength(1);
		expect(nudgedAt).toBe(9);
		expect(auditEvents(harness)).toEqual(["activated", "warned"]);
		expect(guardAudit(harness)[1]).toMatchObject({ mode: "warn", category: "find", counters: { bashBroad: 2 } });
		// No delegation tool on stock Pi: the nudge says nothing will be blocked, and suggests what to do instead.
		const text = nudges(harness)[0] ?? "";
		expect(text).toContain("The delegation tool subagent is not active, so nothing will be blocked.");
		expect(text).toContain("enable pi-subagents");
		expect(text).not.toContain("paused");
		await harness.command("/exploration-guard status");
		const status = harness.ui?.notifications().at(-1)?.message ?? "";
		expect(status).toContain("Bash: auto, never blocked; counted 3, blocked 0");
		expect(status).toContain("Code mode nested: counted 0; context pressure: off");
		await finish(run);
	});

	it('"bash": "off" never counts bash, and "auto" leaves bash alone when grep, find and ls are all active', async () => {
		const off = await start("bash off", { mode: "warn", bash: "off" });
		off.harness.script(...Array.from({ length: 4 }, (_, i) => broadBash(i)), "done");
		await off.harness.prompt("survey");
		expect(stateOf(off.handles)?.counters.broadAttempts).toBe(0);
		expect(nudges(off.harness)).toHaveLength(0);
		await finish(off);
		const auto = await start("bash auto, all tools", { mode: "warn" }, { tools: [...STOCK, "grep", "find", "ls"] });
		auto.harness.script(...Array.from({ length: 4 }, (_, i) => broadBash(i)), "done");
		await auto.harness.prompt("survey");
		expect(stateOf(auto.handles)?.counters.broadAttempts).toBe(0);
		await finish(auto);
		const count = await start(
			"bash count, all tools",
			{ mode: "warn", bash: "count" },
			{ tools: [...STOCK, "grep", "find", "ls"] },
		);
		count.harness.script(...Array.from({ length: 2 }, (_, i) => broadBash(i)), "done");
		await count.harness.prompt("survey");
		expect(stateOf(count.handles)?.counters.bashBroad).toBe(2);
		expect(nudges(count.harness)).toHaveLength(1);
		await finish(count);
	});
});

describe("stock Pi: block mode and bash", () => {
	it("without bashBlock the fifth (and every later) broad bash exploration still runs", async () => {
		const run = await start("block no bashBlock", { mode: "block" }, { subagent: true });
		const { harness } = run;
		harness.script(...Array.from({ length: 7 }, (_, i) => broadBash(i)), "done");
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual(Array(7).fill("bash:ok"));
		expect(harness.toolResults().some((r) => harness.toolResultText(r) === BLOCK_REASON)).toBe(false);
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 7, bashBroad: 7, blockedBroad: 0 });
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached"]);
		// With pi-subagents active, the nudge names the exact threshold and says bash is never paused.
		const text = nudges(harness)[0] ?? "";
		expect(text).toContain("Delegate the remaining survey with subagent");
		expect(text).toContain("After 2 more broad operations, isolated broad read/grep/find/ls calls will be paused");
		expect(text).toContain("Bash commands are counted but never paused.");
		// A broad read tool call is still paused: bash counted toward the streak.
		harness.script(callTool("read", { path: SECRET_FILE }), "done");
		await harness.prompt("read it");
		expect(resultSummary(harness).at(-1)).toBe("read:error");
		await finish(run);
	});

	it("with bashBlock: true the fifth is paused with the documented reason and the user escape command; a bash write never is", async () => {
		const run = await start("block bashBlock", { mode: "block", bashBlock: true }, { subagent: true });
		const { harness } = run;
		harness.script(
			...Array.from({ length: 5 }, (_, i) => broadBash(i)),
			bash(`echo ${SECRET_PATTERN} > notes.txt`),
			bash("rm -f notes.txt && ls -R"),
			bash("npm run build --if-present 2>&1 | tail -3"),
			bash(`rg -n ${SECRET_PATTERN} ${SECRET_DIR} || true`),
			broadBash(5),
			"done",
		);
		await harness.prompt("survey");
		expect(resultSummary(harness)).toEqual([
			"bash:ok",
			"bash:ok",
			"bash:ok",
			"bash:ok",
			"bash:error",
			"bash:ok",
			"bash:ok",
			"bash:ok",
			"bash:ok",
			"bash:error",
		]);
		const fifth = harness.toolResults()[4];
		expect(fifth && harness.toolResultText(fifth)).toBe(BLOCK_REASON);
		expect(BLOCK_REASON).toContain("/exploration-guard allow or off");
		expect(auditEvents(harness)).toEqual(["activated", "warned", "threshold-reached", "bash-blocked", "bash-blocked"]);
		expect(guardAudit(harness)[3]).toMatchObject({ event: "bash-blocked", state: "blocking", category: "grep" });
		expect(nudges(harness)[0]).toContain("pure bash exploration commands will be paused");
		// The user's escape hatch lets the next one through.
		await harness.command("/exploration-guard allow");
		harness.script(broadBash(6), "done");
		await harness.prompt("once more");
		expect(resultSummary(harness).at(-1)).toBe("bash:ok");
		// The gate still proves that nothing but exploration was blocked.
		const gate = explorationGateReport(harness.entries("pi-policy.audit"));
		expect(gate).toMatchObject({ blocked: 0, bashBlocked: 2, blockedOtherTools: 0 });
		expect(gate.criteria.noBlockedOtherTool).toBe(true);
		await finish(run);
	});
});

describe("code mode", () => {
	/** A code-mode script that reads `paths` in full (broad reads) and returns how many it read. */
	const script = (paths: string[]) =>
		callTool("codemode", {
			code: `const r = await Promise.all([${paths.map((p) => `tools.read({ path: ${JSON.stringify(p)} })`).join(", ")}]); return r.length;`,
		});
	const FILES = [SECRET_FILE, "src/app.ts", "README.md", SECRET_FILE];

	it("pins the host: nested calls carry parentToolCallId and ids <parent>/<n>, and add no transcript entries", async () => {
		const seen: Array<{ tool: string; id: string; parent: string | undefined }> = [];
		const spy = (pi: ExtensionAPI) => {
			pi.on("tool_call", (event) => {
				seen.push({ tool: event.toolName, id: event.toolCallId, parent: event.parentToolCallId });
			});
		};
		const harness = await createHarness({
			files: workspaceFiles(),
			tools: [...STOCK, "codemode"],
			extensions: [createCodemodeExtension({ mode: "on" }), spy],
		});
		open.push(harness);
		harness.script(script(FILES), "done");
		await harness.prompt("read");
		const [parent, ...nested] = seen;
		expect(parent).toMatchObject({ tool: "codemode", parent: undefined });
		expect(nested.map((call) => call.tool)).toEqual(["read", "read", "read", "read"]);
		for (const call of nested) {
			expect(call.parent).toBe(parent?.id);
			expect(call.id.startsWith(`${parent?.id}/`)).toBe(true);
		}
		expect(resultSummary(harness)).toEqual(["codemode:ok"]);
		await harness.dispose();
		open.splice(open.indexOf(harness), 1);
	});

	it("a codemode call with four nested broad reads counts once and is never blocked, in block mode too", async () => {
		const run = await start(
			"code mode",
			{ mode: "block" },
			{ tools: [...STOCK, "codemode", "subagent"], extensions: [createCodemodeExtension({ mode: "on" })] },
		);
		const { harness } = run;
		harness.script(script(FILES), "done");
		await harness.prompt("read in a script");
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 1, nestedBroad: 1 });
		// Six more scripts: beyond blockAfter, still never blocked, one count each.
		harness.script(...Array.from({ length: 6 }, () => script(FILES)), "done");
		await harness.prompt("read more in scripts");
		expect(resultSummary(harness)).toEqual(Array(7).fill("codemode:ok"));
		for (const result of harness.toolResults()) {
			expect(harness.toolResultText(result)).toContain("Script completed");
			expect(harness.toolResultText(result)).not.toContain("Exploration guard");
		}
		expect(stateOf(run.handles)?.counters).toMatchObject({ broadAttempts: 7, nestedBroad: 7, blockedBroad: 0 });
		expect(auditEvents(harness)).not.toContain("blocked");
		expect(nudges(harness)).toHaveLength(1);
		await finish(run);
	});
});

describe("context pressure", () => {
	it("fires once, on the first broad call over the share, even on a short streak", async () => {
		const big = `${Array.from({ length: 700 }, (_, i) => `export const line${i} = "${"y".repeat(12)}";`).join("\n")}\n`;
		const run = await start(
			"context pressure",
			{ mode: "warn", warnAfter: 10, blockAfter: 20, nudgeAtContextShare: 0.5 },
			{ models: [{ id: "faux-1", contextWindow: 10_000 }], files: { ...workspaceFiles(), "src/big.ts": big } },
		);
		const { harness } = run;
		harness.script(
			broadBash(0),
			// Narrow: a window of the big file; not broad, so it cannot trigger.
			bash("sed -n '1,400p' src/big.ts"),
			bash("git status || true"),
			broadBash(1),
			broadBash(2),
			callTool("read", { path: SECRET_FILE }),
			"done",
		);
		await harness.prompt("survey");
		const all = nudges(harness);
		expect(all).toHaveLength(1);
		expect(all[0]).toContain("over 50% of the context window");
		expect(stateOf(run.handles)?.counters).toMatchObject({ pressureNudges: 1, warnings: 1, broadAttempts: 4 });
		// The nudge came on the second broad call (the first one over the share), not on the narrow reads before it.
		const warned = guardAudit(harness).find((entry) => entry.event === "warned");
		expect(warned).toMatchObject({ counters: { broadAttempts: 2, pressureNudges: 1 } });
		await finish(run);
	});

	it("without nudgeAtContextShare the same session is not nudged early", async () => {
		const big = `${"z".repeat(60)}\n`.repeat(700);
		const run = await start(
			"no pressure",
			{ mode: "warn", warnAfter: 10, blockAfter: 20 },
			{ models: [{ id: "faux-1", contextWindow: 10_000 }], files: { ...workspaceFiles(), "src/big.ts": big } },
		);
		run.harness.script(broadBash(0), bash("sed -n '1,400p' src/big.ts"), broadBash(1), broadBash(2), "done");
		await run.harness.prompt("survey");
		expect(nudges(run.harness)).toHaveLength(0);
		await finish(run);
	});
});

describe("privacy", () => {
	it("nothing persisted, emitted on the bus or displayed contains a command, path or pattern", () => {
		expect(collected.length).toBeGreaterThanOrEqual(8);
		for (const { label, texts } of collected) {
			expect(texts.length, label).toBeGreaterThan(0);
			for (const text of texts) {
				for (const secret of [...PRIVATE_STRINGS, "grep -rn", "find .", "ls -R", "npm run", "big.ts"]) {
					expect(text.includes(secret), `${label}: ${secret}`).toBe(false);
				}
			}
		}
	});
});
