// Pure judgement of the shell Pi's bash tool runs commands in. The floor reads every command as plain, non-interactive
// `bash -c`, which is what Pi runs by default. Pi's `shellPath` and `shellCommandPrefix` settings and the environment
// bash inherits can change what a command means (an alias, an exported function or a `BASH_ENV` file can redefine
// `ls`; a workspace folder on `PATH` lets a file the agent wrote answer to `ls`). The shell collects the values; this
// module only decides.
import { parseBashSyntax } from "../bash/index.js";
import { isByteSafeLocale, isSafeEnvironmentAssignment } from "./floor.js";
import { isWithin, normalizeAbsolutePath } from "./paths.js";

/**
 * What the floor may assume about the shell: `bash` when commands run in plain `bash -c` as Pi runs them by default,
 * `custom` when the setup can change what a command means (then the floor allows no bash command by itself).
 */
export const SHELL_SETUP_VERDICTS = ["bash", "custom"] as const;
/** One of {@link SHELL_SETUP_VERDICTS}. */
export type ShellSetupVerdict = (typeof SHELL_SETUP_VERDICTS)[number];

/**
 * Why a setup is `custom`, for `/guardian status`: a non-bash `shellPath`, a `shellCommandPrefix` that does more than
 * set variables, a startup variable (`BASH_ENV`, …), an exported function, a `PATH` entry that is the current
 * directory, goes up or holds a glob, or settings the shell could not read or judge.
 */
export const SHELL_SETUP_CAUSES = [
	"shell-path",
	"command-prefix",
	"startup-environment",
	"exported-function",
	"path-entry",
	"unreadable-settings",
] as const;
/** One of {@link SHELL_SETUP_CAUSES}. */
export type ShellSetupCause = (typeof SHELL_SETUP_CAUSES)[number];

/** The values the shell collects: Pi's settings for its bash tool and the environment bash inherits. */
export interface ShellSetupInput {
	/** Pi's `shellPath` setting, when set. */
	readonly shellPath?: string | undefined;
	/** Pi's `shellCommandPrefix` setting, when set: Pi runs it before every command. */
	readonly commandPrefix?: string | undefined;
	/** The environment bash inherits (Pi's own process environment). */
	readonly environment: Readonly<Record<string, string | undefined>>;
	/** The workspace root (absolute). */
	readonly workspace: string;
	/** The additional workspace directories (absolute, normalized; `FloorContext.additionalDirectories`). */
	readonly additionalDirectories?: readonly string[];
	/** The home directory (absolute), for a `~` in `shellPath`. */
	readonly home: string;
	/** What separates `PATH` entries: `:` (default), `;` on Windows. */
	readonly pathDelimiter?: ":" | ";";
	/**
	 * The real path (links followed) of each absolute `PATH` folder and of the workspace and the additional
	 * directories, as the shell found them, keyed by the normalized name: a folder named outside the workspace may
	 * lie in it (`~/bin -> ~/dotfiles/bin`), and one named inside may lead elsewhere in it (`bin -> tools`).
	 */
	readonly realPaths?: ReadonlyMap<string, string>;
	/** The operating system (`process.platform`): macOS and the BSDs ship BSD `sed`, `cp` and `mv`. */
	readonly platform?: string;
}

/** What {@link judgeShellSetup} found, as facts for the floor. */
export interface ShellSetupFacts {
	readonly verdict: ShellSetupVerdict;
	/** Why the verdict is `custom` (absent for `bash`). */
	readonly cause?: ShellSetupCause;
	/**
	 * Protected globs for the folders on `PATH` the agent could write into: each absolute one inside the workspace
	 * (or an additional directory),
	 * and each relative one (`./node_modules/.bin`) at every depth of the workspace. A file written there answers to
	 * a command name, so the floor protects them like `.git/`.
	 */
	readonly commandDirectories: readonly string[];
	/** True when the environment sets a non-empty `CDPATH`, so `cd NAME` may go elsewhere than `./NAME`. */
	readonly cdSearchPath: boolean;
	/**
	 * True when a `PATH` entry is a version manager's `shims` folder (pyenv, rbenv, nodenv, asdf, mise, proto) or
	 * Volta's `bin` (`~/.volta/bin`, `$VOLTA_HOME/bin`): the program a command name runs is picked by a file in the
	 * working folder or above (`.python-version`, `.tool-versions`, a `package.json` pin Volta downloads).
	 */
	readonly versionShims?: boolean;
	/**
	 * True when the locale bash reads characters in (`LC_ALL`, else `LC_CTYPE`, else `LANG`, the first one set and not
	 * empty) is not byte-safe (`zh_CN.GBK`, `ja_JP.SJIS`, `zh_TW`): see `isByteSafeLocale`.
	 */
	readonly multibyteLocale?: boolean;
	/**
	 * True on macOS and the BSDs, whose `sed` takes `-i SUFFIX` as two words and `-l` without a value (a sixty-seventh
	 * review: `sed -i .md -e p AGENTS` writes `AGENTS.md` there).
	 */
	readonly bsdUserland?: boolean;
	/**
	 * True when the programs stop reading options at their first operand: BSD's (macOS), or GNU's under
	 * `POSIXLY_CORRECT`. `cp a b -f` then copies into a folder (or link) named `-f`.
	 */
	readonly optionsEndAtOperand?: boolean;
}

