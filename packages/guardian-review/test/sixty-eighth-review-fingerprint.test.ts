// A sixty-eighth review of the allow-once fingerprint's word splitting (commas, a short option's attached value). A
// grant is used only while the outside paths its action names are unchanged; these bash commands run an outside
// script that can be rewritten under a waiting grant without the fingerprint changing.
// Each test failed before its fix.
import { describe, expect, it } from "vitest";
import { actionFingerprint, fingerprintCovers } from "../src/grant-fingerprint.ts";
import { outsideScriptPerTest } from "./outside-script.ts";

const sandbox = outsideScriptPerTest("fp68");
const cwd = () => sandbox.cwd();

/** Whether rewriting the outside script after the fingerprint of bash `command` changes it. */
function noticed(command: (dir: string) => string): boolean {
	return sandbox.noticed("bash", (script) => ({ command: command(script.slice(0, script.lastIndexOf("/"))) }));
}

describe("a grant notices a rewrite of the outside script its bash command runs", () => {
	it.each<[string, (dir: string) => string]>([
		// Split at the comma, the words are `{/tmp/x/run.sh` and `}`: bash runs `/tmp/x/run.sh`.
		["a brace word (`sh {/tmp/x/run.sh,}`)", (dir) => `sh {${dir}/run.sh,}`],
		["a brace word in the file name (`sh /tmp/x/{run.sh,}`)", (dir) => `sh ${dir}/{run.sh,}`],
		// Only the first letter is cut from a short option word: `r/tmp/x/run.sh` is relative.
		["a value after a bundle of short options (`node -ir/tmp/x/run.sh`)", (dir) => `node -ir${dir}/run.sh app.js`],
		["a response file (`gcc @/tmp/x/run.sh`)", (dir) => `gcc @${dir}/run.sh`],
		["a glob (`sh /tmp/x/ru?.sh`)", (dir) => `sh ${dir}/ru?.sh`],
		["a variable holding the folder (`D=/tmp/x; sh $D/run.sh`)", (dir) => `D=${dir}; sh $D/run.sh`],
	])("%s", (_name, command) => {
		expect(noticed(command)).toBe(true);
	});
	it("as it notices `sh /tmp/x/run.sh` and `cd /tmp/x && sh run.sh`", () => {
		expect(noticed((dir) => `sh ${dir}/run.sh`)).toBe(true);
		expect(noticed((dir) => `cd ${dir} && sh run.sh`)).toBe(true);
	});
});

describe("what the glob rule leaves coverable", () => {
	it("a URL with a query string and a workspace glob still get a fingerprint", () => {
		expect(
			fingerprintCovers(actionFingerprint("bash", { command: "curl 'https://example.com/x?page=2'" }, cwd())),
		).toBe(true);
		expect(fingerprintCovers(actionFingerprint("bash", { command: "cat src/*.py" }, cwd()))).toBe(true);
		expect(fingerprintCovers(actionFingerprint("bash", { command: "sh /tmp/x/ru?.sh" }, cwd()))).toBe(false);
	});
});
