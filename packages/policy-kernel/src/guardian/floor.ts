// The deterministic floor of guardian-review: hard-deny rules and a read-only allowlist over the parsed shell
// command, and path scoping for write, edit and other tools. Decides without a model whenever it can.
import { isRecord } from "../json.js";
import type { GuardianReviewConfig, ToolScope } from "./config.js";
import { toolScopeFor } from "./config.js";
import {
	classifyPath,
	globMatches,
	normalizeAbsolutePath,
	type PathClass,
	type PathContext,
	resolveToolPath,
} from "./paths.js";
import {
	allShellCommands,
	parseShellCommand,
	type ShellCommand,
	type ShellParse,
	type ShellWord,
	shellComposes,
} from "./shell.js";

/** Built-in hard-deny rules (always on), plus `custom-pattern` for `floor.hardDeny` entries. */
export const HARD_DENY_RULES = [
	"recursive-delete-root",
	"recursive-delete-home",
	"recursive-delete-workspace",
	"make-filesystem",
	"disk-overwrite",
	"download-to-shell",
	"chmod-777-recursive",
	"force-push-protected-branch",
	"fork-bomb",
	"custom-pattern",
] as const;
/** One of {@link HARD_DENY_RULES}. */
export type HardDenyRule = (typeof HARD_DENY_RULES)[number];

/** Why the floor sent a call to review. */
export const REVIEW_REASONS = [
	"composed",
	"not-read-only",
	"dynamic",
	"protected-path",
	"outside-workspace",
	"unparsed",
	"scope-always",
	"no-path",
] as const;
/** One of {@link REVIEW_REASONS}. */
export type ReviewReason = (typeof REVIEW_REASONS)[number];

/** Why the floor allowed a call without a model. */
export const FLOOR_ALLOW_RULES = ["read-only", "workspace-path", "no-protected-path"] as const;
/** One of {@link FLOOR_ALLOW_RULES}. */
export type FloorAllowRule = (typeof FLOOR_ALLOW_RULES)[number];

/** The floor's decision about one tool call. */
export type FloorDecision =
	| { readonly kind: "out-of-scope" }
	| { readonly kind: "deny"; readonly rule: HardDenyRule }
	| { readonly kind: "allow"; readonly rule: FloorAllowRule }
	| { readonly kind: "review"; readonly reason: ReviewReason };

/** The built-in read-only commands (the command name; subcommand and option rules apply to some). */
export const BUILTIN_READ_ONLY_COMMANDS = [
	"ls",
	"cat",
	"head",
	"tail",
	"wc",
	"grep",
	"egrep",
	"fgrep",
	"rg",
	"find",
	"git",
	"pwd",
	"echo",
	"which",
	"file",
	"stat",
	"du",
	"df",
	"tree",
	"basename",
	"dirname",
	"realpath",
	"date",
	"whoami",
	"uname",
	"true",
] as const;

/** Git subcommands allowed by the read-only floor. */
export const READ_ONLY_GIT_SUBCOMMANDS = ["status", "diff", "log", "show", "blame", "ls-files", "rev-parse"] as const;

