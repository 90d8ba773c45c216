// The reviewer's verdict: its tool schema, forced tool choice per API, strict parsing of the answer, and the
// outcome policy (critical always denies; high needs medium or higher user authorization).
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "../decision.js";
import { RISK_LEVELS, type RiskLevel, USER_AUTHORIZATION_LEVELS } from "../events.js";

/** The name of the tool the reviewer answers with. */
export const VERDICT_TOOL_NAME = "submit_verdict";

/** Longest rationale kept from a verdict, in characters. */
export const MAX_RATIONALE_CHARS = 600;

/** The verdict tool's parameters (also the strict schema of a JSON verdict). */
export const VerdictToolParametersSchema = Type.Object(
	{
		outcome: Type.Enum(["allow", "deny"], { description: "allow or deny the planned action" }),
		risk_level: Type.Optional(
			Type.Enum([...RISK_LEVELS], { description: "how much harm the action could do if it were wrong" }),
		),
		user_authorization: Type.Optional(
			Type.Enum([...USER_AUTHORIZATION_LEVELS], {
				description: "how clearly the user's own messages authorize this exact action",
			}),
		),
		rationale: Type.Optional(Type.String({ maxLength: 2000, description: "one or two sentences" })),
	},
	{ additionalProperties: false },
);

/** A verdict as the model gave it. */
export type ReviewerVerdict = Static<typeof VerdictToolParametersSchema>;

/** The verdict tool, in the shape of a pi-ai `Tool`. */
export const VERDICT_TOOL = Object.freeze({
	name: VERDICT_TOOL_NAME,
	description: "Submit your verdict on the planned action. Call it exactly once.",
	parameters: VerdictToolParametersSchema,
});

/** How a verdict was parsed: from the forced verdict tool call, or from a JSON object in the answer's text. */
export type VerdictParse = "tool-call" | "json";

/** A parsed verdict with its rationale bounded. */
export interface ParsedVerdict {
	readonly verdict: ReviewerVerdict;
	readonly parse: VerdictParse;
}

/** Longest answer text read for a verdict, in characters; a longer answer is a parse failure. */
export const MAX_VERDICT_TEXT_CHARS = 64_000;

/** Keys that mark an object as a verdict (after lower-casing and `-` to `_`). */
const VERDICT_KEYS = new Set(["outcome", "verdict", "decision"]);
const ALLOW_WORD = /\ballow(?:s|ed|ing)?\b/i;
/**
 * Words that refuse, which contradict an allow written outside its object or in its rationale ("reject it, block
 * it", "I must disallow this", "Forbidden and unsafe", "Unacceptable"; a twentieth and a twenty-second review),
 * unless a negation stands just before them in the same clause ("touches no unsafe path", "nothing here is
 * forbidden", "has not blocked this"; a twenty-third review).
 */
const REFUSAL_WORD =
	/\b(?:den(?:y|ies|ied|ying|ial)|disallow(?:s|ed|ing)?|reject(?:s|ed|ing|ion)?|refus(?:e|es|ed|ing|al)|block(?:s|ed|ing)?|forbid(?:s|den|ding)?|prohibit(?:s|ed|ing)?|unsafe|unacceptable|must\s+not)\b/gi;
