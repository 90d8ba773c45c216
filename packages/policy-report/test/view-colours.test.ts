// The `/policy` TUI component colours each state by what it means: only `off` is a warning; a loaded extension
// with no entry yet is muted, not shown as a problem.
import { buildSessionView } from "@pi-policy/policy-kernel/report";
import { describe, expect, it } from "vitest";
import { PolicyViewComponent } from "../src/view.ts";

const audit = (data: Record<string, unknown>) => ({ type: "custom", customType: "pi-policy.audit", data });
const taggingTheme = {
	fg: (color: string, text: string) => `<${color}>${text}</${color}>`,
	bold: (text: string) => text,
};

describe("PolicyViewComponent state colours", () => {
	it("shows active as success, off as warning, no activity yet as muted and not loaded as dim", () => {
		const view = buildSessionView({
			entries: [
				{ type: "session", id: "x" },
				audit({ v: 1, ext: "exploration-guard", event: "warned", mode: "warn" }),
				audit({ v: 1, ext: "context-shunt", event: "mode-changed", mode: "off" }),
			],
			loaded: ["output-minimizer"],
			liveEvents: 0,
		});
		const text = new PolicyViewComponent(view, taggingTheme).render(200).join("\n");
		expect(text).toContain("exploration-guard <success>active</success>");
		expect(text).toContain("context-shunt <warning>inactive</warning>");
		expect(text).toContain("output-minimizer <muted>loaded, no activity yet</muted>");
		expect(text).toContain("guardian-review <dim>not loaded</dim>");
	});
});
