// The mirror-image search for home's links into the folders a call writes in (decision 0017), on real folders:
// Stow's folder and file links at any depth, rcm's undotted names, links elsewhere, and the bounds.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMirroredHomeLinkTargets } from "../src/path-link-reader.ts";

let root = "";
let home = "";
let ws = "";
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-mirror-")));
	home = join(root, "home");
	ws = join(root, "ws");
	mkdirSync(home);
	mkdirSync(ws);
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

/** A link at `path` to `target`, making the folders it lies in. */
function link(target: string, path: string): void {
	mkdirSync(dirname(path), { recursive: true });
	symlinkSync(target, path);
}

describe("readMirroredHomeLinkTargets", () => {
	it("takes a folder a link on the mirror path leads to, and folders below it not made yet", () => {
		mkdirSync(join(ws, "vim/.vim/plugin"), { recursive: true });
		link(join(ws, "vim/.vim/plugin"), join(home, ".vim/plugin"));
		const folders = [join(ws, "vim/.vim/plugin"), join(ws, "vim/.vim/plugin/new/deeper")];
		expect(readMirroredHomeLinkTargets(home, [ws], folders)).toEqual(folders);
	});

	it("names the files a real mirrored folder's links lead to, with or without the dot rcm drops", () => {
		mkdirSync(join(ws, "ssh/.ssh"), { recursive: true });
		writeFileSync(join(ws, "ssh/.ssh/config"), "");
		link(join(ws, "ssh/.ssh/config"), join(home, ".ssh/config"));
		mkdirSync(join(ws, "zshrc.d"));
		writeFileSync(join(ws, "zshrc.d/a.zsh"), "");
		link(join(ws, "zshrc.d/a.zsh"), join(home, ".zshrc.d/a.zsh"));
		expect(readMirroredHomeLinkTargets(home, [ws], [join(ws, "ssh/.ssh"), join(ws, "zshrc.d")])).toEqual([
			join(ws, "ssh/.ssh/config"),
			join(ws, "zshrc.d/a.zsh"),
		]);
	});

	it("reads Stow's --dotfiles names: dot-vim/plugin mirrors ~/.vim/plugin", () => {
		mkdirSync(join(ws, "vim/dot-vim/plugin"), { recursive: true });
		writeFileSync(join(ws, "vim/dot-vim/plugin/x.vim"), "");
		link(join(ws, "vim/dot-vim/plugin/x.vim"), join(home, ".vim/plugin/x.vim"));
		expect(readMirroredHomeLinkTargets(home, [ws], [join(ws, "vim/dot-vim/plugin")])).toEqual([
			join(ws, "vim/dot-vim/plugin/x.vim"),
		]);
	});

	it("follows the workspace's own links, reads chezmoi's names, and looks below ~/.config for Stow's -t (a fifty-third review)", () => {
		mkdirSync(join(ws, "bash/.bashrc.d"), { recursive: true });
		writeFileSync(join(ws, "bash/.bashrc.d/aliases.sh"), "");
		link(join(ws, "bash/.bashrc.d/aliases.sh"), join(home, ".bashrc.d/aliases.sh"));
		symlinkSync("bash/.bashrc.d", join(ws, "rc"));
		mkdirSync(join(ws, "private_dot_ssh"));
		writeFileSync(join(ws, "private_dot_ssh/config"), "");
		link(join(ws, "private_dot_ssh/config"), join(home, ".ssh/config"));
		mkdirSync(join(ws, "xdg/nvim/lua/plugins"), { recursive: true });
		writeFileSync(join(ws, "xdg/nvim/lua/plugins/x.lua"), "");
		link(join(ws, "xdg/nvim/lua/plugins/x.lua"), join(home, ".config/nvim/lua/plugins/x.lua"));
		const folders = [join(ws, "rc"), join(ws, "private_dot_ssh"), join(ws, "xdg/nvim/lua/plugins")];
		expect(readMirroredHomeLinkTargets(home, [ws], folders)).toEqual([
			join(ws, "rc/aliases.sh"),
			join(ws, "private_dot_ssh/config"),
			join(ws, "xdg/nvim/lua/plugins/x.lua"),
		]);
	});

	it("finds nothing for links elsewhere, mirror folders without links, or folders outside the roots", () => {
		mkdirSync(join(ws, "vim/.vim/plugin"), { recursive: true });
		mkdirSync(join(root, "other"));
		link(join(root, "other"), join(home, ".vim/plugin"));
		mkdirSync(join(home, ".config/app"), { recursive: true });
		writeFileSync(join(home, ".config/app/settings"), "");
		mkdirSync(join(ws, "cfg/.config/app"), { recursive: true });
		expect(
			readMirroredHomeLinkTargets(
				home,
				[ws],
				[join(ws, "vim/.vim/plugin"), join(ws, "cfg/.config/app"), join(root, "other")],
			),
		).toEqual([]);
	});

	it("takes the folder itself past the depth bound or when the mirrored folder holds too many entries", () => {
		const deep = join(ws, ...Array.from({ length: 33 }, (_, index) => `d${index}`));
		mkdirSync(join(ws, ".big"));
		mkdirSync(join(home, ".big"));
		for (let index = 0; index < 4_097; index++) writeFileSync(join(home, ".big", `f${index}`), "");
		expect(readMirroredHomeLinkTargets(home, [ws], [deep, join(ws, ".big")])).toEqual([deep, join(ws, ".big")]);
	});

	it("looks only at home's own configuration: a convenience link such as ~/src -> ~/code is not one", () => {
		const code = join(home, "code");
		mkdirSync(join(code, "project/src"), { recursive: true });
		link(code, join(home, "src"));
		mkdirSync(join(code, "project/bin"), { recursive: true });
		link(join(code, "project/bin"), join(home, "bin"));
		expect(
			readMirroredHomeLinkTargets(
				home,
				[join(code, "project")],
				[join(code, "project/src"), join(code, "project/bin")],
			),
		).toEqual([join(code, "project/bin")]);
	});
});

describe("readMirroredHomeLinkTargets, a fifty-fourth review", () => {
	it("looks below a folder an mv renames, however deep, and walks through a home link to a folder elsewhere", () => {
		mkdirSync(join(ws, "nvim/.config/nvim/lua/plugins"), { recursive: true });
		writeFileSync(join(ws, "nvim/.config/nvim/lua/plugins/x.lua"), "");
		// `~/.config` itself leads elsewhere (a synced folder).
		link(join(ws, "nvim/.config/nvim/lua/plugins/x.lua"), join(root, "sync/config/nvim/lua/plugins/x.lua"));
		symlinkSync(join(root, "sync/config"), join(home, ".config"));
		const lua = join(ws, "nvim/.config/nvim/lua");
		// As the folder written (one level listed) it finds nothing; as a folder renamed it finds the file below.
		expect(readMirroredHomeLinkTargets(home, [ws], [lua])).toEqual([]);
		expect(readMirroredHomeLinkTargets(home, [ws], [], [lua])).toEqual([join(lua, "plugins/x.lua")]);
		expect(readMirroredHomeLinkTargets(home, [ws], [join(lua, "plugins")])).toEqual([join(lua, "plugins/x.lua")]);
	});
});
