// Found in a mutation audit of optionAfterOperand: where options end at the first operand (BSD's tools on macOS,
// GNU's under POSIXLY_CORRECT), a `--` after an operand is no end of options but one more file operand. The floor
// dropped it as GNU's end of options, so it never judged the file `--` (nor asked where its link leads). These tests
// failed before the sixty-eighth review's fix.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	normalizeAbsolutePath,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const base: FloorContext = floorContextFor(config, CWD, HOME, CLEAN_GIT);
/** macOS: the shell's facts of a BSD userland, whose options end at the first operand. */
const mac: FloorContext = { ...base, bsdUserland: true, optionsEndAtOperand: true };
/** Linux with POSIXLY_CORRECT set: GNU's getopt stops at the first operand too. */
const posix: FloorContext = { ...base, optionsEndAtOperand: true };

/** The floor's outcome with the shell's link facts: every asked path leads to itself, except `links`. */
function withLinks(command: string, context: FloorContext, links: Record<string, string>): string {
	const requested = floorFactRequestsOf(command, context).linkPaths;
	const facts = new Map<string, string | null>(
		requested.map((path) => [path, links[path] ?? normalizeAbsolutePath(path)]),
	);
	return bashOutcome(command, { ...context, pathLinks: facts });
}

describe("bypass: `--` after an operand is a file where options end at the first operand", () => {
	// The repository ships a link `-- -> ~/.ssh/id_ed25519`. BSD `head README.md -- x` prints README.md, the key and x.
	const shippedLink = { [`${CWD}/--`]: `${HOME}/.ssh/id_ed25519` };
	it.each<[string]>([
		["head README.md -- notes.txt"],
		["cat README.md -- notes.txt"],
		["wc -c README.md -- notes.txt"],
		// cp follows a source link without -R: the key lands in out/--, an ordinary workspace file to read next.
		["cp notes.txt -- out/"],
	])("%s is reviewed on macOS and under POSIXLY_CORRECT", (command) => {
		expect(withLinks(command, mac, shippedLink)).toMatch(/^review:/);
		expect(withLinks(command, posix, shippedLink)).toMatch(/^review:/);
	});

	it("asks where `--` leads, as for any other operand (or reviews it)", () => {
		const asked = floorFactRequestsOf("head README.md -- notes.txt", mac).linkPaths;
		const outcome = withLinks("head README.md -- notes.txt", mac, shippedLink);
		expect(asked.includes(`${CWD}/--`) || outcome.startsWith("review:")).toBe(true);
	});
});

describe("unchanged: `--` before any operand still ends options on macOS", () => {
	it.each<[string]>([["head -- README.md"], ["cat -- README.md"]])("%s is allowed", (command) => {
		expect(withLinks(command, mac, {})).toBe("allow:read-only");
	});
});
