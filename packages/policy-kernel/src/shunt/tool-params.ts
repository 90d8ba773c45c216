// context-shunt tool parameters: the TypeBox schemas of context_shunt_recover and context_shunt_delegate, checked
// strictly (no coercion) before the host's own, coercing validation runs.
import { type Static, Type } from "typebox";
import { parseWithSchema } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { THINKING_LEVELS } from "../events.js";
import { type ShuntError, shuntError } from "./codes.js";
import { JSON_POINTER_MAX_BYTES, READER_RULES, RECOVERY_MAX_LINES, SEARCH_RULES } from "./constants.js";

/** `context_shunt_recover`'s parameters. `maxBytes`' upper bound depends on config and is checked by hand. */
export const RecoverParamsSchema = Type.Object(
	{
		artifactId: Type.Optional(Type.String({ pattern: "^csa_[0-9a-f]{24}$", description: "From a receipt." })),
		toolCallId: Type.Optional(
			Type.String({
				pattern: "^[A-Za-z0-9._:/|+=@-]{1,256}$",
				description: "From an aged-result stub.",
			}),
		),
		lineOffset: Type.Optional(Type.Integer({ minimum: 1, description: "From 1." })),
		lineLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: RECOVERY_MAX_LINES, description: "At most 250." })),
		byteOffset: Type.Optional(Type.Integer({ minimum: 0, description: "UTF-8, from 0." })),
		maxBytes: Type.Optional(Type.Integer({ minimum: 1, description: "At most targetedReadBytes." })),
		pattern: Type.Optional(
			Type.String({
				minLength: 1,
				maxLength: SEARCH_RULES.patternMaxBytes,
				description: "Text (or, with regex, a regular expression) to find.",
			}),
		),
		regex: Type.Optional(Type.Boolean({ description: "Default false." })),
		ignoreCase: Type.Optional(Type.Boolean({ description: "Default false." })),
		contextLines: Type.Optional(
			Type.Integer({
				minimum: 0,
				maximum: SEARCH_RULES.contextLinesMax,
				description: "Default 2.",
			}),
		),
		jsonPointer: Type.Optional(
			Type.String({
				maxLength: JSON_POINTER_MAX_BYTES,
				description: 'RFC 6901, e.g. "/items/3".',
			}),
		),
	},
	{ additionalProperties: false },
);

/** The raw, strictly typed recover parameters. */
export type RecoverParams = Static<typeof RecoverParamsSchema>;

/** `context_shunt_delegate`'s parameters. The question's byte bound and the model's levels are checked by hand. */
export const DelegateParamsSchema = Type.Object(
	{
		artifactId: Type.String({
			pattern: "^csa_[0-9a-f]{24}$",
			description: "The artifact id from a context-shunt receipt.",
		}),
		question: Type.String({
			minLength: 1,
			description: `The question, 1..${READER_RULES.questionMaxBytes} UTF-8 bytes.`,
		}),
		thinking: Type.Enum([...THINKING_LEVELS], {
			description: 'A thinking level the reader model supports, e.g. "off".',
		}),
	},
	{ additionalProperties: false },
);

/** The raw, strictly typed delegate parameters. */
export type DelegateParams = Static<typeof DelegateParamsSchema>;

/**
 * Checks raw tool arguments against a tool's schema strictly: the host coerces `"10"` to 10 and truncates 1.5 to 1
 * before `execute`, so this runs first (from the tool's `prepareArguments`). The error names key paths and bounds
 * only, never a value. Never throws.
 */
export function checkToolParamsStrictly<S extends typeof RecoverParamsSchema | typeof DelegateParamsSchema>(
	schema: S,
	raw: unknown,
): Result<Static<S>, ShuntError> {
	const parsed = parseWithSchema(schema, raw, { root: "arguments", maxErrors: 2 });
	return parsed.ok ? ok(parsed.value) : err(shuntError("invalid-request", parsed.error));
}
