// The shared audit schema (AuditEntryV1), its closed per-extension vocabularies, validator and summary.
//
// Privacy rule: every string in an audit entry comes from a closed enum below, and every number is a
// count or a bucket. Paths, patterns, commands, prompts, tool arguments, ids and raw errors never appear.
// Lists that a domain owns (its modes, states, tools and error codes) come from that domain's import-free vocabulary
// module, so each is written once. To add vocabulary for an extension, append to its list here, or to the domain's
// list it spreads in; the schema, validator and types follow.
import { type TObject, type TSchema, Type } from "typebox";
import { describeSchemaErrors, isPlainObject } from "./config.js";
import { err, ok, type Result } from "./decision.js";
import { DELEGATION_INTENSITIES, DELEGATION_ROLES } from "./delegation/state-vocabulary.js";
import { DELEGATION_CAUSES } from "./delegation/vocabulary.js";
import { EXPLORATION_CATEGORIES, EXPLORATION_GUARD_MODES, EXPLORATION_GUARD_STATES } from "./exploration/vocabulary.js";
import { REVIEW_FAILURE_REASONS, VERDICT_SOURCES } from "./guardian/verdict-vocabulary.js";
import { GUARDIAN_MODES } from "./guardian/vocabulary.js";
import { OUTPUT_MINIMIZER_MODES } from "./minimize/vocabulary.js";
import { SHUNT_ERROR_CODES } from "./shunt/codes.js";
import { SHUNT_MODES, SHUNT_TOOLS } from "./shunt/constants.js";

/** The `customType` of audit entries persisted with `pi.appendEntry`. */
export const AUDIT_ENTRY_TYPE = "pi-policy.audit";

/** The `pi.events` channel that carries a live copy of each audit entry. */
export const AUDIT_CHANNEL = "pi-policy:audit";

/** The extensions that write audit entries: their package folder names. */
export const AUDIT_EXTS = [
	"exploration-guard",
	"output-minimizer",
	"context-shunt",
	"delegation-policy",
	"guardian-review",
	"policy-report",
] as const;

/** One of {@link AUDIT_EXTS}. */
export type AuditExt = (typeof AUDIT_EXTS)[number];

/** Events every extension may record: an invalid config, and an internal error caught by its handler wrapper. */
export const COMMON_AUDIT_EVENTS = ["config-invalid", "handler-error"] as const;

/** The audit events of each extension, from its spec (plus {@link COMMON_AUDIT_EVENTS}). */
export const AUDIT_EVENTS = {
	"exploration-guard": [
		"activated",
		"warned",
		"blocked",
		"bash-blocked",
		"user-allow",
		"user-off",
		"delegation-started",
		"delegation-succeeded",
		"delegation-failed",
		"delegation-unavailable",
		"threshold-reached",
		...COMMON_AUDIT_EVENTS,
	],
	"output-minimizer": [
		"minimized",
		"passthrough-inline",
		"passthrough-small",
		"bounded-inline",
		"bounded-fallback",
		"persistence-failed",
		...COMMON_AUDIT_EVENTS,
	],
	"context-shunt": [
		"mode-changed",
		"blocked",
		"would-block",
		"bounded",
		"would-bound",
		"exception-granted",
		"exception-consumed",
		"exception-lapsed",
		"archive-failed",
		"artifact-expired",
		"recovered",
		"recovery-failed",
		"reader-answered",
		"reader-insufficient-evidence",
		"reader-failed",
		"uncovered",
		"reset",
		"refused",
		"aged",
		...COMMON_AUDIT_EVENTS,
	],
	"delegation-policy": [
		"session-restored",
		"session-entry-invalid",
		"session-reset",
		"intensity-changed",
		"preference-changed",
		"advisor-mode-changed",
		"role-changed",
		"thinking-changed",
		"defaults-saved",
		"validation-failed",
		"validation-recovered",
		...COMMON_AUDIT_EVENTS,
	],
	"guardian-review": [
		"reviewed",
		"allowed",
		"denied",
		"unavailable",
		"user-override",
		"breaker-tripped",
		"allow-once-granted",
		"mode-changed",
		...COMMON_AUDIT_EVENTS,
	],
	// policy-report writes only its config and handler problems, and dropped telemetry batches at shutdown.
	"policy-report": ["telemetry-dropped", ...COMMON_AUDIT_EVENTS],
} as const satisfies Record<AuditExt, readonly string[]>;

