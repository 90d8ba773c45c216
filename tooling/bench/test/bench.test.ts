import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { sideExtensions } from "../src/hook-overhead-session.ts";
import { renderMarkdown } from "../src/report.ts";
import { hookOverheadWorkload, timeSessionInProcess } from "../src/workloads/hook-overhead.ts";
import { guardianGitHookWorkload } from "../src/workloads/hook-overhead-guardian-git.ts";
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

	it("lists every suite workload: context efficiency, hook overhead and guardian floor coverage", async () => {
		const ids = (await loadWorkloads()).map((w) => w.id);
		expect(ids).toEqual(
			expect.arrayContaining([
				"output-minimizer",
				"context-shunt",
				"guardian-review",
				"hook-overhead",
				"stock-context",
				"request-cost",
			]),
		);
	});

	it("measures hook overhead side by side: none, each extension alone and all five, with the 1.05x check and a handler profile", async () => {
		const result = await hookOverheadWorkload(14, 1, "in-process").run();
		expect(result.checks[0]).toEqual({ name: "every call ran in every configuration (none blocked)", passed: true });
		// The bound is checked in the bench (timings are not asserted in tests).
		expect(result.checks[1]?.name).toBe("all five / none <= 1.05");
		const names = result.figures.map((f) => f.name);
		for (const name of [
			"delegation-policy",
			"exploration-guard",
			"output-minimizer",
			"context-shunt",
			"guardian-review",
		]) {
			expect(names).toContain(`session time ratio, ${name} alone / none (median)`);
		}
		expect(
			result.figures.find((f) => f.name === "session time ratio, all five / none (median)")?.value,
		).toBeGreaterThan(0);
		// Every extension's tool_call handler ran once per call and was timed.
		const toolCallProfiles = names.filter((name) => / tool_call, µs per call \(14 calls\)$/.test(name));
		expect(toolCallProfiles.length).toBeGreaterThanOrEqual(3);
	});

	it("times guardian-review's hook on bash writes, reads and git status in a git repository, all on the floor", async () => {
		const result = await guardianGitHookWorkload(6).run();
		expect(result.checks).toEqual([{ name: "every timed call decided on the floor (no reviewer call)", passed: true }]);
		const hookFigures = result.figures.filter((f) => f.name.startsWith("µs per tool_call hook, "));
		expect(hookFigures.map((f) => f.name)).toEqual([
			"µs per tool_call hook, bash write ten folders down (mean)",
			"µs per tool_call hook, bash write, then a read (mean)",
			"µs per tool_call hook, bash write, then git status (mean)",
		]);
		for (const figure of hookFigures) expect(figure.value).toBeGreaterThan(0);
	});

	it("times a session of any side in a fresh process, as pnpm bench does", async () => {
		const run = await timeSessionInProcess("all five", 14);
		expect(run.results).toBe(14);
		expect(run.ms).toBeGreaterThan(0);
		expect(sideExtensions("guardian-review")).toHaveLength(1);
		expect(sideExtensions("none again")).toEqual([]);
		expect(() => sideExtensions("no-such-extension")).toThrow('unknown side "no-such-extension"');
	});

	it("pnpm bench's entry point writes results.json and results.md", async () => {
		const out = mkdtempSync(join(tmpdir(), "pi-policy-bench-"));
		try {
			const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
			const tsx = join(benchDir, "node_modules", "tsx", "dist", "cli.mjs");
			await promisify(execFile)(process.execPath, [tsx, "src/main.ts", "--only", "stock-context", "--out", out], {
				cwd: benchDir,
			});
			const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as { results: Array<{ id: string }> };
			expect(results.results.map((r) => r.id)).toEqual(["stock-context"]);
			expect(readFileSync(join(out, "results.md"), "utf8")).toContain("# pi-policy benchmarks");
		} finally {
			rmSync(out, { recursive: true, force: true });
		}
	});

	it("reports a reduction in KiB too, not as raw bytes", () => {
		const markdown = renderMarkdown(
			[{ id: "x", title: "x", figures: [{ name: "cut", value: -34_413, unit: "bytes" }], checks: [] }],
			{ date: "d", node: "v22" },
		);
		expect(markdown).toContain("| cut | -33.6 KiB |");
	});

	it("request cost: each extension alone against stock, with the reviewer's own requests", async () => {
		const { requestCostFigures } = await import("../src/workloads/request-cost.ts");
		const { runSuiteSession } = await import("../../demo/src/suite.ts");
		const stock = await runSuiteSession([], "stock");
		const guardian = await runSuiteSession(["guardian-review"], "guardian-review");
		const figures = Object.fromEntries(
			requestCostFigures("guardian-review", stock, guardian).map((f) => [f.name, f.value]),
		);
		expect(figures["guardian-review: agent requests (stock 13)"]).toBe(13);
		// The long test loop, and the subagent delegation (a tool that is not built in and not annotated read-only).
		expect(figures["guardian-review: reviewer model requests"]).toBe(2);
		expect(figures["guardian-review: bytes per reviewer request (mean)"]).toBeGreaterThan(1000);
		const shunt = await runSuiteSession(["context-shunt"], "context-shunt");
		const cut = requestCostFigures("context-shunt", stock, shunt).find((f) =>
			f.name.includes("bytes per agent request"),
		);
		expect(cut?.value).toBeLessThan(-10_000);
	}, 120_000);
});
