// The readers of home's names for the floor, on real folders: which of home's links count as links among its
// configuration, how their targets are named, and the user's own core.hooksPath outside a repository.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readGitArmedPaths } from "../src/git-armed-paths-reader.ts";
import { readHomeConfigLinkTargets } from "../src/path-link-reader.ts";

let root = "";
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-link-gaps-")));
});
afterEach(async () => {
	vi.unstubAllEnvs();
	await rm(root, { recursive: true, force: true });
});

describe("readHomeConfigLinkTargets", () => {
	it("follows links in home's hidden entries, ~/bin and ~/.local/bin, and not home's other entries", () => {
		const home = join(root, "home");
		mkdirSync(join(home, "dotfiles", "bin"), { recursive: true });
		mkdirSync(join(home, "src", "code"), { recursive: true });
		mkdirSync(join(home, ".local", "bin"), { recursive: true });
		mkdirSync(join(home, "bin"));
		writeFileSync(join(home, "dotfiles", "vimrc"), "set number\n");
		writeFileSync(join(home, "dotfiles", "bin", "tool"), "#!/bin/sh\n");
		writeFileSync(join(home, "dotfiles", "x"), "#!/bin/sh\n");
		symlinkSync(join(home, "dotfiles", "vimrc"), join(home, ".vimrc"));
		symlinkSync(join(home, "dotfiles", "bin", "tool"), join(home, ".local", "bin", "tool"));
		symlinkSync(join(home, "dotfiles", "x"), join(home, "bin", "x"));
		symlinkSync(join(home, "src", "code"), join(home, "code"));
		expect([...readHomeConfigLinkTargets(home, [home]).targets].sort()).toEqual([
			`${root}/home/dotfiles/bin/tool`,
			`${root}/home/dotfiles/vimrc`,
			`${root}/home/dotfiles/x`,
		]);
	});

	it("names a target through the workspace root it lies in, not by its real path", () => {
		const real = join(root, "real");
		mkdirSync(join(real, "dotfiles", "nvim"), { recursive: true });
		mkdirSync(join(real, ".config"));
		symlinkSync(join(real, "dotfiles", "nvim"), join(real, ".config", "nvim"));
		symlinkSync(real, join(root, "named"));
		expect(readHomeConfigLinkTargets(real, [join(root, "named")]).targets).toEqual([`${root}/named/dotfiles/nvim`]);
	});

	it("charges the bound only for the entries it looks at, and fails closed past it", () => {
		const home = join(root, "home");
		mkdirSync(join(home, "dotfiles", "nvim"), { recursive: true });
		mkdirSync(join(home, ".config"));
		symlinkSync(join(home, "dotfiles", "nvim"), join(home, ".config", "nvim"));
		// Home's other entries are not looked at: they use none of the bound.
		for (let index = 0; index < 300; index++) writeFileSync(join(home, `f${index}`), "");
		expect(readHomeConfigLinkTargets(home, [home], 8)).toEqual({
			targets: [`${root}/home/dotfiles/nvim`],
			complete: true,
		});
		for (let index = 0; index < 10; index++) writeFileSync(join(home, ".config", `c${index}`), "");
		expect(readHomeConfigLinkTargets(home, [home, join(root, "notes")], 8)).toEqual({
			targets: [home, join(root, "notes")],
			complete: false,
		});
	});

	it("leaves the Trash out of the bound (a fifty-second review)", () => {
		const home = join(root, "home");
		mkdirSync(join(home, "dotfiles", "nvim"), { recursive: true });
		mkdirSync(join(home, ".config"));
		symlinkSync(join(home, "dotfiles", "nvim"), join(home, ".config", "nvim"));
		mkdirSync(join(home, ".local", "share", "Trash", "files"), { recursive: true });
		for (let index = 0; index < 20; index++)
			writeFileSync(join(home, ".local", "share", "Trash", "files", `t${index}`), "");
		expect(readHomeConfigLinkTargets(home, [home], 8)).toEqual({
			targets: [`${root}/home/dotfiles/nvim`],
			complete: true,
		});
	});

	it("fails closed when a large ~/.config runs past the bound, and finds the PATH link within it (a fiftieth review)", () => {
		const home = join(root, "home");
		const workspace = join(root, "ws");
		mkdirSync(join(workspace, "bin"), { recursive: true });
		writeFileSync(join(workspace, "bin", "hello"), "#!/bin/sh\n");
		mkdirSync(join(home, ".local", "bin"), { recursive: true });
		symlinkSync(join(workspace, "bin", "hello"), join(home, ".local", "bin", "hello"));
		mkdirSync(join(home, ".config", "app"), { recursive: true });
		for (let index = 0; index < 6; index++) writeFileSync(join(home, ".config", "app", `s${index}`), "");
		const read = readHomeConfigLinkTargets(home, [workspace], 8);
		expect(read.complete).toBe(false);
		expect(read.targets).toEqual([workspace]);
		expect(readHomeConfigLinkTargets(home, [workspace], 64)).toEqual({
			targets: [`${workspace}/bin/hello`],
			complete: true,
		});
	});
});

describe("readGitArmedPaths outside a repository", () => {
	it("takes the user's absolute or home values, and no relative one", async () => {
		// The sandbox's own config files only: no system file, no redirected user file.
		vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
		vi.stubEnv("GIT_CONFIG_GLOBAL", undefined);
		vi.stubEnv("XDG_CONFIG_HOME", undefined);
		const home = join(root, "home");
		const folder = join(root, "plain");
		mkdirSync(home);
		mkdirSync(folder);
		writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = hooks\n");
		expect(await readGitArmedPaths(folder, home)).toEqual([]);
		writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = ~/git-hooks\n");
		expect(await readGitArmedPaths(folder, home)).toEqual([`${root}/home/git-hooks`]);
	});

	it("cannot tell with git's folder or config redirected by the environment", async () => {
		vi.stubEnv("GIT_DIR", join(root, "elsewhere"));
		mkdirSync(join(root, "plain"));
		expect(await readGitArmedPaths(join(root, "plain"), join(root, "plain"))).toBe("unknown");
	});
});
