// What one parsed input line is: a Pi session header, a pi-policy audit entry, another session entry, or a line to
// count and skip (invalid entry, unknown schema version). OTLP lines are read by ./otlp.ts.
import { AUDIT_ENTRY_TYPE, type AuditEntryV1, validateAuditEntry } from "../audit.js";
import { isPlainObject } from "../config.js";

/** Pi session file versions this reader understands (docs/session-format.md: 1, 2 and 3). */
export const KNOWN_SESSION_VERSIONS = [1, 2, 3] as const;

/** The audit schema versions this reader understands. */
export const KNOWN_AUDIT_VERSIONS = [1] as const;

/** A classified session-file line. */
export type SessionLine =
	| { readonly kind: "header"; readonly sessionId: string | undefined; readonly known: boolean }
	| {
			readonly kind: "audit";
			readonly entry: AuditEntryV1;
			readonly time: number | undefined;
			/**
			 * The session entry's id and timestamp, which a forked session's copy of the entry keeps: a scan over many
			 * files counts each such entry once. Absent when the line lacks either.
			 */
			readonly copyKey?: string;
	  }
	| { readonly kind: "skip"; readonly reason: "invalid-entry" | "unknown-version" }
	| { readonly kind: "other" };

function parseTime(value: unknown): number | undefined {
	if (typeof value === "string") {
		const time = Date.parse(value);
		return Number.isFinite(time) ? time : undefined;
	}
	if (typeof value === "number" && Number.isFinite(value)) return value;
	return undefined;
}

/**
 * Classifies one parsed line of a Pi session file. A `{ type: "session" }` header with a version outside
 * {@link KNOWN_SESSION_VERSIONS} is `known: false` (the caller skips the file); an audit entry whose `v` is not a
 * known version, or that fails validation, is a line to skip. Never throws.
 */
export function classifySessionLine(value: unknown): SessionLine {
	if (!isPlainObject(value)) return { kind: "skip", reason: "invalid-entry" };
	if (value.type === "session") {
		const version = value.version === undefined ? 1 : value.version;
		const known = (KNOWN_SESSION_VERSIONS as readonly unknown[]).includes(version);
		return { kind: "header", sessionId: typeof value.id === "string" ? value.id : undefined, known };
	}
	if (value.type !== "custom" || value.customType !== AUDIT_ENTRY_TYPE) return { kind: "other" };
	const data = value.data;
	if (isPlainObject(data) && !(KNOWN_AUDIT_VERSIONS as readonly unknown[]).includes(data.v)) {
		return { kind: "skip", reason: "unknown-version" };
	}
	const result = validateAuditEntry(data);
	if (!result.ok) return { kind: "skip", reason: "invalid-entry" };
	const copyKey =
		typeof value.id === "string" && typeof value.timestamp === "string"
			? `${value.id}\u0000${value.timestamp}`
			: undefined;
	return {
		kind: "audit",
		entry: result.value,
		time: parseTime(value.timestamp),
		...(copyKey === undefined ? {} : { copyKey }),
	};
}
