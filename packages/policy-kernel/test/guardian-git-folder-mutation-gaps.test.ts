// What a recursive read may meet in a git folder, by the names the README and decision 0019 give: folders that hold
// content in clear (by their own names, since an `objects` folder inside them is not git's), the allow-list's exact
// shapes (a split index's shared files, lock files), every message git leaves for an editor, a diff in any prefix
// form, reflog walks wherever the flag stands, and Volta's shims under a `VOLTA_HOME` written with a trailing slash.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	judgeGitMessageSecrets,
	judgeShellSetup,
	MAX_GIT_MESSAGE_BYTES,
	MAX_GIT_URL_FILE_BYTES,
	treeEntryTest,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME } from "./floor-outcome.js";

const test = treeEntryTest(floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME));

describe("a git folder's folders of content in clear", () => {
	it.each(["lfs", "annex", "rebase-merge", "rebase-apply", "rr-cache", "git-crypt", "lost-found"])(
		"keeps `%s` protected as a folder, empty or not, in the repository's and a submodule's git folder",
		(name) => {
			expect(test(`${CWD}/.git/${name}`, true, true)).toBe("protected");
			expect(test(`${CWD}/.git/modules/lib/${name}`, true, true)).toBe("protected");
		},
	);

	it("keeps git-annex's objects protected: their `objects` folder is the annex's, not git's", () => {
		expect(test(`${CWD}/.git/annex/objects/Xk/9p/SHA256E-s42--abc.pem/SHA256E-s42--abc.pem`, false, true)).toBe(
			"protected",
		);
		expect(test(`${CWD}/.git/annex/objects`, true, true)).toBe("protected");
		expect(test(`${CWD}/.git/lfs/objects/ab/cd/abcd1234`, false, true)).toBe("protected");
	});
});

describe("the allow-list's exact shapes", () => {
	it("reads a split index's shared files by their hexadecimal names only", () => {
		expect(test(`${CWD}/.git/sharedindex.0a1b2c3d4e5f`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/sharedindex.backup`, false, true)).toBe("protected");
		expect(test(`${CWD}/.git/sharedindex.0a1b.tokens`, false, true)).toBe("protected");
	});

	it("reads lock files, but not a file that only has `.lock` inside its name", () => {
		expect(test(`${CWD}/.git/HEAD.lock`, false, true)).toBe("readable");
		expect(test(`${CWD}/.git/index.lock.orig`, false, true)).toBe("protected");
		expect(test(`${CWD}/.git/my.lock-notes.txt`, false, true)).toBe("protected");
	});

	it("judges every message git leaves for an editor by its text, notes and branch descriptions too", () => {
		for (const name of [
			"COMMIT_EDITMSG",
			"MERGE_MSG",
			"SQUASH_MSG",
			"TAG_EDITMSG",
			"NOTES_EDITMSG",
			"EDIT_DESCRIPTION",
		])
			expect(test(`${CWD}/.git/${name}`, false, true), name).toBe("git-message");
	});

	it("judges a linked worktree's message by its text and keeps a worktree's unknown file protected", () => {
		expect(test(`${CWD}/.git/worktrees/w/COMMIT_EDITMSG`, false, true)).toBe("git-message");
		expect(test(`${CWD}/.git/worktrees/w/notes.txt`, false, true)).toBe("protected");
		expect(test(`${CWD}/.git/worktrees/w/HEAD`, false, true)).toBe("readable");
	});
});

describe("judgeGitMessageSecrets, whatever prefixes the diff uses", () => {
	it("finds a diff written with diff.noPrefix or diff.mnemonicPrefix", () => {
		expect(judgeGitMessageSecrets("drop env\n# ---- >8 ----\ndiff --git .env .env\n-API_KEY=x\n")).toBe("found");
		expect(judgeGitMessageSecrets("drop env\n# ---- >8 ----\ndiff --git i/.env w/.env\n-API_KEY=x\n")).toBe("found");
		expect(judgeGitMessageSecrets("diff --git c/.env i/.env\n")).toBe("found");
	});
});

describe("the size bounds of the files judged by their text", () => {
	it("reads reflogs and legacy remote files up to 8 MiB and messages up to 1 MiB", () => {
		expect(MAX_GIT_URL_FILE_BYTES).toBe(8_388_608);
		expect(MAX_GIT_MESSAGE_BYTES).toBe(1_048_576);
	});
});

describe("reflog walks, wherever the flag stands", () => {
	const context = { ...floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME), ...CLEAN_GIT };

	it.each([
		"git log --oneline -g",
		"git log --format=%gs --walk-reflogs",
		"git log -5 --oneline --walk-reflogs main",
		"git show -s -g",
	])("reviews `%s`", (command) => {
		expect(bashOutcome(command, context)).toBe("review:protected-path");
	});
});

describe("Volta's shims", () => {
	it("finds them in VOLTA_HOME's bin when VOLTA_HOME ends with a slash", () => {
		for (const environment of [
			{ PATH: "/opt/volta/bin:/usr/bin", VOLTA_HOME: "/opt/volta/" },
			{ PATH: "/usr/bin:/opt/volta/bin/", VOLTA_HOME: "/opt/volta//" },
		])
			expect(judgeShellSetup({ environment, workspace: CWD, home: HOME }).versionShims).toBe(true);
	});
});
