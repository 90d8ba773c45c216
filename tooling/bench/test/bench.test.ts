import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../src/report.ts";
import { loadWorkloads } from "../src/workloads.ts";

describe("pnpm bench", () => {
	it("discovers the workloads and the stock baseline measures real requests", async () => {
		const workloads = await loadWorkloads();
		const stock = workloads.find((w) => w.id === "stock-context");
		expect(stock).toBeDefined();
		const result = await stock!.run();
		expect(result.checks.every((c) => c.passed)).toBe(true);
		const last = result.figures.find((f) => f.name === "last request");
		expect(last?.value).toBeGreaterThan(50_000);
		expect(renderMarkdown([result], { date: "d", node: "v22" })).toContain("| requests | 9 |");
	});
});
