// A thirty-eighth review: workspace writes the floor allowed that make the user's other tools run a command of the
// agent's choosing later, with no prompt (git hook runners at the next commit, Claude Code's project hooks, mise's
// hooks, VS Code's folder-open tasks). Their writes are reviewed, by Pi's tools and by bash; reads stay allowed.
import { describe, expect, it } from "vitest";
import { applyGuardianDefaults, decideFloor, floorContextFor } from "../src/guardian/index.js";
import { bashOutcome, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const context = floorContextFor(config, CWD, HOME);
const writeTool = (path: string) => outcome(decideFloor("write", { path, content: "x" }, config, context));

const ARMED = [
	".husky/pre-commit",
	".husky/_/pre-commit",
	"packages/app/.husky/pre-push",
	".githooks/pre-commit",
	".git-hooks/commit-msg",
	"lefthook.yml",
	".lefthook.yml",
	"lefthook-local.yml",
	"lefthook.toml",
	".pre-commit-config.yaml",
	".claude/settings.json",
	"apps/web/.claude/settings.json",
	"mise.toml",
	".mise.toml",
	"mise.local.toml",
	".mise.production.toml",
	".config/mise/config.toml",
	".vscode/tasks.json",
	".vscode/settings.json",
	".devcontainer/devcontainer.json",
	".devcontainer.json",
	".cargo/config.toml",
	".gemini/settings.json",
	".codex/config.toml",
	"opencode.json",
	".HUSKY/pre-commit",
];

describe("configs that arm another tool's command", () => {
	it.each(ARMED)("reviews a write to %s, by the write tool and by bash", (path) => {
		expect(writeTool(path)).toBe("review:protected-path");
		expect(bashOutcome(`echo 'id > /tmp/x' > ${path}`, context)).toBe("review:writes");
		expect(bashOutcome(`cat > ${path} <<'EOF'\nid\nEOF`, context)).toBe("review:writes");
	});

	it.each([".husky/pre-commit", "lefthook.yml", ".claude/settings.json", ".vscode/settings.json", "mise.toml"])(
		"still allows reading %s",
		(path) => {
			expect(bashOutcome(`cat ${path}`, context)).toBe("allow:read-only");
		},
	);

	it.each([
		"notes.md",
		"src/hooks/pre-commit.ts",
		"docs/husky.md",
		".vscode/extensions.json",
		"tools/mise.md",
		"claude/settings.json",
	])("allows a write to %s, which arms nothing", (path) => {
		expect(writeTool(path)).toBe("allow:workspace-path");
	});

	it.each([
		"cd .husky && echo id > pre-commit",
		"cd .husky && cp ../notes.md pre-commit",
		"cd .vscode && sed -i s/a/b/ settings.json",
		"cd packages/app/.husky/_ && cat > pre-push <<'EOF'\nid\nEOF",
	])("reviews `%s`: judged by the folder the write lands in", (command) => {
		expect(bashOutcome(command, context)).toBe("review:writes");
	});
});
