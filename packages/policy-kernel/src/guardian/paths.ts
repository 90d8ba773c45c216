// Path scoping for guardian-review: resolve a tool path against the workspace and home, and classify it as
// inside the workspace, outside it, or protected (protected paths count as outside). Pure POSIX path logic.

import type { ReadableLoadedResources } from "./pi-resources.js";

/** Where a path falls: inside the workspace, outside it, or on a protected glob (which counts as outside). */
export type PathClass = "workspace" | "outside" | "protected";

/** What path classification needs to know. */
export interface PathContext {
	/** The workspace root (absolute). */
	readonly cwd: string;
	/** The user's home directory (absolute). */
	readonly home: string;
	/** Protected globs; see {@link matchesProtectedGlob}. */
	readonly protectedPaths: readonly string[];
	/**
	 * Folders that count as the workspace too (absolute, normalized; see {@link resolveAdditionalDirectories}).
	 * Relative paths and relative protected globs stay anchored at `cwd`.
	 */
	readonly additionalDirectories?: readonly string[];
	/**
	 * What Pi loaded for the model to read (its skills' folders, its context files; see `readableLoadedResources`):
	 * a read there needs no review for lying in the agent directory or outside the workspace. Writes ignore it.
	 */
	readonly loadedResources?: ReadableLoadedResources;
	/**
	 * Where links among home's own configuration lead inside the workspace (absolute, normalized; the shell's
	 * `FloorFacts.homeConfigLinkTargets`): a dotfiles folder that `~/.config/nvim` links to is home's configuration
	 * too, for writes.
	 */
	readonly homeConfigLinkTargets?: readonly string[];
}

/** Normalizes an absolute POSIX path: collapses `//`, resolves `.` and `..`, drops a trailing slash. */
export function normalizeAbsolutePath(path: string): string {
	const parts: string[] = [];
	for (const part of path.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") parts.pop();
		else parts.push(part);
	}
	return `/${parts.join("/")}`;
}

/**
 * Resolves a tool path the way Pi 1.6.0's built-in tools do (`resolveToCwd`): Unicode spaces (no-break, en, em,
 * thin, ideographic and the like) become plain spaces, a leading `@` is dropped, `~` and `~/` expand to `home`, a
 * `file://` URL becomes its path (`file:///home/u/.bashrc` writes `~/.bashrc`), and a relative path is joined to
 * `cwd`. Nothing is trimmed: `" x"` names a file whose name starts with a space. The result is normalized.
 * Symbolic links are not followed.
 */
export function resolveToolPath(raw: string, cwd: string, home: string): string {
	let path = typeof raw === "string" ? raw.replace(UNICODE_SPACES, " ") : "";
	if (path.startsWith("@")) path = path.slice(1);
	return resolveAgainst(path, cwd, home);
}

/**
 * Resolves a path a bash word names (its text, quotes removed) for judging it by its name: trimmed, `~` and `~/`
 * expanded, a `file://` URL taken as its path, a relative path joined to `cwd`, then normalized. Trimming and
 * the URL reading only ever move a name towards the protected and outside paths, never away from them.
 */
export function resolveShellPath(raw: string, cwd: string, home: string): string {
	return resolveAgainst(typeof raw === "string" ? raw.trim() : "", cwd, home);
}

/** Characters Pi's tools read as a plain space in a path (its `normalizePath`). */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * Resolves a path as its text is written, with nothing dropped or replaced: `~` and `~/` expanded, a `file://` URL
 * taken as its path, a relative path joined to `cwd`, then normalized.
 */
export function resolveWrittenPath(path: string, cwd: string, home: string): string {
	return resolveAgainst(typeof path === "string" ? path : "", cwd, home);
}

function resolveAgainst(path: string, cwd: string, home: string): string {
	if (path === "~") return normalizeAbsolutePath(home);
	if (path.startsWith("~/")) return normalizeAbsolutePath(`${home}/${path.slice(2)}`);
	if (path.startsWith("file://")) return fileUrlPath(path);
	if (path.startsWith("/")) return normalizeAbsolutePath(path);
	return normalizeAbsolutePath(`${cwd}/${path}`);
}

/**
 * The other names Pi's `read` tool opens when the resolved path does not exist (`resolveReadPathAsync`), in its
 * order: a narrow no-break space before `AM.`/`PM.` (macOS screenshots), the NFD form, curly apostrophes, and NFD
 * with curly apostrophes. Those equal to `resolved` are left out.
 */
