// exploration-guard on real exploration: replays the bash commands and tool calls of public agent runs
// (tooling/bench/corpora) through the kernel's bash exploration classifier and the guard's reducer, and reports
// the share of bash calls that are exploration, the share of sessions nudged and paused (bash "count" against
// "off"), the classifier's decisions on the 50 most common command shapes against hand-checked expectations,
// and the guard's hook overhead in a real Pi session on stock tools.
import { performance } from "node:perf_hooks";
import type { ExtensionAPI, InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness, type ScriptStep } from "@pi-policy/pi-harness";
import explorationGuard from "../../../../packages/exploration-guard/src/index.ts";
import { type BashList, parseBashSyntax } from "../../../../packages/policy-kernel/src/bash/index.ts";
import {
	type BashExplorationClassification,
	classifyBashExplorationCommand,
	classifyBroadExplorationCall,
	createExplorationGuardState,
	EXPLORATION_GUARD_DEFAULTS,
	type ExplorationCategory,
	type ExplorationGuardConfig,
	type ExplorationSource,
	reduceExplorationGuard,
} from "../../../../packages/policy-kernel/src/exploration/index.ts";
import { type AgentBashCommand, type AgentToolCall, loadAgentBashCommands, loadAgentToolCalls } from "../corpora.ts";
import type { BenchFigure, BenchResult, BenchWorkload } from "../types.ts";

/** The replay cwd when a session never `cd`s to an absolute directory (SWE-bench containers use /testbed). */
const DEFAULT_CWD = "/testbed";

/** A decision as one short label: `broad:grep`, `exempt:read:small-read`, `never:writes`. */
export function decisionLabel(decision: BashExplorationClassification): string {
	if (decision.kind === "broad") return `broad:${decision.category}`;
	if (decision.kind === "exempt") return `exempt:${decision.category}:${decision.exemption}`;
	return `never:${decision.reason}`;
}

function shapeWords(words: readonly { value: string; literal: string | undefined }[]): string[] {
	const out: string[] = [];
	words.forEach((word, i) => {
		const value = word.value;
		let token: string;
		if (i === 0) token = word.literal === undefined ? "$CMD" : (value.split("/").pop() ?? value);
		else if (/^-\d+$/.test(value)) token = "-N";
		else if (value.startsWith("-")) token = value.replace(/=.*$/, "=V").replace(/\d+/g, "N");
		else if (/^\d+$/.test(value)) token = "N";
		else if (value === ".") token = ".";
		else token = "X";
		// Git and similar tools: keep the subcommand.
		if (i === 1 && (out[0] === "git" || out[0] === "python" || out[0] === "python3") && !value.startsWith("-")) {
			token = out[0] === "git" ? value : token;
		}
		if (token === "X" && out[out.length - 1] === "X") return;
		out.push(token);
	});
	return out;
}

function shapeOfList(list: BashList): string {
	const statements: string[] = [];
	for (const statement of list.statements) {
		const parts: string[] = [];
		statement.pipelines.forEach((pipeline, p) => {
			const commands = pipeline.commands.map((command) => {
				if (command.kind !== "simple") return `<${command.kind}>`;
				const words = shapeWords(command.words);
				for (const redirect of command.redirects) {
					if (redirect.heredoc !== undefined) words.push(`${redirect.op}EOF`);
					else
						words.push(
							`${redirect.fd ?? ""}${redirect.op}${redirect.target.value === "/dev/null" ? "/dev/null" : /^\d$/.test(redirect.target.value) ? redirect.target.value : "X"}`,
						);
				}
				return words.join(" ");
			});
			if (p > 0) parts.push(statement.operators[p - 1] ?? "&&");
			parts.push(commands.join(" | "));
		});
		statements.push(parts.join(" ") + (statement.terminator === "&" ? " &" : ""));
	}
	return statements.join("; ");
}

