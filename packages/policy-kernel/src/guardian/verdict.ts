// The reviewer's verdict: its tool schema, forced tool choice per API, strict-then-lenient parsing, and the
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

/** How a verdict was parsed. */
export type VerdictParse = "tool-call" | "strict-json" | "lenient-json";

/** A parsed verdict with its rationale bounded. */
export interface ParsedVerdict {
	readonly verdict: ReviewerVerdict;
	readonly parse: VerdictParse;
}

function bound(verdict: ReviewerVerdict): ReviewerVerdict {
	if (verdict.rationale === undefined) return verdict;
	const rationale = verdict.rationale.replace(/\s+/g, " ").trim().slice(0, MAX_RATIONALE_CHARS);
	return { ...verdict, rationale };
}

/** Parses the arguments of a `submit_verdict` tool call strictly. */
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
 * Parses a text answer: strictly first (the whole text, trimmed, is one JSON object matching the verdict schema),
 * then leniently (the first complete JSON object in the text whose `outcome` is allow or deny, case-insensitive;
 * unknown keys and invalid optional fields are dropped). Anything else is a parse failure.
 */
export function parseVerdictText(text: unknown): Result<ParsedVerdict> {
	if (typeof text !== "string") return err("verdict: parse failure");
	const trimmed = text.trim();
	try {
		const whole = JSON.parse(trimmed) as unknown;
		if (Value.Check(VerdictToolParametersSchema, whole)) {
			return ok({ verdict: bound(whole as ReviewerVerdict), parse: "strict-json" });
		}
	} catch {
		// not strict JSON
	}
	for (const candidate of jsonObjectCandidates(trimmed)) {
		const lenient = lenientVerdict(candidate);
		if (lenient !== undefined) return ok({ verdict: bound(lenient), parse: "lenient-json" });
	}
	return err("verdict: parse failure");
}

/** Yields each complete top-level `{...}` object in `text` that parses as JSON, in order (at most 20 tries). */
function* jsonObjectCandidates(text: string): Generator<Record<string, unknown>> {
	let tries = 0;
	let start = text.indexOf("{");
	while (start >= 0 && tries < 20) {
		tries++;
		const end = matchingBrace(text, start);
		if (end < 0) return;
		try {
			const value = JSON.parse(text.slice(start, end + 1)) as unknown;
			if (typeof value === "object" && value !== null && !Array.isArray(value)) {
				yield value as Record<string, unknown>;
			}
		} catch {
			// not JSON; try the next brace
		}
		start = text.indexOf("{", start + 1);
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

function lenientVerdict(object: Record<string, unknown>): ReviewerVerdict | undefined {
	const lower = new Map<string, unknown>();
	for (const [key, value] of Object.entries(object)) lower.set(key.toLowerCase().replace(/-/g, "_"), value);
	const outcome = normalize(lower.get("outcome"));
	if (outcome !== "allow" && outcome !== "deny") return undefined;
	const risk = normalize(lower.get("risk_level"));
	const authorization = normalize(lower.get("user_authorization"));
	const rationale = lower.get("rationale");
	return {
		outcome,
		...((RISK_LEVELS as readonly string[]).includes(risk ?? "") ? { risk_level: risk as RiskLevel } : {}),
		...((USER_AUTHORIZATION_LEVELS as readonly string[]).includes(authorization ?? "")
			? { user_authorization: authorization as ReviewerVerdict["user_authorization"] }
			: {}),
		...(typeof rationale === "string" ? { rationale: rationale.slice(0, 2000) } : {}),
	};
}

function normalize(value: unknown): string | undefined {
	return typeof value === "string" ? value.trim().toLowerCase() : undefined;
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
 * way to force one (then the answer is parsed from text, leniently).
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
