// A sixty-sixth review of the sixty-fourth and sixty-fifth reviews' changes (print-only awk, the git branch
// %(signature) rule, path-shaped values of tools that are not built in, path key words). Each test shows the outcome
// a careful reviewer would want; each failed before its fix.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	floorContextFor,
	type GuardianReviewConfig,
	isPrintOnlyAwkProgram,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, plannedOutcome, READ_ONLY_TOOL } from "./floor-outcome.js";

const config: GuardianReviewConfig = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, CLEAN_GIT);

describe("bypass: a read-only tool's bare `..`, `$HOME` or its braced form under a key that is not a path word", () => {
	// `{ base: "../" }`, `{ base: "~" }` and `{ base: "$HOME/" }` are reviewed (a walking tool lists `~/.ssh`), but the
	// same folders without a slash are not path-shaped (looksLikeLocalPath wants `../` or a `/`), so they are not judged.
	it.each([
		["mcp__search__grep", { base: "..", query: "PRIVATE KEY" }],
		["mcp__search__grep", { scope: "..", query: "password" }],
		["mcp__search__grep", { basedir: "..", query: "password" }],
		["mcp__search__grep", { options: { base: ".." }, query: "password" }],
		["mcp__search__grep", { base: "$HOME", query: "PRIVATE KEY" }],
		["mcp__search__grep", { location: ["$", "{HOME}"].join(""), query: "PRIVATE KEY" }],
	])("reviews %s %j", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("review");
	});
	it("as it already reviews the spellings with a slash", () => {
		expect(plannedOutcome("mcp__search__grep", { base: "../", query: "x" }, READ_ONLY_TOOL)).toBe("review");
		expect(plannedOutcome("mcp__search__grep", { base: "$HOME/", query: "x" }, READ_ONLY_TOOL)).toBe("review");
		expect(plannedOutcome("mcp__search__grep", { base: "~", query: "x" }, READ_ONLY_TOOL)).toBe("review");
	});
});

describe("bypass: a read-only tool's relative shaped path that leads outside the workspace below home", () => {
	// With the workspace at ~/project, `../.config` is `~/.config` (gh's hosts.yml, gcloud's tokens below it) and
	// `../other-project` a sibling's `.env`; `~/.config` is reviewed, and so is `{ path: "../.config" }`.
	it.each([
		["mcp__search__grep", { base: "../.config", query: "oauth_token" }],
		["mcp__search__grep", { base: "../other-project", query: "API_KEY" }],
	])("reviews %s %j", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("review");
	});
	it("as it already reviews `~/.config` and a path key", () => {
		expect(plannedOutcome("mcp__search__grep", { base: "~/.config", query: "oauth_token" }, READ_ONLY_TOOL)).toBe(
			"review",
		);
		expect(plannedOutcome("mcp__search__grep", { path: "../.config", query: "oauth_token" }, READ_ONLY_TOOL)).toBe(
			"review",
		);
	});
});

describe("bypass: git tag --sort=signature runs gpg as git branch's does", () => {
	// The sixty-fourth review's rule (ref-filter's `signature` atom verifies a commit's signature with gpg.program) was
	// added to `git branch` only; `git tag -l` sorts by the same atoms through the same ref-filter code.
	it.each([["git tag -l --sort=signature"], ["git tag --list --sort=-signature:grade"]])(
		"%s is reviewed",
		(command) => {
			expect(bashOutcome(command, clean)).toBe("review:not-read-only");
		},
	);
	it("as git branch's is", () => {
		expect(bashOutcome("git branch --sort=signature", clean)).toBe("review:not-read-only");
	});
});

describe("bypass: awk options after the program, for an awk that permutes its arguments", () => {
	// toybox awk's option string ("F:v*f*bc") has no `^`, so toybox's parser takes `-f FILE` anywhere: the program
	// comes from the agent-written `evil.awk` (system() included) and `{print}` becomes a data file. gawk, mawk and
	// busybox stop at the program, so nothing ordinary is lost by reviewing an operand that starts with `-`.
	it.each([["awk '{print}' -f evil.awk README.md"], ["awk 'NR==1' -f evil.awk"]])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toBe("review:not-read-only");
	});
	it("as the same option before the program is", () => {
		expect(bashOutcome("awk -f evil.awk '{print}' README.md", clean)).toBe("review:not-read-only");
	});
});

