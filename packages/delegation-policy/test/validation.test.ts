// Fail-closed validation by axis in real sessions: every D:ERR and A:ERR cause, A:OFF diagnostics, malformed
// documents, and session restore of malformed or future entries.
import type { Harness, ModelRequest } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import {
	blockCount,
	footer,
	lastNotification,
	leadingSections,
	noKeyProviderExtension,
	requestJson,
	startDelegationSession,
	validGlobal,
} from "./support.ts";

const sessions = sessionPerTest(startDelegationSession);
let harness: Harness | undefined;

const ROLES = validGlobal().roles as Record<string, unknown>;

async function startWith(global: unknown): Promise<Harness> {
	harness = await sessions.start({
		global,
		before: [noKeyProviderExtension],
	});
	return harness;
}

async function oneRequest(h: Harness): Promise<ModelRequest> {
	h.script("ok");
	await h.prompt("Do the task.");
	return h.requests.at(-1) as ModelRequest;
}

async function statusText(h: Harness): Promise<string> {
	await h.command("/delegate status");
	return lastNotification(h);
}

function audits(h: Harness): Array<Record<string, unknown>> {
	return h.entries<Record<string, unknown>>("pi-policy.audit");
}

describe("D:ERR causes: no block, and a diagnostic naming role, level and model", () => {
	it.each([
		[
			"absent ordinary role",
			{ roles: { small: ROLES.small, medium: ROLES.medium } },
			"D large: role is not configured (set a model or disable it)",
			"role-absent",
		],
		[
			"unavailable model",
			{ roles: { ...ROLES, medium: { provider: "faux", model: "faux-ghost" } } },
			"D medium faux/faux-ghost: model is not available in the model registry",
			"model-unavailable",
		],
		[
			"missing provider",
			{ roles: { ...ROLES, small: { provider: "ghostprov", model: "m-1" } } },
			"D small ghostprov/m-1: provider is not known to the model registry",
			"model-missing",
		],
		[
			"unauthenticated provider",
			{ roles: { ...ROLES, small: { provider: "nokey", model: "nokey-1" } } },
			"D small nokey/nokey-1: provider has no configured credentials",
			"model-unauthenticated",
		],
		[
			"no enabled role",
			{ roles: { small: null, medium: null, large: null } },
			"D: no ordinary role (small, medium, large) is enabled",
			"no-enabled-role",
		],
		[
			"unsupported thinking level",
			{ thinking: { small: { level: "high" } } },
			"D small thinking high faux/faux-small: thinking level is not supported by the model",
			"thinking-unsupported",
		],
		[
			"invalid Visual Design reference",
			{ roles: { ...ROLES, uiDesign: { provider: "faux", model: "faux-designer" } } },
			"D uiDesign faux/faux-designer: model is not available in the model registry",
			"model-unavailable",
		],
	])("%s", async (_name, overrides, diagnostic, cause) => {
		const h = await startWith(validGlobal(overrides));
		const request = await oneRequest(h);
		expect(blockCount(requestJson(request))).toBe(0);
		expect(Object.keys(leadingSections(request))).not.toContain("delegation_policy");
		expect(footer(h)).toBe("D:ERR A:OFF");
		const status = await statusText(h);
		expect(status).toContain("D:ERR A:OFF (delegation failed closed; no delegation policy is injected)");
		expect(status).toContain(`- error: ${diagnostic} (${cause})`);
		expect(audits(h)).toContainEqual(
			expect.objectContaining({ event: "validation-failed", state: "delegation-invalid", category: cause }),
		);
	});

	it("recovers as soon as the cause is fixed, in the next request", async () => {
		const h = await startWith(validGlobal({ roles: { small: ROLES.small, medium: ROLES.medium } }));
		expect(blockCount(requestJson(await oneRequest(h)))).toBe(0);
		await h.command("/delegate role large off");
		const request = await oneRequest(h);
		expect(blockCount(requestJson(request))).toBe(1);
		expect(leadingSections(request).delegation_policy).toContain("- Large: disabled; do not delegate to it.");
		expect(footer(h)).toBe("D:NORM A:OFF");
		expect(audits(h)).toContainEqual(expect.objectContaining({ event: "validation-recovered", state: "valid" }));
	});

	it("a policy stored for a disabled role is inert and adds no error", async () => {
		const h = await startWith(
			validGlobal({
				roles: { ...ROLES, large: null },
				thinking: { large: { level: "xhigh" }, advisor: { level: "max" } },
			}),
		);
		await oneRequest(h);
		expect(footer(h)).toBe("D:NORM A:OFF");
		expect(await statusText(h)).toContain("diagnostics: none");
	});
});

const ADVISOR = { provider: "faux", model: "faux-large" };

