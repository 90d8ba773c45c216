// The /delegate panel: rendered to lines at fixed widths (100 and a narrow 40 columns), driven by keyboard
// input, and opened through a real session with ctx.ui.custom (Apply and Save as defaults reach disk).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { visibleWidth } from "@earendil-works/pi-tui";
import type { Harness, ModelRequest } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import {
	type DelegationPolicySettings,
	formatFooterStatus,
	type ModelCatalogue,
	resolveEffectivePolicy,
	validateDelegationPolicy,
} from "@pi-policy/policy-kernel/delegation";
import { describe, expect, it } from "vitest";
import { DelegationPanel, type PanelHost, type PanelResult, type PanelTheme } from "../src/panel.ts";
import { footer, leadingSections, startDelegationSession } from "./support.ts";

const KEY = {
	up: "\x1b[A",
	down: "\x1b[B",
	right: "\x1b[C",
	left: "\x1b[D",
	enter: "\r",
	escape: "\x1b",
	backspace: "\x7f",
};

const plain: PanelTheme = { fg: (_color, text) => text, bold: (text) => text };

const CATALOGUE: ModelCatalogue = {
	providers: ["faux", "other"],
	models: [
		{
			provider: "faux",
			id: "faux-small",
			available: true,
			authenticated: true,
			inScope: true,
			thinkingLevels: ["off"],
			contextWindow: 32000,
		},
		{
			provider: "faux",
			id: "faux-medium",
			available: true,
			authenticated: true,
			inScope: true,
			thinkingLevels: ["off"],
			contextWindow: 64000,
		},
		{
			provider: "faux",
			id: "faux-large",
			available: true,
			authenticated: true,
			inScope: true,
			thinkingLevels: ["off", "minimal", "low", "medium", "high"],
			contextWindow: 200000,
			reasoning: true,
		},
		{ provider: "other", id: "zeta-9", available: true, authenticated: true, inScope: true, thinkingLevels: ["off"] },
	],
};

const GLOBAL: DelegationPolicySettings = {
	intensity: "normal",
	roles: {
		small: { provider: "faux", model: "faux-small" },
		medium: { provider: "faux", model: "faux-medium" },
		large: { provider: "faux", model: "faux-large" },
	},
};

