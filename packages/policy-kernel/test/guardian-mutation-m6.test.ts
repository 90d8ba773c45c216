// A mutation audit (m6) of kernel functions an earlier audit did not reach: pathKeyWord, looksLikeLocalPath,
// serverPathVariants, the mv check's anchored globs, waitingGrantOf, denialNotification, judgeShellSetup's BSD and
// POSIXLY_CORRECT facts, date, git's listing forms and the `--` checks. Each test kills a mutant that survived the
// kernel's tests and changed a decision or a message.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	denialNotification,
	type FloorContext,
	floorContextFor,
	judgeShellSetup,
	looksLikeLocalPath,
	serverPathVariants,
	waitingGrantOf,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, plannedOutcome, READ_ONLY_TOOL, withLinks } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const base: FloorContext = floorContextFor(config, CWD, HOME, CLEAN_GIT);

describe("pathKeyWord: key spellings that name a path", () => {
	it.each<[string, Record<string, unknown>]>([
		// K1 `names` joined to the word before (`fileNames` → `filenames`, a list key).
		["mcp__fs__read_files", { fileNames: ["id_rsa"] }],
		// K3 a two-letter prefix glued to a path word (`dbpath`, `capath`).
		["mcp__sqlite__open", { dbpath: "secrets.yml" }],
		// K4 `folder` glued on (`logfolder`).
		["mcp__logs__tail", { logfolder: "kubeconfig" }],
		// K7 the word right before `name`, not the first word (`target_file_name` → `filename`).
		["mcp__fs__stat", { target_file_name: "secrets.yml" }],
	])("%s %j is reviewed", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("review");
	});
	it("K5: `profiles` names configuration profiles, not files", () => {
		expect(plannedOutcome("mcp__aws__whoami", { profiles: "default" }, READ_ONLY_TOOL)).toBe("allow");
	});
});

describe("looksLikeLocalPath: shapes a server may read", () => {
	it.each<[Record<string, unknown>]>([
		// L3 a blank before `file:` (URL parsers and trimming servers drop it).
		[{ source: " file:///etc/shadow" }],
		// L5 a bare `~user`.
		[{ base: "~root", query: "KEY" }],
		// L12 a bare `~_user` (macOS's `_www`).
		[{ base: "~_www", query: "KEY" }],
	])("mcp__search__grep %j is reviewed", (input) => {
		expect(plannedOutcome("mcp__search__grep", input, READ_ONLY_TOOL)).toBe("review");
	});
	it("L1: a path of exactly 4,096 characters is still a path", () => {
		const path = `${"/".repeat(4096 - "etc/shadow".length)}etc/shadow`;
		expect(path.length).toBe(4096);
		expect(looksLikeLocalPath(path)).toBe(true);
		expect(plannedOutcome("mcp__search__grep", { base: path, query: "root" }, READ_ONLY_TOOL)).toBe("review");
	});
	it("L9: a dot-dash name is a dot name (`.*history` matches `.-history`)", () => {
		expect(plannedOutcome("mcp__x__y", { source: ".-history" }, READ_ONLY_TOOL)).toBe("review");
	});
	it("L11: a URL whose scheme holds `+` is no local path", () => {
		expect(plannedOutcome("mcp__git__info", { remote: "svn+ssh://host/repo/.env" }, READ_ONLY_TOOL)).toBe("allow");
	});
	it("L10: a tab in one-line text is white space (a table row, not a path)", () => {
		expect(looksLikeLocalPath("total\t3/4")).toBe(false);
		expect(plannedOutcome("mcp__notes__add", { text: "total\t3/4" }, READ_ONLY_TOOL)).toBe("allow");
	});
});

describe("serverPathVariants", () => {
	it("P1: `@` before `$HOME/…` as Pi's tools strip it", () => {
		expect(serverPathVariants("@$HOME/.ssh/id_rsa", HOME)).toEqual([`${HOME}/.ssh/id_rsa`]);
		expect(plannedOutcome("mcp__fs__read_file", { path: "@$HOME/.aws/credentials" }, READ_ONLY_TOOL)).toBe("review");
	});
	it("P3: `~User/…` with a capital (macOS user names often have one)", () => {
		expect(serverPathVariants("~Dev/.aws/credentials", HOME)).toEqual([
			`${HOME}/.aws/credentials`,
			"/home/Dev/.aws/credentials",
		]);
		expect(plannedOutcome("mcp__fs__read_file", { path: "~Dev/.aws/credentials" }, READ_ONLY_TOOL)).toBe("review");
	});
	it("P7: `~user/…` is that user's folder beside home, not a folder inside home", () => {
		expect(serverPathVariants("~root/notes.txt", HOME)).toContain("/home/root/notes.txt");
		// With Pi started in home, `~root/notes.txt` is another user's file, outside the workspace.
		expect(plannedOutcome("mcp__fs__read_file", { path: "~root/notes.txt" }, READ_ONLY_TOOL, config, HOME)).toBe(
			"review",
		);
	});
	it("P4: `~user/…` is read under home too", () => {
		expect(serverPathVariants("~bob/.aws/credentials", HOME)).toContain(`${HOME}/.aws/credentials`);
	});
});

