// Pure git-config scanning for guardian-review: parse git config text, list the include files git would follow,
// and tell whether any key makes git run a program. The shell reads the files; this module only judges text.
// See docs/decisions/0013-git-config-programs.md for why each key is listed.
import { err, ok, type Result } from "../decision.js";

/** One `key = value` entry of a git config file. Section and key names are lower-cased; subsections are not. */
export interface GitConfigEntry {
	/** The section name, lower-cased (`core`, `diff`, `includeif`). */
	readonly section: string;
	/** The subsection (`"name"` in `[diff "name"]`), case kept; undefined when absent. */
	readonly subsection: string | undefined;
	/** The variable name, lower-cased (`pager`, `textconv`). */
	readonly key: string;
	/** The value after unquoting and unescaping; undefined for a bare key (which means boolean true). */
	readonly value: string | undefined;
}

/** The verdict on a repository's git config, as a fact for the floor: only `safe` lets git through unreviewed. */
export const GIT_CONFIG_VERDICTS = ["safe", "unsafe", "unknown"] as const;
/** One of {@link GIT_CONFIG_VERDICTS}. */
export type GitConfigVerdict = (typeof GIT_CONFIG_VERDICTS)[number];

/** Config files larger than this are not scanned (the verdict is then `unknown`). */
export const MAX_GIT_CONFIG_CHARS = 256 * 1024;
/** Git's own include depth limit; deeper includes make the verdict `unknown`. */
export const MAX_GIT_CONFIG_INCLUDE_DEPTH = 10;

/** Hooks git may run while doing what the floor allows (`git status` can write the index). */
export const GIT_HOOKS_RUN_BY_READS = ["post-index-change"] as const;

/**
 * The verdict on a repository's hooks folder, as a fact for the floor's git index writes (`git add`, `git stash`):
 * `none` when it holds no active hook, `present` when it holds one, `unknown` when it could not be listed. Those
 * forms run several hooks, and which ones depends on git's version (`git stash push -- path` runs post-checkout),
 * so only `none` lets them through.
 */
export const GIT_HOOKS_VERDICTS = ["none", "present", "unknown"] as const;
/** One of {@link GIT_HOOKS_VERDICTS}. */
export type GitHooksVerdict = (typeof GIT_HOOKS_VERDICTS)[number];

/** A hooks folder with more entries than this is not judged (the verdict is then `unknown`). */
export const MAX_GIT_HOOK_ENTRIES = 256;

/**
 * Judges the entry names of a repository's hooks folder: git runs a hook by its exact name, so only the `.sample`
 * files `git init` writes are inactive; any other entry counts as an active hook. Pure; never throws.
 */
export function judgeGitHookNames(names: readonly string[]): GitHooksVerdict {
	if (names.length > MAX_GIT_HOOK_ENTRIES) return "unknown";
	return names.every((name) => name.endsWith(".sample")) ? "none" : "present";
}

/**
 * Parses git config text into entries, in file order. Handles `[section]`, `[section "subsection"]`, the old
 * `[section.subsection]` form, bare boolean keys, `#`/`;` comments, quoted values, escapes and line continuations.
 * Returns an error (never throws, never quoting the text) for malformed input or text over
 * {@link MAX_GIT_CONFIG_CHARS}; callers then treat the config as `unknown`.
 */
export function parseGitConfig(text: string): Result<GitConfigEntry[]> {
	if (typeof text !== "string") return err("git config: expected text");
	if (text.length > MAX_GIT_CONFIG_CHARS) return err("git config: too large");
	const entries: GitConfigEntry[] = [];
	let section: string | undefined;
	let subsection: string | undefined;
	let i = 0;
	const n = text.length;
	while (i < n) {
		// Skip blanks and empty lines.
		const c = text[i] as string;
		if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\uFEFF") {
			i++;
			continue;
		}
		if (c === "#" || c === ";") {
			i = lineEnd(text, i);
			continue;
		}
		if (c === "[") {
			const header = parseSectionHeader(text, i + 1);
			if (!header.ok) return header;
			section = header.value.section;
			subsection = header.value.subsection;
			i = header.value.end;
			continue;
		}
		if (!isKeyStart(c)) return err("git config: malformed line");
		if (section === undefined) return err("git config: key outside a section");
		let j = i;
		while (j < n && isKeyChar(text[j] as string)) j++;
		const key = text.slice(i, j).toLowerCase();
		while (j < n && (text[j] === " " || text[j] === "\t")) j++;
		if (j >= n || text[j] === "\n" || text[j] === "\r" || text[j] === "#" || text[j] === ";") {
			entries.push({ section, subsection, key, value: undefined });
			i = j < n && (text[j] === "#" || text[j] === ";") ? lineEnd(text, j) : j;
			continue;
		}
		if (text[j] !== "=") return err("git config: malformed line");
		const value = parseValue(text, j + 1);
		if (!value.ok) return value;
		entries.push({ section, subsection, key, value: value.value.value });
		i = value.value.end;
	}
	return ok(entries);
}

