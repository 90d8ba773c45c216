// Saving defaults from the /delegate panel in a real session: a draft edited in the panel and never applied is
// applied first, then saved, so the global file holds the draft's values.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Harness } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import type { DelegationPanel } from "../src/panel.ts";
import { footer, startDelegationSession } from "./support.ts";

const KEY = { right: "\x1b[C", down: "\x1b[B", enter: "\r", escape: "\x1b" };
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** A UI whose one custom component is the panel: it cycles Intensity once (→), then saves without Apply. */
function editAndSaveUi(harness: () => Harness | undefined, rendered: string[][]) {
	return {
		custom: [
			async (factory: unknown) => {
				let result: unknown;
				const build = factory as (t: unknown, th: unknown, k: unknown, d: (r: unknown) => void) => DelegationPanel;
				const panel = build({ requestRender() {} }, harness()?.ui?.context.theme, {}, (r) => {
					result = r;
				});
				const rows = () => panel.render(100).map((line) => line.replace(ANSI, ""));
				panel.handleInput(KEY.right);
				for (let i = 0; i < 30 && !rows().some((line) => line.startsWith("> [ Save effective")); i++) {
					panel.handleInput(KEY.down);
				}
				panel.handleInput(KEY.enter);
				await panel.settled();
				rendered.push(rows());
				panel.handleInput(KEY.escape);
				return result;
			},
		],
	};
}

describe("the panel's Save effective configuration as defaults", () => {
	const sessions = sessionPerTest(startDelegationSession);
	let harness: Harness | undefined;

	it("saves a draft edited in the panel but not applied: the global file and the session get the draft's intensity", async () => {
		const rendered: string[][] = [];
		harness = await sessions.start({ ui: editAndSaveUi(() => harness, rendered) });
		expect(footer(harness)).toBe("D:NORM A:OFF");
		await harness.session.bindExtensions({ mode: "tui" });
		await harness.command("/delegate");
		expect(rendered[0]).toContain("Saved as global defaults.");
		const saved = JSON.parse(await readFile(join(harness.agentDir, "policy", "delegation-policy.json"), "utf8"));
		expect(saved.intensity).toBe("aggressive");
		expect(saved.roles).toEqual({
			small: { provider: "faux", model: "faux-small" },
			medium: { provider: "faux", model: "faux-medium" },
			large: { provider: "faux", model: "faux-large" },
		});
		expect(footer(harness)).toBe("D:AGG A:OFF");
	});
});
