// Shared by the floor's table tests: a decision as one short string, such as "allow:read-only" or "review:dynamic".
import {
	type FloorContext,
	type FloorDecision,
	floorFactRequestsOf,
	type SearchTreeVerdict,
	searchTreeKey,
} from "../src/guardian/index.js";

/** `allow:<rule>`, `review:<reason>`, `deny:<rule>` or `out-of-scope`. */
export function outcome(decision: FloorDecision): string {
	if (decision.kind === "allow") return `allow:${decision.rule}`;
	if (decision.kind === "review") return `review:${decision.reason}`;
	if (decision.kind === "deny") return `deny:${decision.rule}`;
	return decision.kind;
}

/**
 * The context with the shell's tree facts filled in: every tree the command reads recursively gets `verdict`. With
 * `none`, what the shell reports in a repository with no secrets below the searched folders.
 */
export function withCleanTrees(
	command: string,
	context: FloorContext,
	verdict: SearchTreeVerdict = "none",
): FloorContext {
	const trees = floorFactRequestsOf(command, context).searchTrees;
	return { ...context, searchTrees: new Map(trees.map((tree) => [searchTreeKey(tree), verdict])) };
}
