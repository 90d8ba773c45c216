// What a twenty-fifth review got past the floor (each shown first in a real Pi session with real bash 5.2), pinned
// next to the look-alikes that stay allowed. Every "review" row was an "allow" before its fix.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideBashFloor,
	decideFloor,
	expandBraceSequence,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	globMatches,
	isByteSafeLocale,
	judgeShellSetup,
	normalizeAbsolutePath,
	resolveGuardianReviewConfig,
	resolveToolScope,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome, withCleanTrees } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, CLEAN_GIT);

function bash(command: string, context: FloorContext = clean): string {
	return bashOutcome(command, context);
}

/** The read (or write) tool's floor decision for `path` under a config whose `protectedPaths` adds `extra`. */
function readWith(extra: readonly string[], path: string, tool: "read" | "write" = "read"): string {
	const withExtra = applyGuardianDefaults({ mode: "enforce", protectedPaths: [...extra] });
	const input = tool === "read" ? { path } : { path, content: "x" };
	return outcome(decideFloor(tool, input, withExtra, floorContextFor(withExtra, CWD, HOME, CLEAN_GIT)));
}

/** Secrets of each kind of default glob: file names, anchored home paths and /proc (read). */
const DEFAULT_SECRETS = [".env", "~/.bash_history", "~/.aws/credentials", "~/.kube/config", "/proc/self/environ"];
/** Folders protected by name, where a write runs code or instructions. */
const DEFAULT_CODE_FOLDERS = [".git/hooks/pre-commit", ".pi/extensions/evil.ts", ".agents/skills/x/SKILL.md"];

function expectDefaultsHold(extra: readonly string[]): void {
	for (const secret of DEFAULT_SECRETS) expect(readWith(extra, secret), `${extra} ${secret}`).toMatch(/^review:/);
	for (const file of DEFAULT_CODE_FOLDERS)
		expect(readWith(extra, file, "write"), `${extra} ${file}`).toMatch(/^review:/);
}

describe("a malformed protected glob drops nothing else", () => {
	it.each([
		["[z-a]"],
		["[a-Z]"],
		["[z-a]/"],
		["~/work/[a-Z]*/secrets"],
		["src/[9-0]/x"],
		["[\u{1F600}-\u{1F601}]"],
		["[]"],
		["[!]"],
		["[\\]"],
		["x[^-]"],
	])("%s", (glob) => {
		expectDefaultsHold([glob]);
		expect(readWith([glob], "src/index.ts")).toMatch(/^allow:/);
	});

	it("any glob at all leaves every default secret protected (generated globs)", () => {
		const part = fc.constantFrom(
			"[",
			"]",
			"-",
			"!",
			"^",
			"\\",
			"*",
			"?",
			"a",
			"Z",
			"z",
			"0",
			"9",
			"/",
			"~/",
			".",
			"\u{1F600}",
		);
		fc.assert(
			fc.property(fc.array(part, { minLength: 1, maxLength: 12 }), (parts) => {
				const glob = parts.join("").slice(0, 200);
				expectDefaultsHold([glob]);
			}),
			{ numRuns: 100 },
		);
	});

	it("bracket classes keep their meaning: ranges in order, negation, a backwards range matching nothing", () => {
		expect(globMatches("[a-c]x", "bx")).toBe(true);
		expect(globMatches("[a-c]x", "dx")).toBe(false);
		expect(globMatches("[!a]x", "ax")).toBe(false);
		expect(globMatches("[!a]x", "bx")).toBe(true);
		expect(globMatches("a[!x]b", "a/b")).toBe(false);
		expect(globMatches("[z-a]", "m")).toBe(false);
		expect(globMatches("[z-am]", "m")).toBe(true);
		expect(globMatches("[]-]", "-")).toBe(true);
		expect(globMatches("[]x]key", "xkey")).toBe(true);
		expect(globMatches("[]x]key", "]key")).toBe(true);
		expect(globMatches("[[:alnum:]]*", "token")).toBe(true);
		expect(globMatches("[[:alpha:]]x", "1x")).toBe(false);
		expect(globMatches("[[:nope:]]x", "ax")).toBe(false);
		expect(globMatches("\\[prod\\]", "[prod]")).toBe(true);
		expect(globMatches("[!]]x", "]x")).toBe(false);
		expect(globMatches("[\\]x", "[]x")).toBe(true);
		expect(readWith(["secret[0-9].txt"], "secret4.txt")).toBe("review:protected-path");
	});
});

