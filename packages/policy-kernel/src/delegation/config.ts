// delegation-policy configuration model: versioned schemas (global document, session entry), in-memory
// migration of older documents, thinking normalisation, and the layered effective policy with provenance.
import { type Static, Type } from "typebox";
import { describeSchemaErrors, isPlainObject } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import {
	DELEGATION_INTENSITIES,
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationRole,
	MODEL_ID_PATTERN,
	PROVIDER_ID_PATTERN,
	THINKING_LEVELS,
	type ThinkingLevel,
	ThinkingPolicySchema,
} from "../events.js";

export {
	DELEGATION_INTENSITIES,
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationRole,
	THINKING_LEVELS,
	type ThinkingLevel,
} from "../events.js";

/** The schema version of the global document and of session entries that this kernel writes. */
export const DELEGATION_POLICY_SCHEMA_VERSION = 1;

/** The `customType` of the session entries that hold the session layer. */
export const DELEGATION_SESSION_ENTRY_TYPE = "delegation-policy.state";

/** The name of the global config file (`<agentDir>/policy/<name>.json`). */
export const DELEGATION_POLICY_CONFIG_NAME = "delegation-policy";

/** Tie-break between Small and Medium. */
export const DELEGATION_PREFERENCES = ["efficient", "standard", "intensive"] as const;
/** One of {@link DELEGATION_PREFERENCES}. */
export type DelegationPreference = (typeof DELEGATION_PREFERENCES)[number];

/** Advisor modes. `with-delegation` ties the Advisor to an active delegation intensity. */
export const ADVISOR_MODES = ["on", "off", "with-delegation"] as const;
/** One of {@link ADVISOR_MODES}. */
export type AdvisorMode = (typeof ADVISOR_MODES)[number];

/** The ordinary delegation roles, at least one of which must be enabled while delegation is active. */
export const ORDINARY_ROLES = ["small", "medium", "large"] as const;
/** One of {@link ORDINARY_ROLES}. */
export type OrdinaryRole = (typeof ORDINARY_ROLES)[number];

/** Human labels of the roles. */
export const ROLE_LABELS: Readonly<Record<DelegationRole, string>> = {
	small: "Small",
	medium: "Medium",
	large: "Large",
	uiDesign: "Visual Design",
	advisor: "Advisor",
};

/** Defaults used when neither the session nor the global document sets a value. */
export const DELEGATION_DEFAULTS = {
	intensity: "off",
	preference: "standard",
	advisorMode: "with-delegation",
} as const satisfies {
	intensity: DelegationIntensity;
	preference: DelegationPreference;
	advisorMode: AdvisorMode;
};

/** An explicit model reference of a role. */
export const RoleReferenceSchema = Type.Object(
	{
		provider: Type.String({
			pattern: PROVIDER_ID_PATTERN,
			formatHint: 'a provider id such as "anthropic" (letters, digits, . _ -, no spaces, at most 64 characters)',
		}),
		model: Type.String({
			pattern: MODEL_ID_PATTERN,
			formatHint: 'a model id such as "claude-haiku-4-5" (no spaces, at most 200 characters)',
		}),
	},
	{ additionalProperties: false },
);
/** An explicit model reference of a role. */
export type RoleReference = Static<typeof RoleReferenceSchema>;

/** A role slot: a reference, `null` (explicitly disabled), or absent (not configured). */
const roleSlot = () => Type.Optional(Type.Union([RoleReferenceSchema, Type.Null()]));
const thinkingSlot = () => Type.Optional(ThinkingPolicySchema);

/** The configurable fields shared by the global document and the session layer. */
const settingsProperties = {
	intensity: Type.Optional(Type.Enum([...DELEGATION_INTENSITIES])),
	preference: Type.Optional(Type.Enum([...DELEGATION_PREFERENCES])),
	advisorMode: Type.Optional(Type.Enum([...ADVISOR_MODES])),
	roles: Type.Optional(
		Type.Object(
			{ small: roleSlot(), medium: roleSlot(), large: roleSlot(), uiDesign: roleSlot(), advisor: roleSlot() },
			{ additionalProperties: false },
		),
	),
	thinking: Type.Optional(
		Type.Object(
			{
				small: thinkingSlot(),
				medium: thinkingSlot(),
				large: thinkingSlot(),
				uiDesign: thinkingSlot(),
				advisor: thinkingSlot(),
			},
			{ additionalProperties: false },
		),
	),
};

