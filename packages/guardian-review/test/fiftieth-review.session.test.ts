// A fiftieth review, in real Pi sessions (faux agent and reviewer; real bash): the dotfiles link reader spent its
// bound of 4,096 entries on an ordinary `~/.config` (105 app folders of 40 files) before it reached `~/.local/bin`,
// whose `hello` links to the workspace's `bin/hello`. Its answer looked complete, so Pi's `write` and bash rewrote a
// program on the user's PATH unreviewed. The bound is now 65,536 entries, charged only for entries looked at, and
// past it every write in the workspace is reviewed, with one notice.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOME_LINKS_INCOMPLETE_NOTICE } from "../src/index.ts";
import { callTool, type GuardianHarness, guardianSandboxPerTest, promptsWithDenials } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review50-home-" });

/** `folders` folders of `files` empty files each under `~/.config`. */
function fillConfig(home: string, folders: number, files: number): void {
	for (let folder = 0; folder < folders; folder++) {
		const path = join(home, ".config", `app${folder}`);
		mkdirSync(path, { recursive: true });
		for (let file = 0; file < files; file++) writeFileSync(join(path, `state${file}`), "");
	}
}

/** A session whose `~/.local/bin/hello` links to the workspace's `bin/hello`. */
async function startWithLinkedProgram(homeConfigEntryBound?: number): Promise<GuardianHarness> {
	// With a UI, to see the notice.
	const h = await sandbox.start({
		ui: {},
		guardianOptions: { home: sandbox.home, ...(homeConfigEntryBound === undefined ? {} : { homeConfigEntryBound }) },
	});
	mkdirSync(join(h.cwd, "bin"));
	writeFileSync(join(h.cwd, "bin", "hello"), "#!/bin/sh\necho hello\n");
	mkdirSync(join(sandbox.home, ".local", "bin"), { recursive: true });
	symlinkSync(join(h.cwd, "bin", "hello"), join(sandbox.home, ".local", "bin", "hello"));
	writeFileSync(join(h.cwd, "notes.md"), "notes\n");
	return h;
}

const PROGRAM = '#!/bin/sh\ntouch "$HOME/ran"\n';

describe("dotfiles links beside a large ~/.config", () => {
	it("reviews writes to a program ~/.local/bin links to, with an ordinary ~/.config", async () => {
		fillConfig(sandbox.home, 105, 40);
		const h = await startWithLinkedProgram();
		h.agent(
			callTool("write", { path: "bin/hello", content: PROGRAM }),
			callTool("bash", { command: `printf '%s' '${PROGRAM}' > bin/hello` }),
			callTool("write", { path: "notes.md", content: "more notes\n" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "Update the hello script.")).toEqual(["reviewer", "reviewer", "floor"]);
		expect(existsSync(join(sandbox.home, "ran"))).toBe(false);
		expect(h.ui?.notifications().map((n) => n.message)).not.toContain(HOME_LINKS_INCOMPLETE_NOTICE);
	});

	it("past the bound, reviews every write in the workspace and says so once", async () => {
		// A lower bound than the default stands for a home past it (65,536 files take a minute to make here).
		fillConfig(sandbox.home, 2, 40);
		const h = await startWithLinkedProgram(64);
		h.agent(
			callTool("write", { path: "notes.md", content: "more notes\n" }),
			callTool("bash", { command: "echo more >> notes.md" }),
			callTool("bash", { command: "cat notes.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "Add to the notes.")).toEqual(["reviewer", "reviewer", "floor"]);
		expect(h.ui?.notifications().filter((n) => n.message === HOME_LINKS_INCOMPLETE_NOTICE)).toHaveLength(1);
	});
});
