import { describe, expect, it } from "vitest";
import { renderTurnTable } from "../src/report.ts";
import { runScenario } from "../src/run.ts";
import { loadScenarios, stockBaseline } from "../src/scenarios.ts";

describe("pnpm demo", () => {
	it("runs the stock baseline in a real session and shows the big read reaching the model", async () => {
		const { rows } = await runScenario(stockBaseline);
		expect(rows.length).toBe(stockBaseline.steps().length);
		const readRow = rows.find((row) => row.arrived.some((label) => label.startsWith("read result")));
		expect(readRow?.newBytes).toBeGreaterThan(40_000);
		expect(rows.every((row) => row.arrived.every((label) => !label.includes("error")))).toBe(true);
		const table = renderTurnTable(rows);
		for (const line of table.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
	});

	it("discovers every scenario file, stock first, with unique ids", async () => {
		const scenarios = await loadScenarios();
		expect(scenarios[0]?.id).toBe("stock");
		const ids = scenarios.map((s) => s.id);
		expect(new Set(ids).size).toBe(ids.length);
	});
});