export function piReadFallbackPaths(resolved: string): string[] {
	const nfd = resolved.normalize("NFD");
	const variants = [
		resolved.replace(/ (AM|PM)\./gi, "\u202F$1."),
		nfd,
		resolved.replace(/'/g, "\u2019"),
		nfd.replace(/'/g, "\u2019"),
	];
	return [...new Set(variants)].filter((variant) => variant !== resolved);
}

/**
 * The absolute path a `file://` URL names, parsed as WHATWG URLs are (dot segments resolved, `%2e` included), then
 * percent-decoded. A URL Pi would reject (a host other than `localhost`, an encoded `/`, bad escapes) resolves to
 * `/`, which is outside any workspace but the root, so the call is judged as one outside the workspace.
 */
function fileUrlPath(text: string): string {
	try {
		const url = new URL(text);
		if (url.protocol !== "file:" || (url.hostname !== "" && url.hostname !== "localhost")) return "/";
		if (/%2f/i.test(url.pathname)) return "/";
		return normalizeAbsolutePath(decodeURIComponent(url.pathname));
	} catch {
		return "/";
	}
}

/**
 * The absolute paths a server that is not Pi may read for a path's text besides the one Pi's tools resolve: a
 * `file:` URL in any case or form (`file:/x`, `FILE:///x`, with line breaks, which URL parsers drop) as WHATWG reads
 * it, `~user/…` under home and under that user's folder beside home (Python's `expanduser`), and `$HOME/…` or
 * `${HOME}/…` under home. Empty for other text. Pure.
 */
export function serverPathVariants(text: string, home: string): string[] {
	const trimmed = text.startsWith("@") ? text.slice(1).trim() : text.trim();
	if (/^file:/i.test(trimmed)) return [fileUrlPath(trimmed)];
	const user = /^~([A-Za-z_][^/]*)(\/.*)?$/.exec(trimmed);
	if (user !== null) {
		const rest = user[2] ?? "";
		const homes = normalizeAbsolutePath(`${home}/..`);
		return [normalizeAbsolutePath(`${home}${rest}`), normalizeAbsolutePath(`${homes}/${user[1]}${rest}`)];
	}
	const variable = /^\$(?:HOME|\{HOME\})(\/.*)?$/.exec(trimmed);
	return variable === null ? [] : [normalizeAbsolutePath(`${home}${variable[1] ?? ""}`)];
}

/**
 * The last words of argument keys that name one path: Pi's tools use `path`; MCP servers and extensions also use
 * `file_path`, `filePath`, `repo_path`, `notebook_path`, `targetFile`, `filename`, `outputDir`, `directory`,
 * `folder`, `cwd`, `workdir` and the like. A key's words are split at `_`, `-` and lower-to-upper case changes.
 */
export const TOOL_PATH_KEY_WORDS = [
	"path",
	"filepath",
	"file",
	"filename",
	"dir",
	"directory",
	"folder",
	"cwd",
	"workdir",
	"subdir",
	// `file_name`, `fileName`, `pathName`, `dir_name` ({@link pathKeyWord} joins them), and `root` (`projectRoot`,
	// `workspace_root`): a sixty-fifth review.
	"pathname",
	"dirname",
	"foldername",
	"root",
] as const;
/** The last words of argument keys that name a list of paths (the MCP filesystem server's `read_multiple_files` takes `paths`). */
export const TOOL_PATH_LIST_KEY_WORDS = [
	"paths",
	"filepaths",
	"files",
	"filenames",
	"dirs",
	"directories",
	"folders",
	"pathnames",
	"dirnames",
	"roots",
] as const;
/**
 * The last words of argument keys that name a path when the value is a `file:` URL: Pi's `read_mcp_resource` takes a
 * resource `uri` (marked read-only by the host), which a server may resolve to a local file.
 */
export const TOOL_URI_KEY_WORDS = ["uri", "url"] as const;
/** The most paths one call may name for the floor to judge them; a longer list goes to review. */
export const MAX_TOOL_PATHS = 256;
/** How deep the floor reads into nested objects and lists of a call's arguments; a deeper value goes to review. */
export const MAX_TOOL_ARGUMENT_DEPTH = 8;
/** The longest string the floor reads as a path-shaped value; a longer one is not taken for a path. */
const MAX_PATH_SHAPED_CHARS = 4096;

/** The last word of an argument key, in lower case: `repo_path` → `path`, `targetFile` → `file`. */
export function lastKeyWord(key: string): string {
	return (keyWords(key).at(-1) ?? "").toLowerCase();
}

/** A key's words: split at `_`, `-` and lower-to-upper case changes. */
function keyWords(key: string): string[] {
	return key.split(/[_-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((word) => word !== "");
}

/** Words that, before `name` or `names`, make the key a path's name: `file_name`, `fileName`, `pathName`. */
const NAMED_PATH_WORDS: ReadonlySet<string> = new Set(["file", "path", "dir", "folder"]);

/**
 * The word of an argument key that says whether it names a path: its last word in lower case, joined to the word
 * before when that says what the name is of (`file_name` and `fileName` → `filename`, `pathNames` → `pathnames`).
 */
export function pathKeyWord(key: string): string {
	const words = keyWords(key).map((word) => word.toLowerCase());
	const last = words.at(-1) ?? "";
	const before = words.at(-2) ?? "";
	if ((last === "name" || last === "names") && NAMED_PATH_WORDS.has(before)) return `${before}${last}`;
	// A path word glued on without a case change (`keyfile`, `ssl_keyfile`, `logdir`; a sixty-sixth review), but not
	// `profile`, which names a configuration profile.
	const glued = /^[a-z]{2,}(files?|paths?|dirs?|folders?)$/.exec(last);
	return glued !== null && last !== "profile" && last !== "profiles" ? (glued[1] as string) : last;
}

/**
 * True when a string value has the shape of a local path although its key does not say so: after an optional
 * leading `@` (as Pi's tools take it) and with blanks and line breaks at its ends trimmed (a server may trim its
 * arguments), it is a `file:` URL (any case, line breaks included), starts with `/`, `~/`,
 * `./` or `../`, is `~` or `~user`, or has no white space and either starts with a dot name (`.env`,
 * `.ssh/id_ed25519`) or holds a `/` (`config/secrets.yml`).
 * A URL with another scheme (`https://…`, `docs://…`), text with white space that starts otherwise, or a string
 * over 4,096 characters is not.
 */
export function looksLikeLocalPath(value: string): boolean {
	if (value.length === 0 || value.length > MAX_PATH_SHAPED_CHARS) return false;
	const text = value.startsWith("@") ? value.slice(1) : value;
	// A `file:` URL in any case and form: URL parsers drop tabs and line breaks in it (a sixty-fifth review).
	if (/^\s*file:/i.test(text)) return true;
	// Trimmed, as a server may trim its arguments (`" ../x"`, `"~/.ssh\n"`; the sixty-eighth, sixty-ninth and a
	// mutation audit's review): a line break left inside makes it text.
	const bare = text.trim();
	if (/[\n\r]/.test(bare)) return false;
	// `~`, `~user` (not a version range such as `~18.2.0`), `..`, and a variable a server may expand (`$HOME`).
	if (/^~(?:[A-Za-z_][\w.-]*)?$/.test(bare) || bare === ".." || /^\$\{?[A-Za-z_]\w*\}?$/.test(bare)) return true;
	if (/^(?:\/|~\/|\.\.?\/)/.test(bare)) return true;
	if (/\s/.test(bare) || /^[a-z][a-z0-9+.-]*:/i.test(bare)) return false;
	return /^\.[\w-]/.test(bare) || bare.includes("/");
}

/** The paths of every argument of a call, at any depth; see {@link toolArgumentPaths}. */
export interface ToolArgumentPaths {
	/** Values of path keys ({@link TOOL_PATH_KEY_WORDS}, lists, `file:` URLs), in order. */
	readonly named: readonly string[];
	/** Other string values that look like local paths ({@link looksLikeLocalPath}), in order. */
	readonly shaped: readonly string[];
}

/**
 * Adds the paths one argument names by its key to `named`: `other` when its key names no path, `unjudgeable` when
 * a path key holds a value the floor cannot judge.
 */
function addNamedPaths(key: string, value: unknown, named: string[]): "named" | "other" | "unjudgeable" {
	if (value === undefined || value === null) return "named";
	const word = pathKeyWord(key);
	if ((TOOL_PATH_KEY_WORDS as readonly string[]).includes(word)) {
		// A flag names no path (`includeRoot: true`, `show_root: false`; a sixty-sixth review). A number may: Python's and
		// Node's `open(3)` open file descriptor 3.
		if (value === "" || typeof value === "boolean") return "named";
		if (typeof value !== "string") return "unjudgeable";
		named.push(value);
		return "named";
	}
	if ((TOOL_PATH_LIST_KEY_WORDS as readonly string[]).includes(word)) {
		if (!Array.isArray(value)) return "unjudgeable";
		for (const item of value) {
			if (typeof item !== "string" || item === "") return "unjudgeable";
			named.push(item);
		}
		return "named";
	}
	if ((TOOL_URI_KEY_WORDS as readonly string[]).includes(word)) {
		if (typeof value !== "string" || !/^file:/i.test(value.trim())) return "named";
		if (!value.trim().startsWith("file://")) return "unjudgeable";
		named.push(value);
		return "named";
	}
	return "other";
}

/**
 * Every path a tool call's arguments hold, walking nested objects and lists (`{ options: { path } }`,
 * `{ sources: [{ file }] }`) up to {@link MAX_TOOL_ARGUMENT_DEPTH} levels: the values of path keys as `named`, and
 * other string values shaped like local paths as `shaped` (`{ source: "~/.ssh/id_ed25519" }`). `"unjudgeable"`
 * when a path key holds something else than a non-empty string (a list: non-empty strings), a URI key a `file:`
 * URL that is not `file://…`, the nesting is deeper, or more than {@link MAX_TOOL_PATHS} paths are found, so that
 * the call goes to review rather than pass unread. Input that is not an object holds no path.
 */
export function toolArgumentPaths(input: unknown): ToolArgumentPaths | "unjudgeable" {
	const named: string[] = [];
	const shaped: string[] = [];
	if (typeof input !== "object" || input === null || Array.isArray(input)) return { named, shaped };
	const judgeable = (value: unknown, depth: number): boolean => {
		if (typeof value === "string") {
			if (looksLikeLocalPath(value)) shaped.push(value);
		} else if (typeof value === "object" && value !== null) {
			if (depth >= MAX_TOOL_ARGUMENT_DEPTH) return false;
			if (Array.isArray(value)) {
				for (const item of value) if (!judgeable(item, depth + 1)) return false;
			} else {
				for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
					const found = addNamedPaths(key, item, named);
					if (found === "unjudgeable" || (found === "other" && !judgeable(item, depth + 1))) return false;
				}
			}
		}
		return named.length + shaped.length <= MAX_TOOL_PATHS;
	};
	return judgeable(input, 0) ? { named, shaped } : "unjudgeable";
}

/**
 * Every path a tool call names by its keys, in order, at any depth (see {@link toolArgumentPaths}): the string
 * values of keys whose last word is one of {@link TOOL_PATH_KEY_WORDS}, the items of
 * {@link TOOL_PATH_LIST_KEY_WORDS} lists, and `file:` URLs under {@link TOOL_URI_KEY_WORDS} keys (other URLs name no
 * local path). `undefined` when the call names none (no such key, or only empty values); `"unjudgeable"` as for
 * {@link toolArgumentPaths}.
 */
export function toolPathArguments(input: unknown): readonly string[] | "unjudgeable" | undefined {
	const found = toolArgumentPaths(input);
	if (found === "unjudgeable") return found;
	return found.named.length === 0 ? undefined : found.named;
}

/** True when `child` is `parent` or inside it (both absolute and normalized). */
export function isWithin(parent: string, child: string): boolean {
	if (parent === "/") return true;
	return child === parent || child.startsWith(`${parent}/`);
}

/**
 * Converts one glob segment (no `/`) or a whole glob into a RegExp source, as bash matches it: `**` crosses `/`, `*`
 * and `?` do not, `\x` is a literal `x`, and a bracket expression is read by {@link bracketExpression} (a `[` with no
 * closing `]` is a literal `[`). The source always compiles.
 */
function globToRegExpSource(glob: string): string {
	const chars = [...glob];
	let source = "";
	for (let i = 0; i < chars.length; i++) {
		const c = chars[i] as string;
		if (c === "*") {
			if (chars[i + 1] === "*") {
				source += ".*";
				i++;
			} else source += "[^/]*";
		} else if (c === "?") source += "[^/]";
		else if (c === "[") {
			const bracket = bracketExpression(chars, i);
			if (bracket === undefined) source += "\\[";
			else {
				source += bracket.source;
				i = bracket.end;
			}
		} else if (c === "\\" && i + 1 < chars.length) {
			i++;
			source += literalSource(chars[i] as string);
		} else source += literalSource(c);
	}
	return source;
}

/** A character as a RegExp source that matches only itself. */
function literalSource(c: string): string {
	return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A character as a member of a regular-expression class: `\`, `]`, `[`, `^` and `-` escaped. */
function classMember(c: string): string {
	return /[\\\][^-]/.test(c) ? `\\${c}` : c;
}

/** The members of bash's character classes (`[:alpha:]`), in the C locale. */
const POSIX_CLASS_MEMBERS: Readonly<Record<string, string>> = {
	alnum: "a-zA-Z0-9",
	alpha: "a-zA-Z",
	blank: " \\t",
	cntrl: "\\x00-\\x1f\\x7f",
	digit: "0-9",
	graph: "!-~",
	lower: "a-z",
	print: " -~",
	punct: "!-\\/:-@\\[-`{-~",
	space: " \\t\\n\\r\\f\\v",
	upper: "A-Z",
	word: "a-zA-Z0-9_",
	xdigit: "0-9A-Fa-f",
};

/**
 * The bracket expression that opens at `chars[start]` (a `[`), read as bash reads it: `!` or `^` first negates (never
 * matching `/`), a `]` first is a member, `[:name:]` is a character class, `\x` is a literal `x`, a range in order
 * is kept, and a range written backwards (`z-a`, `a-Z`; bash matches nothing with it), between characters outside
 * the BMP, or an unknown class adds nothing; a one-character collating symbol `[.x.]` is `x`, and any other collating
 * symbol or an equivalence class `[=x=]` makes the bracket match any character but `/` (a twenty-eighth review found
 * them read as members, cut at their first `]`). Undefined when no `]` closes it (the `[` is then literal). The source
 * always compiles; an empty class matches nothing. (A class such as `[z-a]` once made the whole alternation of one
 * kind of protected glob fail to compile, which dropped every default of that kind, and `[[:alnum:]]` or `[]x]` were
 * cut at their first `]`: a twenty-fifth and a twenty-sixth review.)
 */
function bracketExpression(chars: readonly string[], start: number): { source: string; end: number } | undefined {
	let j = start + 1;
	const negated = chars[j] === "!" || chars[j] === "^";
	if (negated) j++;
	const first = j;
	let members = "";
	let anyCharacter = false;
	while (j < chars.length) {
		const c = chars[j] as string;
		if (c === "]" && j > first) {
			if (anyCharacter) return { source: "[^/]", end: j };
			if (negated) return { source: `[^/${members}]`, end: j };
			return { source: members === "" ? "(?!)" : `[${members}]`, end: j };
		}
		const inner = chars[j + 1];
		if (c === "[" && (inner === ":" || inner === "." || inner === "=")) {
			let close = j + 2;
			while (close < chars.length && !(chars[close] === inner && chars[close + 1] === "]")) close++;
			if (close < chars.length) {
				const name = chars.slice(j + 2, close).join("");
				j = close + 2;
				if (inner === ":") members += POSIX_CLASS_MEMBERS[name] ?? "";
				// A one-character collating symbol (`[.-.]`) is that member, unless it starts a range. A named symbol
				// (`[.hyphen.]`), a range from one, or an equivalence class (`[=a=]`, which in a UTF-8 locale also
				// matches `á`) matches any character but `/`: broader, so the glob protects at least what bash matches.
				else if (inner === "." && [...name].length === 1 && !(chars[j] === "-" && chars[j + 1] !== "]")) {
					members += classMember(name);
				} else anyCharacter = true;
				continue;
			}
		}
		let from = c;
		if (c === "\\" && j + 1 < chars.length) {
			j++;
			from = chars[j] as string;
		}
		let to = chars[j + 2];
		if (chars[j + 1] === "-" && to !== undefined && to !== "]") {
			// A range ending in a class, symbol or equivalence class (`[a-[.z.]]`) matches any character but `/`, and
			// one ending in `\x` ends at `x` (`[a-\z]` is `a` to `z`; a twenty-ninth review).
			const endInner = chars[j + 3];
			if (to === "[" && (endInner === "." || endInner === "=" || endInner === ":")) {
				let close = j + 4;
				while (close < chars.length && !(chars[close] === endInner && chars[close + 1] === "]")) close++;
				if (close < chars.length) {
					anyCharacter = true;
					j = close + 2;
					continue;
				}
			}
			let next = j + 3;
			if (to === "\\" && chars[j + 3] !== undefined) {
				to = chars[j + 3] as string;
				next = j + 4;
			}
			const low = from.codePointAt(0) as number;
			const high = to.codePointAt(0) as number;
			if (low <= high && high <= 0xffff) members += `${classMember(from)}-${classMember(to)}`;
			j = next;
			continue;
		}
		members += classMember(from);
		j++;
	}
	return undefined;
}

const compiledGlobs = new Map<string, RegExp | null>();
/** Compiled globs kept; past this many the cache is cleared (patterns come from config, so few are distinct). */
const MAX_COMPILED_GLOBS = 2_048;

/** True when `text` matches the glob in full. Compiled globs are cached. */
export function globMatches(glob: string, text: string): boolean {
	let compiled = compiledGlobs.get(glob);
	if (compiled === undefined) {
		try {
			compiled = new RegExp(`^${globToRegExpSource(glob)}$`);
		} catch {
			compiled = null;
		}
		if (compiledGlobs.size >= MAX_COMPILED_GLOBS) compiledGlobs.clear();
		compiledGlobs.set(glob, compiled);
	}
	return compiled?.test(text) === true;
}

/**
 * True when bash could expand the glob part `part` (`*`, `?` and literal characters; no brackets) to the file name
 * `name`, as a shell's listing needs it to tell which entries a glob word reaches. A leading `.` must be matched by
 * a literal one. A name with a character outside ASCII always counts as matched: what `?` matches there depends on
 * the locale. One pass with one saved `*` position (no regex), so at most `part.length * name.length` steps. Pure.
 */
export function globPartMayMatchName(part: string, name: string): boolean {
	for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0x7f) return true;
	if (name.startsWith(".") && !part.startsWith(".")) return false;
	let p = 0;
	let n = 0;
	let star = -1;
	let resume = 0;
	while (n < name.length) {
		const c = part[p];
		if (c === "*") {
			star = p++;
			resume = n;
		} else if (c !== undefined && (c === "?" || c === name[n])) {
			p++;
			n++;
		} else if (star >= 0) {
			p = star + 1;
			n = ++resume;
		} else return false;
	}
	while (part[p] === "*") p++;
	return p === part.length;
}

/**
 * True when the absolute, normalized `path` matches a protected glob:
 * - `~/x` or `/x`: anchored at home or the root; matches the path itself and anything under it;
 * - `name/` (a trailing slash): any directory component named like `name`, and anything under it;
 * - a glob containing `/` otherwise: anchored at the workspace root, itself and anything under it;
 * - a glob without `/`: the path's last component (its file name).
 */
export function matchesProtectedGlob(path: string, glob: string, context: Pick<PathContext, "cwd" | "home">): boolean {
	if (typeof glob !== "string" || glob.length === 0) return false;
	if (glob === "~" || glob.startsWith("~/") || glob.startsWith("/")) {
		const anchored = glob === "~" ? context.home : glob.startsWith("~/") ? `${context.home}/${glob.slice(2)}` : glob;
		return anchoredMatch(normalizeGlobPath(anchored), path);
	}
	if (glob.endsWith("/") && !glob.slice(0, -1).includes("/")) {
		const name = glob.slice(0, -1);
		const parts = path.split("/").filter((part) => part !== "");
		return parts.some((part) => globMatches(name, part));
	}
	if (glob.includes("/")) return anchoredMatch(normalizeGlobPath(`${context.cwd}/${glob}`), path);
	const base = path.split("/").pop() ?? "";
	return globMatches(glob, base);
}

function normalizeGlobPath(glob: string): string {
	return glob.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
}

function anchoredMatch(glob: string, path: string): boolean {
	return globMatches(glob, path) || globMatches(`${glob}/**`, path);
}

/**
 * True when moving or renaming `path` (absolute, normalized) could take something below it out of the protected
 * globs: an anchored glob (`~/x`, `/x`, `dir/x`) reaches below `path` through a part that matches `path`'s own
 * name, so the same file under a new name would not match (`~/.kube/config` below `~/.kube`; a workspace folder on
 * `PATH`, `node_modules/.bin` at any depth, below `<ws>/a/node_modules`). A glob reaching it through `**` or a lone `*`
 * still matches after a rename, and a file-name or `name/` glob matches wherever the file goes. Case is ignored,
 * as protected globs are matched. Pure.
 */
export function holdsProtectedByName(path: string, context: PathContext): boolean {
	const key = `${context.home}\u0000${context.cwd}\u0000${path}`;
	return heldByName(context.protectedPaths, key, () => {
		const names = path.toLowerCase().split("/").filter(Boolean);
		return anchoredGlobParts(context).some(
			({ parts, literal }) => !divergesFrom(names, literal) && reachesBelowByName(names, parts),
		);
	});
}

/** {@link holdsProtectedByName}'s answers, per protected list, home, workspace and path (a command names a path many times). */
const heldByName = createListKeyedCache<boolean>(4096);
/** An anchored protected glob as lower-case parts, and its leading parts without a wildcard. */
interface AnchoredGlobParts {
	readonly parts: readonly string[];
	readonly literal: readonly string[];
}
/** The anchored protected globs as lower-case parts, per protected list, home and workspace. */
const anchoredGlobPartsCache = createListKeyedCache<readonly AnchoredGlobParts[]>(64);

/** True when `names` and a glob's literal leading parts differ where both have a part: the glob cannot reach it. */
function divergesFrom(names: readonly string[], literal: readonly string[]): boolean {
	const shared = Math.min(names.length, literal.length);
	for (let i = 0; i < shared; i++) if (names[i] !== literal[i]) return true;
	return false;
}

/**
 * The protected globs that name a place (`~/x`, `/x`, `dir/x`) as lower-case path parts, anchored at home or the
 * workspace; file-name and `name/` globs are left out. Computed once per list, home and workspace (a sixty-seventh
 * review: an `mv` of 1,000 sources took a second recomputing them).
 */
function anchoredGlobParts(context: PathContext): readonly AnchoredGlobParts[] {
	return anchoredGlobPartsCache(context.protectedPaths, `${context.home}\u0000${context.cwd}`, () => {
		const all: AnchoredGlobParts[] = [];
		for (const glob of context.protectedPaths) {
			if (typeof glob !== "string" || glob.length === 0) continue;
			let anchored: string;
			if (glob === "~" || glob.startsWith("~/")) anchored = `${context.home}/${glob.slice(2)}`;
			else if (glob.startsWith("/")) anchored = glob;
			else if (glob.includes("/") && !(glob.endsWith("/") && !glob.slice(0, -1).includes("/")))
				anchored = `${context.cwd}/${glob}`;
			else continue;
			const parts = normalizeGlobPath(anchored).toLowerCase().split("/").filter(Boolean);
			const wildcard = parts.findIndex((part) => /[*?[\\]/.test(part));
			all.push({ parts, literal: wildcard < 0 ? parts : parts.slice(0, wildcard) });
		}
		return all;
	});
}

/**
 * True when some path strictly below `names` may match the glob `parts`, with `names`' last part matched by a
 * part that a rename could fail (not `**`, not a lone `*`). Memoized over positions: at most
 * `names.length * parts.length * 2` steps.
 */
function reachesBelowByName(names: readonly string[], parts: readonly string[]): boolean {
	const seen = new Set<string>();
	const visit = (i: number, j: number, byName: boolean): boolean => {
		const key = `${i},${j},${byName}`;
		if (seen.has(key)) return false;
		seen.add(key);
		if (i === names.length) return byName && parts.slice(j).some((part) => part !== "**");
		const part = parts[j];
		if (part === undefined) return false;
		const name = names[i] as string;
		if (part.includes("**")) return visit(i, j + 1, byName) || visit(i + 1, j, part !== "**");
		return globMatches(part, name) && visit(i + 1, j + 1, part !== "*");
	};
	return visit(0, 0, false);
}

/** The protected globs compiled for one workspace and home into three regular expressions. */
interface ProtectedMatcher {
	/** Anchored globs (`~/x`, `/x`, `dir/x`): the path itself or anything under it. */
	readonly anchored: RegExp | undefined;
	/** `name/` globs: any directory component. */
	readonly component: RegExp | undefined;
	/** Globs without `/`: the file name. */
	readonly base: RegExp | undefined;
}

/** The last part of a `/`-separated path: `a/b/AGENTS.md` → `AGENTS.md`, `x` → `x`. */
export function baseName(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * A cache of values built from a list (keyed by its identity, so a config's frozen list is one entry) and a string
 * key, holding at most `limit` keys per list (cleared past it). Lists that are dropped free their entries.
 */
export function createListKeyedCache<T>(limit: number): (list: readonly string[], key: string, build: () => T) => T {
	const byList = new WeakMap<readonly string[], Map<string, T>>();
	return (list, key, build) => {
		let byKey = byList.get(list);
		if (byKey === undefined) {
			byKey = new Map();
			byList.set(list, byKey);
		}
		let value = byKey.get(key);
		if (value === undefined) {
			value = build();
			if (byKey.size >= limit) byKey.clear();
			byKey.set(key, value);
		}
		return value;
	};
}

const compiledProtected = createListKeyedCache<ProtectedMatcher>(64);

function alternation(sources: readonly string[]): RegExp | undefined {
	if (sources.length === 0) return undefined;
	try {
		// Case-insensitive: on macOS and Windows `.ENV` and `.GIT/hooks` are the same files as `.env` and `.git/hooks`.
		return new RegExp(`^(?:${sources.join("|")})$`, "i");
	} catch {
		return undefined;
	}
}

function compileProtected(globs: readonly string[], context: Pick<PathContext, "cwd" | "home">): ProtectedMatcher {
	const anchored: string[] = [];
	const component: string[] = [];
	const base: string[] = [];
	for (const glob of globs) {
		if (typeof glob !== "string" || glob.length === 0) continue;
		if (glob === "~" || glob.startsWith("~/") || glob.startsWith("/")) {
			const root = glob === "~" ? context.home : glob.startsWith("~/") ? `${context.home}/${glob.slice(2)}` : glob;
			const source = globToRegExpSource(normalizeGlobPath(root));
			anchored.push(source, `${source}/.*`);
		} else if (glob.endsWith("/") && !glob.slice(0, -1).includes("/")) {
			component.push(globToRegExpSource(glob.slice(0, -1)));
		} else if (glob.includes("/")) {
			const source = globToRegExpSource(normalizeGlobPath(`${context.cwd}/${glob}`));
			anchored.push(source, `${source}/.*`);
		} else base.push(globToRegExpSource(glob));
	}
	let componentTest: RegExp | undefined;
	try {
		componentTest = component.length === 0 ? undefined : new RegExp(`(?:^|/)(?:${component.join("|")})(?:/|$)`, "i");
	} catch {
		componentTest = undefined;
	}
	return { anchored: alternation(anchored), component: componentTest, base: alternation(base) };
}

/**
 * A test for protected paths under one context, compiled once per protected list, workspace and home (cached):
 * use it when classifying many paths against the same context.
 */
export function protectedPathTest(context: PathContext): (path: string) => boolean {
	const { anchored, component, base } = compiledProtected(
		context.protectedPaths,
		`${context.cwd}\u0000${context.home}`,
		() => compileProtected(context.protectedPaths, context),
	);
	return (named) => {
		const path = foldForFilesystem(named);
		if (anchored?.test(path)) return true;
		if (base?.test(baseName(path))) return true;
		return component?.test(path) === true;
	};
}

/**
 * A name as macOS's filesystem may compare it: NFKC, which turns `ſ` (long s) into `s`, the Kelvin sign into `K` and
 * ligatures such as `ﬁ` into `fi`, all of which Unicode case folding or normalization map there, while `toLowerCase`
 * and a regular expression's `i` flag leave them alone (the sixty-eighth and sixty-ninth reviews). ASCII is returned
 * as it is.
 */
function foldForFilesystem(text: string): string {
	return /[\u0080-\u{10ffff}]/u.test(text) ? text.normalize("NFKC") : text;
}

/** Lower case as a case-insensitive filesystem compares names: NFKC (see {@link foldForFilesystem}), then `toLowerCase`. */
export function filesystemLowerCase(text: string): string {
	return foldForFilesystem(text).toLowerCase();
}

/** True when `path` (absolute, normalized) matches any of the context's protected globs. */
export function isProtectedPath(path: string, context: PathContext): boolean {
	return protectedPathTest(context)(path);
}

/**
 * Classifies a path a bash word names ({@link resolveShellPath}): `protected` when it matches a protected glob, else
 * `workspace` when it resolves inside the workspace root, else `outside`.
 */
export function classifyPath(raw: string, context: PathContext): PathClass {
	return classifyResolvedPath(resolveShellPath(raw, context.cwd, context.home), context);
}

/**
 * {@link classifyPath} for a path already resolved with {@link resolveToolPath} (absolute, normalized). A path in
 * home's own configuration ({@link isHomeConfigPath}) counts as outside the workspace even when home is in it.
 */
export function classifyResolvedPath(resolved: string, context: PathContext): PathClass {
	const workspace = normalizeAbsolutePath(context.cwd);
	const home = normalizeAbsolutePath(context.home);
	if (isProtectedPath(resolved, { ...context, cwd: workspace, home })) return "protected";
	return isWritableWorkspacePath(
		resolved,
		workspace,
		home,
		context.additionalDirectories,
		context.homeConfigLinkTargets,
	)
		? "workspace"
		: "outside";
}

/**
 * Folders of home, besides its hidden entries, that hold what the user's programs run or load: `~/bin` (Debian's
 * and Ubuntu's `~/.profile` put it first on `PATH`), macOS's `~/Library` (`LaunchAgents` start at login), Windows'
 * `AppData` (the Startup folder), `~/node_modules`, and the folders common installers keep in home.
 */
const HOME_PROGRAM_FOLDERS: ReadonlySet<string> = new Set([
	// In lower case: macOS's and Windows' disks ignore case (`~/library/LaunchAgents` is `~/Library/LaunchAgents`).
	"bin",
	"library",
	"appdata",
	// Node resolves a package a project lacks up to `~/node_modules` (a thirty-ninth review: `ws` loads `bufferutil`).
	"node_modules",
	// Installers that put their folder in home and source it or put it on `PATH` from the shell's start-up files: gcloud
	// (`path.bash.inc`), conda and its kin (their base Python runs a site folder's `.pth` files), Go, local::lib,
	// Flutter, snaps.
	"google-cloud-sdk",
	"miniconda3",
	"miniconda",
	"anaconda3",
	"anaconda",
	"miniforge3",
	"miniforge",
	"miniconda2",
	"anaconda2",
	"mambaforge",
	"micromamba",
	"go",
	"perl5",
	"flutter",
	"snap",
]);

/**
 * True when `path` (absolute, normalized) lies in home's own configuration: a hidden entry of `home` (`~/.vimrc`,
 * `~/.config/autostart/x.desktop`, `~/.local/bin/ls`) or one of {@link HOME_PROGRAM_FOLDERS}, where the user's shell,
 * desktop session, editor or service manager finds what it runs at the next login or start. False when a workspace
 * root (`roots`) that holds `path` lies inside that entry: the user named it (Pi started in `~/.config/nvim`).
 * With Pi started in home, or `~` an additional directory, a write there is not workspace work (a thirty-ninth
 * review: `~/.config/systemd/user/x.service` and `~/.config/autostart` were allowed as workspace writes).
 */
export function isHomeConfigPath(path: string, home: string, roots: readonly string[]): boolean {
	if (path === home || !isWithin(home, path)) return false;
	const entry = path.slice(home === "/" ? 1 : home.length + 1).split("/")[0] ?? "";
	if (!entry.startsWith(".") && !HOME_PROGRAM_FOLDERS.has(entry.toLowerCase())) return false;
	const entryPath = home === "/" ? `/${entry}` : `${home}/${entry}`;
	return !roots.some((root) => isWithin(entryPath, root) && isWithin(root, path));
}

/**
 * True when a write of `path` (absolute, normalized) is a workspace write by where it lies: inside the workspace
 * root or an additional directory, not in home's own configuration ({@link isHomeConfigPath}), and not in or above
 * where a link of it leads (`linkedHomeConfig`: `~/.config/nvim -> ~/dotfiles/nvim`; a forty-first review).
 */
export function isWritableWorkspacePath(
	path: string,
	workspace: string,
	home: string,
	additionalDirectories: readonly string[] | undefined,
	linkedHomeConfig: readonly string[] = [],
): boolean {
	if (!isInWorkspace(path, workspace, additionalDirectories)) return false;
	if (linkedHomeConfig.some((target) => isWithin(target, path) || isWithin(path, target))) return false;
	return !isHomeConfigPath(path, home, [workspace, ...(additionalDirectories ?? [])]);
}

/**
 * True when `path` (absolute, normalized) is inside the workspace root `workspace` (normalized) or one of the
 * additional directories.
 */
export function isInWorkspace(
	path: string,
	workspace: string,
	additionalDirectories: readonly string[] | undefined,
): boolean {
	if (isWithin(workspace, path)) return true;
	return additionalDirectories?.some((folder) => isWithin(folder, path)) === true;
}

/**
 * The configured additional workspace directories (`~`, `~/dir`, `/dir`) as absolute, normalized paths. An entry
 * of another form, or one that resolves to `/`, is dropped (the config schema rejects them).
 */
export function resolveAdditionalDirectories(entries: readonly string[], home: string): readonly string[] {
	const folders: string[] = [];
	for (const entry of entries) {
		if (typeof entry !== "string" || !(entry === "~" || entry.startsWith("~/") || entry.startsWith("/"))) continue;
		const folder = resolveToolPath(entry, "/", home);
		if (folder !== "/" && !folders.includes(folder)) folders.push(folder);
	}
	return folders;
}
