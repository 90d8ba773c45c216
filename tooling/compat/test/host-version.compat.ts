// The compatibility run must really load the pinned older Pi: every host package, imported through the same
// aliases the extensions, tests and harness use, reports the version tooling/compat/package.json pins.
// Named `*.compat.ts` so the root vitest run, which stays on the current Pi, does not collect it.
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import agentCorePackage from "@earendil-works/pi-agent-core/package.json" with { type: "json" };
import { PI_AI_VERSION } from "@earendil-works/pi-ai";
import { AgentSession, getPackageDir, VERSION } from "@earendil-works/pi-coding-agent";
import tuiPackage from "@earendil-works/pi-tui/package.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { createHarness } from "../../pi-harness/src/index.ts";

const compatPackage = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
	devDependencies: Record<string, string>;
};
const pinned = compatPackage.devDependencies["@earendil-works/pi-coding-agent"];

describe("compat host", () => {
	it("pins one exact version for all four host packages", () => {
		expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
		for (const name of ["pi-ai", "pi-agent-core", "pi-tui"]) {
			expect(compatPackage.devDependencies[`@earendil-works/${name}`]).toBe(pinned);
		}
	});

	it("loads the pinned version of every host package", () => {
		expect(VERSION).toBe(pinned);
		expect(PI_AI_VERSION).toBe(pinned);
		expect(agentCorePackage.version).toBe(pinned);
		expect(tuiPackage.version).toBe(pinned);
	});

	it("loads the copy installed in tooling/compat, not the workspace's", () => {
		const installed = realpathSync(
			fileURLToPath(new URL("../node_modules/@earendil-works/pi-coding-agent/", import.meta.url)),
		);
		expect(realpathSync(getPackageDir())).toBe(installed);
	});

	it("runs the harness session on the same host", async () => {
		const harness = await createHarness({ ui: false });
		try {
			expect(harness.session).toBeInstanceOf(AgentSession);
			harness.script("hello from the compat host");
			await harness.prompt("hi");
			expect(harness.requests).toHaveLength(1);
			expect(harness.session.messages.at(-1)?.role).toBe("assistant");
		} finally {
			await harness.dispose();
		}
	});
});
