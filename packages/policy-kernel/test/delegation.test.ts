// The delegation kernel: documents and migration, session entries, layering, validation by axis, rendering,
// footer and status, the session reducer, and /delegate parsing.
import { describe, expect, it } from "vitest";
import { validateAuditEntry } from "../src/audit.js";
import {
	type CatalogueModel,
	type DelegationPolicySettings,
	type DelegationValidation,
	delegationToken,
	effectiveToSettings,
	formatDelegationStatus,
	formatFooterStatus,
	type ModelCatalogue,
	normalizeThinkingPolicy,
	parseDelegateCommand,
	parseDelegationPolicyDocument,
	reduceDelegationSession,
	renderPolicyBlock,
	resolveEffectivePolicy,
	restoreSessionEntry,
	thinkingTokens,
	validateDelegationPolicy,
	validationTransitionAudit,
} from "../src/delegation/index.js";
import { buildDelegationStatePayload } from "../src/delegation/render.js";
import { DelegationStateV1Schema, decodeEventPayload } from "../src/events.js";

function model(id: string, extra: Partial<CatalogueModel> = {}): CatalogueModel {
	return { provider: "p", id, available: true, authenticated: true, inScope: true, thinkingLevels: ["off"], ...extra };
}

const CATALOGUE: ModelCatalogue = {
	providers: ["p", "cold"],
	models: [
		model("s"),
		model("m"),
		model("l", { thinkingLevels: ["off", "minimal", "low", "medium", "high"] }),
		model("scoped-out", { inScope: false }),
		model("no-auth", { authenticated: false }),
		model("listed-off", { available: false }),
	],
};

const REF = (id: string) => ({ provider: "p", model: id });
const ROLES = { small: REF("s"), medium: REF("m"), large: REF("l") };

function validate(global: DelegationPolicySettings, session: DelegationPolicySettings = {}) {
	const effective = resolveEffectivePolicy(global, session);
	return { effective, validation: validateDelegationPolicy(effective, CATALOGUE) };
}

describe("global document", () => {
	it("accepts version 1 and normalises min == max to a level", () => {
		const parsed = parseDelegationPolicyDocument({
			$schema: "./schema.json",
			version: 1,
			intensity: "normal",
			roles: ROLES,
			thinking: { large: { min: "high", max: "high" }, small: { min: "off", max: "low" } },
		});
		expect(parsed).toEqual({
			ok: true,
			value: {
				settings: {
					intensity: "normal",
					roles: ROLES,
					thinking: { large: { level: "high" }, small: { min: "off", max: "low" } },
				},
			},
		});
	});

	it.each([
		[{ version: 1, thinking: { small: { level: "turbo" } } }, /^thinking\.small/],
		[{ version: 1, thinking: { small: { min: "high", max: "low" } } }, /^thinking\.small: min is above max$/],
		[{ version: 1, intensity: "wild" }, /^intensity: expected one of/],
		[{ version: 1, roles: { small: { provider: "p" } } }, /^roles\.small/],
		[{ version: 1, extra: true }, /unknown key/],
		[{ version: 2 }, /^version: newer than this extension supports$/],
		[{ version: "1" }, /^version/],
		[[], /^config: expected object$/],
	])("rejects %j as a whole document", (raw, error) => {
		const parsed = parseDelegationPolicyDocument(raw);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.error).toMatch(error);
	});

	it("never echoes values in errors", () => {
		const parsed = parseDelegationPolicyDocument({ version: 1, roles: { small: { provider: "/home/x", model: "y" } } });
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.error).not.toContain("/home/x");
	});

	it("migrates an unversioned document in memory (Advisor stays tied to delegation)", () => {
		const parsed = parseDelegationPolicyDocument({
			intensity: "aggressive",
			roles: { small: "p/s", large: null, advisor: "openrouter/meta/llama-3.1:8b" },
			thinking: { small: "off", large: { min: "low", max: "low" } },
		});
		expect(parsed).toEqual({
			ok: true,
			value: {
				migratedFrom: 0,
				settings: {
					intensity: "aggressive",
					advisorMode: "with-delegation",
					roles: { small: REF("s"), large: null, advisor: { provider: "openrouter", model: "meta/llama-3.1:8b" } },
					thinking: { small: { level: "off" }, large: { level: "low" } },
				},
			},
		});
		expect(parseDelegationPolicyDocument({ roles: { small: "no-slash" } }).ok).toBe(false);
	});

	it("normalizeThinkingPolicy rejects anything but a level or a range", () => {
		expect(normalizeThinkingPolicy({ level: "max" })).toEqual({ ok: true, value: { level: "max" } });
		expect(normalizeThinkingPolicy({ min: "low", max: "xhigh" })).toEqual({
			ok: true,
			value: { min: "low", max: "xhigh" },
		});
		expect(normalizeThinkingPolicy({ level: "low", min: "low" }).ok).toBe(false);
		expect(normalizeThinkingPolicy("low").ok).toBe(false);
	});
});