function fakeHost(): PanelHost & { committedSettings: DelegationPolicySettings; saved: DelegationPolicySettings[] } {
	const host = {
		committedSettings: {} as DelegationPolicySettings,
		saved: [] as DelegationPolicySettings[],
		committed: () => host.committedSettings,
		preview: (draft: DelegationPolicySettings) => {
			const effective = resolveEffectivePolicy(GLOBAL, draft);
			const validation = validateDelegationPolicy(effective, CATALOGUE);
			return { effective, validation, footer: formatFooterStatus(effective, validation) };
		},
		catalogue: () => CATALOGUE,
		apply: (draft: DelegationPolicySettings) => {
			host.committedSettings = draft;
		},
		saveDefaults: async (draft: DelegationPolicySettings) => {
			host.committedSettings = draft;
			host.saved.push(draft);
			return true;
		},
	};
	return host;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Renders to plain lines (pi-tui's truncation adds an SGR reset around its ellipsis). */
function view(panel: DelegationPanel, width = 100): string[] {
	return panel.render(width).map((line) => line.replace(ANSI, ""));
}

function press(panel: DelegationPanel, ...keys: string[]): void {
	for (const key of keys) panel.handleInput(key);
}

function focusRow(panel: DelegationPanel, label: string): void {
	for (let i = 0; i < 20; i++) {
		if (view(panel).some((line) => line.startsWith(`> ${label}`))) return;
		press(panel, KEY.down);
	}
	throw new Error(`row not found: ${label}`);
}

describe("panel rendering at a fixed width", () => {
	it("renders the preview, one row per setting, the hint block and the keys at 100 columns", () => {
		const panel = new DelegationPanel(fakeHost(), plain, () => {});
		const lines = view(panel);
		expect(lines[0]).toBe("Delegation policy");
		expect(lines[1]).toBe(
			"Effective: D:NORM A:OFF · small faux/faux-small · medium faux/faux-medium · large faux/faux-large",
		);
		expect(lines).toContain("> Intensity           normal [global]");
		expect(lines).toContain("  Preference          standard [default]");
		expect(lines).toContain("  Advisor mode        with-delegation [default]");
		expect(lines).toContain("  Large model         faux/faux-large [global]");
		expect(lines).toContain("  Visual Design model not configured [default]");
		expect(lines).toContain("  [ Apply ]");
		expect(lines).toContain("  [ Save effective configuration as defaults ]");
		expect(lines).toContain("  [ Reset draft ]");
		expect(lines).toContain("How hard the main agent should delegate: off, normal, aggressive or orchestrator.");
		expect(lines.at(-1)).toBe("↑↓ move · ←→ change · Enter choose · Esc close");
		for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(100);
	});

	it("fits a narrow 40-column terminal: every line is cut to width, rows stay readable", () => {
		const panel = new DelegationPanel(fakeHost(), plain, () => {});
		const lines = view(panel, 40);
		for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
		expect(lines[0]).toBe("Delegation policy");
		expect(lines.some((line) => line.startsWith("Effective: D:NORM A:OFF"))).toBe(true);
		expect(lines).toContain("> Intensity     normal [global]");
		expect(lines).toContain("  Small thinki… unset [default]");
		expect(lines.some((line) => line.startsWith("  Small model   faux/faux-small"))).toBe(true);
		expect(lines).toContain("  [ Save effective configuration as def…");
		expect(lines).toContain("  Advisor mode  with-delegation [defaul…");
	});

	it("shows errors of the draft in the preview and the hint block", () => {
		const host = fakeHost();
		host.committedSettings = { roles: { small: { provider: "faux", model: "gone" } } };
		const lines = view(new DelegationPanel(host, plain, () => {}));
		expect(lines[1]).toContain("D:ERR A:OFF");
		expect(lines).toContain("  Small model         faux/gone (!) [session]");
		expect(lines.some((line) => line.includes("D small faux/gone: model is not available"))).toBe(true);
	});
});

describe("panel keyboard navigation", () => {
	it("cycles a setting with ←→ and moves with ↑↓ (wrapping)", () => {
		const host = fakeHost();
		const panel = new DelegationPanel(host, plain, () => {});
		press(panel, KEY.right);
		expect(panel.draftSettings.intensity).toBe("aggressive");
		expect(view(panel)[0]).toBe("Delegation policy (draft modified)");
		press(panel, KEY.left, KEY.left);
		expect(panel.draftSettings.intensity).toBe("off");
		press(panel, KEY.up);
		expect(view(panel)).toContain("> [ Reset draft ]");
		press(panel, KEY.down, KEY.down);
		expect(view(panel)).toContain("> Preference          standard [default]");
	});

	it("the model picker shows the id first and [provider] last, pins the two choices, and filters by typing", () => {
		const panel = new DelegationPanel(fakeHost(), plain, () => {});
		focusRow(panel, "Medium model");
		press(panel, KEY.enter);
		let lines = view(panel);
		expect(lines[0]).toBe("Model for Medium");
		expect(lines[1]).toBe("Filter: _");
		expect(lines[2]).toBe("> Use global default");
		expect(lines[3]).toBe("  Disable for this session");
		expect(lines).toContain("  faux-large  ctx 200k · reasoning  [faux]");
		expect(lines).toContain("  zeta-9  [other]");
		expect(lines).toContain("Model metadata is shown for choosing only and is never stored.");
		press(panel, "z", "e", "t");
		lines = view(panel);
		expect(lines[1]).toBe("Filter: zet_");
		expect(lines).toContain("> zeta-9  [other]");
		expect(lines.some((line) => line.includes("faux-large"))).toBe(false);
		press(panel, KEY.backspace, KEY.backspace, KEY.backspace, "x", "x", "x");
		expect(view(panel)).toContain("  no model matches the filter");
		press(panel, KEY.backspace, KEY.backspace, KEY.backspace, "z", KEY.enter);
		expect(panel.draftSettings.roles?.medium).toEqual({ provider: "other", model: "zeta-9" });
		focusRow(panel, "Medium model");
		press(panel, KEY.enter, KEY.down, KEY.enter);
		expect(panel.draftSettings.roles?.medium).toBeNull();
		press(panel, KEY.enter, KEY.enter);
		expect(panel.draftSettings.roles).toBeUndefined();
	});

	it("thinking rows offer only the levels the role's model supports", () => {
		const panel = new DelegationPanel(fakeHost(), plain, () => {});
		expect(panel.thinkingChoices("small")).toEqual(["default", "off"]);
		expect(panel.thinkingChoices("large")).toEqual(["default", "off", "minimal", "low", "medium", "high"]);
		expect(panel.thinkingChoices("uiDesign")).toEqual(["default"]);
		focusRow(panel, "Large thinking");
		const seen: string[] = [];
		for (let i = 0; i < 6; i++) {
			press(panel, KEY.right);
			const level = panel.draftSettings.thinking?.large;
			seen.push(level && "level" in level ? level.level : "default");
		}
		expect(seen).toEqual(["off", "minimal", "low", "medium", "high", "default"]);
		focusRow(panel, "Small thinking");
		press(panel, KEY.right, KEY.right, KEY.right);
		expect(panel.draftSettings.thinking?.small).toEqual({ level: "off" });
	});

	it("Apply commits the draft; Reset draft returns to the applied state; Save applies and saves", async () => {
		const host = fakeHost();
		const panel = new DelegationPanel(host, plain, () => {});
		press(panel, KEY.right);
		focusRow(panel, "[ Apply ]");
		press(panel, KEY.enter);
		expect(host.committedSettings).toEqual({ intensity: "aggressive" });
		expect(view(panel)).toContain("Applied to this session.");
		focusRow(panel, "Intensity");
		press(panel, KEY.right);
		focusRow(panel, "[ Reset draft ]");
		press(panel, KEY.enter);
		expect(panel.draftSettings).toEqual({ intensity: "aggressive" });
		focusRow(panel, "Preference");
		press(panel, KEY.right);
		focusRow(panel, "[ Save effective");
		press(panel, KEY.enter);
		await panel.settled();
		expect(host.saved).toEqual([{ intensity: "aggressive", preference: "intensive" }]);
		expect(view(panel)).toContain("Saved as global defaults.");
	});

	it("closing a modified draft asks to keep editing or discard", () => {
		const results: PanelResult[] = [];
		const host = fakeHost();
		const panel = new DelegationPanel(host, plain, (result) => results.push(result));
		press(panel, KEY.right, KEY.escape);
		const lines = view(panel);
		expect(lines).toContain("The draft has changes that are not applied.");
		expect(lines).toContain("k: keep editing · d: discard and close");
		expect(results).toEqual([]);
		press(panel, "k");
		expect(view(panel)).not.toContain("k: keep editing · d: discard and close");
		expect(panel.draftSettings.intensity).toBe("aggressive");
		press(panel, KEY.escape, "d");
		expect(results).toEqual([{ closed: "discarded" }]);
		expect(host.committedSettings).toEqual({});
		const unchanged: PanelResult[] = [];
		const clean = new DelegationPanel(fakeHost(), plain, (result) => unchanged.push(result));
		press(clean, KEY.escape);
		expect(unchanged).toEqual([{ closed: "unchanged" }]);
	});
});

describe("the panel in a real session (ctx.ui.custom)", () => {
	const sessions = sessionPerTest(startDelegationSession);
	let harness: Harness | undefined;

	it("opens from /delegate in the TUI; Apply changes the next request; Save writes the global file atomically", async () => {
		const rendered: string[][] = [];
		harness = await sessions.start({
			ui: {
				custom: [
					async (factory: unknown) => {
						let result: unknown;
						const build = factory as (
							tui: unknown,
							theme: unknown,
							keys: unknown,
							done: (r: unknown) => void,
						) => DelegationPanel;
						const panel = build({ requestRender() {} }, harness?.ui?.context.theme, {}, (r) => {
							result = r;
						});
						rendered.push(view(panel, 80));
						press(panel, KEY.right);
						focusRow(panel, "Small model");
						press(panel, KEY.enter, KEY.down, KEY.enter);
						focusRow(panel, "[ Apply ]");
						press(panel, KEY.enter);
						focusRow(panel, "[ Save effective");
						press(panel, KEY.enter);
						await panel.settled();
						rendered.push(view(panel, 80));
						press(panel, KEY.escape);
						return result;
					},
				],
			},
		});
		await harness.session.bindExtensions({ mode: "tui" });
		await harness.command("/delegate");
		expect(harness.ui?.calls.find((call) => call.kind === "custom")).toEqual({
			kind: "custom",
			answer: { closed: "applied" },
		});
		expect(rendered[0]?.[1]).toContain("D:NORM A:OFF");
		expect(rendered[1]).toContain("Saved as global defaults.");
		expect(footer(harness)).toBe("D:AGG A:OFF");
		harness.script("ok");
		await harness.prompt("Next.");
		const section = leadingSections(harness.requests[0] as ModelRequest).delegation_policy ?? "";
		expect(section).toContain("Intensity: aggressive.");
		expect(section).toContain("- Small: disabled; do not delegate to it.");
		const policyDir = join(harness.agentDir, "policy");
		const saved = JSON.parse(await readFile(join(policyDir, "delegation-policy.json"), "utf8"));
		expect(saved).toEqual({
			version: 1,
			intensity: "aggressive",
			preference: "standard",
			advisorMode: "with-delegation",
			roles: {
				small: null,
				medium: { provider: "faux", model: "faux-medium" },
				large: { provider: "faux", model: "faux-large" },
			},
			thinking: { large: { level: "high" } },
		});
		expect(await readdir(policyDir)).toEqual(["delegation-policy.json"]);
		expect(harness.entries("delegation-policy.state").at(-1)).toEqual({
			v: 1,
			settings: { intensity: "aggressive", roles: { small: null } },
		});
		expect(harness.entries("pi-policy.audit")).toContainEqual({
			v: 1,
			ext: "delegation-policy",
			event: "defaults-saved",
		});
	});
});
