// Which of Pi's own protected folders a read may touch without review. Pi's project folders (`.pi/`, `.agents/`)
// are protected for writes: Pi loads them as code, settings and instructions at the next start or `/reload`. Most
// of what they hold is the project's own committed code and text (extensions, skills, prompt templates, themes,
// system-prompt files), which an agent reads to work on it; but `.pi/settings.json` and `.pi/mcp.json` may carry
// tokens (MCP `env` and `headers`), and the agent directory holds the provider keys. Pure.
//
// Besides those folders, Pi hands the model files to read wherever they live: each loaded skill's `SKILL.md` (the
// system prompt names its path; the model reads it, then the files it names, when a task matches) and the context
// files it loaded. Those reads need no review either (`readableLoadedResources`), which the agent directory's
// blanket protection would otherwise demand for every skill the user installed.

import { isRecord } from "../json.js";
import { PI_RESOURCE_PROTECTED_PATHS } from "./config.js";
import {
	baseName,
	createListKeyedCache,
	isWithin,
	isWritableWorkspacePath,
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

/**
 * What Pi loaded for the model to read, as the host reports it (`before_agent_start`'s `systemPromptOptions`): each
 * skill's file and folder, and the context files (`AGENTS.md` and the like) whose text is in the system prompt.
 */
export interface LoadedPiResources {
	readonly skills: readonly { readonly filePath: string; readonly baseDir: string }[];
	readonly contextFiles: readonly string[];
}

/** Where the model may read what Pi loaded for it; see {@link readableLoadedResources}. */
export interface ReadableLoadedResources {
	/** Folders of loaded skills (absolute, normalized): the skill's `SKILL.md` and every file below it. */
	readonly folders: readonly string[];
	/** Single files (absolute, normalized): a skill file that has no folder of its own, a loaded context file. */
	readonly files: readonly string[];
	/** The protected globs of Pi's own folders (`.pi/`, `.agents/`, the agent directory), which do not protect these. */
	readonly piFolderGlobs: readonly string[];
}

/** At most this many skill folders and files are taken from the host; the rest stay judged as usual. */
export const MAX_LOADED_PI_RESOURCES = 1024;

/**
 * The host's `systemPromptOptions` as {@link LoadedPiResources}: every skill with an absolute `filePath` and
 * `baseDir`, every context file with an absolute `path`; anything else is left out (so it stays judged as usual).
 * Never throws.
 */
export function loadedPiResourcesOf(systemPromptOptions: unknown): LoadedPiResources {
	const skills: { filePath: string; baseDir: string }[] = [];
	const contextFiles: string[] = [];
	if (!isRecord(systemPromptOptions)) return { skills, contextFiles };
	const absolute = (value: unknown): value is string => typeof value === "string" && value.startsWith("/");
	for (const skill of listOf(systemPromptOptions.skills)) {
		if (isRecord(skill) && absolute(skill.filePath) && absolute(skill.baseDir))
			skills.push({ filePath: skill.filePath, baseDir: skill.baseDir });
	}
	for (const file of listOf(systemPromptOptions.contextFiles)) {
		if (isRecord(file) && absolute(file.path)) contextFiles.push(file.path);
	}
	return { skills, contextFiles };
}

function listOf(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value.slice(0, MAX_LOADED_PI_RESOURCES) : [];
}

/**
 * Where a read of what Pi loaded needs no review. A skill whose file is `SKILL.md` inside its folder makes that
 * folder readable (its instructions name further files there: `references/`, `scripts/`); any other skill file, and
 * every context file, is readable alone. A folder that is `/`, the home directory or above it, the workspace or
 * above it, or the agent directory or above it is never taken whole (a `SKILL.md` there would open it): only its
 * file is. Paths are normalized; at most {@link MAX_LOADED_PI_RESOURCES} entries are taken.
 */
export function readableLoadedResources(
	loaded: LoadedPiResources,
	bounds: { readonly workspace: string; readonly home: string; readonly agentDir?: string },
): ReadableLoadedResources {
	const home = normalizeAbsolutePath(bounds.home);
	const workspace = normalizeAbsolutePath(bounds.workspace);
	const agentDir = bounds.agentDir?.startsWith("/") ? normalizeAbsolutePath(bounds.agentDir) : undefined;
	const folders = new Set<string>();
	const files = new Set<string>();
	const opensTooMuch = (folder: string) =>
		folder === "/" ||
		isWithin(folder, home) ||
		isWithin(folder, workspace) ||
		(agentDir !== undefined && isWithin(folder, agentDir));
	for (const skill of loaded.skills.slice(0, MAX_LOADED_PI_RESOURCES)) {
		const file = normalizeAbsolutePath(skill.filePath);
		const folder = normalizeAbsolutePath(skill.baseDir);
		const ownFolder = baseName(file).toLowerCase() === "skill.md" && file === `${folder}/${baseName(file)}`;
		if (ownFolder && !opensTooMuch(folder)) folders.add(folder);
		else files.add(file);
	}
	for (const file of loaded.contextFiles.slice(0, MAX_LOADED_PI_RESOURCES)) files.add(normalizeAbsolutePath(file));
	return {
		folders: [...folders],
		files: [...files],
		piFolderGlobs: agentDir === undefined ? PI_RESOURCE_PROTECTED_PATHS : [...PI_RESOURCE_PROTECTED_PATHS, agentDir],
	};
}

/** True when `path` (absolute, normalized) is one of the loaded files or lies in a loaded skill's folder. */
export function isLoadedResourcePath(path: string, resources: ReadableLoadedResources): boolean {
	return resources.files.includes(path) || resources.folders.some((folder) => isWithin(folder, path));
}

const readTests = createListKeyedCache<(path: string) => boolean>(64);
/** A small id per resources object, so the read-test cache tells two of them apart without hashing their lists. */
const resourceIds = new WeakMap<ReadableLoadedResources, number>();
/** The id given to each content seen (its lists as JSON), so equal resources rebuilt each prompt share one id. */
const contentIds = new Map<string, number>();
/** At most this many contents keep their ids; past it the map starts over (a later equal content gets a new id). */
const MAX_CONTENT_IDS = 64;
let nextResourceId = 1;

/**
 * A number naming the content of one {@link ReadableLoadedResources} (0 for none): the same for two objects with the
 * same lists (the shell builds a new one every prompt), different for different lists while both are remembered. A
 * cache of anything decided under it (the read test, a tree listing, the history listing) keys on it instead of on
 * its lists, and survives the prompts that load the same resources.
 */
export function loadedResourcesKey(resources: ReadableLoadedResources | undefined): number {
	if (resources === undefined) return 0;
	let id = resourceIds.get(resources);
	if (id === undefined) {
		const content = JSON.stringify([resources.folders, resources.files, resources.piFolderGlobs]);
		id = contentIds.get(content);
		if (id === undefined) {
			if (contentIds.size >= MAX_CONTENT_IDS) contentIds.clear();
			id = nextResourceId++;
			contentIds.set(content, id);
		}
		resourceIds.set(resources, id);
	}
	return id;
}

/** `protectedPathTest` over every glob of the context but `excluded`. */
function protectedTestWithout(context: PathContext, excluded: readonly string[]): (path: string) => boolean {
	return protectedPathTest({
		...context,
		protectedPaths: context.protectedPaths.filter((glob) => !excluded.includes(glob)),
	});
}

/**
 * The protected-path test for reads: {@link protectedPathTest}, except that a path protected only as one of Pi's
 * folders ({@link PI_RESOURCE_PROTECTED_PATHS}) is not protected when it is a {@link isReadablePiResource}, and a
 * path protected only as one of Pi's folders or the agent directory is not protected when Pi loaded it for the
 * model ({@link isLoadedResourcePath}, with `context.loadedResources`). A path that another glob protects
 * (`.pi/extensions/x/.env`, a skill folder's `.env` or `*.key`, a workspace folder on `PATH`) stays protected.
 * Writes keep the full test.
 */
export function protectedReadTest(context: PathContext): (path: string) => boolean {
	const loaded = context.loadedResources;
	const key = `${context.cwd}\u0000${context.home}\u0000${loadedResourcesKey(loaded)}`;
	return readTests(context.protectedPaths, key, () => {
		const all = protectedPathTest(context);
		const others = protectedTestWithout(context, PI_RESOURCE_PROTECTED_PATHS);
		const outsidePiFolders = loaded === undefined ? undefined : protectedTestWithout(context, loaded.piFolderGlobs);
		return (path) => {
			if (!all(path)) return false;
			if (isReadablePiResource(path) && !others(path)) return false;
			if (loaded !== undefined && outsidePiFolders !== undefined && isLoadedResourcePath(path, loaded))
				return outsidePiFolders(path);
			return true;
		};
	});
}

/**
 * True when a read of `path` (absolute, normalized; not protected) needs no review for where it lies: inside the
 * workspace (`workspace`, normalized) or an additional directory but not in home's own configuration (`~/.config`
 * with Pi started in home; see `isHomeConfigPath`), or among what Pi loaded for the model to read.
 */
export function isReadableLocation(path: string, workspace: string, context: PathContext): boolean {
	const home = normalizeAbsolutePath(context.home);
	if (isWritableWorkspacePath(path, workspace, home, context.additionalDirectories)) return true;
	return context.loadedResources !== undefined && isLoadedResourcePath(path, context.loadedResources);
}

/**
 * `classifyResolvedPath` for a path a tool only reads (Pi's `read`, `ls`, `find` and `grep`): a readable Pi
 * resource ({@link protectedReadTest}) is classified by where it lies, and what Pi loaded for the model counts as
 * the workspace ({@link isReadableLocation}).
 */
export function classifyResolvedReadPath(resolved: string, context: PathContext): PathClass {
	const workspace = normalizeAbsolutePath(context.cwd);
	const isProtected = protectedReadTest({
		cwd: workspace,
		home: normalizeAbsolutePath(context.home),
		protectedPaths: context.protectedPaths,
		...(context.loadedResources === undefined ? {} : { loadedResources: context.loadedResources }),
	});
	if (isProtected(resolved)) return "protected";
	return isReadableLocation(resolved, workspace, context) ? "workspace" : "outside";
}
