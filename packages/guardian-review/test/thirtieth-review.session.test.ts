// What a thirtieth review got past the floor's trusted runners, in real Pi sessions (faux agent and reviewer, real
// bash, python3 and pytest): a test label that walks from a workspace module into what it imported (pdb reading
// the piped code), a debugger fed through a pipe, a label whose module the same command removes first, and setup.py
// commands that install. Django and Sphinx are not on the test machine: their cases are the kernel's
// (packages/policy-kernel/test/guardian-thirtieth-review.test.ts).
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectBashVerdicts, guardianSandboxPerTest, resultTexts } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({
	homePrefix: "guardian-review30-home-",
	seedHome: (home) => {
		mkdirSync(join(home, ".ssh"));
		writeFileSync(join(home, ".ssh", "id_rsa"), "very-secret-ssh-key\n");
	},
});

const RUNNERS = ["pytest", "python3 -m pytest", "python3 -m unittest", "python3 <workspace file>"];

/** Python code that runs `command` through os.system, with no quote, `$`, brace or blank in it. */
function pythonRunning(command: string): string {
	const bytes = Buffer.from(command);
	return `import\tos;os.system((${BigInt(`0x${bytes.toString("hex")}`)}).to_bytes(${bytes.length}).decode())`;
}

const TEST_FILES = {
	"tests/__init__.py": "",
	"tests/test_a.py": "import unittest\nclass TestA(unittest.TestCase):\n    def test_x(self):\n        pass\n",
	"tests/test_b.py": "def test_b():\n    pass\n",
};

describe("a thirtieth review: trusted runners, in real sessions", () => {
	it("reviews a label that walks into what a test module imported, and a debugger fed through a pipe", async () => {
		const marker = join(sandbox.home, "debugger-ran");
		const h = await sandbox.start({ files: TEST_FILES, guardian: { trustedCommands: RUNNERS } });
		const feed = `printf '%s\\n' '${pythonRunning(`touch ${marker}; cat ~/.ssh/id_rsa`)}' c`;
		await expectBashVerdicts(
			h,
			[
				`${feed} | python3 -m unittest tests.test_a.unittest.case.sys.breakpointhook`,
				`${feed} | python3 -m pytest -q -p no:cacheprovider --trace tests/test_b.py`,
				"python3 -m unittest tests.test_a.sys.breakpointhook",
			],
			[
				"python3 -m unittest tests.test_a.TestA.test_x",
				"python3 -m pytest -q -p no:cacheprovider tests/test_b.py < /dev/null",
			],
		);
		expect(existsSync(marker)).toBe(false);
		const texts = resultTexts(h).join("\n");
		expect(texts).not.toContain("very-secret-");
		expect(texts).toContain("Ran 1 test");
		expect(texts).toContain("1 passed");
	});

	it("reviews a label whose module the same command removes first, and setup.py commands that install", async () => {
		const h = await sandbox.start({
			files: {
				...TEST_FILES,
				"helpers_x.py": "",
				"setup.py": "from setuptools import setup\nsetup(name='demo30', version='1.0', py_modules=['helpers_x'])\n",
			},
			guardian: { trustedCommands: RUNNERS },
		});
		await expectBashVerdicts(
			h,
			[
				"rm helpers_x.py; python3 -m unittest helpers_x.TestX",
				"python3 setup.py -q develop",
				"python3 setup.py -q install --user",
			],
			["python3 -m unittest helpers_x", "python3 setup.py -q egg_info"],
		);
		expect(existsSync(join(h.cwd, "helpers_x.py"))).toBe(true);
		expect(existsSync(join(h.cwd, "demo30.egg-info"))).toBe(true);
		expect(existsSync(join(sandbox.home, ".local"))).toBe(false);
	});
});

describe("a thirty-second review: pytest's rootdir, in real sessions", () => {
	it("reviews a device argument that moves the rootdir (a conftest.py above the workspace ran) and a setting a link leads out", async () => {
		const marker = join(sandbox.home, "conftest-outside-ran");
		const h = await sandbox.start({
			files: { ...TEST_FILES, "pytest.ini": "[pytest]\n" },
			guardian: { trustedCommands: RUNNERS },
		});
		writeFileSync(join(dirname(h.cwd), "conftest.py"), `open(${JSON.stringify(marker)}, "w").close()\n`);
		mkdirSync(join(sandbox.home, "shared"));
		symlinkSync(join(sandbox.home, "shared"), join(h.cwd, "shared"));
		await expectBashVerdicts(
			h,
			[
				"python3 -m pytest -q -s -p no:cacheprovider -c /dev/null tests/test_b.py",
				"pytest -q -p no:cacheprovider tests/test_b.py /dev/null",
				"cd tests && python3 -m pytest -q -o cache_dir=shared/pc4 test_b.py",
			],
			["python3 -m pytest -q -p no:cacheprovider tests/test_b.py"],
		);
		expect(existsSync(marker)).toBe(false);
		expect(existsSync(join(sandbox.home, "shared", "pc4"))).toBe(false);
		expect(resultTexts(h).join("\n")).toContain("1 passed");
	});
});

describe("a thirty-third review: pytest options that delete or write by their own naming, in real sessions", () => {
	it("reviews --basetemp (pytest removes the folder, .env and all) and --debug's default file behind a link", async () => {
		const victim = join(sandbox.home, "victim.txt");
		writeFileSync(victim, "the user's file\n");
		const h = await sandbox.start({
			files: {
				...TEST_FILES,
				"tests/test_t.py": "def test_t(tmp_path):\n    assert tmp_path.exists()\n",
				"config/.env": "very-secret-env\n",
				"config/settings.py": "DEBUG = False\n",
			},
			guardian: { trustedCommands: RUNNERS },
		});
		symlinkSync(victim, join(h.cwd, "pytestdebug.log"));
		await expectBashVerdicts(
			h,
			[
				"pytest -q -p no:cacheprovider --basetemp=config tests/test_t.py",
				"pytest -q -p no:cacheprovider tests/test_b.py --debug",
			],
			["pytest -q -p no:cacheprovider tests/test_t.py"],
		);
		expect(readFileSync(join(h.cwd, "config", ".env"), "utf8")).toBe("very-secret-env\n");
		expect(readFileSync(victim, "utf8")).toBe("the user's file\n");
		expect(resultTexts(h).join("\n")).toContain("1 passed");
	});
});
