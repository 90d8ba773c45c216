// The thirtieth review's trusted-runner rules, pinned entry by entry: every stdin redirect that feeds a runner, the
// `< /dev/null` exemption (only for `<`), the test class and method a label may name after its modules, a module
// file that ends the import path, a removal before a runner given no label, the module paths asked of the shell,
// and each of Sphinx's offline builders, plain -D settings and setup.py's build commands.
import { describe, expect, it } from "vitest";
import { applyGuardianDefaults, decideBashFloor, floorContextFor, floorFactRequestsOf } from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome, withCleanTrees, withExistingFiles } from "./floor-outcome.js";

const RUNNERS = [
	"pytest",
	"python3 -m pytest",
	"python3 <workspace file>",
	"python3 -m unittest",
	"python3 -m django test",
	"sphinx-build",
	"python3 -",
];
const runners = applyGuardianDefaults({ mode: "enforce", trustedCommands: RUNNERS });

/** The runners' decision, where the workspace holds `existing` (paths relative to the workspace). */
function trustedBash(command: string, existing: readonly string[] = []): string {
	return bashOutcome(command, withExistingFiles(floorContextFor(runners, CWD, HOME, CLEAN_GIT), existing));
}

const TESTS = ["tests/__init__.py", "tests/test_a.py"];

describe("every redirect that feeds stdin makes a trusted runner reviewed", () => {
	it.each([
		["python3 -m pytest --trace tests <> notes.txt"],
		["python3 -m pytest --trace tests <&3"],
		["python3 -m pytest --trace tests <<-EOF\n\timport os\n\tEOF"],
		// Only `<` from /dev/null gives no input: a here-string's text is fed even when it reads "/dev/null".
		["python3 -m pytest --pdb tests <<< /dev/null"],
		["python3 -m pytest --pdb tests <> /dev/null"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("review:not-read-only");
	});
});

describe("a workspace script run alone may read a fed stdin, whatever path or version names the interpreter", () => {
	it.each([
		[".venv/bin/python3 <workspace file>", ".venv/bin/python3 fix.py < src/a.py"],
		["/usr/bin/python3 <workspace file>", "cat src/a.py | /usr/bin/python3 fix.py"],
		["python3.12 <workspace file>", "python3.12 fix.py < src/a.py"],
	])("trusting %s allows %s", (pattern, command) => {
		const context = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", trustedCommands: [pattern] }),
			CWD,
			HOME,
			CLEAN_GIT,
		);
		expect(outcome(decideBashFloor(command, "always", withCleanTrees(command, context)))).toBe("allow:trusted-command");
	});
});

describe("what a test label may name after its modules", () => {
	it.each([
		["python3 -m unittest tests.test_a.ParserCase"],
		["python3 -m unittest tests.test_a.ParserCase.test_empty"],
		["python3 -m unittest tests.test_a.test_case"],
	])("allows a test class named in capitals or test_: %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("allow:trusted-command");
	});

	it.each([
		["python3 -m unittest tests.test_a.TestA.setUpClass"],
		["python3 -m unittest tests.test_a.TestA.helper"],
		["python3 -m unittest tests.test_a.ParserCase.run"],
	])("reviews a method that is no test: %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("review:not-read-only");
	});

	it("ends the import path at a module file: a folder of the same name beside it is never imported", () => {
		// tests/test_a.py is a module, so `sys` is what it imported, even with tests/test_a/sys.py on disk.
		expect(trustedBash("python3 -m unittest tests.test_a.sys.TestX", [...TESTS, "tests/test_a/sys.py"])).toBe(
			"review:not-read-only",
		);
		expect(trustedBash("python3 -m unittest tests.test_a.TestX", [...TESTS, "tests/test_a/sys.py"])).toBe(
			"allow:trusted-command",
		);
	});
});

describe("a label's package comes before a module of the same name", () => {
	it("imports a package before a module of the same name beside it", () => {
		const files = [...TESTS, "tests/sub.py", "tests/sub/__init__.py", "tests/sub/test_b.py", "tests/sub/sys.py"];
		expect(trustedBash("python3 -m unittest tests.sub.test_b.TestB", files)).toBe("allow:trusted-command");
		expect(trustedBash("python3 -m unittest tests.sub.sys.TestX", files)).toBe("allow:trusted-command");
	});
});

describe("a removal earlier in the command matters only to a runner that imports a label", () => {
	it.each([
		["rm notes.txt; python3 -m unittest", TESTS],
		["rm notes.txt; python3 manage.py check", ["manage.py"]],
		["rm notes.txt && python3 -m pytest -q tests", TESTS],
	])("allows %s", (command, existing) => {
		expect(trustedBash(command, existing)).toBe("allow:workspace-write");
	});
});

describe("the module paths a label asks the shell about", () => {
	const context = floorContextFor(runners, CWD, HOME, CLEAN_GIT);
	const label = (parts: number) => ["tests", ...Array.from({ length: parts - 1 }, (_, index) => `m${index}`)].join(".");

	it("asks two paths for each of 40 parts (more than the 64 link paths)", () => {
		const paths = floorFactRequestsOf(`python3 -m unittest ${label(40)}`, context).modulePaths;
		expect(paths).toHaveLength(80);
		expect(paths.at(-1)).toBe(`${CWD}/tests/${Array.from({ length: 39 }, (_, index) => `m${index}`).join("/")}.py`);
	});

	it("asks at most 256 paths for one call", () => {
		expect(floorFactRequestsOf(`python3 -m unittest ${label(200)}`, context).modulePaths).toHaveLength(256);
	});
});

describe("sphinx-build: each offline builder and plain -D setting is allowed", () => {
	it.each([
		["html"],
		["dirhtml"],
		["singlehtml"],
		["text"],
		["man"],
		["texinfo"],
		["latex"],
		["xml"],
		["pseudoxml"],
		["json"],
		["pickle"],
		["epub"],
		["changes"],
		["gettext"],
		["dummy"],
		["doctest"],
		["coverage"],
	])("allows -b %s", (builder) => {
		expect(trustedBash(`sphinx-build -b ${builder} docs _build`)).toBe("allow:trusted-command");
		expect(trustedBash(`sphinx-build -M ${builder} docs _build`)).toBe("allow:trusted-command");
	});

	it.each([
		["project=Demo"],
		["author=Dev"],
		["copyright=2026"],
		["version=2.0"],
		["release=2.0.1"],
		["language=de"],
		["today=Monday"],
		["today_fmt=%Y"],
		["root_doc=index"],
		["master_doc=index"],
		["nitpicky=1"],
		["show_authors=1"],
		["html_title=Demo"],
		["html_short_title=Demo"],
		["keep_warnings=1"],
		["smartquotes=0"],
	])("allows -D %s", (setting) => {
		expect(trustedBash(`sphinx-build -D ${setting} -b html docs _build`)).toBe("allow:trusted-command");
	});
});

describe("a trusted setup.py: each build command is allowed", () => {
	it.each([
		["build"],
		["build_py"],
		["build_ext"],
		["build_clib"],
		["build_scripts"],
		["egg_info"],
		["dist_info"],
		["sdist"],
		["bdist"],
		["bdist_wheel"],
		["check"],
		["clean"],
		["test"],
	])("allows python3 setup.py %s", (command) => {
		expect(trustedBash(`python3 setup.py ${command}`, ["setup.py"])).toBe("allow:trusted-command");
	});
});
