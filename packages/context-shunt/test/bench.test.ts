// Runs the context-shunt benchmark workload (tooling/bench) in a real session and checks its contract.
import { expect, it } from "vitest";
import workload from "../../../tooling/bench/src/workloads/context-shunt.ts";

it("cuts model-bound bytes on the exploration workload by at least 96%, every original recoverable", async () => {
	const result = await workload.run();
	const figure = (name: string) => result.figures.find((f) => f.name === name)?.value;
	console.log(result.figures.map((f) => `${f.name}: ${f.value}`).join("\n"));
	expect(result.checks).toEqual(result.checks.map((c) => ({ ...c, passed: true })));
	expect(figure("cut in request bytes")).toBeGreaterThanOrEqual(0.96);
	expect(figure("artifacts preserved")).toBe(8);
	expect(figure("originals recovered byte-identical")).toBe(8);
});

it("on the MCP-heavy workload cuts MCP bytes by at least 80% and recovers exactly through jsonPointer and pattern", async () => {
	const { default: mcp } = await import("../../../tooling/bench/src/workloads/context-shunt-mcp.ts");
	const result = await mcp.run();
	const figure = (name: string) => result.figures.find((f) => f.name === name)?.value;
	expect(result.checks).toEqual(result.checks.map((c) => ({ ...c, passed: true })));
	expect(figure("cut in MCP output bytes")).toBeGreaterThanOrEqual(0.8);
	expect(figure("jsonPointer recovery exact")).toBe(1);
	expect(figure("pattern recovery exact")).toBe(1);
}, 60_000);