/** The modes of each extension, as its config or commands name them. */
export const AUDIT_MODES = {
	"exploration-guard": EXPLORATION_GUARD_MODES,
	"output-minimizer": OUTPUT_MINIMIZER_MODES,
	"context-shunt": SHUNT_MODES,
	"delegation-policy": DELEGATION_INTENSITIES,
	"guardian-review": GUARDIAN_MODES,
	"policy-report": ["telemetry-on", "telemetry-off"],
} as const satisfies Record<AuditExt, readonly string[]>;

/** The states of each extension's state machine; an empty list means entries carry no `state`. */
export const AUDIT_STATES = {
	"exploration-guard": EXPLORATION_GUARD_STATES,
	"output-minimizer": [],
	"context-shunt": [],
	"delegation-policy": ["valid", "delegation-invalid", "advisor-invalid", "both-invalid"],
	"guardian-review": ["armed", "tripped"],
	"policy-report": [],
} as const satisfies Record<AuditExt, readonly string[]>;

/** The categories of each extension: what an event was about (a tool, a surface, a role, a reason code). */
export const AUDIT_CATEGORIES = {
	"exploration-guard": EXPLORATION_CATEGORIES,
	"output-minimizer": ["single", "workflow", "notify"],
	"context-shunt": [
		// The source tools, the recovery and reader error codes, archive failures, and how a user exception lapsed.
		...SHUNT_TOOLS,
		"tool",
		"json",
		...SHUNT_ERROR_CODES,
		"quota-exhausted",
		"write-failed",
		"evicted",
		"changed",
		"expired",
		"cancelled",
		"agent-ended",
		"branch-changed",
		"terminal",
	],
	"delegation-policy": [
		...DELEGATION_ROLES,
		"advisor-on",
		"advisor-off",
		"advisor-with-delegation",
		...DELEGATION_CAUSES,
		"thinking-malformed",
		"entry-malformed",
		"entry-future-schema",
	],
	"guardian-review": [...VERDICT_SOURCES, ...REVIEW_FAILURE_REASONS],
	"policy-report": ["logs", "metrics", "shutdown"],
} as const satisfies Record<AuditExt, readonly string[]>;

/** An audit event of extension `E`. */
export type AuditEvent<E extends AuditExt = AuditExt> = (typeof AUDIT_EVENTS)[E][number];
/** A mode of extension `E`. */
export type AuditMode<E extends AuditExt = AuditExt> = (typeof AUDIT_MODES)[E][number];
/** A state of extension `E` (`never` when it has none). */
export type AuditState<E extends AuditExt = AuditExt> = (typeof AUDIT_STATES)[E][number];
/** A category of extension `E`. */
export type AuditCategory<E extends AuditExt = AuditExt> = (typeof AUDIT_CATEGORIES)[E][number];

/** Counter keys: camelCase identifiers of 1..40 ASCII letters and digits, starting with a letter. */
export const AUDIT_COUNTER_KEY_PATTERN = "^[a-zA-Z][a-zA-Z0-9]{0,39}$";
/** At most this many counters per entry. */
export const AUDIT_MAX_COUNTERS = 32;

/** Aggregate counts or bucket indexes: non-negative safe integers under camelCase keys. */
export type AuditCounters = Readonly<Record<string, number>>;

/** One audit entry of extension `E`. */
export interface AuditEntryFor<E extends AuditExt> {
	readonly v: 1;
	readonly ext: E;
	readonly event: AuditEvent<E>;
	readonly mode?: AuditMode<E>;
	readonly state?: AuditState<E>;
	readonly counters?: AuditCounters;
	readonly category?: AuditCategory<E>;
}

/** An audit entry, version 1: `{ v: 1, ext, event, mode?, state?, counters?, category? }`. */
export type AuditEntryV1 = { [E in AuditExt]: AuditEntryFor<E> }[AuditExt];

/** The TypeBox schema of `counters`. */
export const AuditCountersSchema = Type.Record(
	Type.String({ pattern: AUDIT_COUNTER_KEY_PATTERN }),
	Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
	{ maxProperties: AUDIT_MAX_COUNTERS, additionalProperties: false },
);

function enumSchema(values: readonly string[]): TSchema {
	return Type.Enum([...values]);
}

