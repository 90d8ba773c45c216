// Rendering: the policy block for each intensity, preference and Advisor state; footer tokens; status lines;
// and the bus payload of the effective state.
import type { DelegationRole, DelegationStateV1, RoleModel } from "../events.js";
import {
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationPreference,
	type EffectiveDelegationPolicy,
	formatRoleReference,
	formatThinkingPolicy,
	ROLE_LABELS,
	type ThinkingPolicy,
} from "./config.js";
import type { DelegationValidation } from "./validate.js";

/** The section name of the block in the system message, and its XML tag. */
export const DELEGATION_POLICY_SECTION = "delegation_policy";

/** The Advisor agent profile shipped with the package. */
export const ADVISOR_PROFILE_NAME = "delegation-policy.advisor";
/** The bulk-reader agent profile shipped with the package. */
export const BULK_READER_PROFILE_NAME = "delegation-policy.bulk-reader";

/** Wraps a body in the section's tags, exactly as Pi renders a named prompt section. */
export function wrapPolicyBlock(body: string): string {
	return `<${DELEGATION_POLICY_SECTION}>\n${body}\n</${DELEGATION_POLICY_SECTION}>`;
}

const INTENSITY_TEXT: Readonly<Record<Exclude<DelegationIntensity, "off">, string>> = {
	normal:
		"Intensity: normal. Delegate well-scoped, self-contained subtasks (bulk reading, broad searches, mechanical edits, independent checks) when that keeps your own context lean. Do the rest yourself.",
	aggressive:
		"Intensity: aggressive. Delegate by default: hand off every subtask that can be described in a self-contained brief, and keep for yourself only planning, coordination and final integration.",
	orchestrator:
		"Intensity: orchestrator. Act as an orchestrator: do not do substantive work yourself. Plan, split the work into self-contained briefs, delegate each piece to the fitting role, review what comes back and integrate it.",
};

const PREFERENCE_TEXT: Readonly<Record<DelegationPreference, string>> = {
	efficient: "Preference: efficient. When a subtask could go to either Small or Medium, choose Small.",
	standard: "Preference: standard. When a subtask could go to either Small or Medium, choose by its size and risk.",
	intensive: "Preference: intensive. When a subtask could go to either Small or Medium, choose Medium.",
};

const ROLE_PURPOSE: Readonly<Record<Exclude<DelegationRole, "advisor">, string>> = {
	small: "quick, mechanical or read-only work",
	medium: "ordinary implementation and analysis",
	large: "hard reasoning, design and risky changes",
	uiDesign: "visual and UI design work only",
};

function thinkingClause(policy: ThinkingPolicy | undefined): string {
	if (policy === undefined) return "";
	return "level" in policy
		? `, thinking ${policy.level}`
		: `, thinking between ${policy.min} and ${policy.max} (choose per subtask)`;
}

function delegationLines(effective: EffectiveDelegationPolicy, validation: DelegationValidation): string[] {
	const intensity = effective.intensity.value;
	if (intensity === "off" || validation.delegation !== "ok") return [];
	const lines = [INTENSITY_TEXT[intensity], PREFERENCE_TEXT[effective.preference.value], "Roles:"];
	for (const role of ["small", "medium", "large", "uiDesign"] as const) {
		const resolution = validation.roles[role];
		if (resolution.status === "ok") {
			lines.push(
				`- ${ROLE_LABELS[role]}: model ${formatRoleReference(resolution.reference)}${thinkingClause(effective.thinking[role].value)}; for ${ROLE_PURPOSE[role]}.`,
			);
		} else if (resolution.status === "disabled" && role !== "uiDesign") {
			lines.push(`- ${ROLE_LABELS[role]}: disabled; do not delegate to it.`);
		}
	}
	lines.push(
		"Launch delegated work only through the host's subagent mechanism, with the exact model and thinking listed for the role. Give each delegate a self-sufficient brief.",
	);
	if (validation.roles.small.status === "ok") {
		lines.push(
			`For bulk read-only exploration, the \`${BULK_READER_PROFILE_NAME}\` agent profile (read, grep, find, ls only) fits the Small role.`,
		);
	}
	return lines;
}

function advisorLines(effective: EffectiveDelegationPolicy, validation: DelegationValidation): string[] {
	const resolution = validation.roles.advisor;
	if (validation.advisor !== "on" || resolution.status !== "ok") return [];
	const thinking = effective.thinking.advisor.value;
	const thinkingText =
		thinking === undefined
			? ""
			: " and its thinking policy (" +
				("level" in thinking ? thinking.level : `between ${thinking.min} and ${thinking.max}`) +
				")";
	return [
		"Advisor: while you shape or reconsider a substantive choice, consult the Advisor briefly.",
		`- Launch the \`${ADVISOR_PROFILE_NAME}\` agent profile through the host's subagent mechanism, with model ${formatRoleReference(resolution.reference)}${thinkingText}.`,
		"- The Advisor sees only your brief. Make it self-sufficient: objective, constraints, facts and the open choice first; your proposal and reasons after, if you have one. Ask for an approach, criteria or critical assumptions, not for approval.",
		"- Continue the same Advisor thread through the host's resume mechanism to clarify, challenge or go deeper.",
		"- Reuse the advice while the decision holds; do not reopen it every turn.",
	];
}

/**
 * The block body (without tags) for the current policy and validation, or `undefined` when nothing is to be
 * injected: delegation off or invalid (`D:ERR`) and no valid, enabled Advisor.
 */
