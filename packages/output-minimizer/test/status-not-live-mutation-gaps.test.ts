// /output-minimizer status after a /reload turned the extension off: it lists what the branch counted while it was
// on, a pass-through of a small result too, not only minimized results.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { callTool } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import outputMinimizer from "../src/index.ts";
import { createStockSubagent } from "./support/stock-subagent.ts";

const sessions = sessionPerTest({ tools: ["read", "subagent"] });

describe("/output-minimizer status when not live", () => {
	it("turned off by /reload after passing a small result through, lists that count", async () => {
		const stock = createStockSubagent();
		stock.queue({ kind: "single", child: { agent: "scout", output: "All three files parse.\n" } });
		const h = await sessions.start({ extensions: [stock.extension, outputMinimizer] });
		h.script(callTool("subagent", { agent: "scout", task: "one" }), "done");
		await h.prompt("Delegate.");
		await mkdir(join(h.agentDir, "policy"), { recursive: true });
		await writeFile(join(h.agentDir, "policy", "output-minimizer.json"), '{ "mode": "off" }');
		await h.session.reload();
		await h.command("/output-minimizer status");
		expect(h.ui!.notifications().at(-1)).toEqual({
			message: [
				"output-minimizer: off (set in the config file)",
				"counted earlier in this branch:",
				"results minimized: 0 (single 0, workflow 0, notify 0)",
				"bytes kept out of context: 0",
				"outputs referenced: 0 (host files reused: 0)",
				"bounded fallbacks: 0 (persistence failures: 0)",
				"pass-throughs: inline 0, small 1, output:false bounded 0",
			].join("\n"),
			level: "info",
		});
	});
});
