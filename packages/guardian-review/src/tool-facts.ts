// What Pi reports about a tool, for its review scope: whether it is one of Pi's built-in tools
// (`sourceInfo.path` is `builtin:<name>`) and its MCP-style annotations. Looked up in `pi.getAllTools()`, cached
// per name until the next prompt (MCP servers and extensions may register or re-register tools as a session runs;
// a name not seen yet is always looked up).
import type { ToolInfo } from "@earendil-works/pi-coding-agent";
import { BUILTIN_TOOL_NAMES, READ_ONLY_TOOL_ACTIONS, type ToolFacts } from "@pi-policy/policy-kernel/guardian";

const BUILTIN = new Set<string>(BUILTIN_TOOL_NAMES);
/** A tool Pi does not list (removed, or not registered yet): reviewed, as a tool that is not built in. */
const UNKNOWN_TOOL: ToolFacts = Object.freeze({ builtin: false });

/**
 * The package a tool's extension comes from, when it is one the kernel knows calls of
 * ({@link READ_ONLY_TOOL_ACTIONS}): a folder of that name on the extension's path, as an npm or git install and a
 * checkout all have (`…/node_modules/pi-subagents/index.ts`).
 */
function extensionPackageOf(path: unknown): string | undefined {
	if (typeof path !== "string" || path.startsWith("builtin:")) return undefined;
	const folders = path.split(/[\\/]/);
	return Object.keys(READ_ONLY_TOOL_ACTIONS).find((name) => folders.includes(name));
}

/** The facts of one registered tool. */
export function toolFactsOf(info: Pick<ToolInfo, "name" | "sourceInfo" | "annotations">): ToolFacts {
	const builtin = BUILTIN.has(info.name) && info.sourceInfo?.path === `builtin:${info.name}`;
	const hints = info.annotations;
	const extensionPackage = builtin ? undefined : extensionPackageOf(info.sourceInfo?.path);
	return {
		builtin,
		...(extensionPackage === undefined ? {} : { extensionPackage }),
		...(typeof hints?.readOnlyHint === "boolean" ? { readOnlyHint: hints.readOnlyHint } : {}),
		...(typeof hints?.destructiveHint === "boolean" ? { destructiveHint: hints.destructiveHint } : {}),
	};
}

/** A per-name cache over `allTools()`; `clear()` drops it (on each prompt and session start). */
export function createToolFactsLookup(allTools: () => readonly ToolInfo[]): {
	of(name: string): ToolFacts;
	clear(): void;
} {
	const cache = new Map<string, ToolFacts>();
	return {
		of(name) {
			const hit = cache.get(name);
			if (hit !== undefined) return hit;
			let facts = UNKNOWN_TOOL;
			try {
				const info = allTools().find((tool) => tool.name === name);
				if (info !== undefined) facts = toolFactsOf(info);
			} catch {
				facts = UNKNOWN_TOOL;
			}
			cache.set(name, facts);
			return facts;
		},
		clear() {
			cache.clear();
		},
	};
}
