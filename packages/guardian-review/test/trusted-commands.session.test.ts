// Real Pi sessions: `trustedCommands` in the global file lets named workspace commands through with no reviewer
// call, matched on the parsed command (never by substring); a project file cannot add to it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, type GuardianHarness, guardianSandboxPerTest, verdict, verdictSources } from "./helpers.ts";

let h: GuardianHarness | undefined;
const sandbox = guardianSandboxPerTest({ defaults: { files: { "scripts/check.sh": "echo checked > checked.txt\n" } } });
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

	it("ignores trustedCommands from a project file", async () => {
		h = await start({ projectConfig: { "guardian-review": { trustedCommands: ["sh <workspace file>"] } } });
		h.agent(callTool("bash", { command: "sh scripts/check.sh" }), "done");
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("run the check");
		expect(existsSync(join(h.cwd, "checked.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
	});
});
