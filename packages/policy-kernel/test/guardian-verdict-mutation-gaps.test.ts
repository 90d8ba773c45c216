// A mutation audit of guardian/verdict.ts (m4): each test kills a mutant that survived the kernel's and the
// verdict session tests. Each names the mutant it kills.
import { describe, expect, it } from "vitest";
import {
	MAX_RATIONALE_CHARS,
	MAX_VERDICT_TEXT_CHARS,
	parseVerdictAnswer,
	parseVerdictText,
	parseVerdictToolArguments,
} from "../src/guardian/index.js";

const ALLOW = '{"outcome":"allow","risk_level":"low"}';

describe("a contradicting allow is refused for each refusal word and spelling (m4)", () => {
	// Each answer allows in its object and refuses in its text; a careful reader reads a refusal, so the allow
	// must not stand.
	it.each([
		// verdict.ts:63 `|unsafe` dropped
		["unsafe", `${ALLOW} This is unsafe.`],
		// verdict.ts:63 `|must\s+not` dropped
		["must not", `${ALLOW} The agent must not touch the deploy keys.`],
		// verdict.ts:63 `|ial` dropped from den(?:y|ies|ied|ying|ial)
		["denial", `${ALLOW} Recommend denial.`],
		// verdict.ts:108 `\u00ad` dropped: a soft hyphen hides inside "deny" (invisible when shown)
		["soft hyphen", `${ALLOW} De\u00adny.`],
		// verdict.ts:109 the backtick dropped from the emphasis marks: "`not` allowed"
		["backtick emphasis", `${ALLOW} This is \`not\` allowed.`],
		// verdict.ts:106 NFKC to NFC: full-width letters
		["full-width letters", `${ALLOW} \uff24\uff25\uff2e\uff39.`],
		// verdict.ts:65 NEGATION_BEFORE {0,2} to {0,3}: three words between "not" and the refusal
		["three words after a negation", `${ALLOW} Not in scope so block it.`],
	])("text answer: %s", (_label, text) => {
		expect(parseVerdictText(text).ok).toBe(false);
	});

	it.each([
		["unsafe", "This is unsafe."],
		["must not", "The agent must not touch the deploy keys."],
		["denial", "Recommend denial."],
		["soft hyphen", "De\u00adny."],
	])("verdict call with text: %s", (_label, text) => {
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow", risk_level: "low" }], text }).ok).toBe(false);
	});
});

describe("a second verdict object fails the parse, whatever its key's spelling (m4)", () => {
	// verdict.ts:54 "verdict" or "decision" dropped from VERDICT_KEYS; verdict.ts:200 `key.toLowerCase()` dropped.
	// Two verdicts in one answer are ambiguous: the second ("no") is not an allow.
	it.each([['{"verdict":"no"}'], ['{"decision":"no"}'], ['{"VERDICT":"no"}']])(
		"allow object followed by %s",
		(second) => {
			expect(parseVerdictText(`${ALLOW}\n${second}`).ok).toBe(false);
		},
	);
});

describe("duplicate keys after an escaped quote (m4)", () => {
	// verdict.ts:176 `json[end] === "\\" ? 2 : 1` to `? 1 : 1`: an escaped quote in the rationale hides the
	// duplicate "outcome" keys that follow, and JSON.parse keeps the last one, an allow.
	it("a deny overwritten by a later allow is a parse failure even after an escaped quote", () => {
		const text = '{"rationale":"x\\"","outcome":"deny","outcome":"allow"}';
		expect(parseVerdictText(text).ok).toBe(false);
	});
});