const FIND_ACTIONS_THAT_WRITE = new Set([
	"-exec",
	"-execdir",
	"-ok",
	"-okdir",
	"-delete",
	"-fprint",
	"-fprint0",
	"-fprintf",
	"-fls",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox"]);
const INTERPRETERS = new Set(["python", "python2", "python3", "perl", "ruby", "node", "php", "deno", "bun"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh"]);
const SOURCE_COMMANDS = new Set(["eval", "source", "."]);
const DEVICE_SAFE = /^\/dev\/(null|zero|u?random|stdout|stderr|stdin|tty|fd\/\d+)$/;
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/|loop|rdisk)/;
const PROTECTED_BRANCHES = new Set(["main", "master"]);
const FIND_UNFILTERED_EXPRESSIONS = new Set(["-delete", "-depth", "-xdev", "-mount", "-print"]);

/** Context the floor needs beyond the config. */
export interface FloorContext extends PathContext {
	/** Extra hard-deny patterns (`floor.hardDeny`). */
	readonly hardDenyPatterns: readonly string[];
	/** Extra read-only patterns (`floor.readOnly`). */
	readonly readOnlyPatterns: readonly string[];
}

/** Builds a {@link FloorContext} from the effective config. */
export function floorContextFor(config: GuardianReviewConfig, cwd: string, home: string): FloorContext {
	return {
		cwd,
		home,
		protectedPaths: config.protectedPaths,
		hardDenyPatterns: config.floor.hardDeny,
		readOnlyPatterns: config.floor.readOnly,
	};
}

/**
 * Decides one tool call with the floor. Tools whose scope is `off` are `out-of-scope`. bash goes through the
 * hard-deny rules, then the read-only allowlist, then its scope. write, edit and other tools are classified
 * by their `path` argument against the workspace and the protected globs. Never throws: anything it cannot
 * parse goes to review.
 */
export function decideFloor(
	toolName: string,
	input: unknown,
	config: GuardianReviewConfig,
	context: FloorContext,
): FloorDecision {
	try {
		const scope = toolScopeFor(config, toolName);
		if (scope === "off") return { kind: "out-of-scope" };
		if (toolName === "bash") {
			const command = isRecord(input) && typeof input.command === "string" ? input.command : undefined;
			if (command === undefined) return { kind: "review", reason: "unparsed" };
			return decideBashFloor(command, scope, context);
		}
		return decidePathFloor(input, scope, context);
	} catch {
		return { kind: "review", reason: "unparsed" };
	}
}

/** The path argument of a write, edit or custom tool: `path`, `file_path` or `filePath`. */
export function toolPathArgument(input: unknown): string | undefined {
	if (!isRecord(input)) return undefined;
	for (const key of ["path", "file_path", "filePath"]) {
		const value = input[key];
		if (typeof value === "string" && value.length > 0) return value;
	}
	return undefined;
}

function decidePathFloor(input: unknown, scope: ToolScope, context: FloorContext): FloorDecision {
	if (scope === "always") return { kind: "review", reason: "scope-always" };
	const path = toolPathArgument(input);
	if (path === undefined) return { kind: "review", reason: "no-path" };
	const pathClass = classifyPath(path, context);
	return decideByPathClasses([pathClass], scope);
}

function decideByPathClasses(classes: readonly PathClass[], scope: ToolScope): FloorDecision {
	if (classes.includes("protected")) return { kind: "review", reason: "protected-path" };
	if (scope === "outside-workspace" && classes.includes("outside"))
		return { kind: "review", reason: "outside-workspace" };
	return { kind: "allow", rule: scope === "protected-only" ? "no-protected-path" : "workspace-path" };
}

/**
 * The floor for one bash command: hard-deny rules first (over every simple command, substitutions and
 * `sh -c` strings included), then the read-only allowlist (void when the command composes), then the scope.
 */
export function decideBashFloor(command: string, scope: ToolScope, context: FloorContext): FloorDecision {
	if (isForkBomb(command)) return { kind: "deny", rule: "fork-bomb" };
	const parsed = parseShellCommand(command);
	if (!parsed.ok) return { kind: "review", reason: "unparsed" };
	const rule = findHardDeny(parsed.value, context, 0);
	if (rule !== undefined) return { kind: "deny", rule };
	const readOnly = classifyReadOnly(parsed.value, context);
	if (readOnly === "read-only") return { kind: "allow", rule: "read-only" };
	if (scope === "always") return { kind: "review", reason: readOnly };
	return decideBashByPaths(parsed.value, scope, context);
}

function decideBashByPaths(parse: ShellParse, scope: ToolScope, context: FloorContext): FloorDecision {
	if (shellComposes(parse) && (parse.features.commandSubstitution || parse.features.processSubstitution)) {
		return { kind: "review", reason: "dynamic" };
	}
	const classes: PathClass[] = [];
	for (const cmd of allShellCommands(parse)) {
		for (const word of [...cmd.words.slice(1), ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))]) {
			if (word.dynamic) return { kind: "review", reason: "dynamic" };
			const candidate = pathCandidate(word);
			if (candidate === undefined) continue;
			const pathClass = classifyPath(candidate, context);
			if (pathClass === "protected" || looksLikePath(candidate)) classes.push(pathClass);
		}
	}
	return decideByPathClasses(classes, scope);
}

/** The path a word may name: the value after `=` for `key=value` words, the word itself otherwise. */
function pathCandidate(word: ShellWord): string | undefined {
	let value = word.value;
	if (value.startsWith("-")) {
		const eq = value.indexOf("=");
		if (eq < 0) return undefined;
		value = value.slice(eq + 1);
	} else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(value) && !word.quoted) {
		value = value.slice(value.indexOf("=") + 1);
	}
	if (value.length === 0) return undefined;
	if (word.tilde && !value.startsWith("~")) return undefined;
	return value;
}

