// Additional workspace directories (`additionalDirectories`, global config only): folders the floor treats like the
// workspace, such as a notes folder or a sibling repository. Reads and writes there are judged like those in Pi's
// working directory; protected paths, context files and code execution are judged as everywhere else.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	buildReviewerPrompt,
	classifyPath,
	decideBashFloor,
	decideFloor,
	type FloorContext,
	floorContextFor,
	formatGuardianStatus,
	type GuardianReviewConfigInput,
	GuardianReviewConfigSchema,
	initialGuardianStats,
	judgeShellSetup,
	resolveAdditionalDirectories,
	resolveGuardianReviewConfig,
} from "../src/guardian/index.js";
import { parseWithSchema } from "../src/index.js";
import { outcome, withCleanTrees } from "./floor-outcome.js";

const HOME = "/home/dev";
const CWD = "/home/dev/project";
const clean = { gitConfig: "safe", gitHooks: "none" } as const;

function contextWith(input: GuardianReviewConfigInput): FloorContext {
	return floorContextFor(applyGuardianDefaults({ mode: "enforce", ...input }), CWD, HOME, clean);
}

const plain = contextWith({});
const notes = contextWith({ additionalDirectories: ["~/notes", "/srv/shared/"] });

function bash(command: string, context: FloorContext): string {
	return outcome(decideBashFloor(command, "always", withCleanTrees(command, context)));
}

function tool(name: string, input: Record<string, unknown>, context: FloorContext): string {
	const config = applyGuardianDefaults({ mode: "enforce" });
	return outcome(decideFloor(name, input, config, context));
}

describe("the config key", () => {
	it("takes ~, ~/dir and /dir; rejects /, relative paths and globs with a bounded error", () => {
		const valid = (list: unknown) => parseWithSchema(GuardianReviewConfigSchema, { additionalDirectories: list }).ok;
		expect(valid(["~", "~/notes", "/srv/shared", "/srv/shared/", "/memory"])).toBe(true);
		for (const bad of ["/", "//", "notes", "./notes", "../sibling", "~/notes/*", "/srv/[ab]", "", "~user/x"]) {
			expect(valid([bad]), bad).toBe(false);
		}
		expect(valid(Array.from({ length: 33 }, (_, i) => `/d${i}`))).toBe(false);
		const result = parseWithSchema(GuardianReviewConfigSchema, { additionalDirectories: ["/"] });
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error).toContain("additionalDirectories");
			expect(result.error.length).toBeLessThan(300);
		}
	});

	it("is empty by default and resolved against home, normalized and without repeats", () => {
		expect(applyGuardianDefaults(undefined).additionalDirectories).toEqual([]);
		expect(resolveAdditionalDirectories(["~/notes/", "/srv//shared", "~/notes", "~"], HOME)).toEqual([
			"/home/dev/notes",
			"/srv/shared",
			"/home/dev",
		]);
		expect(resolveAdditionalDirectories(["~"], "/")).toEqual([]);
		expect(notes.additionalDirectories).toEqual(["/home/dev/notes", "/srv/shared"]);
	});

	it("a project file may not add one (it would widen the workspace); the global one stands", () => {
		const resolved = resolveGuardianReviewConfig(
			{ additionalDirectories: ["~/notes"] },
			{ additionalDirectories: ["~", "/etc"] },
		);
		expect(resolved.ok).toBe(true);
		if (!resolved.ok) return;
		expect(resolved.value.config.additionalDirectories).toEqual(["~/notes"]);
		expect(resolved.value.ignored).toBe(1);
	});
});

