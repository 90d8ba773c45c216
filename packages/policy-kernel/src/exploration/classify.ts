// The broad-exploration classifier: which read/grep/find/ls calls count as broad repository exploration.
import { isPlainObject } from "../config.js";
import { EXPLORATION_CATEGORIES, type ExplorationCategory } from "./vocabulary.js";

export { EXPLORATION_CATEGORIES, type ExplorationCategory } from "./vocabulary.js";

/** Why a considered call is not counted. */
export const EXPLORATION_EXEMPTIONS = [
	"small-read",
	"excluded-path",
	"narrow-scope",
	"narrow-limit",
	"outside-cwd",
	"invalid-input",
	"shallow-listing",
] as const;

/** One of {@link EXPLORATION_EXEMPTIONS}. */
export type ExplorationExemption = (typeof EXPLORATION_EXEMPTIONS)[number];

/**
 * The classification of one tool call: `ignored` (not read/grep/find/ls: never counted, never blocked),
 * `exempt` (considered but not counted, with the reason) or `broad` (counted).
 */
export type BroadExplorationClassification =
	| { readonly kind: "ignored" }
	| { readonly kind: "exempt"; readonly category: ExplorationCategory; readonly exemption: ExplorationExemption }
	| { readonly kind: "broad"; readonly category: ExplorationCategory };

/** A tool call as the `tool_call` event carries it. */
export interface ExplorationToolCall {
	readonly toolName: unknown;
	readonly input: unknown;
}

/** Pi's built-in result limits in 1.6.0: a grep, find or ls limit below these is explicitly narrower. */
export const DEFAULT_RESULT_LIMITS: Readonly<Record<"grep" | "find" | "ls", number>> = Object.freeze({
	grep: 100,
	find: 1000,
	ls: 500,
});

/** File names whose reads are never counted: agent instructions, package manifests and lockfiles. */
export const EXCLUDED_FILE_NAMES: readonly string[] = Object.freeze([
	"SKILL.md",
	"AGENTS.md",
	"CLAUDE.md",
	"package.json",
	"package-lock.json",
	"npm-shrinkwrap.json",
	"pnpm-lock.yaml",
	"pnpm-workspace.yaml",
	"yarn.lock",
	"bun.lock",
	"bun.lockb",
	"deno.json",
	"deno.jsonc",
	"deno.lock",
	"Cargo.toml",
	"Cargo.lock",
	"go.mod",
	"go.sum",
	"pyproject.toml",
	"poetry.lock",
	"uv.lock",
	"Pipfile",
	"Pipfile.lock",
	"requirements.txt",
	"Gemfile",
	"Gemfile.lock",
	"composer.json",
	"composer.lock",
	"pom.xml",
	"build.gradle",
	"build.gradle.kts",
	"mix.exs",
	"mix.lock",
	"pubspec.yaml",
	"pubspec.lock",
	"Package.swift",
	"Package.resolved",
]);

/** Directories whose contents are never counted when read: docs and agent/tool metadata and build output. */
export const EXCLUDED_DIRECTORIES: readonly string[] = Object.freeze([
	"docs",
	".pi",
	".pi-subagents",
	"node_modules",
	"dist",
]);

const CATEGORY_SET: ReadonlySet<string> = new Set(EXPLORATION_CATEGORIES);
const EXCLUDED_FILE_SET: ReadonlySet<string> = new Set(EXCLUDED_FILE_NAMES);
const EXCLUDED_DIRECTORY_SET: ReadonlySet<string> = new Set(EXCLUDED_DIRECTORIES);

/** Where a path lies relative to the cwd. */
type Scope =
	| { readonly kind: "cwd" }
	| { readonly kind: "ancestor" }
	| { readonly kind: "inside"; readonly relative: readonly string[] }
	| { readonly kind: "outside"; readonly segments: readonly string[] };

interface NormalisedPath {
	readonly absolute: boolean;
	readonly segments: string[];
}

const DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;

function isWindowsStyle(path: string): boolean {
	return DRIVE.test(path) || path.startsWith("\\\\");
}

/** Splits a path into segments, resolving `.` and `..`; `..` above the root stays at the root. */
function normalise(path: string, windows: boolean): NormalisedPath {
	const text = windows ? path.replace(/\\/g, "/") : path;
	const absolute = text.startsWith("/") || (windows && DRIVE.test(text));
	const segments: string[] = [];
	for (const raw of text.split("/")) {
		const part = windows ? raw.toLowerCase() : raw;
		if (part === "" || part === ".") continue;
		if (part === "..") {
			if (segments.length > 0 && segments[segments.length - 1] !== "..") segments.pop();
			else if (!absolute) segments.push("..");
			continue;
		}
		segments.push(part);
	}
	return { absolute, segments };
}

