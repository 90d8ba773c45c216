// A mutation audit of the day's floor changes (awk, date, LANGUAGE, BSD sed, options after operands, armed code
// folders, case-insensitive armed paths, server path variants, path key words): each row kills a mutant that
// survived the kernel's tests and changed a decision. Every row passes today.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	type FloorContext,
	floorContextFor,
	initialGuardianState,
	planToolCall,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const base: FloorContext = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const clean = base;
/** macOS: the shell's facts of a BSD userland, whose options end at the first operand. */
const mac: FloorContext = { ...base, bsdUserland: true, optionsEndAtOperand: true };
void HOME;

describe("awk: the tokenizer's string and regex tokens, the unread tail and what follows the first action", () => {
	it.each<[string]>([
		// mawk and gawk read `\"` inside a string as a quote: the tokenizer's second string is then awk code, which
		// runs `system(FILENAME)` for every line (checked with mawk). Kills a string token that takes a backslash.
		[`awk '{print "\\", "; system(FILENAME); #"\n}' ./run.sh`],
		// An escaped `/` keeps awk's regex open into the tokenizer's string: `(system(FILENAME))` then runs per line.
		// Kills a regex token that takes any character but `/`.
		[`awk '/a\\/ {print "/ (system(FILENAME)) {#"\n}' ./run.sh`],
		// Text the tokenizer cannot read after a valid pattern or action: awk concatenates `/x/` with `system(...)`'s
		// result and runs it per line. Kills dropping the unread-tail check.
		[`awk '/x/(system("id"))' README.md`],
		[`awk 'NR==1(system("id"))' README.md`],
		// A second action after the first: every token is readable, so only the end check stops it (it writes
		// `~/.bashrc`).
		[`awk '{print $1} {print > "/home/dev/.bashrc"}' README.md`],
		// `-f` bundled with its file: prog.awk is the program, and `{print}` only a file operand.
		[`awk -fprog.awk '{print}' README.md`],
		[`awk -F: -fprog.awk '{print}' README.md`],
		// Print-only means print: another statement in the action slot is not read (`getline` reads on).
		[`awk '{getline}' README.md`],
	])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toBe("review:not-read-only");
	});
});
describe("date: a value in the same word as -d, -f or -r does not take the next word", () => {
	// `-d@0` holds its value: the next word is an operand, a clock setting (BSD's `date -r0 0101…` sets it too).
	it.each<[string]>([["date -d@0 010100002030"], ["date -rREADME.md 010100002030"]])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toBe("review:writes");
	});
});

describe("options after an operand on macOS: a lone `-` is stdin, not an option", () => {
	it.each<[string]>([["cat README.md -"], ["diff README.md -"]])("%s is allowed on macOS", (command) => {
		expect(bashOutcome(command, mac)).toBe("allow:read-only");
	});
});
describe("LANGUAGE: a name with a `/` anywhere, or a leading dot, is a catalog path", () => {
	it.each<[string]>([
		["LANGUAGE=x/../../../../home/dev/project/loc ls nonexist"],
		["LANGUAGE=de/../../../../home/dev/project/loc:en git status"],
		["LANGUAGE=.. ls nonexist"],
	])("%s is reviewed", (command) => {
		expect(bashOutcome(command, clean)).toMatch(/^review:/);
	});
});

describe("BSD sed: `-l` takes no value, so the next word is the script", () => {
	// On macOS the script is `w ~/.bashrc`; read as GNU's `-l N` the script would be `p`.
	it.each<[string]>([["sed -l 'w /home/dev/.bashrc' p README.md"]])("%s is not allowed on macOS", (command) => {
		expect(bashOutcome(command, mac)).not.toMatch(/^allow/);
	});
});
describe("BSD sed: a suffix glued to `-i` does not take the next word", () => {
	// On macOS `-i.bak` holds its suffix: `1w .envrc` is the script, which writes direnv's file.
	it.each<[string]>([["sed -i.bak '1w .envrc' 's/a/b/' notes.txt"]])("%s is not allowed on macOS", (command) => {
		expect(bashOutcome(command, mac)).not.toMatch(/^allow/);
	});
});
describe("a move that renames a folder into another agent's code folder", () => {
	// opencode loads every file below `.opencode/` as a plugin, Gemini CLI every extension below `.gemini/extensions/`.
	it.each<[string]>([
		["mv staged .opencode"],
		["mv staged .gemini/extensions"],
		["mv staged .Opencode"],
		["mv staged .venv/lib/python3.12"],
	])("%s is reviewed", (command) => {
		expect(bashOutcome(command, base)).not.toMatch(/^allow/);
	});
});

describe("server path survivors the shared fixture could not show (m5's leftovers)", () => {
	const config = applyGuardianDefaults({ mode: "enforce" });
	/** A read-only MCP tool's call planned with the workspace `cwd`, home `home` and the shell's `links`. */
	const planIn = (cwd: string, home: string, input: unknown, links?: ReadonlyMap<string, string | null>): string => {
		const floorContext = {
			...floorContextFor(config, cwd, home),
			...(links === undefined ? {} : { pathLinks: links }),
		};
		const step = planToolCall(initialGuardianState(), {
			toolName: "mcp__search__grep",
			input,
			hash: "h",
			tool: { builtin: false, readOnlyHint: true },
			config,
			mode: "enforce",
			floorContext,
			now: 1_000,
			hasUI: false,
		});
		return step.next.kind === "done" ? step.next.resolution.kind : step.next.kind;
	};

	it("a `..` between backslashes climbs for a Windows server", () => {
		expect(planIn("/home/dev/project", "/home/dev", { path: "lib\\..\\x" })).toBe("review");
		expect(planIn("/home/dev/project", "/home/dev", { path: "lib\\x" })).toBe("allow");
	});

	it("a shaped value naming home is reviewed when the workspace lies outside home", () => {
		expect(planIn("/srv/app", "/home/dev", { base: "/home/dev", query: "KEY" })).toBe("review");
		expect(planIn("/srv/app", "/home/dev", { base: "/srv/app/src", query: "KEY" })).toBe("allow");
	});

	it("a shaped value is judged where its link leads", () => {
		const links = new Map<string, string | null>([["/srv/app/lib", "/home/dev"]]);
		expect(planIn("/srv/app", "/home/dev", { base: "lib/", query: "KEY" }, links)).toBe("review");
	});

	it("`~user/…` is also that user's folder beside home: inside this workspace by home, outside by the user", () => {
		expect(planIn("/home/me/project", "/home/me", { path: "~bob/project/x" })).toBe("review");
		expect(planIn("/home/me/project", "/home/me", { path: "~_svc/project/x" })).toBe("review");
		expect(planIn("/home/me/project", "/home/me", { path: "x" })).toBe("allow");
	});
});
