// Bash exploration: which bash commands are read-only repository exploration (rg, grep -r, git grep, find, ls -R,
// tree, fd, cat, head/tail, sed -n, nl, bat), classified from the kernel's shell syntax tree with the seed's rules
// applied to their arguments. Anything else (writes, builds, tests, mixed compositions, unparseable input) is
// never counted.
import {
	type BashExpansionKind,
	type BashList,
	type BashRedirect,
	type BashRedirectOp,
	type BashSimpleCommand,
	type BashWord,
	parseBashSyntax,
} from "../bash/syntax.js";
import {
	DEFAULT_RESULT_LIMITS,
	type ExplorationExemption,
	explorationPathScope,
	isExcludedExplorationRead,
} from "./classify.js";
import type { ExplorationCategory } from "./vocabulary.js";

/** Why a bash command is never counted. */
export const BASH_NEVER_COUNTED_REASONS = ["not-exploration", "writes", "composed", "dynamic", "unparseable"] as const;

/** One of {@link BASH_NEVER_COUNTED_REASONS}. */
export type BashNeverCountedReason = (typeof BASH_NEVER_COUNTED_REASONS)[number];

/**
 * The classification of one bash command:
 * - `never`: not pure exploration (never counted, never blocked), with the reason;
 * - `exempt`: pure exploration that the seed's exemptions leave uncounted (narrow path, excluded file, small
 *   window, shallow listing);
 * - `broad`: pure exploration that counts, in the category of its first broad part.
 */
export type BashExplorationClassification =
	| { readonly kind: "never"; readonly reason: BashNeverCountedReason }
	| { readonly kind: "exempt"; readonly category: ExplorationCategory; readonly exemption: ExplorationExemption }
	| { readonly kind: "broad"; readonly category: ExplorationCategory };

/** Commands longer than this are not classified (never counted). */
export const MAX_BASH_EXPLORATION_CHARS = 8_000;

/** Lines printed by `head`/`tail` without `-n`. */
const DEFAULT_HEAD_LINES = 10;
/** Bytes per allowed line when `head -c`/`tail -c` is compared with `smallReadMaxLines`. */
const BYTES_PER_LINE = 120;

// ---------------------------------------------------------------------------------------------------------------
// The adapter over the syntax tree: everything below reads only plain words, redirect operators and structure.

interface Word {
	readonly text: string;
	/** Holds an expansion (`$VAR`, `$(...)`): its value is unknown. */
	readonly dynamic: boolean;
	readonly tilde: boolean;
}

interface SimpleCommand {
	readonly words: readonly Word[];
	/** Writes to a file (an output redirection to anything but /dev/null or a descriptor). */
	readonly writesFile: boolean;
	readonly hasAssignments: boolean;
}

interface Tree {
	/** Pipelines in order; each is the commands joined by `|`. */
	readonly pipelines: readonly (readonly SimpleCommand[])[];
	/** Control flow, subshells, background jobs, substitutions: not a plain list of pipelines. */
	readonly structured: boolean;
	readonly substituted: boolean;
}

const OUTPUT_REDIRECTS: ReadonlySet<BashRedirectOp> = new Set<BashRedirectOp>([">", ">>", "&>", "&>>", ">|", "<>"]);
const DYNAMIC_EXPANSIONS: ReadonlySet<BashExpansionKind> = new Set<BashExpansionKind>([
	"command-substitution",
	"process-substitution",
	"parameter-expansion",
	"arithmetic",
]);

function toWord(word: BashWord): Word {
	return {
		text: word.value,
		dynamic: word.expansions.some((kind) => DYNAMIC_EXPANSIONS.has(kind)),
		tilde: word.expansions.includes("tilde"),
	};
}

function writesFile(redirects: readonly BashRedirect[]): boolean {
	for (const redirect of redirects) {
		const target = redirect.target.value;
		if (redirect.op === ">&" || redirect.op === "<&") {
			if (!/^\d+$|^-$/.test(target)) return true;
			continue;
		}
		if (OUTPUT_REDIRECTS.has(redirect.op) && target !== "/dev/null") return true;
	}
	return false;
}

function substitutes(command: BashSimpleCommand): boolean {
	if (command.script !== undefined) return true;
	for (const word of command.words) if (word.substitutions.length > 0) return true;
	for (const assignment of command.assignments) if (assignment.value.substitutions.length > 0) return true;
	for (const redirect of command.redirects) {
		if (redirect.target.substitutions.length > 0) return true;
		if (redirect.heredoc !== undefined && redirect.heredoc.substitutions.length > 0) return true;
	}
	return false;
}

/** Flattens the syntax tree into plain pipelines; anything but lists of simple-command pipelines is `structured`. */
function toTree(list: BashList): Tree {
	const pipelines: SimpleCommand[][] = [];
	let structured = false;
	let substituted = false;
	for (const statement of list.statements) {
		if (statement.terminator === "&") structured = true;
		for (const pipeline of statement.pipelines) {
			if (pipeline.negated) structured = true;
			const commands: SimpleCommand[] = [];
			for (const command of pipeline.commands) {
				if (command.kind !== "simple") {
					structured = true;
					continue;
				}
				if (substitutes(command)) substituted = true;
				commands.push({
					words: command.words.map(toWord),
					writesFile: writesFile(command.redirects),
					hasAssignments: command.assignments.length > 0,
				});
			}
			pipelines.push(commands);
		}
	}
	return { pipelines, structured, substituted };
}

