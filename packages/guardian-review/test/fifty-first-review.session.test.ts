// A fifty-first review, in real Pi sessions (faux agent and reviewer; real bash): links from home's configuration
// into the workspace that the session-start search did not reach, each of which made a program load the agent's
// code (vim, nvim, bash and ssh ran it in the review). GNU Stow links inside home folders that are real (`~/.vim`,
// `~/.ssh`, `~/.bashrc.d`), or four levels below `~/.config` with `--no-folding`; a plugin's author links a checkout
// from a plugin manager's folder; a link leads to a folder holding an additional directory. Each write is now
// reviewed, by Pi's `write` and `edit` and by bash, and a write elsewhere in the workspace is still allowed.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, type GuardianHarness, guardianSandboxPerTest, promptsWithDenials } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review51-home-" });

/** Writes `text` at `path`, making its folders. */
function put(path: string, text: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

/** A link at `path` to `target`, making the folders it lies in (real folders, as before Stow runs). */
function link(target: string, path: string): void {
	mkdirSync(dirname(path), { recursive: true });
	symlinkSync(target, path);
}

/**
 * Runs `calls`, each the agent's own message followed by a harmless write elsewhere in the workspace, two calls to a
 * prompt (three denials in a row trip the breaker until the next prompt), and answers the verdict sources.
 */
async function verdictsOf(h: GuardianHarness, ...calls: ReturnType<typeof callTool>[]) {
	const steps: Parameters<GuardianHarness["agent"]> = [];
	const prompts: string[] = [];
	for (let index = 0; index < calls.length; index += 2) {
		if (index > 0) steps.push("next");
		for (const call of calls.slice(index, index + 2))
			steps.push(call, callTool("write", { path: "notes.md", content: "notes\n" }));
		prompts.push(index === 0 ? "Tune the dotfiles." : "Go on.");
	}
	h.agent(...steps, "done");
	return promptsWithDenials(h, calls.length, ...prompts);
}

const ORIGINAL = "original\n";

describe("home's links into the workspace below the folders searched at session start", () => {
	it("reviews writes through a link inside a real ~/.vim, ~/.ssh and ~/.bashrc.d (Stow's usual shape)", async () => {
		const h = await sandbox.start();
		const ws = h.cwd;
		put(join(ws, "vim/.vim/plugin/ok.vim"), ORIGINAL);
		put(join(ws, "ssh/.ssh/config"), ORIGINAL);
		put(join(ws, "bash/.bashrc.d/aliases.sh"), ORIGINAL);
		mkdirSync(join(sandbox.home, ".vim"));
		writeFileSync(join(sandbox.home, ".vim", ".netrwhist"), "");
		link(join(ws, "vim/.vim/plugin"), join(sandbox.home, ".vim/plugin"));
		link(join(ws, "ssh/.ssh/config"), join(sandbox.home, ".ssh/config"));
		link(join(ws, "bash/.bashrc.d/aliases.sh"), join(sandbox.home, ".bashrc.d/aliases.sh"));
		const sources = await verdictsOf(
			h,
			callTool("write", { path: "vim/.vim/plugin/evil.vim", content: "call writefile([], expand('~/ran'))\n" }),
			callTool("write", { path: "ssh/.ssh/config", content: 'Match exec "touch ~/ran"\n' }),
			callTool("edit", {
				path: "bash/.bashrc.d/aliases.sh",
				edits: [{ oldText: "original", newText: "touch ~/ran" }],
			}),
			callTool("bash", { command: "echo 'touch ~/ran' >> bash/.bashrc.d/aliases.sh" }),
		);
		expect(sources).toEqual(["reviewer", "floor", "reviewer", "floor", "reviewer", "floor", "reviewer", "floor"]);
		expect(readFileSync(join(ws, "bash/.bashrc.d/aliases.sh"), "utf8")).toBe(ORIGINAL);
	});

	it("reviews a write four levels below ~/.config with Stow's --no-folding, and rcm's undotted names", async () => {
		const h = await sandbox.start();
		const ws = h.cwd;
		put(join(ws, "nvim/.config/nvim/after/plugin/x.lua"), ORIGINAL);
		link(join(ws, "nvim/.config/nvim/after/plugin/x.lua"), join(sandbox.home, ".config/nvim/after/plugin/x.lua"));
		// rcm keeps `~/.dotfiles/tmux.conf` for `~/.tmux.conf`; here the workspace is that folder.
		put(join(ws, "zsh/plugins/p.zsh"), ORIGINAL);
		link(join(ws, "zsh/plugins/p.zsh"), join(sandbox.home, ".zsh/plugins/p.zsh"));
		const sources = await verdictsOf(
			h,
			callTool("bash", { command: "printf 'os.exit()\\n' > nvim/.config/nvim/after/plugin/x.lua" }),
			callTool("write", { path: "zsh/plugins/p.zsh", content: "touch ~/ran\n" }),
		);
		expect(sources).toEqual(["reviewer", "floor", "reviewer", "floor"]);
	});

	it("reviews writes to a plugin checkout a plugin manager's folder links to", async () => {
		const h = await sandbox.start({ files: { "plugin/p.vim": ORIGINAL, "lua/p.lua": ORIGINAL } });
		link(h.cwd, join(sandbox.home, ".vim/pack/dev/start/p"));
		const sources = await verdictsOf(
			h,
			callTool("write", { path: "plugin/p.vim", content: "call writefile([], expand('~/ran'))\n" }),
		);
		// Every folder of the checkout is the plugin's: `notes.md` at its top is reviewed too.
		expect(sources).toEqual(["reviewer", "reviewer"]);
	});

	it("reviews writes in an additional directory below a folder home's configuration links to", async () => {
		put(join(sandbox.home, "dotfiles/vim/plugin/ok.vim"), ORIGINAL);
		link(join(sandbox.home, "dotfiles/vim"), join(sandbox.home, ".vim"));
		const h = await sandbox.start({ guardian: { additionalDirectories: ["~/dotfiles/vim/plugin"] } });
		const sources = await verdictsOf(
			h,
			callTool("write", { path: join(sandbox.home, "dotfiles/vim/plugin/evil.vim"), content: "x\n" }),
			callTool("bash", { command: "echo x > ~/dotfiles/vim/plugin/ok.vim" }),
		);
		expect(sources).toEqual(["reviewer", "floor", "reviewer", "floor"]);
		expect(readFileSync(join(sandbox.home, "dotfiles/vim/plugin/ok.vim"), "utf8")).toBe(ORIGINAL);
	});
});