/**
 * Environment names bash reads at startup that change what a command means: a file it sources first (`BASH_ENV`,
 * `ENV` for `sh`), shell options (`SHELLOPTS`, `BASHOPTS`) and `GLOBIGNORE` (which also turns on `dotglob`, so `*`
 * matches `.env`). Exported functions (`BASH_FUNC_name%%`) are matched by prefix.
 */
export const SHELL_STARTUP_ENVIRONMENT_NAMES = ["BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE"] as const;

/** A `PATH` with more entries than this, or a prefix longer than this many characters, is not judged (`custom`). */
const MAX_PATH_ENTRIES = 256;
const MAX_COMMAND_PREFIX_CHARS = 4_096;

/**
 * Judges the shell Pi's bash tool runs commands in. `custom` when:
 * - `shellPath` names a shell other than bash (zsh glob qualifiers and fish's `(cmd)` run code where bash reads a
 *   plain word), or a bash inside the workspace;
 * - `shellCommandPrefix` does more than set environment variables the floor already allows as prefixes
 *   (`export CI=1` is fine; `shopt -s expand_aliases`, `source ~/.bash_aliases` or `alias` is not);
 * - the environment sets {@link SHELL_STARTUP_ENVIRONMENT_NAMES} or exports a function;
 * - `PATH` has an entry for the current directory (empty, `.`) or one going up (`..`), a glob character, or more
 *   than 256 entries.
 *
 * Folders on `PATH` the agent could write into are returned as {@link ShellSetupFacts.commandDirectories}. Pure;
 * never throws.
 */
