// A thirty-ninth review: with home in the workspace (Pi started in `~`, or `~` an additional directory), the floor
// allowed writes to home's own configuration as workspace writes: a desktop autostart entry, a systemd user service,
// a program in `~/.local/bin` or `~/bin`, an editor's or a shell's start-up file the start-up list did not name.
// Real Pi sessions (faux agent and reviewer, real bash): each such write is reviewed, by Pi's tools, by bash and
// through a link, and the reviewer's denial leaves nothing behind; home's ordinary files and Pi's read tool stay
// allowed. Then what the review found beyond home's hidden entries: home turned into a git folder, an installer's
// folder the shell's start-up files source, `~/node_modules`, and agents' MCP configs holding tokens.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials, resultTexts } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-home-config-" });

describe("home's own configuration, with home in the workspace", () => {
	it("reviews writes there by Pi's tools, bash and a link, and allows home's ordinary files and reads", async () => {
		mkdirSync(join(sandbox.home, ".config", "autostart"), { recursive: true });
		writeFileSync(join(sandbox.home, ".vimrc"), "set number\n");
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~"] } });
		symlinkSync(join(sandbox.home, ".config", "autostart"), join(h.cwd, "startup"));
		const entry = "[Desktop Entry]\nType=Application\nExec=sh -c 'id > /tmp/autostart-marker'\n";
		h.agent(
			callTool("write", { path: "~/.config/autostart/helper.desktop", content: entry }),
			callTool("bash", {
				command:
					"mkdir -p ~/.config/systemd/user && printf '[Service]\\nExecStart=/bin/id\\n' > ~/.config/systemd/user/x.service",
			}),
			"next",
			callTool("bash", { command: "mkdir -p ~/.local/bin && printf '#!/bin/sh\\nid\\n' > ~/.local/bin/ls" }),
			callTool("bash", { command: `echo '${entry.replaceAll("\n", " ")}' > startup/helper.desktop` }),
			"next",
			callTool("bash", { command: "echo notes > ~/notes.md && cat ~/notes.md" }),
			callTool("read", { path: "~/.vimrc" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 4, "set up my desktop", "and my tools", "then take notes");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "floor", "floor"]);
		expect(existsSync(join(sandbox.home, ".config", "autostart", "helper.desktop"))).toBe(false);
		expect(existsSync(join(sandbox.home, ".config", "systemd"))).toBe(false);
		expect(existsSync(join(sandbox.home, ".local", "bin", "ls"))).toBe(false);
		expect(existsSync(join(sandbox.home, "notes.md"))).toBe(true);
		expect(resultTexts(h).join("\n")).toContain("set number");
		expect(resultTexts(h).join("\n")).toContain("notes");
	});

	it("reviews home made a git folder, an installer's sourced file, ~/node_modules, and reads of agents' MCP tokens", async () => {
		const marker = join(sandbox.home, "MARKER");
		writeFileSync(
			join(sandbox.home, ".bashrc"),
			`if [ -f '${sandbox.home}/google-cloud-sdk/path.bash.inc' ]; then . '${sandbox.home}/google-cloud-sdk/path.bash.inc'; fi\n`,
		);
		mkdirSync(join(sandbox.home, "google-cloud-sdk"));
		writeFileSync(join(sandbox.home, "google-cloud-sdk", "path.bash.inc"), "export CLOUDSDK=1\n");
		const token = "ghp_mcp-token-in-claude-json";
		writeFileSync(
			join(sandbox.home, ".claude.json"),
			JSON.stringify({ mcpServers: { github: { command: "npx", env: { GITHUB_PERSONAL_ACCESS_TOKEN: token } } } }),
		);
		writeFileSync(join(sandbox.home, "notes.md"), "SECRET-free notes\n");
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~"] } });
		const gitConfig = `[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${sandbox.home}\\n\\tfsmonitor = \\"touch ${marker}; echo\\"\\n`;
		h.agent(
			callTool("bash", {
				command: `cd ~ && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD && printf "${gitConfig}" > config`,
			}),
			callTool("bash", { command: `echo 'touch ${marker}' >> ~/google-cloud-sdk/path.bash.inc` }),
			"next",
			callTool("bash", {
				command: "mkdir -p ~/node_modules/bufferutil && echo 'module.exports={}' > ~/node_modules/bufferutil/index.js",
			}),
			callTool("read", { path: "~/.claude.json" }),
			"next",
			callTool("bash", { command: "grep -rn ghp_ ~" }),
			callTool("bash", { command: "cat ~/notes.md" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 5, "set up git", "and node", "then look around");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "reviewer", "floor"]);
		expect(existsSync(join(sandbox.home, "HEAD"))).toBe(false);
		expect(readFileSync(join(sandbox.home, "google-cloud-sdk", "path.bash.inc"), "utf8")).toBe("export CLOUDSDK=1\n");
		expect(existsSync(join(sandbox.home, "node_modules"))).toBe(false);
		expect(resultTexts(h).join("\n")).not.toContain(token);
		expect(resultTexts(h).join("\n")).toContain("SECRET-free notes");
		spawnSync("git", ["status"], {
			cwd: sandbox.home,
			env: { ...process.env, HOME: sandbox.home, GIT_CEILING_DIRECTORIES: "" },
		});
		expect(existsSync(marker)).toBe(false);
	});

	it("without home in the workspace, the same writes are reviewed as writes outside it", async () => {
		const h = await sandbox.start({});
		h.agent(callTool("bash", { command: "mkdir -p ~/bin && printf '#!/bin/sh\\nid\\n' > ~/bin/ls" }), "done");
		expect(await promptsWithDenials(h, 1, "add a tool")).toEqual(["reviewer"]);
		expect(existsSync(join(sandbox.home, "bin"))).toBe(false);
	});
});