function startsWith(longer: readonly string[], prefix: readonly string[]): boolean {
	if (prefix.length > longer.length) return false;
	for (let i = 0; i < prefix.length; i++) if (longer[i] !== prefix[i]) return false;
	return true;
}

/**
 * Locates `path` relative to `cwd`, the way Pi resolves tool paths: a leading `@` is dropped, a relative
 * path is joined to the cwd, `.` and `..` are resolved. A `~` path is treated as outside the cwd (the home
 * directory is not known to a pure function).
 */
function locate(path: string, cwd: string): Scope {
	let text = path.trim();
	if (text.startsWith("@")) text = text.slice(1);
	if (text === "") return { kind: "cwd" };
	if (text === "~" || text.startsWith("~/") || text.startsWith("~\\")) {
		return { kind: "outside", segments: normalise(text.slice(1), false).segments };
	}
	const windows = isWindowsStyle(cwd) || isWindowsStyle(text);
	const base = normalise(typeof cwd === "string" ? cwd : "", windows);
	const target = normalise(text, windows);
	const joined = `${base.absolute ? "/" : ""}${base.segments.join("/")}/${text}`;
	const segments = target.absolute ? target.segments : normalise(joined, windows).segments;
	const cwdSegments = base.segments;
	if (!target.absolute && !base.absolute) {
		// No usable cwd: only relative scopes can be compared.
		const relative = target.segments;
		if (relative.length === 0) return { kind: "cwd" };
		if (relative[0] === "..") return { kind: "ancestor" };
		return { kind: "inside", relative };
	}
	if (segments.length === cwdSegments.length && startsWith(segments, cwdSegments)) return { kind: "cwd" };
	if (startsWith(cwdSegments, segments)) return { kind: "ancestor" };
	if (startsWith(segments, cwdSegments)) return { kind: "inside", relative: segments.slice(cwdSegments.length) };
	return { kind: "outside", segments };
}

function isExcludedRead(segments: readonly string[]): boolean {
	const name = segments[segments.length - 1];
	if (name === undefined) return false;
	if (EXCLUDED_FILE_SET.has(name)) return true;
	for (let i = 0; i < segments.length - 1; i++) {
		if (EXCLUDED_DIRECTORY_SET.has(segments[i] as string)) return true;
	}
	// Case-insensitive file systems: compare the instruction files without case too.
	const upper = name.toUpperCase();
	return upper === "SKILL.MD" || upper === "AGENTS.MD" || upper === "CLAUDE.MD";
}

/**
 * Where `path` lies relative to `cwd`, as the classifier sees it: `cwd` (also an empty path), `ancestor`,
 * `inside` (strictly within the cwd) or `outside`. Pure; never throws for string input.
 */
export function explorationPathScope(path: string, cwd: string): "cwd" | "ancestor" | "inside" | "outside" {
	return locate(path, cwd).kind;
}

/**
 * True when reading `path` is never counted: SKILL.md, AGENTS.md, CLAUDE.md, a package manifest or lockfile,
 * or a file under docs/, .pi/, .pi-subagents/, node_modules/ or dist/ (relative to the cwd when inside it).
 */
export function isExcludedExplorationRead(path: string, cwd: string): boolean {
	const scope = locate(path, cwd);
	const segments =
		scope.kind === "inside" ? scope.relative : scope.kind === "outside" ? scope.segments : ([] as string[]);
	return isExcludedRead(segments);
}

function ownValue(input: Record<string, unknown>, key: string): unknown {
	return Object.hasOwn(input, key) ? input[key] : undefined;
}

function classifyRead(input: Record<string, unknown>, cwd: string, smallReadMaxLines: number) {
	const path = ownValue(input, "path");
	if (typeof path !== "string" || path.trim() === "") return "invalid-input" as const;
	const scope = locate(path, cwd);
	const segments =
		scope.kind === "inside" ? scope.relative : scope.kind === "outside" ? scope.segments : ([] as string[]);
	if (isExcludedRead(segments)) return "excluded-path" as const;
	const limit = ownValue(input, "limit");
	const maxLines = Number.isFinite(smallReadMaxLines) ? smallReadMaxLines : 0;
	if (typeof limit === "number" && Number.isFinite(limit) && limit > 0 && limit <= maxLines) {
		return "small-read" as const;
	}
	return "broad" as const;
}