function auditEntrySchemaFor(ext: AuditExt): TObject {
	const states: readonly string[] = AUDIT_STATES[ext];
	return Type.Object(
		{
			v: Type.Literal(1),
			ext: Type.Literal(ext),
			event: enumSchema(AUDIT_EVENTS[ext]),
			mode: Type.Optional(enumSchema(AUDIT_MODES[ext])),
			...(states.length > 0 ? { state: Type.Optional(enumSchema(states)) } : {}),
			counters: Type.Optional(AuditCountersSchema),
			category: Type.Optional(enumSchema(AUDIT_CATEGORIES[ext])),
		},
		{ additionalProperties: false },
	);
}

/** The TypeBox schema of one extension's audit entries, keyed by extension. */
export const AUDIT_ENTRY_SCHEMAS: Readonly<Record<AuditExt, TObject>> = Object.freeze({
	"exploration-guard": auditEntrySchemaFor("exploration-guard"),
	"output-minimizer": auditEntrySchemaFor("output-minimizer"),
	"context-shunt": auditEntrySchemaFor("context-shunt"),
	"delegation-policy": auditEntrySchemaFor("delegation-policy"),
	"guardian-review": auditEntrySchemaFor("guardian-review"),
	"policy-report": auditEntrySchemaFor("policy-report"),
});

/** The TypeBox schema of {@link AuditEntryV1}: a union of the per-extension schemas. */
export const AuditEntryV1Schema: TSchema = Type.Union(AUDIT_EXTS.map((ext) => AUDIT_ENTRY_SCHEMAS[ext]));

/** True when `value` is one of {@link AUDIT_EXTS}. */
export function isAuditExt(value: unknown): value is AuditExt {
	return typeof value === "string" && (AUDIT_EXTS as readonly string[]).includes(value);
}

/**
 * Validates an audit entry. Rejects unknown keys, a wrong `v`, an `ext` outside {@link AUDIT_EXTS}, any
 * `event`, `mode`, `state` or `category` outside that extension's lists, and counters that are not
 * non-negative safe integers under camelCase keys (at most 32). The error names key paths only, never values.
 */
export function validateAuditEntry(value: unknown): Result<AuditEntryV1> {
	if (!isPlainObject(value)) return err("entry: expected object");
	const ext = Object.hasOwn(value, "ext") ? value.ext : undefined;
	if (ext === undefined) return err("ext: required");
	if (!isAuditExt(ext)) return err("ext: expected a known extension");
	const messages = describeSchemaErrors(AUDIT_ENTRY_SCHEMAS[ext], value, "entry");
	if (messages.length > 0) return err(messages.slice(0, 3).join("; "));
	return ok(value as unknown as AuditEntryV1);
}

/**
 * The audit entry inside `value`: either a bare entry, or a session entry
 * `{ type: "custom", customType: "pi-policy.audit", data }`. Returns `undefined` for a session entry of any
 * other kind (so it can be ignored rather than counted invalid); otherwise returns the candidate unvalidated.
 */
export function unwrapAuditEntry(value: unknown): { readonly candidate: unknown } | undefined {
	if (isPlainObject(value) && !Object.hasOwn(value, "v") && typeof value.type === "string") {
		if (value.type === "custom" && value.customType === AUDIT_ENTRY_TYPE) return { candidate: value.data };
		return undefined;
	}
	return { candidate: value };
}

/** Returns the valid audit entries found in `entries` (bare entries or session entries), in order. */
export function collectAuditEntries(entries: readonly unknown[]): AuditEntryV1[] {
	const found: AuditEntryV1[] = [];
	if (!Array.isArray(entries)) return found;
	for (const entry of entries) {
		const unwrapped = unwrapAuditEntry(entry);
		if (unwrapped === undefined) continue;
		const result = validateAuditEntry(unwrapped.candidate);
		if (result.ok) found.push(result.value);
	}
	return found;
}

/** Aggregates for one extension in an {@link AuditSummary}. Every record has only keys that occurred. */
export interface AuditExtSummary {
	/** Valid entries of this extension. */
	entries: number;
	/** Entries per event. */
	events: Record<string, number>;
	/** Entries per mode, for entries that carry one. */
	modes: Record<string, number>;
	/** Entries per state, for entries that carry one. */
	states: Record<string, number>;
	/** Entries per category, for entries that carry one. */
	categories: Record<string, number>;
	/** Entries per `event/category` pair, for entries that carry a category. */
	eventCategories: Record<string, number>;
	/** Sum of each counter over all entries (saturating at `Number.MAX_SAFE_INTEGER`). */
	counterSums: Record<string, number>;
	/** Largest value of each counter; useful when entries carry running totals. */
	counterMax: Record<string, number>;
}

