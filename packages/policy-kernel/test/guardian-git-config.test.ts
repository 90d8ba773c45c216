// The pure git-config scanner: parsing, includes to follow, and the keys that make git run a program.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	combineGitConfigVerdicts,
	combineGitUrlCredentialsVerdicts,
	gitConfigIncludes,
	gitProgramKeys,
	judgeGitConfigText,
	judgeGitConfigUrlCredentials,
	MAX_GIT_CONFIG_CHARS,
	parseGitConfig,
} from "../src/guardian/index.js";

const CLEAN = `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	logallrefupdates = true
[remote "origin"]
	url = https://github.com/example/repo.git
	fetch = +refs/heads/*:refs/remotes/origin/*
[branch "main"]
	remote = origin
	merge = refs/heads/main
[alias]
	st = status
`;

describe("parseGitConfig", () => {
	it("reads sections, subsections, bare keys, quotes, escapes, comments and continuations", () => {
		const parsed = parseGitConfig(
			'# comment\n[Core]\n\tPager = "less -R" ; trailing\n\tbare\n[diff "py"]\n\ttextconv = "a\\"b" \\\n c\n[old.Sub]\nkey = v\n',
		);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.value).toEqual([
			{ section: "core", subsection: undefined, key: "pager", value: "less -R" },
			{ section: "core", subsection: undefined, key: "bare", value: undefined },
			{ section: "diff", subsection: "py", key: "textconv", value: 'a"b  c' },
			{ section: "old", subsection: "Sub", key: "key", value: "v" },
		]);
	});

	it("reads an unquoted tab or lone carriage return inside a value as one space, as git 2.39 does", () => {
		// A fifteenth review: `[include] path = e<TAB>x` is the file `e x` to git; the reader looked for `e\tx`.
		const parsed = parseGitConfig('[include]\n\tpath = e\tx\n\tpath = \re\ry\n\tpath = "a\tb"\n');
		expect(parsed.ok && parsed.value.map((entry) => entry.value)).toEqual(["e x", "e y", "a\tb"]);
	});

	it.each([["[core\nx = 1"], ['[core]\nx = "unterminated\n'], ["x = 1"], ["[core]\n= 1"], ['[diff "a]\n']])(
		"rejects %j without quoting it",
		(text) => {
			const parsed = parseGitConfig(text);
			expect(parsed.ok).toBe(false);
			if (!parsed.ok) expect(parsed.error).not.toContain(text);
		},
	);

	it("refuses text over the cap and never throws", () => {
		expect(parseGitConfig("#".repeat(MAX_GIT_CONFIG_CHARS + 1)).ok).toBe(false);
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), (text) => {
				expect(typeof parseGitConfig(text).ok).toBe("boolean");
			}),
			{ numRuns: 500 },
		);
	});
});

describe("gitConfigIncludes", () => {
	it("lists include.path and every includeIf path with its condition", () => {
		const parsed = parseGitConfig(
			'[include]\n\tpath = extra.inc\n[includeIf "gitdir:~/work/"]\n\tpath = ~/work.inc\n[includeIf "onbranch:main"]\n\tpath = /etc/x\n[core]\n\tpath = not-an-include\n',
		);
		if (!parsed.ok) throw new Error(parsed.error);
		expect(gitConfigIncludes(parsed.value)).toEqual([
			{ path: "extra.inc", condition: undefined },
			{ path: "~/work.inc", condition: "gitdir:~/work/" },
			{ path: "/etc/x", condition: "onbranch:main" },
		]);
	});
});

