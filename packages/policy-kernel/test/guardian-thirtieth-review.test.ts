// What a thirtieth review got past the floor's trusted runners (each shown first in a real Pi session with real
// bash, python3, pytest, Django 5.2 and Sphinx 9.0), pinned next to the look-alikes that stay allowed. Every
// "review" row was an "allow" before its fix.
import { describe, expect, it } from "vitest";
import { applyGuardianDefaults, floorContextFor, floorFactRequestsOf } from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, withExistingFiles } from "./floor-outcome.js";

const RUNNERS = [
	"pytest",
	"python3 -m pytest",
	"python3 <workspace file>",
	"python3 -m unittest",
	"python3 -m django test",
	"./tests/runtests.py",
	"sphinx-build",
	"python3 -",
	"python3 -m py_compile",
];
const runners = applyGuardianDefaults({ mode: "enforce", trustedCommands: RUNNERS });

/** The runners' decision, where the workspace holds `existing` (paths relative to the workspace). */
function trustedBash(command: string, existing: readonly string[] = []): string {
	return bashOutcome(command, withExistingFiles(floorContextFor(runners, CWD, HOME, CLEAN_GIT), existing));
}

const TESTS = ["tests/__init__.py", "tests/test_a.py"];
const DJANGO = ["manage.py", "proj/__init__.py", "proj/settings.py", "app/__init__.py"];

describe("a test label walks only through workspace modules, then at most a test class and method", () => {
	it.each([
		// unittest follows the label into what test_a imported, and calls the hook (pdb reads stdin).
		["python3 -m unittest tests.test_a.unittest.case.sys.breakpointhook"],
		["python3 -m unittest tests.test_a.sys.breakpointhook"],
		["python3 -m unittest tests.test_a.code.interact"],
		["python3 -m unittest tests.test_a.TestA.test_x.extra"],
		["python3 manage.py test tests.test_a.unittest.main"],
		["python3 -m django test --settings=proj.settings tests.test_a.os.getcwd"],
		// A package's attribute: what its __init__ imported.
		["python3 -m unittest tests.pip.main"],
		// The runner's own __main__ is imported before any label, whatever folders the workspace holds (a
		// thirty-first review).
		["python3 -m unittest __main__.sys.breakpointhook"],
		["python3 -m unittest __main__.TestX"],
	])("reviews %s", (command) => {
		expect(
			trustedBash(command, [
				...TESTS,
				...DJANGO,
				"__main__/__init__.py",
				"__main__/sys/__init__.py",
				"__main__/sys/breakpointhook/__init__.py",
			]),
		).toBe("review:not-read-only");
	});

	it.each([
		["python3 -m unittest tests.test_a.TestA.test_x"],
		["python3 -m unittest tests.test_a.TestA"],
		["python3 -m unittest tests.test_a.test_function"],
		["python3 -m unittest tests.test_a"],
		["python3 -m unittest tests"],
		["python3 manage.py test tests.test_a.TestA.test_x"],
	])("allows %s", (command) => {
		expect(trustedBash(command, [...TESTS, ...DJANGO])).toBe("allow:trusted-command");
	});

	it("follows packages before modules, as Python does, and needs each part on disk", () => {
		// tests/sub is a package: sub.py beside it is never imported, and what follows is its attribute path.
		expect(
			trustedBash("python3 -m unittest tests.sub.test_b.TestB", [
				...TESTS,
				"tests/sub/__init__.py",
				"tests/sub/test_b.py",
			]),
		).toBe("allow:trusted-command");
		// A middle module missing on disk: the rest is an attribute walk of three names.
		expect(trustedBash("python3 -m unittest tests.sub.test_b.TestB", TESTS)).toBe("review:not-read-only");
	});

	it("asks the shell about every part of a label, two paths each", () => {
		const context = floorContextFor(runners, CWD, HOME, CLEAN_GIT);
		expect(floorFactRequestsOf("python3 -m unittest tests.test_a.TestA", context).modulePaths).toEqual([
			`${CWD}/tests/__init__.py`,
			`${CWD}/tests.py`,
			`${CWD}/tests/test_a/__init__.py`,
			`${CWD}/tests/test_a.py`,
			`${CWD}/tests/test_a/TestA/__init__.py`,
			`${CWD}/tests/test_a/TestA.py`,
		]);
	});
});

