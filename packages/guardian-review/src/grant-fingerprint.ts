// The fingerprint `/guardian allow-once` keeps with a grant: the grant is used only while it still matches, whatever
// changed the files (work a call left running in the background, work started while guardian was off, another
// program). Bounded, never throws. It covers:
// - the whole workspace: every entry's identity, size, change times and mode (by lstat, and through a link by stat
//   of what it points at), `.git/objects` included (git does not check a loose object's hash when it reads one),
//   and the folders outside that workspace links point at, so whatever a command reads there on its own (a
//   script's imports, `package.json` for `npm test`, a Makefile, a joined `-fbuild.mk`) is in it;
// - the paths outside the workspace the action names: each word of a bash command, with quotes and backslashes
//   removed, or another tool's one-line strings at any depth, whole and by word; `~/…` and `$HOME/…` under home;
//   relative words under the workspace and under the outside folders the action names.
// A workspace with more entries than the bound, or an action naming more paths than it, cannot be covered: the
// fingerprint then says so (`fingerprintCovers`), and no grant is made for it.
import { createHash, randomUUID } from "node:crypto";
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { bashCommandArgument, isWithin, MAX_TOOL_ARGUMENT_DEPTH } from "@pi-policy/policy-kernel/guardian";

/** At most this many workspace entries are looked at; a larger workspace cannot be covered. */
export const MAX_FINGERPRINT_WORKSPACE_ENTRIES = 200_000;
/** At most this many named paths outside the workspace are looked at; an action naming more cannot be covered. */
export const MAX_FINGERPRINT_NAMED_PATHS = 256;
const MAX_WORD_CHARS = 4096;
const UNCOVERED = "uncovered:";

/** What a fingerprint could not cover: a workspace over the bound, or an action naming too much outside it. */
export type FingerprintGap = "workspace" | "named";
const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;

/** Whether a fingerprint covers its action: false when the workspace or the action was too large to look at. */
export function fingerprintCovers(fingerprint: string): boolean {
	return !fingerprint.startsWith(UNCOVERED);
}

/** What a fingerprint could not cover, if anything. */
export function fingerprintGap(fingerprint: string): FingerprintGap | undefined {
	if (fingerprint.startsWith(`${UNCOVERED}workspace:`)) return "workspace";
	return fingerprintCovers(fingerprint) ? undefined : "named";
}

/**
 * The words of an action that may name files: each word of a bash command (quotes and backslashes removed, and as
 * written); for another tool every one-line string at any depth (a command string, an `args` list, a nested option),
 * whole and split into words as bash would split it, a `file:` URL also as its path (a sixty-fifth review: only
 * top-level strings were looked at). Multi-line strings of another tool (a file's new content) are not. Undefined when
 * the input is nested deeper than the kernel reads a tool's arguments.
 */
function namedWords(toolName: string, input: unknown): string[] | undefined {
	if (input === null || typeof input !== "object") return [];
	if (toolName === "bash") {
		const values = Object.values(input as Record<string, unknown>).filter(
			(value): value is string => typeof value === "string",
		);
		return values.flatMap(shellWords);
	}
	const strings = nestedStrings(input);
	if (strings === undefined) return undefined;
	// Pi's `write` and `edit` carry a file's text, which names no file they run; another tool's multi-line string may
	// be a script (`set -e\nsh /tmp/x/run.sh`; a sixty-sixth review).
	const content = toolName === "write" || toolName === "edit";
	return strings
		.filter((text) => !content || !text.includes("\n"))
		.flatMap((text) => [text, ...fileUrlPaths(text), ...shellWords(text)]);
}

/**
 * A string's words as bash splits them, as written and with quotes and backslashes removed, also at commas
 * (`--require=./a.js,/tmp/x/run.sh`), and each word's value after a short option letter (`-r/tmp/x/run.js`; a
 * sixty-sixth review).
 */
function shellWords(text: string): string[] {
	const words = [
		...text.split(/[\s;&|<>()`'"=:,]+/),
		...text
			.replace(/\\(.)/gs, "$1")
			.replace(/['"]/g, "")
			.split(/[\s;&|<>()`=:,]+/),
	];
	return [...words, ...words.flatMap(wordVariants)];
}

/**
 * The other spellings of a word that may name a file (a sixty-eighth review): without brace characters
 * (`{/tmp/x/run.sh,}`), without a leading `@` (`gcc @/tmp/x/args`), from the first `/` or `~` of an option
 * (`-ir/tmp/x/run.sh`), after a short option's letter (`-r./a.js`), and after a leading variable (`$D/run.sh` is
 * `run.sh` below every folder the action names).
 */