describe("gitProgramKeys and judgeGitConfigText", () => {
	it("finds nothing in a clean clone's config (plain aliases cannot shadow git's own commands)", () => {
		expect(judgeGitConfigText(CLEAN)).toBe("safe");
	});

	it.each<[string, string]>([
		["[core]\n\tfsmonitor = ./hook.sh", "fsmonitor"],
		["[core]\n\tfsmonitor = true", "fsmonitor"],
		["[core]\n\tpager = evil", "pager"],
		["[pager]\n\tlog = evil --flag", "pager"],
		["[core]\n\teditor = vim", "editor"],
		["[diff]\n\texternal = ./d.sh", "external-diff"],
		['[diff "x"]\n\ttextconv = ./t.sh', "textconv"],
		['[diff "x"]\n\tcommand = ./c.sh', "diff-driver"],
		['[filter "lfs"]\n\tsmudge = git-lfs smudge', "filter-driver"],
		['[filter "x"]\n\tprocess = ./p', "filter-driver"],
		['[merge "x"]\n\tdriver = ./m', "merge-driver"],
		["[alias]\n\tx = !sh -c id", "shell-alias"],
		["[core]\n\tsshCommand = ssh -i k", "ssh-command"],
		["[credential]\n\thelper = store", "credential-helper"],
		['[credential "https://x"]\n\thelper = ./h', "credential-helper"],
		["[gpg]\n\tprogram = ./g", "gpg-program"],
		['[gpg "ssh"]\n\tprogram = ./g', "gpg-program"],
		["[core]\n\thooksPath = ./hooks", "hooks-path"],
		["[core]\n\taskPass = ./a", "askpass"],
		['[remote "o"]\n\tuploadpack = ./u', "remote-program"],
		// Found by a sixth review: gpg run by `git log` itself, and the command behind `--alternate-refs`.
		["[log]\n\tshowSignature = true", "gpg-program"],
		["[log]\n\tshowSignature", "gpg-program"],
		["[format]\n\tpretty = %h %G?", "gpg-program"],
		['[pretty]\n\tsigned = "%h %GS"', "gpg-program"],
		["[core]\n\talternateRefsCommand = ./a", "other-command"],
		// Found by a thirteenth review: a placeholder modifier (`%+G?`), and a partial clone, whose reads fetch a
		// missing object through the promisor remote (an `ext::` URL runs a command; the fetch runs gc hooks).
		["[format]\n\tpretty = %h %+G?", "gpg-program"],
		['[pretty]\n\tsigned = "%h%-GS"', "gpg-program"],
		['[pretty]\n\tsigned = "% GK"', "gpg-program"],
		["[extensions]\n\tpartialClone = origin", "lazy-fetch"],
		['[remote "origin"]\n\tpromisor = true', "lazy-fetch"],
		// A fourteenth review: git reads `[diff.x "y"]` as `diff.x.y.<key>` (section `diff`, driver `x.y`), and keeps
		// a quoted blank, so `"false "` is a hook command to git.
		['[diff.x "y"]\n\ttextconv = ./t', "textconv"],
		['[filter.x "y"]\n\tclean = ./c', "filter-driver"],
		['[remote.lazy "x"]\n\tpromisor = true', "lazy-fetch"],
		['[core]\n\tfsmonitor = "false "', "fsmonitor"],
		// An eighteenth review: git makes a remote with only a partial-clone filter a promisor remote.
		['[remote "x"]\n\tpartialclonefilter = blob:none', "lazy-fetch"],
		['[remote "x"]\n\tpartialCloneFilter', "lazy-fetch"],
	])("%j → %s", (text, kind) => {
		const parsed = parseGitConfig(text);
		if (!parsed.ok) throw new Error(parsed.error);
		expect(gitProgramKeys(parsed.value).map((key) => key.kind)).toEqual([kind]);
		expect(judgeGitConfigText(text)).toBe("unsafe");
	});

	it.each([
		["[core]\n\tfsmonitor = false"],
		["[pager]\n\tlog = false"],
		["[pager]\n\tdiff"],
		["[core]\n\tpager ="],
		["[log]\n\tshowSignature = false"],
		["[format]\n\tpretty = %h %s"],
	])("%j runs no program", (text) => {
		expect(judgeGitConfigText(text)).toBe("safe");
	});

	it("is unknown for text that does not parse, and combines verdicts worst first", () => {
		expect(judgeGitConfigText("[core")).toBe("unknown");
		expect(combineGitConfigVerdicts([])).toBe("safe");
		expect(combineGitConfigVerdicts(["safe", "unknown"])).toBe("unknown");
		expect(combineGitConfigVerdicts(["unknown", "unsafe", "safe"])).toBe("unsafe");
	});
});

describe("credentials in remote URLs", () => {
	it.each<[string, string]>([
		['[remote "origin"]\n\turl = https://github.com/o/r.git\n', "none"],
		['[remote "origin"]\n\turl = git@github.com:o/r.git\n', "none"],
		['[remote "origin"]\n\turl = ssh://git@github.com/o/r.git\n', "none"],
		['[remote "origin"]\n\turl = https://user:ghp_FAKE@github.com/o/r.git\n', "present"],
		['[remote "origin"]\n\tpushurl = HTTPS://ghp_FAKE@github.com/o/r.git\n', "present"],
		['[url "https://x-access-token:ghs_FAKE@github.com/"]\n\tinsteadOf = https://github.com/\n', "present"],
		['[remote "origin"\n', "unknown"],
	])("%j → %s", (text, expected) => {
		expect(judgeGitConfigUrlCredentials(text)).toBe(expected);
	});

	it("combines files: present wins, then unknown", () => {
		expect(combineGitUrlCredentialsVerdicts([])).toBe("none");
		expect(combineGitUrlCredentialsVerdicts(["none", "unknown"])).toBe("unknown");
		expect(combineGitUrlCredentialsVerdicts(["unknown", "present"])).toBe("present");
	});
});