describe("session entries", () => {
	it.each([
		[undefined, "none"],
		[{ v: 1, settings: { intensity: "normal" } }, "restored"],
		[{ v: 1, settings: { intensity: "normal", roles: { small: null } } }, "restored"],
		[{ v: 1, settings: { thinking: { small: { min: "max", max: "off" } } } }, "malformed"],
		[{ v: 1 }, "malformed"],
		[{ v: 1, settings: {}, extra: 1 }, "malformed"],
		["text", "malformed"],
		[null, "malformed"],
		[{ v: 2, settings: { whatever: true } }, "future-schema"],
		[{ v: 99 }, "future-schema"],
	])("restores %j as %s", (data, kind) => {
		const restored = restoreSessionEntry(data);
		expect(restored.kind).toBe(kind);
		if (kind === "malformed" || kind === "future-schema") {
			expect(restored.settings).toEqual({ intensity: "off", advisorMode: "off" });
		}
	});
});

describe("layering and provenance", () => {
	it("session overrides global overrides defaults, field by field; null disables", () => {
		const { effective } = validate(
			{ intensity: "normal", roles: ROLES },
			{ roles: { small: null }, preference: "efficient" },
		);
		expect(effective.intensity).toEqual({ value: "normal", source: "global" });
		expect(effective.preference).toEqual({ value: "efficient", source: "session" });
		expect(effective.advisorMode).toEqual({ value: "with-delegation", source: "default" });
		expect(effective.roles.small).toEqual({ value: null, source: "session" });
		expect(effective.roles.medium).toEqual({ value: REF("m"), source: "global" });
		expect(effective.roles.uiDesign).toEqual({ value: undefined, source: "default" });
		expect(effectiveToSettings(effective)).toEqual({
			intensity: "normal",
			preference: "efficient",
			advisorMode: "with-delegation",
			roles: { small: null, medium: REF("m"), large: REF("l") },
		});
	});
});

function causes(validation: DelegationValidation) {
	return validation.diagnostics.map((entry) => [entry.axis, entry.severity, entry.cause, entry.role ?? null]);
}

