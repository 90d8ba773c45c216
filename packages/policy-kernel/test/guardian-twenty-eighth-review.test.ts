// What a twenty-eighth review got past the floor (each shown first in a real Pi session with real bash 5.2), pinned
// next to the look-alikes that stay allowed. Every "review" row was an "allow" before its fix.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideBashFloor,
	decideFloor,
	type FloorContext,
	floorContextFor,
	globMatches,
} from "../src/guardian/index.js";
import { outcome, withCleanTrees } from "./floor-outcome.js";

const HOME = "/home/dev";
const CWD = "/home/dev/project";
const CLEAN_GIT = {
	gitConfig: "safe",
	gitHooks: "none",
	gitHistoryProtected: [],
	gitContentSettings: [],
	gitTop: CWD,
} as const;
const config = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const trusted = applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] });
const trustedContext = floorContextFor(trusted, CWD, HOME, CLEAN_GIT);

function bash(command: string, context: FloorContext = clean): string {
	return outcome(decideBashFloor(command, "always", withCleanTrees(command, context)));
}

describe("a wrapper's own values are literal, or the command is reviewed", () => {
	it.each([
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["echo '5 bash -c cat${IFS}$HOME/.ssh/id_rsa'; nice -n $_ cat README.md"],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["true 'KILL 5 bash -c touch${IFS}/tmp/x'; timeout -s $_ 5 cat README.md"],
		["timeout -k $_ 5 cat README.md"],
		["time nice -n $_ cat README.md"],
		["nice -n $(echo 5 bash -c 'touch /tmp/x') cat README.md"],
		["nice -n `echo 5 sh` cat README.md"],
		["nice -n $N cat README.md"],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["nice -n ${N:-5} cat README.md"],
		["nice -n $((5)) cat README.md"],
		["timeout --signal $S 5 cat README.md"],
		["timeout --kill-after ~ 5 cat README.md"],
	])("%s", (command) => {
		expect(bash(command)).toBe("review:dynamic");
	});

	it("a trusted runner behind such a wrapper is reviewed too", () => {
		expect(bash("nice -n $_ pytest", trustedContext)).toBe("review:dynamic");
		expect(bash("nice -n 5 pytest", trustedContext)).toBe("allow:trusted-command");
	});

	it.each([
		["nice -n 5 cat README.md"],
		["nice -n '5' cat README.md"],
		["nice -10 cat README.md"],
		["timeout -s KILL 5 cat README.md"],
		["timeout -k 2 5 cat README.md"],
		["timeout --signal=TERM 5 cat README.md"],
		["time nice -n 5 cat README.md"],
	])("still allowed: %s", (command) => {
		expect(bash(command)).toMatch(/^allow:/);
	});
});

/** True when bash's own `case` matches `name` against `glob` (the C locale, as the bench and tests run). */
function bashMatches(glob: string, name: string): boolean {
	const out = execFileSync("bash", ["-c", 'case "$2" in $1) echo yes;; *) echo no;; esac', "_", glob, name], {
		encoding: "utf8",
		env: { ...process.env, LC_ALL: "C" },
	});
	return out.trim() === "yes";
}

describe("collating symbols and equivalence classes in protected globs", () => {
	const rows: readonly (readonly [string, string])[] = [
		["secret[[.-.]]*", "secret-token.txt"],
		["[[=a=]]pi-key.txt", "api-key.txt"],
		["x[[.hyphen.]]y", "x-y"],
		["x[[.a.]-c]y", "xby"],
		["x[[.a.][.b.]]y", "xby"],
		["x[[=a=]b]y", "xby"],
		["x[![.a.]]y", "xby"],
		["x[[.].]]y", "x]y"],
	];

	it.each(rows)("%s protects %s, as bash matches it", (glob, name) => {
		expect(bashMatches(glob, name)).toBe(true);
		expect(globMatches(glob, name)).toBe(true);
	});

	it("a one-character collating symbol is that character, and still no other", () => {
		expect(globMatches("x[[.a.]]y", "xay")).toBe(true);
		expect(globMatches("x[[.a.]]y", "xby")).toBe(false);
		expect(globMatches("x[![.a.]]y", "xay")).toBe(false);
		expect(globMatches("x[[=a=]]y", "x/y")).toBe(false);
	});

	it("a read of such a file is reviewed, and a file no glob names stays allowed", () => {
		const withGlobs = applyGuardianDefaults({
			mode: "enforce",
			protectedPaths: ["secret[[.-.]]*", "[[=a=]]pi-key.txt"],
		});
		const context = floorContextFor(withGlobs, CWD, HOME, CLEAN_GIT);
		const read = (path: string) => outcome(decideFloor("read", { path }, withGlobs, context));
		expect(read("secret-token.txt")).toBe("review:protected-path");
		expect(read("api-key.txt")).toBe("review:protected-path");
		expect(read("src/index.ts")).toMatch(/^allow:/);
		expect(bash("cat secret-token.txt", context)).toBe("review:protected-path");
	});
});
