// policy-kernel/report: the report's time window is inclusive at both ends (the CLI's "--since X: entries at or
// after X", "--until X: entries at or before X").
import { describe, expect, it } from "vitest";
import type { AuditEntryV1 } from "../src/audit.ts";
import { addSessionToReport, createReport, finishReport } from "../src/report/index.ts";

const warned = { v: 1, ext: "exploration-guard", event: "warned", mode: "warn" } as AuditEntryV1;

describe("the report window's edges", () => {
	const until = Date.parse("2026-03-02T12:00:00Z");

	it("keeps a record timed exactly at `until`, and drops one a millisecond later", () => {
		const state = createReport({ until });
		addSessionToReport(state, "at-until", [{ entry: warned, time: until }]);
		addSessionToReport(state, "after-until", [{ entry: warned, time: until + 1 }]);
		const report = finishReport(state);
		expect(report.sessions).toBe(1);
		expect(report.outsideWindow).toBe(1);
		expect(report.extensions["exploration-guard"]).toEqual({ warned: 1 });
		expect(report.days.map((d) => d.day)).toEqual(["2026-03-02"]);
	});

	it("a window of one instant (since equal to until) keeps the record at that instant", () => {
		const state = createReport({ since: until, until });
		addSessionToReport(state, "a", [
			{ entry: warned, time: until - 1 },
			{ entry: warned, time: until },
			{ entry: warned, time: until + 1 },
		]);
		const report = finishReport(state);
		expect(report.sessions).toBe(1);
		expect(report.outsideWindow).toBe(2);
		expect(report.extensions["exploration-guard"]).toEqual({ warned: 1 });
	});
});
