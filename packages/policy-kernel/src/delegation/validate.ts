// Validation by axis (delegation D, Advisor A) of an effective policy against a supplied model catalogue.
// Fail closed: any delegation cause gives D:ERR and no delegation text; any Advisor cause gives A:ERR.
import type { DelegationRole, ThinkingLevel } from "../events.js";
import {
	type AdvisorMode,
	DELEGATION_ROLES,
	type EffectiveDelegationPolicy,
	formatRoleReference,
	ORDINARY_ROLES,
	type RoleReference,
	type ThinkingPolicy,
	thinkingPolicyLevels,
} from "./config.js";
import type { DelegationCause } from "./vocabulary.js";

export { DELEGATION_CAUSES, type DelegationCause } from "./vocabulary.js";

/** One model as the host's registry describes it, reduced to what validation and the picker need. */
export interface CatalogueModel {
	readonly provider: string;
	readonly id: string;
	/** Listed among the registry's available models. */
	readonly available: boolean;
	/** The provider has configured credentials. */
	readonly authenticated: boolean;
	/** Inside the session's scoped-model list (true when no scoping is configured). */
	readonly inScope: boolean;
	/** Thinking levels the model supports, weakest first (`["off"]` for a model without reasoning). */
	readonly thinkingLevels: readonly ThinkingLevel[];
	/** Transient metadata for the picker; never persisted. */
	readonly name?: string;
	readonly contextWindow?: number;
	readonly reasoning?: boolean;
}

/** The models and providers known to the host. */
export interface ModelCatalogue {
	readonly models: readonly CatalogueModel[];
	/** Providers the registry knows (with or without models); defaults to the providers of `models`. */
	readonly providers?: readonly string[];
}

/** A sanitized diagnostic: enums, role names, levels and model references only. */
export interface DelegationDiagnostic {
	/** `delegation` (D), `advisor` (A). */
	readonly axis: "delegation" | "advisor";
	/** `error` affects the footer; `notice` is only reported (an inactive axis). */
	readonly severity: "error" | "notice";
	readonly cause: DelegationCause;
	readonly role?: DelegationRole;
	/** The thinking level at fault, for `thinking-unsupported`. */
	readonly level?: ThinkingLevel;
	/** `provider/model` of the reference at fault. */
	readonly model?: string;
	readonly message: string;
}

/** How one role resolved. */
export type RoleResolution =
	| { readonly status: "absent" }
	| { readonly status: "disabled" }
	| { readonly status: "ok"; readonly reference: RoleReference; readonly model: CatalogueModel }
	| { readonly status: "error"; readonly reference: RoleReference; readonly cause: DelegationCause };

/** Footer states of the delegation axis: off, ok (`D:NORM`/`D:AGG`/`D:ORCH`) or error (`D:ERR`). */
export type DelegationAxisState = "off" | "ok" | "error";
/** Footer states of the Advisor axis: `A:OFF`, `A:ON`, `A:ERR`. */
export type AdvisorAxisState = "off" | "on" | "error";

/** The result of {@link validateDelegationPolicy}. */
export interface DelegationValidation {
	readonly delegation: DelegationAxisState;
	readonly advisor: AdvisorAxisState;
	/** Whether the Advisor is enabled by its mode and the intensity (whether or not it is valid). */
	readonly advisorEnabled: boolean;
	readonly roles: Readonly<Record<DelegationRole, RoleResolution>>;
	readonly diagnostics: readonly DelegationDiagnostic[];
}

/** The first level of `policy` that `supported` lacks, or `undefined` when every level is supported. */
export function findUnsupportedThinkingLevel(
	policy: ThinkingPolicy | undefined,
	supported: readonly ThinkingLevel[],
): ThinkingLevel | undefined {
	if (policy === undefined) return undefined;
	const levels = "level" in policy ? [policy.level] : [policy.min, policy.max];
	return levels.find((level) => !supported.includes(level));
}

/** The levels of a thinking policy that a model supports (for the panel's thinking rows). */
export function supportedThinkingChoices(model: CatalogueModel | undefined): readonly ThinkingLevel[] {
	return model?.thinkingLevels ?? [];
}

/** Finds a model by provider and id. */
export function findCatalogueModel(catalogue: ModelCatalogue, reference: RoleReference): CatalogueModel | undefined {
	return catalogue.models.find((model) => model.provider === reference.provider && model.id === reference.model);
}

/**
 * Checks one reference: provider unknown (`model-missing`), model unknown or not listed as available
 * (`model-unavailable`), no credentials (`model-unauthenticated`), outside the scoped list
 * (`model-out-of-scope`).
 */
export function checkRoleReference(
	reference: RoleReference,
	catalogue: ModelCatalogue,
): { ok: true; model: CatalogueModel } | { ok: false; cause: DelegationCause } {
	const model = findCatalogueModel(catalogue, reference);
	if (model === undefined) {
		const providers = catalogue.providers ?? catalogue.models.map((entry) => entry.provider);
		return { ok: false, cause: providers.includes(reference.provider) ? "model-unavailable" : "model-missing" };
	}
	if (!model.authenticated) return { ok: false, cause: "model-unauthenticated" };
	if (!model.available) return { ok: false, cause: "model-unavailable" };
	if (!model.inScope) return { ok: false, cause: "model-out-of-scope" };
	return { ok: true, model };
}

const CAUSE_TEXT: Readonly<Record<DelegationCause, string>> = {
	"role-absent": "role is not configured (set a model or disable it)",
	"model-missing": "provider is not known to the model registry",
	"model-unavailable": "model is not available in the model registry",
	"model-out-of-scope": "model is outside the session's scoped models",
	"model-unauthenticated": "provider has no configured credentials",
	"no-enabled-role": "no ordinary role (small, medium, large) is enabled",
	"thinking-unsupported": "thinking level is not supported by the model",
};

