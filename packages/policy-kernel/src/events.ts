// Cross-extension events on pi.events: channel names, TypeBox payload schemas (all with v: 1), and a decoder.
//
// Installed Pi packages load with separate module roots, so payloads are plain JSON checked against these
// schemas, never with instanceof. Payloads carry enums, counts and model ids only: no prompts, commands,
// paths, tool arguments or credentials.
import { type Static, Type } from "typebox";
import { AUDIT_CHANNEL, type AuditEntryV1, validateAuditEntry } from "./audit.js";
import { describeSchemaErrors, isPlainObject } from "./config.js";
import { err, ok, type Result } from "./decision.js";
import { DELEGATION_INTENSITIES } from "./delegation/state-vocabulary.js";
import { REVIEW_FAILURE_REASONS, VERDICT_SOURCES } from "./guardian/verdict-vocabulary.js";

export { AUDIT_CHANNEL } from "./audit.js";
export {
	DELEGATION_INTENSITIES,
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationRole,
} from "./delegation/state-vocabulary.js";
export { REVIEW_FAILURE_REASONS, VERDICT_SOURCES } from "./guardian/verdict-vocabulary.js";

/** Effective delegation state from delegation-policy, and requests for it (used by the context-shunt reader). */
export const DELEGATION_STATE_CHANNEL = "pi-policy:delegation-state";

/** Guardian decisions, without the action text. */
export const VERDICT_CHANNEL = "pi-policy:verdict";

/** Every pi-policy channel. */
export const POLICY_CHANNELS = [AUDIT_CHANNEL, DELEGATION_STATE_CHANNEL, VERDICT_CHANNEL] as const;

/** One of {@link POLICY_CHANNELS}. */
export type PolicyChannel = (typeof POLICY_CHANNELS)[number];

// ---------------------------------------------------------------------------------------------------------------
// delegation-state

/** The roles a context-shunt reader may name (`reader.role`). */
export const READER_ROLES = ["small", "medium", "large"] as const;
/** One of {@link READER_ROLES}. */
export type ReaderRole = (typeof READER_ROLES)[number];

/** Thinking levels, weakest first. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
/** One of {@link THINKING_LEVELS}. */
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** Validity of the delegation axis: off (intensity off), ok (`D:NORM`/`D:AGG`/`D:ORCH`) or error (`D:ERR`). */
export const DELEGATION_AXIS_STATES = ["off", "ok", "error"] as const;
/** Validity of the Advisor axis, as the footer shows it: `A:OFF`, `A:ON`, `A:ERR`. */
export const ADVISOR_AXIS_STATES = ["off", "on", "error"] as const;

/** A provider name such as `anthropic` or `openrouter`: letters, digits, `.`, `_`, `-`; 1..64 characters. */
export const PROVIDER_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";
/** A model id such as `gpt-4o`, `claude-sonnet-4-5@20250929` or `meta/llama-3.1:8b`; no spaces, 1..200 characters. */
export const MODEL_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,199}$";

/** A thinking policy: a fixed level, or a range. */
export const ThinkingPolicySchema = Type.Union([
	Type.Object({ level: Type.Enum([...THINKING_LEVELS]) }, { additionalProperties: false }),
	Type.Object(
		{ min: Type.Enum([...THINKING_LEVELS]), max: Type.Enum([...THINKING_LEVELS]) },
		{ additionalProperties: false },
	),
]);

/** A resolved role model: provider, model id and, when configured, its thinking policy. */
export const RoleModelSchema = Type.Object(
	{
		provider: Type.String({ pattern: PROVIDER_ID_PATTERN }),
		model: Type.String({ pattern: MODEL_ID_PATTERN }),
		thinking: Type.Optional(ThinkingPolicySchema),
	},
	{ additionalProperties: false },
);
/** A resolved role model. */
export type RoleModel = Static<typeof RoleModelSchema>;

const roleEntry = Type.Optional(Type.Union([RoleModelSchema, Type.Null()]));

/**
 * The effective delegation state. Each role is a resolved model, `null` (explicitly disabled), or absent
 * (not configured).
 */
export const DelegationStateV1Schema = Type.Object(
	{
		v: Type.Literal(1),
		kind: Type.Literal("state"),
		intensity: Type.Enum([...DELEGATION_INTENSITIES]),
		delegation: Type.Enum([...DELEGATION_AXIS_STATES]),
		advisor: Type.Enum([...ADVISOR_AXIS_STATES]),
		roles: Type.Object(
			{
				small: roleEntry,
				medium: roleEntry,
				large: roleEntry,
				uiDesign: roleEntry,
				advisor: roleEntry,
			},
			{ additionalProperties: false },
		),
	},
	{ additionalProperties: false },
);
/** The effective delegation state payload. */
export type DelegationStateV1 = Static<typeof DelegationStateV1Schema>;

