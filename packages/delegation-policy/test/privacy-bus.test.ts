// The pi-policy:delegation-state bus event (published on change, answered on request) and the privacy rule:
// audit entries, notifications, status and bus payloads carry no paths, prompts or tool arguments.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, type Harness } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { validateAuditEntry } from "@pi-policy/policy-kernel/audit";
import {
	DELEGATION_STATE_CHANNEL,
	type DelegationStateV1,
	decodeEventPayload,
	resolveDelegatedRole,
} from "@pi-policy/policy-kernel/events";
import { describe, expect, it } from "vitest";
import { startDelegationSession, validGlobal } from "./support.ts";

const sessions = sessionPerTest(startDelegationSession);
let harness: Harness | undefined;

function recorder() {
	const payloads: unknown[] = [];
	let api: ExtensionAPI | undefined;
	return {
		payloads,
		requestState: () => api?.events.emit(DELEGATION_STATE_CHANNEL, { v: 1, kind: "request" }),
		extension(pi: ExtensionAPI) {
			api = pi;
			pi.events.on(DELEGATION_STATE_CHANNEL, (data: unknown) => payloads.push(structuredClone(data)));
		},
	};
}

function states(payloads: unknown[]): DelegationStateV1[] {
	return payloads.flatMap((payload) => {
		const decoded = decodeEventPayload(DELEGATION_STATE_CHANNEL, payload);
		return decoded.ok && decoded.value.kind === "state" ? [decoded.value] : [];
	});
}

describe("pi-policy:delegation-state", () => {
	it("publishes the effective state on change and answers a request; context-shunt can resolve a role", async () => {
		const bus = recorder();
		harness = await sessions.start({ before: [bus.extension] });
		const initial = states(bus.payloads);
		expect(initial).toHaveLength(1);
		expect(initial[0]).toEqual({
			v: 1,
			kind: "state",
			intensity: "normal",
			delegation: "ok",
			advisor: "off",
			roles: {
				small: { provider: "faux", model: "faux-small" },
				medium: { provider: "faux", model: "faux-medium" },
				large: { provider: "faux", model: "faux-large", thinking: { level: "high" } },
			},
		});
		expect(resolveDelegatedRole(initial[0] as DelegationStateV1, "small")).toEqual({
			provider: "faux",
			model: "faux-small",
		});
		harness.script("ok");
		await harness.prompt("No change here.");
		expect(states(bus.payloads)).toHaveLength(1);
		await harness.command("/delegate role small faux/ghost");
		const broken = states(bus.payloads).at(-1) as DelegationStateV1;
		expect(broken.delegation).toBe("error");
		expect(resolveDelegatedRole(broken, "small")).toBeUndefined();
		const before = states(bus.payloads).length;
		bus.requestState();
		expect(states(bus.payloads)).toHaveLength(before + 1);
		expect(states(bus.payloads).at(-1)).toEqual(broken);
		await harness.command("/delegate off");
		expect(states(bus.payloads).at(-1)?.intensity).toBe("off");
	});
});

describe("privacy", () => {
	it("audit entries, notifications, status and bus payloads never carry paths, prompts or tool arguments", async () => {
		const bus = recorder();
		const audit: unknown[] = [];
		const auditTap = (pi: ExtensionAPI) => pi.events.on("pi-policy:audit", (data: unknown) => audit.push(data));
		harness = await sessions.start({
			global: validGlobal({ thinking: { small: { level: "high" } } }),
			before: [bus.extension, auditTap],
			files: { "private/notes-SECRETFILE.txt": "classified\n" },
		});
		harness.script(callTool("read", { path: "private/notes-SECRETFILE.txt" }), "done");
		await harness.prompt("SECRET-PROMPT-TEXT: read my notes");
		await harness.command("/delegate role large faux/faux-1");
		await harness.command("/delegate thinking small default");
		await harness.command("/delegate advisor on");
		await harness.command("/delegate status");
		harness.session.sessionManager.appendCustomEntry("delegation-policy.state", { v: 1, settings: "/home/SECRETHOME" });
		await harness.session.bindExtensions({});
		const persisted = harness.entries("pi-policy.audit");
		expect(persisted.length).toBeGreaterThan(5);
		for (const entry of [...persisted, ...audit]) expect(validateAuditEntry(entry).ok).toBe(true);
		const displayed = [...(harness.ui?.displayedText() ?? []), ...[...(harness.ui?.statuses.values() ?? [])]].join(
			"\n",
		);
		const everything = JSON.stringify({ persisted, audit, bus: bus.payloads, displayed });
		for (const secret of [harness.cwd, harness.agentDir, "SECRET", "private/", "notes", "classified", "/home/"]) {
			expect(everything).not.toContain(secret);
		}
		expect(displayed).toContain("D:ERR A:ERR");
		expect(displayed).toContain("D small thinking high faux/faux-small");
	});
});