describe("validation by axis", () => {
	it("is off and silent with intensity off", () => {
		const { validation } = validate({});
		expect([validation.delegation, validation.advisor, validation.diagnostics]).toEqual(["off", "off", []]);
	});

	it.each([
		["role absent", { roles: { small: REF("s"), medium: REF("m") } }, "role-absent", "large"],
		["provider unknown", { roles: { ...ROLES, small: { provider: "nope", model: "s" } } }, "model-missing", "small"],
		["model unknown", { roles: { ...ROLES, small: REF("gone") } }, "model-unavailable", "small"],
		["model listed as unavailable", { roles: { ...ROLES, small: REF("listed-off") } }, "model-unavailable", "small"],
		["unauthenticated", { roles: { ...ROLES, medium: REF("no-auth") } }, "model-unauthenticated", "medium"],
		["out of scope", { roles: { ...ROLES, large: REF("scoped-out") } }, "model-out-of-scope", "large"],
		[
			"unsupported thinking",
			{ roles: ROLES, thinking: { large: { min: "low", max: "xhigh" } } },
			"thinking-unsupported",
			"large",
		],
		["bad Visual Design", { roles: { ...ROLES, uiDesign: REF("gone") } }, "model-unavailable", "uiDesign"],
	])("D:ERR for %s", (_name, settings, cause, role) => {
		const { effective, validation } = validate({ intensity: "aggressive", ...settings } as DelegationPolicySettings);
		expect(validation.delegation).toBe("error");
		expect(causes(validation)).toContainEqual(["delegation", "error", cause, role]);
		expect(delegationToken(effective.intensity.value, validation)).toBe("D:ERR");
		expect(renderPolicyBlock(effective, validation)).toBeUndefined();
	});

	it("names role, level and model in a thinking diagnostic", () => {
		const { validation } = validate({ intensity: "normal", roles: ROLES, thinking: { small: { level: "high" } } });
		expect(validation.diagnostics).toEqual([
			{
				axis: "delegation",
				severity: "error",
				cause: "thinking-unsupported",
				role: "small",
				level: "high",
				model: "p/s",
				message: "D small thinking high p/s: thinking level is not supported by the model (thinking-unsupported)",
			},
		]);
	});

	it("no enabled role is its own cause", () => {
		const { validation } = validate({ intensity: "normal", roles: { small: null, medium: null, large: null } });
		expect(causes(validation)).toEqual([["delegation", "error", "no-enabled-role", null]]);
	});

	it("A:ERR leaves valid delegation, and invalid delegation leaves a valid Advisor", () => {
		const advisorBad = validate({
			intensity: "normal",
			advisorMode: "on",
			roles: { ...ROLES, advisor: REF("no-auth") },
		});
		expect([advisorBad.validation.delegation, advisorBad.validation.advisor]).toEqual(["ok", "error"]);
		const block = renderPolicyBlock(advisorBad.effective, advisorBad.validation) ?? "";
		expect(block).toContain("Intensity: normal.");
		expect(block).not.toContain("Advisor");
		const delegationBad = validate({
			intensity: "normal",
			advisorMode: "on",
			roles: { small: REF("s"), advisor: REF("l") },
		});
		expect([delegationBad.validation.delegation, delegationBad.validation.advisor]).toEqual(["error", "on"]);
		const advisorOnly = renderPolicyBlock(delegationBad.effective, delegationBad.validation) ?? "";
		expect(advisorOnly).toContain("delegation-policy.advisor");
		expect(advisorOnly).not.toContain("Intensity:");
	});

	it("an unusable Advisor while off is a notice only; a policy for a disabled role is inert", () => {
		const { validation } = validate({
			intensity: "normal",
			advisorMode: "off",
			roles: { ...ROLES, large: null, advisor: REF("scoped-out") },
			thinking: { large: { level: "max" } },
		});
		expect([validation.delegation, validation.advisor]).toEqual(["ok", "off"]);
		expect(causes(validation)).toEqual([["advisor", "notice", "model-out-of-scope", "advisor"]]);
	});

	it("with-delegation: the Advisor follows an active intensity and needs a configured role", () => {
		expect(validate({ roles: { ...ROLES, advisor: REF("l") } }).validation.advisor).toBe("off");
		expect(validate({ intensity: "normal", roles: { ...ROLES, advisor: REF("l") } }).validation.advisor).toBe("on");
		expect(validate({ intensity: "normal", roles: ROLES }).validation.advisor).toBe("off");
		expect(validate({ advisorMode: "on", roles: ROLES }).validation.advisor).toBe("error");
	});
});

