// A real (POSIX/bash subset) shell tokenizer for the guardian floor: quoting, escapes, pipes, redirects, control
// operators, subshells, heredocs, and command and process substitution, parsed recursively.
import { err, ok, type Result } from "../decision.js";

/** One word of a simple command, with quotes and escapes removed. */
export interface ShellWord {
	/** The word's literal value after quote removal; expansions are kept as written (for example `$HOME`). */
	readonly value: string;
	/** True when any part of the word was quoted or escaped. */
	readonly quoted: boolean;
	/** True when the word contains a parameter expansion, arithmetic, or command substitution outside single quotes. */
	readonly dynamic: boolean;
	/** True when the word starts with an unquoted `~` (home directory expansion). */
	readonly tilde: boolean;
	/** True when the word contains an unquoted glob character (`*`, `?`, `[`). */
	readonly glob: boolean;
}

/** A redirection such as `> out.txt`, `2>&1` or `<<EOF`. */
export interface ShellRedirect {
	/** The operator without its file-descriptor prefix: `>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `>&`, `<&`, `&>`, `&>>`, `>|`, `<>`. */
	readonly op: string;
	/** The explicit file descriptor, when written (the `2` of `2>`). */
	readonly fd?: number;
	/** The target word (for a heredoc, its delimiter). */
	readonly target: ShellWord | undefined;
}

/** A simple command: leading assignments, words (the first is the command name), and redirections. */
export interface ShellCommand {
	readonly assignments: readonly ShellWord[];
	readonly words: readonly ShellWord[];
	readonly redirects: readonly ShellRedirect[];
}

/** Control operators between pipelines. */
export type ShellControlOperator = ";" | "&&" | "||" | "&" | "newline";

/** Structural features that make a command more than one plain pipeline of simple commands. */
export interface ShellFeatures {
	/** `|` or `|&` between commands. */
	pipe: boolean;
	/** `;` or a newline between commands. */
	sequence: boolean;
	/** `&&`. */
	and: boolean;
	/** `||`. */
	or: boolean;
	/** `&` (background). */
	background: boolean;
	/** Any redirection, heredoc or here-string included. */
	redirect: boolean;
	/** `$(...)` or backticks. */
	commandSubstitution: boolean;
	/** `<(...)` or `>(...)`. */
	processSubstitution: boolean;
	/** `( ... )`. */
	subshell: boolean;
	/** `{ ...; }` groups, function definitions and reserved words (if, for, while, case, ...). */
	compound: boolean;
	/** `$((...))`. */
	arithmetic: boolean;
	/** Leading `NAME=value` assignments. */
	assignment: boolean;
}

/** The result of {@link parseShellCommand}. */
export interface ShellParse {
	/** Every pipeline at this level, subshell and group contents included, in order. */
	readonly pipelines: readonly (readonly ShellCommand[])[];
	/** Control operators between pipelines, in order. */
	readonly operators: readonly ShellControlOperator[];
	/** Parsed contents of each command or process substitution (and of unquoted heredoc bodies), recursively. */
	readonly substitutions: readonly ShellParse[];
	/** Structural features seen at this level (substitutions carry their own). */
	readonly features: Readonly<ShellFeatures>;
}

/** Inputs longer than this are not parsed (the floor then sends the call to review). */
export const MAX_SHELL_COMMAND_CHARS = 100_000;
/** Substitutions nested deeper than this are not parsed. */
export const MAX_SHELL_NESTING = 16;

const RESERVED_WORDS = new Set([
	"if",
	"then",
	"else",
	"elif",
	"fi",
	"do",
	"done",
	"while",
	"until",
	"for",
	"case",
	"esac",
	"select",
	"function",
	"in",
	"{",
	"}",
	"!",
	"[[",
	"]]",
	"coproc",
]);
const COMMAND_PREFIX_RESERVED = new Set([
	"if",
	"then",
	"else",
	"elif",
	"do",
	"while",
	"until",
	"{",
	"!",
	"}",
	"fi",
	"done",
	"esac",
]);

