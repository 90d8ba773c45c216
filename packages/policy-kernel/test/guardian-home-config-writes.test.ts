// A thirty-ninth review: with home in the workspace (Pi started in `~`, or `~` an additional directory), home's own
// configuration (its hidden entries, `~/bin`, `~/Library`, `AppData`) is not workspace work. A write there counts as a
// write outside the workspace, by Pi's tools and by bash, unless the user named a folder inside it as a root (Pi
// started in `~/.config/nvim`). Reads are unchanged: the protected list judges them.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideFloor,
	type FloorContext,
	floorContextFor,
	isHomeConfigPath,
	isWritableWorkspacePath,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, HOME, outcome } from "./floor-outcome.js";

function contextIn(cwd: string, input: Record<string, unknown> = {}): FloorContext {
	return floorContextFor(applyGuardianDefaults({ mode: "enforce", ...input }), cwd, HOME, {
		...CLEAN_GIT,
		gitTop: cwd,
	});
}

function tool(name: string, input: Record<string, unknown>, context: FloorContext, config = {}): string {
	return outcome(decideFloor(name, input, applyGuardianDefaults({ mode: "enforce", ...config }), context));
}

const inHome = contextIn(HOME);

describe("isHomeConfigPath", () => {
	it.each<[string, boolean]>([
		["/home/dev/.vimrc", true],
		["/home/dev/.config/autostart/x.desktop", true],
		["/home/dev/.local/bin/ls", true],
		["/home/dev/bin/ls", true],
		["/home/dev/Library/LaunchAgents/x.plist", true],
		["/home/dev/AppData/Roaming/x", true],
		["/home/dev/notes.md", false],
		["/home/dev/project/.vscode/x.json", false],
		["/home/dev/binaries/x", false],
		["/home/dev", false],
		["/home/devx/.vimrc", false],
		["/etc/profile", false],
	])("%s: %s with Pi started in home", (path, expected) => {
		expect(isHomeConfigPath(path, HOME, [HOME])).toBe(expected);
	});

	it("is false inside a root the user named within that entry, and true beside it", () => {
		expect(isHomeConfigPath("/home/dev/.config/nvim/init.lua", HOME, ["/home/dev/.config/nvim"])).toBe(false);
		expect(isHomeConfigPath("/home/dev/.config/nvim/init.lua", HOME, [HOME, "/home/dev/.config/nvim"])).toBe(false);
		expect(isHomeConfigPath("/home/dev/.config/fish/config.fish", HOME, [HOME, "/home/dev/.config/nvim"])).toBe(true);
		expect(isHomeConfigPath("/root/.bashrc", "/root", ["/"])).toBe(true);
		expect(isHomeConfigPath("/.profile", "/", ["/"])).toBe(true);
		expect(isHomeConfigPath("/srv/x", "/", ["/"])).toBe(false);
	});

	it("isWritableWorkspacePath needs the workspace too", () => {
		expect(isWritableWorkspacePath("/home/dev/notes.md", HOME, HOME, [])).toBe(true);
		expect(isWritableWorkspacePath("/home/dev/.vimrc", HOME, HOME, [])).toBe(false);
		expect(isWritableWorkspacePath("/home/dev/notes.md", "/home/dev/project", HOME, [])).toBe(false);
		expect(isWritableWorkspacePath("/home/dev/.vimrc", "/home/dev/project", HOME, [HOME])).toBe(false);
		expect(isWritableWorkspacePath("/home/dev/notes.md", "/home/dev/project", HOME, [HOME])).toBe(true);
	});
});

describe("the floor with Pi started in home", () => {
	it.each<[string]>([
		["echo x > ~/.vimrc"],
		["printf '[Desktop Entry]\\nExec=id\\n' > .config/autostart/x.desktop"],
		["mkdir -p ~/.config/systemd/user"],
		["cd .config && mkdir -p fish && echo id >> fish/config.fish"],
		["cp notes.md .tmux.conf"],
		["echo 'shell id' >> .gdbinit"],
		["mv tool ~/bin/ls"],
		["rm ~/.local/bin/helper"],
		["touch ~/Library/LaunchAgents/x.plist"],
		["cat > .config/nvim/init.lua <<'EOF'\nos.execute('id')\nEOF"],
	])("%s: reviewed as a write outside the workspace", (command) => {
		expect(bashOutcome(command, inHome)).toBe("review:outside-workspace");
	});

	it.each<[string]>([["echo x > notes.md"], ["cat ~/.vimrc"], ["ls -la .config"], ["grep -n set .vimrc"]])(
		"%s: still allowed",
		(command) => {
			expect(bashOutcome(command, inHome)).toMatch(/^allow:/);
		},
	);

	it("Pi's write and edit tools are judged the same way", () => {
		expect(tool("write", { path: "~/.config/autostart/x.desktop", content: "x" }, inHome)).toBe(
			"review:outside-workspace",
		);
		expect(tool("edit", { path: ".profile.d/x.sh", edits: [] }, inHome)).toBe("review:outside-workspace");
		expect(tool("write", { path: "bin/ls", content: "x" }, inHome)).toBe("review:outside-workspace");
		expect(tool("write", { path: "notes/today.md", content: "x" }, inHome)).toBe("allow:workspace-path");
		expect(tool("read", { path: ".vimrc" }, inHome)).toMatch(/^allow:/);
	});

	it("follows the write scope: allowed where writes outside the workspace are (protected-only); protected paths stay reviewed", () => {
		const scopes = (write: string) => ({ tools: { write, edit: write } });
		const protectedOnly = contextIn(HOME, scopes("protected-only"));
		expect(tool("write", { path: ".vimrc", content: "x" }, protectedOnly, scopes("protected-only"))).toBe(
			"allow:no-protected-path",
		);
		expect(tool("write", { path: ".bashrc", content: "x" }, protectedOnly, scopes("protected-only"))).toBe(
			"review:protected-path",
		);
	});

	it("a folder of home the user named as the workspace or an additional directory is workspace work", () => {
		const nvim = contextIn("/home/dev/.config/nvim");
		expect(bashOutcome("echo 'set number' > init.vim", nvim)).toBe("allow:workspace-write");
		expect(bashOutcome("echo x > ../fish/config.fish", nvim)).toBe("review:outside-workspace");
		const withNvim = contextIn(HOME, { additionalDirectories: ["~/.config/nvim"] });
		expect(bashOutcome("echo x > .config/nvim/init.vim", withNvim)).toBe("allow:workspace-write");
		expect(bashOutcome("echo x > .config/fish/config.fish", withNvim)).toBe("review:outside-workspace");
	});

	it("a project below home is unchanged: home's files are outside it", () => {
		const project = contextIn("/home/dev/project");
		expect(bashOutcome("echo x > .vscode/notes.md", project)).toBe("allow:workspace-write");
		expect(bashOutcome("echo x > ~/.vimrc", project)).toBe("review:outside-workspace");
	});
});
