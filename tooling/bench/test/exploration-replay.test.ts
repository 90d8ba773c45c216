// The exploration replay workload on a tiny fixture in the corpus format: its shares, shapes and hand-check.
import { describe, expect, it } from "vitest";
import type { AgentBashCommand, AgentToolCall } from "../src/corpora.ts";
import { commandShape, HAND_CHECKED_SHAPES, replayExploration } from "../src/workloads/exploration-replay.ts";

function session(system: string, name: string, commands: string[]): AgentBashCommand[] {
	return commands.map((command, seq) => ({ system, session: name, seq, command }));
}

const BASH: AgentBashCommand[] = [
	// Explores broadly through bash: nudged in warn mode, paused with bashBlock in block mode.
	...session("a", "s1", [
		"grep -rn foo .",
		"find . -name '*.py'",
		"ls -R",
		"cat big.py",
		"grep -rn bar .",
		"python x.py",
	]),
	// Narrow and non-exploring only: never nudged.
	...session("a", "s2", ["rg -n foo src/", "cat package.json", "npm test", "ls && npm test", "sed -n '1,50p' a.py"]),
];
const TOOLS: AgentToolCall[] = [
	{
		system: "b",
		session: "t1",
		seq: 0,
		tool: "read",
		path: "/testbed/a.py",
		outputBytes: 10,
		outputLines: 1,
		isError: false,
	},
	{
		system: "b",
		session: "t1",
		seq: 1,
		tool: "bash",
		command: "grep -rn foo .",
		outputBytes: 10,
		outputLines: 1,
		isError: false,
	},
	{
		system: "b",
		session: "t1",
		seq: 2,
		tool: "read",
		path: "/testbed/b.py",
		outputBytes: 10,
		outputLines: 1,
		isError: false,
	},
];

describe("replayExploration", () => {
	const replay = replayExploration(BASH, TOOLS);

	it("reports the share of bash calls that explore, and the shares of sessions nudged and paused", () => {
		expect(replay.bashCommands).toBe(11);
		// Exploration: 5 in s1, and rg, cat package.json, sed in s2 (8 of 11); broad: 5 of 11.
		expect(replay.explorationShare).toBeCloseTo(8 / 11);
		expect(replay.broadShare).toBeCloseTo(5 / 11);
		expect(replay.nudgedBash).toBe(0.5);
		expect(replay.nudgedBashOff).toBe(0);
		expect(replay.pausedBashCount).toBe(0.5);
		expect(replay.pausedBashOff).toBe(0);
		expect(replay.pausedBashNoBashBlock).toBe(0);
		// The tool-call session: two broad reads and one broad bash grep.
		expect(replay.nudgedTools).toBe(1);
		expect(replay.nudgedToolsOff).toBe(1);
	});

	it("normalizes commands to shapes and checks them against the hand-written expectations", () => {
		expect(commandShape("grep -rn foo src | head -20")).toBe("grep -rn X | head -N");
		expect(commandShape("cd /a/b && python -m pytest tests/x.py -q 2>&1 | tail -5")).toBe(
			"cd X && python -m X -q 2>&1 | tail -N",
		);
		expect(commandShape("cat 'open")).toBe("<unparseable>");
		const cat = replay.topShapes.find((row) => row.shape === "cat X");
		expect(cat?.expected).toEqual(HAND_CHECKED_SHAPES["cat X"]);
		expect(cat?.disagreements).toEqual([]);
		const unchecked = replay.topShapes.find((row) => row.shape === "grep -rn X .");
		expect(unchecked?.expected).toBeUndefined();
	});

	it("shows a disagreement when the classifier leaves the hand-checked set", () => {
		const rows = session("a", "s3", ["ls -R", "mkdir -p out"]);
		const agreed = replayExploration(rows, [], { "ls -R": ["broad:ls"], "mkdir -p X": ["never:writes"] });
		expect(agreed.topShapes.map((row) => row.disagreements)).toEqual([[], []]);
		const wrong = replayExploration(rows, [], { "ls -R": ["never:writes"], "mkdir -p X": ["never:writes"] });
		expect(wrong.topShapes.find((row) => row.shape === "ls -R")?.disagreements).toEqual(["broad:ls"]);
	});
});
