// grep with an option after its operands where options may end at the first operand (macOS, POSIXLY_CORRECT): judged
// both as an option and as a file, instead of reviewed for the option's place. The "is allowed" tests were reviewed
// before; the "is reviewed" ones show the file reading is still judged.
import { describe, expect, it } from "vitest";
import { decideBashFloor } from "../src/guardian/index.js";
import {
	CWD,
	HOME,
	LINUX_CONTEXT,
	MACOS_CONTEXT,
	outcome,
	POSIXLY_CORRECT_CONTEXT,
	withCleanTrees,
	withLinks,
} from "./floor-outcome.js";

const linux = LINUX_CONTEXT;
const macos = MACOS_CONTEXT;
const posixlyCorrect = POSIXLY_CORRECT_CONTEXT;

describe.each([
	["macOS", macos],
	["POSIXLY_CORRECT", posixlyCorrect],
])("grep on %s", (_, context) => {
	// Forms from the replay corpus (tooling/bench/corpora/agent-bash-commands.jsonl).
	it.each([
		['grep -R "autodoc_typehints" -n sphinx'],
		["grep -rn foo src --include='*.py'"],
		['grep -rn "1=1" django/db/ --include="*.py" | head -20'],
		["grep -rn foo . --exclude-dir=node_modules"],
		['grep -n "def fit" -n sklearn/linear_model/least_angle.py'],
		["grep -n x notes.txt -A 3"],
		["cd src && grep -rn TODO . --include='*.ts' -i"],
	])("%s is allowed", (command) => {
		expect(withLinks(command, context)).toBe("allow:read-only");
	});

	it("a link the repository ships under the option's name is followed as a file", () => {
		const command = "grep -rn foo src --exclude-dir=node_modules";
		expect(withLinks(command, context, { [`${CWD}/--exclude-dir=node_modules`]: `${HOME}/.ssh` })).not.toMatch(
			/^allow/,
		);
		// On Linux without POSIXLY_CORRECT the word is an option, and the link is never read.
		expect(withLinks(command, linux, { [`${CWD}/--exclude-dir=node_modules`]: `${HOME}/.ssh` })).toBe(
			"allow:read-only",
		);
	});

	it("a folder under the option's name is searched as a tree the shell lists", () => {
		const command = "grep -rn foo src --exclude-dir=node_modules";
		const protectedTree = withCleanTrees(command, context, "protected");
		expect(outcome(decideBashFloor(command, "always", protectedTree))).not.toMatch(/^allow/);
	});

	it.each([
		["grep -n x notes.txt -A ../../etc/passwd"],
		["grep -r x src --include ~/.ssh/id_rsa"],
		["grep -r x src --exclude-dir ~/.aws"],
		["grep x notes.txt -m .env"],
	])("%s is reviewed: the option's value is a file there", (command) => {
		expect(withLinks(command, context)).not.toMatch(/^allow/);
		// An option's value on Linux: a pattern or a count, never read.
		expect(withLinks(command, linux)).toBe("allow:read-only");
	});

	it.each([["grep x notes.txt -f ~/.ssh/id_rsa"], ["grep -r x src -P"], ["grep x notes.txt -e y ../../outside"]])(
		"%s is still reviewed as GNU grep reads it",
		(command) => {
			expect(withLinks(command, context)).not.toMatch(/^allow/);
		},
	);
});

describe("commands other than grep keep the option-place review on macOS", () => {
	it.each([["cp a.txt b -f"], ["head notes.txt -n 3"], ["du -sh src --exclude '*.log'"]])("%s", (command) => {
		expect(withLinks(command, macos)).toBe("review:dynamic");
	});
});