function lineEnd(text: string, from: number): number {
	const end = text.indexOf("\n", from);
	return end < 0 ? text.length : end;
}

function isKeyStart(c: string): boolean {
	return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
}

function isKeyChar(c: string): boolean {
	return isKeyStart(c) || (c >= "0" && c <= "9") || c === "-";
}

function parseSectionHeader(
	text: string,
	start: number,
): Result<{ section: string; subsection: string | undefined; end: number }> {
	let i = start;
	while (i < text.length && text[i] !== "]" && text[i] !== '"' && text[i] !== " " && text[i] !== "\n") i++;
	const name = text.slice(start, i);
	while (text[i] === " " || text[i] === "\t") i++;
	let subsection: string | undefined;
	if (text[i] === '"') {
		i++;
		let sub = "";
		for (;;) {
			const c = text[i];
			if (c === undefined || c === "\n") return err("git config: unterminated subsection");
			if (c === '"') {
				i++;
				break;
			}
			if (c === "\\" && i + 1 < text.length) {
				sub += text[i + 1];
				i += 2;
				continue;
			}
			sub += c;
			i++;
		}
		subsection = sub;
	}
	if (text[i] !== "]") return err("git config: malformed section header");
	if (name.length === 0) return err("git config: empty section name");
	for (const c of name) if (!isKeyChar(c) && c !== ".") return err("git config: malformed section name");
	let section = name.toLowerCase();
	if (section.includes(".")) {
		// The deprecated [section.subsection] form; and `[diff.x "y"]`, which git reads as `diff.x.y.<key>`: section
		// `diff`, driver `x.y` (a thirteenth review: read as section `diff.x`, its textconv went unseen).
		const dot = section.indexOf(".");
		subsection = subsection === undefined ? name.slice(dot + 1) : `${section.slice(dot + 1)}.${subsection}`;
		section = section.slice(0, dot);
	}
	return ok({ section, subsection, end: i + 1 });
}

function parseValue(text: string, start: number): Result<{ value: string; end: number }> {
	let i = start;
	let value = "";
	let quoted = false;
	let pendingSpace = "";
	// Leading blanks are dropped (a lone `\r` is one to git).
	while (text[i] === " " || text[i] === "\t" || (text[i] === "\r" && text[i + 1] !== "\n")) i++;
	for (;;) {
		const c = text[i];
		if (c === undefined) break;
		if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
			if (quoted) return err("git config: unterminated quote");
			break;
		}
		if (!quoted && (c === "#" || c === ";")) {
			i = lineEnd(text, i);
			break;
		}
		if (c === "\\") {
			// git writes the blanks before a backslash out first, a line continuation's included (a seventieth review:
			// `path = x \` then a newline is the file `x `).
			value += pendingSpace;
			pendingSpace = "";
			const next = text[i + 1];
			if (next === "\n") {
				i += 2;
				continue;
			}
			if (next === "\r" && text[i + 2] === "\n") {
				i += 3;
				continue;
			}
			const decoded = next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "\b" : next;
			if (decoded === undefined || !(next === '"' || next === "\\" || next === "n" || next === "t" || next === "b")) {
				return err("git config: invalid escape");
			}
			value += decoded;
			i += 2;
			continue;
		}
		if (c === '"') {
			quoted = !quoted;
			value += pendingSpace;
			pendingSpace = "";
			i++;
			continue;
		}
		// git 2.39 turns each unquoted blank inside a value, a tab or a lone `\r` too, into one space (a fifteenth
		// review: an include `path = e<TAB>x` is the file `e x` to git).
		// Blanks count only once the value holds something: after `""` or a line continuation that left it empty
		// they are dropped, as leading ones are (a seventieth review: `path = "" x` is the file `x` to git).
		if (!quoted && (c === " " || c === "\t" || c === "\r")) {
			if (value.length > 0) pendingSpace += " ";
			i++;
			continue;
		}
		value += pendingSpace + c;
		pendingSpace = "";
		i++;
	}
	if (quoted) return err("git config: unterminated quote");
	return ok({ value, end: i });
}

