// Which of Pi's own protected folders a read may touch without review. Pi's project folders (`.pi/`, `.agents/`)
// are protected for writes: Pi loads them as code, settings and instructions at the next start or `/reload`. Most
// of what they hold is the project's own committed code and text (extensions, skills, prompt templates, themes,
// system-prompt files), which an agent reads to work on it; but `.pi/settings.json` and `.pi/mcp.json` may carry
// tokens (MCP `env` and `headers`), and the agent directory holds the provider keys. Pure.

import { PI_RESOURCE_PROTECTED_PATHS } from "./config.js";
import {
	createListKeyedCache,
	isInWorkspace,
	normalizeAbsolutePath,
	type PathClass,
	type PathContext,
	protectedPathTest,
} from "./paths.js";

/**
 * The entries of a Pi folder a read may touch, by folder name (lower case): the resources Pi's `docs/security.md`
 * lists as protected by project trust, less `.pi/settings.json` and `.pi/mcp.json`, which may hold credentials.
 * Pi's agent directory (`~/.pi/agent`) is not among them: below `.pi` its entry is `agent`.
 */
export const PI_READABLE_RESOURCES: Readonly<Record<string, readonly string[]>> = Object.freeze({
	".pi": Object.freeze(["extensions", "skills", "prompts", "themes", "system.md", "append_system.md"]),
	".agents": Object.freeze(["skills"]),
});

/**
 * True when `path` (absolute, normalized) lies in a Pi folder and every Pi folder on it (`.pi`, `.agents`, compared
 * without regard to case) is followed by one of its {@link PI_READABLE_RESOURCES}: `.pi/extensions/x.ts`,
 * `.pi/SYSTEM.md`, `.agents/skills/deploy/SKILL.md`. False for the folder itself (`.pi`), `.pi/settings.json`,
 * `.pi/mcp.json`, an entry Pi does not name and anything in the agent directory.
 */
export function isReadablePiResource(path: string): boolean {
	const parts = path.split("/");
	let inPiFolder = false;
	for (let i = 0; i < parts.length; i++) {
		const readable = PI_READABLE_RESOURCES[(parts[i] as string).toLowerCase()];
		if (readable === undefined) continue;
		const next = parts[i + 1]?.toLowerCase();
		if (next === undefined || !readable.includes(next)) return false;
		inPiFolder = true;
	}
	return inPiFolder;
}

const readTests = createListKeyedCache<(path: string) => boolean>(64);

/**
 * The protected-path test for reads: {@link protectedPathTest}, except that a path protected only as one of Pi's
 * folders ({@link PI_RESOURCE_PROTECTED_PATHS}) is not protected when it is a {@link isReadablePiResource}. A path
 * that another glob protects (`.pi/extensions/x/.env`, the agent directory, a workspace folder on `PATH`) stays
 * protected. Writes keep the full test.
 */
export function protectedReadTest(context: PathContext): (path: string) => boolean {
	return readTests(context.protectedPaths, `${context.cwd}\u0000${context.home}`, () => {
		const all = protectedPathTest(context);
		const others = protectedPathTest({
			...context,
			protectedPaths: context.protectedPaths.filter(
				(glob) => !(PI_RESOURCE_PROTECTED_PATHS as readonly string[]).includes(glob),
			),
		});
		return (path) => all(path) && !(isReadablePiResource(path) && !others(path));
	});
}

/**
 * `classifyResolvedPath` for a path a tool only reads (Pi's `read`, `ls`, `find` and `grep`): a readable Pi
 * resource ({@link protectedReadTest}) is classified by where it lies.
 */
export function classifyResolvedReadPath(resolved: string, context: PathContext): PathClass {
	const workspace = normalizeAbsolutePath(context.cwd);
	const isProtected = protectedReadTest({
		cwd: workspace,
		home: normalizeAbsolutePath(context.home),
		protectedPaths: context.protectedPaths,
	});
	if (isProtected(resolved)) return "protected";
	return isInWorkspace(resolved, workspace, context.additionalDirectories) ? "workspace" : "outside";
}
