// context-shunt pre-call block wording: what the model reads when an oversized declared range is blocked.

import type { DeclaredRange } from "./admission.js";
import type { ShuntLimits } from "./config.js";

/**
 * The reason of a pre-call block: the tool, the declared lines against the limit of its scope, the narrower ranges
 * that would pass, and the one-time token only the user can grant with `/context-shunt allow`. Counts, the tool
 * name and the token only; never the path or the command.
 */
export function formatPreCallBlockReason(input: {
	readonly range: DeclaredRange & { readonly lines: number };
	readonly maxLines: number;
	readonly limits: ShuntLimits;
	readonly token: string;
}): string {
	const { range, limits } = input;
	const scope = range.scope === "full" ? "a read from the start" : "a read with an offset";
	return (
		`context-shunt blocked this ${range.tool} before it ran: it declares ${range.lines} lines, over the ` +
		`${input.maxLines}-line limit for ${scope}. Request a narrower range ` +
		`(at most ${limits.fullReadLines} lines from the start, or ${limits.targetedReadLines} ` +
		`lines with an offset). Only the user can grant this exact call once: ask them to run ` +
		`/context-shunt allow ${input.token} <maxLines> <maxBytes>, then repeat the identical call within one minute.`
	);
}
