// A fifty-third review, in real Pi sessions (faux agent and reviewer; real bash): dotfile links the mirror-image
// search of the fifty-first review still missed, each of which made bash or nvim run the agent's code. A write
// through a link the workspace ships (`rc -> bash/.bashrc.d`), GNU Stow's `--dotfiles` names (`dot-bashrc.d`) and
// chezmoi's (`dot_bashrc.d`), and Stow pointed at `~/.config` with `-t` (`xdg/nvim/lua/plugins/x.lua` four levels
// below it). Each write is now reviewed; a write elsewhere in the workspace is still allowed.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review53-home-" });

/** A workspace file at `path` that a link at `homePath` (its folders made real) leads to. */
function linkedFromHome(workspace: string, path: string, homePath: string): void {
	mkdirSync(dirname(join(workspace, path)), { recursive: true });
	writeFileSync(join(workspace, path), "original\n");
	mkdirSync(dirname(join(sandbox.home, homePath)), { recursive: true });
	symlinkSync(join(workspace, path), join(sandbox.home, homePath));
}

describe("dotfile links by other names", () => {
	it("reviews writes through a workspace link, under Stow's --dotfiles and chezmoi's names, and below Stow's -t", async () => {
		const h = await sandbox.start();
		linkedFromHome(h.cwd, "bash/.bashrc.d/aliases.sh", ".bashrc.d/aliases.sh");
		symlinkSync("bash/.bashrc.d", join(h.cwd, "rc"));
		linkedFromHome(h.cwd, "stow/dot-profile.d/env.sh", ".profile.d/env.sh");
		linkedFromHome(h.cwd, "dot_zshrc.d/z.zsh", ".zshrc.d/z.zsh");
		linkedFromHome(h.cwd, "xdg/nvim/lua/plugins/x.lua", ".config/nvim/lua/plugins/x.lua");
		const write = (path: string) => callTool("write", { path, content: "touch ~/ran\n" });
		const harmless = callTool("write", { path: "notes.md", content: "notes\n" });
		h.agent(
			callTool("bash", { command: "echo 'touch ~/ran' >> rc/aliases.sh" }),
			harmless,
			write("stow/dot-profile.d/env.sh"),
			harmless,
			"next",
			write("dot_zshrc.d/z.zsh"),
			harmless,
			callTool("bash", { command: "echo 'os.exit()' > xdg/nvim/lua/plugins/x.lua" }),
			harmless,
			"done",
		);
		expect(await promptsWithDenials(h, 4, "Tune the dotfiles.", "Go on.")).toEqual([
			"reviewer",
			"floor",
			"reviewer",
			"floor",
			"reviewer",
			"floor",
			"reviewer",
			"floor",
		]);
	});
});
