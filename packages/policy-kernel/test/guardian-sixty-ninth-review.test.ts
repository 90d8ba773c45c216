// A sixty-ninth review of the sixty-eighth review's fixes. Each test shows the outcome a careful reviewer would want;
// the ones named "is reviewed" failed before its fixes.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	type FloorContext,
	floorContextFor,
	type GuardianReviewConfig,
} from "../src/guardian/index.js";
import {
	bashOutcome,
	CLEAN_GIT,
	CWD,
	HOME,
	plannedOutcome,
	READ_ONLY_TOOL,
	withCleanTrees,
	withLinks,
} from "./floor-outcome.js";

const config: GuardianReviewConfig = applyGuardianDefaults({ mode: "enforce" });
const base: FloorContext = floorContextFor(config, CWD, HOME, CLEAN_GIT);
/** macOS: the shell's facts of a BSD userland. */
const mac: FloorContext = { ...base, bsdUserland: true, optionsEndAtOperand: true };
const key = `${HOME}/.ssh/id_rsa`;

describe("bypass (macOS): BSD find's -f bundled or attached", () => {
	// BSD find's getopt ("EHLPXdf:sx") reads `-sf DIR`, `-xf DIR` and `-fDIR` as `-f DIR`; the new check looks only
	// for the word `-f`.
	it.each([
		["find -sf ~/.ssh -type f -exec cat {} +"],
		["find -xf ~/.aws -type f -exec cat {} +"],
		["find -f/home/dev/.ssh -type f -exec cat {} +"],
		["find -sf .env -exec cat {} +"],
	])("%s is reviewed", (command) => {
		expect(withLinks(command, mac)).not.toMatch(/^allow/);
	});
	it("as `find -f ~/.ssh …` is", () => {
		expect(withLinks("find -f ~/.ssh -type f -exec cat {} +", mac)).not.toMatch(/^allow/);
	});
});

describe("bypass (macOS): `column -t` takes no value, so the word after it is the first operand", () => {
	// BSD column (getopt "c:s:tx") and util-linux column: `-t` is a flag. OPTION_VALUE_LETTERS lists `t` for column,
	// so `notes.txt` is skipped as its value and `--`/`-x` after it (a shipped link to a key) is never judged.
	it.each([
		["column -t notes.txt --", "--"],
		["column -t notes.txt -x", "-x"],
	])("%s is reviewed", (command, link) => {
		expect(withLinks(command, mac, { [`${CWD}/${link}`]: key })).not.toMatch(/^allow/);
	});
	it("as `cat notes.txt --` is", () => {
		expect(withLinks("cat notes.txt --", mac, { [`${CWD}/--`]: key })).not.toMatch(/^allow/);
	});
});

describe("bypass: jq reads a word after `--` as a file, and jq is exempt from optionShapedAfterEnd", () => {
	// jq: after `--` every word is positional; with the program already given, `--` is an input file.
	it.each<[string, FloorContext]>([
		["jq . -- --", base],
		["jq . notes.json -- --", base],
		["jq . -- -x", base],
	])("%s is reviewed", (command, context) => {
		expect(withLinks(command, context, { [`${CWD}/--`]: key, [`${CWD}/-x`]: key })).not.toMatch(/^allow/);
	});
	it("as rg's is", () => {
		expect(withLinks("rg -- TODO --", base, { [`${CWD}/--`]: key })).not.toMatch(/^allow/);
	});
});

describe("bypass (macOS, case-insensitive APFS): the Kelvin sign K (U+212A) folds to `k`", () => {
	// CaseFolding.txt: `212A; C; 006B` (status C, as `017F; C; 0073`). toLowerCase maps it too, but the protected
	// globs are tested with a regular expression's `i` flag without `u`, which leaves it alone.
	it.each([["cat server.\u212Aey"], ["cat \u212Aaggle.json"], ["cat release.j\u212As"]])(
		"%s is reviewed",
		(command) => {
			expect(withLinks(command, mac)).not.toMatch(/^allow/);
		},
	);
	it("as `cat server.KEY` is", () => {
		expect(withLinks("cat server.KEY", mac)).not.toMatch(/^allow/);
	});
});

describe("lead (macOS, if APFS applies full case folding): ligatures ﬁ and ﬆ", () => {
	// CaseFolding.txt status F: FB01 -> `fi`, FB06 -> `st`. Only if APFS uses full folding (unverified here).
	// Judged as their NFKC forms: as `.gitconfig` (a workspace file git does not read without an include) and
	// `prod.tfstate` (protected).
	it.each([
		["echo x > .gitcon\uFB01g", "echo x > .gitconfig"],
		["cat prod.tf\uFB06ate", "cat prod.tfstate"],
		["echo x > .huſky/pre-commit", "echo x > .husky/pre-commit"],
	])("%s is judged as %s", (command, ascii) => {
		expect(withLinks(command, mac)).toBe(withLinks(ascii, mac));
	});
	it("the armed one stays reviewed", () => {
		expect(withLinks("cat prod.tf\uFB06ate", mac)).toBe("review:protected-path");
		expect(withLinks("echo x > .huſky/pre-commit", mac)).toBe("review:writes");
	});
});

describe("bypass (a server that trims its arguments): a blank before `../x` or `~/x`", () => {
	// looksLikeLocalPath trims only its bare shapes (`..`, `~`, `$HOME`); ` ../other` and ` ~/.ssh` still hold a
	// blank, so they are not paths at all, and a server that trims reads outside the workspace and the key folder.
	it.each([[{ base: " ../other" }], [{ base: " ~/.ssh" }], [{ base: " ../../" }]])(
		"reviews mcp__search__grep %j",
		(input) => {
			expect(plannedOutcome("mcp__search__grep", { ...input, query: "KEY" }, READ_ONLY_TOOL)).toBe("review");
		},
	);
	it("as it reviews ` ..` and `~/.ssh`", () => {
		expect(plannedOutcome("mcp__search__grep", { base: " ..", query: "KEY" }, READ_ONLY_TOOL)).toBe("review");
		expect(plannedOutcome("mcp__search__grep", { base: "~/.ssh", query: "KEY" }, READ_ONLY_TOOL)).toBe("review");
	});
});

describe("rg's and jq's first word after `--` may be their pattern or filter", () => {
	it("`rg -- -z file` searches for `-z`; a later option-shaped word is a file", () => {
		expect(bashOutcome("rg -- -z src", withCleanTrees("rg -- -z src", mac))).toBe("allow:read-only");
		expect(bashOutcome("jq -- .a notes.json", mac)).toBe("allow:read-only");
		expect(bashOutcome("rg -e x -- -z", mac)).toMatch(/^review:/);
		expect(bashOutcome("rg -- TODO --", mac)).toMatch(/^review:/);
	});
});