/** One layer of settings (global defaults or the session layer). Every field is optional. */
export const DelegationPolicySettingsSchema = Type.Object(settingsProperties, { additionalProperties: false });
/** One layer of settings. */
export type DelegationPolicySettings = Static<typeof DelegationPolicySettingsSchema>;

/** A thinking policy: a fixed level or a range. */
export type ThinkingPolicy = Static<typeof ThinkingPolicySchema>;

/**
 * The global document, `<agentDir>/policy/delegation-policy.json`, version 1. This is the schema the build
 * emits as `schema.json`.
 */
export const DelegationPolicyConfigSchema = Type.Object(
	{
		$schema: Type.Optional(Type.String({ maxLength: 1000 })),
		version: Type.Literal(DELEGATION_POLICY_SCHEMA_VERSION),
		...settingsProperties,
	},
	{ additionalProperties: false },
);
/** The global document, version 1. */
export type DelegationPolicyConfig = Static<typeof DelegationPolicyConfigSchema>;

/** A session entry (`customType` {@link DELEGATION_SESSION_ENTRY_TYPE}), version 1: the whole session layer. */
export const DelegationSessionEntryV1Schema = Type.Object(
	{ v: Type.Literal(DELEGATION_POLICY_SCHEMA_VERSION), settings: DelegationPolicySettingsSchema },
	{ additionalProperties: false },
);
/** A session entry, version 1. */
export type DelegationSessionEntryV1 = Static<typeof DelegationSessionEntryV1Schema>;

/**
 * The unversioned document written before version 1: roles as `"provider/model"` strings, thinking as a level
 * string or a range, and no Advisor mode (so the Advisor stays tied to delegation after migration).
 */
export const LegacyDelegationPolicyConfigSchema = Type.Object(
	{
		intensity: Type.Optional(Type.Enum([...DELEGATION_INTENSITIES])),
		preference: Type.Optional(Type.Enum([...DELEGATION_PREFERENCES])),
		roles: Type.Optional(
			Type.Object(
				Object.fromEntries(
					DELEGATION_ROLES.map((role) => [
						role,
						Type.Optional(Type.Union([Type.String({ minLength: 3, maxLength: 265 }), Type.Null()])),
					]),
				),
				{ additionalProperties: false },
			),
		),
		thinking: Type.Optional(
			Type.Object(
				Object.fromEntries(
					DELEGATION_ROLES.map((role) => [
						role,
						Type.Optional(Type.Union([Type.Enum([...THINKING_LEVELS]), ThinkingPolicySchema])),
					]),
				),
				{ additionalProperties: false },
			),
		),
	},
	{ additionalProperties: false },
);

/** A parsed global document: its settings, and the version it was migrated from (in memory only). */
export interface ParsedDelegationPolicyDocument {
	readonly settings: DelegationPolicySettings;
	/** `0` when an unversioned document was migrated in memory; absent for a current document. */
	readonly migratedFrom?: number;
}

const providerPattern = new RegExp(PROVIDER_ID_PATTERN);
const modelPattern = new RegExp(MODEL_ID_PATTERN);

/** The index of a thinking level, weakest first; -1 for anything else. */
export function thinkingLevelRank(level: unknown): number {
	return typeof level === "string" ? (THINKING_LEVELS as readonly string[]).indexOf(level) : -1;
}

/**
 * Normalises a thinking policy: `{ min, max }` with `min == max` becomes `{ level }`. A range whose `min` is
 * above its `max`, or any other shape, is an error (a malformed thinking entry).
 */
export function normalizeThinkingPolicy(policy: unknown, label = "thinking"): Result<ThinkingPolicy> {
	if (!isPlainObject(policy)) return err(`${label}: expected a level or a range`);
	const keys = Object.keys(policy).sort().join(",");
	if (keys === "level") {
		return thinkingLevelRank(policy.level) >= 0
			? ok({ level: policy.level as ThinkingLevel })
			: err(`${label}.level: expected a thinking level`);
	}
	if (keys === "max,min") {
		const min = thinkingLevelRank(policy.min);
		const max = thinkingLevelRank(policy.max);
		if (min < 0 || max < 0) return err(`${label}: expected thinking levels`);
		if (min > max) return err(`${label}: min is above max`);
		if (min === max) return ok({ level: policy.min as ThinkingLevel });
		return ok({ min: policy.min as ThinkingLevel, max: policy.max as ThinkingLevel });
	}
	return err(`${label}: expected a level or a range`);
}

