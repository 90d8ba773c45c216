// Opt-in OpenTelemetry export through the official JS SDK: each audit event as an OTLP log record, and counters
// (events by ext/event/category, bytes kept out) as OTLP metrics, both over OTLP/HTTP (JSON). The exporters read
// the standard OTEL_EXPORTER_OTLP_* variables themselves. Emitting only queues: nothing here blocks a tool call.
import { SeverityNumber } from "@opentelemetry/api";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
	BatchLogRecordProcessor,
	LoggerProvider,
	type LogRecordExporter,
	type ReadableLogRecord,
} from "@opentelemetry/sdk-logs";
import {
	MeterProvider,
	PeriodicExportingMetricReader,
	type PushMetricExporter,
	type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import type { AuditEntryV1 } from "@pi-policy/policy-kernel/audit";
import {
	auditLogAttributes,
	auditLogBody,
	auditLogSeverity,
	auditMetricAttributes,
	bytesKeptOutBy,
	emptySavingsCursor,
	OTLP_METRICS,
	OTLP_SCOPE,
} from "@pi-policy/policy-kernel/report";

/** What the export did so far: log records sent, batches (logs or metrics) dropped after a failure. */
export interface TelemetryStats {
	readonly exported: number;
	readonly dropped: number;
}

/** A running export for one session. */
export interface TelemetryExport {
	/** Queues one audit entry as a log record and adds it to the counters. Never throws, never waits. */
	record(entry: AuditEntryV1): void;
	stats(): TelemetryStats;
	/** Flushes and stops, waiting at most `timeoutMs`; what is not sent by then is dropped. Never throws. */
	shutdown(timeoutMs?: number): Promise<void>;
}

/** Options of {@link startTelemetryExport}. */
export interface TelemetryExportOptions {
	readonly sessionHash: string;
	readonly exportIntervalMs: number;
	/** `OTEL_SERVICE_NAME`, else `pi-policy`. */
	readonly serviceName?: string;
	/** Called once per failed batch with a fixed message (no endpoint, no error text). */
	readonly onDropped?: (message: string) => void;
	/** The environment, for the OTLP timeout variables. Default none (the SDK itself reads the rest). */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** Replaces the OTLP log exporter (tests). */
	readonly logExporter?: LogRecordExporter;
}

/** The per-batch export timeout used when no OTEL_EXPORTER_OTLP_*TIMEOUT variable is set. */
export const DEFAULT_EXPORT_TIMEOUT_MS = 2000;

/** How long {@link TelemetryExport.shutdown} waits by default. */
export const TELEMETRY_SHUTDOWN_TIMEOUT_MS = 3000;

/** Starts the export. Throws only when the SDK cannot be set up; the caller then runs without telemetry. */
export function startTelemetryExport(options: TelemetryExportOptions): TelemetryExport {
	let exported = 0;
	let dropped = 0;
	const drop = (what: string) => {
		dropped++;
		try {
			options.onDropped?.(`policy-report: telemetry ${what} batch dropped (${dropped} so far)`);
		} catch {
			// Diagnostics are best effort.
		}
	};
	const env = options.env ?? {};
	// The SDK's default export timeout is 10 s, and it retries a refused connection until then; a session ends
	// sooner, so unless OTEL_EXPORTER_OTLP_[LOGS_|METRICS_]TIMEOUT says otherwise, batches give up after 2 s.
	const timeout = (signal: "LOGS" | "METRICS") =>
		env.OTEL_EXPORTER_OTLP_TIMEOUT || env[`OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`]
			? {}
			: { timeoutMillis: DEFAULT_EXPORT_TIMEOUT_MS };
	const logs = countingLogExporter(options.logExporter ?? new OTLPLogExporter(timeout("LOGS")), {
		sent: (n) => {
			exported += n;
		},
		failed: () => drop("log"),
	});
	const metrics = countingMetricExporter(new OTLPMetricExporter(timeout("METRICS")), () => drop("metric"));
	const resource = resourceFromAttributes({ "service.name": options.serviceName ?? "pi-policy" });
	const loggerProvider = new LoggerProvider({
		resource,
		processors: [new BatchLogRecordProcessor({ exporter: logs, scheduledDelayMillis: 1000 })],
	});
	const meterProvider = new MeterProvider({
		resource,
		readers: [new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: options.exportIntervalMs })],
	});
	const logger = loggerProvider.getLogger(OTLP_SCOPE);
	const meter = meterProvider.getMeter(OTLP_SCOPE);
	const events = meter.createCounter(OTLP_METRICS.events, { description: "pi-policy audit events" });
	const bytes = meter.createCounter(OTLP_METRICS.bytesKeptOut, {
		description: "bytes kept out of the model context",
		unit: "By",
	});
	const cursor = emptySavingsCursor();
	let stopped: Promise<void> | undefined;
	return {
		record(entry) {
			if (stopped) return;
			try {
				const severity = auditLogSeverity(entry);
				logger.emit({
					severityNumber: severity === "WARN" ? SeverityNumber.WARN : SeverityNumber.INFO,
					severityText: severity,
					body: auditLogBody(entry),
					attributes: auditLogAttributes(entry, options.sessionHash),
				});
				events.add(1, auditMetricAttributes(entry));
				const kept = bytesKeptOutBy(entry, cursor);
				if (kept > 0) bytes.add(kept, { "pi_policy.ext": entry.ext });
			} catch {
				drop("log");
			}
		},
		stats: () => ({ exported, dropped }),
		shutdown(timeoutMs = TELEMETRY_SHUTDOWN_TIMEOUT_MS) {
			stopped ??= (async () => {
				let timer: NodeJS.Timeout | undefined;
				const deadline = new Promise<void>((resolve) => {
					timer = setTimeout(resolve, timeoutMs);
					timer.unref?.();
				});
				const flush = Promise.allSettled([loggerProvider.shutdown(), meterProvider.shutdown()]).then(() => true);
				const finished = await Promise.race([flush, deadline.then(() => false)]);
				if (timer) clearTimeout(timer);
				if (!finished) drop("shutdown");
			})().catch(() => undefined);
			return stopped;
		},
	};
}

function countingLogExporter(
	inner: LogRecordExporter,
	on: { sent: (records: number) => void; failed: () => void },
): LogRecordExporter {
	return {
		export(records: ReadableLogRecord[], done) {
			try {
				inner.export(records, (result) => {
					if (result.code === 0) on.sent(records.length);
					else on.failed();
					done(result);
				});
			} catch (error) {
				on.failed();
				done({ code: 1, error: error instanceof Error ? error : new Error("export failed") });
			}
		},
		shutdown: () => inner.shutdown(),
		forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
	};
}

function countingMetricExporter(inner: PushMetricExporter, failed: () => void): PushMetricExporter {
	const wrapped: PushMetricExporter = {
		export(metrics: ResourceMetrics, done) {
			try {
				inner.export(metrics, (result) => {
					if (result.code !== 0) failed();
					done(result);
				});
			} catch (error) {
				failed();
				done({ code: 1, error: error instanceof Error ? error : new Error("export failed") });
			}
		},
		forceFlush: () => inner.forceFlush(),
		shutdown: () => inner.shutdown(),
	};
	if (inner.selectAggregationTemporality)
		wrapped.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
	if (inner.selectAggregation) wrapped.selectAggregation = inner.selectAggregation.bind(inner);
	return wrapped;
}