/**
 * A command's shape: command names and options kept, numbers as `N`, other operands as `X` (runs collapsed), `.`
 * kept, redirect targets as `X` except `/dev/null` and descriptors, heredocs as `<<EOF`. Unparseable input is
 * `<unparseable>`.
 */
export function commandShape(command: string): string {
	const parsed = parseBashSyntax(command);
	return parsed.ok ? shapeOfList(parsed.tree) : "<unparseable>";
}

/**
 * Hand-checked expectations for the most common shapes: each shape's allowed decisions (a shape can stand for
 * commands with different arguments, `grep -rn X .` against `grep -rn X src`). Written by reading the shape and the
 * seed's rules, not by running the classifier: a decision outside the set shows as a disagreement in the results.
 */
export const HAND_CHECKED_SHAPES: Readonly<Record<string, readonly string[]>> = {
	// Writes: mkdir, appends, rm, git add/commit/checkout/clean/stash.
	"test -w X && mkdir -p X": ["never:writes"],
	"mkdir -p X": ["never:writes"],
	"cat X >>X && rm -f X": ["never:writes"],
	"cd X && git add -A && git commit --allow-empty -m X && git diff X": ["never:writes"],
	"echo X && git add -A && git diff --cached": ["never:writes"],
	"<if>; cd X && git fetch X && git checkout -B X && git clean -fdx": ["never:writes"],
	"cd X && git stash X": ["never:writes", "never:not-exploration"],
	// Builds, tests, scripts and installs.
	"cd X && python3 -c X": ["never:not-exploration"],
	"python - <<EOF": ["never:not-exploration"],
	"python3 - <<EOF": ["never:not-exploration"],
	"python3 <<EOF": ["never:not-exploration"],
	"cd X && python3 <<EOF": ["never:not-exploration"],
	"cd X && python -c X": ["never:not-exploration"],
	"cd X && python -c X 2>&1": ["never:not-exploration"],
	"python3 -c X": ["never:not-exploration"],
	"cd X && python X --verbosity N --settings=V --parallel N X 2>&1 | tail -N": ["never:not-exploration"],
	"cd X && python X --verbosity N --settings=V --parallel N X 2>&1": ["never:not-exploration"],
	"cd X && python X --verbosity N --settings=V --parallel N X 2>&1 | grep -E X": ["never:not-exploration"],
	"cd X && python X --verbosity N --settings=V --parallel N X 2>&1 | grep -E X | head -N": ["never:not-exploration"],
	"cd X && python -m X -e . 2>&1 | tail -N": ["never:not-exploration"],
	"cd X && python -m X -e . --break-system-packages 2>&1 | tail -N": ["never:not-exploration"],
	"pip X --break-system-packages X 2>&1 | tail -N": ["never:not-exploration"],
	"cd X && pip X --break-system-packages X 2>&1 | tail -N": ["never:not-exploration"],
	"cd X && pip X 2>&1 | tail -N": ["never:not-exploration"],
	"cd X && source X && python3 -c X": ["never:not-exploration"],
	// Read-only git: neutral, so alone not exploration.
	"cd X && git diff X": ["never:not-exploration"],
	"cd X && git diff": ["never:not-exploration"],
	"cd X && git diff X -- X": ["never:not-exploration"],
	"cd X && git log --oneline -N": ["never:not-exploration"],
	// Listings without -R: shallow.
	"ls X 2>/dev/null": ["exempt:ls:shallow-listing"],
	"ls X": ["exempt:ls:shallow-listing"],
	"ls -d X 2>/dev/null": ["exempt:ls:shallow-listing"],
	"ls -d X": ["exempt:ls:shallow-listing"],
	"ls X 2>/dev/null | head -N": ["exempt:ls:shallow-listing"],
	"ls -la": ["exempt:ls:shallow-listing"],
	// Reads: a window of lines, or a whole file (exempt only for manifests, docs and the like).
	"nl -ba X | sed -n X": ["exempt:read:small-read", "broad:read", "exempt:read:excluded-path"],
	"cd X && sed -n X": ["exempt:read:small-read", "broad:read", "exempt:grep:narrow-scope", "exempt:read:excluded-path"],
	"sed -n X": ["exempt:read:small-read", "broad:read", "exempt:grep:narrow-scope", "exempt:read:excluded-path"],
	"cat X": ["broad:read", "exempt:read:excluded-path"],
	// Greps: a named file is narrow; -R over a path depends on the path; -R with no path is the whole cwd.
	"cd X && grep -n X | head -N": ["exempt:grep:narrow-scope"],
	"cd X && grep -n X": ["exempt:grep:narrow-scope", "never:not-exploration"],
	"grep -n X | head -N": ["exempt:grep:narrow-scope"],
	"grep -n X": ["exempt:grep:narrow-scope", "never:not-exploration"],
	"grep -R X -n X || true": ["broad:grep", "exempt:grep:narrow-scope", "exempt:grep:outside-cwd"],
	"grep -R X -n || true": ["broad:grep"],
	// Finds: the path decides; a pipe into head below 1,000 entries is a narrow limit.
	"find X -type X -name X 2>/dev/null": ["broad:find", "exempt:find:narrow-scope", "exempt:find:outside-cwd"],
	"find X -type X -name X 2>/dev/null | head -N": [
		"exempt:find:narrow-limit",
		"exempt:find:narrow-scope",
		"exempt:find:outside-cwd",
	],
	"find X -name X 2>/dev/null | head -N": [
		"exempt:find:narrow-limit",
		"exempt:find:narrow-scope",
		"exempt:find:outside-cwd",
	],
	// All 40 are `-maxdepth 1` of one folder: a listing, like `ls` (a twenty-seventh review).
	"find X -maxdepth N -type X": ["exempt:find:shallow-listing"],
	"<unparseable>": ["never:unparseable"],
	// Heredoc writes (one heredoc body holds text the parser rejects: never counted either way).
	"cat <<EOF >X": ["never:writes", "never:unparseable"],
	"cat <<EOF >X; python X": ["never:writes"],
	"cat <<EOF >X; python3 X": ["never:writes"],
	"sed -i X": ["never:writes"],
	"rm X": ["never:writes"],
	"git checkout X": ["never:writes"],
	"python X": ["never:not-exploration"],
	"python3 X": ["never:not-exploration"],
	"pytest X": ["never:not-exploration"],
	"runtests.py X": ["never:not-exploration"],
	"git diff": ["never:not-exploration"],
	"grep X": ["exempt:grep:narrow-scope", "never:not-exploration"],
	"grep -C N X": ["exempt:grep:narrow-scope", "never:not-exploration"],
	"grep -r X": ["broad:grep", "exempt:grep:narrow-scope", "exempt:grep:outside-cwd"],
	"head -n N X": ["exempt:read:small-read", "broad:read", "exempt:read:excluded-path"],
	"find X -name X": ["broad:find", "exempt:find:narrow-scope", "exempt:find:outside-cwd"],
};

