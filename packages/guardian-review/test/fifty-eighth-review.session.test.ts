// A fifty-eighth review attacked the fifty-seventh's allow-once rule (a grant is dropped when a call planned after it
// that may change files finishes). A call that has not finished yet dropped nothing: a grant for `sh build.sh` was
// used while `write build.sh`, a sibling Pi runs at the same time, or an unawaited nested call in code mode, was
// rewriting the script. Real sessions (faux agent and reviewer, real bash); the harmful effect is a marker file
// written outside the workspace.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { callTool, callTools, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-r58-home-" });
const PAYLOAD = `echo pwned > "$HOME/pwned-marker"\n`;
const allow = () => verdict("allow", { risk_level: "low" });
const deny = () => verdict("deny", { risk_level: "high" });
const marked = () => existsSync(join(sandbox.home, "pwned-marker"));
const codeMode = {
	tools: ["read", "bash", "edit", "write", "codemode"],
	before: [createCodemodeExtension({ mode: "on" })],
};

describe("a fifty-eighth review, in real sessions", () => {
	it("a grant is not used by a sibling of the write that rewrites what it runs", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sleep 1; sh build.sh");
		h.agent(
			callTools(
				{ name: "write", args: { path: "build.sh", content: PAYLOAD } },
				{ name: "bash", args: { command: "sleep 1; sh build.sh" } },
			),
			"done",
		);
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "floor", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("code mode: a grant is not used while an unawaited nested call planned after it still runs", async () => {
		const h = await sandbox.start({
			ui: {},
			...codeMode,
			files: { "build.sh": "echo building\n", "notes.txt": PAYLOAD },
		});
		await deniedAndGranted(h, "sh build.sh");
		const script = [
			'const b = tools.bash({ command: "cat notes.txt > build.sh; sleep 3" });',
			'let text = "";',
			'for (let i = 0; i < 200 && !text.includes("pwned"); i++) text = await tools.read({ path: "build.sh" });',
			'await tools.bash({ command: "sh build.sh" });',
			"await b;",
			'return "done";',
		].join("\n");
		h.agent(callTool("codemode", { code: script }), "done");
		// The codemode call is allowed; the reviewer denies the nested `sh build.sh`.
		h.reviewer(allow(), deny());
		await h.prompt("try again");
		const sources = verdictSources(h);
		expect(sources).not.toContain("allow-once");
		expect(sources.at(-1)).toBe("reviewer");
		expect(marked()).toBe(false);
	}, 60_000);

	it("code mode: a granted call the script makes is still allowed once (the script itself does not hold it)", async () => {
		const h = await sandbox.start({ ui: {}, ...codeMode, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		h.agent(callTool("codemode", { code: 'await tools.bash({ command: "sh build.sh" }); return "done";' }), "done");
		h.reviewer(allow());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "allow-once"]);
	}, 60_000);
});