export function judgeShellSetup(input: ShellSetupInput): ShellSetupFacts {
	const environment = input.environment;
	const cdSearchPath = (environment.CDPATH ?? "") !== "";
	const custom = (cause: ShellSetupCause): ShellSetupFacts => customShellSetup(cause, cdSearchPath);
	try {
		const roots = [normalizeAbsolutePath(input.workspace), ...(input.additionalDirectories ?? [])];
		if (!isPlainBash(input.shellPath, roots, input.home)) return custom("shell-path");
		// `$HOME` in the prefix is the shell's own.
		if (!isNeutralPrefix(input.commandPrefix, roots, environment.HOME ?? input.home)) return custom("command-prefix");
		for (const [name, value] of Object.entries(environment)) {
			if (value === undefined) continue;
			if (name.startsWith("BASH_FUNC_")) return custom("exported-function");
			if ((SHELL_STARTUP_ENVIRONMENT_NAMES as readonly string[]).includes(name) && value !== "")
				return custom("startup-environment");
		}
		// Unset, bash searches its default path; set, each entry counts (an empty one is the current directory).
		const pathKey = Object.keys(environment).find((name) => name.toUpperCase() === "PATH");
		const path = pathKey === undefined ? undefined : environment[pathKey];
		const delimiter = input.pathDelimiter ?? ":";
		const entries = path === undefined ? [] : path.split(delimiter);
		if (entries.length > MAX_PATH_ENTRIES) return custom("path-entry");
		if (roots.some(hasGlobCharacter)) return custom("path-entry");
		const commandDirectories: string[] = [];
		const add = (glob: string) => {
			if (!commandDirectories.includes(glob)) commandDirectories.push(glob);
		};
		for (const entry of entries) {
			// A Windows folder (`C:\\Windows`) is absolute too; the workspace is compared as a POSIX path.
			if (/^[A-Za-z]:[\\/]/.test(entry)) continue;
			// A glob character would make the folder a pattern when protected; such a folder is not judged.
			if (hasGlobCharacter(entry)) return custom("path-entry");
			// bash expands a leading `~` in a `PATH` entry when it looks a command up (`PATH="~/bin:$PATH"`).
			if (entry.startsWith("~") && entry !== "~" && !entry.startsWith("~/")) return custom("path-entry");
			const absolute = entry === "~" || entry.startsWith("~/") ? `${input.home}/${entry.slice(1)}` : entry;
			if (absolute.startsWith("/")) {
				// `..` after a link is taken from the link's target (`ws/lnk/../bin` with `lnk -> sub/deep`): not judged.
				if (absolute.split("/").includes("..")) return custom("path-entry");
				const folder = normalizeAbsolutePath(absolute);
				if (roots.some((root) => isWithin(root, folder))) add(folder);
				// Where its links lead, named through the root it lies in.
				const real = input.realPaths?.get(folder);
				if (real !== undefined) {
					for (const root of roots) {
						const rootReal = input.realPaths?.get(root) ?? root;
						if (isWithin(rootReal, real)) add(normalizeAbsolutePath(`${root}/${real.slice(rootReal.length)}`));
					}
				}
				continue;
			}
			// A relative entry (pnpm puts `./node_modules/.bin` first) is looked up from wherever the command runs:
			// that folder is protected at every depth of the workspace. The current directory itself (an empty entry,
			// `.`) or a way up (`..`) would make any folder one.
			const parts = entry.split("/").filter((part) => part !== "" && part !== ".");
			if (parts.length === 0 || parts.includes("..")) return custom("path-entry");
			const relative = parts.join("/");
			for (const root of roots) {
				add(`${root === "/" ? "" : root}/${relative}`);
				add(`${root === "/" ? "" : root}/**/${relative}`);
			}
		}
		// Volta's shims live in `$VOLTA_HOME/bin` (`~/.volta/bin`): its `node` reads the project's `package.json` pin
		// and downloads a missing version (a thirty-fifth review).
		const voltaBin = (environment.VOLTA_HOME ?? "").replace(/\/+$/, "");
		const versionShims = entries.some((entry) => {
			const folder = entry.replace(/\/+$/, "");
			return (
				folder.split("/").at(-1) === "shims" ||
				folder.endsWith("/.volta/bin") ||
				(voltaBin !== "" && folder === `${voltaBin}/bin`)
			);
		});
		const locale = [environment.LC_ALL, environment.LC_CTYPE, environment.LANG].find((value) => (value ?? "") !== "");
		const multibyteLocale = !isByteSafeLocale(locale);
		const bsdUserland = input.platform === "darwin" || (input.platform ?? "").endsWith("bsd");
		const optionsEndAtOperand = bsdUserland || environment.POSIXLY_CORRECT !== undefined;
		return {
			verdict: "bash",
			commandDirectories,
			cdSearchPath,
			...(versionShims ? { versionShims } : {}),
			...(multibyteLocale ? { multibyteLocale } : {}),
			...(bsdUserland ? { bsdUserland } : {}),
			...(optionsEndAtOperand ? { optionsEndAtOperand } : {}),
		};
	} catch {
		return custom("unreadable-settings");
	}
}

/**
 * A `custom` setup with its cause: the floor allows no bash command by itself. The shell uses it for settings it
 * could not read (`unreadable-settings`), so that case fails closed.
 */
export function customShellSetup(cause: ShellSetupCause, cdSearchPath: boolean): ShellSetupFacts {
	return { verdict: "custom", cause, commandDirectories: [], cdSearchPath };
}

function hasGlobCharacter(text: string): boolean {
	return /[*?[\]]/.test(text);
}

