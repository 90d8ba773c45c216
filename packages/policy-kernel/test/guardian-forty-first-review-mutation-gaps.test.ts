// Entry by entry, the thirty-ninth to forty-second reviews' rules: the installer folders of home, Python's site
// folders and start-up modules by their exact places, the hook folders a renamed folder may become, mise's and Dev
// Containers' nearest folders only, the cap on the folders a command names for the `core.hooksPath` facts, the
// comma that separates `PYTHONWARNINGS` filters, and the new protected credential and MCP config paths.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	gitHooksFolderPaths,
	isHomeConfigPath,
	judgeGitConfigFile,
	toolWriteFolders,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const plain = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const inHome = floorContextFor(config, HOME, HOME, { ...CLEAN_GIT, gitTop: HOME });
const runners = floorContextFor(
	applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] }),
	CWD,
	HOME,
	CLEAN_GIT,
);
const tool = (name: string, input: Record<string, unknown>, context: FloorContext = plain) =>
	outcome(decideFloor(name, input, config, context));
const writeTool = (path: string, context: FloorContext = plain) => tool("write", { path, content: "x" }, context);

describe("every installer folder home keeps counts as home's configuration", () => {
	it.each<[string]>([
		["miniconda"],
		["anaconda3"],
		["anaconda"],
		["miniforge3"],
		["miniconda2"],
		["mambaforge"],
		["micromamba"],
		["flutter"],
	])("~/%s: a write there is reviewed with Pi started in home", (folder) => {
		expect(isHomeConfigPath(`/home/dev/${folder}/bin/tool`, HOME, [HOME])).toBe(true);
		expect(bashOutcome(`echo x > ~/${folder}/bin/tool`, inHome)).toBe("review:outside-workspace");
		expect(writeTool(`${folder}/bin/tool`, inHome)).toBe("review:outside-workspace");
	});

	it("~/snap too (whose writes the protected list reviews besides)", () => {
		expect(isHomeConfigPath("/home/dev/snap/code/common/x", HOME, [HOME])).toBe(true);
	});
});

describe("Python's start-up files by their exact places", () => {
	it("a .pth file directly in dist-packages is reviewed, as in site-packages", () => {
		expect(writeTool(".venv/lib/python3/dist-packages/zz.pth")).toBe("review:protected-path");
		expect(bashOutcome("echo 'import os' > /home/dev/project/lib/dist-packages/zz.pth", plain)).toBe("review:writes");
	});

	it("a file named sitecustomize with no suffix stays a workspace write; any file in a site folder is reviewed", () => {
		expect(writeTool("docs/sitecustomize")).toBe("allow:workspace-path");
		// A sixty-seventh review: the modules a site folder's `.pth` files import run at every start too.
		expect(writeTool(".venv/lib/python3.11/site-packages/pkg/data.pth")).toBe("review:protected-path");
	});
});

describe("a hook runner's folder moved or renamed", () => {
	it.each<[string]>([["mv .husky old"], ["mv staged .git-hooks"], ["mv .githooks hooks.old"], ["mv st .husky"]])(
		"%s: reviewed",
		(command) => {
			expect(bashOutcome(command, plain)).toBe("review:writes");
		},
	);

	it("making one, empty, runs nothing and stays a workspace write (a forty-fifth review)", () => {
		expect(bashOutcome("mkdir .husky", plain)).toBe("allow:workspace-write");
		expect(bashOutcome("mkdir -p .git-hooks", plain)).toBe("allow:workspace-write");
	});
});

describe("mise's and Dev Containers' nearest folders only", () => {
	it("a file that is not TOML in mise's conf.d, and a devcontainer.json two folders deep, stay workspace writes", () => {
		expect(writeTool(".config/mise/conf.d/notes.md")).toBe("allow:workspace-path");
		expect(writeTool(".devcontainer/a/b/devcontainer.json")).toBe("allow:workspace-path");
	});
});

describe("the folders a command writes in, for the core.hooksPath facts", () => {
	it("names at most 33 folders (the cap of 32 plus one, so that more shows)", () => {
		const command = Array.from({ length: 40 }, (_, index) => `echo x > d${index + 1}/a`).join(" && ");
		const folders = floorFactRequestsOf(command, plain).writeFolders;
		expect(folders).toHaveLength(33);
		expect(folders[0]).toBe("/home/dev/project/d1");
		expect(folders[32]).toBe("/home/dev/project/d33");
	});

	it("the shell's hooks folders reach the floor's context", () => {
		const facts = floorContextFor(config, CWD, HOME, {
			...CLEAN_GIT,
			gitArmedPaths: ["/home/dev/project/scripts/git-hooks"],
		});
		expect(bashOutcome("printf 'id' > scripts/git-hooks/pre-commit", facts)).toBe("review:writes");
		expect(writeTool("scripts/git-hooks/pre-commit", facts)).toBe("review:protected-path");
	});

	it("a file at the root lands in /", () => {
		expect(toolWriteFolders("write", { path: "/notes.md", content: "x" }, plain)).toEqual(["/"]);
	});
});

describe("core.hooksPath values", () => {
	it("~ alone names home", () => {
		expect(gitHooksFolderPaths(["~"], CWD, HOME)).toEqual(["/home/dev"]);
		expect(gitHooksFolderPaths(["~"], undefined, HOME)).toEqual(["/home/dev"]);
	});

	it("a hooksPath key in a core subsection is not core.hooksPath", () => {
		expect(judgeGitConfigFile('[core "x"]\n\thooksPath = a\n[core]\n\thooksPath = b\n').hooksPaths).toEqual(["b"]);
	});
});

describe("PYTHONWARNINGS filters separated by a comma", () => {
	it("a later filter that names a module's category is reviewed", () => {
		expect(bashOutcome("PYTHONWARNINGS=default::ResourceWarning,ignore::antigravity.X pytest -q", runners)).toBe(
			"review:environment",
		);
		expect(bashOutcome("PYTHONWARNINGS=default::ResourceWarning,ignore::DeprecationWarning pytest -q", runners)).toBe(
			"allow:trusted-command",
		);
	});
});

describe("the new protected credential and MCP config paths", () => {
	it.each<[string]>([
		["~/.config/msmtp/config"],
		["~/.ngrok2/ngrok.yml"],
		["~/AppData/Local/ngrok/ngrok.yml"],
		["~/Library/DBeaverData/workspace6/General/.dbeaver/data-sources.json"],
		["~/AppData/Roaming/DBeaverData/workspace6/General/.dbeaver/data-sources.json"],
		["~/.config/remmina/remmina.pref"],
		["~/.local/share/remmina/group_rdp_x.remmina"],
		["~/.claude.json.backup"],
		["~/Library/Application Support/Claude/claude_desktop_config.json"],
		["~/AppData/Roaming/Claude/claude_desktop_config.json"],
		["~/Library/Application Support/Code/User/globalStorage/state.vscdb"],
		["~/.config/Cursor/User/globalStorage/state.vscdb"],
		["~/Library/Application Support/Cursor/User/globalStorage/state.vscdb"],
	])("Pi's read tool of %s is reviewed as a protected path", (path) => {
		expect(tool("read", { path })).toBe("review:protected-path");
	});
});
