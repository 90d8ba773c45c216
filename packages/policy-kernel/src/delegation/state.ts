// The session-layer reducer: restore, commands and panel drafts in, new session layer plus effects out
// (persist a session entry, write an audit entry, show a sanitized warning).
import type { DelegationRole } from "../events.js";
import {
	type AdvisorMode,
	cloneSettings,
	createSessionEntry,
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationPolicySettings,
	type DelegationPreference,
	type DelegationSessionEntryV1,
	normalizeThinkingPolicy,
	parseDelegationSettings,
	type RoleReference,
	restoreSessionEntry,
	type ThinkingPolicy,
} from "./config.js";
import type { DelegationCause, DelegationValidation } from "./validate.js";

/** The session layer held by the shell. */
export interface DelegationSessionState {
	readonly settings: DelegationPolicySettings;
}

/** Inputs of {@link reduceDelegationSession}. */
export type DelegationSessionEvent =
	| { readonly type: "restore"; readonly data: unknown }
	| { readonly type: "set-intensity"; readonly intensity: DelegationIntensity }
	| { readonly type: "set-preference"; readonly preference: DelegationPreference }
	| { readonly type: "set-advisor-mode"; readonly mode: AdvisorMode }
	| { readonly type: "set-role"; readonly role: DelegationRole; readonly value: RoleReference | null | "default" }
	| { readonly type: "set-thinking"; readonly role: DelegationRole; readonly value: ThinkingPolicy | "default" }
	| { readonly type: "reset" }
	| { readonly type: "apply-draft"; readonly settings: DelegationPolicySettings };

/** Audit fields the shell writes for delegation-policy (enums only). */
export interface DelegationAuditFields {
	readonly event:
		| "session-restored"
		| "session-entry-invalid"
		| "session-reset"
		| "intensity-changed"
		| "preference-changed"
		| "advisor-mode-changed"
		| "role-changed"
		| "thinking-changed"
		| "defaults-saved"
		| "validation-failed"
		| "validation-recovered"
		| "config-invalid";
	readonly mode?: DelegationIntensity;
	readonly state?: "valid" | "delegation-invalid" | "advisor-invalid" | "both-invalid";
	readonly category?:
		| DelegationRole
		| DelegationCause
		| "advisor-on"
		| "advisor-off"
		| "advisor-with-delegation"
		| "thinking-malformed"
		| "entry-malformed"
		| "entry-future-schema";
}

/** What the shell must do after a reducer step. */
export type DelegationSessionEffect =
	| { readonly kind: "persist"; readonly entry: DelegationSessionEntryV1 }
	| { readonly kind: "audit"; readonly fields: DelegationAuditFields }
	| { readonly kind: "warn"; readonly message: string };

/** A reducer step. */
export interface DelegationSessionStep {
	readonly state: DelegationSessionState;
	readonly effects: readonly DelegationSessionEffect[];
}