function looksLikePath(value: string): boolean {
	return value.includes("/") || value.startsWith("~") || value === "." || value === "..";
}

// ------------------------------------------------------------------------------------------------------------
// Hard deny

/** The command after stripping wrappers such as sudo, env, nice, timeout, nohup, command, exec and xargs. */
interface EffectiveCommand {
	readonly name: string;
	readonly args: readonly ShellWord[];
	readonly command: ShellCommand;
}

const WRAPPERS_WITH_ARG_OPTIONS: Record<string, Set<string>> = {
	sudo: new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "--user", "--group", "--host", "--prompt"]),
	doas: new Set(["-u", "-C"]),
	env: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]),
	nice: new Set(["-n", "--adjustment"]),
	ionice: new Set(["-c", "-n", "-p", "--class", "--classdata"]),
	timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
	stdbuf: new Set(["-i", "-o", "-e"]),
	xargs: new Set(["-I", "-i", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter"]),
	command: new Set(),
	builtin: new Set(),
	exec: new Set(["-a"]),
	nohup: new Set(),
	time: new Set(["-f", "-o"]),
	chronic: new Set(),
	caffeinate: new Set(),
	unbuffer: new Set(),
};

function basename(value: string): string {
	const parts = value.split("/");
	return parts[parts.length - 1] ?? value;
}

/** Strips wrapper commands; returns the effective command (or undefined when only wrappers remain). */
function effectiveCommand(command: ShellCommand): EffectiveCommand | undefined {
	let words = command.words;
	for (let guard = 0; guard < 8 && words.length > 0; guard++) {
		const name = basename((words[0] as ShellWord).value);
		const argOptions = WRAPPERS_WITH_ARG_OPTIONS[name];
		if (argOptions === undefined || (words[0] as ShellWord).quoted) break;
		let i = 1;
		while (i < words.length) {
			const value = (words[i] as ShellWord).value;
			if (value === "--") {
				i++;
				break;
			}
			if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
				i++;
				continue;
			}
			if (name === "timeout" && /^\d+(\.\d+)?[smhd]?$/.test(value)) {
				i++;
				break;
			}
			if (name === "nice" && /^-\d+$/.test(value)) {
				i++;
				continue;
			}
			if (!value.startsWith("-") || value === "-") break;
			i += argOptions.has(value) ? 2 : 1;
		}
		words = words.slice(i);
	}
	if (words.length === 0) return undefined;
	return { name: basename((words[0] as ShellWord).value), args: words.slice(1), command };
}

/** The text passed to `sh -c`, `bash -c` or `eval`, when literal. */
function nestedShellSources(effective: EffectiveCommand): string[] {
	const sources: string[] = [];
	if (SHELLS.has(effective.name)) {
		for (let i = 0; i < effective.args.length; i++) {
			const value = (effective.args[i] as ShellWord).value;
			if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) {
				const next = effective.args[i + 1];
				if (next) sources.push(next.value);
				break;
			}
			if (!value.startsWith("-")) break;
		}
	}
	if (effective.name === "eval" && effective.args.length > 0)
		sources.push(effective.args.map((a) => a.value).join(" "));
	return sources;
}

