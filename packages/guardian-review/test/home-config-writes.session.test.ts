// A thirty-ninth review: with home in the workspace (Pi started in `~`, or `~` an additional directory), the floor
// allowed writes to home's own configuration as workspace writes: a desktop autostart entry, a systemd user service,
// a program in `~/.local/bin` or `~/bin`, an editor's or a shell's start-up file the start-up list did not name.
// Real Pi sessions (faux agent and reviewer, real bash): each such write is reviewed, by Pi's tools, by bash and
// through a link, and the reviewer's denial leaves nothing behind; ordinary files of home and reads stay allowed.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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
			callTool("bash", { command: "echo notes > ~/notes.md && cat ~/.vimrc" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 4, "set up my desktop", "and my tools", "then take notes");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "floor"]);
		expect(existsSync(join(sandbox.home, ".config", "autostart", "helper.desktop"))).toBe(false);
		expect(existsSync(join(sandbox.home, ".config", "systemd"))).toBe(false);
		expect(existsSync(join(sandbox.home, ".local", "bin", "ls"))).toBe(false);
		expect(existsSync(join(sandbox.home, "notes.md"))).toBe(true);
		expect(resultTexts(h).join("\n")).toContain("set number");
	});

	it("without home in the workspace, the same writes are reviewed as writes outside it", async () => {
		const h = await sandbox.start({});
		h.agent(callTool("bash", { command: "mkdir -p ~/bin && printf '#!/bin/sh\\nid\\n' > ~/bin/ls" }), "done");
		expect(await promptsWithDenials(h, 1, "add a tool")).toEqual(["reviewer"]);
		expect(existsSync(join(sandbox.home, "bin"))).toBe(false);
	});
});