/** An include git would follow: `include.path` or `includeIf.<condition>.path`. */
export interface GitConfigInclude {
	/** The path as written (relative paths are relative to the including file's folder; `~/` is home). */
	readonly path: string;
	/** The `includeIf` condition (`gitdir:…`, `onbranch:…`, `hasconfig:…`); undefined for a plain include. */
	readonly condition: string | undefined;
}

/**
 * The includes of a parsed config, in order. Conditional includes are listed whatever their condition: the
 * scanner does not evaluate conditions, so a caller that follows every listed include checks a superset of what
 * git reads.
 */
export function gitConfigIncludes(entries: readonly GitConfigEntry[]): GitConfigInclude[] {
	const includes: GitConfigInclude[] = [];
	for (const entry of entries) {
		if (entry.key !== "path" || entry.value === undefined || entry.value === "") continue;
		if (entry.section === "include" && entry.subsection === undefined) {
			includes.push({ path: entry.value, condition: undefined });
		} else if (entry.section === "includeif" && entry.subsection !== undefined) {
			includes.push({ path: entry.value, condition: entry.subsection });
		}
	}
	return includes;
}

/** Why a config entry can make git run a program. */
export const GIT_PROGRAM_KEY_KINDS = [
	"fsmonitor",
	"pager",
	"editor",
	"external-diff",
	"diff-driver",
	"textconv",
	"filter-driver",
	"merge-driver",
	"shell-alias",
	"ssh-command",
	"credential-helper",
	"gpg-program",
	"hooks-path",
	"askpass",
	"proxy-command",
	"tool-command",
	"remote-program",
	"lazy-fetch",
	"other-command",
] as const;
/** One of {@link GIT_PROGRAM_KEY_KINDS}. */
export type GitProgramKeyKind = (typeof GIT_PROGRAM_KEY_KINDS)[number];

/** A config entry that can make git run a program. */
export interface GitProgramKey {
	readonly kind: GitProgramKeyKind;
	/** `section.key` or `section.<subsection>.key`, lower-cased except the subsection. */
	readonly name: string;
}

const FALSE_VALUES = new Set(["false", "no", "off", "0", ""]);
const BOOLEAN_VALUES = new Set(["true", "yes", "on", "1", "false", "no", "off", "0", ""]);

// Compared as parsed, with no trimming: git keeps quoted blanks (`fsmonitor = "false "` is a hook command to git).
function isFalse(value: string | undefined): boolean {
	return value !== undefined && FALSE_VALUES.has(value.toLowerCase());
}

function isBoolean(value: string | undefined): boolean {
	return value === undefined || BOOLEAN_VALUES.has(value.toLowerCase());
}

