// The two pnpm bench workloads of policy-report run end to end on small inputs: every figure is measured in the
// same run, and their checks hold.
import { describe, expect, it } from "vitest";
import { policyReportOtlpWorkload } from "../../../tooling/bench/src/workloads/policy-report-otlp.ts";
import { policyReportScanWorkload } from "../../../tooling/bench/src/workloads/policy-report-scan.ts";
import { loadWorkloads } from "../../../tooling/bench/src/workloads.ts";

describe("bench workloads", () => {
	it("are discovered by pnpm bench", async () => {
		const ids = (await loadWorkloads()).map((w) => w.id);
		expect(ids).toEqual(expect.arrayContaining(["policy-report-scan", "policy-report-otlp"]));
	});

	it("the scan counts every generated session and reports its ratio to wc -l and its peak RSS", async () => {
		const result = await policyReportScanWorkload(60, 4000).run();
		expect(result.checks.find((c) => c.name === "every session counted")?.passed).toBe(true);
		const figure = (name: string) => result.figures.find((f) => f.name === name)?.value ?? Number.NaN;
		expect(figure("session files")).toBe(60);
		expect(figure("lines (wc -l)")).toBeGreaterThan(60 * 12);
		expect(figure("report time / wc -l time")).toBeGreaterThan(0);
		expect(figure("peak RSS of the report")).toBeGreaterThan(1024 * 1024);
	}, 120_000);

	it("the OTLP overhead runs the session with export on and off, and the receiver gets records", async () => {
		const result = await policyReportOtlpWorkload(14, 1).run();
		expect(result.checks).toEqual([
			{ name: "every call ran with export on and off", passed: true },
			{ name: "the receiver got log records", passed: true },
		]);
		const ratio = result.figures.find((f) => f.name.startsWith("session time ratio"))?.value ?? 0;
		expect(ratio).toBeGreaterThan(0);
	}, 180_000);
});
