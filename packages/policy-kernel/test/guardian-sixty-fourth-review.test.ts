// A sixty-fourth review: bash commands the floor allowed without a model, and ordinary ones it reviewed. Each test
// shows the outcome a careful reviewer would want; each failed before its fix.
import { describe, expect, it } from "vitest";
import { applyGuardianDefaults, decideFloor, floorContextFor } from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, CLEAN_GIT);

describe("bypass: LANGUAGE is a gettext search path, not a locale name", () => {
	// gettext opens /usr/share/locale/<LANGUAGE>/LC_MESSAGES/<domain>.mo, `..` included, and printf runs its
	// translations as formats: a catalog the agent wrote (`base64 -d x > loc/LC_MESSAGES/git.mo` is a workspace
	// write) turns `cannot access %s` into `%p %p %n…` in ls, grep, sed or git.
	it.each<[string]>([
		["LANGUAGE=../../../../home/dev/project/loc ls nonexist"],
		["LANGUAGE=../../../../home/dev/project/loc git status"],
		// With Pi in the C locale too: LC_ALL=C.UTF-8 is an allowed prefix, and gettext then reads LANGUAGE.
		["LC_ALL=C.UTF-8 LANGUAGE=../../../../home/dev/project/loc ls nonexist"],
		["LANGUAGE=de:../../../../home/dev/project/loc grep -r x src"],
	])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toMatch(/^review:/);
	});
});

describe("bypass: git branch --format with ref-filter's %(signature) atom runs gpg", () => {
	// Git's for-each-ref family learned %(signature), %(signature:grade|signer|key|…) (ks/ref-filter-signature),
	// which verify the commit's signature by running gpg.program (or ssh-keygen for gpg.format=ssh), as %G? does in
	// git log, which the floor reviews; git branch shares that ref-filter code.
	it.each<[string]>([
		["git branch --format='%(signature)'"],
		["git branch -l --format='%(signature:grade)'"],
		["git branch -a --format='%(refname:short) %(signature:signer)'"],
	])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toBe("review:not-read-only");
	});
	it("as git log's %G? already is", () => {
		expect(bashOutcome("git log --format='%G?'", clean)).toBe("review:not-read-only");
	});
});

describe("write to an armed path: tool configs that run a program with no prompt", () => {
	it.each<[string, string]>([
		// rustup runs `<path>/bin/cargo` for every cargo/rustc in the folder, rust-analyzer's too (floor.ts itself
		// says so of `cargo --version`); the `.cargo/config.toml` beside it is armed.
		["printf '[toolchain]\\npath = \"/tmp/tc\"\\n' > rust-toolchain.toml", "rust-toolchain.toml"],
		["echo x > rust-toolchain", "legacy rust-toolchain"],
		// yarn 1 runs `yarn-path` with node at every `yarn` in the folder (`.yarnrc.yml`'s yarnPath twin).
		["echo 'yarn-path \"./x.js\"' > .yarnrc", ".yarnrc"],
		// opencode loads every .ts/.js in a project's .opencode/plugins/ at startup (opencode.json beside it is armed;
		// Pi's own .pi/extensions/ is protected).
		["echo 'export const P = async ({ $ }) => { await $`id`; return {} }' > .opencode/plugins/p.ts", "opencode plugin"],
		// Cursor's project hooks run their commands around the agent loop (`.claude/settings.json`'s twin).
		['echo \'{"version":1,"hooks":{"stop":[{"command":"./x"}]}}\' > .cursor/hooks.json', "cursor hooks"],
	])("%s (%s) is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toBe("review:writes");
	});
});

describe("write to an armed path by Pi's write tool", () => {
	it.each<[string]>([["rust-toolchain.toml"], [".yarnrc"], [".opencode/plugins/p.ts"], [".cursor/hooks.json"]])(
		"write %s is reviewed",
		(path) => {
			expect(outcome(decideFloor("write", { path, content: "x" }, config, clean))).toMatch(/^review:/);
		},
	);
});

describe("false review: ordinary date forms", () => {
	// The README lists `date (not -s)`; `-d STRING` prints a date and sets nothing, `-Iseconds` is `-I` with its value.
	it.each<[string]>([
		["date -d @1733400000"],
		["date -d '2 days ago' +%F"],
		["date -u -d @1733400000 +%FT%T"],
		["date -Iseconds"],
	])("%s is allowed", (command) => {
		expect(bashOutcome(command, clean)).toBe("allow:read-only");
	});
});

describe("false review: print-only awk, an everyday agent filter", () => {
	// exploration-guard already tells a print-only awk program from one with system(), getline or a redirect
	// (src/exploration/bash.ts); the guardian floor reviews every awk.
	it.each<[string]>([
		["wc -l README.md | awk '{print $1}'"],
		["awk -F: '{print $1}' docs/users.txt"],
		["awk 'NR>=10 && NR<=20' README.md"],
	])("%s is allowed", (command) => {
		expect(bashOutcome(command, clean)).toBe("allow:read-only");
	});
});

describe("awk beyond print-only stays reviewed", () => {
	it.each<[string, string]>([
		[`awk '{print $1 > "/tmp/x"}' README.md`, "review:not-read-only"],
		[`awk '{print | "sh"}' README.md`, "review:not-read-only"],
		[`awk 'BEGIN{system("id")}'`, "review:not-read-only"],
		[`awk '{system($0)}' README.md`, "review:not-read-only"],
		[`awk '{print ENVIRON["OPENAI_API_KEY"]}'`, "review:not-read-only"],
		[`awk '{ "date" | getline d; print d }' README.md`, "review:not-read-only"],
		[`awk '{print $1}{system("id")}' README.md`, "review:not-read-only"],
		["awk '{print $1}\n{system(\"id\")}' README.md", "review:not-read-only"],
		[`awk '{print "a>b"}' README.md`, "review:not-read-only"],
		["awk -f prog.awk README.md", "review:not-read-only"],
		["awk -v x=1 '{print $1}' README.md", "review:not-read-only"],
		["awk '{print $1}' x=1 README.md", "review:not-read-only"],
		[`awk '{ print }' 'print > "out"'`, "review:not-read-only"],
		["awk --exec prog.awk README.md", "review:not-read-only"],
		["awk '{print $1}' ~/.ssh/id_rsa", "review:dynamic"],
		["awk '/KEY/' .env", "review:protected-path"],
		["awk '{print $1}' /etc/passwd", "review:outside-workspace"],
		["awk '{print $1}' *.txt", "review:dynamic"],
		["awk '{print $1}' $(ls)", "review:dynamic"],
		["awk $PROG README.md", "review:dynamic"],
	])("%s is %s", (command, expected) => {
		expect(bashOutcome(command, clean)).toBe(expected);
	});

	it.each<[string, string]>([
		["awk 'NR==1 {print $1}' README.md", "allow:read-only"],
		["awk -F'|' '{print $2, $NF}' docs/users.txt", "allow:read-only"],
		["awk '/TODO/ {print NR}' src/a.py", "allow:read-only"],
		["ls -l | awk '{print $5}' > sizes.txt", "allow:workspace-write"],
	])("%s is %s", (command, expected) => {
		expect(bashOutcome(command, clean)).toBe(expected);
	});
});

describe("git tag's listing with annotations", () => {
	it("git tag -l -n9 is allowed; a signature sort key stays reviewed", () => {
		expect(bashOutcome("git tag -l -n9", clean)).toBe("allow:read-only");
		expect(bashOutcome("git tag -n -l 'v1.*'", clean)).toBe("allow:read-only");
		expect(bashOutcome("git tag -l --sort=signature", clean)).toBe("review:not-read-only");
	});
});
