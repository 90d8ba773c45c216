// Parsing of the `/delegate` command arguments into panel, status or session-layer events.
import { err, ok, type Result } from "../decision.js";
import type { DelegationRole } from "../events.js";
import {
	ADVISOR_MODES,
	type AdvisorMode,
	DELEGATION_INTENSITIES,
	DELEGATION_PREFERENCES,
	DELEGATION_ROLES,
	type DelegationIntensity,
	type DelegationPreference,
	normalizeThinkingPolicy,
	parseRoleReference,
	THINKING_LEVELS,
	type ThinkingLevel,
} from "./config.js";
import type { DelegationSessionEvent } from "./state.js";

/** A parsed `/delegate` command. */
export type DelegateCommand =
	| { readonly kind: "panel" }
	| { readonly kind: "status" }
	| { readonly kind: "help" }
	| { readonly kind: "change"; readonly event: DelegationSessionEvent };

/** The usage text of `/delegate`. */
export const DELEGATE_USAGE = [
	"/delegate                      open the panel (TUI; elsewhere prints status)",
	"/delegate status               effective references, provenance, thinking tokens, diagnostics",
	"/delegate off|normal|aggressive|orchestrator",
	"/delegate reset                drop every session change (back to global defaults)",
	"/delegate advisor on|off|with-delegation",
	"/delegate role <role> <provider/model|off|default>",
	"/delegate thinking <role> <level|min..max|default>",
	"/delegate preference efficient|standard|intensive",
	"roles: small, medium, large, uiDesign, advisor",
].join("\n");

const ROLE_ALIASES: Readonly<Record<string, DelegationRole>> = {
	small: "small",
	medium: "medium",
	large: "large",
	uidesign: "uiDesign",
	"ui-design": "uiDesign",
	visual: "uiDesign",
	"visual-design": "uiDesign",
	advisor: "advisor",
};

/** Resolves a role name or alias (`uiDesign`, `ui-design`, `visual`), case-insensitively. */
export function parseRoleName(text: string | undefined): DelegationRole | undefined {
	if (text === undefined) return undefined;
	return ROLE_ALIASES[text.toLowerCase()];
}

function isOneOf<T extends string>(value: string | undefined, allowed: readonly T[]): value is T {
	return value !== undefined && (allowed as readonly string[]).includes(value);
}

/**
 * Parses the arguments of `/delegate`. Errors are usage hints that never echo the input.
 */
export function parseDelegateCommand(args: unknown): Result<DelegateCommand> {
	if (typeof args !== "string") return err("usage: /delegate status");
	const words = args
		.trim()
		.split(/\s+/)
		.filter((word) => word.length > 0);
	const [head, ...rest] = words;
	if (head === undefined) return ok({ kind: "panel" });
	const command = head.toLowerCase();
	if (command === "status" && rest.length === 0) return ok({ kind: "status" });
	if ((command === "help" || command === "--help") && rest.length === 0) return ok({ kind: "help" });
	if (isOneOf<DelegationIntensity>(command, DELEGATION_INTENSITIES) && rest.length === 0) {
		return ok({ kind: "change", event: { type: "set-intensity", intensity: command } });
	}
	if (command === "reset" && rest.length === 0) return ok({ kind: "change", event: { type: "reset" } });
	if (command === "advisor") {
		const mode = rest[0]?.toLowerCase();
		if (rest.length === 1 && isOneOf<AdvisorMode>(mode, ADVISOR_MODES)) {
			return ok({ kind: "change", event: { type: "set-advisor-mode", mode } });
		}
		return err("usage: /delegate advisor on|off|with-delegation");
	}
	if (command === "preference") {
		const preference = rest[0]?.toLowerCase();
		if (rest.length === 1 && isOneOf<DelegationPreference>(preference, DELEGATION_PREFERENCES)) {
			return ok({ kind: "change", event: { type: "set-preference", preference } });
		}
		return err("usage: /delegate preference efficient|standard|intensive");
	}
	if (command === "role") {
		const role = parseRoleName(rest[0]);
		const target = rest[1];
		if (rest.length !== 2 || role === undefined || target === undefined) {
			return err(`usage: /delegate role <${DELEGATION_ROLES.join("|")}> <provider/model|off|default>`);
		}
		if (target === "off") return ok({ kind: "change", event: { type: "set-role", role, value: null } });
		if (target === "default") return ok({ kind: "change", event: { type: "set-role", role, value: "default" } });
		const reference = parseRoleReference(target);
		if (!reference.ok) return err("role: expected provider/model, off or default");
		return ok({ kind: "change", event: { type: "set-role", role, value: reference.value } });
	}
	if (command === "thinking") {
		const role = parseRoleName(rest[0]);
		const target = rest[1]?.toLowerCase();
		if (rest.length !== 2 || role === undefined || target === undefined) {
			return err(`usage: /delegate thinking <${DELEGATION_ROLES.join("|")}> <level|min..max|default>`);
		}
		if (target === "default") return ok({ kind: "change", event: { type: "set-thinking", role, value: "default" } });
		const [min, max] = target.includes("..") ? target.split("..") : [target, target];
		if (!isOneOf<ThinkingLevel>(min, THINKING_LEVELS) || !isOneOf<ThinkingLevel>(max, THINKING_LEVELS)) {
			return err(`thinking: expected one of ${THINKING_LEVELS.join(", ")} or min..max`);
		}
		const policy = normalizeThinkingPolicy({ min, max });
		if (!policy.ok) return err("thinking: min is above max");
		return ok({ kind: "change", event: { type: "set-thinking", role, value: policy.value } });
	}
	return err("unknown subcommand; see /delegate help");
}
