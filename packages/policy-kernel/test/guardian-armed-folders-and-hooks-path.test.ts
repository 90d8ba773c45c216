// A fortieth review: indirect routes to the configs the thirty-eighth review's rule reviews. A folder written under an
// innocent name and then renamed onto a tool's config folder (`mv staged .vscode`), mise's `conf.d` files and Dev
// Containers' named configurations, and the folder the repository's own `core.hooksPath` names (not only husky's).
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	gitHooksFolderPaths,
	judgeGitConfigFile,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const plain = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const writeTool = (path: string, context: FloorContext = plain) =>
	outcome(decideFloor("write", { path, content: "x" }, config, context));

describe("a folder renamed, copied or linked onto a tool's config folder", () => {
	it.each<[string]>([
		["mkdir -p st1 && printf '{}' > st1/tasks.json && mv st1 .vscode"],
		["mv st2 .cargo"],
		["mv st3 .devcontainer"],
		["mv st4 .codex"],
		["mv st5 .gemini"],
		["mv st6 .mise"],
		["mv m .config/mise"],
		["mv c .config/mise/conf.d"],
		["mv d .devcontainer/python"],
		['mv st ".vscode"'],
		["mv st \\.vscode"],
		["mv -f -- st .vscode"],
		["mv st .VSCODE"],
		["mv .vscode v"],
	])("%s: reviewed", (command) => {
		expect(bashOutcome(command, plain)).toBe("review:writes");
	});

	it.each<[string]>([
		["mkdir -p st && echo x > st/a.md && mv st docs"],
		["mv a.txt b.txt"],
		["mkdir -p docs/vscode"],
		["cp src/a.ts src/b.ts"],
		// An empty folder or a plain file by such a name runs nothing (a forty-fifth review of needless reviews).
		["mkdir .vscode"],
		["mkdir -p .devcontainer && echo notes > .devcontainer/README.md"],
		["cp st .cargo"],
		["mkdir -p src/components/Head"],
	])("%s: still allowed", (command) => {
		expect(bashOutcome(command, plain)).toBe("allow:workspace-write");
	});
});

describe("mise's and Dev Containers' other config names", () => {
	it.each<[string]>([
		[".config/mise/conf.d/a.toml"],
		[".mise/conf.d/b.toml"],
		["mise/conf.d/c.toml"],
		["mise/config.local.toml"],
		[".mise/config.local.toml"],
		[".config/mise/mise.toml"],
		[".rtx.toml"],
		[".devcontainer/python/devcontainer.json"],
	])("%s: a write is reviewed", (path) => {
		expect(writeTool(path)).toBe("review:protected-path");
		expect(bashOutcome(`printf '[hooks]\\nenter = "id"\\n' > ${path}`, plain)).toBe("review:writes");
	});

	it("judges the nearest folders only, and allows a read", () => {
		const underMise = floorContextFor(config, "/srv/mise/project", HOME, { ...CLEAN_GIT, gitTop: "/srv/mise/project" });
		expect(writeTool("/srv/mise/project/src/settings.toml", underMise)).toBe("allow:workspace-path");
		expect(writeTool("docs/mise.md")).toBe("allow:workspace-path");
		expect(writeTool("conf.d/a.toml")).toBe("allow:workspace-path");
		expect(bashOutcome("cat .config/mise/conf.d/a.toml", plain)).toBe("allow:read-only");
	});
});

describe("the folder core.hooksPath names", () => {
	const hooks = `${CWD}/scripts/git-hooks`;
	const withHooks: FloorContext = { ...plain, gitArmedPaths: [hooks] };

	it("reviews a write in it, by bash and by Pi's tools, and a rename above it", () => {
		expect(bashOutcome("printf '#!/bin/sh\\nid\\n' > scripts/git-hooks/pre-commit", withHooks)).toBe("review:writes");
		expect(bashOutcome("cd scripts/git-hooks && echo id >> pre-push", withHooks)).toBe("review:writes");
		expect(writeTool("scripts/git-hooks/pre-commit", withHooks)).toBe("review:protected-path");
		expect(outcome(decideFloor("edit", { path: "scripts/git-hooks/pre-commit", edits: [] }, config, withHooks))).toBe(
			"review:protected-path",
		);
		expect(bashOutcome("mv staged scripts", withHooks)).toBe("review:writes");
		expect(bashOutcome("mv scripts old-scripts", withHooks)).toBe("review:writes");
		// Copying a file into the folder above, or making it again, writes nothing there (a forty-fifth review).
		expect(bashOutcome("cp staged/x .", withHooks)).toBe("allow:workspace-write");
		expect(bashOutcome("mkdir -p scripts && echo make > scripts/build.sh", withHooks)).toBe("allow:workspace-write");
		expect(bashOutcome("rm scripts/git-hooks/pre-commit", withHooks)).toBe("review:writes");
	});

	it("through a link that leads there", () => {
		const links = new Map<string, string | null>([
			[`${CWD}/lnk`, hooks],
			[`${CWD}/lnk/pre-commit`, `${hooks}/pre-commit`],
		]);
		const linked: FloorContext = { ...withHooks, pathLinks: links };
		expect(bashOutcome("echo id > lnk/pre-commit", linked)).toBe("review:writes");
	});

	it("allows writes beside it, and everything without the fact", () => {
		expect(bashOutcome("echo x > scripts/build.sh", withHooks)).toBe("allow:workspace-write");
		expect(writeTool("scripts/README.md", withHooks)).toBe("allow:workspace-path");
		expect(bashOutcome("cat scripts/git-hooks/pre-commit", withHooks)).toBe("allow:read-only");
		expect(bashOutcome("printf 'id' > scripts/git-hooks/pre-commit", plain)).toBe("allow:workspace-write");
	});

	it("takes every core.hooksPath value of a config file, and places them as git does", () => {
		const judged = judgeGitConfigFile('[core]\n\thooksPath = a\n[core]\n\thookspath = "tools/hooks"\n\thooksPath =\n');
		expect(judged.hooksPaths).toEqual(["a", "tools/hooks"]);
		expect(judgeGitConfigFile("[core\n").hooksPaths).toEqual([]);
		expect(
			gitHooksFolderPaths(["tools/hooks/", "/opt/hooks", "~/.githooks", "~other/h", "./tools/hooks"], CWD, HOME),
		).toEqual([`${CWD}/tools/hooks`, "/opt/hooks", `${HOME}/.githooks`]);
	});
});