type Token =
	| { kind: "word"; word: ShellWord }
	| { kind: "op"; op: "|" | "|&" | ";" | "&&" | "||" | "&" | "newline" | "(" | ")" | ";;" }
	| { kind: "redirect"; op: string; fd?: number };

type ControlOperator = readonly [text: string, op: Extract<Token, { kind: "op" }>["op"]];

/** The control operators that start with `|`, `&` or `;`, longest first; `;;&` and `;&` lex as `;;` and `;`. */
const CONTROL_OPERATORS: readonly ControlOperator[] = [
	["||", "||"],
	["|&", "|&"],
	["|", "|"],
	["&&", "&&"],
	["&", "&"],
	[";;&", ";;"],
	[";;", ";;"],
	[";&", ";"],
	[";", ";"],
];

class ParseFailure extends Error {}

function emptyFeatures(): ShellFeatures {
	return {
		pipe: false,
		sequence: false,
		and: false,
		or: false,
		background: false,
		redirect: false,
		commandSubstitution: false,
		processSubstitution: false,
		subshell: false,
		compound: false,
		arithmetic: false,
		assignment: false,
	};
}

const METACHARS = new Set(["|", "&", ";", "(", ")", "<", ">", " ", "\t", "\n"]);

/**
 * Parses a bash command line into pipelines of simple commands, recursively parsing `$(...)`, backticks and
 * process substitutions. Quoted text is never split or interpreted: `echo "rm -rf /"` is one `echo` command
 * with one word. Returns an error (never throws) for unterminated quotes or substitutions, unbalanced
 * parentheses, over-long input or too deep nesting.
 */
export function parseShellCommand(command: string): Result<ShellParse> {
	if (typeof command !== "string") return err("command: expected string");
	if (command.length > MAX_SHELL_COMMAND_CHARS) return err("command: too long to parse");
	try {
		return ok(parseAt(command, 0));
	} catch (error) {
		if (error instanceof ParseFailure) return err(error.message);
		return err("command: unparseable");
	}
}

function parseAt(source: string, depth: number): ShellParse {
	if (depth > MAX_SHELL_NESTING) throw new ParseFailure("command: nesting too deep");
	const features = emptyFeatures();
	const substitutions: ShellParse[] = [];
	const tokens = lex(source, depth, features, substitutions);
	return build(tokens, features, substitutions);
}

