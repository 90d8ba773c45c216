// OpenTelemetry mapping of audit entries: log record attributes and metric attributes out, and audit records back
// in from OTLP/JSON lines (the Collector's file exporter format). Enums, counts and a session hash only.
import { type AuditEntryV1, isAuditExt, validateAuditEntry } from "../audit.js";
import { isPlainObject } from "../config.js";
import { KNOWN_AUDIT_VERSIONS } from "./lines.js";
import { isSessionHash } from "./session-id.js";

/** The instrumentation scope of every record and instrument. */
export const OTLP_SCOPE = "pi-policy";

/** Attribute keys. Counters go under `pi_policy.counter.<key>`. */
export const OTLP_ATTRIBUTES = Object.freeze({
	version: "pi_policy.schema_version",
	ext: "pi_policy.ext",
	event: "pi_policy.event",
	mode: "pi_policy.mode",
	state: "pi_policy.state",
	category: "pi_policy.category",
	counterPrefix: "pi_policy.counter.",
	sessionHash: "session.id_hash",
});

/** Metric names: audit events by ext/event/category, and bytes kept out of the context by ext. */
export const OTLP_METRICS = Object.freeze({
	events: "pi_policy.audit.events",
	bytesKeptOut: "pi_policy.context.bytes_kept_out",
});

/** An attribute value as the SDK takes it. */
export type OtlpAttributeValue = string | number;

/** The log record attributes of an audit entry: every field, each counter, and the session hash. */
export function auditLogAttributes(entry: AuditEntryV1, sessionHash: string): Record<string, OtlpAttributeValue> {
	const a = OTLP_ATTRIBUTES;
	const attributes: Record<string, OtlpAttributeValue> = {
		[a.version]: entry.v,
		[a.ext]: entry.ext,
		[a.event]: entry.event,
		[a.sessionHash]: sessionHash,
	};
	if (entry.mode !== undefined) attributes[a.mode] = entry.mode;
	if (entry.state !== undefined) attributes[a.state] = entry.state;
	if (entry.category !== undefined) attributes[a.category] = entry.category;
	for (const [key, value] of Object.entries(entry.counters ?? {})) attributes[`${a.counterPrefix}${key}`] = value;
	return attributes;
}

/** The body of an audit log record: `<ext> <event>`, both enums. */
export function auditLogBody(entry: AuditEntryV1): string {
	return `${entry.ext} ${entry.event}`;
}

/** Log severity: WARN for handler errors, invalid configs and denials, INFO otherwise. */
export function auditLogSeverity(entry: AuditEntryV1): "INFO" | "WARN" {
	return entry.event === "handler-error" || entry.event === "config-invalid" || entry.event === "denied"
		? "WARN"
		: "INFO";
}

/** The attributes of the events counter for an entry: ext, event and (when set) category. */
export function auditMetricAttributes(entry: AuditEntryV1): Record<string, string> {
	const a = OTLP_ATTRIBUTES;
	return {
		[a.ext]: entry.ext,
		[a.event]: entry.event,
		...(entry.category === undefined ? {} : { [a.category]: entry.category }),
	};
}

/** An audit record read back from OTLP. */
export interface OtlpAuditRecord {
	readonly sessionHash: string;
	readonly entry: AuditEntryV1;
	readonly time: number | undefined;
}

/** What one OTLP/JSON line held. */
export interface OtlpLineResult {
	readonly records: OtlpAuditRecord[];
	/** pi-policy log records that failed validation or had no session hash. */
	readonly invalid: number;
	/** pi-policy log records of an unknown audit schema version. */
	readonly unknownVersion: number;
	/** Log records of another scope or without pi-policy attributes, ignored. */
	readonly foreign: number;
}

/** The JS value of an OTLP/JSON `AnyValue` (`{ stringValue }`, `{ intValue }` as string or number, …). */
export function otlpAnyValue(value: unknown): string | number | boolean | undefined {
	if (!isPlainObject(value)) return undefined;
	if (typeof value.stringValue === "string") return value.stringValue;
	if (value.intValue !== undefined) {
		const n = typeof value.intValue === "string" ? Number(value.intValue) : value.intValue;
		return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
	}
	if (typeof value.doubleValue === "number") return value.doubleValue;
	if (typeof value.boolValue === "boolean") return value.boolValue;
	return undefined;
}

