// A sixty-ninth review of the fingerprint's wordVariants: outside scripts a grant's fingerprint still does not name.
import { describe, expect, it } from "vitest";
import { actionFingerprint, fingerprintCovers } from "../src/grant-fingerprint.ts";
import { outsideScriptPerTest } from "./outside-script.ts";

const sandbox = outsideScriptPerTest("fp69");
const cwd = () => sandbox.cwd();

function noticed(command: (dir: string) => string): boolean {
	return sandbox.noticed("bash", (script) => ({ command: command(script.slice(0, script.lastIndexOf("/"))) }));
}

describe("sixty-ninth: a grant notices a rewrite of the outside script its bash command runs", () => {
	it.each<[string, (dir: string) => string]>([
		["a brace inside the file name (`sh /tmp/x/r{u,}n.sh`)", (dir) => `sh ${dir}/r{u,}n.sh`],
		["a sequence (`sh /tmp/x/ru{n..n}.sh`)", (dir) => `sh ${dir}/ru{n..n}.sh`],
		['a default value (`sh "$\u007BD:-/tmp/x}/run.sh"`)', (dir) => `sh "\${D:-${dir}}/run.sh"`],
		['$(pwd) after cd (`cd /tmp/x && sh "$(pwd)/run.sh"`)', (dir) => `cd ${dir} && sh "$(pwd)/run.sh"`],
	])("%s", (_name, command) => {
		expect(noticed(command)).toBe(true);
	});
});

describe("sixty-ninth: ordinary reviewed commands that can still get a grant", () => {
	it.each([["find OUT -name '*.log'"], ["grep -rn 'TODO.*fix' OUT"]])("%s is coverable", (command) => {
		expect(
			fingerprintCovers(actionFingerprint("bash", { command: command.replaceAll("OUT", sandbox.outside()) }, cwd())),
		).toBe(true);
	});
});
