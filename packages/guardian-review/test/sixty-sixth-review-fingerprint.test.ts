// A sixty-sixth review: the allow-once fingerprint of a tool other than bash (namedWords/nestedStrings). A grant is
// used only while the paths outside the workspace the action names are unchanged; these calls name an outside
// script that can still be rewritten under a waiting grant without the fingerprint changing.
// Each test failed before its fix.
import { describe, expect, it } from "vitest";
import { outsideScriptPerTest } from "./outside-script.ts";

const { noticed } = outsideScriptPerTest("fp66");

describe("a grant for another tool notices a rewrite of the outside script its call runs", () => {
	// Only one-line strings are looked at ("a file's new content" is skipped), yet an MCP shell tool's command is
	// often several lines; bash's own multi-line command is split into words and noticed.
	it("a multi-line MCP command string (`set -e\\nsh /tmp/x/run.sh`)", () => {
		expect(noticed("mcp__shell__run_command", (script) => ({ command: `set -e\nsh ${script}` }))).toBe(true);
	});
	// Words are split at blanks, quotes, `=` and `:`, not at a comma or after a short option's letter.
	it("a comma-joined option value (`node --require=/x/a.js,/tmp/x/run.sh`)", () => {
		expect(
			noticed("mcp__shell__run_command", (script) => ({ command: `node --require=./a.js,${script} app.js` })),
		).toBe(true);
	});
	it("a value attached to a short option (`node -r/tmp/x/run.js app.js`), in an MCP command and in bash", () => {
		expect(noticed("mcp__shell__run_command", (script) => ({ command: `node -r${script} app.js` }))).toBe(true);
		expect(noticed("bash", (script) => ({ command: `node -r${script} app.js` }))).toBe(true);
	});
	it("as it already does for a one-line command and for bash's multi-line one", () => {
		expect(noticed("mcp__shell__run_command", (script) => ({ command: `sh ${script}` }))).toBe(true);
		expect(noticed("bash", (script) => ({ command: `set -e\nsh ${script}` }))).toBe(true);
	});
});
