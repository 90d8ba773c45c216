// Decision 0019: a recursive read walks a git folder only when its config holds no credential. The kernel judges
// the config text and tells the shell's lister how to treat each entry; the lister itself is tested on real folders
// in guardian-review (search-tree-reader.test.ts) and in a real session (git-folder-reads.session.test.ts).
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	GIT_FOLDER_CLEAR_CONTENT_NAMES,
	gitRefHidesObjects,
	judgeGitConfigSecrets,
	judgeGitMessageSecrets,
	judgeGitUrlFileSecrets,
	MAX_GIT_CONFIG_CHARS,
	treeEntryTest,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME } from "./floor-outcome.js";

const CLONED = `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
[remote "origin"]
	url = https://github.com/django/django.git
	fetch = +refs/heads/*:refs/remotes/origin/*
	promisor = true
	partialclonefilter = blob:none
[branch "main"]
	remote = origin
	merge = refs/heads/main
`;

describe("judgeGitConfigSecrets", () => {
	it.each<[string, string]>([
		["a fresh clone's config", CLONED],
		["an ssh remote as git@", '[remote "origin"]\n\turl = ssh://git@github.com/o/r.git\n'],
		["an scp-like remote", '[remote "origin"]\n\turl = git@github.com:o/r.git\n'],
		["an empty file", ""],
		["user settings that name no secret", "[user]\n\tname = Dev\n\temail = dev@example.com\n"],
	])("none: %s", (_, text) => {
		expect(judgeGitConfigSecrets(text)).toBe("none");
	});

	it("found: git's own password keys, sendemail.smtpPass and imap.pass (a twentieth review)", () => {
		expect(judgeGitConfigSecrets("[sendemail]\n\tsmtpServer = smtp.example.com\n\tsmtpPass = s3cret\n")).toBe("found");
		expect(judgeGitConfigSecrets('[sendemail "work"]\n\tsmtppass = s3cret\n')).toBe("found");
		expect(judgeGitConfigSecrets("[imap]\n\tpass = s3cret\n")).toBe("found");
	});

	it.each<[string, string]>([
		["a token as the user", '[remote "origin"]\n\turl = https://ghp_abc123@github.com/o/r.git\n'],
		["user and password", '[remote "origin"]\n\tpushurl = https://me:hunter2@example.com/r.git\n'],
		[
			"a token in a url subsection",
			'[url "https://x-access-token:tok@github.com/"]\n\tinsteadOf = https://github.com/\n',
		],
		[
			"actions/checkout's persisted header",
			'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3M=\n',
		],
		["a cookie file", "[http]\n\tcookiefile = .git/cookies\n"],
		["a client key", "[http]\n\tsslKey = .git/client.key\n"],
		["a credential helper that stores", "[credential]\n\thelper = store --file .git/creds\n"],
		["a credential helper that prints", '[credential]\n\thelper = "!f() { echo password=x; }; f"\n'],
		["a tool's token key", "[github]\n\ttoken = abc\n"],
		["a tool's password key", "[sendemail]\n\tsmtpPass = x\n[gitreview]\n\tpassword = y\n"],
	])("found: %s", (_, text) => {
		expect(judgeGitConfigSecrets(text)).toBe("found");
	});

	it("is unknown for text it cannot parse, text over the bound, and includes (the included file may lie anywhere)", () => {
		expect(judgeGitConfigSecrets('[remote "origin\n\turl = x\n')).toBe("unknown");
		expect(judgeGitConfigSecrets(`[core]\n\tx = ${"a".repeat(MAX_GIT_CONFIG_CHARS)}\n`)).toBe("unknown");
		expect(judgeGitConfigSecrets("[include]\n\tpath = extra.conf\n")).toBe("unknown");
		expect(judgeGitConfigSecrets('[includeIf "gitdir:~/w/"]\n\tpath = w.conf\n')).toBe("unknown");
	});

	it("scans a long value in one pass (no regex backtracking)", () => {
		const long = `[core]\n\tx = ${"a://b".repeat(40_000)}\n`;
		expect(judgeGitConfigSecrets(long)).toBe("none");
		expect(judgeGitConfigSecrets(`${long}[remote "o"]\n\turl = https://t@h/r\n`)).toBe("found");
	});
});

