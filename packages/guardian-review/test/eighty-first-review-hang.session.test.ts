// Eighty-first review (session): the workspace reached through `work -> via/../work` (`via -> outer/sub`,
// `outer/work -> ../data-ws`): git and the system reach data-ws; the link's text read with `..` as text names the
// link itself. Node's JS `realpathSync` takes `..` as text and looped forever on it, so the session hung; the
// readers now use the system's `realpath` (`realpathSync.native`), which walks as the system does.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review81h-home-" });

describe("a workspace link whose text with `..` taken as text names the link itself", () => {
	it("was a hang: a plain write of notes.md is answered (on the floor)", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		const parent = dirname(h.cwd);
		renameSync(h.cwd, join(parent, "data-ws"));
		mkdirSync(join(parent, "outer/sub"), { recursive: true });
		writeFileSync(join(parent, "outer/sub/.keep"), "");
		symlinkSync("../data-ws", join(parent, "outer/work"));
		symlinkSync("outer/sub", join(parent, "via"));
		symlinkSync("via/../work", h.cwd);
		h.agent(callTool("write", { path: "notes.md", content: "n\n" }), "done");
		await h.prompt("write notes");
		expect(verdictSources(h)).toEqual(["floor"]);
	});

	it("diagnostic: the same layout with no tool call: the prompt is answered", async () => {
		const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
		const parent = dirname(h.cwd);
		renameSync(h.cwd, join(parent, "data-ws"));
		mkdirSync(join(parent, "outer/sub"), { recursive: true });
		writeFileSync(join(parent, "outer/sub/.keep"), "");
		symlinkSync("../data-ws", join(parent, "outer/work"));
		symlinkSync("outer/sub", join(parent, "via"));
		symlinkSync("via/../work", h.cwd);
		h.agent("done");
		await h.prompt("hello");
		expect(verdictSources(h)).toEqual([]);
	});
});