function wordVariants(word: string): string[] {
	const variants: string[] = [];
	if (/[{}]/.test(word)) variants.push(word.replace(/[{}]/g, ""));
	if (word.startsWith("@")) variants.push(word.slice(1));
	if (word.startsWith("-")) {
		if (/^-[A-Za-z]./.test(word)) variants.push(word.slice(2));
		const from = word.search(/[/~]/);
		if (from > 0) variants.push(word.slice(from));
	}
	const variable = /^\$(?:\{\w+\}|\w+)\/(.+)$/.exec(word);
	if (variable !== null && !HOME_PREFIX.test(word)) variants.push(variable[1] as string);
	return variants;
}

/** The path of a `file:` URL (any case), or nothing. */
function fileUrlPaths(text: string): string[] {
	if (!/^\s*file:/i.test(text)) return [];
	try {
		return [decodeURIComponent(new URL(text.trim()).pathname)];
	} catch {
		return [];
	}
}

/** Every string of a tool's arguments, at any depth up to the kernel's; undefined when nested deeper. */
function nestedStrings(value: unknown, depth = 0): string[] | undefined {
	if (typeof value === "string") return [value];
	if (value === null || typeof value !== "object") return [];
	if (depth >= MAX_TOOL_ARGUMENT_DEPTH) return undefined;
	const found: string[] = [];
	for (const item of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)) {
		const strings = nestedStrings(item, depth + 1);
		if (strings === undefined) return undefined;
		found.push(...strings);
	}
	return found;
}

/** One entry's identity, size, change times and mode, and those of what a link points at; `-` when missing. */
function entryLine(path: string, link: boolean): string {
	const parts: string[] = [];
	for (const read of link ? [lstatSync, statSync] : [lstatSync]) {
		try {
			const info = read(path, { bigint: true });
			parts.push(`${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.mode}`);
		} catch {
			parts.push("-");
		}
	}
	return parts.join("\t");
}

/**
 * Hashes every workspace entry (depth first, sorted), following links to folders outside the workspace once each (a
 * script may source what they hold); false when there are more entries than the bound.
 */
function hashWorkspace(hash: ReturnType<typeof createHash>, cwd: string, bound: number): boolean {
	const workspace = realPathOf(cwd);
	const followed = new Set<string>();
	const folders = [cwd];
	let entries = 0;
	hash.update(`${cwd}\u0000${entryLine(cwd, false)}\n`, "utf8");
	for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
		let names: string[];
		try {
			names = readdirSync(folder).sort();
		} catch {
			hash.update(`${folder}\u0000unreadable\n`, "utf8");
			continue;
		}
		entries += names.length;
		if (entries > bound) return false;
		for (const name of names) {
			const path = join(folder, name);
			let line: string;
			try {
				const info = lstatSync(path);
				line = entryLine(path, info.isSymbolicLink());
				if (info.isDirectory()) folders.push(path);
				else if (info.isSymbolicLink() && isFolder(path)) {
					const real = realPathOf(path);
					if (!isWithin(workspace, real) && !followed.has(real)) {
						followed.add(real);
						folders.push(path);
					}
				}
			} catch {
				line = "-";
			}
			hash.update(`${path}\u0000${line}\n`, "utf8");
		}
	}
	return true;
}

/** At most this many folders outside the workspace that the action names are bases for its relative words. */
const MAX_OUTSIDE_FOLDERS = 8;
/** At most this many distinct words are looked up; an action with more cannot be covered. */
const MAX_NAMED_WORDS = 1024;

function isFolder(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Where a path really is, through links; for a missing file, through its folder's links. */
function realPathOf(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		try {
			return join(realpathSync.native(dirname(path)), basename(path));
		} catch {
			return path;
		}
	}
}

/**
 * Where the system finds `word` from `base`: `..` goes up from where a link really leads, as the kernel does
 * (`lib/../run.sh` with `lib` a link to `/o/lib` is `/o/run.sh`), not by the text.
 */
function physicalPath(base: string, word: string): string {
	let current = isAbsolute(word) ? "/" : base;
	for (const part of word.split("/")) {
		if (part === "" || part === ".") continue;
		current = part === ".." ? dirname(realPathOf(current)) : join(current, part);
	}
	return current;
}

/**
 * The paths outside `cwd` that the words name, by where they really are (a workspace link to a folder outside counts
 * as outside): absolute ones, `~/…` and `$HOME/…` under home, relative ones under the workspace and under every
 * outside folder named (`cd /tmp/x && sh run.sh`, `cd lib && sh run.sh` with `lib` a link out). Undefined when that
 * cannot be bounded or known: too many words, paths or folders, or another `~` form.
 */
