// context-shunt limit checks: the line convention of tool output, and lines/bytes against the limits.
import { countContentLines, utf8ByteLength } from "../text.js";
import type { ShuntLimits } from "./config.js";

/**
 * Lines of tool output as a reader counts them (text's `countContentLines`): a 350-line file that ends with a
 * newline is 350 lines, where the kernel's `countLines` would say 351.
 */
export { countContentLines };

/** Which pair of limits applies: `full` for a read without offset, `targeted` for everything else. */
export type LimitScope = "full" | "targeted";

/** The line and byte limit of one scope. */
export interface ScopeLimits {
	readonly maxLines: number;
	readonly maxBytes: number;
}

/** The limits of `scope`. */
export function limitsForScope(limits: ShuntLimits, scope: LimitScope): ScopeLimits {
	return scope === "full"
		? { maxLines: limits.fullReadLines, maxBytes: limits.fullReadBytes }
		: { maxLines: limits.targetedReadLines, maxBytes: limits.targetedReadBytes };
}

/** The outcome of {@link checkResultLimits}. */
export interface LimitCheck {
	/** True when the lines or the bytes are over their limit. */
	readonly over: boolean;
	/** The lines compared: the declared range when there is one, else the returned lines. */
	readonly lines: number;
	/** UTF-8 bytes of the returned text. */
	readonly bytes: number;
	/** {@link countContentLines} of the returned text. */
	readonly returnedLines: number;
	/** Which limit was exceeded. */
	readonly exceeded: "lines" | "bytes" | "both" | undefined;
}

/**
 * Checks a returned text against `limits`. The line limit applies to `declaredLines` (the declared range,
 * such as a read's `limit`) when given, otherwise to the returned lines; the byte limit always applies to the
 * real returned text. A value equal to its limit is within it.
 */
export function checkResultLimits(text: string, limits: ScopeLimits, declaredLines?: number): LimitCheck {
	const bytes = utf8ByteLength(text);
	const returnedLines = countContentLines(text);
	const lines =
		typeof declaredLines === "number" && Number.isInteger(declaredLines) && declaredLines >= 0
			? declaredLines
			: returnedLines;
	const overLines = lines > limits.maxLines;
	const overBytes = bytes > limits.maxBytes;
	return {
		over: overLines || overBytes,
		lines,
		bytes,
		returnedLines,
		exceeded: overLines && overBytes ? "both" : overLines ? "lines" : overBytes ? "bytes" : undefined,
	};
}