/** The levels a thinking policy allows, weakest first. */
export function thinkingPolicyLevels(policy: ThinkingPolicy): ThinkingLevel[] {
	if ("level" in policy) return [policy.level];
	const min = thinkingLevelRank(policy.min);
	const max = thinkingLevelRank(policy.max);
	return THINKING_LEVELS.filter((_, index) => index >= min && index <= max);
}

/** `low`, or `low..high` for a range. */
export function formatThinkingPolicy(policy: ThinkingPolicy | undefined): string {
	if (policy === undefined) return "unset";
	return "level" in policy ? policy.level : `${policy.min}..${policy.max}`;
}

/** `provider/model`. */
export function formatRoleReference(reference: RoleReference): string {
	return `${reference.provider}/${reference.model}`;
}

/**
 * Parses `provider/model` (the provider is everything before the first `/`). Returns an error that never
 * echoes the text.
 */
export function parseRoleReference(text: unknown): Result<RoleReference> {
	if (typeof text !== "string") return err("reference: expected provider/model");
	const slash = text.indexOf("/");
	if (slash <= 0 || slash === text.length - 1) return err("reference: expected provider/model");
	const provider = text.slice(0, slash);
	const model = text.slice(slash + 1);
	if (!providerPattern.test(provider) || !modelPattern.test(model)) return err("reference: expected provider/model");
	return ok({ provider, model });
}

/** Normalises every thinking entry of a settings layer; any malformed entry fails the whole layer. */
function normalizeSettingsThinking(settings: DelegationPolicySettings, root: string): Result<DelegationPolicySettings> {
	if (settings.thinking === undefined) return ok(settings);
	const thinking: Partial<Record<DelegationRole, ThinkingPolicy>> = {};
	for (const role of DELEGATION_ROLES) {
		const policy = settings.thinking[role];
		if (policy === undefined) continue;
		const normalized = normalizeThinkingPolicy(policy, `${root}thinking.${role}`);
		if (!normalized.ok) return normalized;
		thinking[role] = normalized.value;
	}
	return ok({ ...settings, thinking });
}

/** Copies only the settings fields of a document (drops `version` and `$schema`). */
function settingsOf(document: Record<string, unknown>): DelegationPolicySettings {
	const settings: Record<string, unknown> = {};
	for (const key of Object.keys(settingsProperties)) {
		if (Object.hasOwn(document, key) && document[key] !== undefined) settings[key] = document[key];
	}
	return settings as DelegationPolicySettings;
}

function migrateLegacyDocument(raw: Record<string, unknown>): Result<ParsedDelegationPolicyDocument> {
	const messages = describeSchemaErrors(LegacyDelegationPolicyConfigSchema, raw, "config", { nameUnknownKeys: true });
	if (messages.length > 0) return err(messages.slice(0, 3).join("; "));
	const settings: DelegationPolicySettings = {};
	if (typeof raw.intensity === "string") settings.intensity = raw.intensity as DelegationIntensity;
	if (typeof raw.preference === "string") settings.preference = raw.preference as DelegationPreference;
	if (isPlainObject(raw.roles)) {
		const roles: NonNullable<DelegationPolicySettings["roles"]> = {};
		for (const role of DELEGATION_ROLES) {
			if (!Object.hasOwn(raw.roles, role)) continue;
			const value = raw.roles[role];
			if (value === null) roles[role] = null;
			else {
				const reference = parseRoleReference(value);
				if (!reference.ok) return err(`roles.${role}: expected provider/model`);
				roles[role] = reference.value;
			}
		}
		settings.roles = roles;
	}
	if (isPlainObject(raw.thinking)) {
		const thinking: NonNullable<DelegationPolicySettings["thinking"]> = {};
		for (const role of DELEGATION_ROLES) {
			if (!Object.hasOwn(raw.thinking, role)) continue;
			const value = raw.thinking[role];
			thinking[role] = (typeof value === "string" ? { level: value } : value) as ThinkingPolicy;
		}
		settings.thinking = thinking;
	}
	settings.advisorMode = "with-delegation";
	const normalized = normalizeSettingsThinking(settings, "");
	return normalized.ok ? ok({ settings: normalized.value, migratedFrom: 0 }) : normalized;
}