describe("the floor", () => {
	it.each<[string]>([
		["ls ~/notes/knowledge/"],
		["cat /srv/shared/README.md"],
		["find ~/notes -maxdepth 2 -type f -name '*.md' | head -20"],
		["cd ~/notes && grep -n todo plan.md"],
		["grep -rl coordinate ~/notes/knowledge/ 2>/dev/null"],
		["mkdir -p ~/notes/testing && cat > ~/notes/testing/report.md <<'EOF'\n# Report\nEOF"],
		["sed -n '1,40p' /srv/shared/src/app.py"],
	])("%s: reviewed outside the workspace, allowed once the folder is added", (command) => {
		expect(bash(command, plain)).toBe("review:outside-workspace");
		expect(bash(command, notes)).toMatch(/^allow:/);
	});

	it.each<[string, string]>([
		["cat ~/notes/.env", "review:protected-path"],
		["cat ~/notes/.git/config", "review:protected-path"],
		["echo x > ~/notes/AGENTS.md", "review:protected-path"],
		["cat > ~/notes/.pi/settings.json <<'EOF'\n{}\nEOF", "review:protected-path"],
		["python ~/notes/check.py", "review:not-read-only"],
		["cat ~/notes-old/plan.md", "review:outside-workspace"],
		["cat /srv/shared-secrets/key.txt", "review:outside-workspace"],
		["cat ~/notes/../.bashrc", "review:outside-workspace"],
	])("%s stays %s", (command, expected) => {
		expect(bash(command, notes)).toBe(expected);
	});

	it("a folder of home added whole still protects home's secrets", () => {
		const home = contextWith({ additionalDirectories: ["~"] });
		expect(bash("cat ~/notes.txt", home)).toMatch(/^allow:/);
		// A nineteenth review: with home in the workspace, what programs load from home at start-up is protected.
		expect(bash("echo 'def length: env;' > ~/.jq", home)).toBe("review:protected-path");
		expect(bash("printf 'touch x' >> ~/.bash_profile", home)).toBe("review:protected-path");
		expect(bash("mkdir -p ~/.local/lib/python3.11/site-packages", home)).toBe("review:protected-path");
		expect(bash("echo x > ~/.jq", contextWith({}))).toBe("review:outside-workspace");
		expect(bash("cat ~/.ssh/id_ed25519", home)).toBe("review:protected-path");
		expect(bash("cat ~/.aws/credentials", home)).toBe("review:protected-path");
		expect(tool("read", { path: "~/.netrc" }, home)).toBe("review:protected-path");
	});

	it("the write, edit and read tools judge the folders as the workspace", () => {
		expect(tool("write", { path: "~/notes/plan.md", content: "x" }, plain)).toBe("review:outside-workspace");
		expect(tool("write", { path: "~/notes/plan.md", content: "x" }, notes)).toBe("allow:workspace-path");
		expect(tool("edit", { path: "/srv/shared/a.ts", edits: [] }, notes)).toBe("allow:workspace-path");
		expect(tool("write", { path: "~/notes/CLAUDE.md", content: "x" }, notes)).toBe("review:protected-path");
		expect(tool("read", { path: "~/notes/.env.local" }, notes)).toBe("review:protected-path");
		expect(classifyPath("~/notes/a.md", notes)).toBe("workspace");
		expect(classifyPath("~/notes", notes)).toBe("workspace");
		expect(classifyPath("~/notesx", notes)).toBe("outside");
	});

	it("a trusted `<workspace file>` may be a file of an added folder", () => {
		const trusted = floorContextFor(
			applyGuardianDefaults({
				mode: "enforce",
				trustedCommands: ["python <workspace file>"],
				additionalDirectories: ["~/notes"],
			}),
			CWD,
			HOME,
			clean,
		);
		expect(bash("python /home/dev/notes/check.py", trusted)).toBe("allow:trusted-command");
		expect(bash("python /home/dev/other/check.py", trusted)).toBe("review:not-read-only");
	});
});

describe("the shell and the reviewer", () => {
	it("a PATH folder inside an added folder is protected, relative entries at every depth of each folder", () => {
		const facts = judgeShellSetup({
			environment: { PATH: "/home/dev/notes/bin:./node_modules/.bin:/usr/bin" },
			workspace: CWD,
			additionalDirectories: ["/home/dev/notes"],
			home: HOME,
		});
		expect(facts.verdict).toBe("bash");
		expect(facts.commandDirectories).toEqual([
			"/home/dev/notes/bin",
			"/home/dev/project/node_modules/.bin",
			"/home/dev/project/**/node_modules/.bin",
			"/home/dev/notes/node_modules/.bin",
			"/home/dev/notes/**/node_modules/.bin",
		]);
		const custom = judgeShellSetup({
			environment: {},
			shellPath: "/home/dev/notes/bin/bash",
			workspace: CWD,
			additionalDirectories: ["/home/dev/notes"],
			home: HOME,
		});
		expect(custom).toMatchObject({ verdict: "custom", cause: "shell-path" });
		const context = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", additionalDirectories: ["~/notes"] }),
			CWD,
			HOME,
			{ ...clean, shell: facts },
		);
		expect(bash("echo 'x' > ~/notes/bin/ls", context)).toBe("review:protected-path");
		expect(bash("echo 'x' > ~/notes/plan.md", context)).toBe("allow:workspace-write");
	});

	it("the reviewer is told the added folders; status shows their count, never a path", () => {
		const prompt = buildReviewerPrompt({
			toolName: "bash",
			input: { command: "python ~/notes/check.py" },
			cwd: CWD,
			home: HOME,
			additionalDirectories: ["/home/dev/notes"],
			transcript: [],
		});
		expect(prompt.userText).toContain(`The user's config adds these folders to the workspace: ["/home/dev/notes"]`);
		const without = buildReviewerPrompt({
			toolName: "bash",
			input: { command: "ls" },
			cwd: CWD,
			home: HOME,
			transcript: [],
		});
		expect(without.userText).not.toContain("adds these folders");
		const base = {
			mode: "enforce",
			reviewerModel: undefined,
			stats: initialGuardianStats(),
			breaker: { tripped: false, consecutive: 0, trips: 0 },
			pendingGrants: 0,
		};
		expect(formatGuardianStatus({ ...base, additionalDirectories: 2 })).toContain(
			"workspace: the working directory and 2 additional",
		);
		expect(formatGuardianStatus(base)).not.toContain("workspace:");
	});
});