/** True for no `shellPath`, or one whose file name is `bash` (or `bash.exe`) outside the workspace. */
function isPlainBash(shellPath: string | undefined, roots: readonly string[], home: string): boolean {
	if (shellPath === undefined || shellPath.trim() === "") return true;
	const name = (shellPath.split(/[\\/]/).pop() ?? "").toLowerCase();
	if (name !== "bash" && name !== "bash.exe") return false;
	// A Windows path (`C:\\Program Files\\Git\\bin\\bash.exe`) is an installed bash.
	if (/^[A-Za-z]:[\\/]/.test(shellPath)) return true;
	const resolved = shellPath.startsWith("~/") ? `${home}/${shellPath.slice(2)}` : shellPath;
	// A bare `bash` is looked up on PATH; another relative path is relative to Pi's working directory.
	if (!resolved.startsWith("/")) return !resolved.includes("/");
	const shell = normalizeAbsolutePath(resolved);
	return !roots.some((root) => isWithin(root, shell));
}

/** A folder of a `PATH` value: absolute, in characters that need no quoting (see {@link pathValueFolders}). */
const PLAIN_ABSOLUTE_FOLDER = /^\/[A-Za-z0-9._+/-]*$/;
/** `$HOME` or `${HOME}` at the start of a `PATH` entry, alone or followed by `/…`. */
const HOME_PREFIX = /^(?:\$HOME|\$\{HOME\})(?=\/|$)/;

/**
 * The folders a `PATH` value (its source text, `"$HOME/.local/bin:$PATH"`) puts on the search path, resolved, or
 * undefined when the floor cannot be sure of them. Each `:`-separated entry must be `$PATH` (the shell's own, judged
 * with the session's shell setup) or an absolute folder, written out or after `$HOME`, in plain characters. Anything
 * else is undefined: an empty or relative entry (looked up from wherever the command runs), `~` (expanded after `:`
 * in some places only), another expansion, quotes or escapes inside the value, a home that is not plain.
 */
export function pathValueFolders(text: string, home: string): string[] | undefined {
	const inner = text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
	if (/["'\\`]/.test(inner) || inner.includes("$(")) return undefined;
	const folders: string[] = [];
	for (const entry of inner.split(":")) {
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own `${PATH}`, not a template.
		if (entry === "$PATH" || entry === "${PATH}") continue;
		if (HOME_PREFIX.test(entry) && !PLAIN_ABSOLUTE_FOLDER.test(home)) return undefined;
		const folder = entry.replace(HOME_PREFIX, home);
		if (!PLAIN_ABSOLUTE_FOLDER.test(folder)) return undefined;
		folders.push(normalizeAbsolutePath(folder));
	}
	return folders;
}

/**
 * True for no prefix, or one whose every statement is a simple command that only sets environment variables the
 * floor allows as command prefixes, to literal values (`CI=1`, `export CI=1 NO_COLOR=1`), or `PATH` to a value that
 * only adds folders outside the workspace (`export PATH="$HOME/.local/bin:$PATH"`; see `pathValueFolders`).
 */
function isNeutralPrefix(prefix: string | undefined, roots: readonly string[], home: string): boolean {
	if (prefix === undefined || prefix.trim() === "") return true;
	if (prefix.length > MAX_COMMAND_PREFIX_CHARS) return false;
	const parsed = parseBashSyntax(prefix);
	if (!parsed.ok) return false;
	for (const statement of parsed.tree.statements) {
		if (statement.terminator === "&") return false;
		for (const pipeline of statement.pipelines) {
			if (pipeline.negated || pipeline.commands.length !== 1) return false;
			const command = pipeline.commands[0];
			if (command === undefined || command.kind !== "simple" || command.redirects.length > 0) return false;
			const isSafePath = (text: string) =>
				pathValueFolders(text, home)?.every((folder) => !roots.some((root) => isWithin(root, folder))) === true;
			for (const assignment of command.assignments) {
				if (assignment.name === "PATH" && !assignment.append && isSafePath(assignment.value.text)) continue;
				if (!isSafeEnvironmentAssignment(assignment.name, assignment.value.literal)) return false;
			}
			const [first, ...rest] = command.words;
			if (first === undefined) continue;
			if (first.literal !== "export") return false;
			for (const word of rest) {
				if (word.text.startsWith("PATH=") && isSafePath(word.text.slice("PATH=".length))) continue;
				const literal = word.literal;
				const equals = literal?.indexOf("=") ?? -1;
				if (literal === undefined || equals <= 0) return false;
				if (!isSafeEnvironmentAssignment(literal.slice(0, equals), literal.slice(equals + 1))) return false;
			}
		}
	}
	return true;
}
