// The broad-exploration classifier, table-driven, plus properties: total, and never counts other tools.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	type BroadExplorationClassification,
	classifyBashExplorationCommand,
	classifyBroadExplorationCall,
	classifyDelegationCall,
	EXPLORATION_NOTICES,
} from "../src/exploration/index.js";
import { jsonValue } from "./arbitraries.js";

const CWD = "/home/dev/project";
const MAX = 400;

type Expected = "ignored" | "broad" | `exempt:${string}`;

function summary(result: BroadExplorationClassification): Expected {
	if (result.kind === "ignored") return "ignored";
	if (result.kind === "broad") return "broad";
	return `exempt:${result.exemption}`;
}

const cases: Array<[string, string, unknown, Expected]> = [
	// Other tools: never considered.
	["bash", "bash", { command: "grep -r foo ." }, "ignored"],
	["write", "write", { path: "src/a.ts", content: "x" }, "ignored"],
	["edit", "edit", { path: "src/a.ts", edits: [] }, "ignored"],
	["subagent", "subagent", { agent: "scout", task: "survey" }, "ignored"],
	["a custom tool", "my_search", { path: "." }, "ignored"],
	["powershell", "powershell", { command: "dir" }, "ignored"],
	["an upper-case READ (tool names are exact)", "READ", { path: "src/a.ts" }, "ignored"],
	// read: small targeted reads.
	["read with a small limit", "read", { path: "src/a.ts", limit: 60 }, "exempt:small-read"],
	["read with limit exactly the maximum", "read", { path: "src/a.ts", limit: 400 }, "exempt:small-read"],
	["read with limit one over the maximum", "read", { path: "src/a.ts", limit: 401 }, "broad"],
	["read with limit 1", "read", { path: "src/a.ts", limit: 1 }, "exempt:small-read"],
	["read with offset and small limit", "read", { path: "src/a.ts", offset: 900, limit: 50 }, "exempt:small-read"],
	["read with limit 0", "read", { path: "src/a.ts", limit: 0 }, "broad"],
	["read with a negative limit", "read", { path: "src/a.ts", limit: -5 }, "broad"],
	["read without limit", "read", { path: "src/a.ts" }, "broad"],
	["read with offset only", "read", { path: "src/a.ts", offset: 100 }, "broad"],
	["read with a string limit", "read", { path: "src/a.ts", limit: "50" }, "broad"],
	["read of an absolute path inside the cwd", "read", { path: `${CWD}/src/a.ts` }, "broad"],
	["read of a path outside the cwd", "read", { path: "/etc/hosts" }, "broad"],
	["read with an empty path and a small limit", "read", { path: "", limit: 10 }, "exempt:invalid-input"],
	["read with a blank path", "read", { path: "   " }, "exempt:invalid-input"],
	["read without a path", "read", {}, "exempt:invalid-input"],
	["read with non-object input", "read", "src/a.ts", "exempt:invalid-input"],
	// read: excluded paths.
	["read of AGENTS.md", "read", { path: "AGENTS.md" }, "exempt:excluded-path"],
	["read of a nested CLAUDE.md", "read", { path: "packages/x/CLAUDE.md" }, "exempt:excluded-path"],
	[
		"read of a SKILL.md outside the cwd",
		"read",
		{ path: "/home/dev/.pi/agent/skills/x/SKILL.md" },
		"exempt:excluded-path",
	],
	["read of agents.md in lower case", "read", { path: "agents.md" }, "exempt:excluded-path"],
	["read of package.json", "read", { path: "package.json" }, "exempt:excluded-path"],
	["read of pnpm-lock.yaml", "read", { path: "./pnpm-lock.yaml" }, "exempt:excluded-path"],
	["read of Cargo.lock", "read", { path: "crates/core/Cargo.lock" }, "exempt:excluded-path"],
	["read of go.mod", "read", { path: "go.mod" }, "exempt:excluded-path"],
	["read under docs/", "read", { path: "docs/guide.md" }, "exempt:excluded-path"],
	["read under a nested docs/", "read", { path: "packages/x/docs/api.md" }, "exempt:excluded-path"],
	["read under .pi/", "read", { path: ".pi/settings.json" }, "exempt:excluded-path"],
	["read under .pi-subagents/", "read", { path: ".pi-subagents/runs/r1/out.md" }, "exempt:excluded-path"],
	["read under node_modules/", "read", { path: "node_modules/x/index.js" }, "exempt:excluded-path"],
	["read under dist/", "read", { path: "packages/x/dist/index.js" }, "exempt:excluded-path"],
	["read with an @ prefix under docs/", "read", { path: "@docs/a.md" }, "exempt:excluded-path"],
	["read of an absolute path under the cwd's docs/", "read", { path: `${CWD}/docs/a.md` }, "exempt:excluded-path"],
	["read of a file named docs (not a directory)", "read", { path: "src/docs" }, "broad"],
	["read of a file whose name only contains dist", "read", { path: "src/distance.ts" }, "broad"],
	["read where only the cwd itself is under dist/", "read", { path: "src/a.ts" }, "broad"],
	// grep.
	["grep with no path", "grep", { pattern: "TODO" }, "broad"],
	["grep on '.'", "grep", { pattern: "TODO", path: "." }, "broad"],
	["grep on './'", "grep", { pattern: "TODO", path: "./" }, "broad"],
	["grep on an empty path", "grep", { pattern: "TODO", path: "" }, "broad"],
	["grep on the cwd itself", "grep", { pattern: "TODO", path: CWD }, "broad"],
	["grep on the cwd with a trailing slash", "grep", { pattern: "TODO", path: `${CWD}/` }, "broad"],
	["grep on the parent directory", "grep", { pattern: "TODO", path: ".." }, "broad"],
	["grep on the file-system root", "grep", { pattern: "TODO", path: "/" }, "broad"],
	["grep on a subdirectory", "grep", { pattern: "TODO", path: "src/core" }, "exempt:narrow-scope"],
	["grep on a file", "grep", { pattern: "TODO", path: "src/a.ts" }, "exempt:narrow-scope"],
	["grep on a subdirectory via ./", "grep", { pattern: "TODO", path: "./src" }, "exempt:narrow-scope"],
	["grep on src/.. (the cwd again)", "grep", { pattern: "TODO", path: "src/.." }, "broad"],
	["grep on an absolute subdirectory", "grep", { pattern: "TODO", path: `${CWD}/src` }, "exempt:narrow-scope"],
	["grep on a sibling project", "grep", { pattern: "TODO", path: "../other" }, "exempt:outside-cwd"],
	["grep on an unrelated absolute path", "grep", { pattern: "TODO", path: "/usr/lib" }, "exempt:outside-cwd"],
	[
		"grep on a prefix-sharing sibling",
		"grep",
		{ pattern: "TODO", path: "/home/dev/project-two" },
		"exempt:outside-cwd",
	],
	["grep on the home directory (~)", "grep", { pattern: "TODO", path: "~/notes" }, "exempt:outside-cwd"],
	["grep with a glob at the root", "grep", { pattern: "TODO", glob: "*.ts" }, "broad"],
	["grep with the default limit", "grep", { pattern: "TODO", limit: 100 }, "broad"],
	["grep with a larger limit", "grep", { pattern: "TODO", limit: 500 }, "broad"],
	["grep with a smaller limit", "grep", { pattern: "TODO", limit: 20 }, "exempt:narrow-limit"],
	["grep with limit 99", "grep", { pattern: "TODO", limit: 99 }, "exempt:narrow-limit"],
	["grep with a non-string path", "grep", { pattern: "TODO", path: 7 }, "exempt:invalid-input"],
	["grep with a string limit", "grep", { pattern: "TODO", limit: "5" }, "exempt:invalid-input"],
	// find.
	["find with no path", "find", { pattern: "*.ts" }, "broad"],
	["find on '.' with a deep glob", "find", { pattern: "src/**/*.ts", path: "." }, "broad"],
	["find on a subdirectory", "find", { pattern: "*.ts", path: "src" }, "exempt:narrow-scope"],
	["find with limit 999", "find", { pattern: "*.ts", limit: 999 }, "exempt:narrow-limit"],
	["find with limit 1000", "find", { pattern: "*.ts", limit: 1000 }, "broad"],
	// ls.
	["ls with no input keys", "ls", {}, "broad"],
	["ls on '.'", "ls", { path: "." }, "broad"],
	["ls on a subdirectory", "ls", { path: "src/core" }, "exempt:narrow-scope"],
	["ls on docs/", "ls", { path: "docs" }, "exempt:narrow-scope"],
	["ls with limit 50", "ls", { path: ".", limit: 50 }, "exempt:narrow-limit"],
	["ls with limit 500", "ls", { limit: 500 }, "broad"],
	["ls with non-object input", "ls", null, "exempt:invalid-input"],
];