function namedOutsidePaths(
	words: readonly string[],
	cwd: string,
	home: string | undefined,
	shell: ShellTextFacts,
): string[] | undefined {
	const workspace = realPathOf(cwd);
	const absolute: string[] = [];
	const relative: string[] = [];
	const distinct = [...new Set(words)].filter((word) => word !== "" && word.length <= MAX_WORD_CHARS);
	if (distinct.length > MAX_NAMED_WORDS) return undefined;
	/** Whether a relative word holds a glob: what it names below an outside folder cannot be listed here. */
	let relativeGlob = false;
	for (const named of distinct) {
		// A glob naming a path outside (`/tmp/x/ru?.sh`) expands to files the fingerprint cannot name.
		// (Not a URL's rest after its `:`, such as `//host/x?page=2`.)
		// Only a glob the shell expands counts: a quoted find pattern or grep regex (`-name '*.log'`) does not.
		if (shell.unquotedGlob && /[*?[]/.test(named) && !named.startsWith("//")) {
			if (isAbsolute(named) || named.startsWith("~") || HOME_PREFIX.test(named)) return undefined;
			relativeGlob = true;
		}
		// `~+` is the shell's current folder: a relative word.
		const word = /^~\+(?=\/|$)/.test(named) ? `.${named.slice(2)}` : named;
		const homeRelative = HOME_PREFIX.exec(word);
		if (homeRelative !== null) {
			if (home !== undefined) absolute.push(join(home, word.slice(homeRelative[0].length)));
		} else if (word.startsWith("~")) return undefined;
		else if (isAbsolute(word)) absolute.push(physicalPath("/", word));
		else relative.push(word);
	}
	const bases = [cwd];
	const paths = new Set<string>();
	const consider = (path: string): void => {
		const real = realPathOf(path);
		if (isWithin(workspace, real)) return;
		paths.add(path);
		if (!bases.includes(path) && isFolder(path)) bases.push(path);
	};
	for (const path of absolute) consider(path);
	for (let next = 0; next < bases.length; next++) {
		if (bases.length > MAX_OUTSIDE_FOLDERS + 1 || paths.size > MAX_FINGERPRINT_NAMED_PATHS) return undefined;
		for (const word of relative) consider(physicalPath(bases[next] as string, word));
	}
	if (bases.length > MAX_OUTSIDE_FOLDERS + 1 || paths.size > MAX_FINGERPRINT_NAMED_PATHS) return undefined;
	// A relative glob below a folder outside the workspace (`cd /tmp/x && sh ru?.sh`) cannot be named either.
	if (relativeGlob && bases.length > 1) return undefined;
	// A brace word, `${…}` or `$(…)` beside a place outside (`sh /tmp/x/r{u,}n.sh`, `cd /tmp/x && sh "$(pwd)/run.sh"`)
	// names files the words do not spell (a sixty-ninth review).
	if (shell.expands && (bases.length > 1 || paths.size > 0)) return undefined;
	return [...paths].sort();
}

/** What the shell does to the action's text beyond its words. */
interface ShellTextFacts {
	/** A `*`, `?` or `[` outside quotes (not the test brackets `[`, `[[`, `]`, `]]`). */
	readonly unquotedGlob: boolean;
	/** A brace, `${…}`, `$(…)` or a backtick. */
	readonly expands: boolean;
}

/**
 * {@link ShellTextFacts} of a bash call's command. Another tool's strings are not expanded by a shell, but a server
 * may expand globs itself: any glob counts there.
 */
function shellTextFacts(toolName: string, input: unknown): ShellTextFacts {
	const command = toolName === "bash" ? bashCommandArgument(input) : undefined;
	if (command === undefined) return { unquotedGlob: true, expands: false };
	const unquoted = command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, " ");
	const tokens = unquoted.split(/\s+/).filter((token) => !["[", "[[", "]", "]]"].includes(token));
	return {
		unquotedGlob: tokens.some((token) => /[*?[]/.test(token)),
		// `${HOME}` is read as home (HOME_PREFIX).
		expands: /[{}`]|\$\(/.test(command.replaceAll(`$\u007BHOME}`, "")),
	};
}

/**
 * The fingerprint of a call's action: of the whole workspace `cwd`, and of the paths outside it that `input` names
 * (`home` for `~/…`), looking at no more than `workspaceEntryBound` workspace entries. Equal while nothing there changed, different once anything did; when the workspace or the
 * action is too large to look at, a fingerprint that never matches and that {@link fingerprintCovers} rejects.
 */
export function actionFingerprint(
	toolName: string,
	input: unknown,
	cwd: string,
	home?: string,
	workspaceEntryBound = MAX_FINGERPRINT_WORKSPACE_ENTRIES,
): string {
	const hash = createHash("sha256");
	try {
		const words = namedWords(toolName, input);
		const outside =
			words === undefined ? undefined : namedOutsidePaths(words, cwd, home, shellTextFacts(toolName, input));
		if (outside === undefined) return `${UNCOVERED}${randomUUID()}`;
		for (const path of outside) hash.update(`${path}\u0000${entryLine(path, true)}\n`, "utf8");
		if (!hashWorkspace(hash, cwd, workspaceEntryBound)) return `${UNCOVERED}workspace:${randomUUID()}`;
	} catch {
		return `${UNCOVERED}${randomUUID()}`;
	}
	return hash.digest("hex");
}
