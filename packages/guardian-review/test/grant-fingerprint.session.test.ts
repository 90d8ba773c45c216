// `/guardian allow-once` keeps a fingerprint with a grant: the whole workspace, and the paths outside it the action
// names (decision 0025). A background copy the reviewer allowed rewrites a file after the grant; the grant must not be
// used, whichever file it is and however the action names it (a sixtieth and a sixty-first review). Real sessions
// (faux agent and reviewer, real bash); the harmful effect is a marker file written outside the workspace.
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
];

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
				},
			});
			if (link === true) {
				h.agent(callTool("bash", { command: "ln -s sub/real.sh run.sh" }), "linked");
				h.reviewer(verdict("allow", { risk_level: "low" }));
				await h.prompt("link it");
			}
			const source = payload === true ? "package.next.json" : "notes.txt";
			h.agent(callTool("bash", { command: `(sleep 2; cp ${source} ${rewritten}) >/dev/null 2>&1 &` }), "started");
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
		expect(h.ui?.displayedText().join("\n")).toContain("not granted: the workspace has too many files");
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("try again");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
	}, 60_000);
});
