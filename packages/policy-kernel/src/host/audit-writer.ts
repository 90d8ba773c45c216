// Persists validated audit entries with pi.appendEntry and mirrors them on the pi-policy:audit channel.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { AUDIT_CHANNEL, AUDIT_ENTRY_TYPE, type AuditEntryFor, type AuditExt, validateAuditEntry } from "../audit.js";
import { cloneJson } from "../config.js";

/** The parts of `ExtensionAPI` the audit writer uses. */
export type AuditHost = Pick<ExtensionAPI, "appendEntry" | "events">;

/** The fields of an audit entry; `v` and `ext` are filled in by the writer. */
export type AuditInput<E extends AuditExt> = Omit<AuditEntryFor<E>, "v" | "ext">;

/** Options for {@link createAuditWriter}. */
export interface AuditWriterOptions {
	/**
	 * Receives one concise message per dropped or failed write, for example
	 * `"exploration-guard: audit entry dropped (event: expected one of …)"`. It never contains user content.
	 */
	readonly onDiagnostic?: (message: string) => void;
}

/** Writes audit entries for one extension. */
export interface AuditWriter<E extends AuditExt> {
	/** The extension this writer belongs to. */
	readonly ext: E;
	/**
	 * Validates `{ v: 1, ext, ...fields }`, then persists a copy with `pi.appendEntry("pi-policy.audit", entry)`
	 * and emits another copy on `pi-policy:audit`. Returns whether it was persisted. Invalid entries, and fields
	 * that try to set `v` or `ext`, are dropped with a diagnostic. Never throws.
	 */
	write(fields: AuditInput<E>): boolean;
}

/** Creates the audit writer of extension `ext`. */
export function createAuditWriter<E extends AuditExt>(
	pi: AuditHost,
	ext: E,
	options: AuditWriterOptions = {},
): AuditWriter<E> {
	const diagnose = (message: string) => {
		try {
			options.onDiagnostic?.(`${ext}: ${message}`);
		} catch {
			// A failing diagnostic sink must not break the caller.
		}
	};
	return {
		ext,
		write(fields) {
			try {
				return writeEntry(fields);
			} catch {
				diagnose("audit entry dropped");
				return false;
			}
		},
	};

	function writeEntry(fields: AuditInput<E>): boolean {
		const isObject = typeof fields === "object" && fields !== null;
		if (isObject && (Object.hasOwn(fields, "v") || Object.hasOwn(fields, "ext"))) {
			diagnose("audit entry dropped (v and ext are set by the writer)");
			return false;
		}
		const candidate: unknown = isObject ? { v: 1, ext, ...fields } : fields;
		const result = validateAuditEntry(candidate);
		if (!result.ok) {
			diagnose(`audit entry dropped (${result.error})`);
			return false;
		}
		const entry = result.value;
		try {
			pi.appendEntry(AUDIT_ENTRY_TYPE, cloneJson(entry));
		} catch {
			diagnose("audit entry not persisted");
			return false;
		}
		try {
			pi.events.emit(AUDIT_CHANNEL, cloneJson(entry));
		} catch {
			diagnose("audit event not emitted");
		}
		return true;
	}
}
