// Shared by the floor's table tests: a decision as one short string, such as "allow:read-only" or "review:dynamic".
import {
	applyGuardianDefaults,
	decideBashFloor,
	type FloorContext,
	type FloorDecision,
	floorContextFor,
	floorFactRequestsOf,
	type GuardianReviewConfig,
	initialGuardianState,
	normalizeAbsolutePath,
	planToolCall,
	type SearchTreeVerdict,
	searchTreeKey,
	type ToolFacts,
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

/** The home folder and the workspace the review rounds' tables decide in. */
export const HOME = "/home/dev";
export const CWD = "/home/dev/project";

/** The shell's git facts of a clean repository whose top is {@link CWD}: safe config, no hook, nothing protected. */
export const CLEAN_GIT = {
	gitConfig: "safe",
	gitHooks: "none",
	gitHistoryProtected: [],
	gitContentSettings: [],
	gitTop: CWD,
} as const;

/** The default config's context in a clean repository at {@link CWD} on Linux (GNU tools). */
export const LINUX_CONTEXT: FloorContext = floorContextFor(
	applyGuardianDefaults({ mode: "enforce" }),
	CWD,
	HOME,
	CLEAN_GIT,
);
/** {@link LINUX_CONTEXT} as the shell reports macOS: a BSD userland, whose getopt ends options at the first operand. */
export const MACOS_CONTEXT: FloorContext = { ...LINUX_CONTEXT, bsdUserland: true, optionsEndAtOperand: true };
/** {@link LINUX_CONTEXT} under `POSIXLY_CORRECT`: GNU tools end options at the first operand. */
export const POSIXLY_CORRECT_CONTEXT: FloorContext = { ...LINUX_CONTEXT, optionsEndAtOperand: true };

/** The floor's decision for a bash `command` in `context`, every searched tree found clean, as a short string. */
export function bashOutcome(command: string, context: FloorContext): string {
	return outcome(decideBashFloor(command, "always", withCleanTrees(command, context)));
}

/** `context` where the shell found `existing` (paths relative to {@link CWD}) on disk, and `links` if given. */
export function withExistingFiles(
	context: FloorContext,
	existing: readonly string[],
	links?: ReadonlyMap<string, string>,
): FloorContext {
	return {
		...context,
		existingPaths: new Set(existing.map((path) => `${CWD}/${path}`)),
		...(links === undefined ? {} : { pathLinks: links }),
	};
}

/**
 * {@link bashOutcome} with the shell's link facts: every path the command asks about leads to itself, except the
 * ones `links` names (absolute path → where it leads).
 */
export function withLinks(command: string, context: FloorContext, links: Record<string, string> = {}): string {
	const requested = floorFactRequestsOf(command, context).linkPaths;
	const facts = new Map<string, string | null>(
		requested.map((path) => [path, links[path] ?? normalizeAbsolutePath(path)]),
	);
	return bashOutcome(command, { ...context, pathLinks: facts });
}

/** A built-in tool, and a tool that is not built in but annotated read-only, as Pi reports them. */
export const BUILTIN_TOOL: ToolFacts = { builtin: true };
export const READ_ONLY_TOOL: ToolFacts = { builtin: false, readOnlyHint: true };

/**
 * What the pipeline does with one call in enforce mode (the defaults unless `config`; Pi started in `cwd`, default
 * {@link CWD}): `allow`, `review` or `deny`.
 */
export function plannedOutcome(
	toolName: string,
	input: unknown,
	tool: ToolFacts,
	config: GuardianReviewConfig = applyGuardianDefaults({ mode: "enforce" }),
	cwd: string = CWD,
): string {
	const step = planToolCall(initialGuardianState(), {
		toolName,
		input,
		hash: `h-${toolName}-${JSON.stringify(input)}`,
		tool,
		config,
		mode: "enforce",
		floorContext: floorContextFor(config, cwd, HOME),
		now: 1_000,
		hasUI: false,
	});
	if (step.next.kind !== "done") return step.next.kind;
	return step.next.resolution.kind === "allow" ? "allow" : "deny";
}