/** The kind of program the entry names, or undefined when it names none. */
function programKind(entry: GitConfigEntry): GitProgramKeyKind | undefined {
	const { section, subsection, key, value } = entry;
	const sub = subsection !== undefined;
	switch (section) {
		case "core":
			if (sub) return undefined;
			if (key === "fsmonitor") return isFalse(value) ? undefined : "fsmonitor";
			if (key === "pager") return value === undefined || value === "" ? undefined : "pager";
			if (key === "editor") return "editor";
			if (key === "sshcommand") return "ssh-command";
			if (key === "hookspath") return "hooks-path";
			if (key === "askpass") return "askpass";
			if (key === "gitproxy") return "proxy-command";
			if (key === "alternaterefscommand") return "other-command";
			return undefined;
		case "pager":
			// pager.<cmd> = false|true chooses paging; any other value is the pager program.
			return isBoolean(value) ? undefined : "pager";
		case "diff":
			if (!sub && key === "external") return "external-diff";
			if (sub && key === "command") return "diff-driver";
			if (sub && key === "textconv") return "textconv";
			return undefined;
		case "filter":
			return sub && (key === "clean" || key === "smudge" || key === "process") ? "filter-driver" : undefined;
		case "merge":
			return sub && key === "driver" ? "merge-driver" : undefined;
		case "alias":
			return value?.trimStart().startsWith("!") ? "shell-alias" : undefined;
		case "credential":
			return key === "helper" && value !== undefined && value !== "" ? "credential-helper" : undefined;
		case "gpg":
			if (key === "program" || key === "defaultkeycommand") return "gpg-program";
			return undefined;
		case "sequence":
			return !sub && key === "editor" ? "editor" : undefined;
		case "log":
			// `git log` and `git show` verify each signed commit's signature with gpg (or ssh-keygen).
			return !sub && key === "showsignature" && !isFalse(value) ? "gpg-program" : undefined;
		case "format":
			// A default format with a signature placeholder runs gpg the same way.
			return !sub && key === "pretty" && formatRunsGpg(value) ? "gpg-program" : undefined;
		case "pretty":
			return formatRunsGpg(value) ? "gpg-program" : undefined;
		case "interactive":
			return key === "difffilter" ? "other-command" : undefined;
		case "difftool":
		case "mergetool":
		case "browser":
		case "man":
			return key === "cmd" || key === "path" ? "tool-command" : undefined;
		case "web":
			return key === "browser" ? "tool-command" : undefined;
		case "remote":
			if (key === "uploadpack" || key === "receivepack" || key === "vcs") return "remote-program";
			// A promisor remote: a read that meets a missing object fetches it, through whatever the URL names (an
			// `ext::` command) and with the fetch's auto-maintenance hooks. A `partialclonefilter` alone makes a remote
			// a promisor too, whatever its value (an eighteenth review).
			return (key === "promisor" && !isFalse(value)) || key === "partialclonefilter" ? "lazy-fetch" : undefined;
		case "extensions":
			return !sub && key === "partialclone" ? "lazy-fetch" : undefined;
		case "uploadpack":
			return key === "packobjectshook" ? "other-command" : undefined;
		case "trailer":
			return key === "command" || key === "cmd" ? "other-command" : undefined;
		case "submodule":
			return key === "update" && value?.trimStart().startsWith("!") ? "other-command" : undefined;
		case "sendemail":
			if (key === "sendmailcmd" || key === "tocmd" || key === "cccmd") return "other-command";
			return key === "smtpserver" && value?.startsWith("/") ? "other-command" : undefined;
		case "tar":
			// `git archive --format=tgz` pipes through the command a format names (an eighty-fifth review).
			return sub && key === "command" ? "other-command" : undefined;
		case "imap":
			return key === "tunnel" ? "other-command" : undefined;
		case "lfs":
			// git-lfs runs a custom transfer agent's `path` and an extension's `clean`/`smudge` commands.
			return sub && (key === "path" || key === "clean" || key === "smudge") ? "other-command" : undefined;
		case "ssh":
			return undefined;
		default:
			return undefined;
	}
}

/**
 * True when a pretty format (`--format=…`, `format.pretty`, `pretty.<name>`) holds a signature placeholder (`%G?`,
 * `%GS`, `%GG`, `%GK`, …), which makes git run gpg on each signed commit it prints. Pure.
 */
export function formatRunsGpg(format: string | undefined): boolean {
	// git reads a `+`, `-` or space between `%` and the placeholder (`%+G?`) as a modifier of it.
	return format !== undefined && /%[-+ ]?G/.test(format);
}

/** The last entry of `section.key` (no subsection) among `entries`: the one git uses. */
export function lastGitConfigEntry(
	entries: readonly GitConfigEntry[],
	section: string,
	key: string,
): GitConfigEntry | undefined {
	return entries.findLast((entry) => entry.section === section && entry.subsection === undefined && entry.key === key);
}

/** Every entry that can make git run a program, in file order. */
export function gitProgramKeys(entries: readonly GitConfigEntry[]): GitProgramKey[] {
	const found: GitProgramKey[] = [];
	for (const entry of entries) {
		const kind = programKind(entry);
		if (kind === undefined) continue;
		const name =
			entry.subsection === undefined
				? `${entry.section}.${entry.key}`
				: `${entry.section}.${entry.subsection}.${entry.key}`;
		found.push({ kind, name });
	}
	return found;
}

/**
 * The words of the commands config entries name that look like paths (hold a `/`, and do not end in one: a folder is
 * no program): the file a filter, textconv, fsmonitor hook or editor runs, also as an argument (`filter.strip.clean =
 * python scripts/strip.py`), which git runs at the user's next `git add` or `git status` as it runs a hook; and the
 * template folder `init.templateDir` names, whose hooks and config every new repository copies (an eighty-fifth
 * review). A caller places a relative one below the working tree's top (git runs these there), `~/` in home. Words
 * are split as {@link commandWords} splits them, and an option's value counts (`--rcfile=tools/x.cfg`). Left out:
 * `core.hooksPath` (see `gitHooksFolderPaths`), a promisor remote's keys, which name no program, and `!` aliases,
 * which run only when the user names them (`git release`), like any script the user runs. A program found by its
 * interpreter (`python3 -m tools.clean`, `npx prettier`, `node scripts/pretty` for `pretty.js`) is not named here.
 * Pure; never throws.
 */
