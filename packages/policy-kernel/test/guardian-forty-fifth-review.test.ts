// A forty-fifth review looked for the opposite of a bypass: ordinary work this stop's rules sent to review with no
// gain. Each of these is allowed again; the harmful forms next to them stay reviewed.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	normalizeAbsolutePath,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const husky: FloorContext = {
	...floorContextFor(config, CWD, HOME, CLEAN_GIT),
	gitArmedPaths: [`${CWD}/.husky/_`, `${CWD}/.gitconfig`],
};
const tool = (name: string, input: Record<string, unknown>) => outcome(decideFloor(name, input, config, husky));

describe("ordinary work next to the rules", () => {
	it.each<[string]>([
		["cp docs/guide.md ."],
		["mkdir -p scripts && echo make > scripts/build.sh"],
		["mkdir -p .vscode && echo '{\"recommendations\":[]}' > .vscode/extensions.json"],
		["mkdir -p src/components/Head && echo 'export {}' > src/components/Head/index.tsx"],
		["mkdir -p internal/head && echo 'package head' > internal/head/head.go"],
		["echo notes > .devcontainer/README.md"],
		["mkdir .cargo"],
	])("%s is allowed", (command) => {
		expect(bashOutcome(command, husky)).toBe("allow:workspace-write");
	});

	it("Pi's write and edit of such files are allowed", () => {
		expect(tool("write", { path: "scripts/load-profile.ps1", content: "x" })).toBe("allow:workspace-path");
		expect(tool("edit", { path: ".devcontainer/Dockerfile", edits: [] })).toBe("allow:workspace-path");
		expect(tool("write", { path: ".vscode/extensions.json", content: "{}" })).toBe("allow:workspace-path");
	});

	it.each<[string, string]>([
		["echo x > .husky/_/pre-commit", "review:writes"],
		["echo x >> .gitconfig", "review:writes"],
		["mv staged .vscode", "review:writes"],
		["mv .husky h", "review:writes"],
		["echo 'ref: refs/heads/main' > HEAD", "review:writes"],
		["echo x > Microsoft.PowerShell_profile.ps1", "review:writes"],
		["echo x > .devcontainer/devcontainer.json", "review:writes"],
	])("%s stays %s", (command, expected) => {
		expect(bashOutcome(command, husky)).toBe(expected);
	});
});

describe("what a forty-sixth review left as leads", () => {
	it("reviews an mv whose destination link leads above a path git runs programs from", () => {
		const armed: FloorContext = {
			...floorContextFor(config, CWD, HOME, CLEAN_GIT),
			gitArmedPaths: [`${CWD}/a/tools/hooks`],
		};
		const command = "mv stage/tools l";
		const requested = floorFactRequestsOf(command, armed).linkPaths;
		const links = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
		links.set(`${CWD}/l`, `${CWD}/a`);
		expect(bashOutcome(command, { ...armed, pathLinks: links })).toBe("review:writes");
		const plain = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
		expect(bashOutcome(command, { ...armed, pathLinks: plain })).toBe("allow:workspace-write");
	});

	it("matches PowerShell profiles of hosts whose names hold a hyphen or a dot", () => {
		expect(bashOutcome("echo x > Microsoft.dotnet-interactive_profile.ps1", husky)).toBe("review:writes");
		expect(bashOutcome("echo x > scripts/load-profile.ps1", husky)).toBe("allow:workspace-write");
	});
});
