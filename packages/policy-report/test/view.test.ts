// The `/policy` TUI component says what the plain text says of each extension's state: a loaded extension with no
// entry yet is "loaded, no activity yet", not "inactive" (found by a new-user walkthrough), and `off` is inactive.
import { buildSessionView } from "@pi-policy/policy-kernel/report";
import { describe, expect, it } from "vitest";
import { PolicyViewComponent } from "../src/view.ts";

const audit = (data: Record<string, unknown>) => ({ type: "custom", customType: "pi-policy.audit", data });

describe("PolicyViewComponent", () => {
	it("shows the four states as the plain text does", () => {
		const view = buildSessionView({
			entries: [
				{ type: "session", id: "x" },
				audit({ v: 1, ext: "exploration-guard", event: "warned", mode: "warn" }),
				audit({ v: 1, ext: "context-shunt", event: "mode-changed", mode: "off" }),
			],
			loaded: ["output-minimizer", "delegation-policy"],
			liveEvents: 0,
		});
		const text = new PolicyViewComponent(view).render(120).join("\n");
		expect(text).toContain("exploration-guard active mode warn");
		expect(text).toContain("context-shunt inactive mode off");
		expect(text).toContain("output-minimizer loaded, no activity yet");
		expect(text).toContain("delegation-policy loaded, no activity yet");
		expect(text).toContain("guardian-review not loaded");
	});
});
