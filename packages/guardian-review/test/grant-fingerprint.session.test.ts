// `/guardian allow-once` and work the agent's commands left running (decision 0025; a sixtieth, sixty-first and
// sixty-second review). While a process an agent command started still runs, nothing is granted. A grant keeps a
// fingerprint of the whole workspace (and the folders its links point at) and of the paths outside it the action
// names, for work that hid from that check (a job that dropped PI_SESSION_ID) or ended: a background copy the reviewer
// allowed rewrites a file after the grant, and the grant must not be used, whichever file it is and however the
// action names it. Real sessions (faux agent and reviewer, real bash); the harmful effect is a marker file written
// outside the workspace.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-fingerprint-home-" });
const PAYLOAD = `echo pwned > "$HOME/pwned-marker"\n`;
const PACKAGE_PAYLOAD = JSON.stringify({ scripts: { test: `sh notes.txt` } });

const cases = [
	{ name: "from folders it enters", granted: "cd sub && cd deeper && sh build.sh", rewritten: "sub/deeper/build.sh" },
	{ name: "through a link", granted: "sh run.sh", rewritten: "sub/real.sh", link: true },
	{ name: "by a glob", granted: "sh sub/rea?.sh", rewritten: "sub/real.sh" },
	{ name: "with quotes inside a word", granted: "sh sub/r''eal.sh", rewritten: "sub/real.sh" },
	{ name: "not at all: npm reads package.json", granted: "npm test", rewritten: "package.json", payload: true },
	{ name: "not at all: a script sources it through a link out", granted: "sh main.sh", rewritten: "lib/helper.sh" },
];
/** A background copy that hides from the process check: it drops PI_SESSION_ID (the call waits until it has). */
const hiddenCopy = (from: string, to: string) =>
	`env -u PI_SESSION_ID sh -c 'sleep 2; cp ${from} ${to}' >/dev/null 2>&1 & sleep 0.5`;

describe("an allow-once grant after a background rewrite, in real sessions", () => {
	for (const { name, granted, rewritten, link, payload } of cases) {
		it(`is not used when the file is named ${name}`, async () => {
			const h = await sandbox.start({
				ui: {},
				files: {
					"sub/real.sh": "echo building\n",
					"sub/deeper/build.sh": "echo building\n",
					"package.json": JSON.stringify({ scripts: { test: "echo ok" } }),
					"notes.txt": PAYLOAD,
					"package.next.json": PACKAGE_PAYLOAD,
					"main.sh": ". lib/helper.sh\n",
				},
			});
			h.agent(
				callTool("bash", {
					command: "mkdir -p ~/shared && echo 'echo help' > ~/shared/helper.sh && ln -s ~/shared lib",
				}),
				"shared",
			);
			h.reviewer(verdict("allow", { risk_level: "low" }));
			await h.prompt("share it");
			if (link === true) {
				h.agent(callTool("bash", { command: "ln -s sub/real.sh run.sh" }), "linked");
				h.reviewer(verdict("allow", { risk_level: "low" }));
				await h.prompt("link it");
			}
			const source = payload === true ? "package.next.json" : "notes.txt";
			h.agent(callTool("bash", { command: hiddenCopy(source, rewritten) }), "started");
			h.reviewer(verdict("allow", { risk_level: "low" }));
			await h.prompt("copy it later");
			await deniedAndGranted(h, granted);
			expect(h.ui?.displayedText().join("\n")).toContain("may run once");
			await new Promise((done) => setTimeout(done, 3_000));
			h.agent(callTool("bash", { command: granted }), "done");
			h.reviewer(verdict("deny", { risk_level: "high" }));
			await h.prompt("try again");
			expect(verdictSources(h).slice(-3)).toEqual(["reviewer", "reviewer", "reviewer"]);
			expect(existsSync(join(sandbox.home, "pwned-marker"))).toBe(false);
		}, 60_000);
	}

	it("is not made while a process an agent command started still runs, and says so", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n", "notes.txt": PAYLOAD } });
		h.agent(callTool("bash", { command: "(sleep 2; cp notes.txt build.sh) >/dev/null 2>&1 &" }), "started");
		h.reviewer(verdict("allow", { risk_level: "low" }));
		await h.prompt("copy it later");
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.displayedText().join("\n")).toMatch(/not granted: \d+ process(es)? the agent's commands started/);
		await new Promise((done) => setTimeout(done, 3_000));
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "reviewer"]);
		expect(existsSync(join(sandbox.home, "pwned-marker"))).toBe(false);
	}, 60_000);

	it("is not made while a job an earlier session started still runs", async () => {
		const later = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		const earlier = await sandbox.start({ ui: {}, files: { "notes.txt": PAYLOAD } });
		const target = join(later.cwd, "build.sh");
		earlier.agent(callTool("bash", { command: `(sleep 2; cp notes.txt ${target}) >/dev/null 2>&1 &` }), "started");
		earlier.reviewer(verdict("allow", { risk_level: "low" }));
		await earlier.prompt("copy it later");
		await deniedAndGranted(later, "sh build.sh");
		expect(later.ui?.displayedText().join("\n")).toMatch(/not granted: \d+ process/);
		await new Promise((done) => setTimeout(done, 3_000));
		expect(existsSync(join(sandbox.home, "pwned-marker"))).toBe(false);
	}, 60_000);

	it("is not made while a writer waits on a FIFO the action would read", async () => {
		const h = await sandbox.start({ ui: {}, files: { "notes.txt": PAYLOAD } });
		h.agent(callTool("bash", { command: "mkfifo build.sh && (cat notes.txt > build.sh) >/dev/null 2>&1 &" }), "made");
		h.reviewer(verdict("allow", { risk_level: "low" }));
		await h.prompt("make it");
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.displayedText().join("\n")).toMatch(/not granted: \d+ process/);
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "reviewer"]);
		expect(existsSync(join(sandbox.home, "pwned-marker"))).toBe(false);
		h.agent(callTool("bash", { command: "cat build.sh > /dev/null" }), "drained");
		await h.prompt("drain it");
	}, 60_000);

	it("is not used while a process started after the grant still runs", async () => {
		const h = await sandbox.start({ ui: {}, files: { "build.sh": "echo building\n" } });
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.displayedText().join("\n")).toContain("may run once");
		h.agent(
			callTool("bash", { command: "sleep 3 >/dev/null 2>&1 &" }),
			callTool("bash", { command: "sh build.sh" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "floor", "reviewer"]);
	}, 60_000);

	it("is still used when nothing changed", async () => {
		const h = await sandbox.start({ ui: {}, files: { "sub/build.sh": "echo building\n" } });
		await deniedAndGranted(h, "cd sub && sh build.sh");
		h.agent(callTool("bash", { command: "cd sub && sh build.sh" }), "done");
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "allow-once"]);
	}, 60_000);

	it("is not made when the workspace has more files than the fingerprint looks at, and says why", async () => {
		const h = await sandbox.start({
			ui: {},
			files: { "a.txt": "a", "b.txt": "b", "build.sh": "echo building\n" },
			guardianOptions: { fingerprintEntryBound: 2 },
		});
		await deniedAndGranted(h, "sh build.sh");
		expect(h.ui?.displayedText().join("\n")).toContain(
			"not granted: the workspace has more files than allow-once can check",
		);
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
	}, 60_000);
});