/** A negation that ends right before a refusal word, at most two plain words away (no punctuation between). */
const NEGATION_BEFORE = /(?:\b(?:no|not|nothing|never|without|none)|n't)\s+(?:[a-z]+\s+){0,2}$/i;
/**
 * Allowing negated: "I cannot allow this", "should never be allowed", "is not to be allowed", "unable to approve",
 * "Do not let this run", "should not be run" ("does not run code" is no refusal: only being run is).
 */
const NEGATED_ALLOWING =
	/(?:\b(?:not|never|cannot|unable\s+to)|n't)\s+(?:(?:to|be|ever)\s+){0,2}(?:(?:allow|permit|approv)\w*|let\b|(?:run|execut)\w*\s+(?:it|this)\b)|\b(?:not|never)\s+(?:to\s+)?be\s+(?:run|execut)\w*/i;

/** Latin look-alikes from Cyrillic and Greek that spell a refusal to the eye but not to a pattern ("dеny"). */
const LOOK_ALIKE_LETTERS: Readonly<Record<string, string>> = {
	а: "a",
	е: "e",
	о: "o",
	р: "p",
	с: "c",
	у: "y",
	х: "x",
	і: "i",
	ј: "j",
	ѕ: "s",
	ԁ: "d",
	ӏ: "l",
	ո: "n",
	ο: "o",
	α: "a",
	ε: "e",
	ι: "i",
	κ: "k",
	ν: "v",
	ρ: "p",
	τ: "t",
	υ: "u",
	χ: "x",
};

/**
 * The text as a reader sees it: compatibility forms folded (NFKC, lower case), zero-width characters and soft
 * hyphens dropped, markdown emphasis marks read as blanks, Cyrillic and Greek look-alike letters read as Latin.
 */
function plainWords(text: string): string {
	const folded = text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]/g, "")
		.replace(/[*_~`]+/g, " ")
		.replace(/[’‘]/g, "'");
	let out = "";
	for (const char of folded) out += LOOK_ALIKE_LETTERS[char] ?? char;
	return out;
}

/** True when `text` refuses (see {@link REFUSAL_WORD} and {@link NEGATED_ALLOWING}). */
function refuses(text: string): boolean {
	const plain = plainWords(text);
	if (NEGATED_ALLOWING.test(plain)) return true;
	for (const match of plain.matchAll(REFUSAL_WORD)) {
		if (!NEGATION_BEFORE.test(plain.slice(Math.max(0, match.index - 40), match.index))) return true;
	}
	return false;
}

function bound(verdict: ReviewerVerdict): ReviewerVerdict {
	if (verdict.rationale === undefined) return verdict;
	const rationale = verdict.rationale.replace(/\s+/g, " ").trim().slice(0, MAX_RATIONALE_CHARS);
	return { ...verdict, rationale };
}

/**
 * Parses the arguments of a `submit_verdict` tool call strictly: they must match the schema exactly, with
 * `outcome` one of the lowercase values and no unknown keys.
 */
export function parseVerdictToolArguments(args: unknown): Result<ParsedVerdict> {
	try {
		if (Value.Check(VerdictToolParametersSchema, args)) {
			return ok({ verdict: bound(args as ReviewerVerdict), parse: "tool-call" });
		}
	} catch {
		// fall through
	}
	return err("verdict: invalid tool arguments");
}

/**
 * True when `text` (outside the verdict) holds a word opposite to `outcome`: an allow against a refusal (deny,
 * reject, refuse, block), a deny against an allow.
 */
function contradicts(text: string, outcome: ReviewerVerdict["outcome"]): boolean {
	return outcome === "allow" ? refuses(text) : ALLOW_WORD.test(plainWords(text));
}

/**
 * True when an allow's own rationale denies ("Deny: this writes outside the workspace"; a nineteenth review). A
 * deny's rationale may well say what is not allowed, so only an allow's is read.
 */
function rationaleContradicts(verdict: ReviewerVerdict): boolean {
	return verdict.outcome === "allow" && verdict.rationale !== undefined && refuses(verdict.rationale);
}

/**
 * True when a JSON object's text names a key twice at its top level: `JSON.parse` keeps the last, so
 * `{"outcome":"deny",…,"outcome":"allow"}` would read as an allow (a nineteenth review). Assumes valid JSON.
 */
function hasDuplicateTopLevelKey(json: string): boolean {
	const keys = new Set<string>();
	let depth = 0;
	for (let i = 0; i < json.length; i++) {
		const c = json[i];
		if (c === "{" || c === "[") depth++;
		else if (c === "}" || c === "]") depth--;
		else if (c === '"') {
			let end = i + 1;
			while (end < json.length && json[end] !== '"') end += json[end] === "\\" ? 2 : 1;
			let after = end + 1;
			while (after < json.length && /\s/.test(json[after] as string)) after++;
			if (depth === 1 && json[after] === ":") {
				const key = JSON.parse(json.slice(i, end + 1)) as string;
				if (keys.has(key)) return true;
				keys.add(key);
			}
			i = end;
		}
	}
	return false;
}

/**
 * Parses a text answer strictly. The text must hold exactly one verdict object (a JSON object with an
 * `outcome`, `verdict` or `decision` key), that object must match the schema exactly (lowercase enum values,
 * no unknown keys), and the text outside it must not name the opposite outcome. Anything else (no verdict, two,
 * an upper-case `"ALLOW"`, a verdict followed by "Actually, deny.") is a parse failure.
 */
export function parseVerdictText(text: unknown): Result<ParsedVerdict> {
	if (typeof text !== "string" || text.length > MAX_VERDICT_TEXT_CHARS) return err("verdict: parse failure");
	const verdicts: Array<{ value: Record<string, unknown>; start: number; end: number }> = [];
	for (const object of topLevelJsonObjects(text)) {
		if (Object.keys(object.value).some((key) => VERDICT_KEYS.has(key.toLowerCase().replace(/-/g, "_")))) {
			verdicts.push(object);
		}
	}
	const only = verdicts.length === 1 ? verdicts[0] : undefined;
	if (only === undefined) return err("verdict: parse failure");
	if (!Value.Check(VerdictToolParametersSchema, only.value)) return err("verdict: parse failure");
	if (hasDuplicateTopLevelKey(text.slice(only.start, only.end))) return err("verdict: parse failure");
	const verdict = only.value as ReviewerVerdict;
	const outside = `${text.slice(0, only.start)} ${text.slice(only.end)}`;
	if (contradicts(outside, verdict.outcome) || rationaleContradicts(verdict))
		return err("verdict: contradicting answer");
	return ok({ verdict: bound(verdict), parse: "json" });
}

/**
 * Parses a whole reviewer answer: the arguments of every `submit_verdict` call in it, and its text. With a
 * verdict call, there must be exactly one, valid strictly, and the text must not name the opposite outcome;
 * without one, the text is parsed with {@link parseVerdictText}. `finished` false (the answer was cut off by the
 * output limit, or did not end) is a parse failure: the words that contradict a verdict may be the ones cut off
 * (a twenty-second review).
 */
export function parseVerdictAnswer(answer: {
	readonly verdictCalls: readonly unknown[];
	readonly text: string;
	readonly finished?: boolean;
}): Result<ParsedVerdict> {
	if (answer.finished === false) return err("verdict: unfinished answer");
	if (answer.verdictCalls.length === 0) return parseVerdictText(answer.text);
	if (answer.verdictCalls.length > 1) return err("verdict: more than one verdict");
	const parsed = parseVerdictToolArguments(answer.verdictCalls[0]);
	if (!parsed.ok) return parsed;
	if (
		answer.text.length > MAX_VERDICT_TEXT_CHARS ||
		contradicts(answer.text, parsed.value.verdict.outcome) ||
		rationaleContradicts(parsed.value.verdict)
	) {
		return err("verdict: contradicting answer");
	}
	return parsed;
}

/**
 * Each top-level `{...}` span of `text` that parses as a JSON object, with its bounds, in order. One linear scan:
 * after a span closes, the scan continues behind it; a span that does not parse is skipped as text.
 */
function* topLevelJsonObjects(text: string): Generator<{ value: Record<string, unknown>; start: number; end: number }> {
	let start = text.indexOf("{");
	while (start >= 0) {
		const close = matchingBrace(text, start);
		if (close < 0) return;
		try {
			const value = JSON.parse(text.slice(start, close + 1)) as unknown;
			if (typeof value === "object" && value !== null && !Array.isArray(value)) {
				yield { value: value as Record<string, unknown>, start, end: close + 1 };
			}
		} catch {
			// not JSON: treated as text
		}
		start = text.indexOf("{", close + 1);
	}
}

function matchingBrace(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === "\\") i++;
			else if (c === '"') inString = false;
			continue;
		}
		if (c === '"') inString = true;
		else if (c === "{") depth++;
		else if (c === "}") {
			depth--;
			if (depth === 0) return i;
		}
	}
	return -1;
}

/** Which rule of the outcome policy decided. */
export type OutcomePolicyRule = "model-outcome" | "critical-denied" | "high-needs-authorization";

/** The policy's decision on a verdict. */
export interface PolicyOutcome {
	readonly decision: "allow" | "deny";
	readonly rule: OutcomePolicyRule;
}

/**
 * The outcome policy: `critical` risk always denies; `high` risk allows only when the model allowed it and
 * judged the user's authorization `medium` or `high`; otherwise the model's outcome stands.
 */
export function applyOutcomePolicy(verdict: ReviewerVerdict): PolicyOutcome {
	if (verdict.risk_level === "critical") return { decision: "deny", rule: "critical-denied" };
	if (verdict.risk_level === "high" && verdict.outcome === "allow") {
		const authorized = verdict.user_authorization === "medium" || verdict.user_authorization === "high";
		return authorized
			? { decision: "allow", rule: "model-outcome" }
			: { decision: "deny", rule: "high-needs-authorization" };
	}
	return { decision: verdict.outcome, rule: "model-outcome" };
}

/**
 * The API-specific `toolChoice` option that forces a call of `toolName`, or `undefined` when the API has no
 * way to force one (then the verdict is read from the answer's text, as strictly).
 */
export function forcedToolChoiceFor(api: string, toolName: string = VERDICT_TOOL_NAME): unknown {
	switch (api) {
		case "anthropic-messages":
		case "bedrock-converse-stream":
			return { type: "tool", name: toolName };
		case "openai-completions":
		case "mistral-conversations":
		case "pi-messages":
			return { type: "function", function: { name: toolName } };
		case "openai-responses":
		case "azure-openai-responses":
			return { type: "function", name: toolName };
		case "openai-codex-responses":
			return "required";
		case "google-generative-ai":
		case "google-vertex":
			return "any";
		default:
			return undefined;
	}
}

/** Risk level as an audit counter: 0 none, 1 low, 2 medium, 3 high, 4 critical. */
export function riskLevelCounter(risk: RiskLevel | undefined): number {
	return risk === undefined ? 0 : RISK_LEVELS.indexOf(risk) + 1;
}

/** User authorization as an audit counter: 0 none, 1 unknown, 2 low, 3 medium, 4 high. */
export function authorizationCounter(level: ReviewerVerdict["user_authorization"]): number {
	return level === undefined ? 0 : USER_AUTHORIZATION_LEVELS.indexOf(level) + 1;
}

/** True for a model error worth one retry: network failures, timeouts at the provider, rate limits and 5xx. */
export function isTransientModelError(message: unknown): boolean {
	if (typeof message !== "string") return false;
	return /(ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|EPIPE|socket hang up|network|fetch failed|overloaded|rate.?limit|\b429\b|\b5\d\d\b|temporar|unavailable)/i.test(
		message,
	);
}