describe("treeEntryTest", () => {
	const test = treeEntryTest(floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME));

	it("opens a git folder protected only by `.git/`, and reads its config files by their text", () => {
		expect(test(`${CWD}/.git`, true, false)).toBe("git-folder");
		expect(test(`${CWD}/vendor/lib/.git`, true, false)).toBe("git-folder");
		expect(test(`${CWD}/.git/config`, false, true)).toBe("git-config");
		expect(test(`${CWD}/.git/modules/sub/config`, false, true)).toBe("git-config");
		expect(test(`${CWD}/.git/worktrees/w/config.worktree`, false, true)).toBe("git-config");
		expect(test(`${CWD}/.git/HEAD`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/objects`, true, true)).toBe("readable");
	});

	it("keeps everything else protected: a `.git` file or link, entries other globs cover, other protected names", () => {
		expect(test(`${CWD}/.git`, false, false)).toBe("protected");
		expect(test(`${CWD}/.git/deploy.key`, false, true)).toBe("protected");
		expect(test(`${CWD}/.git/.env`, false, true)).toBe("protected");
		expect(test(`${CWD}/.env`, false, false)).toBe("protected");
		expect(test(`${CWD}/certs/server.pem`, false, false)).toBe("protected");
		expect(test(`${CWD}/src/app.py`, false, false)).toBe("readable");
		// A config directory is not a config file.
		expect(test(`${CWD}/.git/config`, true, true)).toBe("readable");
	});

	it("reads reflog files by their text, at any depth, and nothing named `logs` outside a logs folder", () => {
		expect(test(`${CWD}/.git/logs/HEAD`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/logs/refs/heads/main`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/modules/lib/logs/HEAD`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/worktrees/w/logs/HEAD`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/vendor/lib/.git/logs/HEAD`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/logs`, true, true)).toBe("readable");
		expect(test(`${CWD}/.git/refs/heads/logs`, false, true)).toBe("readable");
		// Outside a git folder a `logs` folder is the project's own.
		expect(test(`${CWD}/logs/app.log`, false, false)).toBe("readable");
	});

	it("judges legacy remote files by their text, and messages git leaves for an editor by theirs", () => {
		expect(test(`${CWD}/.git/remotes/origin`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/branches/origin`, false, true)).toBe("git-url-file");
		for (const name of ["COMMIT_EDITMSG", "MERGE_MSG", "SQUASH_MSG", "TAG_EDITMSG"])
			expect(test(`${CWD}/.git/${name}`, false, true)).toBe("git-message");
		expect(test(`${CWD}/.git/modules/lib/COMMIT_EDITMSG`, false, true)).toBe("git-message");
	});

	it("reads what git keeps there by an allow-list: object and ref names, the index, hooks, git's notes", () => {
		for (const file of [
			"HEAD",
			"ORIG_HEAD",
			"FETCH_HEAD",
			"packed-refs",
			"index",
			"description",
			"sharedindex.0123abcd",
			"index.lock",
			"objects/pack/pack-1.pack",
			"objects/info/commit-graph",
			"refs/heads/main",
			"info/exclude",
			"hooks/pre-commit.sample",
			"modules/lib/HEAD",
			"modules/lib/objects/ab/cdef",
			"worktrees/w/gitdir",
			"worktrees/w/commondir",
		])
			expect(test(`${CWD}/.git/${file}`, false, true), file).toBe("readable");
		for (const folder of ["objects", "refs", "modules", "modules/lib", "worktrees/w", "sequencer", "gk"])
			expect(test(`${CWD}/.git/${folder}`, true, true), folder).toBe("readable");
	});

	it("judges messages and config by name also in a submodule named like a folder git keeps (a thirty-seventh review)", () => {
		// The git folder of a submodule at `src/hooks` is `.git/modules/src/hooks/`.
		expect(test(`${CWD}/.git/modules/src/hooks/COMMIT_EDITMSG`, false, true)).toBe("git-message");
		expect(test(`${CWD}/.git/modules/src/hooks/config`, false, true)).toBe("git-config");
		expect(test(`${CWD}/.git/modules/refs/logs/HEAD`, false, true)).toBe("git-url-file");
		expect(test(`${CWD}/.git/worktrees/info/COMMIT_EDITMSG`, false, true)).toBe("git-message");
	});

	it("judges a lock file as the file git is writing in its place", () => {
		expect(test(`${CWD}/.git/config.lock`, false, true)).toBe("git-config");
		expect(test(`${CWD}/.git/COMMIT_EDITMSG.lock`, false, true)).toBe("git-message");
		expect(test(`${CWD}/.git/index.lock`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/HEAD.lock`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/refs/heads/main.lock`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/notes.lock`, false, true)).toBe("protected");
		expect(test(`${CWD}/.git/.lock`, false, true)).toBe("protected");
	});

	it("keeps what it does not know protected: a tool's own files in the git folder", () => {
		for (const file of [
			"git-crypt/keys/default",
			"lost-found/other/0123abcd",
			"gk/config.json",
			"svn/.metadata",
			"filter-repo/commit-map",
			"my-secret-notes.txt",
			"modules/lib/unknown-file",
		])
			expect(test(`${CWD}/.git/${file}`, false, true), file).toBe("protected");
	});

	it.each(GIT_FOLDER_CLEAR_CONTENT_NAMES)(
		"keeps a git folder's `%s` protected, as a folder and below, at any depth",
		(name) => {
			expect(test(`${CWD}/.git/${name}`, true, true)).toBe("protected");
			expect(test(`${CWD}/.git/${name}/x/y`, false, true)).toBe("protected");
			expect(test(`${CWD}/.git/modules/lib/${name}`, true, true)).toBe("protected");
			// Outside a git folder the name is the project's own.
			expect(test(`${CWD}/${name}/notes.txt`, false, false)).toBe("readable");
		},
	);

	it("keeps git folders protected whole when the user's list covers them by another glob", () => {
		const strictWith = (glob: string) =>
			treeEntryTest(floorContextFor(applyGuardianDefaults({ mode: "enforce", protectedPaths: [glob] }), CWD, HOME));
		expect(strictWith(".git")(`${CWD}/.git`, true, false)).toBe("protected");
		expect(strictWith(`${CWD}/.git`)(`${CWD}/.git`, true, false)).toBe("protected");
		expect(strictWith(`${CWD}/.git`)(`${CWD}/.git/HEAD`, false, true)).toBe("protected");
	});
});