/** A request, on the same channel, that delegation-policy publish its current state. */
export const DelegationStateRequestV1Schema = Type.Object(
	{ v: Type.Literal(1), kind: Type.Literal("request") },
	{ additionalProperties: false },
);
/** A request for the current delegation state. */
export type DelegationStateRequestV1 = Static<typeof DelegationStateRequestV1Schema>;

/** Anything on the delegation-state channel. */
export type DelegationStatePayload = DelegationStateV1 | DelegationStateRequestV1;

/** The schema of anything on the delegation-state channel. */
export const DelegationStatePayloadSchema = Type.Union([DelegationStateV1Schema, DelegationStateRequestV1Schema]);

/**
 * The model a reader role resolves to, or `undefined` when it is not usable: the state must have an active
 * intensity and a valid delegation axis, and the role must be configured and enabled.
 */
export function resolveDelegatedRole(state: DelegationStateV1, role: ReaderRole): RoleModel | undefined {
	if (state.intensity === "off" || state.delegation !== "ok") return undefined;
	return state.roles[role] ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// verdict

/** Guardian decisions. */
export const VERDICT_DECISIONS = ["allow", "deny"] as const;
/** Guardian modes that produce verdicts (observe records but never blocks). */
export const VERDICT_MODES = ["observe", "enforce"] as const;
/** The kind of tool reviewed; custom tools are `other`. */
export const VERDICT_TOOLS = ["bash", "write", "edit", "other"] as const;
/** Reviewer risk levels, weakest first. */
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
/** One of {@link RISK_LEVELS}. */
export type RiskLevel = (typeof RISK_LEVELS)[number];
/** The user's authorization as the reviewer judged it. */
export const USER_AUTHORIZATION_LEVELS = ["unknown", "low", "medium", "high"] as const;

/** A guardian decision, without the action text. */
export const VerdictV1Schema = Type.Object(
	{
		v: Type.Literal(1),
		decision: Type.Enum([...VERDICT_DECISIONS]),
		source: Type.Enum([...VERDICT_SOURCES]),
		mode: Type.Enum([...VERDICT_MODES]),
		tool: Type.Enum([...VERDICT_TOOLS]),
		riskLevel: Type.Optional(Type.Enum([...RISK_LEVELS])),
		userAuthorization: Type.Optional(Type.Enum([...USER_AUTHORIZATION_LEVELS])),
		failureReason: Type.Optional(Type.Enum([...REVIEW_FAILURE_REASONS])),
		latencyBucket: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
	},
	{ additionalProperties: false },
);
/** A guardian verdict payload. */
export type VerdictV1 = Static<typeof VerdictV1Schema>;

/** The payload type of each channel. */
export interface EventPayloadMap {
	"pi-policy:audit": AuditEntryV1;
	"pi-policy:delegation-state": DelegationStatePayload;
	"pi-policy:verdict": VerdictV1;
}

/** True when `channel` is one of {@link POLICY_CHANNELS}. */
export function isPolicyChannel(channel: unknown): channel is PolicyChannel {
	return typeof channel === "string" && (POLICY_CHANNELS as readonly string[]).includes(channel);
}

/**
 * Checks a payload received on a pi-policy channel against that channel's TypeBox schema and returns it
 * typed. An unknown channel, a wrong `v`, unknown keys, or any value outside the enums and patterns is an
 * error. Errors name key paths only, never values.
 */
export function decodeEventPayload<C extends PolicyChannel>(channel: C, payload: unknown): Result<EventPayloadMap[C]>;
export function decodeEventPayload(channel: string, payload: unknown): Result<EventPayloadMap[PolicyChannel]>;
export function decodeEventPayload(channel: string, payload: unknown): Result<EventPayloadMap[PolicyChannel]> {
	if (!isPolicyChannel(channel)) return err("channel: unknown");
	if (!isPlainObject(payload)) return err("payload: expected object");
	try {
		switch (channel) {
			case AUDIT_CHANNEL:
				return validateAuditEntry(payload);
			case DELEGATION_STATE_CHANNEL: {
				const schema = payload.kind === "request" ? DelegationStateRequestV1Schema : DelegationStateV1Schema;
				return checkPayload<DelegationStatePayload>(schema, payload);
			}
			case VERDICT_CHANNEL:
				return checkPayload<VerdictV1>(VerdictV1Schema, payload);
			default:
				return err("channel: unknown");
		}
	} catch {
		return err("payload: invalid");
	}
}

function checkPayload<T>(schema: Parameters<typeof describeSchemaErrors>[0], payload: unknown): Result<T> {
	const messages = describeSchemaErrors(schema, payload, "payload");
	return messages.length > 0 ? err(messages.slice(0, 3).join("; ")) : ok(payload as T);
}
