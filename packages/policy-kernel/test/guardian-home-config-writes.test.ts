// A thirty-ninth review: with home in the workspace (Pi started in `~`, or `~` an additional directory), home's own
// configuration (its hidden entries, `~/bin`, `~/Library`, `AppData`) is not workspace work. A write there counts as a
// write outside the workspace, by Pi's tools and by bash, unless the user named a folder inside it as a root (Pi
// started in `~/.config/nvim`). So is a bash read there (Pi's reading tools keep their protected-only default).
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	DEFAULT_PROTECTED_PATHS,
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

	it.each<[string]>([["echo x > notes.md"], ["cat notes.md"], ["ls -la project"], ["grep -n set notes.md"]])(
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

describe("what a thirty-ninth review found beyond home's hidden entries", () => {
	it.each<[string]>([
		["cd ~ && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD"],
		["echo ../.git > commondir"],
		["cp notes.md project/HEAD"],
		["echo 'import os' > project/.venv/lib/python3.11/site-packages/zz.pth"],
		["echo 'import os' > project/sitecustomize.py"],
	])("%s: a file that arms git or Python is reviewed in any workspace", (command) => {
		expect(bashOutcome(command.replace("cd ~ && ", ""), contextIn("/home/dev/project"))).toBe("review:writes");
		expect(bashOutcome(command, inHome)).toMatch(/^review:(writes|outside-workspace)$/);
	});

	it("the write tool too, and a plain file named like a site folder's is allowed elsewhere", () => {
		expect(tool("write", { path: "HEAD", content: "ref: refs/heads/main\n" }, inHome)).toBe("review:protected-path");
		expect(tool("write", { path: "project/lib/site-packages/a.pth", content: "x" }, inHome)).toBe(
			"review:protected-path",
		);
		expect(tool("write", { path: "project/notes/a.pth", content: "x" }, inHome)).toBe("allow:workspace-path");
		expect(tool("write", { path: "project/head.md", content: "x" }, inHome)).toBe("allow:workspace-path");
	});

	it.each<[string]>([
		["echo 'touch x' >> ~/google-cloud-sdk/path.bash.inc"],
		["echo x > ~/miniconda3/lib/python3.11/site-packages/zz.py"],
		["mkdir -p ~/node_modules/bufferutil && echo 'module.exports={}' > ~/node_modules/bufferutil/index.js"],
		["echo x > ~/go/bin/gopls"],
		["echo x > ~/perl5/lib/perl5/x.pm"],
	])("%s: a folder an installer keeps in home is its configuration", (command) => {
		// A site folder's files are reviewed wherever they lie (a sixty-seventh review).
		const expected = command.includes("site-packages") ? "review:writes" : "review:outside-workspace";
		expect(bashOutcome(command, inHome)).toBe(expected);
	});

	it("with home in the workspace, bash reads of home's configuration and searches of home are reviewed too", () => {
		expect(bashOutcome("cat ~/.config/op/config", inHome)).toBe("review:outside-workspace");
		expect(bashOutcome("grep -rn SECRET ~", inHome)).toBe("review:outside-workspace");
		expect(bashOutcome("rg -n TOKEN .", inHome)).toBe("review:outside-workspace");
		expect(bashOutcome("grep -rn x ~/.config", contextIn("/home/dev/project"))).toBe("review:outside-workspace");
		expect(bashOutcome("grep -rn TODO project", inHome)).toBe("allow:read-only");
		expect(bashOutcome("cat notes.md", inHome)).toBe("allow:read-only");
		expect(bashOutcome("rg -n TODO .", contextIn("/home/dev/project"))).toBe("allow:read-only");
	});

	it.each<[string]>([
		["~/.claude.json"],
		["~/.claude/backups/.claude.json.backup.1"],
		["~/.config/Claude/claude_desktop_config.json"],
		["~/.codeium/windsurf/mcp_config.json"],
		["~/.gemini/settings.json"],
		["~/.codex/config.toml"],
		["~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"],
		["~/.wakatime.cfg"],
		["~/.local/state/zsh/history"],
		["~/.local/state/bash/history"],
		["~/Library/Application Support/ngrok/ngrok.yml"],
		["~/.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json"],
		["~/.authinfo"],
		["~/.msmtprc"],
		["~/.smbcredentials"],
		["~/.vnc/passwd"],
		["~/.config/gspread/authorized_user.json"],
		["~/.android/adbkey"],
		["~/.kube/config-prod"],
	])("Pi's read tool of %s is reviewed as a protected path, from any workspace", (path) => {
		expect(tool("read", { path }, contextIn("/home/dev/project"))).toBe("review:protected-path");
		expect(tool("read", { path }, inHome)).toBe("review:protected-path");
	});

	it("a project's own agent configs stay readable", () => {
		const project = contextIn("/home/dev/project");
		expect(tool("read", { path: ".gemini/settings.json" }, project)).toMatch(/^allow:/);
		expect(tool("read", { path: ".codex/config.toml" }, project)).toMatch(/^allow:/);
	});
});

describe("the default protected list", () => {
	it("has no segment that is a bare wildcard, which every trusted glob (`pytest -q t?`) would meet", () => {
		const bare = DEFAULT_PROTECTED_PATHS.filter((glob) => glob.split("/").some((part) => part === "*" || part === "?"));
		expect(bare).toEqual([]);
		// guardian-twenty-fifth-review.test.ts pins that `pytest -q t?` stays allowed with a clean listing.
	});
});