describe("rendering", () => {
	it.each([
		["normal", "Intensity: normal. Delegate well-scoped"],
		["aggressive", "Intensity: aggressive. Delegate by default"],
		["orchestrator", "Intensity: orchestrator. Act as an orchestrator"],
	] as const)("renders the %s intensity", (intensity, text) => {
		const { effective, validation } = validate({ intensity, roles: ROLES });
		const block = renderPolicyBlock(effective, validation) ?? "";
		expect(block.startsWith("<delegation_policy>\n")).toBe(true);
		expect(block.endsWith("\n</delegation_policy>")).toBe(true);
		expect(block).toContain(text);
		expect(formatFooterStatus(effective, validation)).toBe(
			{ normal: "D:NORM A:OFF", aggressive: "D:AGG A:OFF", orchestrator: "D:ORCH A:OFF" }[intensity],
		);
	});

	it.each([
		["efficient", "choose Small."],
		["standard", "choose by its size and risk."],
		["intensive", "choose Medium."],
	] as const)("renders the %s preference", (preference, text) => {
		const { effective, validation } = validate({ intensity: "normal", preference, roles: ROLES });
		expect(renderPolicyBlock(effective, validation)).toContain(text);
	});

	it("renders roles with thinking, disabled roles, Visual Design, and the Advisor with its thinking", () => {
		const { effective, validation } = validate({
			intensity: "normal",
			advisorMode: "on",
			roles: { small: REF("s"), medium: null, large: REF("l"), uiDesign: REF("m"), advisor: REF("l") },
			thinking: { large: { min: "low", max: "high" }, advisor: { level: "medium" } },
		});
		const block = renderPolicyBlock(effective, validation) ?? "";
		expect(block).toContain("- Small: model p/s; for quick, mechanical or read-only work.");
		expect(block).toContain("- Medium: disabled; do not delegate to it.");
		expect(block).toContain("- Large: model p/l, thinking between low and high (choose per subtask)");
		expect(block).toContain("- Visual Design: model p/m; for visual and UI design work only.");
		expect(block).toContain("with model p/l and its thinking policy (medium)");
		expect(formatFooterStatus(effective, validation)).toBe("D:NORM A:ON");
	});

	it("status lists provenance, one thinking token per role, and diagnostics", () => {
		const { effective, validation } = validate(
			{ intensity: "normal", roles: { small: REF("s") } },
			{ thinking: { small: { level: "off" } } },
		);
		const lines = formatDelegationStatus(effective, validation);
		expect(lines[0]).toBe("delegation-policy D:ERR A:OFF (delegation failed closed; no delegation policy is injected)");
		expect(lines).toContain("small: p/s [global] · thinking-small:off [session]");
		expect(lines).toContain("- error: D medium: role is not configured (set a model or disable it) (role-absent)");
		expect(thinkingTokens(effective)).toEqual([
			"thinking-small:off",
			"thinking-medium:unset",
			"thinking-large:unset",
			"thinking-uiDesign:unset",
			"thinking-advisor:unset",
		]);
	});

	it("the bus payload matches DelegationStateV1 and carries model ids and validity only", () => {
		const { effective, validation } = validate({ intensity: "normal", roles: { ...ROLES, uiDesign: null } });
		const payload = buildDelegationStatePayload(effective, validation);
		expect(decodeEventPayload("pi-policy:delegation-state", payload).ok).toBe(true);
		expect(payload.roles).toEqual({ ...ROLES, uiDesign: null });
		expect(DelegationStateV1Schema.required).toContain("roles");
	});
});

