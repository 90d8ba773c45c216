// context-shunt error codes: bounded, fixed texts with no path, content or secret.

/** Every error code of `context_shunt_recover` and `context_shunt_delegate`. */
export const SHUNT_ERROR_CODES = [
	"invalid-request",
	"evidence-expired",
	"invalid-answer",
	"output-unavailable",
	"reader-unavailable",
	"reader-busy",
	"reader-cancelled",
	"reader-timed-out",
	"reader-failed",
] as const;

/** One of {@link SHUNT_ERROR_CODES}. */
export type ShuntErrorCode = (typeof SHUNT_ERROR_CODES)[number];

/** The fixed meaning of each code. */
export const SHUNT_ERROR_MEANINGS: Readonly<Record<ShuntErrorCode, string>> = Object.freeze({
	"invalid-request": "the input is missing, empty, over a cap, or uses a level the model does not support",
	"evidence-expired": "the preserved source is gone",
	"invalid-answer": "the answer failed the contract",
	"output-unavailable": "the call is not authorized, or the validated answer cannot be preserved",
	"reader-unavailable": "no reader model, or the model is not available",
	"reader-busy": "another call is in flight",
	"reader-cancelled": "revoked by a branch change, by off or reset, or by shutdown",
	"reader-timed-out": "the call used its whole local time budget",
	"reader-failed": "the model call failed",
});

/** An error with a code and an optional fixed detail chosen by kernel code (never from input). */
export interface ShuntError {
	readonly code: ShuntErrorCode;
	readonly detail?: string;
}

/** True when `value` is one of {@link SHUNT_ERROR_CODES}. */
export function isShuntErrorCode(value: unknown): value is ShuntErrorCode {
	return typeof value === "string" && (SHUNT_ERROR_CODES as readonly string[]).includes(value);
}

/** Builds a {@link ShuntError}. */
export function shuntError(code: ShuntErrorCode, detail?: string): ShuntError {
	return detail === undefined ? { code } : { code, detail };
}

/**
 * The text a tool returns for an error: `"<tool> failed: <code>: <meaning>[ (<detail>)]."`. The tool name and
 * detail come from code; no input is echoed.
 */
export function formatShuntError(tool: "context_shunt_recover" | "context_shunt_delegate", error: ShuntError): string {
	const code = isShuntErrorCode(error?.code) ? error.code : "invalid-request";
	const detail = typeof error?.detail === "string" && error.detail.length > 0 ? ` (${error.detail})` : "";
	return `${tool} failed: ${code}: ${SHUNT_ERROR_MEANINGS[code]}${detail}.`;
}