export function gitProgramPathWords(entries: readonly GitConfigEntry[]): string[] {
	const words: string[] = [];
	for (const entry of entries) {
		if (entry.value === undefined) continue;
		if (entry.section === "init" && entry.subsection === undefined && entry.key === "templatedir") {
			if (entry.value !== "") words.push(entry.value);
			continue;
		}
		const kind = programKind(entry);
		if (kind === undefined || kind === "hooks-path" || kind === "lazy-fetch" || kind === "shell-alias") continue;
		for (const part of commandWords(entry.value)) {
			const equals = part.indexOf("=");
			const word = part.startsWith("-") && equals >= 0 ? part.slice(equals + 1) : part;
			if (word.includes("/") && !word.endsWith("/")) words.push(word);
		}
	}
	return words;
}

/** Characters that end a word outside quotes, as `sh` reads a command line. */
const COMMAND_WORD_ENDS = new Set([" ", "\t", "\n", ";", "|", "&", "(", ")", "<", ">"]);

/**
 * The words of a shell command, as `sh` splits them before expansion (approximately): quotes join (`'a b'` is one
 * word), a `\` keeps the next character, blanks and `;|&()<>` end a word. An expansion (`$(…)`, backquotes,
 * `${…}`, `$NAME`) is left out of the word; a word that goes on with `/` after one (`$(git rev-parse
 * --show-toplevel)/scripts/strip.sh`, the usual way to name a repository's script) is taken from the top, as that
 * idiom names it (`scripts/strip.sh`). Linear in the text. Pure; never throws.
 */
export function commandWords(command: string): string[] {
	const words: string[] = [];
	let word = "";
	let expanded = false;
	let quote: "'" | '"' | undefined;
	let started = false;
	const end = () => {
		if (started) words.push(expanded && word.startsWith("/") ? word.replace(/^\/+/, "") : word);
		word = "";
		expanded = false;
		started = false;
	};
	for (let index = 0; index < command.length; index++) {
		const char = command[index] as string;
		if (quote === "'") {
			if (char === "'") quote = undefined;
			else word += char;
			continue;
		}
		if (char === "\\" && index + 1 < command.length) {
			word += command[++index];
			started = true;
			continue;
		}
		if (char === "$" || char === "`") {
			index = expansionEnd(command, index);
			if (!started || word === "") expanded = true;
			started = true;
			continue;
		}
		if (quote === '"') {
			if (char === '"') quote = undefined;
			else word += char;
			continue;
		}
		if (char === "'" || char === '"') {
			quote = char;
			started = true;
			continue;
		}
		if (COMMAND_WORD_ENDS.has(char)) {
			end();
			continue;
		}
		word += char;
		started = true;
	}
	end();
	return words.filter((part) => part !== "");
}

/**
 * The index of the last character of the expansion that starts at `start` (`$(…)` with its nesting, a backquoted
 * span, `${…}`, `$NAME`, or a lone `$`). Linear in what it passes.
 */