/** Splits `source` into tokens; records features and parses substitutions as it goes. */
function lex(source: string, depth: number, features: ShellFeatures, substitutions: ShellParse[]): Token[] {
	const tokens: Token[] = [];
	const pendingHeredocs: Array<{ delimiter: string; stripTabs: boolean; literal: boolean }> = [];
	/** Lexes the redirection operator at `at` (after an optional fd), and a heredoc's delimiter; returns the end. */
	const lexRedirect = (at: number, fd?: number): number => {
		const { op, length } = readRedirectOp(source, at);
		tokens.push(fd === undefined ? { kind: "redirect", op } : { kind: "redirect", op, fd });
		features.redirect = true;
		const end = at + length;
		if (op !== "<<" && op !== "<<-") return end;
		const start = skipBlanks(source, end);
		const scanned = scanWord(source, start, depth, features, substitutions, true);
		tokens.push({ kind: "word", word: scanned.word });
		pendingHeredocs.push({
			delimiter: scanned.word.value,
			stripTabs: op === "<<-",
			literal: source.slice(start, scanned.end).search(/['"\\]/) >= 0,
		});
		return scanned.end;
	};
	let i = 0;
	const n = source.length;
	while (i < n) {
		const c = source[i] as string;
		if (c === " " || c === "\t") {
			i++;
			continue;
		}
		if (c === "\\" && source[i + 1] === "\n") {
			i += 2;
			continue;
		}
		if (c === "\n") {
			tokens.push({ kind: "op", op: "newline" });
			i++;
			if (pendingHeredocs.length > 0)
				i = consumeHeredocs(source, i, pendingHeredocs.splice(0), depth, features, substitutions);
			continue;
		}
		if (c === "#") {
			while (i < n && source[i] !== "\n") i++;
			continue;
		}
		// Redirections, with an optional fd prefix handled in the word scanner.
		if (c === "<" || c === ">" || (c === "&" && source[i + 1] === ">")) {
			if ((c === "<" || c === ">") && source[i + 1] === "(") {
				const { inner, end } = scanBalanced(source, i + 2, ")");
				substitutions.push(parseAt(inner, depth + 1));
				features.processSubstitution = true;
				tokens.push({
					kind: "word",
					word: { value: `${c}(…)`, quoted: false, dynamic: true, tilde: false, glob: false },
				});
				i = end;
				continue;
			}
			i = lexRedirect(i);
			continue;
		}
		if (c === "|" || c === "&" || c === ";") {
			const [text, op] = CONTROL_OPERATORS.find(([prefix]) => source.startsWith(prefix, i)) as ControlOperator;
			tokens.push({ kind: "op", op });
			i += text.length;
			continue;
		}
		if (c === "(" || c === ")") {
			if (c === "(" && source[i + 1] === "(") {
				// Arithmetic command ((...)).
				const { end } = scanBalanced(source, i + 2, ")");
				if (source[end] !== ")") throw new ParseFailure("command: unterminated arithmetic");
				features.arithmetic = true;
				features.compound = true;
				tokens.push({
					kind: "word",
					word: { value: "((…))", quoted: false, dynamic: true, tilde: false, glob: false },
				});
				i = end + 1;
				continue;
			}
			tokens.push({ kind: "op", op: c });
			i++;
			continue;
		}
		// A word, possibly an fd number directly followed by a redirection.
		const fdMatch = /^(\d+)(?=[<>])/.exec(source.slice(i, i + 12));
		if (fdMatch) {
			const digits = fdMatch[1] as string;
			i = lexRedirect(i + digits.length, Number(digits));
			continue;
		}
		const scanned = scanWord(source, i, depth, features, substitutions, false);
		tokens.push({ kind: "word", word: scanned.word });
		i = scanned.end;
	}
	if (pendingHeredocs.length > 0) throw new ParseFailure("command: unterminated heredoc");
	return tokens;
}

function skipBlanks(source: string, i: number): number {
	let j = i;
	while (source[j] === " " || source[j] === "\t") j++;
	return j;
}

function readRedirectOp(source: string, i: number): { op: string; length: number } {
	const rest = source.slice(i, i + 3);
	for (const op of ["&>>", "<<<", "<<-", "&>", ">>", "<<", ">&", "<&", ">|", "<>", ">", "<"]) {
		if (rest.startsWith(op)) return { op, length: op.length };
	}
	throw new ParseFailure("command: invalid redirection");
}

/** Consumes heredoc bodies after a newline; unquoted delimiters get their bodies scanned for substitutions. */
function consumeHeredocs(
	source: string,
	start: number,
	heredocs: Array<{ delimiter: string; stripTabs: boolean; literal: boolean }>,
	depth: number,
	features: ShellFeatures,
	substitutions: ShellParse[],
): number {
	let i = start;
	for (const heredoc of heredocs) {
		const bodyStart = i;
		let found = false;
		while (i <= source.length) {
			let lineEnd = source.indexOf("\n", i);
			if (lineEnd < 0) lineEnd = source.length;
			let line = source.slice(i, lineEnd);
			if (heredoc.stripTabs) line = line.replace(/^\t+/, "");
			if (line === heredoc.delimiter) {
				if (!heredoc.literal) scanDoubleQuotedBody(source.slice(bodyStart, i), depth, features, substitutions);
				i = lineEnd + 1;
				found = true;
				break;
			}
			if (lineEnd >= source.length) break;
			i = lineEnd + 1;
		}
		if (!found) throw new ParseFailure("command: unterminated heredoc");
	}
	return Math.min(i, source.length);
}

/** Collects substitutions from text that expands like a double-quoted string (heredoc bodies). */
function scanDoubleQuotedBody(text: string, depth: number, features: ShellFeatures, substitutions: ShellParse[]): void {
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (c === "\\") {
			i += 2;
			continue;
		}
		if (c === "$") {
			i = scanDollar(text, i, depth, features, substitutions).end;
			continue;
		}
		if (c === "`") {
			i = scanBacktick(text, i, depth, features, substitutions);
			continue;
		}
		i++;
	}
}

/**
 * Finds the end of a balanced region that started just before `start` (an opening `(` or `{` already
 * consumed), honouring quotes, escapes and nesting. Returns the inner text and the index after the closer.
 */
function scanBalanced(source: string, start: number, closer: ")" | "}"): { inner: string; end: number } {
	const opener = closer === ")" ? "(" : "{";
	let depthCount = 1;
	let i = start;
	while (i < source.length) {
		const c = source[i];
		if (c === "\\") {
			i += 2;
			continue;
		}
		if (c === "'") {
			const close = source.indexOf("'", i + 1);
			if (close < 0) throw new ParseFailure("command: unterminated single quote");
			i = close + 1;
			continue;
		}
		if (c === '"') {
			i = skipDoubleQuoted(source, i + 1);
			continue;
		}
		if (c === "`") {
			i = skipBacktick(source, i + 1);
			continue;
		}
		if (c === opener) depthCount++;
		else if (c === closer) {
			depthCount--;
			if (depthCount === 0) return { inner: source.slice(start, i), end: i + 1 };
		}
		i++;
	}
	throw new ParseFailure(closer === ")" ? "command: unterminated substitution" : "command: unterminated expansion");
}

function skipDoubleQuoted(source: string, start: number): number {
	let i = start;
	while (i < source.length) {
		const c = source[i];
		if (c === "\\") {
			i += 2;
			continue;
		}
		if (c === '"') return i + 1;
		if (c === "$" && source[i + 1] === "(") {
			i = scanBalanced(source, i + 2, ")").end;
			continue;
		}
		if (c === "`") {
			i = skipBacktick(source, i + 1);
			continue;
		}
		i++;
	}
	throw new ParseFailure("command: unterminated double quote");
}

function skipBacktick(source: string, start: number): number {
	let i = start;
	while (i < source.length) {
		if (source[i] === "\\") {
			i += 2;
			continue;
		}
		if (source[i] === "`") return i + 1;
		i++;
	}
	throw new ParseFailure("command: unterminated backtick");
}

/** Scans a `$...` expansion at `i`; returns the text it stands for and the index after it. */
function scanDollar(
	source: string,
	i: number,
	depth: number,
	features: ShellFeatures,
	substitutions: ShellParse[],
): { text: string; end: number; dynamic: boolean } {
	const next = source[i + 1];
	if (next === "(") {
		if (source[i + 2] === "(") {
			const { inner, end } = scanBalanced(source, i + 3, ")");
			if (source[end] !== ")") throw new ParseFailure("command: unterminated arithmetic");
			features.arithmetic = true;
			collectNestedSubstitutions(inner, depth, features, substitutions);
			return { text: source.slice(i, end + 1), end: end + 1, dynamic: true };
		}
		const { inner, end } = scanBalanced(source, i + 2, ")");
		features.commandSubstitution = true;
		substitutions.push(parseAt(inner, depth + 1));
		return { text: source.slice(i, end), end, dynamic: true };
	}
	if (next === "{") {
		const { inner, end } = scanBalanced(source, i + 2, "}");
		collectNestedSubstitutions(inner, depth, features, substitutions);
		return { text: source.slice(i, end), end, dynamic: true };
	}
	if (next === "'") {
		// ANSI-C quoting $'...': literal with escapes.
		let j = i + 2;
		let value = "";
		while (j < source.length && source[j] !== "'") {
			if (source[j] === "\\" && j + 1 < source.length) {
				value += decodeAnsiEscape(source[j + 1] as string);
				j += 2;
				continue;
			}
			value += source[j];
			j++;
		}
		if (j >= source.length) throw new ParseFailure("command: unterminated single quote");
		return { text: value, end: j + 1, dynamic: false };
	}
	const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(source.slice(i + 1, i + 256));
	if (name) return { text: `$${name[0]}`, end: i + 1 + name[0].length, dynamic: true };
	return { text: "$", end: i + 1, dynamic: false };
}

function decodeAnsiEscape(c: string): string {
	switch (c) {
		case "n":
			return "\n";
		case "t":
			return "\t";
		case "r":
			return "\r";
		case "0":
			return "\0";
		default:
			return c;
	}
}

/** Parses `$(...)` and backticks inside `${...}` or `$((...))` text. */
function collectNestedSubstitutions(
	inner: string,
	depth: number,
	features: ShellFeatures,
	substitutions: ShellParse[],
): void {
	if (inner.includes("$(") || inner.includes("`")) scanDoubleQuotedBody(inner, depth, features, substitutions);
}

function scanBacktick(
	source: string,
	i: number,
	depth: number,
	features: ShellFeatures,
	substitutions: ShellParse[],
): number {
	const end = skipBacktick(source, i + 1);
	const inner = source.slice(i + 1, end - 1).replace(/\\([`$\\])/g, "$1");
	features.commandSubstitution = true;
	substitutions.push(parseAt(inner, depth + 1));
	return end;
}

/** Scans one word starting at `start`. */
function scanWord(
	source: string,
	start: number,
	depth: number,
	features: ShellFeatures,
	substitutions: ShellParse[],
	heredocDelimiter: boolean,
): { word: ShellWord; end: number } {
	let i = start;
	let value = "";
	let quoted = false;
	let dynamic = false;
	let glob = false;
	const tilde = source[start] === "~";
	/** Takes a `$` expansion or a backtick substitution at `i`, quoted or not (never in a heredoc delimiter). */
	const takeExpansion = (): boolean => {
		if (heredocDelimiter) return false;
		if (source[i] === "$") {
			const scanned = scanDollar(source, i, depth, features, substitutions);
			value += scanned.text;
			dynamic = dynamic || scanned.dynamic;
			i = scanned.end;
			return true;
		}
		if (source[i] === "`") {
			const end = scanBacktick(source, i, depth, features, substitutions);
			value += source.slice(i, end);
			dynamic = true;
			i = end;
			return true;
		}
		return false;
	};
	while (i < source.length) {
		const c = source[i] as string;
		if (METACHARS.has(c)) break;
		if (c === "\\") {
			if (source[i + 1] === "\n") {
				i += 2;
				continue;
			}
			if (i + 1 < source.length) value += source[i + 1];
			quoted = true;
			i += 2;
			continue;
		}
		if (c === "'") {
			const close = source.indexOf("'", i + 1);
			if (close < 0) throw new ParseFailure("command: unterminated single quote");
			value += source.slice(i + 1, close);
			quoted = true;
			i = close + 1;
			continue;
		}
		if (c === '"') {
			quoted = true;
			i++;
			let closed = false;
			while (i < source.length) {
				const d = source[i] as string;
				if (d === "\\") {
					const e = source[i + 1];
					if (e === "$" || e === "`" || e === '"' || e === "\\") {
						value += e;
						i += 2;
						continue;
					}
					if (e === "\n") {
						i += 2;
						continue;
					}
					value += d;
					i++;
					continue;
				}
				if (d === '"') {
					closed = true;
					i++;
					break;
				}
				if (takeExpansion()) continue;
				value += d;
				i++;
			}
			if (!closed) throw new ParseFailure("command: unterminated double quote");
			continue;
		}
		// An ANSI-C string ($'...') counts as quoted.
		if (c === "$" && source[i + 1] === "'" && !heredocDelimiter) quoted = true;
		if (takeExpansion()) continue;
		if (c === "*" || c === "?" || c === "[") glob = true;
		value += c;
		i++;
	}
	return { word: { value, quoted, dynamic, tilde, glob }, end: i };
}

/** Groups tokens into pipelines of simple commands. */
function build(tokens: Token[], features: ShellFeatures, substitutions: ShellParse[]): ShellParse {
	const pipelines: ShellCommand[][] = [];
	const operators: ShellControlOperator[] = [];
	let pipeline: ShellCommand[] = [];
	let assignments: ShellWord[] = [];
	let words: ShellWord[] = [];
	let redirects: ShellRedirect[] = [];
	let parens = 0;

	const endCommand = () => {
		if (assignments.length > 0 || words.length > 0 || redirects.length > 0) {
			pipeline.push({ assignments, words, redirects });
		}
		assignments = [];
		words = [];
		redirects = [];
	};
	const endPipeline = () => {
		endCommand();
		if (pipeline.length > 0) pipelines.push(pipeline);
		pipeline = [];
	};

	for (let t = 0; t < tokens.length; t++) {
		const token = tokens[t] as Token;
		if (token.kind === "word") {
			const word = token.word;
			if (words.length === 0 && !word.quoted && RESERVED_WORDS.has(word.value)) {
				features.compound = true;
				if (COMMAND_PREFIX_RESERVED.has(word.value)) continue;
				if (word.value === "function") continue;
			}
			if (words.length === 0 && !word.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.value)) {
				features.assignment = true;
				assignments.push(word);
				continue;
			}
			words.push(word);
			continue;
		}
		if (token.kind === "redirect") {
			const next = tokens[t + 1];
			const target = next?.kind === "word" ? next.word : undefined;
			if (target === undefined) throw new ParseFailure("command: redirection without target");
			t++;
			redirects.push({ op: token.op, ...(token.fd === undefined ? {} : { fd: token.fd }), target });
			continue;
		}
		switch (token.op) {
			case "|":
			case "|&":
				if (words.length === 0 && assignments.length === 0 && redirects.length === 0)
					throw new ParseFailure("command: pipe without command");
				features.pipe = true;
				endCommand();
				break;
			case "(":
				if (words.length > 0) {
					// A function definition `name() ...`.
					features.compound = true;
					const close = tokens[t + 1];
					if (close?.kind === "op" && close.op === ")") t++;
					words = [];
					break;
				}
				features.subshell = true;
				parens++;
				endPipeline();
				break;
			case ")":
				if (parens === 0) {
					// `case` patterns end with `)`; treat as compound syntax.
					features.compound = true;
					words = [];
					break;
				}
				parens--;
				endPipeline();
				break;
			case ";;":
				features.compound = true;
				endPipeline();
				break;
			default: {
				const op = token.op;
				if (op === ";" || op === "newline") features.sequence = true;
				if (op === "&&") features.and = true;
				if (op === "||") features.or = true;
				if (op === "&") features.background = true;
				endPipeline();
				operators.push(op);
			}
		}
	}
	if (parens !== 0) throw new ParseFailure("command: unbalanced parentheses");
	endPipeline();
	// A trailing `;` or newline after a single pipeline is not a sequence of two commands.
	if (features.sequence && pipelines.length <= 1) features.sequence = false;
	return { pipelines, operators, substitutions, features };
}

/** Every simple command in a parse, substitutions included, depth first. */
export function allShellCommands(parse: ShellParse): ShellCommand[] {
	const commands: ShellCommand[] = [];
	for (const pipeline of parse.pipelines) commands.push(...pipeline);
	for (const inner of parse.substitutions) commands.push(...allShellCommands(inner));
	return commands;
}

/** True when the parse is more than one pipeline of simple commands: sequences, substitutions, redirects and so on. */
export function shellComposes(parse: ShellParse): boolean {
	const f = parse.features;
	return (
		f.sequence ||
		f.and ||
		f.or ||
		f.background ||
		f.redirect ||
		f.commandSubstitution ||
		f.processSubstitution ||
		f.subshell ||
		f.compound ||
		f.arithmetic ||
		f.assignment ||
		parse.pipelines.length > 1 ||
		parse.substitutions.length > 0
	);
}