export function renderPolicyBlockBody(
	effective: EffectiveDelegationPolicy,
	validation: DelegationValidation,
): string | undefined {
	const delegation = delegationLines(effective, validation);
	const advisor = advisorLines(effective, validation);
	if (delegation.length === 0 && advisor.length === 0) return undefined;
	const lines = [
		"Delegation policy for this session (set by the user with /delegate). It is guidance for you; it launches nothing by itself.",
		...delegation,
		...advisor,
	];
	return lines.join("\n");
}

/** The full marked block (with tags), or `undefined` when nothing is to be injected. */
export function renderPolicyBlock(
	effective: EffectiveDelegationPolicy,
	validation: DelegationValidation,
): string | undefined {
	const body = renderPolicyBlockBody(effective, validation);
	return body === undefined ? undefined : wrapPolicyBlock(body);
}

const INTENSITY_TOKENS: Readonly<Record<Exclude<DelegationIntensity, "off">, string>> = {
	normal: "D:NORM",
	aggressive: "D:AGG",
	orchestrator: "D:ORCH",
};

/** The delegation footer token: `D:OFF`, `D:NORM`, `D:AGG`, `D:ORCH` or `D:ERR`. */
export function delegationToken(intensity: DelegationIntensity, validation: DelegationValidation): string {
	if (intensity === "off" || validation.delegation === "off") return "D:OFF";
	if (validation.delegation === "error") return "D:ERR";
	return INTENSITY_TOKENS[intensity];
}

/** The Advisor footer token: `A:ON`, `A:OFF` or `A:ERR`. */
export function advisorToken(validation: DelegationValidation): string {
	return validation.advisor === "on" ? "A:ON" : validation.advisor === "error" ? "A:ERR" : "A:OFF";
}

/** The footer status text, for example `D:NORM A:OFF`. */
export function formatFooterStatus(effective: EffectiveDelegationPolicy, validation: DelegationValidation): string {
	return `${delegationToken(effective.intensity.value, validation)} ${advisorToken(validation)}`;
}

/** One `thinking-<role>:<policy>` token per role, for example `thinking-small:low`, `thinking-large:unset`. */
export function thinkingTokens(effective: EffectiveDelegationPolicy): string[] {
	return DELEGATION_ROLES.map((role) => `thinking-${role}:${formatThinkingPolicy(effective.thinking[role].value)}`);
}

function roleValueText(value: EffectiveDelegationPolicy["roles"][DelegationRole]["value"]): string {
	if (value === undefined) return "not configured";
	if (value === null) return "disabled";
	return formatRoleReference(value);
}

/**
 * The `/delegate status` lines: footer tokens with what they mean, every effective reference with its
 * provenance, one thinking token per role, and sanitized diagnostics.
 */
export function formatDelegationStatus(
	effective: EffectiveDelegationPolicy,
	validation: DelegationValidation,
): string[] {
	const footer = formatFooterStatus(effective, validation);
	const meaning =
		validation.delegation === "ok"
			? "local validation passed; this does not prove that any delegation happened"
			: validation.delegation === "error"
				? "delegation failed closed; no delegation policy is injected"
				: "delegation is off";
	const lines = [`delegation-policy ${footer} (${meaning})`];
	lines.push(
		`intensity ${effective.intensity.value} [${effective.intensity.source}] · preference ${effective.preference.value} [${effective.preference.source}] · advisor ${effective.advisorMode.value} [${effective.advisorMode.source}]`,
	);
	for (const role of DELEGATION_ROLES) {
		const slot = effective.roles[role];
		const thinking = effective.thinking[role];
		lines.push(
			`${role}: ${roleValueText(slot.value)} [${slot.source}] · thinking-${role}:${formatThinkingPolicy(thinking.value)} [${thinking.source}]`,
		);
	}
	if (validation.diagnostics.length === 0) lines.push("diagnostics: none");
	else lines.push("diagnostics:", ...diagnosticLines(validation));
	return lines;
}

/** One `- <severity>: <message>` line per diagnostic (the messages are sanitized: see {@link DelegationDiagnostic}). */
function diagnosticLines(validation: DelegationValidation): string[] {
	return validation.diagnostics.map((entry) => `- ${entry.severity}: ${entry.message}`);
}

/**
 * The answer to a `/delegate` change (intensity, role, thinking, Advisor, preference, reset): the new footer, then
 * each diagnostic, so that a change that leaves delegation failed closed (`D:ERR`) says why at once.
 */
export function formatDelegationChange(footer: string, validation: DelegationValidation): string[] {
	return [`delegation-policy: ${footer}`, ...diagnosticLines(validation)];
}

/** The effective state published on `pi-policy:delegation-state`: model ids and validity, nothing else. */
export function buildDelegationStatePayload(
	effective: EffectiveDelegationPolicy,
	validation: DelegationValidation,
): DelegationStateV1 {
	const roles: DelegationStateV1["roles"] = {};
	for (const role of DELEGATION_ROLES) {
		const value = effective.roles[role].value;
		if (value === undefined) continue;
		if (value === null) {
			roles[role] = null;
			continue;
		}
		const thinking = effective.thinking[role].value;
		const model: RoleModel = { provider: value.provider, model: value.model, ...(thinking ? { thinking } : {}) };
		roles[role] = model;
	}
	return {
		v: 1,
		kind: "state",
		intensity: effective.intensity.value,
		delegation: validation.delegation,
		advisor: validation.advisor,
		roles,
	};
}