describe("a project tool key under a global glob", () => {
	it('"grep": "protected-only" in a project does not lower a global "*": "always"', () => {
		const resolved = resolveGuardianReviewConfig({ tools: { "*": "always" } }, { tools: { grep: "protected-only" } });
		expect(resolved.ok).toBe(true);
		if (!resolved.ok) return;
		const merged = resolved.value.config;
		expect(resolveToolScope(merged, "grep", { builtin: true })).toBe("always");
		expect(resolveToolScope(merged, "mcp__fs__write_file", { builtin: false })).toBe("always");
		// The defaults' exact keys still beat the user's glob, and a project may raise them.
		expect(resolveToolScope(merged, "read", { builtin: true })).toBe("protected-only");
		const raised = resolveGuardianReviewConfig(
			{ tools: { "mcp__*": "protected-only" } },
			{ tools: { mcp__x: "always", grep: "protected-only" } },
		);
		if (!raised.ok) throw new Error("config");
		expect(resolveToolScope(raised.value.config, "mcp__x", { builtin: false })).toBe("always");
		expect(resolveToolScope(raised.value.config, "grep", { builtin: true })).toBe("protected-only");
		const lowered = resolveGuardianReviewConfig({ tools: { "mcp__*": "always" } }, { tools: { mcp__x: "off" } });
		if (!lowered.ok) throw new Error("config");
		expect(resolveToolScope(lowered.value.config, "mcp__x", { builtin: false })).toBe("always");
	});
});

describe("brace sequences name files too", () => {
	const links = (command: string, map: Record<string, string>): FloorContext => {
		const requested = floorFactRequestsOf(command, clean).linkPaths;
		const pathLinks = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
		for (const [path, target] of Object.entries(map)) pathLinks.set(path, target);
		return { ...clean, pathLinks };
	};

	it.each(["cat {a..b}", "cat {a..a}", "sort {a..a}", "grep token {a..b}", "wc -c {a..a}"])(
		"%s opens a, which links to ~/.kube/config",
		(command) => {
			expect(floorFactRequestsOf(command, clean).linkPaths).toContain(`${CWD}/a`);
			expect(bash(command, links(command, { [`${CWD}/a`]: `${HOME}/.kube/config` }))).toBe("review:protected-path");
			expect(bash(command, links(command, {}))).toBe("allow:read-only");
		},
	);

	it("head -n 5 {1..2} opens 1 and 2", () => {
		const command = "head -n 5 {1..2}";
		expect(bash(command, links(command, { [`${CWD}/1`]: `${HOME}/.ssh/id_rsa` }))).toBe("review:protected-path");
		expect(bash(command, links(command, {}))).toBe("allow:read-only");
	});

	it("expands like bash, and refuses what it cannot list", () => {
		expect(expandBraceSequence("{1..3}")).toEqual(["1", "2", "3"]);
		expect(expandBraceSequence("{3..1}")).toEqual(["3", "2", "1"]);
		expect(expandBraceSequence("{01..10..3}")).toEqual(["01", "04", "07", "10"]);
		expect(expandBraceSequence("{a..c}")).toEqual(["a", "b", "c"]);
		expect(expandBraceSequence("{Z..a}")).toEqual(["Z", "[", "\\", "]", "^", "_", "`", "a"]);
		expect(expandBraceSequence("{-1..1}")).toBeUndefined();
		expect(expandBraceSequence("{1..100000}")).toBeUndefined();
		expect(bash("cat {1..100000}")).toBe("review:dynamic");
		expect(bash("cat {-1..1}")).toBe("review:dynamic");
		expect(bash("cat {.e..}")).toBe("review:dynamic");
		expect(bash("echo {1..5}")).toBe("allow:read-only");
	});
});