describe("waitingGrantOf and denialNotification", () => {
	it("W2: one live grant for this call among others is `this-call`", () => {
		const state = {
			lastDenied: undefined,
			grants: [
				{ hash: "other", expiresAt: 10_000 },
				{ hash: "this", expiresAt: 10_000 },
			],
		};
		expect(waitingGrantOf(state, "this", 1_000)).toBe("this-call");
	});
	it("N5: `edit` is shown by its name", () => {
		expect(denialNotification("edit", "floor", "protected-path")).toBe(
			"guardian-review denied a edit call (source: protected-path).",
		);
	});
	it("N6: a floor denial says nothing of a waiting grant allow-once could not use for it", () => {
		expect(denialNotification("bash", "floor", "deny-rule", "this-call")).toBe(
			"guardian-review denied a bash call (source: deny-rule).",
		);
	});
});

describe("judgeShellSetup: BSD userlands and POSIXLY_CORRECT", () => {
	const setup = (platform: string, environment: Record<string, string> = {}) =>
		judgeShellSetup({ environment: { PATH: "/usr/bin:/bin", ...environment }, workspace: CWD, home: HOME, platform });
	it("S2: OpenBSD and NetBSD are BSD userlands", () => {
		expect(setup("openbsd")).toMatchObject({ bsdUserland: true, optionsEndAtOperand: true });
		expect(setup("netbsd")).toMatchObject({ bsdUserland: true, optionsEndAtOperand: true });
	});
	it("S4: an empty POSIXLY_CORRECT still ends options at the first operand (GNU getopt checks it is set)", () => {
		expect(setup("linux", { POSIXLY_CORRECT: "" })).toMatchObject({ optionsEndAtOperand: true });
	});
});

describe("mv: a rename that takes a file out of an anchored protected glob", () => {
	it("A6: `**/.docker/config.json` below a nested folder", () => {
		expect(withLinks("mv web/.docker web/docker-old", base)).toMatch(/^review:/);
	});
	it("A4: a workspace path with capitals (macOS's `/Users/Dev`) is matched without regard to case", () => {
		const mac = floorContextFor(config, "/Users/Dev/project", "/Users/Dev", {
			...CLEAN_GIT,
			gitTop: "/Users/Dev/project",
		});
		expect(withLinks("mv web/.docker web/docker-old", mac)).toMatch(/^review:/);
	});
	it("A3: a bracket part of a user's glob is no literal part", () => {
		const custom = applyGuardianDefaults({ mode: "enforce", protectedPaths: ["config/[Pp]rod/db.key"] });
		const context = floorContextFor(custom, CWD, HOME, CLEAN_GIT);
		expect(withLinks("mv config/prod config/old", context)).toMatch(/^review:/);
	});
});

describe("date", () => {
	it.each<[string]>([
		// T9, T10: the long options that take the next word as their value.
		["date --rfc-3339 seconds"],
		["date --reference package.json"],
		// T5: a unique three-letter prefix (`--f` is `--file`).
		["date --f dates.txt"],
	])("%s is allowed", (command) => {
		expect(bashOutcome(command, base)).toBe("allow:read-only");
	});
});

describe("git listing forms", () => {
	it.each<[string]>([
		["git branch -l 'feature/*'"], // G1
		["git remote --verbose"], // G5
		["git tag -l --contains HEAD"], // G9
		["git tag --list 'v1.*'"], // G10
	])("%s is allowed", (command) => {
		expect(bashOutcome(command, { ...base, gitUrlCredentials: "none" })).toBe("allow:read-only");
	});
});

describe("options after `--` or after an operand", () => {
	it("O2: rg's pattern right after `--` when only short options came before", () => {
		expect(bashOutcome("rg -n -- --force src", base)).toBe("allow:read-only");
	});
	it("X3: a bundled value (`-n5`) takes no next word, so an option word after the file is a file (macOS)", () => {
		const mac: FloorContext = { ...base, bsdUserland: true, optionsEndAtOperand: true };
		expect(withLinks("head -n5 notes.txt -q", mac)).toMatch(/^review:/);
	});
});

describe("bypass (a server that trims its arguments): a line break after `~/.ssh`, `../x` or `/etc`", () => {
	// Found from looksLikeLocalPath's mutant L4: any `\n` or `\r` makes a value no path, before the trimming the
	// sixty-eighth and sixty-ninth reviews added, so ` ~/.ssh` is reviewed but `~/.ssh\n` is not. Python's
	// `str.strip()` and JavaScript's `trim()` drop a trailing line break as they drop a blank.
	it.each<[Record<string, unknown>]>([
		[{ base: "~/.ssh\n", query: "PRIVATE KEY" }],
		[{ base: "../other\n", query: "PRIVATE KEY" }],
		[{ base: "/etc\r\n", query: "root" }],
	])("reviews mcp__search__grep %j", (input) => {
		expect(plannedOutcome("mcp__search__grep", input, READ_ONLY_TOOL)).toBe("review");
	});
	it("as it reviews ` ~/.ssh`", () => {
		expect(plannedOutcome("mcp__search__grep", { base: " ~/.ssh", query: "PRIVATE KEY" }, READ_ONLY_TOOL)).toBe(
			"review",
		);
	});
});