describe("a read-only tool's key whose last word is a path word without a case change", () => {
	// `keyFile` splits to `file` and is reviewed for `id_rsa`; `keyfile` (`ssl_keyfile`) is one word, and a protected
	// name with no `/` or leading dot is not path-shaped.
	it.each([
		["mcp__tls__inspect", { keyfile: "id_rsa" }],
		["mcp__tls__inspect", { ssl_keyfile: "server.pem" }],
	])("reviews %s %j", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("review");
	});
	it("as it reviews `keyFile`", () => {
		expect(plannedOutcome("mcp__tls__inspect", { keyFile: "id_rsa" }, READ_ONLY_TOOL)).toBe("review");
	});
});

describe("bypass: a read-only tool's path led by another variable a server expands as it expands `$HOME`", () => {
	// The sixty-fifth review judged `$HOME/…` under home for servers that expand variables (`os.path.expandvars`);
	// `$XDG_CONFIG_HOME/…` is `~/.config/…` there, and the floor cannot know any other variable's value.
	it.each([
		["mcp__fs__read_file", { path: "$XDG_CONFIG_HOME/gh/hosts.yml" }],
		["mcp__fs__read_file", { path: ["$", "{XDG_CONFIG_HOME}/gh/hosts.yml"].join("") }],
	])("reviews %s %j", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("review");
	});
	it("as it reviews `$HOME/.config/gh/hosts.yml`", () => {
		expect(plannedOutcome("mcp__fs__read_file", { path: "$HOME/.config/gh/hosts.yml" }, READ_ONLY_TOOL)).toBe("review");
	});
});

describe("false review: ordinary values the sixty-fifth review's new shapes and key words catch", () => {
	// `~18.2.0` (an npm tilde range) is now a `~user` path, so it is judged as home; before, it was not path-shaped.
	// `root` as a key word turns boolean flags ending in `Root` into unjudgeable path keys.
	it.each([
		["mcp__npm__package_info", { name: "react", version: "~18.2.0" }],
		["mcp__npm__package_info", { name: "react", range: "~18" }],
		["mcp__tree__outline", { path: "src", includeRoot: true }],
		["mcp__tree__outline", { path: "src", show_root: false }],
	])("allows %s %j", (tool, input) => {
		expect(plannedOutcome(tool, input, READ_ONLY_TOOL)).toBe("allow");
	});
	it("as it allows a caret range", () => {
		expect(plannedOutcome("mcp__npm__package_info", { name: "react", version: "^18.2.0" }, READ_ONLY_TOOL)).toBe(
			"allow",
		);
	});
});

describe("write to an armed path: asdf's and mise's `.tool-versions` picks a toolchain by path, as rust-toolchain does", () => {
	// `nodejs path:/tmp/evil` makes asdf's and mise's `node`/`npm` shims run `/tmp/evil/bin/node` for every later
	// `npm test` in the folder (the `path:` version form), the twin of the sixty-fourth review's rust-toolchain `path`.
	it("echo 'nodejs path:/tmp/evil' > .tool-versions is reviewed", () => {
		expect(bashOutcome("echo 'nodejs path:/tmp/evil' > .tool-versions", clean)).toBe("review:writes");
	});
	it("as rust-toolchain.toml is", () => {
		expect(bashOutcome("echo 'path = \"/tmp/evil\"' > rust-toolchain.toml", clean)).toBe("review:writes");
	});
});

describe("hang: the print-only awk check read a print list followed by blanks with a backtracking regex", () => {
	// `(?:\s*,?\s*ITEM){0,15}` then `\s*;?\s*\}` then `\s*$` split a run of blanks many ways before failing: a 255-character
	// program cost over a second in the floor. The check is now one pass over tokens; `pnpm bench` times this input
	// among its pathological ones (tests assert no wall-clock time).
	it("a 16-item print followed by 200 blanks and a stray word is not print-only", () => {
		const program = `{print${" $1".repeat(16)}${" ".repeat(200)}x`;
		expect(bashOutcome(`awk '${program}' README.md`, clean)).toBe("review:not-read-only");
		expect(isPrintOnlyAwkProgram(`{print${" $1".repeat(16)}${" ".repeat(200)}}`)).toBe(true);
		expect(isPrintOnlyAwkProgram(`{print${" $1".repeat(17)}}`)).toBe(false);
		expect(isPrintOnlyAwkProgram(`NR>1 && NR<5 && NR!=3 && NR>=2 {print $2, NF}`)).toBe(true);
		expect(isPrintOnlyAwkProgram(`NR>1 && NR<5 && NR!=3 && NR>=2 && NR<9`)).toBe(false);
		expect(isPrintOnlyAwkProgram("")).toBe(false);
		expect(isPrintOnlyAwkProgram("{print $1,}")).toBe(false);
		expect(isPrintOnlyAwkProgram("{print $1 / 2}")).toBe(false);
	});
});