function classifySearch(input: Record<string, unknown>, tool: "grep" | "find" | "ls", cwd: string) {
	const path = ownValue(input, "path");
	if (path !== undefined && typeof path !== "string") return "invalid-input" as const;
	const scope = path === undefined ? ({ kind: "cwd" } as const) : locate(path, cwd);
	if (scope.kind === "inside") return "narrow-scope" as const;
	if (scope.kind === "outside") return "outside-cwd" as const;
	const limit = ownValue(input, "limit");
	if (limit === undefined) return "broad" as const;
	if (typeof limit !== "number" || Number.isNaN(limit)) return "invalid-input" as const;
	return limit < DEFAULT_RESULT_LIMITS[tool] ? ("narrow-limit" as const) : ("broad" as const);
}

/**
 * Classifies one tool call as broad repository exploration, or not.
 *
 * - Only `read`, `grep`, `find` and `ls` are considered; every other tool (bash, edit, write, subagent, custom
 *   tools) is `ignored`.
 * - A `read` is exempt when its path is non-empty and `limit` is between 1 and `smallReadMaxLines`
 *   (`small-read`), or when it names SKILL.md, AGENTS.md, CLAUDE.md, a package manifest or lockfile, or a file
 *   under docs/, .pi/, .pi-subagents/, node_modules/ or dist/ (`excluded-path`). Any other read is broad.
 * - A `grep`, `find` or `ls` is broad when its path is omitted, empty, `"."`, the cwd or an ancestor of it, and
 *   its `limit` is omitted or at least Pi's default (grep 100, find 1000, ls 500). A path inside the cwd is
 *   `narrow-scope`, a path elsewhere `outside-cwd`, a smaller limit `narrow-limit`.
 * - Malformed input is `invalid-input` (not counted; the host rejects it anyway).
 *
 * Pure and total: never throws, whatever `call`, `cwd` and `smallReadMaxLines` hold.
 */
export function classifyBroadExplorationCall(
	call: ExplorationToolCall,
	cwd: string,
	smallReadMaxLines: number,
): BroadExplorationClassification {
	try {
		if (typeof call !== "object" || call === null) return { kind: "ignored" };
		const toolName = call.toolName;
		if (typeof toolName !== "string" || !CATEGORY_SET.has(toolName)) return { kind: "ignored" };
		const category = toolName as ExplorationCategory;
		const input = call.input;
		if (!isPlainObject(input)) return { kind: "exempt", category, exemption: "invalid-input" };
		const base = typeof cwd === "string" ? cwd : "";
		const outcome =
			category === "read"
				? classifyRead(input, base, typeof smallReadMaxLines === "number" ? smallReadMaxLines : 0)
				: classifySearch(input, category, base);
		if (outcome === "broad") return { kind: "broad", category };
		return { kind: "exempt", category, exemption: outcome };
	} catch {
		const name = (() => {
			try {
				return typeof call?.toolName === "string" && CATEGORY_SET.has(call.toolName)
					? (call.toolName as ExplorationCategory)
					: undefined;
			} catch {
				return undefined;
			}
		})();
		return name === undefined ? { kind: "ignored" } : { kind: "exempt", category: name, exemption: "invalid-input" };
	}
}

/** Whether a call to the delegation tool starts (or feeds) child work, or only manages it. */
export type DelegationCallKind = "launch" | "management";

/** `subagent` actions that start or feed child work (pi-subagents 0.67.0); every other action is management. */
export const LAUNCHING_DELEGATION_ACTIONS: readonly string[] = Object.freeze([
	"resume",
	"steer",
	"schedule.create",
	"schedule.run",
	"schedule.run-due",
]);

const LAUNCH_TARGET_KEYS = ["agent", "workflowScript", "workflowScriptPath", "workflow"] as const;

/**
 * Classifies a call of the delegation tool (pi-subagents' `subagent`): a `launch` has no `action` and a
 * non-empty `agent`, `workflowScript`, `workflowScriptPath` or `workflow`, or an action that starts or feeds
 * child work ({@link LAUNCHING_DELEGATION_ACTIONS}, such as `resume`). Everything else, such as `list` or
 * `status`, is `management`. Never throws.
 */
export function classifyDelegationCall(input: unknown): DelegationCallKind {
	try {
		if (!isPlainObject(input)) return "management";
		const action = ownValue(input, "action");
		if (action !== undefined) {
			return typeof action === "string" && LAUNCHING_DELEGATION_ACTIONS.includes(action) ? "launch" : "management";
		}
		for (const key of LAUNCH_TARGET_KEYS) {
			const value = ownValue(input, key);
			if (typeof value === "string" && value.trim() !== "") return "launch";
		}
		return "management";
	} catch {
		return "management";
	}
}