describe("locales that read a backslash or quote byte as part of a character", () => {
	it.each([
		"LC_ALL=zh_CN.GBK\necho \u20ac\\' '\ntouch /tmp/pwn\n'",
		"LC_ALL=zh_CN.GBK",
		"LANG=zh_TW sort a.txt",
		"LC_CTYPE=ja_JP.SJIS cat a.txt",
		"LANG=zh_CN.GB18030; cat a.txt",
		// Empty falls back to the next setting, which may be a GBK LANG in Pi's environment (a twenty-sixth review).
		"LC_ALL=\necho \u4e2d\\' '\ntouch /tmp/pwn\n'",
		"LANG= cat a.txt",
	])("%j is reviewed", (command) => {
		expect(bash(command)).toBe("review:environment");
	});

	it.each(["LC_ALL=C sort a.txt", "LANG=C.UTF-8 sort a.txt", "LC_ALL=en_US.utf8 cat a.txt", "LANGUAGE=de cat a.txt"])(
		"%j stays allowed",
		(command) => {
			expect(bash(command)).toBe("allow:read-only");
		},
	);

	it("a session whose own locale is GBK reviews any command with a byte above ASCII", () => {
		const gbk = judgeShellSetup({ environment: { LANG: "zh_CN.GBK", PATH: "/usr/bin" }, workspace: CWD, home: HOME });
		expect(gbk).toMatchObject({ verdict: "bash", multibyteLocale: true });
		const context = floorContextFor(config, CWD, HOME, { ...CLEAN_GIT, shell: gbk });
		expect(bash("echo \u4e2d\\' '\ntouch /tmp/pwn\n'", context)).toBe("review:environment");
		expect(bash("cat a.txt", context)).toBe("allow:read-only");
		// LC_ALL wins over LANG, and an empty one is skipped.
		const utf8 = judgeShellSetup({ environment: { LC_ALL: "C.UTF-8", LANG: "zh_CN.GBK" }, workspace: CWD, home: HOME });
		expect(utf8.multibyteLocale).toBeUndefined();
		const skipped = judgeShellSetup({ environment: { LC_ALL: "", LANG: "zh_CN.GBK" }, workspace: CWD, home: HOME });
		expect(skipped.multibyteLocale).toBe(true);
		const plain = floorContextFor(config, CWD, HOME, { ...CLEAN_GIT, shell: utf8 });
		expect(bash("echo \u4e2d", plain)).toBe("allow:read-only");
		// A shell command prefix that switches to such a locale makes the shell one the floor does not judge.
		expect(
			judgeShellSetup({ environment: {}, commandPrefix: "export LC_ALL=zh_CN.GBK", workspace: CWD, home: HOME }),
		).toMatchObject({ verdict: "custom", cause: "command-prefix" });
		expect(
			judgeShellSetup({ environment: {}, commandPrefix: "export LC_ALL=C.UTF-8", workspace: CWD, home: HOME }).verdict,
		).toBe("bash");
	});

	it("tells byte-safe locales apart", () => {
		for (const safe of [undefined, "", "C", "POSIX", "C.UTF-8", "en_US.UTF-8", "de_DE.utf8", "sr_RS.UTF-8@latin"])
			expect(isByteSafeLocale(safe), String(safe)).toBe(true);
		for (const unsafe of ["zh_CN.GBK", "zh_TW", "zh_TW.Big5", "ja_JP.SJIS", "zh_CN.GB18030", "ko_KR.CP949", "C.GBK"])
			expect(isByteSafeLocale(unsafe), unsafe).toBe(false);
	});
});