interface ShapeRow {
	shape: string;
	count: number;
	decisions: Map<string, number>;
}

/** The most common command of the session's absolute `cd` targets, else {@link DEFAULT_CWD}. */
function sessionCwd(commands: readonly string[]): string {
	const targets = new Map<string, number>();
	for (const command of commands) {
		const match = /^\s*cd\s+(\/[^\s;&|]+)/.exec(command);
		if (match?.[1]) targets.set(match[1], (targets.get(match[1]) ?? 0) + 1);
	}
	let best = DEFAULT_CWD;
	let most = 0;
	for (const [target, count] of targets) {
		if (count > most) {
			best = target.replace(/\/+$/, "");
			most = count;
		}
	}
	return best;
}

interface ReplayCall {
	readonly tool: string;
	readonly command?: string;
	readonly path?: string;
}

interface ReplayOutcome {
	nudged: boolean;
	paused: boolean;
}

/** Replays one session through the reducer: every call isolated, the delegation tool active. */
function replaySession(
	calls: readonly ReplayCall[],
	decisions: ReadonlyMap<string, BashExplorationClassification>,
	cwd: string,
	config: ExplorationGuardConfig,
): ReplayOutcome {
	let state = createExplorationGuardState(config);
	let nudged = false;
	let paused = false;
	let position = 0;
	for (const call of calls) {
		position += 2;
		let category: ExplorationCategory | undefined;
		let source: ExplorationSource = "tool";
		if (call.tool === "bash") {
			if (config.bash === "off" || call.command === undefined) continue;
			const decision = decisions.get(call.command);
			if (decision?.kind !== "broad") continue;
			category = decision.category;
			source = "bash";
		} else {
			const input = call.tool === "grep" ? { pattern: "x", path: call.path } : { path: call.path };
			const classified = classifyBroadExplorationCall({ toolName: call.tool, input }, cwd, config.smallReadMaxLines);
			if (classified.kind !== "broad") continue;
			category = classified.category;
		}
		const next = reduceExplorationGuard(state, {
			type: "broad-call",
			category,
			batch: { size: 1, position },
			delegationToolActive: true,
			source,
			bashCounted: config.bash !== "off",
		});
		state = next.state;
		for (const effect of next.effects) {
			if (effect.type === "nudge") nudged = true;
			if (effect.type === "block") paused = true;
		}
	}
	return { nudged, paused };
}

