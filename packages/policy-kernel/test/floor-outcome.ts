// Shared by the floor's table tests: a decision as one short string, such as "allow:read-only" or "review:dynamic".
import type { FloorDecision } from "../src/guardian/index.js";

/** `allow:<rule>`, `review:<reason>`, `deny:<rule>` or `out-of-scope`. */
export function outcome(decision: FloorDecision): string {
	if (decision.kind === "allow") return `allow:${decision.rule}`;
	if (decision.kind === "review") return `review:${decision.reason}`;
	if (decision.kind === "deny") return `deny:${decision.rule}`;
	return decision.kind;
}
