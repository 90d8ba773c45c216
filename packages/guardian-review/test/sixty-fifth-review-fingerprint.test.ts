// A sixty-fifth review: the allow-once fingerprint of a tool other than bash. A grant is used only while the paths
// outside the workspace that the action names are unchanged (a sixtieth review), yet for another tool only a whole
// top-level string counted as a path: a command string, a list item, a nested value or a `file://` URL naming a
// script outside the workspace was not looked at, so the script could be rewritten under a waiting grant.
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { outsideScriptPerTest } from "./outside-script.ts";

const { noticed } = outsideScriptPerTest("fp65");

describe("a grant for another tool notices a rewrite of the outside script its call runs", () => {
	it("an MCP shell tool's command string (`sh /tmp/x/run.sh`)", () => {
		expect(noticed("mcp__shell__run_command", (script) => ({ command: `sh ${script}` }))).toBe(true);
	});
	it("an args list (`{ command: 'sh', args: ['/tmp/x/run.sh'] }`)", () => {
		expect(noticed("mcp__shell__exec", (script) => ({ command: "sh", args: [script] }))).toBe(true);
	});
	it("a nested option (`{ options: { script: '/tmp/x/run.sh' } }`)", () => {
		expect(noticed("mcp__ci__run", (script) => ({ options: { script } }))).toBe(true);
	});
	it("a file:// URL (`{ uri: 'file:///tmp/x/run.sh' }`)", () => {
		expect(noticed("mcp__runner__run", (script) => ({ uri: pathToFileURL(script).href }))).toBe(true);
	});
	it("as it does for a whole top-level path string", () => {
		expect(noticed("mcp__runner__run", (script) => ({ script }))).toBe(true);
	});
});
