// A forty-first review, in real Pi sessions (faux agent and reviewer; real git and bash): hooks written in the
// `core.hooksPath` folder of a nested repository, of the user's own config outside a repository, or of a folder
// reached through a link; home reached by its real path when `$HOME` leads through a link; and a dotfiles folder
// that home's configuration links to. Each write is reviewed; the reviewer's denial leaves the hook unchanged.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { homeNamedLikeWorkspace, readHomeConfigLinkTargets } from "../src/path-link-reader.ts";
import {
	callTool,
	guardianSandboxPerTest,
	initWithFiles,
	PROJECT_HOOK,
	promptsWithDenials,
	resultTexts,
	runGit,
	startInGitRepo,
	writeProjectHook,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review41-home-" });

describe("hooks folders beyond the workspace repository's own", () => {
	it("reviews a hook written in a nested repository's hooks folder, by bash and Pi's write, and its commit runs none", async () => {
		const h = await startInGitRepo(sandbox);
		const lib = join(h.cwd, "lib");
		initWithFiles(sandbox.home, lib, { "README.md": "lib\n" });
		runGit(sandbox.home, lib, "config", "core.hooksPath", "ci/hooks");
		mkdirSync(join(lib, "ci", "hooks"), { recursive: true });
		writeProjectHook(join(lib, "ci", "hooks", "pre-commit"));
		const marker = join(sandbox.home, "nested-hook-ran");
		h.agent(
			callTool("bash", { command: `printf '#!/bin/sh\\nid > ${marker}\\n' > lib/ci/hooks/pre-commit` }),
			callTool("write", { path: "lib/ci/hooks/commit-msg", content: `#!/bin/sh\nid > ${marker}\n` }),
			"next",
			callTool("bash", { command: "echo 'print(1)' > lib/src.py" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "add hooks", "and code")).toEqual(["reviewer", "reviewer", "floor"]);
		expect(readFileSync(join(lib, "ci", "hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
		runGit(sandbox.home, lib, "commit", "--allow-empty", "-qm", "next");
		expect(existsSync(marker)).toBe(false);
	});

	it("reviews a hook in the user's own hooks folder with home in a workspace that is no repository", async () => {
		writeFileSync(join(sandbox.home, ".gitconfig"), "[core]\n\thooksPath = ~/git-hooks\n");
		mkdirSync(join(sandbox.home, "git-hooks"));
		writeProjectHook(join(sandbox.home, "git-hooks", "pre-commit"));
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~"] } });
		h.agent(callTool("bash", { command: "printf '#!/bin/sh\\nid\\n' > ~/git-hooks/pre-commit" }), "done");
		expect(await promptsWithDenials(h, 1, "add a hook")).toEqual(["reviewer"]);
		expect(readFileSync(join(sandbox.home, "git-hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
	});

	it("reviews a hook written by the real path of a hooks folder that is a link", async () => {
		const h = await startInGitRepo(sandbox);
		mkdirSync(join(h.cwd, "tools", "hooks"), { recursive: true });
		writeProjectHook(join(h.cwd, "tools", "hooks", "pre-commit"));
		symlinkSync("tools/hooks", join(h.cwd, "githooks"));
		runGit(sandbox.home, h.cwd, "config", "core.hooksPath", "githooks");
		h.agent(
			callTool("bash", { command: "printf '#!/bin/sh\\nid\\n' > tools/hooks/pre-commit" }),
			callTool("write", { path: "tools/hooks/pre-push", content: "#!/bin/sh\nid\n" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "add hooks")).toEqual(["reviewer", "reviewer"]);
		expect(readFileSync(join(h.cwd, "tools", "hooks", "pre-commit"), "utf8")).toBe(PROJECT_HOOK);
	});
});

describe("home by another name", () => {
	it("names home as the workspace's real path does when $HOME leads through a link", async () => {
		const root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-review41-linked-")));
		try {
			const real = join(root, "usr", "home", "dev");
			mkdirSync(join(real, "project"), { recursive: true });
			mkdirSync(join(root, "home"));
			symlinkSync(join(root, "usr", "home"), join(root, "home", "x"));
			const linked = join(root, "home", "x", "dev");
			expect(homeNamedLikeWorkspace(linked, join(real, "project"))).toBe(real);
			expect(homeNamedLikeWorkspace(linked, real)).toBe(real);
			expect(homeNamedLikeWorkspace(linked, join(linked, "project"))).toBe(linked);
			expect(homeNamedLikeWorkspace(linked, "/srv/elsewhere")).toBe(linked);
		} finally {
			await rm(root, { recursive: true, force: true });
		}
	});

	it("with Pi started in home by its real path and $HOME a link to it, home's secrets and config stay home's", async () => {
		const root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-review41-link-")));
		try {
			// `$HOME` names home through a link (`/home -> /usr/home`); Pi's folder is home's real path.
			const linkedHome = join(root, "home-link");
			const h = await sandbox.start({ env: { HOME: linkedHome }, guardianOptions: { home: linkedHome } });
			symlinkSync(h.cwd, linkedHome);
			mkdirSync(join(h.cwd, ".config", "gh"), { recursive: true });
			writeFileSync(join(h.cwd, ".config", "gh", "hosts.yml"), "github.com:\n    oauth_token: very-secret-41\n");
			h.agent(
				callTool("read", { path: ".config/gh/hosts.yml" }),
				callTool("bash", { command: "cat .config/gh/hosts.yml" }),
				"next",
				callTool("bash", { command: "mkdir -p .ssh && echo 'ssh-ed25519 AAAA attacker' >> .ssh/authorized_keys" }),
				callTool("bash", { command: "echo notes > notes.md" }),
				"done",
			);
			const sources = await promptsWithDenials(h, 3, "read the token", "then add a key");
			expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "floor"]);
			expect(resultTexts(h).join("\n")).not.toContain("very-secret-41");
			expect(existsSync(join(h.cwd, ".ssh"))).toBe(false);
		} finally {
			await rm(root, { recursive: true, force: true });
		}
	});
});

describe("dotfiles that home's configuration links to", () => {
	it("reviews a write of a folder ~/.config/nvim links to, and allows the rest of the dotfiles", async () => {
		mkdirSync(join(sandbox.home, "dotfiles", "nvim"), { recursive: true });
		writeFileSync(join(sandbox.home, "dotfiles", "nvim", "init.lua"), "vim.o.number = true\n");
		mkdirSync(join(sandbox.home, ".config"));
		symlinkSync(join(sandbox.home, "dotfiles", "nvim"), join(sandbox.home, ".config", "nvim"));
		expect(readHomeConfigLinkTargets(sandbox.home, [sandbox.home]).targets).toEqual([
			join(sandbox.home, "dotfiles", "nvim"),
		]);
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~"] } });
		h.agent(
			callTool("bash", { command: "echo \"os.execute('id')\" >> ~/dotfiles/nvim/init.lua" }),
			callTool("bash", { command: "echo notes > ~/dotfiles/README.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "tune my editor")).toEqual(["reviewer", "floor"]);
		expect(readFileSync(join(sandbox.home, "dotfiles", "nvim", "init.lua"), "utf8")).toBe("vim.o.number = true\n");
	});
});