function findHardDeny(parse: ShellParse, context: FloorContext, depth: number): HardDenyRule | undefined {
	if (depth > 4) return undefined;
	const downloadInSubstitution = parse.substitutions.some((inner) => containsDownloader(inner));
	for (const pipeline of parse.pipelines) {
		let downloaderSeen = false;
		for (const command of pipeline) {
			const effective = effectiveCommand(command);
			const redirectRule = checkRedirects(command);
			if (redirectRule) return redirectRule;
			if (effective === undefined) continue;
			if (DOWNLOADERS.has(effective.name)) downloaderSeen = true;
			else if (downloaderSeen && (SHELLS.has(effective.name) || INTERPRETERS.has(interpreterBase(effective.name)))) {
				return "download-to-shell";
			}
			if (
				downloadInSubstitution &&
				(SHELLS.has(effective.name) ||
					SOURCE_COMMANDS.has(effective.name) ||
					INTERPRETERS.has(interpreterBase(effective.name))) &&
				effective.args.some((arg) => arg.dynamic)
			) {
				return "download-to-shell";
			}
			const rule = checkCommand(effective, context);
			if (rule) return rule;
			for (const source of nestedShellSources(effective)) {
				if (isForkBomb(source)) return "fork-bomb";
				const nested = parseShellCommand(source);
				if (nested.ok) {
					const nestedRule = findHardDeny(nested.value, context, depth + 1);
					if (nestedRule) return nestedRule;
				}
			}
		}
	}
	for (const inner of parse.substitutions) {
		const rule = findHardDeny(inner, context, depth + 1);
		if (rule) return rule;
	}
	return undefined;
}

function interpreterBase(name: string): string {
	return name.replace(/[\d.]+$/, "") || name;
}

function containsDownloader(parse: ShellParse): boolean {
	for (const command of allShellCommands(parse)) {
		const effective = effectiveCommand(command);
		if (effective && DOWNLOADERS.has(effective.name)) return true;
	}
	return false;
}

function checkRedirects(command: ShellCommand): HardDenyRule | undefined {
	for (const redirect of command.redirects) {
		if (!redirect.op.includes(">")) continue;
		const target = redirect.target?.value ?? "";
		if (DISK_DEVICE.test(target)) return "disk-overwrite";
	}
	return undefined;
}

type TargetKind = "root" | "home" | "workspace" | "other";

