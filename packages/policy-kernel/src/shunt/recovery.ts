// context-shunt recovery: validation of one bounded line or byte range, and slicing it from a snapshot.
import { isPlainObject } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { sliceBytes, sliceLines, utf8ByteLength } from "../text.js";
import { type ShuntError, shuntError } from "./codes.js";
import { ARTIFACT_ID_PATTERN, RECOVERY_MAX_LINES } from "./constants.js";
import { countContentLines } from "./limits.js";

/** A validated recovery request: exactly one range. */
export type RecoverRequest =
	| { readonly artifactId: string; readonly mode: "lines"; readonly lineOffset: number; readonly lineLimit: number }
	| { readonly artifactId: string; readonly mode: "bytes"; readonly byteOffset: number; readonly maxBytes: number };

const RECOVER_KEYS = new Set(["artifactId", "lineOffset", "lineLimit", "byteOffset", "maxBytes"]);

function integerIn(value: unknown, min: number, max: number): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Validates `context_shunt_recover` input. `artifactId` must look like an artifact id. A line range
 * (`lineOffset` ≥ 1, default 1; `lineLimit` 1..250, default 250) and a byte range (`byteOffset` ≥ 0, default 0;
 * `maxBytes` 1..`maxRangeBytes`, default `maxRangeBytes`) cannot be mixed; with neither, the first 250 lines.
 * Errors are `invalid-request` with a fixed detail. Never throws.
 */
export function validateRecoverInput(input: unknown, maxRangeBytes: number): Result<RecoverRequest, ShuntError> {
	if (!isPlainObject(input)) return err(shuntError("invalid-request", "expected an object"));
	if (Object.keys(input).some((key) => !RECOVER_KEYS.has(key))) {
		return err(shuntError("invalid-request", "unknown key"));
	}
	const { artifactId, lineOffset, lineLimit, byteOffset, maxBytes } = input;
	if (typeof artifactId !== "string" || !ARTIFACT_ID_PATTERN.test(artifactId)) {
		return err(shuntError("invalid-request", "malformed artifactId"));
	}
	const wantsLines = lineOffset !== undefined || lineLimit !== undefined;
	const wantsBytes = byteOffset !== undefined || maxBytes !== undefined;
	if (wantsLines && wantsBytes) return err(shuntError("invalid-request", "use either a line range or a byte range"));
	if (wantsBytes) {
		if (byteOffset !== undefined && !integerIn(byteOffset, 0, Number.MAX_SAFE_INTEGER)) {
			return err(shuntError("invalid-request", "byteOffset: expected integer of at least 0"));
		}
		if (maxBytes !== undefined && !integerIn(maxBytes, 1, maxRangeBytes)) {
			return err(shuntError("invalid-request", `maxBytes: expected integer between 1 and ${maxRangeBytes}`));
		}
		return ok({ artifactId, mode: "bytes", byteOffset: byteOffset ?? 0, maxBytes: maxBytes ?? maxRangeBytes });
	}
	if (lineOffset !== undefined && !integerIn(lineOffset, 1, Number.MAX_SAFE_INTEGER)) {
		return err(shuntError("invalid-request", "lineOffset: expected integer of at least 1"));
	}
	if (lineLimit !== undefined && !integerIn(lineLimit, 1, RECOVERY_MAX_LINES)) {
		return err(shuntError("invalid-request", `lineLimit: expected integer between 1 and ${RECOVERY_MAX_LINES}`));
	}
	return ok({ artifactId, mode: "lines", lineOffset: lineOffset ?? 1, lineLimit: lineLimit ?? RECOVERY_MAX_LINES });
}

/** One recovered range: `text` is an exact substring of the snapshot. */
export interface RecoveredRange {
	readonly text: string;
	readonly mode: "lines" | "bytes";
	/** Lines covered (1-indexed, inclusive) for a line range. */
	readonly startLine?: number;
	readonly endLine?: number;
	/** UTF-8 byte range covered, `[byteStart, byteEnd)`. */
	readonly byteStart: number;
	readonly byteEnd: number;
	readonly totalLines: number;
	readonly totalBytes: number;
	/** True when a line range stopped early at the byte cap. */
	readonly cutByBytes: boolean;
}

/**
 * Slices one range from `snapshot`. A line range returns whole lines with their terminators, and stops early at
 * the last whole line that keeps the range within `maxRangeBytes`; a first line over that cap is an
 * `invalid-request` (use a byte range). A byte range snaps inward to code point boundaries. A start past the
 * end is an `invalid-request`. Lines follow {@link countContentLines}. Never throws.
 */
export function sliceRecoveredRange(
	snapshot: string,
	request: RecoverRequest,
	maxRangeBytes: number,
): Result<RecoveredRange, ShuntError> {
	const totalLines = countContentLines(snapshot);
	const totalBytes = utf8ByteLength(snapshot);
	if (request.mode === "bytes") {
		if (request.byteOffset >= totalBytes && !(totalBytes === 0 && request.byteOffset === 0)) {
			return err(shuntError("invalid-request", "byteOffset is past the end"));
		}
		const size = Math.min(request.maxBytes, maxRangeBytes);
		const slice = sliceBytes(snapshot, request.byteOffset, request.byteOffset + size);
		return ok({
			text: slice.text,
			mode: "bytes",
			byteStart: slice.start,
			byteEnd: slice.end,
			totalLines,
			totalBytes,
			cutByBytes: false,
		});
	}
	if (request.lineOffset > totalLines) return err(shuntError("invalid-request", "lineOffset is past the end"));
	const last = Math.min(totalLines, request.lineOffset + Math.min(request.lineLimit, RECOVERY_MAX_LINES) - 1);
	const before = sliceLines(snapshot, 1, request.lineOffset - 1).text;
	const byteStart = utf8ByteLength(before);
	let end = last;
	let slice = sliceLines(snapshot, request.lineOffset, end);
	let bytes = utf8ByteLength(slice.text);
	if (bytes > maxRangeBytes) {
		// Keep whole lines while the range stays within the cap.
		let text = "";
		bytes = 0;
		end = request.lineOffset - 1;
		for (const match of slice.text.matchAll(/[^\r\n]*(?:\r\n|\r|\n)?/g)) {
			const next = match[0];
			if (next.length === 0) break;
			const size = utf8ByteLength(next);
			if (bytes + size > maxRangeBytes) break;
			text += next;
			bytes += size;
			end++;
		}
		if (end < request.lineOffset) {
			return err(shuntError("invalid-request", "the line is over the byte cap; use byteOffset and maxBytes"));
		}
		slice = { text, startLine: request.lineOffset, endLine: end, totalLines };
	}
	return ok({
		text: slice.text,
		mode: "lines",
		startLine: request.lineOffset,
		endLine: end,
		byteStart,
		byteEnd: byteStart + bytes,
		totalLines,
		totalBytes,
		cutByBytes: end < last,
	});
}