describe("a trusted runner never reads a stdin the command feeds it", () => {
	it.each([
		["printf '%s\\n' 'import os' c | python3 -m pytest -q --trace tests"],
		["python3 -m pytest --pdb tests <<< 'import os'"],
		["python3 -m pytest --pdb tests <<'EOF'\nimport os\nEOF"],
		["python3 -m pytest --trace tests < notes.txt"],
		["python3 -m pytest --trace tests 0<notes.txt"],
		["{ python3 -m pytest --trace tests; } <<< 'import os'"],
		["echo c | (python3 -m pytest --trace tests)"],
		["echo c | bash -c 'python3 -m pytest --trace tests'"],
		["echo c | echo $(python3 -m pytest --trace tests)"],
		["while true; do python3 -m pytest --trace tests; break; done < notes.txt"],
		["echo c | python3 manage.py test --pdb app"],
		["echo c | python3 tests/run.py --pdb"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, [...TESTS, ...DJANGO])).toBe("review:not-read-only");
	});

	it.each([
		["python3 -m pytest -q tests < /dev/null"],
		["python3 -m pytest -q tests | tail -5"],
		["python3 fix.py < src/a.py"],
		["cat src/a.py | python3 fix.py"],
		["python3 - <<'PY'\nprint(1)\nPY"],
	])("allows %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("allow:trusted-command");
	});
});

describe("a module checked on disk may not be removed first in the same command", () => {
	it.each([
		["rm IPython.py; python3 -m unittest IPython.embed"],
		["mv pip.py pip2.py && python3 -m unittest install pip.main"],
		["python3 -m unittest IPython.TestShell | rm IPython.py"],
		["python3 -m unittest IPython.TestShell & rm IPython.py"],
		["for f in 1 2; do python3 -m unittest IPython; rm IPython.py; done"],
		["git stash && python3 -m unittest IPython"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, ["IPython.py", "pip.py", "install.py"])).toBe("review:writes");
	});

	it("still allows a label after a write that removes nothing (the write names the rule)", () => {
		expect(trustedBash("cat <<'EOF' >> tests/test_a.py\n# more\nEOF\npython3 -m unittest tests.test_a", TESTS)).toBe(
			"allow:workspace-write",
		);
		expect(trustedBash("touch tests/new.txt && python3 -m unittest tests.test_a", TESTS)).toBe("allow:workspace-write");
	});
});

describe("Django commands other than test import their --settings and --default modules", () => {
	it.each([
		["python3 manage.py check --settings=antigravity"],
		["python3 manage.py migrate --settings=antigravity"],
		["python3 manage.py check --settings antigravity"],
		["python3 manage.py check --sett=antigravity"],
		["python3 manage.py diffsettings --default=antigravity"],
		["python3 manage.py diffsettings --default antigravity"],
		["python3 manage.py diffsettings --def=django.conf.global_settings"],
		["python3 manage.py showmigrations --settings=elsewhere.settings"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, DJANGO)).toBe("review:not-read-only");
	});

	it.each([
		["python3 manage.py check"],
		["python3 manage.py check --settings=proj.settings"],
		["python3 manage.py migrate app 0001 --database default"],
		["python3 manage.py diffsettings --all"],
		["python3 manage.py makemigrations app -n first --settings proj.settings"],
	])("allows %s", (command) => {
		expect(trustedBash(command, DJANGO)).toBe("allow:trusted-command");
	});
});

describe("sphinx-build: only offline builders and plain -D settings", () => {
	it.each([
		["sphinx-build -q -D template_bridge=code.interact docs _build"],
		["sphinx-build -q -D pygments_style=antigravity.X docs _build"],
		["sphinx-build -D html_search_options.type=x docs _build"],
		["sphinx-build --define=html_translator_class=x.Y docs _build"],
		["sphinx-build -D x docs _build"],
		["sphinx-build -M latexpdf docs _build"],
		["sphinx-build -M info docs _build"],
		["sphinx-build -b some_plugin_builder docs _build"],
		["sphinx-build -Eb linkcheck docs _build"],
	])("reviews %s", (command) => {
		expect(trustedBash(command)).toBe("review:not-read-only");
	});

	it.each([
		["sphinx-build -M html docs _build"],
		["sphinx-build -b text docs _build/text"],
		["sphinx-build -n -W -b html docs _build"],
		["sphinx-build -D language=de -b html docs _build"],
		["sphinx-build -D release=1.0 docs _build"],
	])("allows %s", (command) => {
		expect(trustedBash(command)).toBe("allow:trusted-command");
	});
});

describe("a trusted setup.py runs build commands only", () => {
	it.each([
		["python3 setup.py -q install"],
		["python3 setup.py install --user"],
		["python3 setup.py develop"],
		["python3 setup.py -q easy_install demo"],
		["python3 setup.py sdist upload"],
		["python3 setup.py register"],
		["python3 setup.py setopt --command=x --option=y --set-value=z"],
		["python3 setup.py build_ext --build-lib build install"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, ["setup.py"])).toBe("review:not-read-only");
	});

	it.each([
		["python3 setup.py build_ext --inplace"],
		["python3 setup.py -q egg_info"],
		["python3 setup.py sdist bdist_wheel"],
		["python3 setup.py build --build-base=build"],
		["python3 setup.py clean --all"],
		["python3 setup.py --version"],
	])("allows %s", (command) => {
		expect(trustedBash(command, ["setup.py"])).toBe("allow:trusted-command");
	});
});

