// `/guardian allow-once` keeps a fingerprint of the files the granted action names (decision 0025). A background copy
// the reviewer allowed rewrites the script after the grant; the grant must not be used, whichever way the action
// names the script: from a folder it enters, through a link, or by a glob. Real sessions (faux agent and reviewer,
// real bash); the harmful effect is a marker file written outside the workspace.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, deniedAndGranted, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-fingerprint-home-" });
const PAYLOAD = `echo pwned > "$HOME/pwned-marker"\n`;

const cases = [
	{ name: "from a folder it enters", granted: "cd sub && sh build.sh", rewritten: "sub/real.sh", link: false },
	{ name: "through a link", granted: "sh run.sh", rewritten: "sub/real.sh", link: true },
	{ name: "by a glob", granted: "sh sub/rea?.sh", rewritten: "sub/real.sh", link: false },
];

describe("an allow-once grant after a background rewrite, in real sessions", () => {
	for (const { name, granted, rewritten, link } of cases) {
		it(`is not used when the script is named ${name}`, async () => {
			const h = await sandbox.start({
				ui: {},
				files: { "sub/real.sh": "echo building\n", "sub/build.sh": "echo building\n", "notes.txt": PAYLOAD },
			});
			if (link) {
				h.agent(callTool("bash", { command: "ln -s sub/real.sh run.sh" }), "linked");
				h.reviewer(verdict("allow", { risk_level: "low" }));
				await h.prompt("link it");
			}
			const target = granted.startsWith("cd sub") ? "sub/build.sh" : rewritten;
			h.agent(callTool("bash", { command: `(sleep 2; cp notes.txt ${target}) >/dev/null 2>&1 &` }), "started");
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
});
