// What `/guardian allow-once` answers, in real sessions (a new-user review: one message for every case left the user
// guessing). Each refusal says why and what to do next; a denial it can approve says so in its notification.
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-allow-once-answers-" });

describe("/guardian allow-once answers", () => {
	it("says there is nothing to allow, already granted, and used, each in its own words", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		const last = () => h.ui?.notifications().at(-1)?.message ?? "";
		await h.command("/guardian allow-once");
		expect(last()).toContain("nothing to allow: no call that allow-once can approve was denied");
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.notifications().map((note) => note.message)).toContain(
			"guardian-review denied a bash call (source: reviewer, risk high). /guardian allow-once lets it run once.",
		);
		expect(last()).toContain("may run once within 5 minutes");
		await h.command("/guardian status");
		expect(last()).toContain("allow-once grants pending: 1 (the next expires in 5 min)");
		expect(last()).not.toContain("still running");
		await h.command("/guardian allow-once");
		expect(last()).toContain("already granted: the denied call may run once");
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "allow-once"]);
		await h.command("/guardian allow-once");
		expect(last()).toContain("nothing to allow: the last grant was used");
	}, 60_000);

	it("while a process the agent started runs: says how many and the way out", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n", "serve.sh": "sleep 2\n" } });
		h.agent(callTool("bash", { command: "sh serve.sh >/dev/null 2>&1 &" }), "serving");
		h.reviewer(verdict("allow", { risk_level: "low" }));
		await h.prompt("serve it");
		await deniedAndGranted(h, "sh build.sh");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
		const answer = h.ui?.notifications().at(-1)?.message ?? "";
		expect(answer).toMatch(/not granted: \d+ process(es)? the agent's commands started still runs? \(a background job/);
		// Counts only: no process id, no command.
		expect(answer).not.toMatch(/serve\.sh|\d{3,}/);
		expect(answer).toContain("(/guardian off, then /guardian on)");
		await new Promise((done) => setTimeout(done, 2_500));
		await h.command("/guardian allow-once");
		expect(h.ui?.notifications().at(-1)?.message).toContain("may run once within 5 minutes");
	}, 60_000);

	it("waits for one process by its count, and only when a denial waits", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		h.agent(callTool("bash", { command: "sleep 2 >/dev/null 2>&1 &" }), "waiting");
		await h.prompt("wait");
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toContain(
			"processes the agent's commands started, still running: 1 (allow-once waits for them)",
		);
		await h.command("/guardian allow-once");
		expect(h.ui?.notifications().at(-1)?.message).toContain("nothing to allow: no call");
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.notifications().at(-1)?.message).toContain(
			"not granted: 1 process the agent's commands started still runs",
		);
		await new Promise((done) => setTimeout(done, 2_500));
	}, 60_000);

	it("a denial beside a waiting grant says why the grant did not let the call run", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		const last = () => h.ui?.notifications().at(-1)?.message ?? "";
		await deniedAndGranted(h, "sh build.sh");
		expect(last()).toContain("may run once within 5 minutes");
		// The agent tries a different call: the grant is for the exact one.
		h.agent(callTool("bash", { command: "sh build.sh --fast" }), "denied");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(last()).toBe(
			"guardian-review denied a bash call (source: reviewer, risk high). An allow-once grant waits for a different call: a grant is for the exact call that was denied. /guardian allow-once lets it run once.",
		);
		// The user edits the granted script in their editor: the grant no longer fits what the call would run.
		await appendFile(join(h.cwd, "build.sh"), "echo changed\n");
		h.agent(callTool("bash", { command: "sh build.sh" }), "denied");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "reviewer"]);
		expect(last()).toContain(
			"(source: reviewer, risk high). Its allow-once grant was not used: files the call names changed since the grant, or a command the agent started still ran.",
		);
	}, 60_000);
});
