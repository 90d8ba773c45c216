// Real Pi sessions: `trustedCommands` in the global file lets named workspace commands through with no reviewer
// call, matched on the parsed command (never by substring); a project file cannot add to it.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, type GuardianHarness, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

let h: GuardianHarness | undefined;
const sandbox = guardianSandboxPerTest({
	defaults: {
		files: {
			"scripts/check.sh": "echo checked > checked.txt\n",
			"scripts/hello.py": "print('hello from the workspace')\n",
		},
	},
});
const start = sandbox.start;

describe("trustedCommands", () => {
	it("allows a trusted workspace command from the global file with no reviewer call, and not a look-alike", async () => {
		h = await start({ guardian: { trustedCommands: ["sh <workspace file>"] } });
		h.agent(
			callTool("bash", { command: "sh scripts/check.sh" }),
			callTool("bash", { command: "echo sh scripts/check.sh; sh -c 'ln -s /dev/null planted.txt'" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("run the check");
		expect(existsSync(join(h.cwd, "checked.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "planted.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
	});

	it("reviews a trusted Python run whose PYTHONPATH reaches outside the workspace; denied, the outside code never runs", async () => {
		h = await start({ guardian: { trustedCommands: ["python3 <workspace file>"] } });
		const outside = join(sandbox.home, "site");
		mkdirSync(outside);
		// Python imports sitecustomize from its path at start-up, before the workspace script.
		writeFileSync(
			join(outside, "sitecustomize.py"),
			`open(${JSON.stringify(join(sandbox.home, "ran.txt"))}, "w").write("x")\n`,
		);
		h.agent(
			callTool("bash", { command: "PYTHONPATH=scripts python3 scripts/hello.py" }),
			callTool("bash", { command: `PYTHONPATH=scripts:${outside} python3 scripts/hello.py` }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("run the script");
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expect(h.toolResults()[0]?.isError).toBe(false);
		expect(existsSync(join(sandbox.home, "ran.txt"))).toBe(false);
	});

	it("ignores trustedCommands from a project file", async () => {
		h = await start({ projectConfig: { "guardian-review": { trustedCommands: ["sh <workspace file>"] } } });
		h.agent(callTool("bash", { command: "sh scripts/check.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("run the check");
		expect(existsSync(join(h.cwd, "checked.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
	});
});