describe("what a twenty-sixth review got past the twenty-fifth round's fixes", () => {
	it.each([
		"grep {token,/home/dev/.kube/config} x",
		"grep {token,~/.kube/config} x",
		"grep {API,.env} x",
		"rg {BEGIN,/home/dev/.ssh/id_ed25519} x",
		"grep -r {s..t} x",
		"grep -r {s,t} x",
		"rg {s..t} x",
		"grep -e {s..t} x",
		"grep -m {1,f} x",
		"grep -f {s..t} x",
	])("a brace word outside grep's or rg's file operands: %s", (command) => {
		expect(bash(command)).toBe("review:dynamic");
	});

	it("grep's file operands may still be brace words, each judged", () => {
		expect(bash("grep -n x {a,b}.py")).toBe("allow:read-only");
		expect(bash("grep -n x {a,.env}")).toBe("review:protected-path");
	});

	it.each([
		["~/vault/[[:alnum:]]*", "~/vault/token"],
		["~/vault/[]x]key", "~/vault/xkey"],
		["secrets/[[:alpha:]]*", "secrets/db"],
		["conf/[]]*", "conf/]x"],
		["deploy/\\[prod\\].txt", "deploy/[prod].txt"],
	])("a protected glob with a class, a leading ] or an escape (%s) protects %s", (glob, path) => {
		expect(readWith([glob], path)).toBe("review:protected-path");
		expect(readWith([], path)).toMatch(/^allow:/);
	});
});

describe("what a twenty-seventh review got past: brace words that shift an option's value or a slot", () => {
	it.each([
		"sed -l {5,~/.ssh/id_rsa} -e p",
		"find -D {tree,~/.ssh} -type f",
		"find src -name a.txt | xargs -I {R,cat,~/.ssh/id_rsa} echo R",
		"nice -n {5,cat,~/.ssh/id_rsa} echo",
		"timeout --foreground -s {KILL,5,touch,/tmp/x} 5 echo",
		"timeout --foreground -k {1,touch,/tmp/x} 5 echo",
		"git log -p -- {src,.}",
		"git grep -h SECRET -- {src,.}",
		"git show {HEAD,abc1234^3}",
		"jq -R --rawfile x {a.txt,.} ~/.ssh/id_rsa",
		"jq -n --rawfile x {a.txt,env}",
	])("%s is reviewed", (command) => {
		expect(bash(command)).toMatch(/^review:/);
	});

	it.each([
		"cat {a,b}.py",
		"head -n 5 {a,b}.py",
		"grep -n x {a,b}.py",
		"nice -n 5 cat a.py",
		"timeout --foreground 5 cat a.py",
	])("%s stays allowed", (command) => {
		expect(bash(command)).toBe("allow:read-only");
	});

	it("a trusted command's glob is listed where links are followed (pytest -q t? meeting tl -> ~/other)", () => {
		const trusted = applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] });
		const command = "pytest -q t?";
		const context = floorContextFor(trusted, CWD, HOME, CLEAN_GIT);
		const requested = floorFactRequestsOf(command, context).linkPaths;
		const base = { ...context, pathLinks: new Map(requested.map((path) => [path, normalizeAbsolutePath(path)])) };
		const decide = (verdict: "none" | "unknown") =>
			outcome(decideBashFloor(command, "always", withCleanTrees(command, base, verdict)));
		expect(decide("unknown")).toMatch(/^review:/);
		expect(decide("none")).toBe("allow:trusted-command");
	});
});

describe("test and printf with a glob that may expand to -v", () => {
	it.each([
		"test ?v 'a[$(touch /tmp/m)]'",
		"test *v 'a[$(touch /tmp/m)]'",
		"test [-]v 'a[$(touch /tmp/m)]'",
		"test -? 'a[$(touch /tmp/m)]'",
		"[ ?v 'a[$(touch /tmp/m)]' ]",
		"printf ?v 'a[$(touch /tmp/m)]' 1",
	])("%s is reviewed", (command) => {
		expect(bash(command)).toMatch(/^review:/);
	});

	it.each([
		"test -f setup.py",
		"test -d src",
		"[ -d src ]",
		"[ -f setup.py ] && echo yes",
		"printf '%s\\n' x y",
		"test -n x",
	])("%s stays allowed", (command) => {
		expect(bash(command)).toBe("allow:read-only");
	});
});