describe("gitRefHidesObjects", () => {
	it("accepts commits and tags of commits; a replace ref, a blob, a tree or a tag of a tag hides objects", () => {
		expect(gitRefHidesObjects("commit  refs/heads/main")).toBe(false);
		expect(gitRefHidesObjects("tag commit refs/tags/v1.0")).toBe(false);
		expect(gitRefHidesObjects("")).toBe(false);
		expect(gitRefHidesObjects("commit  refs/replace/0a66a5712dba79e4c8300dd08aeb37f8e728b8da")).toBe(true);
		expect(gitRefHidesObjects("blob  refs/tags/blobtag")).toBe(true);
		expect(gitRefHidesObjects("tree  refs/tags/treetag")).toBe(true);
		expect(gitRefHidesObjects("tag blob refs/tags/annotated-blob")).toBe(true);
		expect(gitRefHidesObjects("tag tag refs/tags/nested")).toBe(true);
	});
});

describe("judgeGitUrlFileSecrets (reflogs, legacy remote files)", () => {
	const line = (message: string) =>
		`0000000000000000000000000000000000000000 811e37c2e94d34d495ec416c895db6ced3222208 t <t@example.invalid> 1 +0000\t${message}\n`;

	it("finds a URL with user information in any message: what `git pull URL` writes", () => {
		expect(judgeGitUrlFileSecrets(line("pull -q http://oauth2:glpat-x@host/r.git main: Fast-forward"))).toBe("found");
		expect(judgeGitUrlFileSecrets(line("commit: a") + line("pull https://ghp_x@github.com/o/r main"))).toBe("found");
	});

	it("finds none in messages git writes without one", () => {
		expect(judgeGitUrlFileSecrets("")).toBe("none");
		expect(judgeGitUrlFileSecrets(line("fetch -q http://127.0.0.1:8799/r.git x:y: storing head"))).toBe("none");
		expect(judgeGitUrlFileSecrets(line("pull ssh://git@github.com/o/r main: Fast-forward"))).toBe("none");
		expect(judgeGitUrlFileSecrets(line("checkout: moving from main to x"))).toBe("none");
	});
});

describe("reflog walks", () => {
	const context = { ...floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME), ...CLEAN_GIT };

	it.each([
		"git log -g",
		"git log -g --oneline",
		"git log --walk-reflogs --format=%gs",
		"git show -g -s",
		"git rev-list -g --format=%gs HEAD",
		"git shortlog -g",
	])("reviews `%s`: the reflog's messages keep `git pull URL` as typed", (command) => {
		expect(bashOutcome(command, context)).toBe("review:protected-path");
	});

	it("still allows log forms that walk no reflog", () => {
		expect(bashOutcome("git log --oneline -5", context)).toBe("allow:read-only");
		expect(bashOutcome("git log --grep=fix --oneline", context)).toBe("allow:read-only");
	});
});

describe("judgeGitMessageSecrets", () => {
	it("finds the diff `git commit -v` writes below the message", () => {
		const verbose =
			"remove leaked .env\n# Please enter the commit message\n# ------------------------ >8 ------------------------\ndiff --git a/.env b/.env\ndeleted file mode 100644\n-API_KEY=x\n";
		expect(judgeGitMessageSecrets(verbose)).toBe("found");
		expect(judgeGitMessageSecrets("diff --git a/x b/x\n")).toBe("found");
	});

	it("finds none in a plain message, also one that talks about diffs", () => {
		expect(judgeGitMessageSecrets("fix: parse diff --git headers\n# Please enter the commit message\n")).toBe("none");
		expect(judgeGitMessageSecrets("")).toBe("none");
	});
});

describe("judgeGitConfigSecrets: objects stored in clear (a thirty-seventh review)", () => {
	it.each([
		"[core]\n\tcompression = 0\n",
		"[core]\n\tlooseCompression = 0\n",
		"[pack]\n\tcompression = 0\n",
		"[core]\n\tcompression = none\n",
	])("finds a compression level that stores content uncompressed: %j", (text) => {
		expect(judgeGitConfigSecrets(text)).toBe("found");
	});

	it.each(["[core]\n\tcompression = 9\n", "[core]\n\tcompression = -1\n", "[pack]\n\tcompression = 1\n"])(
		"finds none for a level that compresses: %j",
		(text) => {
			expect(judgeGitConfigSecrets(text)).toBe("none");
		},
	);
});