function diagnostic(
	axis: DelegationDiagnostic["axis"],
	severity: DelegationDiagnostic["severity"],
	cause: DelegationCause,
	role: DelegationRole | undefined,
	reference: RoleReference | undefined,
	level?: ThinkingLevel,
): DelegationDiagnostic {
	const model = reference === undefined ? undefined : formatRoleReference(reference);
	const parts = [axis === "delegation" ? "D" : "A"];
	if (role !== undefined) parts.push(role);
	if (level !== undefined) parts.push(`thinking ${level}`);
	if (model !== undefined) parts.push(model);
	const message = `${parts.join(" ")}: ${CAUSE_TEXT[cause]} (${cause})`;
	return {
		axis,
		severity,
		cause,
		...(role === undefined ? {} : { role }),
		...(level === undefined ? {} : { level }),
		...(model === undefined ? {} : { model }),
		message,
	};
}

function resolveRole(
	role: DelegationRole,
	effective: EffectiveDelegationPolicy,
	catalogue: ModelCatalogue,
): { resolution: RoleResolution; level?: ThinkingLevel } {
	const value = effective.roles[role].value;
	if (value === undefined) return { resolution: { status: "absent" } };
	if (value === null) return { resolution: { status: "disabled" } };
	const checked = checkRoleReference(value, catalogue);
	if (!checked.ok) return { resolution: { status: "error", reference: value, cause: checked.cause } };
	const unsupported = findUnsupportedThinkingLevel(effective.thinking[role].value, checked.model.thinkingLevels);
	if (unsupported !== undefined) {
		return { resolution: { status: "error", reference: value, cause: "thinking-unsupported" }, level: unsupported };
	}
	return { resolution: { status: "ok", reference: value, model: checked.model } };
}

/** Whether the Advisor is enabled: `on`, or `with-delegation` while the intensity is not off; and configured. */
export function isAdvisorEnabled(mode: AdvisorMode, effective: EffectiveDelegationPolicy): boolean {
	if (mode === "on") return true;
	if (mode === "off") return false;
	return effective.intensity.value !== "off" && effective.roles.advisor.value != null;
}

/**
 * Validates each axis separately. Delegation (when the intensity is not off): Small, Medium and Large must
 * each be a usable reference or disabled, at least one enabled; a configured Visual Design reference is
 * checked the same way; a thinking level the model does not support is an error. Advisor (when enabled):
 * its reference and thinking must be usable. An inactive axis reports problems as notices only. Policies
 * stored for disabled or unconfigured roles are inert. Never throws.
 */
export function validateDelegationPolicy(
	effective: EffectiveDelegationPolicy,
	catalogue: ModelCatalogue,
): DelegationValidation {
	const roles = {} as Record<DelegationRole, RoleResolution>;
	const levels = {} as Partial<Record<DelegationRole, ThinkingLevel>>;
	for (const role of DELEGATION_ROLES) {
		const resolved = resolveRole(role, effective, catalogue);
		roles[role] = resolved.resolution;
		if (resolved.level !== undefined) levels[role] = resolved.level;
	}
	const diagnostics: DelegationDiagnostic[] = [];
	const delegationActive = effective.intensity.value !== "off";
	const delegationSeverity = delegationActive ? "error" : "notice";
	let delegationErrors = 0;
	for (const role of [...ORDINARY_ROLES, "uiDesign"] as const) {
		const resolution = roles[role];
		if (resolution.status === "absent" && role !== "uiDesign" && delegationActive) {
			diagnostics.push(diagnostic("delegation", "error", "role-absent", role, undefined));
			delegationErrors++;
		} else if (resolution.status === "error") {
			diagnostics.push(
				diagnostic("delegation", delegationSeverity, resolution.cause, role, resolution.reference, levels[role]),
			);
			if (delegationActive) delegationErrors++;
		}
	}
	if (delegationActive && ORDINARY_ROLES.every((role) => roles[role].status === "disabled")) {
		diagnostics.push(diagnostic("delegation", "error", "no-enabled-role", undefined, undefined));
		delegationErrors++;
	}
	const delegation: DelegationAxisState = !delegationActive ? "off" : delegationErrors > 0 ? "error" : "ok";

	const advisorEnabled = isAdvisorEnabled(effective.advisorMode.value, effective);
	const advisorResolution = roles.advisor;
	let advisor: AdvisorAxisState = "off";
	if (advisorEnabled) {
		if (advisorResolution.status === "ok") advisor = "on";
		else {
			advisor = "error";
			if (advisorResolution.status === "error") {
				diagnostics.push(
					diagnostic(
						"advisor",
						"error",
						advisorResolution.cause,
						"advisor",
						advisorResolution.reference,
						levels.advisor,
					),
				);
			} else diagnostics.push(diagnostic("advisor", "error", "role-absent", "advisor", undefined));
		}
	} else if (advisorResolution.status === "error") {
		diagnostics.push(
			diagnostic("advisor", "notice", advisorResolution.cause, "advisor", advisorResolution.reference, levels.advisor),
		);
	}
	return { delegation, advisor, advisorEnabled, roles, diagnostics };
}

/** The levels a policy allows that the model supports, for display. */
export function describeThinkingSupport(policy: ThinkingPolicy, model: CatalogueModel): ThinkingLevel[] {
	return thinkingPolicyLevels(policy).filter((level) => model.thinkingLevels.includes(level));
}
