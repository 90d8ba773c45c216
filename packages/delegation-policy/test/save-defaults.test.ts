// "Save effective configuration as defaults" from the /delegate panel, in real Pi sessions: over a broken global
// file (the failed-closed line goes once the saved file is the one in use), and through a global file that is a
// link into a dotfiles folder (the file it leads to is updated and the link stays).
import { lstat, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Harness } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import type { DelegationPanel } from "../src/panel.ts";
import { footer, lastNotification, startDelegationSession, validGlobal } from "./support.ts";

const KEY = { down: "\x1b[B", enter: "\r", escape: "\x1b" };
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** A UI whose one custom component is the panel: it focuses "Save effective…", presses Enter, and closes. */
function savingUi(harness: () => Harness | undefined) {
	return {
		custom: [
			async (factory: unknown) => {
				let result: unknown;
				const build = factory as (t: unknown, th: unknown, k: unknown, d: (r: unknown) => void) => DelegationPanel;
				const panel = build({ requestRender() {} }, harness()?.ui?.context.theme, {}, (r) => {
					result = r;
				});
				const rows = () => panel.render(100).map((line) => line.replace(ANSI, ""));
				for (let i = 0; i < 30 && !rows().some((line) => line.startsWith("> [ Save effective")); i++) {
					panel.handleInput(KEY.down);
				}
				panel.handleInput(KEY.enter);
				await panel.settled();
				panel.handleInput(KEY.escape);
				return result;
			},
		],
	};
}

describe("saving defaults from the panel", () => {
	const sessions = sessionPerTest(startDelegationSession);
	let harness: Harness | undefined;

	it("over a broken global file: status drops the failed-closed line once the saved file is in use", async () => {
		harness = await sessions.start({ global: { version: 1, intensity: "bogus" }, ui: savingUi(() => harness) });
		await harness.command("/delegate role small faux/faux-small");
		await harness.command("/delegate role medium off");
		await harness.command("/delegate role large off");
		await harness.command("/delegate normal");
		await harness.command("/delegate status");
		expect(lastNotification(harness)).toContain("failed closed");
		await harness.session.bindExtensions({ mode: "tui" });
		await harness.command("/delegate");
		const saved = JSON.parse(await readFile(join(harness.agentDir, "policy", "delegation-policy.json"), "utf8"));
		expect(saved.intensity).toBe("normal");
		await harness.command("/delegate reset");
		await harness.command("/delegate status");
		const status = lastNotification(harness);
		expect(status).toContain("intensity normal [global]");
		expect(status).not.toContain("failed closed");
	});

	it("through a global file linked from a dotfiles folder: the linked file changes and the link stays", async () => {
		harness = await sessions.start({ global: validGlobal(), ui: savingUi(() => harness) });
		const link = join(harness.agentDir, "policy", "delegation-policy.json");
		const dotfiles = join(harness.agentDir, "..", "dotfiles");
		await mkdir(dotfiles, { recursive: true });
		const target = join(dotfiles, "delegation-policy.json");
		await writeFile(target, await readFile(link, "utf8"));
		await rm(link);
		await symlink(target, link);
		await harness.session.reload();
		expect(footer(harness)).toBe("D:NORM A:OFF");
		await harness.command("/delegate aggressive");
		await harness.session.bindExtensions({ mode: "tui" });
		await harness.command("/delegate");
		expect((await lstat(link)).isSymbolicLink()).toBe(true);
		expect(JSON.parse(await readFile(target, "utf8")).intensity).toBe("aggressive");
	});
});