describe("the Advisor axis", () => {
	it("A:ON adds the Advisor guidance to the block", async () => {
		const h = await startWith(
			validGlobal({
				advisorMode: "on",
				roles: { ...ROLES, advisor: ADVISOR },
				thinking: { advisor: { level: "medium" } },
			}),
		);
		const section = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:NORM A:ON");
		expect(section).toContain("`delegation-policy.advisor` agent profile");
		expect(section).toContain("with model faux/faux-large and its thinking policy (medium)");
		expect(section).toContain("objective, constraints, facts and the open choice first");
		expect(section).toContain("resume mechanism");
		expect(section).toContain("Reuse the advice while the decision holds");
	});

	it.each([
		["absent Advisor role", { advisorMode: "on" }, "A advisor: role is not configured", "role-absent"],
		[
			"unavailable Advisor model",
			{ advisorMode: "on", roles: { ...ROLES, advisor: { provider: "faux", model: "faux-oracle" } } },
			"A advisor faux/faux-oracle: model is not available",
			"model-unavailable",
		],
		[
			"unauthenticated Advisor provider",
			{ advisorMode: "on", roles: { ...ROLES, advisor: { provider: "nokey", model: "nokey-1" } } },
			"A advisor nokey/nokey-1: provider has no configured credentials",
			"model-unauthenticated",
		],
		[
			"unsupported Advisor thinking",
			{
				advisorMode: "on",
				roles: { ...ROLES, advisor: ADVISOR },
				thinking: { large: { level: "high" }, advisor: { level: "max" } },
			},
			"A advisor thinking max faux/faux-large: thinking level is not supported",
			"thinking-unsupported",
		],
	])("%s gives A:ERR and removes only the Advisor text", async (_name, overrides, diagnostic, cause) => {
		const h = await startWith(validGlobal(overrides));
		const section = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:NORM A:ERR");
		expect(section).toContain("Intensity: normal.");
		expect(section).toContain("model faux/faux-large, thinking high");
		expect(section).not.toContain("Advisor");
		const status = await statusText(h);
		expect(status).toContain(`- error: ${diagnostic}`);
		expect(status).toContain(`(${cause})`);
		expect(audits(h)).toContainEqual(
			expect.objectContaining({ event: "validation-failed", state: "advisor-invalid", category: cause }),
		);
	});

	it("an invalid delegation axis does not suppress a valid Advisor", async () => {
		const h = await startWith(validGlobal({ advisorMode: "on", roles: { small: ROLES.small, advisor: ADVISOR } }));
		const section = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:ERR A:ON");
		expect(section).toContain("`delegation-policy.advisor` agent profile");
		expect(section).not.toContain("Intensity:");
		expect(section).not.toContain("Roles:");
	});

	it("A:OFF with an unusable Advisor is only a diagnostic", async () => {
		const h = await startWith(
			validGlobal({ advisorMode: "off", roles: { ...ROLES, advisor: { provider: "nokey", model: "nokey-1" } } }),
		);
		const request = await oneRequest(h);
		expect(footer(h)).toBe("D:NORM A:OFF");
		expect(leadingSections(request).delegation_policy).toContain("Intensity: normal.");
		expect(leadingSections(request).delegation_policy).not.toContain("Advisor");
		const status = await statusText(h);
		expect(status).toContain("- notice: A advisor nokey/nokey-1: provider has no configured credentials");
		expect(audits(h).some((entry) => entry.event === "validation-failed")).toBe(false);
	});

	it("with-delegation ties the Advisor to an active intensity", async () => {
		const h = await startWith(validGlobal({ roles: { ...ROLES, advisor: ADVISOR } }));
		await oneRequest(h);
		expect(footer(h)).toBe("D:NORM A:ON");
		await h.command("/delegate off");
		const request = await oneRequest(h);
		expect(footer(h)).toBe("D:OFF A:OFF");
		expect(blockCount(requestJson(request))).toBe(0);
		await h.command("/delegate advisor on");
		const advisorOnly = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:OFF A:ON");
		expect(advisorOnly).toContain("delegation-policy.advisor");
		expect(advisorOnly).not.toContain("Intensity:");
	});
});

