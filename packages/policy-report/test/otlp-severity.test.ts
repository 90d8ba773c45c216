// OpenTelemetry log severity per audit event: WARN for handler-error, config-invalid and denied, INFO otherwise
// (README, OpenTelemetry). Records are captured from the export's log exporter, before the wire.
import type { LogRecordExporter, ReadableLogRecord } from "@opentelemetry/sdk-logs";
import type { AuditEntryV1 } from "@pi-policy/policy-kernel/audit";
import { describe, expect, it } from "vitest";
import { startTelemetryExport } from "../src/telemetry.ts";

const ENTRIES: AuditEntryV1[] = [
	{ v: 1, ext: "guardian-review", event: "denied", mode: "enforce", state: "armed", category: "reviewer" },
	{ v: 1, ext: "guardian-review", event: "allowed", mode: "enforce", state: "armed", category: "reviewer" },
	{ v: 1, ext: "exploration-guard", event: "handler-error", mode: "warn" },
	{ v: 1, ext: "context-shunt", event: "config-invalid" },
	{ v: 1, ext: "exploration-guard", event: "warned", mode: "warn", state: "warned", category: "grep" },
] as AuditEntryV1[];

describe("OpenTelemetry log severity", () => {
	it("denied, handler-error and config-invalid are WARN (severity 13); other events are INFO (severity 9)", async () => {
		const captured: ReadableLogRecord[] = [];
		const memory: LogRecordExporter = {
			export(batch, done) {
				captured.push(...batch);
				done({ code: 0 });
			},
			shutdown: async () => {},
			forceFlush: async () => {},
		};
		const exporter = startTelemetryExport({
			sessionHash: "a".repeat(64),
			exportIntervalMs: 60_000,
			logExporter: memory,
		});
		for (const entry of ENTRIES) exporter.record(entry);
		// The log batch is flushed at once; the metrics have no receiver, so the wait for them is cut short.
		await exporter.shutdown(1000);
		expect(captured.map((record) => [record.body, record.severityText, record.severityNumber])).toEqual([
			["guardian-review denied", "WARN", 13],
			["guardian-review allowed", "INFO", 9],
			["exploration-guard handler-error", "WARN", 13],
			["context-shunt config-invalid", "WARN", 13],
			["exploration-guard warned", "INFO", 9],
		]);
	});
});