describe("reduceDelegationSession", () => {
	it("commands persist the whole layer and audit each changed field with valid entries", () => {
		let state = { settings: {} as DelegationPolicySettings };
		const events = [
			{ type: "set-intensity", intensity: "aggressive" },
			{ type: "set-role", role: "small", value: REF("s") },
			{ type: "set-role", role: "large", value: null },
			{ type: "set-thinking", role: "large", value: { min: "low", max: "low" } },
			{ type: "set-advisor-mode", mode: "on" },
			{ type: "set-preference", preference: "intensive" },
		] as const;
		const audits: unknown[] = [];
		for (const event of events) {
			const step = reduceDelegationSession(state, event);
			state = step.state as typeof state;
			for (const effect of step.effects)
				if (effect.kind === "audit") audits.push({ v: 1, ext: "delegation-policy", ...effect.fields });
			expect(step.effects[0]).toEqual({ kind: "persist", entry: { v: 1, settings: state.settings } });
		}
		expect(state.settings).toEqual({
			intensity: "aggressive",
			roles: { small: REF("s"), large: null },
			thinking: { large: { level: "low" } },
			advisorMode: "on",
			preference: "intensive",
		});
		expect(audits.map((entry) => (entry as { event: string }).event)).toEqual([
			"intensity-changed",
			"role-changed",
			"role-changed",
			"thinking-changed",
			"advisor-mode-changed",
			"preference-changed",
		]);
		for (const entry of audits) expect(validateAuditEntry(entry).ok).toBe(true);
		const defaulted = reduceDelegationSession(state, { type: "set-role", role: "small", value: "default" });
		expect(defaulted.state.settings.roles).toEqual({ large: null });
		const reset = reduceDelegationSession(state, { type: "reset" });
		expect(reset.state.settings).toEqual({});
		expect(reset.effects.at(-1)).toEqual({ kind: "audit", fields: { event: "session-reset" } });
	});

	it("restore: malformed and future entries force off with a sanitized warning and persist nothing", () => {
		const step = reduceDelegationSession(
			{ settings: { intensity: "normal" } },
			{ type: "restore", data: { v: 1, settings: "/secret" } },
		);
		expect(step.state.settings).toEqual({ intensity: "off", advisorMode: "off" });
		expect(step.effects.some((effect) => effect.kind === "persist")).toBe(false);
		expect(JSON.stringify(step.effects)).not.toContain("secret");
		const future = reduceDelegationSession({ settings: {} }, { type: "restore", data: { v: 3 } });
		expect(future.effects).toContainEqual({
			kind: "audit",
			fields: { event: "session-entry-invalid", category: "entry-future-schema" },
		});
	});

	it("invalid input changes nothing and never throws", () => {
		const state = { settings: { intensity: "normal" } as DelegationPolicySettings };
		const bad = [
			{ type: "set-thinking", role: "small", value: { min: "high", max: "low" } },
			{ type: "apply-draft", settings: { intensity: "nope" } },
			{ type: "unknown" },
			null,
		];
		for (const event of bad) {
			const step = reduceDelegationSession(state, event as never);
			expect(step.state).toBe(state);
			expect(step.effects).toEqual([{ kind: "warn", message: "delegation-policy: change ignored (invalid value)." }]);
		}
	});

	it("validation transitions produce failed and recovered audits", () => {
		const bad = validate({ intensity: "normal", roles: { small: REF("s") } }).validation;
		const good = validate({ intensity: "normal", roles: ROLES }).validation;
		expect(validationTransitionAudit(undefined, good)).toBeUndefined();
		expect(validationTransitionAudit(good, bad)).toEqual({
			event: "validation-failed",
			state: "delegation-invalid",
			category: "role-absent",
		});
		expect(validationTransitionAudit(bad, good)).toEqual({ event: "validation-recovered", state: "valid" });
	});
});

describe("parseDelegateCommand", () => {
	it.each([
		["", { kind: "panel" }],
		["status", { kind: "status" }],
		["ORCHESTRATOR", { kind: "change", event: { type: "set-intensity", intensity: "orchestrator" } }],
		["reset", { kind: "change", event: { type: "reset" } }],
		["advisor with-delegation", { kind: "change", event: { type: "set-advisor-mode", mode: "with-delegation" } }],
		["role ui-design off", { kind: "change", event: { type: "set-role", role: "uiDesign", value: null } }],
		["role small default", { kind: "change", event: { type: "set-role", role: "small", value: "default" } }],
		[
			"role large openrouter/meta/llama:8b",
			{
				kind: "change",
				event: { type: "set-role", role: "large", value: { provider: "openrouter", model: "meta/llama:8b" } },
			},
		],
		[
			"thinking large low..high",
			{ kind: "change", event: { type: "set-thinking", role: "large", value: { min: "low", max: "high" } } },
		],
		[
			"thinking small high..high",
			{ kind: "change", event: { type: "set-thinking", role: "small", value: { level: "high" } } },
		],
		["preference efficient", { kind: "change", event: { type: "set-preference", preference: "efficient" } }],
	])("parses %j", (args, expected) => {
		expect(parseDelegateCommand(args)).toEqual({ ok: true, value: expected });
	});

	it.each([
		"role",
		"role wizard p/m",
		"role small /etc/passwd",
		"thinking large high..low",
		"advisor maybe",
		"launch /secret",
	])("rejects %j without echoing it", (args) => {
		const parsed = parseDelegateCommand(args);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) {
			expect(parsed.error).not.toContain("passwd");
			expect(parsed.error).not.toContain("secret");
			expect(parsed.error).not.toContain("wizard");
		}
	});
});