describe("document errors", () => {
	it.each([
		["an unknown thinking level", { thinking: { small: { level: "turbo" } } }],
		["a range whose min is above its max", { thinking: { large: { min: "high", max: "low" } } }],
		["a thinking entry with extra keys", { thinking: { large: { level: "high", budget: 9 } } }],
	])("%s invalidates the whole document: global defaults fall back to empty", async (_name, overrides) => {
		const h = await startWith(validGlobal(overrides));
		const request = await oneRequest(h);
		expect(blockCount(requestJson(request))).toBe(0);
		expect(footer(h)).toBe("D:OFF A:OFF");
		const warning = h.ui?.notifications().find((n) => n.message.includes("global defaults ignored"));
		expect(warning?.level).toBe("warning");
		expect(warning?.message).toMatch(
			/^delegation-policy: config invalid: global thinking\.(small|large)\S*: .*; global defaults ignored\.$/,
		);
		const status = await statusText(h);
		expect(status).toContain("small: not configured [default]");
		expect(status).toMatch(/\nconfig: failed closed: global thinking\.(small|large)/);
		expect(audits(h)).toContainEqual(
			expect.objectContaining({ event: "config-invalid", category: "thinking-malformed" }),
		);
	});

	it("invalid JSON and a newer document version are ignored with a concise notice", async () => {
		let h = await startWith("{ not json");
		await oneRequest(h);
		expect(h.ui?.notifications().map((n) => n.message)).toContain(
			"delegation-policy: config invalid: global: invalid JSON at line 1, column 3; global defaults ignored.",
		);
		await h.dispose();
		h = await startWith({ version: 7, intensity: "normal" });
		harness = h;
		await oneRequest(h);
		expect(h.ui?.notifications().map((n) => n.message)).toContain(
			"delegation-policy: config invalid: global version: newer than this extension supports; global defaults ignored.",
		);
		expect(footer(h)).toBe("D:OFF A:OFF");
	});

	it("an unversioned (older) document is migrated in memory, not rewritten", async () => {
		const legacy = {
			intensity: "aggressive",
			roles: { small: "faux/faux-small", medium: "faux/faux-medium", large: null },
			thinking: { small: "off" },
		};
		const h = await startWith(legacy);
		const section = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:AGG A:OFF");
		expect(section).toContain("model faux/faux-small, thinking off");
		const { readFile } = await import("node:fs/promises");
		const onDisk = JSON.parse(await readFile(`${h.agentDir}/policy/delegation-policy.json`, "utf8"));
		expect(onDisk).toEqual(legacy);
	});
});

describe("session restore", () => {
	async function restoreFrom(h: Harness, data: unknown): Promise<void> {
		h.session.sessionManager.appendCustomEntry("delegation-policy.state", data);
		await h.session.bindExtensions({});
	}

	it("restores only the latest valid entry", async () => {
		const h = await startWith(validGlobal());
		h.session.sessionManager.appendCustomEntry("delegation-policy.state", { v: 1, settings: { intensity: "off" } });
		await restoreFrom(h, { v: 1, settings: { intensity: "orchestrator", roles: { large: null } } });
		const section = leadingSections(await oneRequest(h)).delegation_policy ?? "";
		expect(footer(h)).toBe("D:ORCH A:OFF");
		expect(section).toContain("- Large: disabled");
		expect(audits(h)).toContainEqual(expect.objectContaining({ event: "session-restored" }));
	});

	it.each([
		["malformed", { v: 1, settings: { intensity: "warp" } }, "unreadable", "entry-malformed"],
		[
			"malformed thinking",
			{ v: 1, settings: { thinking: { small: { min: "max", max: "off" } } } },
			"unreadable",
			"entry-malformed",
		],
		["not an object", "/home/someone/secret-session-path", "unreadable", "entry-malformed"],
		[
			"future schema",
			{ v: 2, settings: { intensity: "aggressive", novel: true } },
			"newer version",
			"entry-future-schema",
		],
	])(
		"a %s latest entry forces delegation and the Advisor off with a sanitized warning",
		async (_name, data, words, category) => {
			const h = await startWith(validGlobal({ advisorMode: "on", roles: { ...ROLES, advisor: ADVISOR } }));
			await oneRequest(h);
			expect(footer(h)).toBe("D:NORM A:ON");
			h.session.sessionManager.appendCustomEntry("delegation-policy.state", {
				v: 1,
				settings: { intensity: "aggressive" },
			});
			await restoreFrom(h, data);
			const request = await oneRequest(h);
			expect(footer(h)).toBe("D:OFF A:OFF");
			expect(blockCount(requestJson(request))).toBe(0);
			const warning = h.ui?.notifications().find((n) => n.level === "warning")?.message ?? "";
			expect(warning).toContain(words);
			expect(warning).toContain("delegation and the Advisor are off");
			expect(warning).not.toContain("secret");
			expect(warning).not.toContain("warp");
			expect(await statusText(h)).toContain(`warning: ${warning}`);
			expect(audits(h)).toContainEqual(expect.objectContaining({ event: "session-entry-invalid", category }));
		},
	);

	it("commands write one entry with the whole session layer, and a branch change restores that branch's entry", async () => {
		const h = await startWith(validGlobal());
		await h.command("/delegate aggressive");
		const afterAggressive = h.session.sessionManager.getLeafId();
		await h.command("/delegate role small off");
		const entries = h.entries("delegation-policy.state");
		expect(entries.at(-1)).toEqual({ v: 1, settings: { intensity: "aggressive", roles: { small: null } } });
		if (afterAggressive) await h.session.navigateTree(afterAggressive, { summarize: false });
		await oneRequest(h);
		expect(footer(h)).toBe("D:AGG A:OFF");
		expect(leadingSections(h.requests.at(-1) as ModelRequest).delegation_policy).toContain("model faux/faux-small");
	});
});
