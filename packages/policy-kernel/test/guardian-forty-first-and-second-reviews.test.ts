// What the forty-first and forty-second reviews got past the floor: pytest warning filters with a comma in the
// message (pytest imports the category; PYTHONWARNINGS would split there), Python's start-up modules as packages or
// compiled, interpreters' folder start-up files, home folders by another case or installer name, dotfiles that
// home's configuration links to, and the `core.hooksPath` folders of every repository a write lands in.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	gitHooksFolderPaths,
	isWritableWorkspacePath,
	toolWriteFolders,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const runners = floorContextFor(
	applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest", "python -m pytest", "python3 -m pytest"] }),
	CWD,
	HOME,
	CLEAN_GIT,
);
const plain = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME, CLEAN_GIT);
const inHome = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), HOME, HOME, { ...CLEAN_GIT, gitTop: HOME });
const writeTool = (path: string, context: FloorContext) =>
	outcome(decideFloor("write", { path, content: "x" }, applyGuardianDefaults({ mode: "enforce" }), context));

describe("pytest warning filters with a comma in the message (a forty-second review)", () => {
	it.each<[string]>([
		["pytest -q -W ignore:a,b:this.W"],
		["python3 -m pytest -q -o filterwarnings=ignore:a,b:antigravity.W"],
		["pytest -q --pythonwarnings=ignore:x,y:__hello__.W"],
		["pytest -q -W ignore:a,b:test.__main__.X test_a.py"],
	])("%s is reviewed: pytest imports the category's module", (command) => {
		expect(bashOutcome(command, runners)).toBe("review:not-read-only");
	});

	it.each<[string]>([
		["pytest -q -W ignore::DeprecationWarning"],
		["pytest -q -W 'ignore:a,b:DeprecationWarning'"],
		["pytest -q -W ignore:a,b:pytest.PytestRemovedIn9Warning"],
		["PYTHONWARNINGS=ignore::DeprecationWarning,default::ResourceWarning pytest -q"],
	])("%s stays allowed", (command) => {
		expect(bashOutcome(command, runners)).toBe("allow:trusted-command");
	});
});

describe("start-up files by other names (a forty-first review)", () => {
	it.each<[string]>([
		[".venv/lib/python3.11/site-packages/sitecustomize/__init__.py"],
		[".venv/lib/python3.11/site-packages/__pycache__/sitecustomize.cpython-311.pyc"],
		["usercustomize.pyc"],
		[".irbrc"],
		[".pryrc"],
		["irb.rc"],
		["_irbrc"],
		[".Renviron"],
		[".Rprofile"],
		["opencode.jsonc"],
		["Documents/PowerShell/Microsoft.PowerShell_profile.ps1"],
	])("a write of %s is reviewed", (path) => {
		expect(writeTool(path, plain)).toBe("review:protected-path");
		expect(bashOutcome(`echo x > ${path}`, plain)).toBe("review:writes");
	});

	it("an ordinary module or script stays a workspace write", () => {
		expect(writeTool("src/site_utils.py", plain)).toBe("allow:workspace-path");
		expect(writeTool("scripts/build.ps1", plain)).toBe("allow:workspace-path");
	});
});

describe("home's configuration by another case, installer or link (a forty-first review)", () => {
	it.each<[string]>([
		["echo x > ~/library/LaunchAgents/x.plist"],
		["echo x > ~/LIBRARY/LaunchAgents/x.plist"],
		["echo x > ~/miniforge/lib/python3.11/site-packages/x.py"],
		["echo x > ~/anaconda2/bin/x"],
	])("%s is reviewed with Pi started in home", (command) => {
		// A site folder's files are reviewed wherever they lie (a sixty-seventh review).
		const expected = command.includes("site-packages") ? "review:writes" : "review:outside-workspace";
		expect(bashOutcome(command, inHome)).toBe(expected);
	});

	it("a folder that home's configuration links to counts as it, for writes", () => {
		const dotfiles = `${HOME}/dotfiles/nvim`;
		const linked: FloorContext = { ...inHome, homeConfigLinkTargets: [dotfiles] };
		expect(bashOutcome("echo \"os.execute('id')\" >> dotfiles/nvim/init.lua", linked)).toBe("review:outside-workspace");
		expect(writeTool("dotfiles/nvim/lua/plugins.lua", linked)).toBe("review:outside-workspace");
		expect(bashOutcome("mv dotfiles dotfiles.old", linked)).toBe("review:outside-workspace");
		expect(bashOutcome("echo notes > dotfiles/README.md", linked)).toBe("allow:workspace-write");
		expect(bashOutcome("cat dotfiles/nvim/init.lua", linked)).toBe("allow:read-only");
		expect(isWritableWorkspacePath(`${dotfiles}/init.lua`, HOME, HOME, [], [dotfiles])).toBe(false);
		expect(isWritableWorkspacePath(`${HOME}/dotfiles/zsh/zshrc`, HOME, HOME, [], [dotfiles])).toBe(true);
		// A project workspace that is the dotfiles repository: its linked folders' writes are reviewed too.
		const project = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), `${HOME}/dotfiles`, HOME, {
			...CLEAN_GIT,
			homeConfigLinkTargets: [dotfiles],
		});
		expect(bashOutcome("echo x >> nvim/init.lua", project)).toBe("review:outside-workspace");
		expect(bashOutcome("echo x >> zsh/zshrc", project)).toBe("allow:workspace-write");
	});
});

describe("the folders a call writes in, for the core.hooksPath facts", () => {
	it("names each write's folder for bash, and the path's folder for Pi's write and edit", () => {
		expect(
			floorFactRequestsOf("echo x > lib/ci/hooks/pre-commit && cd wt && echo y > a.txt", plain).writeFolders,
		).toEqual([`${CWD}/lib/ci/hooks`, `${CWD}/wt`]);
		expect(floorFactRequestsOf("cat README.md", plain).writeFolders).toEqual([]);
		expect(toolWriteFolders("write", { path: "lib/ci/hooks/pre-commit", content: "x" }, plain)).toEqual([
			`${CWD}/lib/ci/hooks`,
		]);
		expect(toolWriteFolders("edit", { path: "~/notes/a.md", edits: [] }, plain)).toEqual([`${HOME}/notes`]);
		expect(toolWriteFolders("read", { path: "a.md" }, plain)).toEqual([]);
	});

	it("reviews a write in a nested repository's hooks folder once the shell names it", () => {
		const nested: FloorContext = { ...plain, gitArmedPaths: [`${CWD}/lib/ci/hooks`] };
		expect(bashOutcome("printf 'id' > lib/ci/hooks/pre-commit", nested)).toBe("review:writes");
		expect(writeTool("lib/ci/hooks/pre-commit", nested)).toBe("review:protected-path");
		expect(bashOutcome("printf 'id' > lib/src/a.py", nested)).toBe("allow:workspace-write");
	});

	it("places the user's own absolute or home values outside a repository, and no relative one", () => {
		expect(gitHooksFolderPaths(["~/git-hooks", "/opt/hooks", "hooks"], undefined, HOME)).toEqual([
			`${HOME}/git-hooks`,
			"/opt/hooks",
		]);
	});
});
