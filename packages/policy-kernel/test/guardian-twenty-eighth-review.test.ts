// What a twenty-eighth review got past the floor (each shown first in a real Pi session with real bash 5.2), pinned
// next to the look-alikes that stay allowed. Every "review" row was an "allow" before its fix.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	globMatches,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome, withExistingFiles } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const trusted = applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] });
const trustedContext = floorContextFor(trusted, CWD, HOME, CLEAN_GIT);

function bash(command: string, context: FloorContext = clean): string {
	return bashOutcome(command, context);
}

describe("a wrapper's own values are literal, or the command is reviewed", () => {
	it.each([
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["echo '5 bash -c cat${IFS}$HOME/.ssh/id_rsa'; nice -n $_ cat README.md"],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["true 'KILL 5 bash -c touch${IFS}/tmp/x'; timeout --foreground -s $_ 5 cat README.md"],
		["timeout --foreground -k $_ 5 cat README.md"],
		["time nice -n $_ cat README.md"],
		["nice -n $(echo 5 bash -c 'touch /tmp/x') cat README.md"],
		["nice -n `echo 5 sh` cat README.md"],
		["nice -n $N cat README.md"],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["nice -n ${N:-5} cat README.md"],
		["nice -n $((5)) cat README.md"],
		["timeout --foreground --signal $S 5 cat README.md"],
		["timeout --foreground --kill-after ~ 5 cat README.md"],
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
		// In the foreground, as a `timeout` of its own process group is judged as a `&` part (a forty-eighth review).
		["timeout --foreground -s KILL 5 cat README.md"],
		["timeout --foreground -k 2 5 cat README.md"],
		["timeout --foreground --signal=TERM 5 cat README.md"],
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

/** Trusted runners of the kind the bench replays (the projects' test and script runners). */
const RUNNERS = [
	"pytest",
	"python3 -m pytest",
	"python <workspace file>",
	"python -m unittest",
	"python3 -m unittest",
	"python -m django test",
	"python -m py_compile",
	"python3 -m py_compile",
	"./tests/runtests.py",
	"bin/test",
	"sphinx-build",
];
const runners = applyGuardianDefaults({ mode: "enforce", trustedCommands: RUNNERS });

/** The runners' decision, where the workspace holds `existing` (paths relative to the workspace). */
function trustedBash(command: string, existing: readonly string[] = [], links?: ReadonlyMap<string, string>): string {
	return bash(command, withExistingFiles(floorContextFor(runners, CWD, HOME, CLEAN_GIT), existing, links));
}

describe("test labels a trusted unittest or Django runner imports", () => {
	it.each([
		["python3 -m unittest 'import os;os.system(1)' timeit.main"],
		["python -m unittest http.server.test"],
		["python -m unittest discover -s email"],
		["python -m unittest discover email"],
		["python -m unittest -v timeit.main"],
		["python -m unittest tests.test_a timeit.main"],
		["./tests/runtests.py timeit.main"],
		["python tests/runtests.py timeit.main"],
		["./tests/runtests.py --settings=antigravity migrations"],
		["./tests/runtests.py --settings antigravity migrations"],
		["python -m django test timeit.main"],
		["python -m django test --settings=ANYMODULE"],
		["python -m django test --testrunner=timeit.main"],
		["python -m unittest os.system"],
		["python -m unittest sys.exit"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, ["tests", "tests/migrations", "tests.py"])).toBe("review:not-read-only");
	});

	it.each([
		["python -m unittest tests.test_a.TestA.test_x", ["tests/__init__.py", "tests/test_a.py"]],
		["python3 -m unittest tests", ["tests.py"]],
		["python -m unittest -v tests.test_a", ["tests/__init__.py"]],
		["python -m unittest discover -s tests -p 'test_*.py'", ["tests/__init__.py"]],
		["python -m unittest discover -s . -k timeit", []],
		["python -m unittest discover tests", ["tests/__init__.py"]],
		[
			"./tests/runtests.py migrations expressions.tests -v 2 --parallel 1",
			["tests/migrations/__init__.py", "tests/expressions/__init__.py"],
		],
		["python tests/runtests.py --settings=test_sqlite queries", ["tests/test_sqlite.py", "tests/queries/__init__.py"]],
		["./tests/runtests.py --tag slow --exclude-tag selenium migrations", ["tests/migrations/__init__.py"]],
		["./tests/runtests.py -k test_timeit migrations", ["tests/migrations/__init__.py"]],
		[
			"python -m django test myapp --settings=mysite.settings",
			["myapp/__init__.py", "mysite/__init__.py", "mysite/settings.py"],
		],
		["python -m unittest tests/test_a.py", ["tests/__init__.py"]],
	])("allows %s where the workspace holds the modules", (command, existing) => {
		expect(trustedBash(command, existing)).toBe("allow:trusted-command");
	});

	it("reviews a label whose module the workspace does not hold, or holds through a link out", () => {
		expect(trustedBash("./tests/runtests.py migrations", [])).toBe("review:not-read-only");
		expect(trustedBash("python -m unittest tests.test_a", ["tests/test_a.py"])).toBe("review:not-read-only");
		const links = new Map([[`${CWD}/tests/__init__.py`, `${HOME}/elsewhere/tests/__init__.py`]]);
		expect(trustedBash("python -m unittest tests.test_a", ["tests/__init__.py"], links)).toBe("review:not-read-only");
		// Without the shell's answer (not checked), a label is reviewed.
		expect(bash("python -m unittest tests.test_a", floorContextFor(runners, CWD, HOME, CLEAN_GIT))).toBe(
			"review:not-read-only",
		);
	});

	it("reviews a stdlib label behind unittest's own __main__ too", () => {
		const all = applyGuardianDefaults({ mode: "enforce", trustedCommands: ["python -m unittest*"] });
		const context = {
			...floorContextFor(all, CWD, HOME, CLEAN_GIT),
			existingPaths: new Set([`${CWD}/tests/__init__.py`]),
		};
		expect(bash("python -m unittest.__main__ timeit.main", context)).toBe("review:not-read-only");
		expect(bash("python -m unittest.__main__ tests.test_a", context)).toBe("allow:trusted-command");
	});

	it("asks the shell about the folders a label may be imported from", () => {
		const context = floorContextFor(runners, CWD, HOME, CLEAN_GIT);
		expect(floorFactRequestsOf("./tests/runtests.py migrations.test_x", context).modulePaths).toEqual([
			`${CWD}/tests/migrations/__init__.py`,
			`${CWD}/tests/migrations.py`,
			`${CWD}/tests/migrations/test_x/__init__.py`,
			`${CWD}/tests/migrations/test_x.py`,
		]);
		expect(floorFactRequestsOf("python -m unittest tests", context).modulePaths).toEqual([
			`${CWD}/tests/__init__.py`,
			`${CWD}/tests.py`,
		]);
		expect(floorFactRequestsOf("pytest tests", context).modulePaths).toEqual([]);
	});
});

describe("trusted runner arguments that read stdin, start programs, go online or write what Pi loads", () => {
	it.each([
		["echo ~/.netrc | python3 -m py_compile -"],
		["python -m py_compile - < files.txt"],
		["pytest -q -d --tx 'popen//python=sh'"],
		["pytest -d --tx=ssh=evil.example"],
		["pytest -n1 --tx popen//python=python3.11"],
		["pytest --px socket=1.2.3.4:8888"],
		["pytest -o addopts=--tx=popen//python=sh"],
		["sphinx-build -b linkcheck docs _build/linkcheck"],
		["sphinx-build -M linkcheck docs _build"],
		["sphinx-build -blinkcheck docs _build"],
		["sphinx-build -Eb linkcheck docs _build"],
		["sphinx-build --builder=linkcheck docs _build"],
		["sphinx-build -D extensions=antigravity docs _build"],
		["sphinx-build -Dextensions=antigravity docs _build"],
		["sphinx-build --define extensions=x docs _build"],
	])("reviews %s", (command) => {
		expect(trustedBash(command)).toBe("review:not-read-only");
	});

	it.each([
		["python3 -m pytest -q --junitxml=AGENTS.md -o junit_logging=system-out"],
		["pytest --junitxml AGENTS.md"],
		["pytest --junitxml=docs/CLAUDE.md"],
		["pytest --report-log=.gitignore"],
		["pytest --junitxml=.gitattributes"],
	])("reviews %s", (command) => {
		expect(trustedBash(command)).toMatch(/^review:(protected-path|writes)$/);
	});

	it("reviews a write through a link to a context file", () => {
		const links = new Map([[`${CWD}/report.xml`, `${CWD}/AGENTS.md`]]);
		expect(trustedBash("pytest --junitxml=report.xml", [], links)).toBe("review:protected-path");
	});

	it.each([
		["python -m py_compile src/a.py"],
		["sphinx-build -b html docs _build/html"],
		["sphinx-build -M html docs _build"],
		["sphinx-build -D language=de docs _build"],
		["pytest -n 4 tests"],
		["pytest --junitxml=report.xml"],
	])("still allows %s", (command) => {
		expect(trustedBash(command)).toBe("allow:trusted-command");
	});
});

describe("a trusted pattern that names a relative path", () => {
	it("runs the workspace's script only where no link leads it out", () => {
		const out = new Map([
			[`${CWD}/bin/test`, `${HOME}/elsewhere/test`],
			[`${CWD}/./tests/runtests.py`, `${HOME}/elsewhere/tests/runtests.py`],
		]);
		expect(trustedBash("bin/test", [], out)).toBe("review:not-read-only");
		expect(trustedBash("./tests/runtests.py", [], out)).toBe("review:not-read-only");
		const inside = new Map([
			[`${CWD}/bin/test`, `${CWD}/bin/test`],
			[`${CWD}/./tests/runtests.py`, `${CWD}/tests/runtests.py`],
		]);
		expect(trustedBash("bin/test", [], inside)).toBe("allow:trusted-command");
		expect(trustedBash("./tests/runtests.py", [], inside)).toBe("allow:trusted-command");
	});
});

describe("a twenty-ninth review: labels, options and globs the round-28 rules missed", () => {
	it.each([
		// A workspace folder without __init__.py (or a file without .py) loses to the standard library's module.
		["python3 -m unittest '1;x' timeit.main", ["timeit", "timeit/main.py"]],
		// unittest turns a relative .py path into a dotted name.
		["python3 -m unittest '1;x' timeit/main.py", ["timeit", "timeit/main.py"]],
		["python3 -m unittest '1;x' ./timeit/main.py", ["timeit", "timeit/main.py"]],
		// A start folder in a bundle, attached, or abbreviated.
		["python3 -m unittest discover -sunittest -p test_break.py", []],
		["python3 -m unittest discover -s=unittest", []],
		["python3 -m unittest discover -vsemail", []],
		["python3 -m unittest discover --start=unittest", []],
		["python3 -m unittest discover --start-dir email", []],
		// Django option abbreviations, and its other commands.
		[
			"python -m django test --settings=mysite.settings --testr=this.X app",
			["mysite", "mysite/__init__.py", "app", "app/__init__.py"],
		],
		["python manage.py test --testr=this.X app", ["app", "app/__init__.py"]],
		["python manage.py shell -c x", []],
		["python manage.py runserver 0.0.0.0:8000", []],
		["python manage.py dbshell", []],
		["python manage.py sendtestemail a@example.com", []],
		["./tests/runtests.py --set=this migrations", ["tests/migrations", "tests/migrations/__init__.py"]],
		["./tests/runtests.py --pair=timeit.main migrations", ["tests/migrations", "tests/migrations/__init__.py"]],
		["./tests/runtests.py --bisect=this", []],
		// A workspace module named like the standard library's is still the standard library's when imported first.
		["python3 -m unittest zipfile.main", ["zipfile", "zipfile.py"]],
		// setup.py options that import a module.
		["python setup.py -q --command-packages=this zz", []],
		["python setup.py --com=this zz", []],
		["python setup.py -q test -s timeit.main", []],
		["python setup.py test --test-runner=this.X", []],
	])("reviews %s", (command, existing) => {
		expect(trustedBash(command, existing)).toBe("review:not-read-only");
	});

	it.each([
		["sphinx-build -q -D=extensions=this docs _build"],
		["sphinx-build -q -b=linkcheck docs _build/lc"],
		["sphinx-build --b linkcheck docs _build"],
		["sphinx-build --build linkcheck docs _build"],
		["sphinx-build --def=extensions=x docs _build"],
	])("reviews %s", (command) => {
		expect(trustedBash(command)).toBe("review:not-read-only");
	});

	it.each([
		["python3 manage.py test app", ["app/__init__.py"]],
		["python3 manage.py check", []],
		["python3 manage.py makemigrations app", []],
		["python3 manage.py test app --parallel auto -v 2", ["app/__init__.py"]],
		["python3 -m unittest discover -s tests -t .", ["tests/__init__.py"]],
		["python3 -m unittest discover --pat 'test_*.py' -s tests", ["tests/__init__.py"]],
		["python3 setup.py build_ext --inplace", []],
		["sphinx-build -b=html docs _build"],
	])("still allows %s", (command, existing = []) => {
		const all = applyGuardianDefaults({
			mode: "enforce",
			trustedCommands: [...RUNNERS, "python3 <workspace file>"],
		});
		const context: FloorContext = {
			...floorContextFor(all, CWD, HOME, CLEAN_GIT),
			existingPaths: new Set((existing as readonly string[]).map((path) => `${CWD}/${path}`)),
		};
		expect(bash(command, context)).toBe("allow:trusted-command");
	});

	it("a range that ends in a collating symbol or an escaped character covers what bash matches", () => {
		expect(bashMatches("secret[a-[.z.]]*", "secretb.txt")).toBe(true);
		expect(globMatches("secret[a-[.z.]]*", "secretb.txt")).toBe(true);
		expect(bashMatches("token[0-\\9]", "token5")).toBe(true);
		expect(globMatches("token[0-\\9]", "token5")).toBe(true);
		expect(globMatches("x[a-\\z]y", "xmy")).toBe(true);
		expect(globMatches("x[a-\\z]y", "xAy")).toBe(false);
	});
});
