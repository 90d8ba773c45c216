// The words of the programs git config keys name that look like paths (an eighty-fourth review: a project's
// `filter.strip.clean = scripts/strip.sh` runs at the user's next `git add`, so a write of that script is armed).
import { describe, expect, it } from "vitest";
import { commandWords, gitHeadSurelyRejected, judgeGitConfigFile } from "../src/guardian/index.js";

const words = (text: string) => judgeGitConfigFile(text).programPaths;

describe("gitProgramPathWords (through judgeGitConfigFile)", () => {
	it("names the script a filter, textconv, fsmonitor hook, alias or editor runs, also as an argument", () => {
		expect(words('[filter "strip"]\n\tclean = scripts/strip.sh\n\tsmudge = cat\n')).toEqual(["scripts/strip.sh"]);
		expect(words('[filter "nb"]\n\tclean = python tools/strip.py --keep-output\n')).toEqual(["tools/strip.py"]);
		expect(words('[diff "pdf"]\n\ttextconv = ./bin/pdf2txt\n')).toEqual(["./bin/pdf2txt"]);
		expect(words("[core]\n\tfsmonitor = .githooks/fsmonitor-watchman\n")).toEqual([".githooks/fsmonitor-watchman"]);
		expect(words("[core]\n\teditor = ~/bin/ed --wait\n")).toEqual(["~/bin/ed"]);
		expect(words("[core]\n\tpager = less --rcfile=tools/less.cfg\n")).toEqual(["tools/less.cfg"]);
		expect(words("[core]\n\tsshCommand = 'tools/ssh wrapper' -i key\n")).toEqual(["tools/ssh wrapper"]);
		expect(words('[filter "s"]\n\tclean = "\'scripts/strip notebook.sh\'"\n')).toEqual(["scripts/strip notebook.sh"]);
	});

	it("names none for programs found on PATH, hooksPath, promisor remotes and keys that run nothing", () => {
		expect(words('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tprocess = git-lfs filter-process\n')).toEqual([]);
		expect(words("[core]\n\tpager = less -R\n\thooksPath = .husky/_\n\tautocrlf = input\n")).toEqual([]);
		expect(words('[remote "origin"]\n\turl = https://example.com/r.git\n\tpromisor = true\n')).toEqual([]);
		expect(words("[log]\n\tshowSignature = true\n[user]\n\temail = a/b@example.com\n")).toEqual([]);
	});

	it("takes a path after an expansion from the top, as the usual idiom names a repository's script", () => {
		expect(words('[filter "s"]\n\tclean = $(git rev-parse --show-toplevel)/scripts/strip.sh\n')).toEqual([
			"scripts/strip.sh",
		]);
		expect(words('[filter "s"]\n\tclean = `git rev-parse --show-toplevel`/scripts/strip.sh %f\n')).toEqual([
			"scripts/strip.sh",
		]);
		expect(words('[filter "s"]\n\tclean = "$(git rev-parse --show-toplevel)/tools/x" --in=a/b\n')).toEqual([
			"tools/x",
			"a/b",
		]);
	});

	it("names the template folder init.templateDir names (new repositories copy its hooks)", () => {
		expect(words("[init]\n\ttemplateDir = ~/dotfiles/git_template\n")).toEqual(["~/dotfiles/git_template"]);
	});

	it("leaves out aliases (run only when the user names them) and folder arguments", () => {
		expect(
			words('[alias]\n\tlint = "!sh scripts/lint.sh && echo ok"\n\tslug = "!git branch --show-current | tr / -"\n'),
		).toEqual([]);
		expect(words('[filter "fmt"]\n\tclean = prettier --write src/ ../\n')).toEqual([]);
	});

	it("names none for text that does not parse", () => {
		expect(words('[filter "x"\n\tclean = scripts/x.sh\n')).toEqual([]);
	});
});

describe("commandWords", () => {
	it("splits as sh does before expansion: quotes join, escapes keep, operators end words", () => {
		expect(commandWords(`a 'b c' "d e"f g\\ h;i|j&&k(l)m<n>o`)).toEqual([
			"a",
			"b c",
			"d ef",
			"g h",
			"i",
			"j",
			"k",
			"l",
			"m",
			"n",
			"o",
		]);
		const braced = ["$", "{E:-.}/w"].join("");
		expect(commandWords(`x $(a (b) c)/y \`d\`/z ${braced} $F/v`)).toEqual(["x", "y", "z", "w", "v"]);
		expect(commandWords("")).toEqual([]);
	});

	it("takes unclosed quotes and expansions to the end of the text", () => {
		expect(commandWords("a 'b c")).toEqual(["a", "b c"]);
		expect(commandWords("a $(b c")).toEqual(["a"]);
		expect(commandWords("a `b")).toEqual(["a"]);
	});
});

describe("program keys an eighty-fifth review added", () => {
	it("counts tar.<format>.command, sendemail's commands, imap.tunnel and git-lfs's agents as running a program", () => {
		for (const text of [
			'[tar "tgz"]\n\tcommand = scripts/gz.sh\n',
			"[sendemail]\n\tsendmailCmd = tools/send\n",
			"[imap]\n\ttunnel = tools/tunnel\n",
			'[lfs "customtransfer.x"]\n\tpath = tools/agent\n',
			'[lfs "extension.y"]\n\tclean = tools/clean %f\n',
		])
			expect([text, judgeGitConfigFile(text).config, words(text).length]).toEqual([text, "unsafe", 1]);
	});
});

describe("gitHeadSurelyRejected", () => {
	it("is true only for a HEAD git's validate_headref surely rejects", () => {
		expect(gitHeadSurelyRejected({ text: "" })).toBe(true);
		expect(gitHeadSurelyRejected({ text: "not a head\n" })).toBe(true);
		expect(gitHeadSurelyRejected({ link: "../elsewhere" })).toBe(true);
		expect(gitHeadSurelyRejected({ text: "ref: refs/heads/main\n" })).toBe(false);
		expect(gitHeadSurelyRejected({ text: "ref:\tnot-refs\n" })).toBe(false);
		expect(gitHeadSurelyRejected({ text: `${"a".repeat(40)}\n` })).toBe(false);
		expect(gitHeadSurelyRejected({ link: "refs/heads/main" })).toBe(false);
	});
});