// ---------------------------------------------------------------------------------------------------------------
// Per-command rules.

/** What one pipeline (or one command of it) amounts to. */
type Part =
	| {
			readonly kind: "explore";
			readonly category: ExplorationCategory;
			readonly outcome: "broad" | ExplorationExemption;
	  }
	| { readonly kind: "neutral" }
	| { readonly kind: "cd"; readonly target: string | undefined }
	| { readonly kind: "other"; readonly reason: BashNeverCountedReason };

interface Env {
	/** The cwd the classifier compares against. */
	readonly root: string;
	/** The directory the command runs in (after `cd`). */
	readonly dir: string;
	readonly smallReadMaxLines: number;
}

const OTHER = (reason: BashNeverCountedReason): Part => ({ kind: "other", reason });

/** Commands that change files (never counted, whatever else they do). */
const WRITING_COMMANDS = new Set([
	"rm",
	"rmdir",
	"mv",
	"cp",
	"mkdir",
	"touch",
	"chmod",
	"chown",
	"ln",
	"tee",
	"patch",
	"truncate",
	"dd",
	"install",
	"unlink",
	"shred",
]);

/** Read-only commands that neither explore nor spoil a pure exploration (`pwd && ls -R`). */
const NEUTRAL_COMMANDS = new Set([
	"pwd",
	"echo",
	"printf",
	"wc",
	"file",
	"stat",
	"du",
	"df",
	"which",
	"type",
	"whoami",
	"date",
	"basename",
	"dirname",
	"realpath",
	"readlink",
	"true",
	":",
]);

/** Git subcommands that change the work tree, the index or refs. */
const GIT_WRITES = new Set([
	"add",
	"commit",
	"checkout",
	"switch",
	"restore",
	"apply",
	"am",
	"reset",
	"stash",
	"clean",
	"rm",
	"mv",
	"merge",
	"rebase",
	"cherry-pick",
	"revert",
	"pull",
	"clone",
	"init",
	"tag",
	"worktree",
]);

/** Read-only git subcommands that are neutral; `ls-files` and `grep` explore. */
const NEUTRAL_GIT = new Set(["status", "log", "diff", "show", "branch", "rev-parse", "blame", "remote", "describe"]);

/** Commands that may follow a `|` without changing that the pipeline only explores. */
const FILTERS = new Set([
	"head",
	"tail",
	"grep",
	"egrep",
	"fgrep",
	"rg",
	"sort",
	"uniq",
	"wc",
	"cut",
	"tr",
	"column",
	"cat",
	"nl",
	"sed",
	"awk",
	"xargs",
	"jq",
	"less",
	"more",
]);

/**
 * Readers that print whole files: run by `xargs` or `find -exec` over a listing, they read every file it names (a
 * bulk read, counted like `cat` of them; a twenty-seventh review found them uncounted).
 */
const WHOLE_FILE_READERS = new Set(["cat", "tac", "nl", "bat", "batcat", "less", "more"]);

/** A glob operand of `head`/`tail` counts as this many files when their windows add up. */
const GLOB_OPERAND_FILES = 10;

/** Commands `xargs`, `find -exec` and `fd -x` may run while the pipeline still only explores. */
const READ_ONLY_EXEC = new Set([
	"grep",
	"egrep",
	"fgrep",
	"rg",
	"cat",
	"head",
	"tail",
	"wc",
	"ls",
	"file",
	"stat",
	"nl",
	"basename",
	"dirname",
	"echo",
]);

function joinDir(dir: string, target: string): string {
	if (target.startsWith("/") || target.startsWith("~")) return target;
	return `${dir.replace(/\/+$/, "")}/${target}`;
}

