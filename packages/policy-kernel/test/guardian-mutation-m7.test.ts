// A mutation audit (m7) of the kernel code changed for the seventieth and seventy-first reviews: looksLikeLocalPath's
// trimming and judgeSearch's reading of grep's words after the first operand where options may end there. Each test
// kills a mutant that survived the kernel's tests and changed a decision.
import { describe, expect, it } from "vitest";
import {
	decideBashFloor,
	type FloorContext,
	floorFactRequestsOf,
	looksLikeLocalPath,
	searchTreeKey,
} from "../src/guardian/index.js";
import {
	bashOutcome,
	CWD,
	HOME,
	LINUX_CONTEXT,
	MACOS_CONTEXT,
	outcome,
	POSIXLY_CORRECT_CONTEXT,
	plannedOutcome,
	READ_ONLY_TOOL,
	withLinks,
} from "./floor-outcome.js";

const _linux = LINUX_CONTEXT;
const macos = MACOS_CONTEXT;
const posixlyCorrect = POSIXLY_CORRECT_CONTEXT;

/** The floor's decision where the shell found secrets below every searched tree rooted at `dirty`, none elsewhere. */
function withSecretsBelow(command: string, context: FloorContext, dirty: string): string {
	const trees = floorFactRequestsOf(command, context).searchTrees;
	const searchTrees = new Map(
		trees.map((tree) => [searchTreeKey(tree), tree.root === dirty ? ("protected" as const) : ("none" as const)]),
	);
	return outcome(decideBashFloor(command, "always", { ...context, searchTrees }));
}

describe("looksLikeLocalPath: blanks at the ends are trimmed before every shape test (m7)", () => {
	it("a dot name with a blank before it (` .env`) is a path", () => {
		expect(looksLikeLocalPath(" .env")).toBe(true);
		expect(plannedOutcome("mcp__fs__read_text", { source: " .env" }, READ_ONLY_TOOL)).toBe("review");
	});
	it("a URL with a blank before it is no local path", () => {
		expect(looksLikeLocalPath(" https://host/repo/.env")).toBe(false);
		expect(plannedOutcome("mcp__git__info", { remote: " https://host/repo/.env" }, READ_ONLY_TOOL)).toBe("allow");
	});
	it("a line break inside the trimmed text makes it text, a leading slash or not", () => {
		expect(looksLikeLocalPath("/fix the login bug\nsee the report")).toBe(false);
		expect(looksLikeLocalPath("/etc/x\ny")).toBe(false);
		expect(plannedOutcome("mcp__notes__add", { text: "/etc/x\ny" }, READ_ONLY_TOOL)).toBe("allow");
	});
});

describe.each([
	["macOS", macos],
	["POSIXLY_CORRECT", posixlyCorrect],
])("grep's words after the first operand on %s (m7)", (_, context) => {
	it("a folder `--line-number` the repository ships is searched as a tree: secrets below it are reviewed", () => {
		expect(withSecretsBelow("grep -rn TODO src --line-number", context, `${CWD}/--line-number`)).not.toMatch(/^allow/);
	});
	it("an option right after the pattern is a file too: `grep TODO --line-number notes.txt` follows a link `--line-number`", () => {
		expect(
			withLinks("grep TODO --line-number notes.txt", context, { [`${CWD}/--line-number`]: `${HOME}/.ssh/id_rsa` }),
		).not.toMatch(/^allow/);
	});
	it("with `-e`, the first file is the first operand: `grep -e TODO notes.txt --line-number` follows a link `--line-number`", () => {
		expect(
			withLinks("grep -e TODO notes.txt --line-number", context, { [`${CWD}/--line-number`]: `${HOME}/.ssh/id_rsa` }),
		).not.toMatch(/^allow/);
	});
	it("the pattern is never a file: `grep -rn .env src` (looking for where `.env` is named) is allowed", () => {
		expect(bashOutcome("grep -rn .env src", context)).toMatch(/^allow/);
	});
	it("an option's value after the operand naming `..` is a search root above the workspace, where reads outside are not reviewed", () => {
		expect(bashOutcome("grep -r TODO src -m ..", { ...context, readScope: "protected-only" })).not.toMatch(/^allow/);
	});
});

describe("ripgrep permutes its options wherever it runs (m7)", () => {
	it.each([
		["rg -n TODO src --hidden", "--hidden"],
		["rg TODO src -n", "-n"],
	])("%s is allowed on macOS though a file %s could exist", (command, word) => {
		expect(withLinks(command, macos, { [`${CWD}/${word}`]: `${HOME}/.ssh` })).toMatch(/^allow/);
	});
});