/**
 * Parses the global document. A version-1 document is validated against {@link DelegationPolicyConfigSchema};
 * an unversioned document is migrated in memory (never rewritten); a newer version is rejected. Any error,
 * including one malformed thinking entry, invalidates the whole document. Errors name key paths only.
 */
export function parseDelegationPolicyDocument(raw: unknown): Result<ParsedDelegationPolicyDocument> {
	if (!isPlainObject(raw)) return err("config: expected object");
	if (!Object.hasOwn(raw, "version")) return migrateLegacyDocument(raw);
	const version = raw.version;
	if (typeof version === "number" && Number.isInteger(version) && version > DELEGATION_POLICY_SCHEMA_VERSION) {
		return err("version: newer than this extension supports");
	}
	const messages = describeSchemaErrors(DelegationPolicyConfigSchema, raw, "config", { nameUnknownKeys: true });
	if (messages.length > 0) return err(messages.slice(0, 3).join("; "));
	const normalized = normalizeSettingsThinking(settingsOf(raw), "");
	return normalized.ok ? ok({ settings: normalized.value }) : normalized;
}

/** True when a document error is about a thinking entry (`thinking.<role>…`). */
export function isThinkingDocumentError(error: string): boolean {
	return /^thinking(\.|:)/.test(error);
}

/** The outcome of restoring the latest session entry. */
export type SessionEntryRestore =
	| { readonly kind: "none"; readonly settings: DelegationPolicySettings }
	| { readonly kind: "restored"; readonly settings: DelegationPolicySettings }
	| { readonly kind: "malformed"; readonly settings: DelegationPolicySettings }
	| { readonly kind: "future-schema"; readonly settings: DelegationPolicySettings };

/** The session layer that forces delegation and the Advisor off. */
export function forcedOffSettings(): DelegationPolicySettings {
	return { intensity: "off", advisorMode: "off" };
}

/**
 * Restores the session layer from the latest stored entry's data (`undefined` when there is none). A
 * malformed entry, or one from a newer schema, forces delegation and the Advisor off.
 */
export function restoreSessionEntry(data: unknown): SessionEntryRestore {
	if (data === undefined) return { kind: "none", settings: {} };
	if (isPlainObject(data)) {
		const v = data.v;
		if (typeof v === "number" && Number.isInteger(v) && v > DELEGATION_POLICY_SCHEMA_VERSION) {
			return { kind: "future-schema", settings: forcedOffSettings() };
		}
	}
	try {
		if (describeSchemaErrors(DelegationSessionEntryV1Schema, data, "entry").length > 0) {
			return { kind: "malformed", settings: forcedOffSettings() };
		}
		const normalized = normalizeSettingsThinking((data as DelegationSessionEntryV1).settings, "");
		if (!normalized.ok) return { kind: "malformed", settings: forcedOffSettings() };
		return { kind: "restored", settings: normalized.value };
	} catch {
		return { kind: "malformed", settings: forcedOffSettings() };
	}
}

/** Builds the session entry that stores a session layer. */
export function createSessionEntry(settings: DelegationPolicySettings): DelegationSessionEntryV1 {
	return { v: DELEGATION_POLICY_SCHEMA_VERSION, settings: cloneSettings(settings) };
}

/** A deep copy of a settings layer, dropping undefined fields. */
export function cloneSettings(settings: DelegationPolicySettings): DelegationPolicySettings {
	return JSON.parse(JSON.stringify(settings ?? {})) as DelegationPolicySettings;
}

/** Checks a settings layer against the schema and normalises its thinking entries. */
export function parseDelegationSettings(raw: unknown, root = "settings"): Result<DelegationPolicySettings> {
	if (!isPlainObject(raw)) return err(`${root}: expected object`);
	const messages = describeSchemaErrors(DelegationPolicySettingsSchema, raw, root);
	if (messages.length > 0) return err(messages.slice(0, 3).join("; "));
	return normalizeSettingsThinking(raw as DelegationPolicySettings, "");
}

/** Where an effective value came from. */
export const PROVENANCES = ["default", "global", "session"] as const;
/** One of {@link PROVENANCES}. */
export type Provenance = (typeof PROVENANCES)[number];