/** The scope of a path argument resolved against the current directory, compared with the root cwd. */
function scopeOf(path: string, env: Env): "cwd" | "ancestor" | "inside" | "outside" {
	if (path.startsWith("~")) return "outside";
	// A glob reaches the folder above its first wildcard part: `grep -rn X *` searches the working directory (a
	// twenty-seventh review counted it narrow), `src/*` searches `src`.
	const parts = path.split("/");
	const wild = parts.findIndex((part) => /[*?[]/.test(part));
	const reach = wild < 0 ? path : parts.slice(0, wild).join("/") || (path.startsWith("/") ? "/" : ".");
	return explorationPathScope(joinDir(env.dir, reach), env.root);
}

/** The seed's search rule over the scopes of the path arguments (none means the current directory). */
function searchOutcome(paths: readonly string[], env: Env): "broad" | ExplorationExemption {
	const scopes = (paths.length === 0 ? ["."] : paths).map((path) => scopeOf(path, env));
	if (scopes.some((scope) => scope === "cwd" || scope === "ancestor")) return "broad";
	if (scopes.every((scope) => scope === "outside")) return "outside-cwd";
	return "narrow-scope";
}

/** The seed's read rule over file arguments: exempt only when every file is excluded. */
function readOutcome(files: readonly string[]): "broad" | "excluded-path" {
	return files.every((file) => file === "__excluded__") ? "excluded-path" : "broad";
}

function excludedFiles(files: readonly string[], env: Env): string[] {
	return files.map((file) => (isExcludedExplorationRead(joinDir(env.dir, file), env.root) ? "__excluded__" : file));
}

function integer(text: string | undefined): number | undefined {
	if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
	return Number(text);
}

/** Splits words into options and operands, knowing which options take a value (`-e PAT`, `-A3`, `--glob=x`). */
function splitArgs(
	words: readonly string[],
	shortWithValue: string,
	longWithValue: ReadonlySet<string>,
): { options: Array<[string, string | undefined]>; operands: string[] } {
	const options: Array<[string, string | undefined]> = [];
	const operands: string[] = [];
	let i = 0;
	while (i < words.length) {
		const word = words[i] as string;
		i++;
		if (word === "--") {
			operands.push(...words.slice(i));
			break;
		}
		if (word.startsWith("--") && word.length > 2) {
			const eq = word.indexOf("=");
			if (eq >= 0) {
				options.push([word.slice(0, eq), word.slice(eq + 1)]);
			} else if (longWithValue.has(word)) {
				options.push([word, words[i]]);
				i++;
			} else options.push([word, undefined]);
			continue;
		}
		if (word.startsWith("-") && word.length > 1 && !/^-\d/.test(word)) {
			for (let j = 1; j < word.length; j++) {
				const letter = word[j] as string;
				if (shortWithValue.includes(letter)) {
					const rest = word.slice(j + 1);
					if (rest !== "") options.push([`-${letter}`, rest]);
					else {
						options.push([`-${letter}`, words[i]]);
						i++;
					}
					break;
				}
				options.push([`-${letter}`, undefined]);
			}
			continue;
		}
		if (/^-\d+$/.test(word)) {
			options.push([word, undefined]);
			continue;
		}
		operands.push(word);
	}
	return { options, operands };
}

const RG_LONG_VALUE = new Set([
	"--regexp",
	"--file",
	"--glob",
	"--iglob",
	"--type",
	"--type-not",
	"--type-add",
	"--type-clear",
	"--max-count",
	"--after-context",
	"--before-context",
	"--context",
	"--max-columns",
	"--threads",
	"--max-depth",
	"--maxdepth",
	"--max-filesize",
	"--encoding",
	"--sort",
	"--sortr",
	"--color",
	"--colors",
	"--context-separator",
	"--field-match-separator",
	"--field-context-separator",
	"--path-separator",
	"--pre",
	"--pre-glob",
	"--replace",
	"--ignore-file",
	"--engine",
	"--dfa-size-limit",
	"--regex-size-limit",
]);

function classifyRg(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(args, "efgtTmABCMjdEr", RG_LONG_VALUE);
	const names = new Set(options.map(([name]) => name));
	if (names.has("--pre")) return OTHER("not-exploration");
	if (names.has("--files")) return { kind: "explore", category: "ls", outcome: searchOutcome(operands, env) };
	if (names.has("--type-list") || names.has("--version") || names.has("--help") || names.has("-h")) {
		return { kind: "neutral" };
	}
	const patternGiven = names.has("-e") || names.has("--regexp") || names.has("-f") || names.has("--file");
	const paths = patternGiven ? operands : operands.slice(1);
	if (!patternGiven && operands.length === 0) return OTHER("not-exploration");
	return { kind: "explore", category: "grep", outcome: searchOutcome(paths, env) };
}

const GREP_LONG_VALUE = new Set([
	"--regexp",
	"--file",
	"--max-count",
	"--after-context",
	"--before-context",
	"--context",
	"--directories",
	"--devices",
	"--binary-files",
	"--label",
	"--group-separator",
]);

function classifyGrep(args: readonly string[], env: Env, inPipe: boolean): Part {
	const { options, operands } = splitArgs(args, "efmABCdD", GREP_LONG_VALUE);
	const names = new Set(options.map(([name]) => name));
	const recursive =
		names.has("-r") ||
		names.has("-R") ||
		names.has("--recursive") ||
		names.has("--dereference-recursive") ||
		options.some(([name, value]) => (name === "-d" || name === "--directories") && value === "recurse");
	const patternGiven = names.has("-e") || names.has("--regexp") || names.has("-f") || names.has("--file");
	const paths = patternGiven ? operands : operands.slice(1);
	if (!recursive) {
		if (paths.length === 0) return inPipe ? { kind: "neutral" } : OTHER("not-exploration");
		// A search of named files: targeted, like a read with a narrow scope.
		return { kind: "explore", category: "grep", outcome: "narrow-scope" };
	}
	return { kind: "explore", category: "grep", outcome: searchOutcome(paths, env) };
}

/** A word git reads as a revision: `HEAD`-like names with `~`/`^` steps, a hash, or a range of them. */
const GIT_REVISION =
	/^(?:(?:HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|[0-9a-f]{7,40})(?:[~^]\d*)*)(?:\.\.\.?(?:(?:HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|[0-9a-f]{7,40})(?:[~^]\d*)*)?)?$/;

function classifyGitGrep(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(args, "efABCm", new Set(["--max-count", "--context", "--threads"]));
	const names = new Set(options.map(([name]) => name));
	const patternGiven = names.has("-e") || names.has("-f");
	// Pathspecs follow the pattern (or `--`); a glob pathspec without a directory matches the whole tree.
	const dash = args.indexOf("--");
	// Before `--`, a revision (`git grep X HEAD`) names the whole tree at that commit, not a path (a twenty-seventh
	// review): only `HEAD`-like names, hashes and ranges are told apart; a branch name still reads as a path.
	const specs = (dash >= 0 ? args.slice(dash + 1) : patternGiven ? operands : operands.slice(1)).filter(
		(spec) => dash >= 0 || !GIT_REVISION.test(spec),
	);
	const scoped = specs.map((spec) => (/[*?[]/.test(spec) && !spec.includes("/") ? "." : spec));
	return { kind: "explore", category: "grep", outcome: searchOutcome(scoped, env) };
}

function classifyGit(args: readonly string[], env: Env): Part {
	// `git -C dir sub ...`: a directory change for the subcommand.
	let i = 0;
	let dir = env.dir;
	while (i < args.length && (args[i] as string).startsWith("-")) {
		const flag = args[i] as string;
		if (flag === "-C") {
			const target = args[i + 1];
			if (target === undefined) return OTHER("not-exploration");
			dir = joinDir(dir, target);
			i += 2;
			continue;
		}
		if (flag === "--no-pager" || flag === "-P") {
			i++;
			continue;
		}
		return OTHER("not-exploration");
	}
	const sub = args[i];
	const rest = args.slice(i + 1);
	const local: Env = { ...env, dir };
	if (sub === "grep") return classifyGitGrep(rest, local);
	if (sub === "ls-files") {
		const { operands } = splitArgs(rest, "x", new Set(["--exclude", "--exclude-from"]));
		return { kind: "explore", category: "ls", outcome: searchOutcome(operands, local) };
	}
	if (sub !== undefined && NEUTRAL_GIT.has(sub)) {
		if (sub === "branch" && rest.some((arg) => /^-[dDmMcC]$|^--(delete|move|copy)$/.test(arg))) {
			return OTHER("writes");
		}
		return { kind: "neutral" };
	}
	if (sub === "stash" && (rest[0] === "list" || rest[0] === "show")) return { kind: "neutral" };
	return OTHER(sub !== undefined && GIT_WRITES.has(sub) ? "writes" : "not-exploration");
}

const FIND_WRITE_ACTIONS = new Set(["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
const FIND_EXEC_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function classifyFind(args: readonly string[], env: Env): Part {
	let i = 0;
	const paths: string[] = [];
	// Leading options -H -L -P, then paths until the first expression word.
	while (i < args.length && /^-[HLP]$/.test(args[i] as string)) i++;
	while (i < args.length) {
		const word = args[i] as string;
		if (word.startsWith("-") || word === "(" || word === "!" || word === ")") break;
		paths.push(word);
		i++;
	}
	let depth: number | undefined;
	let bulkRead = false;
	for (; i < args.length; i++) {
		const word = args[i] as string;
		if (word === "-maxdepth") depth = integer(args[i + 1]);
		if (FIND_WRITE_ACTIONS.has(word)) return OTHER("writes");
		if (FIND_EXEC_ACTIONS.has(word)) {
			depth = undefined;
			const program = args[i + 1];
			if (program === undefined || !READ_ONLY_EXEC.has(baseName(program))) return OTHER("writes");
			if (WHOLE_FILE_READERS.has(baseName(program))) bulkRead = true;
			// Skip to the end of the -exec clause.
			while (i < args.length && args[i] !== ";" && args[i] !== "+") i++;
		}
	}
	if (bulkRead) return { kind: "explore", category: "read", outcome: "broad" };
	// One level down with no `-exec` is a listing, like `ls` (a twenty-seventh review nudged on `find . -maxdepth 1`).
	if (depth !== undefined && depth <= 1) return { kind: "explore", category: "find", outcome: "shallow-listing" };
	return { kind: "explore", category: "find", outcome: searchOutcome(paths, env) };
}

function classifyFd(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(
		args,
		"edtEcjSxXo",
		new Set([
			"--extension",
			"--max-depth",
			"--type",
			"--exclude",
			"--exec",
			"--exec-batch",
			"--size",
			"--changed-within",
			"--changed-before",
			"--threads",
			"--owner",
			"--color",
			"--base-directory",
			"--search-path",
		]),
	);
	for (const [name, value] of options) {
		if (name === "-x" || name === "-X" || name === "--exec" || name === "--exec-batch") {
			if (value === undefined || !READ_ONLY_EXEC.has(baseName(value))) return OTHER("writes");
		}
	}
	const searchPaths = options
		.filter(([name]) => name === "--search-path" || name === "--base-directory")
		.map(([, value]) => value ?? ".");
	const paths = [...searchPaths, ...operands.slice(1)];
	return { kind: "explore", category: "ls", outcome: searchOutcome(paths, env) };
}

function classifyLs(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(
		args,
		"ITw",
		new Set(["--ignore", "--hide", "--width", "--format", "--sort"]),
	);
	const recursive = options.some(([name]) => name === "-R" || name === "--recursive");
	if (!recursive) return { kind: "explore", category: "ls", outcome: "shallow-listing" };
	return { kind: "explore", category: "ls", outcome: searchOutcome(operands, env) };
}

function classifyTree(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(args, "LPIo", new Set(["--filelimit", "--charset"]));
	const depth = options.find(([name]) => name === "-L")?.[1];
	if (options.some(([name]) => name === "-o")) return OTHER("writes");
	if (integer(depth) === 1) return { kind: "explore", category: "ls", outcome: "shallow-listing" };
	return { kind: "explore", category: "ls", outcome: searchOutcome(operands, env) };
}

function classifyCat(args: readonly string[], env: Env, inPipe: boolean): Part {
	const { operands } = splitArgs(args, "", new Set());
	const files = operands.filter((file) => file !== "-");
	if (files.length === 0) return inPipe ? { kind: "neutral" } : OTHER("not-exploration");
	return { kind: "explore", category: "read", outcome: readOutcome(excludedFiles(files, env)) };
}

function classifyNl(args: readonly string[], env: Env, inPipe: boolean): Part {
	const { operands } = splitArgs(args, "bdfhilnsvw", new Set());
	if (operands.length === 0) return inPipe ? { kind: "neutral" } : OTHER("not-exploration");
	return { kind: "explore", category: "read", outcome: readOutcome(excludedFiles(operands, env)) };
}

function classifyBat(args: readonly string[], env: Env): Part {
	const { options, operands } = splitArgs(
		args,
		"rlmpH",
		new Set(["--line-range", "--language", "--map-syntax", "--style", "--theme", "--highlight-line", "--paging"]),
	);
	if (operands.length === 0) return OTHER("not-exploration");
	const outcome = readOutcome(excludedFiles(operands, env));
	if (outcome !== "broad") return { kind: "explore", category: "read", outcome };
	const ranges = options.filter(([name]) => name === "-r" || name === "--line-range").map(([, value]) => value);
	if (ranges.length > 0) {
		let total = 0;
		for (const range of ranges) {
			const match = /^(\d+)?:(\d+)?$/.exec(range ?? "");
			const from = integer(match?.[1]) ?? 1;
			const to = integer(match?.[2]);
			if (match === null || to === undefined) return { kind: "explore", category: "read", outcome: "broad" };
			total += Math.max(0, to - from + 1);
		}
		if (total <= env.smallReadMaxLines) return { kind: "explore", category: "read", outcome: "small-read" };
	}
	return { kind: "explore", category: "read", outcome: "broad" };
}

/** The window `head`/`tail` prints in lines (or `undefined` when unbounded, such as `tail -n +5` or `-f`). */
function headTailWindow(
	name: "head" | "tail",
	args: readonly string[],
	env: Env,
): { lines: number | undefined; files: string[]; follow: boolean } {
	const { options, operands } = splitArgs(args, "nc", new Set(["--lines", "--bytes"]));
	let lines: number | undefined = DEFAULT_HEAD_LINES;
	let follow = false;
	const command = name;
	for (const [option, value] of options) {
		if (/^-\d+$/.test(option)) lines = Number(option.slice(1));
		else if (option === "-n" || option === "--lines") {
			// `tail -n +N` and `head -n -N` print all but a few lines: no window (a twenty-sixth review).
			if (value?.startsWith("+") || (command === "head" && value?.startsWith("-"))) lines = undefined;
			else lines = integer(value?.replace(/^-/, ""));
		} else if (option === "-c" || option === "--bytes") {
			const n = integer(value?.replace(/^[-+]/, ""));
			lines = n === undefined ? undefined : Math.ceil(n / BYTES_PER_LINE);
			if (value?.startsWith("+") || (command === "head" && value?.startsWith("-"))) lines = undefined;
		} else if (option === "-f" || option === "-F" || option === "--follow") follow = true;
	}
	void env;
	return { lines, files: operands.filter((file) => file !== "-"), follow };
}

function classifyHeadTail(name: "head" | "tail", args: readonly string[], env: Env, inPipe: boolean): Part {
	const { lines, files, follow } = headTailWindow(name, args, env);
	if (follow) return OTHER("not-exploration");
	if (files.length === 0) return inPipe ? { kind: "neutral" } : OTHER("not-exploration");
	const outcome = readOutcome(excludedFiles(files, env));
	if (outcome !== "broad") return { kind: "explore", category: "read", outcome };
	// The window is per file: over several files (a glob counts as several) the lines add up.
	const fileCount = files.reduce((sum, file) => sum + (/[*?[]/.test(file) ? GLOB_OPERAND_FILES : 1), 0);
	if (lines !== undefined && lines * fileCount <= env.smallReadMaxLines) {
		return { kind: "explore", category: "read", outcome: "small-read" };
	}
	return { kind: "explore", category: "read", outcome: "broad" };
}

/** The lines a `sed -n` print script selects: a count, `undefined` (unbounded or by pattern), or `null` (not print-only). */
function sedPrintWindow(script: string): number | undefined | null {
	let total = 0;
	let patterned = false;
	for (const raw of script.split(/[;\n]/)) {
		const part = raw.trim();
		if (part === "") continue;
		const range = /^(\d+|\$)(?:\s*,\s*(\d+|\$|\+\d+))?\s*(?:p|\{\s*p\s*;?\s*\})$/.exec(part);
		if (range !== null) {
			const from = range[1] === "$" ? undefined : Number(range[1]);
			const toText = range[2];
			if (from === undefined) {
				total += 1;
				continue;
			}
			if (toText === undefined) total += 1;
			else if (toText === "$") return undefined;
			else if (toText.startsWith("+")) total += Number(toText.slice(1)) + 1;
			else total += Math.max(1, Number(toText) - from + 1);
			continue;
		}
		// A pattern address, alone or as the start of a range (`/re/p`, `/a/,/b/p`, `/re/,+5p`, `/re/,$p`).
		if (/^\/.*\/\s*(?:,\s*(?:\/.*\/|\+?\d+|\$))?\s*(?:p|\{\s*p\s*;?\s*\})$/.test(part)) {
			patterned = true;
			continue;
		}
		if (part === "q" || /^\d+q$/.test(part)) continue;
		return null;
	}
	return patterned ? undefined : total;
}

function classifySed(args: readonly string[], env: Env, inPipe: boolean): Part {
	const { options, operands } = splitArgs(args, "efl", new Set(["--expression", "--file", "--line-length"]));
	const names = new Set(options.map(([name]) => name));
	if (names.has("-i") || names.has("--in-place") || options.some(([name]) => name.startsWith("--in-place"))) {
		return OTHER("writes");
	}
	if (names.has("-f") || names.has("--file")) return OTHER("not-exploration");
	const quiet = names.has("-n") || names.has("--quiet") || names.has("--silent");
	const scripts = options.filter(([name]) => name === "-e" || name === "--expression").map(([, value]) => value ?? "");
	const files = scripts.length > 0 ? operands : operands.slice(1);
	if (scripts.length === 0) scripts.push(operands[0] ?? "");
	if (scripts.some((script) => /(^|[;{}\s\d$/])w\s*\S/.test(script))) return OTHER("writes");
	if (!quiet) {
		// A transformation (`sed 's/a/b/' file`) is not exploration; as a filter in a pipe it is harmless.
		return inPipe && files.length === 0 ? { kind: "neutral" } : OTHER("not-exploration");
	}
	let window: number | undefined | null = 0;
	for (const script of scripts) {
		const part = sedPrintWindow(script);
		if (part === null) return inPipe && files.length === 0 ? { kind: "neutral" } : OTHER("not-exploration");
		if (part === undefined || window === undefined) window = undefined;
		else window = (window ?? 0) + part;
	}
	if (files.length === 0) return inPipe ? { kind: "neutral" } : OTHER("not-exploration");
	const outcome = readOutcome(excludedFiles(files, env));
	if (outcome !== "broad") return { kind: "explore", category: "read", outcome };
	if (window === undefined) {
		// A pattern print (`sed -n '/re/p' file`) is a search of a named file.
		const byPattern = scripts.every((script) => /^\s*\/.*\/.*p/.test(script));
		return byPattern
			? { kind: "explore", category: "grep", outcome: "narrow-scope" }
			: { kind: "explore", category: "read", outcome: "broad" };
	}
	return { kind: "explore", category: "read", outcome: window <= env.smallReadMaxLines ? "small-read" : "broad" };
}

function baseName(program: string): string {
	const slash = program.lastIndexOf("/");
	return slash >= 0 ? program.slice(slash + 1) : program;
}

/** Strips `command`, `builtin`, `nice`, `time` and `timeout N` prefixes; `sudo`/`env` and others are kept. */
function unwrap(words: readonly string[]): readonly string[] {
	let rest = words;
	for (let guard = 0; guard < 4; guard++) {
		const head = rest[0];
		if (head === "command" || head === "builtin" || head === "time" || head === "nice") rest = rest.slice(1);
		else if (head === "timeout" && rest[1] !== undefined && /^\d+[smhd]?$/.test(rest[1])) rest = rest.slice(2);
		else break;
	}
	return rest;
}

function classifyCommand(command: SimpleCommand, env: Env, inPipe: boolean): Part {
	if (command.writesFile) return OTHER("writes");
	if (command.words.some((word) => word.dynamic)) return OTHER("dynamic");
	const words = unwrap(command.words.map((word) => word.text));
	const program = words[0];
	if (program === undefined) return command.hasAssignments ? OTHER("not-exploration") : { kind: "neutral" };
	const name = baseName(program);
	const args = words.slice(1);
	if (WRITING_COMMANDS.has(name)) return OTHER("writes");
	switch (name) {
		case "rg":
			return classifyRg(args, env);
		case "grep":
		case "egrep":
		case "fgrep":
			return classifyGrep(args, env, inPipe);
		case "git":
			return classifyGit(args, env);
		case "find":
			return classifyFind(args, env);
		case "fd":
		case "fdfind":
			return classifyFd(args, env);
		case "ls":
			return classifyLs(args, env);
		case "tree":
			return classifyTree(args, env);
		case "cat":
			return classifyCat(args, env, inPipe);
		case "nl":
			return classifyNl(args, env, inPipe);
		case "bat":
		case "batcat":
			return classifyBat(args, env);
		case "head":
		case "tail":
			return classifyHeadTail(name, args, env, inPipe);
		case "sed":
			return classifySed(args, env, inPipe);
		case "cd":
			return { kind: "cd", target: args[0] };
		default:
			if (NEUTRAL_COMMANDS.has(name)) return { kind: "neutral" };
			if (inPipe && FILTERS.has(name)) return classifyFilter(name, args);
			return OTHER("not-exploration");
	}
}

/** A pipe filter (not the pipeline's first command): read-only unless it runs or writes something. */
function classifyFilter(name: string, args: readonly string[]): Part {
	if (name === "xargs") {
		const { operands } = splitArgs(args, "IinPLdsEa", new Set(["--max-args", "--max-procs", "--delimiter"]));
		const program = operands[0];
		if (program === undefined || READ_ONLY_EXEC.has(baseName(program))) return { kind: "neutral" };
		return OTHER(WRITING_COMMANDS.has(baseName(program)) ? "writes" : "not-exploration");
	}
	if (name === "awk") {
		const program = args.find((arg) => !arg.startsWith("-")) ?? "";
		if (/system|getline|>|\|/.test(program)) return OTHER("not-exploration");
	}
	return { kind: "neutral" };
}

/** The window a pipe filter imposes on what reaches the output, in lines; `undefined` when it imposes none. */
function filterWindow(command: SimpleCommand, env: Env): number | undefined {
	const words = command.words.map((word) => word.text);
	const name = baseName(words[0] ?? "");
	const args = words.slice(1);
	if (name === "head" || name === "tail") {
		const { lines, files } = headTailWindow(name, args, env);
		return files.length === 0 ? lines : undefined;
	}
	if (name === "wc") return 1;
	if (name === "sed") {
		const { options, operands } = splitArgs(args, "efl", new Set(["--expression"]));
		if (!options.some(([option]) => option === "-n")) return undefined;
		const scripts = options.filter(([option]) => option === "-e").map(([, value]) => value ?? "");
		const script = scripts.length > 0 ? scripts.join(";") : (operands[0] ?? "");
		const window = sedPrintWindow(script);
		return typeof window === "number" ? window : undefined;
	}
	return undefined;
}

/** Whether a pipe filter picks lines by content (`| grep x`), turning a read of named files into a search. */
function filtersByContent(command: SimpleCommand): boolean {
	const name = baseName(command.words[0]?.text ?? "");
	return name === "grep" || name === "egrep" || name === "fgrep" || name === "rg";
}

function classifyPipeline(pipeline: readonly SimpleCommand[], env: Env): Part {
	const [first, ...rest] = pipeline;
	if (first === undefined) return { kind: "neutral" };
	const head = classifyCommand(first, env, false);
	if (head.kind === "other" || head.kind === "cd") {
		if (head.kind === "cd" && rest.length > 0) return OTHER("not-exploration");
		// Even a non-exploring head may have a writing tail; the reason names the stronger fact.
		if (head.kind === "other") {
			for (const command of rest) {
				const part = classifyCommand(command, env, true);
				if (part.kind === "other" && part.reason === "writes") return part;
			}
		}
		return head;
	}
	let window: number | undefined;
	let searched = false;
	let bulkRead = false;
	for (const command of rest) {
		const part = classifyCommand(command, env, true);
		if (part.kind === "other") return part;
		if (part.kind === "cd") return OTHER("not-exploration");
		if (xargsProgram(command) !== undefined && WHOLE_FILE_READERS.has(xargsProgram(command) as string)) bulkRead = true;
		const lines = filterWindow(command, env);
		if (lines !== undefined) window = window === undefined ? lines : Math.min(window, lines);
		if (filtersByContent(command)) searched = true;
	}
	// `… | xargs cat` reads every file the listing names: a broad read, unless a window after it bounds the output.
	const reading: Part = bulkRead ? { kind: "explore", category: "read", outcome: "broad" } : head;
	if (reading.kind !== "explore" || reading.outcome !== "broad") return reading;
	if (reading.category === "read") {
		if (window !== undefined && window <= env.smallReadMaxLines) {
			return { kind: "explore", category: "read", outcome: "small-read" };
		}
		if (searched) return { kind: "explore", category: "grep", outcome: "narrow-scope" };
		return reading;
	}
	const limit = DEFAULT_RESULT_LIMITS[reading.category];
	if (window !== undefined && window < limit)
		return { kind: "explore", category: reading.category, outcome: "narrow-limit" };
	return reading;
}

/** The program an `xargs` filter runs (its base name), or undefined for any other command. */
function xargsProgram(command: SimpleCommand): string | undefined {
	const words = command.words.map((word) => word.text);
	if (baseName(words[0] ?? "") !== "xargs") return undefined;
	const { operands } = splitArgs(words.slice(1), "IinPLdsEa", new Set(["--max-args", "--max-procs", "--delimiter"]));
	return operands[0] === undefined ? undefined : baseName(operands[0]);
}

const REASON_ORDER: readonly BashNeverCountedReason[] = [
	"unparseable",
	"dynamic",
	"writes",
	"composed",
	"not-exploration",
];

/**
 * Classifies one bash command line as read-only repository exploration, or not, from the kernel's shell
 * syntax tree (`parseBashSyntax` from `@pi-policy/policy-kernel/bash`, the parser guardian-review uses).
 *
 * - Greps: `rg`, `grep -r`/`-R`, `git grep`. Find: `find`. Listings (category `ls`): `ls -R`, `tree`, `fd`,
 *   `rg --files`, `git ls-files`. Reads: `cat`, `head`/`tail`, `sed -n`, `nl`, `bat` on a file.
 * - The seed's rules apply to their arguments: a search or listing of a path inside the cwd is `narrow-scope`
 *   (elsewhere `outside-cwd`); a read of excluded files only (manifests, lockfiles, agent instructions,
 *   docs/, .pi/, .pi-subagents/, node_modules/, dist/) is `excluded-path`; a read window of at most
 *   `smallReadMaxLines` lines (`head -n 50`, `sed -n 1,200p`, `| head -100`) is `small-read`; a search piped
 *   into a window smaller than Pi's default result limit is `narrow-limit`; plain `ls` and `tree -L 1` are
 *   `shallow-listing`. A grep over named files is `narrow-scope`.
 * - `cd dir && ...` moves the scope of what follows. Neutral read-only commands (`pwd`, `echo`, `wc`,
 *   `git status`, ...) may sit next to exploration.
 * - Never counted (`never`, with the first applicable of): `unparseable` input; `dynamic` words, command or
 *   process substitution; `writes` (an output redirection to a file, `rm`, `tee`, `sed -i`,
 *   `find -delete`, `-exec` of anything but a read-only command, ...); `composed` (exploration next to
 *   anything else, such as `ls && npm test`, or inside control flow, subshells or background jobs);
 *   `not-exploration` (everything else: builds, tests, scripts, neutral commands alone).
 *
 * The command is parsed once. Pure and total: never throws.
 */
export function classifyBashExplorationCommand(
	command: unknown,
	cwd: string,
	smallReadMaxLines: number,
): BashExplorationClassification {
	try {
		if (typeof command !== "string" || command.length > MAX_BASH_EXPLORATION_CHARS) {
			return { kind: "never", reason: "unparseable" };
		}
		const parsed = parseBashSyntax(command);
		if (!parsed.ok) return { kind: "never", reason: "unparseable" };
		const tree = toTree(parsed.tree);
		const root = typeof cwd === "string" ? cwd : "";
		const maxLines =
			typeof smallReadMaxLines === "number" && Number.isFinite(smallReadMaxLines) ? smallReadMaxLines : 0;
		let env: Env = { root, dir: root, smallReadMaxLines: maxLines };
		const parts: Part[] = [];
		for (const pipeline of tree.pipelines) {
			const part = classifyPipeline(pipeline, env);
			if (part.kind === "cd") {
				if (part.target === "-") parts.push(OTHER("dynamic"));
				// `cd` and `cd ~...` go home: outside the cwd as far as a pure function knows.
				else if (part.target === undefined || part.target.startsWith("~")) env = { ...env, dir: "~" };
				else env = { ...env, dir: joinDir(env.dir, part.target) };
				continue;
			}
			parts.push(part);
		}
		const explored = parts.filter((part) => part.kind === "explore");
		const others = parts.filter((part): part is Extract<Part, { kind: "other" }> => part.kind === "other");
		if (tree.substituted) return { kind: "never", reason: "dynamic" };
		if (others.length > 0 || (tree.structured && explored.length > 0)) {
			const reasons = new Set<BashNeverCountedReason>(others.map((part) => part.reason));
			if (explored.length > 0 || tree.structured) reasons.add("composed");
			for (const reason of REASON_ORDER) if (reasons.has(reason)) return { kind: "never", reason };
		}
		if (tree.structured) return { kind: "never", reason: "composed" };
		if (explored.length === 0) return { kind: "never", reason: "not-exploration" };
		for (const part of explored) {
			if (part.kind === "explore" && part.outcome === "broad") return { kind: "broad", category: part.category };
		}
		const first = explored[0] as Extract<Part, { kind: "explore" }>;
		return { kind: "exempt", category: first.category, exemption: first.outcome as ExplorationExemption };
	} catch {
		return { kind: "never", reason: "unparseable" };
	}
}