/** The empty session layer. */
export function initialDelegationSessionState(): DelegationSessionState {
	return { settings: {} };
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** One audit entry per field that differs between two session layers. */
export function settingsChangeAudits(
	before: DelegationPolicySettings,
	after: DelegationPolicySettings,
): DelegationAuditFields[] {
	const audits: DelegationAuditFields[] = [];
	if (before.intensity !== after.intensity) {
		audits.push({ event: "intensity-changed", ...(after.intensity ? { mode: after.intensity } : {}) });
	}
	if (before.preference !== after.preference) audits.push({ event: "preference-changed" });
	if (before.advisorMode !== after.advisorMode) {
		audits.push({
			event: "advisor-mode-changed",
			...(after.advisorMode ? { category: `advisor-${after.advisorMode}` as const } : {}),
		});
	}
	for (const role of DELEGATION_ROLES) {
		const beforeRole = before.roles && Object.hasOwn(before.roles, role) ? before.roles[role] : undefined;
		const afterRole = after.roles && Object.hasOwn(after.roles, role) ? after.roles[role] : undefined;
		if (!sameJson(beforeRole, afterRole)) audits.push({ event: "role-changed", category: role });
		if (!sameJson(before.thinking?.[role], after.thinking?.[role])) {
			audits.push({ event: "thinking-changed", category: role });
		}
	}
	return audits;
}

function commit(state: DelegationSessionState, settings: DelegationPolicySettings): DelegationSessionStep {
	const audits = settingsChangeAudits(state.settings, settings);
	return {
		state: { settings },
		effects: [
			{ kind: "persist", entry: createSessionEntry(settings) },
			...audits.map((fields) => ({ kind: "audit" as const, fields })),
		],
	};
}

function withRole(
	settings: DelegationPolicySettings,
	role: DelegationRole,
	value: RoleReference | null | "default",
): DelegationPolicySettings {
	const next = cloneSettings(settings);
	const roles = { ...(next.roles ?? {}) };
	if (value === "default") delete roles[role];
	else roles[role] = value === null ? null : { provider: value.provider, model: value.model };
	if (Object.keys(roles).length > 0) next.roles = roles;
	else delete next.roles;
	return next;
}

function withThinking(
	settings: DelegationPolicySettings,
	role: DelegationRole,
	value: ThinkingPolicy | "default",
): DelegationPolicySettings | undefined {
	const next = cloneSettings(settings);
	const thinking = { ...(next.thinking ?? {}) };
	if (value === "default") delete thinking[role];
	else {
		const normalized = normalizeThinkingPolicy(value);
		if (!normalized.ok) return undefined;
		thinking[role] = normalized.value;
	}
	if (Object.keys(thinking).length > 0) next.thinking = thinking;
	else delete next.thinking;
	return next;
}

const WARNINGS = {
	malformed: "delegation-policy: the stored session state is unreadable; delegation and the Advisor are off.",
	future: "delegation-policy: the stored session state comes from a newer version; delegation and the Advisor are off.",
	invalid: "delegation-policy: change ignored (invalid value).",
} as const;

/**
 * The session-layer reducer. `restore` reads the latest stored entry (a malformed or newer one forces
 * delegation and the Advisor off, with a sanitized warning and nothing persisted). Every command and an
 * applied panel draft replace the layer, persist one entry with the whole layer and audit each changed
 * field. Invalid input changes nothing and yields a warning. Never throws.
 */
export function reduceDelegationSession(
	state: DelegationSessionState,
	event: DelegationSessionEvent,
): DelegationSessionStep {
	try {
		switch (event.type) {
			case "restore": {
				const restored = restoreSessionEntry(event.data);
				if (restored.kind === "malformed" || restored.kind === "future-schema") {
					const future = restored.kind === "future-schema";
					return {
						state: { settings: restored.settings },
						effects: [
							{ kind: "warn", message: future ? WARNINGS.future : WARNINGS.malformed },
							{
								kind: "audit",
								fields: {
									event: "session-entry-invalid",
									category: future ? "entry-future-schema" : "entry-malformed",
								},
							},
						],
					};
				}
				return {
					state: { settings: restored.settings },
					effects: restored.kind === "restored" ? [{ kind: "audit", fields: { event: "session-restored" } }] : [],
				};
			}
			case "set-intensity":
				return commit(state, { ...cloneSettings(state.settings), intensity: event.intensity });
			case "set-preference":
				return commit(state, { ...cloneSettings(state.settings), preference: event.preference });
			case "set-advisor-mode":
				return commit(state, { ...cloneSettings(state.settings), advisorMode: event.mode });
			case "set-role":
				return commit(state, withRole(state.settings, event.role, event.value));
			case "set-thinking": {
				const next = withThinking(state.settings, event.role, event.value);
				if (next === undefined) return { state, effects: [{ kind: "warn", message: WARNINGS.invalid }] };
				return commit(state, next);
			}
			case "reset": {
				const step = commit(state, {});
				return { state: step.state, effects: [...step.effects, { kind: "audit", fields: { event: "session-reset" } }] };
			}
			case "apply-draft": {
				const parsed = parseDelegationSettings(event.settings);
				if (!parsed.ok) return { state, effects: [{ kind: "warn", message: WARNINGS.invalid }] };
				return commit(state, cloneSettings(parsed.value));
			}
			default:
				return { state, effects: [{ kind: "warn", message: WARNINGS.invalid }] };
		}
	} catch {
		return { state, effects: [{ kind: "warn", message: WARNINGS.invalid }] };
	}
}

/** The audit state of a validation: `valid`, `delegation-invalid`, `advisor-invalid` or `both-invalid`. */
export function validationAuditState(
	validation: Pick<DelegationValidation, "delegation" | "advisor">,
): NonNullable<DelegationAuditFields["state"]> {
	const d = validation.delegation === "error";
	const a = validation.advisor === "error";
	return d && a ? "both-invalid" : d ? "delegation-invalid" : a ? "advisor-invalid" : "valid";
}

/**
 * The audit entry for a change of validity between two validations (`undefined` when it did not change):
 * `validation-failed` with the first error's cause, or `validation-recovered`.
 */
export function validationTransitionAudit(
	previous: Pick<DelegationValidation, "delegation" | "advisor"> | undefined,
	next: DelegationValidation,
): DelegationAuditFields | undefined {
	const before = previous === undefined ? "valid" : validationAuditState(previous);
	const after = validationAuditState(next);
	if (before === after) return undefined;
	if (after === "valid") return { event: "validation-recovered", state: after };
	const cause = next.diagnostics.find((entry) => entry.severity === "error")?.cause;
	return { event: "validation-failed", state: after, ...(cause ? { category: cause } : {}) };
}