/** A value and where it came from. */
export interface Sourced<T> {
	readonly value: T;
	readonly source: Provenance;
}

/** The effective policy: every field resolved from session, then global, then defaults. */
export interface EffectiveDelegationPolicy {
	readonly intensity: Sourced<DelegationIntensity>;
	readonly preference: Sourced<DelegationPreference>;
	readonly advisorMode: Sourced<AdvisorMode>;
	/** `undefined`: not configured; `null`: explicitly disabled. */
	readonly roles: Readonly<Record<DelegationRole, Sourced<RoleReference | null | undefined>>>;
	readonly thinking: Readonly<Record<DelegationRole, Sourced<ThinkingPolicy | undefined>>>;
}

function pick<T>(session: T | undefined, global: T | undefined, fallback: T): Sourced<T> {
	if (session !== undefined) return { value: session, source: "session" };
	if (global !== undefined) return { value: global, source: "global" };
	return { value: fallback, source: "default" };
}

function roleSlotOf(
	settings: DelegationPolicySettings | undefined,
	role: DelegationRole,
): { present: boolean; value: RoleReference | null | undefined } {
	const roles = settings?.roles;
	if (roles === undefined || !Object.hasOwn(roles, role) || roles[role] === undefined) {
		return { present: false, value: undefined };
	}
	return { present: true, value: roles[role] ?? null };
}

/**
 * Resolves the effective policy from the global defaults and the session layer. A role set to `null` in a
 * layer is explicitly disabled there; a role absent from both layers is not configured (source `default`).
 */
export function resolveEffectivePolicy(
	global: DelegationPolicySettings | undefined,
	session: DelegationPolicySettings | undefined,
): EffectiveDelegationPolicy {
	const roles = {} as Record<DelegationRole, Sourced<RoleReference | null | undefined>>;
	const thinking = {} as Record<DelegationRole, Sourced<ThinkingPolicy | undefined>>;
	for (const role of DELEGATION_ROLES) {
		const fromSession = roleSlotOf(session, role);
		const fromGlobal = roleSlotOf(global, role);
		if (fromSession.present) roles[role] = { value: fromSession.value, source: "session" };
		else if (fromGlobal.present) roles[role] = { value: fromGlobal.value, source: "global" };
		else roles[role] = { value: undefined, source: "default" };
		thinking[role] = pick<ThinkingPolicy | undefined>(session?.thinking?.[role], global?.thinking?.[role], undefined);
	}
	return {
		intensity: pick(session?.intensity, global?.intensity, DELEGATION_DEFAULTS.intensity),
		preference: pick(session?.preference, global?.preference, DELEGATION_DEFAULTS.preference),
		advisorMode: pick(session?.advisorMode, global?.advisorMode, DELEGATION_DEFAULTS.advisorMode),
		roles,
		thinking,
	};
}

/** The effective policy as one complete settings layer (what "Save as defaults" writes). */
export function effectiveToSettings(effective: EffectiveDelegationPolicy): DelegationPolicySettings {
	const roles: NonNullable<DelegationPolicySettings["roles"]> = {};
	const thinking: NonNullable<DelegationPolicySettings["thinking"]> = {};
	for (const role of DELEGATION_ROLES) {
		const value = effective.roles[role].value;
		if (value !== undefined) roles[role] = value === null ? null : { ...value };
		const policy = effective.thinking[role].value;
		if (policy !== undefined) thinking[role] = { ...policy };
	}
	return {
		intensity: effective.intensity.value,
		preference: effective.preference.value,
		advisorMode: effective.advisorMode.value,
		...(Object.keys(roles).length > 0 ? { roles } : {}),
		...(Object.keys(thinking).length > 0 ? { thinking } : {}),
	};
}

/** The global document (version 1) for a settings layer. */
export function createGlobalDocument(settings: DelegationPolicySettings): DelegationPolicyConfig {
	return { version: DELEGATION_POLICY_SCHEMA_VERSION, ...cloneSettings(settings) };
}

/** True when `value` is one of {@link DELEGATION_ROLES}. */
export function isDelegationRole(value: unknown): value is DelegationRole {
	return typeof value === "string" && (DELEGATION_ROLES as readonly string[]).includes(value);
}
