// The words of the programs git config keys name that look like paths (an eighty-fourth review: a project's
// `filter.strip.clean = scripts/strip.sh` runs at the user's next `git add`, so a write of that script is armed).
import { describe, expect, it } from "vitest";
import { judgeGitConfigFile } from "../src/guardian/index.js";

const words = (text: string) => judgeGitConfigFile(text).programPaths;

describe("gitProgramPathWords (through judgeGitConfigFile)", () => {
	it("names the script a filter, textconv, fsmonitor hook, alias or editor runs, also as an argument", () => {
		expect(words('[filter "strip"]\n\tclean = scripts/strip.sh\n\tsmudge = cat\n')).toEqual(["scripts/strip.sh"]);
		expect(words('[filter "nb"]\n\tclean = python tools/strip.py --keep-output\n')).toEqual(["tools/strip.py"]);
		expect(words('[diff "pdf"]\n\ttextconv = ./bin/pdf2txt\n')).toEqual(["./bin/pdf2txt"]);
		expect(words("[core]\n\tfsmonitor = .githooks/fsmonitor-watchman\n")).toEqual([".githooks/fsmonitor-watchman"]);
		expect(words('[alias]\n\tlint = "!sh scripts/lint.sh && echo ok"\n')).toEqual(["scripts/lint.sh"]);
		expect(words("[core]\n\teditor = ~/bin/ed --wait\n")).toEqual(["~/bin/ed"]);
		expect(words("[core]\n\tpager = less --rcfile=tools/less.cfg\n")).toEqual(["tools/less.cfg"]);
		expect(words("[core]\n\tsshCommand = 'tools/ssh wrapper' -i key\n")).toEqual(["tools/ssh"]);
	});

	it("names none for programs found on PATH, hooksPath, promisor remotes and keys that run nothing", () => {
		expect(words('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tprocess = git-lfs filter-process\n')).toEqual([]);
		expect(words("[core]\n\tpager = less -R\n\thooksPath = .husky/_\n\tautocrlf = input\n")).toEqual([]);
		expect(words('[remote "origin"]\n\turl = https://example.com/r.git\n\tpromisor = true\n')).toEqual([]);
		expect(words("[log]\n\tshowSignature = true\n[user]\n\temail = a/b@example.com\n")).toEqual([]);
	});

	it("names none for text that does not parse", () => {
		expect(words('[filter "x"\n\tclean = scripts/x.sh\n')).toEqual([]);
	});
});