describe("classifyBroadExplorationCall", () => {
	it("has at least 40 table cases", () => {
		expect(cases.length).toBeGreaterThanOrEqual(40);
	});

	it.each(cases)("%s", (_name, toolName, input, expected) => {
		expect(summary(classifyBroadExplorationCall({ toolName, input }, CWD, MAX))).toBe(expected);
	});

	it("uses smallReadMaxLines from the config", () => {
		const call = { toolName: "read", input: { path: "src/a.ts", limit: 50 } };
		expect(summary(classifyBroadExplorationCall(call, CWD, 50))).toBe("exempt:small-read");
		expect(summary(classifyBroadExplorationCall(call, CWD, 49))).toBe("broad");
	});

	it("carries the category of considered calls", () => {
		for (const toolName of ["read", "grep", "find", "ls"]) {
			const result = classifyBroadExplorationCall({ toolName, input: { path: "." } }, CWD, MAX);
			expect(result.kind === "ignored" ? undefined : result.category).toBe(toolName);
		}
	});

	it("handles Windows-style paths", () => {
		const cwd = "C:\\work\\project";
		expect(
			summary(
				classifyBroadExplorationCall(
					{ toolName: "grep", input: { pattern: "x", path: "C:\\work\\project" } },
					cwd,
					MAX,
				),
			),
		).toBe("broad");
		expect(
			summary(classifyBroadExplorationCall({ toolName: "grep", input: { pattern: "x", path: "src\\core" } }, cwd, MAX)),
		).toBe("exempt:narrow-scope");
		expect(summary(classifyBroadExplorationCall({ toolName: "ls", input: { path: "c:/work" } }, cwd, MAX))).toBe(
			"broad",
		);
	});

	it("copes with a missing cwd", () => {
		expect(summary(classifyBroadExplorationCall({ toolName: "grep", input: { pattern: "x" } }, "", MAX))).toBe("broad");
		expect(
			summary(classifyBroadExplorationCall({ toolName: "grep", input: { pattern: "x", path: "src" } }, "", MAX)),
		).toBe("exempt:narrow-scope");
		expect(
			summary(classifyBroadExplorationCall({ toolName: "grep", input: { pattern: "x", path: ".." } }, "", MAX)),
		).toBe("broad");
	});

	it("is total for any call, cwd and maximum", () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.constantFrom("read", "grep", "find", "ls", "bash", "subagent"), fc.string()),
				jsonValue,
				fc.oneof(fc.string(), fc.constant(CWD)),
				fc.oneof(fc.integer(), fc.double()),
				(toolName, input, cwd, max) => {
					const result = classifyBroadExplorationCall({ toolName, input }, cwd, max);
					expect(["ignored", "exempt", "broad"]).toContain(result.kind);
					if (!["read", "grep", "find", "ls"].includes(toolName)) expect(result.kind).toBe("ignored");
				},
			),
			{ numRuns: 500 },
		);
	});

	it("never counts a path strictly inside the cwd for grep, find or ls", () => {
		const segment = fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/);
		fc.assert(
			fc.property(
				fc.constantFrom("grep", "find", "ls"),
				fc.array(segment, { minLength: 1, maxLength: 4 }),
				(tool, parts) => {
					const result = classifyBroadExplorationCall(
						{ toolName: tool, input: { pattern: "x", path: parts.join("/") } },
						CWD,
						MAX,
					);
					expect(summary(result)).toBe("exempt:narrow-scope");
				},
			),
			{ numRuns: 300 },
		);
	});

	it("survives hostile input objects", () => {
		const hostile = new Proxy(
			{},
			{
				get() {
					throw new Error("boom");
				},
				getOwnPropertyDescriptor() {
					throw new Error("boom");
				},
			},
		);
		expect(summary(classifyBroadExplorationCall({ toolName: "grep", input: hostile }, CWD, MAX))).toMatch(
			/^exempt:invalid-input$/,
		);
		expect(classifyBroadExplorationCall(null as never, CWD, MAX)).toEqual({ kind: "ignored" });
	});
});

