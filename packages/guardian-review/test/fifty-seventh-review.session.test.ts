// A fifty-seventh review attacked the fifty-fifth's fix (a reviewer's allow dropped from the turn's cache when a call
// that may change files ends). Two reuses were left, both shown here in real sessions (faux agent and reviewer, real
// bash; the harmful effect is a marker file written outside the workspace):
// - code mode's script may start calls without awaiting them: `sh build.sh` ran again from the cache while the
//   call that rewrote build.sh was still running, so nothing had ended. Calls another tool made now never use the
//   turn's cache;
// - an allow-once grant for `sh build.sh` was used after the agent rewrote build.sh. A grant, and a denial waiting
//   for one, are now dropped when a call planned after them that may change files ends.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { callTool, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-r57-home-" });
const PAYLOAD = `echo pwned > "$HOME/pwned-marker"\n`;
const allow = () => verdict("allow", { risk_level: "low" });
const deny = () => verdict("deny", { risk_level: "high" });
const marked = () => existsSync(join(sandbox.home, "pwned-marker"));

describe("a fifty-seventh review, in real sessions", () => {
	it("code mode: a call made while another still runs takes no allow from the turn's cache", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write", "codemode"],
			before: [createCodemodeExtension({ mode: "on" })],
			files: { "build.sh": "echo building; sleep 3\n", "notes.txt": PAYLOAD },
		});
		// `a` and `b` keep running after `b` rewrote build.sh; once the script reads the new text back, it runs it again.
		const script = [
			'const a = tools.bash({ command: "sh build.sh" });',
			'const b = tools.bash({ command: "cat notes.txt > build.sh; sleep 3" });',
			'let text = "";',
			'for (let i = 0; i < 200 && !text.includes("pwned"); i++) text = await tools.read({ path: "build.sh" });',
			'await tools.bash({ command: "sh build.sh" });',
			"await a; await b;",
			'return "done";',
		].join("\n");
		h.agent(callTool("codemode", { code: script }), "done");
		// The codemode call and the first `sh build.sh` are allowed; the reviewer denies the second.
		h.reviewer(allow(), allow(), deny());
		await h.prompt("build it");
		const sources = verdictSources(h);
		expect(sources.filter((source) => source === "reviewer")).toHaveLength(3);
		expect(sources).not.toContain("cache");
		expect(marked()).toBe(false);
	}, 60_000);

	it("an allow-once grant is not used after a later call rewrote the file the granted call runs", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		h.agent(
			callTool("write", { path: "build.sh", content: PAYLOAD }),
			callTool("bash", { command: "sh build.sh" }),
			"done",
		);
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "floor", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("the grant is used when nothing changed files in between (the contrast)", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "allow-once"]);
		expect(h.reviewerRequests()).toHaveLength(1);
	}, 60_000);

	it("a denial followed by a call that changed files leaves nothing to allow, and `/guardian allow-once` says why", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		h.agent(
			callTool("bash", { command: "sh build.sh" }),
			callTool("write", { path: "build.sh", content: PAYLOAD }),
			"done",
		);
		h.reviewer(deny());
		await h.prompt("build it");
		await h.command("/guardian allow-once");
		expect(h.ui?.displayedText().join("\n")).toContain(
			"not granted: a call that may have changed files ran after the denial",
		);
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "floor", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);
});