describe("a thirty-second review: pytest's rootdir, and devices as trusted arguments", () => {
	it.each([
		// A device's folder becomes pytest's rootdir and confcutdir: conftest.py files above it load.
		["python3 -m pytest -q -s -p no:cacheprovider -c /dev/null tests/test_b.py", "review:not-read-only"],
		["pytest -q -p no:cacheprovider tests/test_b.py /dev/null", "review:outside-workspace"],
		["python3 -m py_compile /dev/null", "review:outside-workspace"],
		["pytest -q -o addopts=/dev/null tests", "review:outside-workspace"],
		// Settings pytest resolves from its rootdir, and the options that move it.
		["cd tests && python3 -m pytest -q -o cache_dir=shared/pc4 test_b.py", "review:not-read-only"],
		["pytest -q --rootdir=tests -o cache_dir=out/pc2 tests/test_b.py", "review:not-read-only"],
		["pytest -q -c tests/__init__.py tests/test_b.py", "review:not-read-only"],
		["pytest -q --config-file=tests/pytest.ini tests", "review:not-read-only"],
		["pytest -q --rootdir tests tests", "review:not-read-only"],
		["pytest -q --override-ini=pythonpath=src tests", "review:not-read-only"],
		["pytest -q -o testpaths=out tests", "review:not-read-only"],
		["pytest -q -o 'addopts=-o cache_dir=out' tests", "review:not-read-only"],
	])("%s is %s", (command, expected) => {
		expect(trustedBash(command, TESTS)).toBe(expected);
	});

	it.each([
		["pytest -q -p no:cacheprovider tests/test_b.py 2>/dev/null"],
		["python3 -m pytest -q tests > /dev/null"],
		["pytest -q -o junit_family=xunit2 tests"],
		["pytest -q -rA tests"],
	])("still allows %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("allow:trusted-command");
	});
});

describe("a thirty-third review: pytest options that delete a folder or write a file of pytest's naming", () => {
	it.each([
		// pytest removes the --basetemp folder first, protected files and all.
		["pytest -q -p no:cacheprovider --basetemp=config tests/test_t.py"],
		["pytest -q --basetemp config tests"],
		["pytest -q -o addopts=--basetemp=config tests"],
		// Written where a shipped link may lead: ./pytestdebug.log, ./.benchmarks.
		["pytest -q -p no:cacheprovider tests/test_b.py --debug"],
		["python3 -m pytest -q --debug tests/test_b.py"],
		["pytest -q -o addopts=--debug tests/test_b.py"],
		["pytest -q --benchmark-autosave tests"],
		["pytest -q --benchmark-save=x tests"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, TESTS)).toBe("review:not-read-only");
	});

	it("still allows --debug with a named file, judged as a workspace write", () => {
		expect(trustedBash("pytest -q --debug=dbg.log tests", TESTS)).toBe("allow:trusted-command");
	});
});

describe("a thirty-fourth review: Django's Selenium options start a browser or reach the network", () => {
	const DJANGO_TESTS = ["tests/migrations/__init__.py", "tests/test_sqlite.py", ...DJANGO];
	it.each([
		[
			"tests/runtests.py --selenium=chrome --selenium-hub=http://127.0.0.1:4444/wd/hub --external-host=127.0.0.1 migrations",
		],
		["./tests/runtests.py --selenium chrome --headless migrations"],
		["./tests/runtests.py --selenium-h http://evil.example:4444 --sel=chrome migrations"],
		["./tests/runtests.py --liveserver=0.0.0.0:8081 migrations"],
		["./tests/runtests.py --screenshots --selenium=firefox migrations"],
		["python3 manage.py test --selenium=firefox app"],
		["python3 -m django test --settings=proj.settings --selenium-hub=http://h:4444 app"],
	])("reviews %s", (command) => {
		expect(trustedBash(command, DJANGO_TESTS)).toBe("review:not-read-only");
	});

	it.each([
		["./tests/runtests.py --tag slow --exclude-tag selenium migrations"],
		["./tests/runtests.py --parallel 1 --settings=test_sqlite migrations"],
		["python3 manage.py test app --shuffle --reverse"],
	])("still allows %s", (command) => {
		expect(trustedBash(command, DJANGO_TESTS)).toBe("allow:trusted-command");
	});
});