/** The result of {@link summarizeAudit}. */
export interface AuditSummary {
	/** Inputs examined. */
	total: number;
	/** Valid audit entries counted. */
	valid: number;
	/** Audit entries skipped because they failed {@link validateAuditEntry}. */
	invalid: number;
	/** Session entries of another kind, skipped. */
	ignored: number;
	/** Valid entries per extension. */
	extCounts: Partial<Record<AuditExt, number>>;
	/** Aggregates per extension that had at least one valid entry. */
	byExt: Partial<Record<AuditExt, AuditExtSummary>>;
}

/** An empty {@link AuditSummary}, the starting point for {@link accumulateAudit}. */
export function emptyAuditSummary(): AuditSummary {
	return { total: 0, valid: 0, invalid: 0, ignored: 0, extCounts: {}, byExt: {} };
}

function emptyExtSummary(): AuditExtSummary {
	return {
		entries: 0,
		events: {},
		modes: {},
		states: {},
		categories: {},
		eventCategories: {},
		counterSums: {},
		counterMax: {},
	};
}

function bump(record: Record<string, number>, key: string, by = 1): void {
	const current = Object.hasOwn(record, key) ? (record[key] as number) : 0;
	Object.defineProperty(record, key, {
		value: Math.min(Number.MAX_SAFE_INTEGER, current + by),
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

function raise(record: Record<string, number>, key: string, value: number): void {
	if (!Object.hasOwn(record, key) || (record[key] as number) < value) {
		Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
	}
}

/**
 * Adds one input to `summary` (mutating and returning it): a bare audit entry or a session entry. Invalid
 * audit entries count as `invalid`, other session entries as `ignored`. Use it for incremental summaries;
 * {@link summarizeAudit} folds a whole list.
 */
export function accumulateAudit(summary: AuditSummary, input: unknown): AuditSummary {
	summary.total++;
	const unwrapped = unwrapAuditEntry(input);
	if (unwrapped === undefined) {
		summary.ignored++;
		return summary;
	}
	const result = validateAuditEntry(unwrapped.candidate);
	if (!result.ok) {
		summary.invalid++;
		return summary;
	}
	const entry = result.value;
	summary.valid++;
	summary.extCounts[entry.ext] = (summary.extCounts[entry.ext] ?? 0) + 1;
	let ext = summary.byExt[entry.ext];
	if (ext === undefined) {
		ext = emptyExtSummary();
		summary.byExt[entry.ext] = ext;
	}
	ext.entries++;
	bump(ext.events, entry.event);
	if (entry.mode !== undefined) bump(ext.modes, entry.mode);
	if (entry.state !== undefined) bump(ext.states, entry.state);
	if (entry.category !== undefined) {
		bump(ext.categories, entry.category);
		bump(ext.eventCategories, `${entry.event}/${entry.category}`);
	}
	if (entry.counters !== undefined) {
		for (const [key, value] of Object.entries(entry.counters)) {
			bump(ext.counterSums, key, value);
			raise(ext.counterMax, key, value);
		}
	}
	return summary;
}

/**
 * Aggregates audit entries: per extension, counts per event, mode, state, category and event/category
 * pair, counter sums and maxima; plus how many inputs were invalid (skipped) or other session entries
 * (ignored). Accepts bare entries and session entries; never throws. A non-array input gives an empty summary.
 */
export function summarizeAudit(entries: readonly unknown[]): AuditSummary {
	const summary = emptyAuditSummary();
	if (!Array.isArray(entries)) return summary;
	for (const entry of entries) accumulateAudit(summary, entry);
	return summary;
}

/** Default latency bucket upper bounds in milliseconds, for counters such as `latencyBucket`. */
export const LATENCY_BUCKETS_MS = [100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 180000] as const;

/**
 * The index of the first upper bound that `value` does not exceed, or `upperBounds.length` when it exceeds
 * them all; so bucket 0 holds values up to `upperBounds[0]`. Bounds must be ascending. A negative or
 * non-finite value gives 0, except positive infinity, which gives the last bucket.
 */
export function bucketIndex(value: number, upperBounds: readonly number[] = LATENCY_BUCKETS_MS): number {
	if (typeof value !== "number" || Number.isNaN(value)) return 0;
	for (let i = 0; i < upperBounds.length; i++) {
		if (value <= (upperBounds[i] as number)) return i;
	}
	return upperBounds.length;
}
