// A fifty-ninth review attacked allow-once as the fifty-eighth left it, in real sessions (faux agent and reviewer,
// real bash; the harmful effect is a marker file written outside the workspace). Four grants were used after the
// script they run was rewritten: by a writer sibling after the granted call (Pi runs them together), by a nested
// writer after an unawaited granted call in code mode, by a writer planned before the denial that finished after it,
// and by a write made while guardian was off. One legitimate retry was refused: beside a read-only `ls`. Decision 0025.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { callTool, callTools, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-r59-home-" });
const PAYLOAD = `echo pwned > "$HOME/pwned-marker"\n`;
const allow = () => verdict("allow", { risk_level: "low" });
const deny = () => verdict("deny", { risk_level: "high" });
const marked = () => existsSync(join(sandbox.home, "pwned-marker"));

describe("a fifty-ninth review, in real sessions", () => {
	it("a writer sibling after the granted call is reviewed: the two would run together", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sleep 1; sh build.sh");
		h.agent(
			callTools(
				{ name: "bash", args: { command: "sleep 1; sh build.sh" } },
				{ name: "write", args: { path: "build.sh", content: PAYLOAD } },
			),
			"done",
		);
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "allow-once", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("code mode: a nested writer after an unawaited granted call is reviewed", async () => {
		const h = await sandbox.start({
			ui: {},
			tools: ["read", "bash", "edit", "write", "codemode"],
			before: [createCodemodeExtension({ mode: "on" })],
			files: { "build.sh": "echo building\n" },
		});
		await deniedAndGranted(h, "sleep 2; sh build.sh");
		const script = [
			'const a = tools.bash({ command: "sleep 2; sh build.sh" });',
			`await tools.write({ path: "build.sh", content: ${JSON.stringify(PAYLOAD)} });`,
			"await a;",
			'return "done";',
		].join("\n");
		h.agent(callTool("codemode", { code: script }), "done");
		h.reviewer(allow(), deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "allow-once", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("a writer planned before the denial that finishes after it leaves nothing to grant", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n", "notes.txt": PAYLOAD } });
		h.agent(
			callTools(
				{ name: "bash", args: { command: "sleep 2; cat notes.txt > build.sh" } },
				{ name: "bash", args: { command: "sh build.sh" } },
			),
			"denied",
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
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("a write made while guardian was off drops the grant", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		await h.command("/guardian off");
		h.agent(callTool("write", { path: "build.sh", content: PAYLOAD }), "done");
		await h.prompt("edit");
		await h.command("/guardian on");
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);

	it("a granted retry beside a read-only `ls` still uses its grant", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		h.agent(
			callTools({ name: "bash", args: { command: "ls -la" } }, { name: "bash", args: { command: "sh build.sh" } }),
			"done",
		);
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "floor", "allow-once"]);
		expect(h.reviewerRequests()).toHaveLength(1);
	}, 60_000);
});

describe("a sixtieth review, in a real session", () => {
	it("a grant is not used after a background copy the reviewer allowed rewrote the script", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n", "notes.txt": PAYLOAD } });
		// The copy waits in the background; its call ends at once.
		h.agent(callTool("bash", { command: "(sleep 2; cp notes.txt build.sh) >/dev/null 2>&1 &" }), "started");
		h.reviewer(allow());
		await h.prompt("copy it later");
		await deniedAndGranted(h, "sh build.sh");
		// Since the sixty-second review nothing is granted while the copy still waits (grant-fingerprint.session.test.ts
		// covers a copy that hides from that count).
		expect(h.ui?.displayedText().join("\n")).toMatch(/not granted: \d+ process/);
		await new Promise((done) => setTimeout(done, 3_000));
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(deny());
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "reviewer"]);
		expect(marked()).toBe(false);
	}, 60_000);
});