function groupBySession<T extends { system: string; session: string; seq: number }>(rows: readonly T[]): T[][] {
	const sessions = new Map<string, T[]>();
	for (const row of rows) {
		const key = `${row.system}\u0000${row.session}`;
		const list = sessions.get(key);
		if (list) list.push(row);
		else sessions.set(key, [row]);
	}
	return [...sessions.values()].map((list) => list.sort((a, b) => a.seq - b.seq));
}

/**
 * A stock-tools session of `count` bash and read calls for the overhead ratio: narrow and exempt exploration, a
 * neutral command and one broad read per cycle (so the batch lookup and the reducer run too).
 */
function stockCalls(count: number): ScriptStep[] {
	const cycle: ScriptStep[] = [
		callTool("bash", { command: "rg -n export src" }),
		callTool("bash", { command: "nl -ba src/a.ts | sed -n '1,20p'" }),
		callTool("bash", { command: "grep -rn export . | head -20" }),
		callTool("read", { path: "src/a.ts", limit: 10 }),
		callTool("bash", { command: "ls -la src" }),
		callTool("bash", { command: "cat package.json" }),
		callTool("bash", { command: "git status 2>/dev/null || true" }),
		callTool("bash", { command: "cat src/a.ts" }),
	];
	return Array.from({ length: count }, (_, i) => cycle[i % cycle.length] as ScriptStep);
}

/** Milliseconds spent inside the guard's handlers, summed over every event (see {@link timedGuard}). */
const handlerTime = { ms: 0 };

/**
 * The guard as Pi loads it, with every handler it registers timed (the time inside the guard's own code, measured
 * on the real events of a real session).
 */