function attributeMap(list: unknown): Map<string, string | number | boolean> {
	const map = new Map<string, string | number | boolean>();
	if (!Array.isArray(list)) return map;
	for (const item of list) {
		if (!isPlainObject(item) || typeof item.key !== "string") continue;
		const value = otlpAnyValue(item.value);
		if (value !== undefined) map.set(item.key, value);
	}
	return map;
}

function nanosToMs(value: unknown): number | undefined {
	if (typeof value === "string" && /^\d{1,20}$/.test(value)) {
		const ms = Number(BigInt(value) / 1_000_000n);
		return ms > 0 ? ms : undefined;
	}
	if (typeof value === "number" && Number.isFinite(value) && value > 0) return Math.floor(value / 1e6);
	return undefined;
}

/**
 * Rebuilds an audit entry from log record attributes (see {@link auditLogAttributes}). Returns `unknown-version`
 * for a schema version this reader does not know, `foreign` when the record is not a pi-policy audit record.
 */
export function auditEntryFromAttributes(
	attributes: ReadonlyMap<string, string | number | boolean>,
): { kind: "ok"; entry: AuditEntryV1; sessionHash: string } | { kind: "invalid" | "unknown-version" | "foreign" } {
	const a = OTLP_ATTRIBUTES;
	const ext = attributes.get(a.ext);
	if (ext === undefined) return { kind: "foreign" };
	const version = attributes.get(a.version);
	if (!(KNOWN_AUDIT_VERSIONS as readonly unknown[]).includes(version)) return { kind: "unknown-version" };
	if (!isAuditExt(ext)) return { kind: "invalid" };
	const sessionHash = attributes.get(a.sessionHash);
	if (!isSessionHash(sessionHash)) return { kind: "invalid" };
	const candidate: Record<string, unknown> = { v: version, ext, event: attributes.get(a.event) };
	for (const [key, field] of [
		[a.mode, "mode"],
		[a.state, "state"],
		[a.category, "category"],
	] as const) {
		const value = attributes.get(key);
		if (value !== undefined) candidate[field] = value;
	}
	const counters: Record<string, unknown> = {};
	let hasCounters = false;
	for (const [key, value] of attributes) {
		if (!key.startsWith(a.counterPrefix)) continue;
		Object.defineProperty(counters, key.slice(a.counterPrefix.length), { value, enumerable: true, writable: true });
		hasCounters = true;
	}
	if (hasCounters) candidate.counters = counters;
	const result = validateAuditEntry(candidate);
	return result.ok ? { kind: "ok", entry: result.value, sessionHash } : { kind: "invalid" };
}

/**
 * Reads the pi-policy audit records of one parsed OTLP/JSON line: an `ExportLogsServiceRequest`
 * (`{ resourceLogs: [{ scopeLogs: [{ logRecords: [...] }] }] }`), as the Collector's file exporter writes it.
 * Metrics and trace lines give no records. Never throws.
 */
export function readOtlpLogsLine(value: unknown): OtlpLineResult {
	const result = { records: [] as OtlpAuditRecord[], invalid: 0, unknownVersion: 0, foreign: 0 };
	if (!isPlainObject(value) || !Array.isArray(value.resourceLogs)) return result;
	for (const resourceLogs of value.resourceLogs) {
		if (!isPlainObject(resourceLogs) || !Array.isArray(resourceLogs.scopeLogs)) continue;
		for (const scopeLogs of resourceLogs.scopeLogs) {
			if (!isPlainObject(scopeLogs) || !Array.isArray(scopeLogs.logRecords)) continue;
			for (const record of scopeLogs.logRecords) {
				if (!isPlainObject(record)) {
					result.invalid++;
					continue;
				}
				const decoded = auditEntryFromAttributes(attributeMap(record.attributes));
				if (decoded.kind === "ok") {
					result.records.push({
						sessionHash: decoded.sessionHash,
						entry: decoded.entry,
						time: nanosToMs(record.timeUnixNano) ?? nanosToMs(record.observedTimeUnixNano),
					});
				} else if (decoded.kind === "foreign") result.foreign++;
				else if (decoded.kind === "invalid") result.invalid++;
				else result.unknownVersion++;
			}
		}
	}
	return result;
}

/** True when a parsed line looks like OTLP/JSON (logs, metrics or traces) rather than a session entry. */
export function isOtlpLine(value: unknown): boolean {
	return (
		isPlainObject(value) &&
		(Array.isArray(value.resourceLogs) || Array.isArray(value.resourceMetrics) || Array.isArray(value.resourceSpans))
	);
}
