// Baseline: the bytes a stock Pi session sends the model during the demo's bug hunt.
import { createHarness, realisticWorkspaceFiles } from "@pi-policy/pi-harness";
import { stockBaseline } from "../../../demo/src/scenarios/stock.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

export const stockContextWorkload: BenchWorkload = {
	id: "stock-context",
	title: "Stock Pi context growth on the demo bug hunt (baseline for the extension workloads)",
	async run(): Promise<BenchResult> {
		const harness = await createHarness({ files: realisticWorkspaceFiles() });
		try {
			harness.script(...stockBaseline.steps());
			await harness.prompt(stockBaseline.prompt);
			const sizes = harness.requests.map((r) => harness.requestBytes(r));
			const first = sizes[0] ?? 0;
			const last = sizes.at(-1) ?? 0;
			return {
				id: this.id,
				title: this.title,
				figures: [
					{ name: "requests", value: sizes.length, unit: "count" },
					{ name: "first request", value: first, unit: "bytes" },
					{ name: "last request", value: last, unit: "bytes" },
					{ name: "all requests", value: sizes.reduce((a, b) => a + b, 0), unit: "bytes" },
					{ name: "growth last/first", value: first > 0 ? last / first : 0, unit: "ratio" },
				],
				checks: [{ name: "every turn reached the model", passed: sizes.length === stockBaseline.steps().length }],
			};
		} finally {
			await harness.dispose();
		}
	},
};

export default stockContextWorkload;