function timedGuard(pi: ExtensionAPI): void {
	const proxy = new Proxy(pi, {
		get(target, key) {
			if (key === "on") {
				return (event: string, handler: (...args: unknown[]) => unknown) =>
					(target.on as (e: string, h: (...args: unknown[]) => unknown) => unknown)(event, async (...args) => {
						const start = performance.now();
						try {
							return await handler(...args);
						} finally {
							handlerTime.ms += performance.now() - start;
						}
					});
			}
			const value = Reflect.get(target, key);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	explorationGuard(proxy);
}

async function timeStockSession(extensions: InlineExtension[], calls: number): Promise<number> {
	const harness = await createHarness({
		extensions,
		tools: ["read", "bash", "edit", "write"],
		files: { "src/a.ts": "export const a = 1;\n".repeat(40), "package.json": '{ "name": "x" }\n' },
		...(extensions.length > 0
			? { config: { "exploration-guard": { mode: "warn", warnAfter: 20, blockAfter: 50 } } }
			: {}),
	});
	try {
		harness.script(...stockCalls(calls), "done");
		const start = performance.now();
		await harness.prompt("Look around.");
		return performance.now() - start;
	} finally {
		await harness.dispose();
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Everything the replay measures, without the real-session timing (tests and the workload share it). */
export function replayExploration(
	bashRows: readonly AgentBashCommand[] = loadAgentBashCommands(),
	toolRows: readonly AgentToolCall[] = loadAgentToolCalls(),
	handChecked: Readonly<Record<string, readonly string[]>> = HAND_CHECKED_SHAPES,
) {
	const config = (over: Partial<ExplorationGuardConfig>): ExplorationGuardConfig => ({
		...EXPLORATION_GUARD_DEFAULTS,
		mode: "warn",
		...over,
	});
	const bashSessions = groupBySession(bashRows);
	const toolSessions = groupBySession(toolRows);
	const decisions = new Map<string, BashExplorationClassification>();
	const cwdOf = new Map<readonly unknown[], string>();
	const classifyAll = (commands: readonly string[], cwd: string) => {
		for (const command of commands) {
			if (decisions.has(command)) continue;
			decisions.set(
				command,
				classifyBashExplorationCommand(command, cwd, EXPLORATION_GUARD_DEFAULTS.smallReadMaxLines),
			);
		}
	};
	for (const session of bashSessions) {
		const commands = session.map((row) => row.command);
		const cwd = sessionCwd(commands);
		cwdOf.set(session, cwd);
		classifyAll(commands, cwd);
	}
	for (const session of toolSessions) {
		const commands = session.flatMap((row) => (row.tool === "bash" && row.command !== undefined ? [row.command] : []));
		const cwd = sessionCwd(commands);
		cwdOf.set(session, cwd);
		classifyAll(commands, cwd);
	}

	// Timing: every bash call of the corpus classified again, warm (the hook classifies each call once); the median
	// of three passes, so one garbage-collection pause on a shared machine does not decide the figure.
	const passes: number[] = [];
	for (let pass = 0; pass < 3; pass++) {
		const timedStart = performance.now();
		for (const row of bashRows) {
			classifyBashExplorationCommand(row.command, DEFAULT_CWD, EXPLORATION_GUARD_DEFAULTS.smallReadMaxLines);
		}
		passes.push(bashRows.length > 0 ? ((performance.now() - timedStart) * 1000) / bashRows.length : 0);
	}
	const microsPerCall = median(passes);

	let exploration = 0;
	let broad = 0;
	const shapes = new Map<string, ShapeRow>();
	for (const row of bashRows) {
		const decision = decisions.get(row.command) as BashExplorationClassification;
		if (decision.kind !== "never") exploration++;
		if (decision.kind === "broad") broad++;
		const shape = commandShape(row.command);
		const entry = shapes.get(shape) ?? { shape, count: 0, decisions: new Map<string, number>() };
		entry.count++;
		const label = decisionLabel(decision);
		entry.decisions.set(label, (entry.decisions.get(label) ?? 0) + 1);
		shapes.set(shape, entry);
	}

	const share = (
		sessions: readonly (readonly ReplayCall[])[],
		over: Partial<ExplorationGuardConfig>,
		key: keyof ReplayOutcome,
		all: readonly unknown[][],
	) => {
		let hit = 0;
		sessions.forEach((calls, i) => {
			if (replaySession(calls, decisions, cwdOf.get(all[i] as unknown[]) ?? DEFAULT_CWD, config(over))[key]) hit++;
		});
		return sessions.length > 0 ? hit / sessions.length : 0;
	};
	const bashCalls: ReplayCall[][] = bashSessions.map((s) => s.map((row) => ({ tool: "bash", command: row.command })));
	const toolCalls: ReplayCall[][] = toolSessions.map((s) =>
		s.map((row) => ({
			tool: row.tool,
			...(row.command === undefined ? {} : { command: row.command }),
			...(row.path === undefined ? {} : { path: row.path }),
		})),
	);
	const block = { mode: "block" as const, bashBlock: true };
	const top = [...shapes.values()].sort((a, b) => b.count - a.count || a.shape.localeCompare(b.shape)).slice(0, 50);
	const checked = top.map((row) => {
		const expected = Object.hasOwn(handChecked, row.shape) ? handChecked[row.shape] : undefined;
		const disagreements =
			expected === undefined ? undefined : [...row.decisions.keys()].filter((label) => !expected.includes(label));
		return { ...row, expected, disagreements };
	});
	return {
		bashCommands: bashRows.length,
		bashSessions: bashSessions.length,
		toolSessions: toolSessions.length,
		explorationShare: bashRows.length > 0 ? exploration / bashRows.length : 0,
		broadShare: bashRows.length > 0 ? broad / bashRows.length : 0,
		nudgedBash: share(bashCalls, { bash: "count" }, "nudged", bashSessions),
		nudgedBashOff: share(bashCalls, { bash: "off" }, "nudged", bashSessions),
		nudgedTools: share(toolCalls, { bash: "count" }, "nudged", toolSessions),
		nudgedToolsOff: share(toolCalls, { bash: "off" }, "nudged", toolSessions),
		pausedBashCount: share(bashCalls, { ...block, bash: "count" }, "paused", bashSessions),
		pausedBashOff: share(bashCalls, { ...block, bash: "off" }, "paused", bashSessions),
		pausedBashNoBashBlock: share(bashCalls, { mode: "block", bash: "count" }, "paused", bashSessions),
		pausedToolsCount: share(toolCalls, { ...block, bash: "count" }, "paused", toolSessions),
		pausedToolsOff: share(toolCalls, { ...block, bash: "off" }, "paused", toolSessions),
		pausedToolsNoBashBlock: share(toolCalls, { mode: "block", bash: "count" }, "paused", toolSessions),
		classifyMicrosPerCommand: microsPerCall,
		topShapes: checked,
	};
}

function describeDecisions(decisions: Map<string, number>): string {
	return [...decisions.entries()]
		.sort((a, b) => b[1] - a[1])
		.map(([label, count]) => `${label} ${count}`)
		.join(", ");
}

const workload: BenchWorkload = {
	id: "exploration-replay",
	title: "exploration-guard: replay of real agent exploration (bash and tool calls)",
	async run(): Promise<BenchResult> {
		const replay = replayExploration();
		const figures: BenchFigure[] = [
			{ name: "bash commands replayed", value: replay.bashCommands, unit: "count" },
			{ name: "bash-only sessions", value: replay.bashSessions, unit: "count" },
			{ name: "tool-call sessions (read/grep/find/bash mixed)", value: replay.toolSessions, unit: "count" },
			{
				name: "bash calls classified as exploration (counted or exempt)",
				value: replay.explorationShare,
				unit: "percent",
			},
			{ name: "bash calls classified as broad exploration (counted)", value: replay.broadShare, unit: "percent" },
			{ name: "bash sessions nudged, warn mode, bash count", value: replay.nudgedBash, unit: "percent" },
			{ name: "bash sessions nudged, warn mode, bash off", value: replay.nudgedBashOff, unit: "percent" },
			{ name: "tool-call sessions nudged, warn mode, bash count", value: replay.nudgedTools, unit: "percent" },
			{ name: "tool-call sessions nudged, warn mode, bash off", value: replay.nudgedToolsOff, unit: "percent" },
			{ name: "bash sessions paused, block + bashBlock, bash count", value: replay.pausedBashCount, unit: "percent" },
			{ name: "bash sessions paused, block + bashBlock, bash off", value: replay.pausedBashOff, unit: "percent" },
			{
				name: "bash sessions paused, block without bashBlock, bash count",
				value: replay.pausedBashNoBashBlock,
				unit: "percent",
			},
			{
				name: "tool-call sessions paused, block + bashBlock, bash count",
				value: replay.pausedToolsCount,
				unit: "percent",
			},
			{ name: "tool-call sessions paused, block + bashBlock, bash off", value: replay.pausedToolsOff, unit: "percent" },
			{
				name: "tool-call sessions paused, block without bashBlock, bash count",
				value: replay.pausedToolsNoBashBlock,
				unit: "percent",
			},
			{
				name: "classifier cost per bash call, warm (microseconds, parse included)",
				value: Math.round(replay.classifyMicrosPerCommand * 10) / 10,
				unit: "count",
			},
		];
		replay.topShapes.forEach((row, i) => {
			const verdict =
				row.expected === undefined
					? "not hand-checked"
					: row.disagreements?.length
						? `DISAGREES: ${row.disagreements.join(", ")}`
						: "agrees";
			figures.push({
				name: `shape ${i + 1}: \`${row.shape.replace(/\|/g, "\\|").replace(/`/g, "'")}\` → ${describeDecisions(row.decisions)} (hand-check: ${verdict})`,
				value: row.count,
				unit: "count",
			});
		});
		// Hook overhead on stock tools with bash counting: the same session without and with the guard, interleaved.
		const rounds = 5;
		const calls = 210;
		const bare: number[] = [];
		const guarded: number[] = [];
		await timeStockSession([], 20);
		await timeStockSession([explorationGuard], 20);
		for (let round = 0; round < rounds; round++) {
			// Alternate which side runs first, so drift on a shared machine does not favour one side.
			if (round % 2 === 0) {
				bare.push(await timeStockSession([], calls));
				guarded.push(await timeStockSession([explorationGuard], calls));
			} else {
				guarded.push(await timeStockSession([explorationGuard], calls));
				bare.push(await timeStockSession([], calls));
			}
		}
		const ratio = median(guarded) / median(bare);
		// The same session once more with every guard handler timed: the time inside the guard against the rest.
		handlerTime.ms = 0;
		const timedSession = await timeStockSession([timedGuard], calls);
		const inGuard = handlerTime.ms;
		const handlerRatio = timedSession / Math.max(1, timedSession - inGuard);
		figures.push(
			{
				name: `stock session of ${calls} calls without the guard (ms, median of ${rounds})`,
				value: Math.round(median(bare)),
				unit: "count",
			},
			{
				name: `same session with the guard (ms, median of ${rounds})`,
				value: Math.round(median(guarded)),
				unit: "count",
			},
			{
				name: `wall-clock ratio guard / none (noisy on a shared machine; median of ${rounds} alternating rounds)`,
				value: ratio,
				unit: "ratio",
			},
			{
				name: "time inside the guard's handlers in that session (ms)",
				value: Math.round(inGuard * 10) / 10,
				unit: "count",
			},
			{
				name: "hook overhead: session time / (session time - time in the guard's handlers)",
				value: handlerRatio,
				unit: "ratio",
			},
		);
		const agreeing = replay.topShapes.filter(
			(row) => row.expected !== undefined && row.disagreements?.length === 0,
		).length;
		return {
			id: "exploration-replay",
			title: workload.title,
			figures,
			checks: [
				{ name: "at least 5,000 real bash commands replayed", passed: replay.bashCommands >= 5000 },
				{
					name: "every one of the 50 most common shapes is hand-checked and agrees",
					passed: agreeing === replay.topShapes.length,
				},
				{ name: "bash off never pauses a bash-only session", passed: replay.pausedBashOff === 0 },
				{ name: "without bashBlock no bash-only session is paused", passed: replay.pausedBashNoBashBlock === 0 },
				{ name: "classifier under 100 microseconds per bash call", passed: replay.classifyMicrosPerCommand < 100 },
				{ name: "hook overhead on stock tools (time in the guard's handlers) <= 1.05x", passed: handlerRatio <= 1.05 },
			],
		};
	},
};

export default workload;