function expansionEnd(command: string, start: number): number {
	if (command[start] === "`") {
		const close = command.indexOf("`", start + 1);
		return close < 0 ? command.length - 1 : close;
	}
	const next = command[start + 1];
	if (next === "(" || next === "{") {
		const open = next;
		const close = open === "(" ? ")" : "}";
		let depth = 0;
		for (let index = start + 1; index < command.length; index++) {
			if (command[index] === open) depth++;
			else if (command[index] === close && --depth === 0) return index;
		}
		return command.length - 1;
	}
	let index = start;
	while (index + 1 < command.length && /[A-Za-z0-9_?#@*!$-]/.test(command[index + 1] as string)) {
		index++;
		if (!/[A-Za-z0-9_]/.test(command[index] as string)) break;
	}
	return index;
}

/**
 * Judges one config file's text on its own: `unsafe` when a key can run a program, `unknown` when the text does
 * not parse, `safe` otherwise. Includes are not followed here: a caller combines this with the verdicts of the
 * files {@link gitConfigIncludes} lists (see {@link combineGitConfigVerdicts}).
 */
export function judgeGitConfigText(text: string): GitConfigVerdict {
	const parsed = parseGitConfig(text);
	return parsed.ok ? judgeGitConfigEntries(parsed.value) : "unknown";
}

/**
 * The `core.excludesFile` one config file sets (the last one wins, as in git): undefined when it sets none (or sets
 * it empty), `unknown` when the text does not parse. Pure; never throws.
 */
export function gitConfigExcludesFile(text: string): string | undefined {
	const parsed = parseGitConfig(text);
	if (!parsed.ok) return "unknown";
	const set = lastGitConfigEntry(parsed.value, "core", "excludesfile")?.value;
	return set === "" ? undefined : set;
}

/** {@link judgeGitConfigText} on entries already parsed: `unsafe` when a key can run a program, else `safe`. */
export function judgeGitConfigEntries(entries: readonly GitConfigEntry[]): GitConfigVerdict {
	return gitProgramKeys(entries).length > 0 ? "unsafe" : "safe";
}

/** The verdict over several files: `unsafe` if any is, else `unknown` if any is, else `safe` (also for none). */
export function combineGitConfigVerdicts(verdicts: readonly GitConfigVerdict[]): GitConfigVerdict {
	if (verdicts.includes("unsafe")) return "unsafe";
	if (verdicts.includes("unknown")) return "unknown";
	return "safe";
}

/**
 * Settings that make git's read-only forms print more file content than their words say, as a fact for the
 * floor's rule on git that prints content from the index or history (decision 0022):
 * - `follows-renames`: `log.follow` (`git log -p -- cfg.txt` goes on through a rename from `.env`);
 * - `stash-shows-patch`: `stash.showPatch` (`git stash show` prints the patch, a stashed `.env` included);
 * - `submodule-content`: `diff.submodule=diff` or `submodule.recurse` (diffs and `git grep` print the content of
 *   submodules, whose histories the shell does not list);
 * - `blame-reads-file`: `blame.ignoreRevsFile` (`git blame` reads that file and prints its first line that names
 *   no commit: `fatal: invalid object name: <line>`).
 */
export const GIT_CONTENT_SETTINGS = [
	"follows-renames",
	"stash-shows-patch",
	"submodule-content",
	"blame-reads-file",
] as const;
/** One of {@link GIT_CONTENT_SETTINGS}. */
export type GitContentSetting = (typeof GIT_CONTENT_SETTINGS)[number];

/** Which setting a key turns on, given its value (undefined: a bare key, which git reads as true). */
function contentSettingOf(name: string, value: string | undefined): GitContentSetting | undefined {
	switch (name) {
		case "log.follow":
			return isFalse(value) ? undefined : "follows-renames";
		case "stash.showpatch":
			return isFalse(value) ? undefined : "stash-shows-patch";
		case "diff.submodule": {
			// `short` (the default) and `log` print commit names and messages; `diff` prints the files.
			const format = value?.trim().toLowerCase();
			return format === "short" || format === "log" ? undefined : "submodule-content";
		}
		case "submodule.recurse":
			return isFalse(value) ? undefined : "submodule-content";
		case "blame.ignorerevsfile":
			// An empty value clears the list of files.
			return value === "" ? undefined : "blame-reads-file";
		default:
			return undefined;
	}
}

/**
 * The content settings (see {@link GIT_CONTENT_SETTINGS}) one config file's entries turn on, the last value of a
 * key winning as in git. A value git would not read as off counts as on. Pure; never throws.
 */
export function gitContentSettings(entries: readonly GitConfigEntry[]): GitContentSetting[] {
	const last = new Map<string, string | undefined>();
	for (const entry of entries) {
		if (entry.subsection === undefined) last.set(`${entry.section}.${entry.key}`, entry.value);
	}
	const settings = new Set<GitContentSetting>();
	for (const [name, value] of last) {
		const setting = contentSettingOf(name, value);
		if (setting !== undefined) settings.add(setting);
	}
	return GIT_CONTENT_SETTINGS.filter((setting) => settings.has(setting));
}

/**
 * The settings over several files: each one any file turns on (a later file that turns it off again is not
 * followed, since the reader does not keep git's order across includes). Pure; never throws.
 */
export function combineGitContentSettings(lists: readonly (readonly GitContentSetting[])[]): GitContentSetting[] {
	return GIT_CONTENT_SETTINGS.filter((setting) => lists.some((list) => list.includes(setting)));
}