describe("classifyDelegationCall", () => {
	it.each([
		[{ agent: "scout", task: "survey the repo" }, "launch"],
		[{ agent: "scout", task: "x", async: false }, "launch"],
		[{ workflow: "review" }, "launch"],
		[{ workflowScript: "return 1" }, "launch"],
		[{ workflowScriptPath: "scripts/flow.js" }, "launch"],
		[{ action: "resume", id: "r1", message: "go on" }, "launch"],
		[{ action: "steer", id: "r1", message: "focus" }, "launch"],
		[{ action: "schedule.create", agent: "scout", at: "+10m" }, "launch"],
		[{ action: "schedule.run", id: "s1" }, "launch"],
		[{ action: "schedule.run-due" }, "launch"],
		[{ action: "list" }, "management"],
		[{ action: "status", id: "r1" }, "management"],
		[{ action: "get", agent: "scout" }, "management"],
		[{ action: "doctor" }, "management"],
		[{ action: "stop", id: "r1" }, "management"],
		[{ action: "", agent: "scout" }, "management"],
		[{ agent: "" }, "management"],
		[{ task: "no agent" }, "management"],
		[{}, "management"],
		[null, "management"],
		["agent", "management"],
	])("%j → %s", (input, expected) => {
		expect(classifyDelegationCall(input)).toBe(expected);
	});
});

describe("head with a negative count (every line but the last few)", () => {
	it.each([
		"head -n -1 src/big.ts",
		"head --lines=-5 src/big.ts",
		"head -c -10 src/big.ts",
		"cat src/big.ts | head -n -1",
	])("%s is a broad read like cat, not a small window (a twenty-sixth review)", (command) => {
		expect(classifyBashExplorationCommand("cat src/big.ts", "/w", 400).kind).toBe("broad");
		expect(classifyBashExplorationCommand(command, "/w", 400).kind).toBe("broad");
	});

	it.each(["head -n 20 src/big.ts", "tail -n -20 src/big.ts", "tail -n 20 src/big.ts"])(
		"%s stays a small read",
		(command) => {
			expect(classifyBashExplorationCommand(command, "/w", 400).kind).toBe("exempt");
		},
	);
});

describe("the user's notice when the agent is nudged", () => {
	it("does not claim a delegation that stock Pi cannot make (a twenty-seventh review)", () => {
		expect(EXPLORATION_NOTICES.warned).toBe(
			"Exploration guard: repeated broad exploration; the agent was nudged to narrow it or delegate it.",
		);
	});
});