/** What a path word names for the recursive-deletion rules. */
function classifyTarget(word: ShellWord, context: FloorContext): TargetKind {
	const value = word.value;
	const home = normalizeAbsolutePath(context.home);
	const cwd = normalizeAbsolutePath(context.cwd);
	if (word.dynamic) {
		const v = value.replace(/["']/g, "");
		if (/^\$(\{HOME\}|HOME)(\/\*?)?\/?$/.test(v)) return "home";
		if (/^\$(\{PWD\}|PWD)(\/\*?)?\/?$/.test(v) || /^\$\(pwd\)(\/\*?)?\/?$/.test(v)) return "workspace";
		return "other";
	}
	let path = value;
	if (word.tilde) {
		if (path === "~" || path === "~/" || path === "~/*" || /^~\/+\.?\/*\*?$/.test(path)) return "home";
		path = resolveToolPath(path, cwd, home);
	}
	const starred = path.endsWith("/*") || path === "*";
	const base = path === "*" ? "." : starred ? path.slice(0, -2) || "/" : path;
	if (base.startsWith("/")) {
		const normalized = normalizeAbsolutePath(base);
		if (normalized === "/") return "root";
		if (normalized === home) return "home";
		if (normalized === cwd) return "workspace";
		return "other";
	}
	const normalized = normalizeAbsolutePath(`${cwd}/${base}`);
	if (normalized === cwd || isParentOf(normalized, cwd))
		return normalized === "/" ? "root" : normalized === home ? "home" : "workspace";
	return "other";
}

function isParentOf(parent: string, child: string): boolean {
	return parent === "/" || child.startsWith(`${parent}/`);
}

function targetRule(kind: TargetKind): HardDenyRule | undefined {
	if (kind === "root") return "recursive-delete-root";
	if (kind === "home") return "recursive-delete-home";
	if (kind === "workspace") return "recursive-delete-workspace";
	return undefined;
}

function splitOptions(args: readonly ShellWord[]): { options: string[]; operands: ShellWord[] } {
	const options: string[] = [];
	const operands: ShellWord[] = [];
	let endOfOptions = false;
	for (const arg of args) {
		if (!endOfOptions && arg.value === "--") {
			endOfOptions = true;
			continue;
		}
		if (!endOfOptions && arg.value.startsWith("-") && arg.value.length > 1) options.push(arg.value);
		else operands.push(arg);
	}
	return { options, operands };
}

function hasShortFlag(options: readonly string[], flags: string): boolean {
	return options.some(
		(option) => !option.startsWith("--") && [...flags].some((flag) => option.slice(1).includes(flag)),
	);
}

function checkCommand(effective: EffectiveCommand, context: FloorContext): HardDenyRule | undefined {
	const { name, args } = effective;
	const { options, operands } = splitOptions(args);
	if (name === "rm") {
		const recursive = hasShortFlag(options, "rR") || options.includes("--recursive");
		if (options.includes("--no-preserve-root")) return "recursive-delete-root";
		if (recursive) {
			for (const operand of operands) {
				const rule = targetRule(classifyTarget(operand, context));
				if (rule) return rule;
			}
		}
	}
	if (name === "find" && args.some((arg) => arg.value === "-delete")) {
		const firstExpression = args.findIndex(
			(arg) => arg.value.startsWith("-") || arg.value === "!" || arg.value === "(",
		);
		const expression = args.slice(firstExpression < 0 ? args.length : firstExpression).map((arg) => arg.value);
		const unfiltered = expression.every((value) => FIND_UNFILTERED_EXPRESSIONS.has(value));
		if (unfiltered) {
			for (const arg of args.slice(0, firstExpression < 0 ? args.length : firstExpression)) {
				const rule = targetRule(classifyTarget(arg, context));
				if (rule) return rule;
			}
		}
	}
	if (/^mkfs(\..+)?$/.test(name) || name === "mke2fs" || name === "wipefs") return "make-filesystem";
	if (name === "dd") {
		for (const arg of args) {
			const match = /^of=(.+)$/.exec(arg.value);
			if (match && (match[1] as string).startsWith("/dev/") && !DEVICE_SAFE.test(match[1] as string))
				return "disk-overwrite";
		}
	}
	if (name === "shred" && operands.some((operand) => DISK_DEVICE.test(operand.value))) return "disk-overwrite";
	if (name === "chmod") {
		const recursive = hasShortFlag(options, "R") || options.includes("--recursive");
		const modeIndex = operands.findIndex((operand) => isWorldWritableMode(operand.value));
		if (recursive && modeIndex >= 0) {
			for (const operand of operands.slice(modeIndex + 1)) {
				const kind = classifyTarget(operand, context);
				if (kind === "root" || kind === "home") return "chmod-777-recursive";
			}
		}
	}
	if (name === "git" && isForcePushToProtectedBranch(args)) return "force-push-protected-branch";
	if (matchesAnyPattern(effective, context.hardDenyPatterns)) return "custom-pattern";
	return undefined;
}

function isWorldWritableMode(mode: string): boolean {
	return /^0?777$/.test(mode) || /^(a|ugo|augo)?[+=]rwx$/.test(mode) || mode === "a+rwx,o+w";
}

const GIT_GLOBAL_OPTIONS_WITH_ARG = new Set([
	"-C",
	"-c",
	"--git-dir",
	"--work-tree",
	"--namespace",
	"--exec-path",
	"--config-env",
]);

function gitSubcommand(args: readonly ShellWord[]): {
	sub: string | undefined;
	rest: readonly ShellWord[];
	globals: string[];
} {
	const globals: string[] = [];
	let i = 0;
	while (i < args.length) {
		const value = (args[i] as ShellWord).value;
		if (!value.startsWith("-")) break;
		globals.push(value);
		i += GIT_GLOBAL_OPTIONS_WITH_ARG.has(value) ? 2 : 1;
	}
	return { sub: args[i]?.value, rest: args.slice(i + 1), globals };
}

function isForcePushToProtectedBranch(args: readonly ShellWord[]): boolean {
	const { sub, rest } = gitSubcommand(args);
	if (sub !== "push") return false;
	const { options, operands } = splitOptions(rest);
	const forceFlag =
		options.some((option) => /^--force(-with-lease(=.*)?|-if-includes)?$/.test(option)) || hasShortFlag(options, "f");
	const refspecs = operands.slice(1).map((operand) => operand.value);
	return refspecs.some((refspec) => {
		const plus = refspec.startsWith("+");
		const destination = (refspec.includes(":") ? refspec.slice(refspec.lastIndexOf(":") + 1) : refspec)
			.replace(/^\+/, "")
			.replace(/^refs\/heads\//, "");
		return (forceFlag || plus) && PROTECTED_BRANCHES.has(destination);
	});
}

/** True when the effective command's words start with the pattern's words (each a glob). */
function matchesAnyPattern(effective: EffectiveCommand, patterns: readonly string[]): boolean {
	const words = [effective.name, ...effective.args.map((arg) => arg.value)];
	return patterns.some((pattern) => patternMatchesWords(pattern, words));
}

/** True for the classic fork bomb `:(){ :|:& };:` and its renamed variants, whitespace ignored. */
export function isForkBomb(command: string): boolean {
	if (typeof command !== "string") return false;
	const compact = command.replace(/\s+/g, "");
	return /([A-Za-z_:][A-Za-z0-9_:]*)\(\)\{\1\|\1&;?\}/.test(compact);
}

// ------------------------------------------------------------------------------------------------------------
// Read-only

type ReadOnlyOutcome = "read-only" | Exclude<ReviewReason, "scope-always" | "outside-workspace" | "no-path">;

/**
 * Classifies a parsed command for the read-only allowlist. It is read-only only when it is one pipeline of
 * allowlisted commands with no redirect, sequence, `&&`, `||`, substitution, subshell, assignment or
 * expansion, and no argument names a protected path.
 */
export function classifyReadOnly(parse: ShellParse, context: FloorContext): ReadOnlyOutcome {
	if (parse.pipelines.length === 0) return "not-read-only";
	if (shellComposes(parse)) return parse.features.commandSubstitution ? "dynamic" : "composed";
	const pipeline = parse.pipelines[0] as readonly ShellCommand[];
	for (const command of pipeline) {
		if (command.words.some((word) => word.dynamic)) return "dynamic";
		if (!isReadOnlyCommand(command, context)) return "not-read-only";
		for (const word of command.words.slice(1)) {
			const candidate = pathCandidate(word);
			if (candidate !== undefined && classifyPath(candidate, context) === "protected") return "protected-path";
		}
	}
	return "read-only";
}

function isReadOnlyCommand(command: ShellCommand, context: FloorContext): boolean {
	const first = command.words[0];
	if (first === undefined || first.quoted) return false;
	const words = command.words.map((word) => word.value);
	if (context.readOnlyPatterns.some((pattern) => patternMatchesWords(pattern, words))) return true;
	const name = first.value;
	if (!(BUILTIN_READ_ONLY_COMMANDS as readonly string[]).includes(name)) return false;
	const args = words.slice(1);
	switch (name) {
		case "find":
			return !args.some((arg) => FIND_ACTIONS_THAT_WRITE.has(arg));
		case "rg":
			return !args.some((arg) => arg === "--pre" || arg.startsWith("--pre="));
		case "git": {
			const { sub, rest, globals } = gitSubcommand(command.words.slice(1));
			if (globals.some((option) => option !== "--no-pager" && option !== "-P" && option !== "-C")) return false;
			if (sub === undefined || !(READ_ONLY_GIT_SUBCOMMANDS as readonly string[]).includes(sub)) return false;
			return !rest.some((arg) => /^--(output|ext-diff)(=|$)/.test(arg.value));
		}
		default:
			return true;
	}
}

function patternMatchesWords(pattern: string, words: readonly string[]): boolean {
	const parts = pattern
		.trim()
		.split(/\s+/)
		.filter((part) => part.length > 0);
	if (parts.length === 0 || parts.length > words.length) return false;
	return parts.every((part, index) => globMatches(part, words[index] as string));
}
