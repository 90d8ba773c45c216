// A seventieth review of the shell's git facts: config values read as git 2.39's parse_value reads them, and
// `core.hooksPath` judged apart from the other program keys (the reader judges the folder by its hooks).
import { describe, expect, it } from "vitest";
import { judgeGitConfigFile, parseGitConfig } from "../src/guardian/index.js";

function includePath(text: string): string | undefined {
	const parsed = parseGitConfig(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.value.find((entry) => entry.section === "include" && entry.key === "path")?.value;
}

describe("blanks in a value, as git reads them", () => {
	it.each([
		// Blanks count only once the value holds something: after `""` or a continuation they are dropped.
		['[include]\n\tpath = "" tools/git.cfg\n', "tools/git.cfg"],
		["[include]\n\tpath = \\\n\t tools/git.cfg\n", "tools/git.cfg"],
		['[include]\n\tpath = ""  ""x\n', "x"],
		// Blanks before a backslash are written out first, a continuation's included.
		["[include]\n\tpath = tools/git.cfg \\\n", "tools/git.cfg "],
		["[include]\n\tpath = a \\\n b\n", "a  b"],
		["[include]\n\tpath = a \\t\n", "a \t"],
		// Unchanged: each blank inside is one space, trailing ones and those before a comment are dropped.
		["[include]\n\tpath = a \t b  \n", "a   b"],
		["[include]\n\tpath = a  ; c\n", "a"],
		['[include]\n\tpath = a "" \n', "a "],
		['[include]\n\tpath = " a "\n', " a "],
	])("%j is %j", (text, value) => {
		expect(includePath(text)).toBe(value);
	});
});

describe("core.hooksPath apart from the other program keys", () => {
	it("a file setting only core.hooksPath is unsafe as a whole, safe apart from it", () => {
		const judged = judgeGitConfigFile("[core]\n\thooksPath = .husky/_\n");
		expect([judged.config, judged.configApartFromHooksPath, judged.hooksPaths]).toEqual([
			"unsafe",
			"safe",
			[".husky/_"],
		]);
	});
	it("any other program key keeps it unsafe", () => {
		const judged = judgeGitConfigFile("[core]\n\thooksPath = .husky/_\n\tfsmonitor = x\n");
		expect(judged.configApartFromHooksPath).toBe("unsafe");
	});
	it("text that does not parse is unknown both ways", () => {
		const judged = judgeGitConfigFile('[core]\n\thooksPath = "x\n');
		expect([judged.config, judged.configApartFromHooksPath]).toEqual(["unknown", "unknown"]);
	});
});
