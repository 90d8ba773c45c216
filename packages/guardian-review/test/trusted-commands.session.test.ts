// Real Pi sessions: `trustedCommands` in the global file lets named workspace commands through with no reviewer
// call, matched on the parsed command (never by substring); a project file cannot add to it.
import { existsSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	callTool,
	createGuardianHarness,
	type GuardianHarness,
	type GuardianHarnessOptions,
	verdict,
} from "./helpers.ts";

let h: GuardianHarness | undefined;
let sandboxHome: string;

beforeEach(() => {
	sandboxHome = mkdtempSync(join(tmpdir(), "guardian-home-"));
});
afterEach(async () => {
	await h?.dispose();
	h = undefined;
	await rm(sandboxHome, { recursive: true, force: true });
});

function start(options: GuardianHarnessOptions = {}) {
	return createGuardianHarness({
		ui: false,
		env: { HOME: sandboxHome },
		guardianOptions: { home: sandboxHome },
		files: { "scripts/check.sh": "echo checked > checked.txt\n" },
		...options,
	});
}

describe("trustedCommands", () => {
	it("allows a trusted workspace command from the global file with no reviewer call, and not a look-alike", async () => {
		h = await start({ guardian: { trustedCommands: ["sh <workspace file>"] } });
		h.agent(
			callTool("bash", { command: "sh scripts/check.sh" }),
			callTool("bash", { command: "echo sh scripts/check.sh; sh -c 'touch planted.txt'" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("run the check");
		expect(existsSync(join(h.cwd, "checked.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "planted.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.verdicts.map((v) => (v as { source: string }).source)).toEqual(["floor", "reviewer"]);
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
