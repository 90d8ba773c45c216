// Opens the `/delegate` panel with `ctx.ui.custom` and binds it to the controller.
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { DelegationPolicySettings } from "@pi-policy/policy-kernel/delegation";
import type { DelegationController } from "./controller.js";
import { DelegationPanel, type PanelHost, type PanelResult, type PanelTheme } from "./panel.js";

/** The panel host backed by the controller: previews validate drafts, Apply and Save go through the reducer. */
export function createPanelHost(controller: DelegationController, ctx: ExtensionContext): PanelHost {
	return {
		committed: () => controller.sessionSettings(),
		preview: (draft: DelegationPolicySettings) => controller.computeView(ctx, draft),
		catalogue: () => controller.catalogue(ctx),
		apply: (draft: DelegationPolicySettings) => {
			controller.apply({ type: "apply-draft", settings: draft }, ctx);
		},
		saveDefaults: async (draft: DelegationPolicySettings) => {
			controller.apply({ type: "apply-draft", settings: draft }, ctx);
			return controller.saveDefaults(ctx, controller.sessionSettings());
		},
	};
}

/** Shows the panel until it closes; returns how it closed (undefined when the UI has no custom components). */
export async function openDelegationPanel(
	controller: DelegationController,
	ctx: ExtensionContext,
): Promise<PanelResult | undefined> {
	const host = createPanelHost(controller, ctx);
	return ctx.ui.custom<PanelResult>(
		(tui, theme, _keybindings, done) =>
			new DelegationPanel(host, theme as unknown as PanelTheme, done, () => tui.requestRender()),
	);
}
