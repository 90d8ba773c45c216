// Why the suite registers no actionable-boundary handler: in Pi 1.6.0 a `turn_end` (or `agent_before_settle`)
// handler is not a plain notification. Pi builds a preview of the whole session for it, once before the handlers
// and once after each, then re-projects the session, on every turn: host work that grows with the session and that
// no handler profile sees (docs/decisions/0005-no-actionable-boundary-handlers.md). Pinned here in a real session.
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness } from "@pi-policy/pi-harness";
import { describe, expect, it } from "vitest";
import { SUITE_CONFIG, SUITE_MODELS } from "../../demo/src/suite.ts";
import { SUITE_EXTENSION_FACTORIES } from "../src/workloads/hook-overhead.ts";

describe("actionable boundaries (Pi 1.6.0)", () => {
	it("a turn_end handler receives a context preview Pi rebuilt from the whole session, every turn", async () => {
		const previews: number[] = [];
		const listener: InlineExtension = (pi) => {
			pi.on("turn_end", (event) => {
				previews.push(event.context.contextMessages.length);
			});
		};
		const harness = await createHarness({ extensions: [listener], files: { "a.txt": "a\n" } });
		try {
			harness.script(callTool("read", { path: "a.txt" }), callTool("read", { path: "a.txt" }), "done");
			await harness.prompt("read it twice");
			// One preview per turn, each holding every message so far: it grows with the session.
			expect(previews).toHaveLength(3);
			expect(previews[1]).toBeGreaterThan(previews[0] ?? Number.POSITIVE_INFINITY);
			expect(previews[2]).toBeGreaterThan(previews[1] ?? Number.POSITIVE_INFINITY);
		} finally {
			await harness.dispose();
		}
	});

	it("no extension of the suite registers one, with all five enabled", async () => {
		const harness = await createHarness({
			extensions: SUITE_EXTENSION_FACTORIES.map(([, extension]) => extension),
			config: SUITE_CONFIG,
			models: SUITE_MODELS,
		});
		try {
			const runner = harness.session.extensionRunner;
			// The suite is really active (its tool hooks are registered) ...
			expect(runner.hasHandlers("tool_call")).toBe(true);
			expect(runner.hasHandlers("turn_start")).toBe(true);
			// ... and leaves both boundaries to Pi's cheap path.
			expect(runner.hasHandlers("turn_end")).toBe(false);
			expect(runner.hasHandlers("agent_before_settle")).toBe(false);
		} finally {
			await harness.dispose();
		}
	});
});
