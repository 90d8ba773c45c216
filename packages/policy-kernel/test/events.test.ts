import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	AUDIT_CHANNEL,
	DELEGATION_STATE_CHANNEL,
	type DelegationStateV1,
	decodeEventPayload,
	isPolicyChannel,
	POLICY_CHANNELS,
	resolveDelegatedRole,
	VERDICT_CHANNEL,
} from "../src/events.js";
import { collectStrings, jsonValue } from "./arbitraries.js";

const state: DelegationStateV1 = {
	v: 1,
	kind: "state",
	intensity: "normal",
	delegation: "ok",
	advisor: "on",
	roles: {
		small: { provider: "openai", model: "gpt-4o-mini", thinking: { level: "low" } },
		medium: { provider: "anthropic", model: "claude-sonnet-4-5@20250929", thinking: { min: "low", max: "high" } },
		large: null,
		advisor: { provider: "openrouter", model: "meta-llama/llama-3.1-70b:free" },
	},
};

const verdict = {
	v: 1,
	decision: "deny",
	source: "reviewer",
	mode: "enforce",
	tool: "bash",
	riskLevel: "high",
	userAuthorization: "low",
	latencyBucket: 4,
};

describe("channels", () => {
	it("names the three channels", () => {
		expect(POLICY_CHANNELS).toEqual(["pi-policy:audit", "pi-policy:delegation-state", "pi-policy:verdict"]);
		expect(AUDIT_CHANNEL).toBe("pi-policy:audit");
		expect(DELEGATION_STATE_CHANNEL).toBe("pi-policy:delegation-state");
		expect(VERDICT_CHANNEL).toBe("pi-policy:verdict");
		expect(isPolicyChannel("pi-policy:verdict")).toBe(true);
		expect(isPolicyChannel("subagent:async-complete")).toBe(false);
	});
});

describe("decodeEventPayload", () => {
	it("accepts an audit entry on the audit channel", () => {
		const entry = { v: 1, ext: "guardian-review", event: "denied", mode: "enforce", category: "floor" };
		expect(decodeEventPayload(AUDIT_CHANNEL, entry)).toEqual({ ok: true, value: entry });
	});

	it("accepts delegation state and requests", () => {
		expect(decodeEventPayload(DELEGATION_STATE_CHANNEL, state)).toEqual({ ok: true, value: state });
		const request = { v: 1, kind: "request" };
		expect(decodeEventPayload(DELEGATION_STATE_CHANNEL, request)).toEqual({ ok: true, value: request });
		const minimal = { v: 1, kind: "state", intensity: "off", delegation: "off", advisor: "off", roles: {} };
		expect(decodeEventPayload(DELEGATION_STATE_CHANNEL, minimal).ok).toBe(true);
	});

	it("accepts verdicts", () => {
		expect(decodeEventPayload(VERDICT_CHANNEL, verdict)).toEqual({ ok: true, value: verdict });
		const floor = { v: 1, decision: "allow", source: "floor", mode: "observe", tool: "other" };
		expect(decodeEventPayload(VERDICT_CHANNEL, floor).ok).toBe(true);
	});

	it.each([
		["an unknown channel", "pi-policy:other", state, "channel: unknown"],
		["a non-object", DELEGATION_STATE_CHANNEL, "state", "payload: expected object"],
		[
			"an audit payload with a path",
			AUDIT_CHANNEL,
			{ v: 1, ext: "exploration-guard", event: "/home/u/x.ts" },
			"event: expected one of",
		],
		[
			"a request with extra keys",
			DELEGATION_STATE_CHANNEL,
			{ v: 1, kind: "request", prompt: "hi" },
			"payload: unknown key",
		],
		["a state with v 2", DELEGATION_STATE_CHANNEL, { ...state, v: 2 }, "v: expected 1"],
		[
			"a state with an unknown intensity",
			DELEGATION_STATE_CHANNEL,
			{ ...state, intensity: "max" },
			"intensity: expected one of",
		],
		[
			"a state with an unknown role",
			DELEGATION_STATE_CHANNEL,
			{ ...state, roles: { huge: null } },
			"roles: unknown key",
		],
		[
			"a model id with spaces",
			DELEGATION_STATE_CHANNEL,
			{ ...state, roles: { small: { provider: "openai", model: "rm -rf /" } } },
			"roles.small.model: expected string",
		],
		[
			"a role with credentials",
			DELEGATION_STATE_CHANNEL,
			{ ...state, roles: { small: { provider: "openai", model: "gpt-4o", apiKey: "sk-123" } } },
			"roles.small: unknown key",
		],
		[
			"a bad thinking level",
			DELEGATION_STATE_CHANNEL,
			{ ...state, roles: { small: { provider: "openai", model: "gpt-4o", thinking: { level: "ultra" } } } },
			"roles.small.thinking: expected one of the allowed object shapes",
		],
		["a state without kind", DELEGATION_STATE_CHANNEL, { v: 1, intensity: "off" }, "kind: required"],
		["a verdict with command text", VERDICT_CHANNEL, { ...verdict, command: "rm -rf /" }, "payload: unknown key"],
		["a verdict with a rationale", VERDICT_CHANNEL, { ...verdict, rationale: "looks bad" }, "payload: unknown key"],
		[
			"a verdict with an unknown decision",
			VERDICT_CHANNEL,
			{ ...verdict, decision: "maybe" },
			"decision: expected one of",
		],
		["a verdict with an unknown source", VERDICT_CHANNEL, { ...verdict, source: "model" }, "source: expected one of"],
		["a verdict with a bad risk", VERDICT_CHANNEL, { ...verdict, riskLevel: "extreme" }, "riskLevel: expected one of"],
		[
			"a verdict with a negative bucket",
			VERDICT_CHANNEL,
			{ ...verdict, latencyBucket: -1 },
			"latencyBucket: expected integer between 0 and 64",
		],
	])("rejects %s", (_name, channel, payload, message) => {
		const result = decodeEventPayload(channel, payload);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toContain(message);
	});

	it("never throws and never echoes strings from random payloads", () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...POLICY_CHANNELS),
				fc.oneof(jsonValue, fc.dictionary(fc.string({ minLength: 6 }), fc.string({ minLength: 6 }))),
				(channel, payload) => {
					const result = decodeEventPayload(channel, payload);
					if (result.ok) return;
					for (const text of collectStrings(payload)) {
						if (text.length >= 6 && !/^[a-z-]+$/.test(text)) expect(result.error).not.toContain(text);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("resolveDelegatedRole", () => {
	it("returns the enabled role model while delegation is active and valid", () => {
		expect(resolveDelegatedRole(state, "small")).toEqual(state.roles.small);
		expect(resolveDelegatedRole(state, "large")).toBeUndefined();
		expect(resolveDelegatedRole({ ...state, roles: {} }, "medium")).toBeUndefined();
	});

	it("returns nothing when delegation is off or invalid", () => {
		expect(resolveDelegatedRole({ ...state, intensity: "off", delegation: "off" }, "small")).toBeUndefined();
		expect(resolveDelegatedRole({ ...state, delegation: "error" }, "small")).toBeUndefined();
	});
});