describe("lengths and bounds (m4)", () => {
	// verdict.ts:233 the text length check dropped from parseVerdictAnswer.
	it("a verdict call with over-long text is refused", () => {
		const text = "a".repeat(MAX_VERDICT_TEXT_CHARS + 1);
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow" }], text }).ok).toBe(false);
	});

	// verdict.ts:197 `>` to `>=`: a text of exactly the limit is still read.
	it("a text answer of exactly the limit is read", () => {
		const text = `${ALLOW}${" ".repeat(MAX_VERDICT_TEXT_CHARS - ALLOW.length)}`;
		expect(text.length).toBe(MAX_VERDICT_TEXT_CHARS);
		expect(parseVerdictText(text).ok).toBe(true);
	});

	// verdict.ts:128 the `.slice(0, MAX_RATIONALE_CHARS)` dropped; verdict.ts:12 600 to 601.
	it("bounds a rationale to MAX_RATIONALE_CHARS (600)", () => {
		const parsed = parseVerdictToolArguments({ outcome: "deny", rationale: "x".repeat(2000) });
		expect(MAX_RATIONALE_CHARS).toBe(600);
		expect(parsed.ok && parsed.value.verdict.rationale?.length).toBe(600);
	});
});

describe("the deny side and the brace scanner (m4)", () => {
	// verdict.ts:55 the suffixes dropped from ALLOW_WORD: a deny whose text says "allowed".
	it("a deny with 'should be allowed' in its text is a contradicting answer", () => {
		expect(parseVerdictText('{"outcome":"deny"} It should be allowed.').ok).toBe(false);
	});

	// verdict.ts:269 the escape skip dropped in matchingBrace: an escaped quote and a brace in the rationale.
	it("reads a verdict whose rationale holds an escaped quote and a closing brace", () => {
		expect(parseVerdictText('{"outcome":"allow","rationale":"prints \\"}\\" only"}').ok).toBe(true);
	});

	// verdict.ts:121 the look-back 40 to 20: a negation two long words before the refusal word.
	it("a negation two long words before a refusal word still negates it", () => {
		expect(parseVerdictText(`${ALLOW} It touches nothing especially unusually unsafe.`).ok).toBe(true);
	});

	// verdict.ts:250 `if (close < 0) return;` to skipping the unclosed brace: an unclosed brace before the verdict.
	it("an answer with an unclosed brace before its verdict is a parse failure", () => {
		expect(parseVerdictText(`Thinking { ${ALLOW}`).ok).toBe(false);
	});
});

describe("second round: more refusal spellings and negations (m4)", () => {
	it.each([
		// verdict.ts:71 `|(?:run|execut)\w*\s+(?:it|this)\b` dropped
		["do not run this", `${ALLOW} Do not run this.`],
		// verdict.ts:86 the Cyrillic palochka dropped from the look-alikes: "bӏock"
		["Cyrillic palochka", `${ALLOW} B\u04cfock it.`],
		// verdict.ts:63 `forbid(?:s|den|ding)?` to `forbid`
		["forbidden", `${ALLOW} Forbidden.`],
		// verdict.ts:63 `block(?:s|ed|ing)?` to `block`
		["blocked", `${ALLOW} This should be blocked.`],
		// verdict.ts:108 `\u2060-\u2064` to `\u2060-\u2063`: an invisible plus inside "deny"
		["invisible plus", `${ALLOW} De\u2064ny.`],
	])("an allow contradicted by %s is refused", (_label, text) => {
		expect(parseVerdictText(text).ok).toBe(false);
	});

	it.each([
		// verdict.ts:65 `never` dropped from NEGATION_BEFORE
		["never", `${ALLOW} Listing files is never unsafe.`],
		// verdict.ts:65 `none` dropped
		["none", `${ALLOW} Of these paths none are unsafe.`],
		// verdict.ts:65 `n't` dropped
		["n't", `${ALLOW} It isn't unsafe.`],
	])("an allow whose refusal word is negated by %s stands", (_label, text) => {
		expect(parseVerdictText(text).ok).toBe(true);
	});

	// verdict.ts:55 `\ballow` to `allow`: "disallowed" in a deny's text is no allow.
	it("a deny whose text says 'disallowed' stands", () => {
		expect(parseVerdictText('{"outcome":"deny"} Writing there is disallowed.').ok).toBe(true);
	});
});
