// The one bash syntax tree of the suite: a single-pass, recursive-descent parser for the bash subset agents write
// (lists, and-or chains, pipelines, subshells, groups, if/while/until/for, simple commands with assignments, words,
// redirects and heredocs), with command and process substitutions and literal `bash -c` scripts parsed as nested
// trees. Every character is read a bounded number of times; no regular expression runs over unbounded text.

/** Commands longer than this are not parsed: the result is `too-long` (guards then send the call to review). */
export const MAX_BASH_COMMAND_CHARS = 16 * 1024;
/** Nesting (substitutions, subshells, groups, compound commands, nested scripts) deeper than this is `too-deep`. */
export const MAX_BASH_NESTING = 32;

/**
 * Why a word is not fully literal. `escape` marks an ANSI-C string (`$'...'`) with a numeric or control escape
 * (`\x72`, `\u0041`, `\101`, `\cA`): its text hides what it spells.
 */
export const BASH_EXPANSION_KINDS = [
	"command-substitution",
	"process-substitution",
	"parameter-expansion",
	"arithmetic",
	"glob",
	"tilde",
	"brace",
	"escape",
] as const;
/** One of {@link BASH_EXPANSION_KINDS}. */
export type BashExpansionKind = (typeof BASH_EXPANSION_KINDS)[number];

/** One word of a command, a redirect target or an assignment value. */
export interface BashWord {
	/** The word exactly as written in the source. */
	readonly text: string;
	/** The word after quote removal, with expansions kept as written (`$HOME`, `$(pwd)`, `*.ts`, `~/x`). */
	readonly value: string;
	/** The value when the word is fully literal (no entry in `expansions`); undefined otherwise. */
	readonly literal: string | undefined;
	/** True when any part of the word was quoted or escaped. */
	readonly quoted: boolean;
	/** Why the word is not literal, each kind once, in order of first appearance; empty for a literal word. */
	readonly expansions: readonly BashExpansionKind[];
	/** The parsed bodies of the command and process substitutions in the word, in order. */
	readonly substitutions: readonly BashList[];
}

/** A `NAME=value` or `NAME+=value` prefix of a simple command. */
export interface BashAssignment {
	readonly name: string;
	readonly append: boolean;
	/** The value as a word (its `text` and `value` exclude `NAME=`). */
	readonly value: BashWord;
}

/** A heredoc body attached to a `<<` or `<<-` redirect. */
export interface BashHeredoc {
	/** The delimiter after quote removal. */
	readonly delimiter: string;
	/** True when the delimiter was quoted: the body is then literal. */
	readonly quoted: boolean;
	/** True for `<<-` (leading tabs are stripped). */
	readonly stripTabs: boolean;
	/** The body, every line up to (not including) the delimiter line, each ending in a newline. */
	readonly body: string;
	/** Expansions in an unquoted body (`parameter-expansion`, `command-substitution`, `arithmetic`). */
	readonly expansions: readonly BashExpansionKind[];
	/** Parsed command substitutions of an unquoted body. */
	readonly substitutions: readonly BashList[];
}

/** The redirection operators, without a file-descriptor prefix. */
export type BashRedirectOp = ">" | ">>" | ">|" | "<" | "<>" | "<<" | "<<-" | "<<<" | ">&" | "<&" | "&>" | "&>>";

/** A redirection such as `> out.txt`, `2>&1`, `<<<"text"` or `<<EOF`. */
export interface BashRedirect {
	readonly op: BashRedirectOp;
	/** The explicit file descriptor (the `2` of `2>`), when written. */
	readonly fd: number | undefined;
	/** The target word; for a heredoc, the delimiter word as written. */
	readonly target: BashWord;
	/** The heredoc, for `<<` and `<<-`. */
	readonly heredoc: BashHeredoc | undefined;
}

/** A literal script given to `bash -c`, `sh -c` or a similar shell, parsed as a nested tree. */
export type BashNestedScript =
	| { readonly ok: true; readonly shell: string; readonly tree: BashList }
	| { readonly ok: false; readonly shell: string; readonly reason: BashParseFailureReason };

/** A simple command: assignments, words (the first is the command name) and redirects. */
export interface BashSimpleCommand {
	readonly kind: "simple";
	readonly assignments: readonly BashAssignment[];
	readonly words: readonly BashWord[];
	readonly redirects: readonly BashRedirect[];
	/**
	 * Set when the command is `bash`/`sh`/`dash` with `-c` (possibly among other short flags such as `-l`, `-e`):
	 * the parse of the script when it is a literal word, or why not. Undefined for every other command.
	 */
	readonly script: BashNestedScript | undefined;
}

/** `( list )`. */
export interface BashSubshell {
	readonly kind: "subshell";
	readonly body: BashList;
	readonly redirects: readonly BashRedirect[];
}

/** `{ list; }`. */
export interface BashGroup {
	readonly kind: "group";
	readonly body: BashList;
	readonly redirects: readonly BashRedirect[];
}

/** `if list; then list; [elif list; then list;]... [else list;] fi`. */
export interface BashIf {
	readonly kind: "if";
	readonly clauses: readonly { readonly condition: BashList; readonly body: BashList }[];
	readonly elseBody: BashList | undefined;
	readonly redirects: readonly BashRedirect[];
}

/** `while list; do list; done` and `until list; do list; done`. */
export interface BashLoop {
	readonly kind: "while" | "until";
	readonly condition: BashList;
	readonly body: BashList;
	readonly redirects: readonly BashRedirect[];
}

/** `for NAME [in words]; do list; done`. */
export interface BashFor {
	readonly kind: "for";
	readonly variable: string;
	/** The words after `in`; undefined when there is no `in` (loops over `"$@"`). */
	readonly items: readonly BashWord[] | undefined;
	readonly body: BashList;
	readonly redirects: readonly BashRedirect[];
}

/** One command of a pipeline. */
export type BashCommand = BashSimpleCommand | BashSubshell | BashGroup | BashIf | BashLoop | BashFor;

/** Commands joined by `|` or `|&`, optionally negated with `!`. */
export interface BashPipeline {
	readonly kind: "pipeline";
	readonly negated: boolean;
	readonly commands: readonly BashCommand[];
	/** The operator before each command after the first (`operators[i]` joins `commands[i]` and `commands[i + 1]`). */
	readonly operators: readonly ("|" | "|&")[];
}

/** Pipelines joined by `&&` and `||`, ended by `;`, `&`, a newline or the end of the list. */
export interface BashStatement {
	readonly kind: "statement";
	readonly pipelines: readonly BashPipeline[];
	/** The operator before each pipeline after the first. */
	readonly operators: readonly ("&&" | "||")[];
	/** How the statement ended: `;`, `&` (background), a newline, or nothing (end of the list). */
	readonly terminator: ";" | "&" | "newline" | undefined;
	/**
	 * Offsets of the statement's first and after its last character, terminator and heredoc bodies excluded, in
	 * the text this parser read (for a backtick substitution or a nested script, that inner text).
	 */
	readonly start: number;
	readonly end: number;
}

/** A list of statements: a whole command line, a substitution body, a subshell or group body, a nested script. */
export interface BashList {
	readonly kind: "list";
	readonly statements: readonly BashStatement[];
}

/** Why a command could not be parsed. */
export const BASH_PARSE_FAILURE_REASONS = [
	"too-long",
	"too-deep",
	"syntax-error",
	"unsupported",
	"not-a-string",
] as const;
/** One of {@link BASH_PARSE_FAILURE_REASONS}. */
export type BashParseFailureReason = (typeof BASH_PARSE_FAILURE_REASONS)[number];

/** The result of {@link parseBashSyntax}. `detail` is a fixed phrase that never quotes the input. */
export type BashSyntaxResult =
	| { readonly ok: true; readonly tree: BashList }
	| { readonly ok: false; readonly reason: BashParseFailureReason; readonly detail: string };

/** Shells whose `-c` script is parsed as a nested tree (their syntax is the one this parser reads). */
export const NESTED_SCRIPT_SHELLS = ["bash", "sh", "dash"] as const;

class Failure extends Error {
	constructor(
		readonly reason: BashParseFailureReason,
		readonly detail: string,
	) {
		super(detail);
	}
}

const BLANK = new Set([" ", "\t"]);
/** Characters that end an unquoted word. */
const METACHARS: { has(c: string): boolean } = (() => {
	const table = new Uint8Array(128);
	for (const c of " \t\n;&|<>()") table[c.charCodeAt(0)] = 1;
	return { has: (c: string) => c.length === 1 && table[c.charCodeAt(0)] === 1 };
})();
const RESERVED_COMMAND_WORDS = new Set(["if", "while", "until", "for", "{", "!"]);
const UNSUPPORTED_COMMAND_WORDS = new Set(["case", "select", "function", "[[", "coproc"]);
const CLOSING_WORDS = new Set(["then", "else", "elif", "fi", "do", "done", "}", "esac", "in"]);

/**
 * Parses a bash command line into a {@link BashList}. Never throws. Fails with `too-long` above
 * {@link MAX_BASH_COMMAND_CHARS}, `too-deep` beyond {@link MAX_BASH_NESTING}, `syntax-error` for text bash would
 * reject (unterminated quotes, substitutions or heredocs, a missing command, an unbalanced parenthesis) and
 * `unsupported` for constructs this parser does not model (`case`, `[[ ]]`, `(( ))`, functions, arrays, `coproc`).
 * Quoted text is never split or interpreted: `echo "rm -rf /"` is one `echo` with one word.
 */
export function parseBashSyntax(command: string): BashSyntaxResult {
	if (typeof command !== "string") return { ok: false, reason: "not-a-string", detail: "command is not a string" };
	if (command.length > MAX_BASH_COMMAND_CHARS) return { ok: false, reason: "too-long", detail: "command too long" };
	try {
		return { ok: true, tree: new Parser(command, 0).parseScript() };
	} catch (error) {
		if (error instanceof Failure) return { ok: false, reason: error.reason, detail: error.detail };
		// A RangeError from the engine's stack is a nesting failure; anything else is a parser bug: fail closed.
		return { ok: false, reason: "unsupported", detail: "parser failure" };
	}
}

/** True when `text` (a word as written) holds a `$` or a backtick that is not inside single quotes. */
function hasDollarOrBacktickOutsideSingleQuotes(text: string): boolean {
	let inDouble = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === "\\") i++;
		else if (c === '"') inDouble = !inDouble;
		else if (c === "'" && !inDouble) {
			const close = text.indexOf("'", i + 1);
			if (close < 0) return true;
			i = close;
		} else if (c === "$" || c === "`") return true;
	}
	return false;
}

interface PendingHeredoc {
	readonly delimiter: string;
	readonly quoted: boolean;
	readonly stripTabs: boolean;
	readonly fill: (heredoc: BashHeredoc) => void;
}

interface WordBuilder {
	text: string;
	value: string;
	quoted: boolean;
	expansions: BashExpansionKind[] | undefined;
	substitutions: BashList[] | undefined;
}

const NO_EXPANSIONS: readonly BashExpansionKind[] = Object.freeze([]);
const NO_SUBSTITUTIONS: readonly BashList[] = Object.freeze([]);

class Parser {
	private pos = 0;
	/** The offset after the last word, redirect or closing token read (statement ends). */
	private lastEnd = 0;
	private readonly pending: PendingHeredoc[] = [];
	/** Open `$(`, `<(` and `>(` substitutions around the position. */
	private openSubstitutions = 0;
	/**
	 * Heredocs that were pending when the innermost open substitution began: bash 5.2 does not read their bodies
	 * at a newline inside it (an eighteenth review), so such a newline is not modelled.
	 */
	private pendingOutside = 0;

	constructor(
		private readonly src: string,
		private depth: number,
	) {}

	parseScript(): BashList {
		const list = this.parseList(undefined);
		if (this.pos < this.src.length) {
			throw new Failure("syntax-error", this.src[this.pos] === ")" ? "unbalanced parenthesis" : "unexpected token");
		}
		if (this.pending.length > 0) throw new Failure("syntax-error", "unterminated heredoc");
		return list;
	}

	// --------------------------------------------------------------------------------------------------------
	// Structure

	private enter(): void {
		this.depth++;
		if (this.depth > MAX_BASH_NESTING) throw new Failure("too-deep", "nesting too deep");
	}

	private leave(): void {
		this.depth--;
	}

	/** Parses statements until the end, a `)` (when `closer` is ")") or one of the closing reserved words. */
	private parseList(closer: ")" | ReadonlySet<string> | undefined): BashList {
		const statements: BashStatement[] = [];
		for (;;) {
			this.skipSpaceAndNewlines();
			if (this.pos >= this.src.length) break;
			const c = this.src[this.pos];
			if (c === ")") {
				if (closer === ")") break;
				throw new Failure("syntax-error", "unbalanced parenthesis");
			}
			const reserved = this.peekReserved();
			if (reserved !== undefined && CLOSING_WORDS.has(reserved)) {
				if (closer instanceof Set && closer.has(reserved)) break;
				throw new Failure("syntax-error", "unexpected reserved word");
			}
			statements.push(this.parseStatement());
		}
		return { kind: "list", statements };
	}

	private parseStatement(): BashStatement {
		this.skipBlanks();
		const start = this.pos;
		const pipelines: BashPipeline[] = [this.parsePipeline()];
		const operators: ("&&" | "||")[] = [];
		for (;;) {
			this.skipBlanks();
			const two = this.src.slice(this.pos, this.pos + 2);
			if (two !== "&&" && two !== "||") break;
			this.pos += 2;
			operators.push(two);
			this.skipSpaceAndNewlines();
			pipelines.push(this.parsePipeline());
		}
		const end = this.lastEnd;
		this.skipBlanks();
		const c = this.src[this.pos];
		let terminator: BashStatement["terminator"];
		if (c === ";") {
			if (this.src[this.pos + 1] === ";") throw new Failure("unsupported", "case clause terminator");
			this.pos++;
			terminator = ";";
		} else if (c === "&") {
			this.pos++;
			terminator = "&";
		} else if (c === "\n") {
			this.consumeNewline();
			terminator = "newline";
		} else if (c === "#") {
			this.skipComment();
		}
		return { kind: "statement", pipelines, operators, terminator, start, end };
	}

	private parsePipeline(): BashPipeline {
		this.skipBlanks();
		let negated = false;
		if (this.peekReserved() === "!") {
			negated = true;
			this.pos++;
			this.skipBlanks();
		}
		const commands: BashCommand[] = [this.parseCommand()];
		const operators: ("|" | "|&")[] = [];
		for (;;) {
			this.skipBlanks();
			if (this.src[this.pos] !== "|" || this.src[this.pos + 1] === "|") break;
			const op = this.src[this.pos + 1] === "&" ? "|&" : "|";
			this.pos += op.length;
			operators.push(op);
			this.skipSpaceAndNewlines();
			commands.push(this.parseCommand());
		}
		return { kind: "pipeline", negated, commands, operators };
	}

	private parseCommand(): BashCommand {
		this.skipBlanks();
		const c = this.src[this.pos];
		if (c === "(") {
			if (this.src[this.pos + 1] === "(") throw new Failure("unsupported", "arithmetic command");
			this.pos++;
			this.enter();
			const body = this.parseList(")");
			if (this.src[this.pos] !== ")") throw new Failure("syntax-error", "unterminated subshell");
			this.pos++;
			this.lastEnd = this.pos;
			this.leave();
			return { kind: "subshell", body, redirects: this.parseTrailingRedirects() };
		}
		const reserved = this.peekReserved();
		if (reserved !== undefined) {
			if (UNSUPPORTED_COMMAND_WORDS.has(reserved)) throw new Failure("unsupported", "compound command");
			if (CLOSING_WORDS.has(reserved)) throw new Failure("syntax-error", "unexpected reserved word");
			if (RESERVED_COMMAND_WORDS.has(reserved) && reserved !== "!") return this.parseCompound(reserved);
		}
		return this.parseSimple();
	}

	private expectReserved(word: string): void {
		this.skipSpaceAndNewlines();
		if (this.peekReserved() !== word) throw new Failure("syntax-error", "missing reserved word");
		this.pos += word.length;
		this.lastEnd = this.pos;
	}

	private parseCompound(keyword: string): BashCommand {
		this.pos += keyword.length;
		this.enter();
		let command: BashCommand;
		if (keyword === "{") {
			const body = this.parseList(new Set(["}"]));
			this.expectReserved("}");
			command = { kind: "group", body, redirects: [] };
		} else if (keyword === "if") {
			const clauses: { condition: BashList; body: BashList }[] = [];
			let elseBody: BashList | undefined;
			for (;;) {
				const condition = this.parseList(new Set(["then"]));
				this.expectReserved("then");
				const body = this.parseList(new Set(["elif", "else", "fi"]));
				clauses.push({ condition, body });
				this.skipSpaceAndNewlines();
				const next = this.peekReserved();
				if (next === "elif") {
					this.pos += 4;
					continue;
				}
				if (next === "else") {
					this.pos += 4;
					elseBody = this.parseList(new Set(["fi"]));
				}
				this.expectReserved("fi");
				break;
			}
			command = { kind: "if", clauses, elseBody, redirects: [] };
		} else if (keyword === "while" || keyword === "until") {
			const condition = this.parseList(new Set(["do"]));
			this.expectReserved("do");
			const body = this.parseList(new Set(["done"]));
			this.expectReserved("done");
			command = { kind: keyword, condition, body, redirects: [] };
		} else {
			// for NAME [in words] ; do list ; done
			this.skipBlanks();
			const start = this.pos;
			while (this.pos < this.src.length && isNameChar(this.src[this.pos] as string, this.pos === start)) this.pos++;
			const variable = this.src.slice(start, this.pos);
			if (variable.length === 0) {
				if (this.src.startsWith("((", this.pos)) throw new Failure("unsupported", "arithmetic for loop");
				throw new Failure("syntax-error", "for without a name");
			}
			this.skipSpaceAndNewlines();
			let items: BashWord[] | undefined;
			if (this.peekReserved() === "in") {
				this.pos += 2;
				items = [];
				for (;;) {
					this.skipBlanks();
					const d = this.src[this.pos];
					if (d === undefined || d === ";" || d === "\n") break;
					if (d === "#") {
						this.skipComment();
						break;
					}
					if (METACHARS.has(d)) throw new Failure("syntax-error", "unexpected token in for");
					items.push(this.parseWord());
				}
			}
			this.skipBlanks();
			if (this.src[this.pos] === ";") this.pos++;
			this.expectReserved("do");
			const body = this.parseList(new Set(["done"]));
			this.expectReserved("done");
			command = { kind: "for", variable, items, body, redirects: [] };
		}
		this.leave();
		const redirects = this.parseTrailingRedirects();
		return redirects.length > 0 ? { ...command, redirects } : command;
	}

	/** Redirects after a compound command; a word there is a syntax error. */
	private parseTrailingRedirects(): BashRedirect[] {
		const redirects: BashRedirect[] = [];
		for (;;) {
			this.skipBlanks();
			const redirect = this.tryParseRedirect();
			if (redirect === undefined) break;
			redirects.push(redirect);
		}
		const c = this.src[this.pos];
		if (c !== undefined && !METACHARS.has(c) && c !== "#") {
			const reserved = this.peekReserved();
			if (reserved === undefined || !CLOSING_WORDS.has(reserved)) {
				throw new Failure("syntax-error", "word after compound command");
			}
		}
		if (c === "(") throw new Failure("syntax-error", "unexpected parenthesis");
		return redirects;
	}

	private parseSimple(): BashSimpleCommand {
		const assignments: BashAssignment[] = [];
		const words: BashWord[] = [];
		const redirects: BashRedirect[] = [];
		for (;;) {
			this.skipBlanks();
			const c = this.src[this.pos];
			if (c === undefined || c === "\n" || c === ";" || c === "|" || c === ")") break;
			if (c === "&" && this.src[this.pos + 1] !== ">") break;
			if (c === "#") {
				this.skipComment();
				break;
			}
			if (c === "(") {
				if (words.length === 1 && assignments.length === 0) throw new Failure("unsupported", "function definition");
				if (words.length === 0 && assignments.length > 0) throw new Failure("unsupported", "array assignment");
				throw new Failure("syntax-error", "unexpected parenthesis");
			}
			if ((c === "<" || c === ">") && this.src[this.pos + 1] === "(") {
				words.push(this.parseWord());
				continue;
			}
			const redirect = this.tryParseRedirect();
			if (redirect !== undefined) {
				redirects.push(redirect);
				continue;
			}
			if (words.length === 0) {
				const assignment = this.tryParseAssignment();
				if (assignment !== undefined) {
					assignments.push(assignment);
					continue;
				}
			}
			words.push(this.parseWord());
		}
		if (assignments.length === 0 && words.length === 0 && redirects.length === 0) {
			throw new Failure("syntax-error", "missing command");
		}
		return { kind: "simple", assignments, words, redirects, script: nestedScript(words, this.depth) };
	}

	// --------------------------------------------------------------------------------------------------------
	// Redirects and heredocs

	/** Parses a redirect at the position (with an optional fd prefix), or returns undefined and moves nothing. */
	private tryParseRedirect(): BashRedirect | undefined {
		const start = this.pos;
		let at = start;
		while (at < this.src.length && at - start < 10 && isDigit(this.src[at] as string)) at++;
		const hasFd = at > start;
		const c = this.src[at];
		if (c !== "<" && c !== ">" && !(c === "&" && !hasFd && this.src[at + 1] === ">")) return undefined;
		if (this.src[at + 1] === "(" && (c === "<" || c === ">")) return undefined;
		const op = readRedirectOp(this.src, at);
		const fd = hasFd ? Number(this.src.slice(start, at)) : undefined;
		this.pos = at + op.length;
		this.skipBlanks();
		const d = this.src[this.pos];
		if (d === undefined || METACHARS.has(d)) throw new Failure("syntax-error", "redirect without target");
		if (op === "<<" || op === "<<-") {
			const target = this.parseWord(true);
			// bash removes `$'…'` and `$"…"` quoting from a delimiter (`<<$'EOF'` ends at `EOF`), and its lexer reads
			// `${…}`, `$[…]`, `$(…)` and backticks in a delimiter as one unit, blanks included (`<<a${x y}`, an
			// eighteenth review): not modelled.
			if (hasDollarOrBacktickOutsideSingleQuotes(target.text)) {
				throw new Failure("unsupported", "dollar or backtick in heredoc delimiter");
			}
			const heredoc: { value: BashHeredoc | undefined } = { value: undefined };
			this.pending.push({
				delimiter: target.value,
				quoted: target.quoted,
				stripTabs: op === "<<-",
				fill: (filled) => {
					heredoc.value = filled;
				},
			});
			const redirect: BashRedirect = {
				op,
				fd,
				target,
				get heredoc() {
					return heredoc.value;
				},
			};
			return redirect;
		}
		return { op, fd, target: this.parseWord(), heredoc: undefined };
	}

	/** Parses the statements of a `$(…)`, `<(…)` or `>(…)` up to its `)`, which it leaves at the position. */
	private parseSubstitutionBody(): BashList {
		this.enter();
		this.openSubstitutions++;
		const outside = this.pendingOutside;
		this.pendingOutside = this.pending.length;
		const body = this.parseList(")");
		this.pendingOutside = outside;
		this.openSubstitutions--;
		this.leave();
		return body;
	}

	/** Consumes the newline at the position and then the bodies of any pending heredocs. */
	private consumeNewline(): void {
		this.pos++;
		if (this.pending.length === 0) return;
		if (this.pendingOutside > 0) throw new Failure("unsupported", "newline in a substitution while a heredoc waits");
		for (const heredoc of this.pending.splice(0)) {
			const bodyStart = this.pos;
			let found = false;
			let bodyEnd = bodyStart;
			while (this.pos < this.src.length) {
				let lineEnd = this.src.indexOf("\n", this.pos);
				if (lineEnd < 0) lineEnd = this.src.length;
				let lineStart = this.pos;
				if (heredoc.stripTabs) while (lineStart < lineEnd && this.src[lineStart] === "\t") lineStart++;
				// In an unquoted body bash joins a line ending in `\` with the next before it looks for the
				// delimiter or expands (`EO\` + `F` ends the body; `$\` + `(cmd)` runs cmd): not modelled.
				if (!heredoc.quoted && endsWithOddBackslashes(this.src, lineStart, lineEnd)) {
					throw new Failure("unsupported", "line continuation in heredoc body");
				}
				const startsWithDelimiter = this.src.startsWith(heredoc.delimiter, lineStart);
				// Inside `$(…)` or `<(…)` bash 5.2 also ends the body at a line such as `EOF)`, and then runs the lines
				// after it as commands: not modelled.
				if (startsWithDelimiter && this.openSubstitutions > 0 && lineEnd - lineStart !== heredoc.delimiter.length) {
					throw new Failure("unsupported", "heredoc delimiter followed by more text inside a substitution");
				}
				if (lineEnd - lineStart === heredoc.delimiter.length && startsWithDelimiter) {
					bodyEnd = this.pos;
					this.pos = Math.min(lineEnd + 1, this.src.length);
					found = true;
					break;
				}
				this.pos = lineEnd + 1;
			}
			if (!found) throw new Failure("syntax-error", "unterminated heredoc");
			let body = this.src.slice(bodyStart, bodyEnd);
			if (heredoc.stripTabs) body = stripLeadingTabs(body);
			let expansions = NO_EXPANSIONS;
			let substitutions = NO_SUBSTITUTIONS;
			if (!heredoc.quoted && (body.includes("$") || body.includes("`"))) {
				const inner = new Parser(body, this.depth);
				const builder = inner.scanHeredocBody();
				expansions = builder.expansions ?? NO_EXPANSIONS;
				substitutions = builder.substitutions ?? NO_SUBSTITUTIONS;
			}
			heredoc.fill({
				delimiter: heredoc.delimiter,
				quoted: heredoc.quoted,
				stripTabs: heredoc.stripTabs,
				body,
				expansions,
				substitutions,
			});
		}
	}

	/** Scans the whole source as an unquoted heredoc body: only `\`, `$` and backticks are special. */
	private scanHeredocBody(): WordBuilder {
		const word = newBuilder();
		while (this.pos < this.src.length) {
			const c = this.src[this.pos] as string;
			if (c === "\\") {
				this.pos += 2;
				continue;
			}
			if (c === "$" && this.scanDollar(word)) continue;
			if (c === "`") {
				this.scanBacktick(word);
				continue;
			}
			this.pos++;
		}
		return word;
	}

	// --------------------------------------------------------------------------------------------------------
	// Words

	private tryParseAssignment(): BashAssignment | undefined {
		const start = this.pos;
		let at = start;
		while (at < this.src.length && isNameChar(this.src[at] as string, at === start)) at++;
		if (at === start) return undefined;
		const append = this.src[at] === "+" && this.src[at + 1] === "=";
		if (!append && this.src[at] !== "=") return undefined;
		const name = this.src.slice(start, at);
		this.pos = at + (append ? 2 : 1);
		const c = this.src[this.pos];
		if (c === "(") throw new Failure("unsupported", "array assignment");
		this.lastEnd = this.pos;
		const value =
			c === undefined || METACHARS.has(c)
				? {
						text: "",
						value: "",
						literal: "",
						quoted: false,
						expansions: NO_EXPANSIONS,
						substitutions: NO_SUBSTITUTIONS,
					}
				: this.parseWord();
		return { name, append, value };
	}

	/** Parses one word at the position. A heredoc delimiter takes no expansions. */
	private parseWord(delimiter = false): BashWord {
		const start = this.pos;
		const word = newBuilder();
		let braceOpen = false;
		let braceHasSeparator = false;
		if (!delimiter && this.src[start] === "~") addExpansion(word, "tilde");
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) break;
			if ((c === "<" || c === ">") && this.src[this.pos + 1] === "(" && !delimiter && this.pos === start) {
				this.pos += 2;
				const body = this.parseSubstitutionBody();
				if (this.src[this.pos] !== ")") throw new Failure("syntax-error", "unterminated process substitution");
				this.pos++;
				word.value += `${c}(…)`;
				addExpansion(word, "process-substitution");
				addSubstitution(word, body);
				continue;
			}
			if (METACHARS.has(c)) break;
			if (c === "\\") {
				const next = this.src[this.pos + 1];
				if (next === "\n") {
					this.pos += 2;
					continue;
				}
				word.quoted = true;
				word.value += next ?? "\\";
				this.pos += next === undefined ? 1 : 2;
				continue;
			}
			if (c === "'") {
				const close = this.src.indexOf("'", this.pos + 1);
				if (close < 0) throw new Failure("syntax-error", "unterminated single quote");
				word.value += this.src.slice(this.pos + 1, close);
				word.quoted = true;
				this.pos = close + 1;
				continue;
			}
			if (c === '"') {
				this.pos++;
				word.quoted = true;
				this.scanDoubleQuoted(word, delimiter);
				continue;
			}
			if (c === "$" && !delimiter) {
				const next = this.src[this.pos + 1];
				if (next === "'") {
					this.pos += 2;
					word.quoted = true;
					word.value += this.scanAnsiC(word);
					continue;
				}
				if (next === '"') {
					this.pos += 2;
					word.quoted = true;
					this.scanDoubleQuoted(word, false);
					continue;
				}
				if (this.scanDollar(word)) continue;
			}
			if (c === "`" && !delimiter) {
				this.scanBacktick(word);
				continue;
			}
			if (c !== "*" && c !== "?" && c !== "[" && c !== "{" && c !== "," && c !== "." && c !== "}") {
				// A run of plain characters, taken in one slice.
				const runEnd = plainRunEnd(this.src, this.pos);
				word.value += this.src.slice(this.pos, runEnd);
				this.pos = runEnd;
				continue;
			}
			if (!delimiter) {
				if (c === "*" || c === "?" || c === "[") addExpansion(word, "glob");
				else if (c === "{") braceOpen = true;
				else if (c === "," && braceOpen) braceHasSeparator = true;
				else if (c === "." && braceOpen && this.src[this.pos + 1] === ".") braceHasSeparator = true;
				else if (c === "}" && braceOpen && braceHasSeparator) addExpansion(word, "brace");
			}
			word.value += c;
			this.pos++;
		}
		word.text = this.src.slice(start, this.pos);
		this.lastEnd = this.pos;
		return finishWord(word);
	}

	/** Scans a double-quoted string after its opening quote, up to and including the closing quote. */
	private scanDoubleQuoted(word: WordBuilder, delimiter: boolean): void {
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) throw new Failure("syntax-error", "unterminated double quote");
			if (c === '"') {
				this.pos++;
				return;
			}
			if (c === "\\") {
				const next = this.src[this.pos + 1];
				if (next === "\n") {
					this.pos += 2;
					continue;
				}
				if (next === "$" || next === "`" || next === '"' || next === "\\") {
					word.value += next;
					this.pos += 2;
					continue;
				}
				word.value += c;
				this.pos++;
				continue;
			}
			if (!delimiter && c === "$" && this.scanDollar(word)) continue;
			if (!delimiter && c === "`") {
				this.scanBacktick(word);
				continue;
			}
			word.value += c;
			this.pos++;
		}
	}

	/** Decodes `$'...'` after its opening; returns the value. Numeric and control escapes mark the word. */
	private scanAnsiC(word: WordBuilder): string {
		let value = "";
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) throw new Failure("syntax-error", "unterminated single quote");
			if (c === "'") {
				this.pos++;
				return value;
			}
			if (c === "\\" && this.pos + 1 < this.src.length) {
				const next = this.src[this.pos + 1] as string;
				if (next === "x" || next === "u" || next === "U" || next === "c" || (next >= "0" && next <= "7")) {
					addExpansion(word, "escape");
				}
				value += decodeAnsiEscape(next);
				this.pos += 2;
				continue;
			}
			value += c;
			this.pos++;
		}
	}

	/**
	 * Scans a `$` expansion at the position into `word`. Returns false (moving nothing) when the `$` is a literal
	 * dollar sign.
	 */
	private scanDollar(word: WordBuilder): boolean {
		const start = this.pos;
		const next = this.src[this.pos + 1];
		// bash drops `\` + newline before it reads `$`: `$\⏎(cmd)` is a substitution and `$\⏎HOME` a variable.
		if (next === "\\" && this.src[this.pos + 2] === "\n") {
			throw new Failure("unsupported", "line continuation after $");
		}
		if (next === "(") {
			if (this.src[this.pos + 2] === "(") {
				this.scanArithmetic();
				addExpansion(word, "arithmetic");
			} else {
				this.pos += 2;
				const body = this.parseSubstitutionBody();
				if (this.src[this.pos] !== ")") throw new Failure("syntax-error", "unterminated command substitution");
				this.pos++;
				addExpansion(word, "command-substitution");
				addSubstitution(word, body);
			}
			word.value += this.src.slice(start, this.pos);
			return true;
		}
		if (next === "{") {
			this.pos += 2;
			this.scanParameterExpansion(word);
			addExpansion(word, "parameter-expansion");
			word.value += this.src.slice(start, this.pos);
			return true;
		}
		if (next === "[") {
			// Deprecated arithmetic $[...].
			const close = this.src.indexOf("]", this.pos + 2);
			if (close < 0) throw new Failure("syntax-error", "unterminated arithmetic");
			this.pos = close + 1;
			addExpansion(word, "arithmetic");
			word.value += this.src.slice(start, this.pos);
			return true;
		}
		if (next !== undefined && (isNameChar(next, true) || isDigit(next) || "@*#?$!-".includes(next))) {
			this.pos++;
			if (isNameChar(next, true)) {
				while (this.pos < this.src.length && isNameChar(this.src[this.pos] as string, false)) this.pos++;
			} else this.pos++;
			addExpansion(word, "parameter-expansion");
			word.value += this.src.slice(start, this.pos);
			return true;
		}
		return false;
	}

	/** Skips `$((...))` from its `$`, counting parentheses; substitutions inside are not modelled. */
	private scanArithmetic(): void {
		this.pos += 3;
		let depth = 0;
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) throw new Failure("syntax-error", "unterminated arithmetic");
			if (c === "$" && this.src[this.pos + 1] === "(") throw new Failure("unsupported", "substitution in arithmetic");
			if (c === "`") throw new Failure("unsupported", "substitution in arithmetic");
			if (c === "(") depth++;
			else if (c === ")") {
				if (depth === 0) {
					if (this.src[this.pos + 1] !== ")") throw new Failure("syntax-error", "unterminated arithmetic");
					this.pos += 2;
					return;
				}
				depth--;
			}
			this.pos++;
		}
	}

	/** Scans `${...}` after its `${`, up to and including the closing brace; substitutions inside are parsed. */
	private scanParameterExpansion(word: WordBuilder): void {
		this.enter();
		const scratch = newBuilder();
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) throw new Failure("syntax-error", "unterminated parameter expansion");
			if (c === "}") {
				this.pos++;
				break;
			}
			if (c === "\\") {
				this.pos += 2;
				continue;
			}
			if (c === "'") {
				const close = this.src.indexOf("'", this.pos + 1);
				if (close < 0) throw new Failure("syntax-error", "unterminated single quote");
				this.pos = close + 1;
				continue;
			}
			if (c === '"') {
				this.pos++;
				this.scanDoubleQuoted(scratch, false);
				continue;
			}
			if (c === "$" && this.scanDollar(scratch)) continue;
			if (c === "`") {
				this.scanBacktick(scratch);
				continue;
			}
			this.pos++;
		}
		this.leave();
		for (const kind of scratch.expansions ?? NO_EXPANSIONS) addExpansion(word, kind);
		for (const body of scratch.substitutions ?? NO_SUBSTITUTIONS) addSubstitution(word, body);
	}

	/** Scans a backtick substitution at the position; its unescaped body is parsed with a nested parser. */
	private scanBacktick(word: WordBuilder): void {
		const start = this.pos;
		let inner = "";
		this.pos++;
		for (;;) {
			const c = this.src[this.pos];
			if (c === undefined) throw new Failure("syntax-error", "unterminated backtick");
			if (c === "`") {
				this.pos++;
				break;
			}
			if (c === "\\") {
				const next = this.src[this.pos + 1];
				if (next === "`" || next === "$" || next === "\\") {
					inner += next;
					this.pos += 2;
					continue;
				}
			}
			inner += c;
			this.pos++;
		}
		if (this.depth + 1 > MAX_BASH_NESTING) throw new Failure("too-deep", "nesting too deep");
		const nested = new Parser(inner, this.depth + 1);
		const body = nested.parseScript();
		addExpansion(word, "command-substitution");
		addSubstitution(word, body);
		word.value += this.src.slice(start, this.pos);
	}

	// --------------------------------------------------------------------------------------------------------
	// Lexical helpers

	/** The reserved word at the position, when an unquoted one stands there as a whole word. */
	private peekReserved(): string | undefined {
		const c = this.src[this.pos];
		if (c === undefined) return undefined;
		if (c === "{" || c === "}" || c === "!") {
			const after = this.src[this.pos + 1];
			return after === undefined || BLANK.has(after) || after === "\n" || (c === "}" && METACHARS.has(after))
				? c
				: undefined;
		}
		if (c === "[" && this.src[this.pos + 1] === "[") {
			const after = this.src[this.pos + 2];
			return after === undefined || METACHARS.has(after) ? "[[" : undefined;
		}
		if (c < "a" || c > "z") return undefined;
		let at = this.pos;
		while (at < this.src.length && at - this.pos < 9) {
			const d = this.src[at] as string;
			if (d < "a" || d > "z") break;
			at++;
		}
		const after = this.src[at];
		if (after !== undefined && !METACHARS.has(after)) return undefined;
		const word = this.src.slice(this.pos, at);
		return RESERVED_COMMAND_WORDS.has(word) || UNSUPPORTED_COMMAND_WORDS.has(word) || CLOSING_WORDS.has(word)
			? word
			: undefined;
	}

	private skipBlanks(): void {
		for (;;) {
			const c = this.src[this.pos];
			if (c === " " || c === "\t") this.pos++;
			else if (c === "\\" && this.src[this.pos + 1] === "\n") this.pos += 2;
			else return;
		}
	}

	private skipComment(): void {
		const end = this.src.indexOf("\n", this.pos);
		this.pos = end < 0 ? this.src.length : end;
	}

	/** Skips blanks, comments and newlines (reading heredoc bodies after each newline). */
	private skipSpaceAndNewlines(): void {
		for (;;) {
			this.skipBlanks();
			const c = this.src[this.pos];
			if (c === "\n") this.consumeNewline();
			else if (c === "#") this.skipComment();
			else return;
		}
	}
}

function newBuilder(): WordBuilder {
	return { text: "", value: "", quoted: false, expansions: undefined, substitutions: undefined };
}

/** True when `src[start, end)` ends in an odd number of backslashes (an escaped newline follows). */
function endsWithOddBackslashes(src: string, start: number, end: number): boolean {
	let count = 0;
	for (let at = end - 1; at >= start && src[at] === "\\"; at--) count++;
	return count % 2 === 1;
}

function addExpansion(word: WordBuilder, kind: BashExpansionKind): void {
	if (word.expansions === undefined) word.expansions = [kind];
	else if (!word.expansions.includes(kind)) word.expansions.push(kind);
}

function addSubstitution(word: WordBuilder, body: BashList): void {
	if (word.substitutions === undefined) word.substitutions = [body];
	else word.substitutions.push(body);
}

function finishWord(word: WordBuilder): BashWord {
	return {
		text: word.text,
		value: word.value,
		literal: word.expansions === undefined ? word.value : undefined,
		quoted: word.quoted,
		expansions: word.expansions ?? NO_EXPANSIONS,
		substitutions: word.substitutions ?? NO_SUBSTITUTIONS,
	};
}

/** Character codes below 128 that are special inside an unquoted word (metacharacters, quotes, expansions). */
const WORD_SPECIAL = (() => {
	const table = new Uint8Array(128);
	for (const c of " \t\n;&|<>()\\'\"$`*?[{,.}") table[c.charCodeAt(0)] = 1;
	return table;
})();

/** The end of the run of characters from `at` that need no special handling in an unquoted word. */
function plainRunEnd(src: string, at: number): number {
	let end = at + 1;
	const n = src.length;
	while (end < n) {
		const code = src.charCodeAt(end);
		if (code < 128 && WORD_SPECIAL[code] === 1) break;
		end++;
	}
	return end;
}

function isDigit(c: string): boolean {
	return c >= "0" && c <= "9";
}

function isNameChar(c: string, first: boolean): boolean {
	return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || (!first && c >= "0" && c <= "9");
}

const REDIRECT_OPS: readonly BashRedirectOp[] = [
	"&>>",
	"<<<",
	"<<-",
	"&>",
	">>",
	"<<",
	">&",
	"<&",
	">|",
	"<>",
	">",
	"<",
];

function readRedirectOp(src: string, at: number): BashRedirectOp {
	for (const op of REDIRECT_OPS) if (src.startsWith(op, at)) return op;
	throw new Failure("syntax-error", "invalid redirect");
}

function stripLeadingTabs(body: string): string {
	let out = "";
	let lineStart = true;
	for (const c of body) {
		if (lineStart && c === "\t") continue;
		lineStart = c === "\n";
		out += c;
	}
	return out;
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
		case "e":
		case "E":
			return "\u001b";
		default:
			return c;
	}
}

/** The nested script of `bash -c SCRIPT` (and `sh`, `dash`, with short flags before or bundled with `c`). */
function nestedScript(words: readonly BashWord[], depth: number): BashNestedScript | undefined {
	const first = words[0];
	if (first?.literal === undefined) return undefined;
	const shell = first.literal.slice(first.literal.lastIndexOf("/") + 1);
	if (!(NESTED_SCRIPT_SHELLS as readonly string[]).includes(shell)) return undefined;
	for (let i = 1; i < words.length; i++) {
		const option = (words[i] as BashWord).literal;
		if (option === undefined || !option.startsWith("-") || option === "-" || option.startsWith("--")) return undefined;
		if (!isShortFlagBundle(option)) return undefined;
		if (!option.includes("c")) continue;
		const scriptWord = words[i + 1];
		if (scriptWord === undefined) return { ok: false, shell, reason: "syntax-error" };
		if (scriptWord.literal === undefined) return { ok: false, shell, reason: "unsupported" };
		if (depth + 1 > MAX_BASH_NESTING) return { ok: false, shell, reason: "too-deep" };
		try {
			return { ok: true, shell, tree: new Parser(scriptWord.literal, depth + 1).parseScript() };
		} catch (error) {
			return { ok: false, shell, reason: error instanceof Failure ? error.reason : "unsupported" };
		}
	}
	return undefined;
}

function isShortFlagBundle(option: string): boolean {
	for (let i = 1; i < option.length; i++) {
		const c = option[i] as string;
		if (!((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"))) return false;
	}
	return option.length > 1;
}

/** Where a simple command sits in the tree. */
export type BashCommandPlace = "top" | "substitution" | "heredoc" | "script";

/** A simple command found by {@link visitSimpleCommands}, with where it sits. */
export interface BashPlacedCommand {
	readonly command: BashSimpleCommand;
	/** `top` for the list itself and its subshells, groups and compound bodies; otherwise the nearest container. */
	readonly place: BashCommandPlace;
}

/**
 * Every simple command in the tree, depth first in source order: the list's own commands (subshells, groups and
 * compound bodies included), then those inside word substitutions, process substitutions, unquoted heredoc
 * bodies and literal nested scripts, each with its place.
 */
export function placedSimpleCommandsOf(tree: BashList): BashPlacedCommand[] {
	const out: BashPlacedCommand[] = [];
	visitList(tree, "top", out);
	return out;
}

/** Every simple command in the tree, nested ones included (see {@link placedSimpleCommandsOf}). */
export function simpleCommandsOf(tree: BashList): BashSimpleCommand[] {
	return placedSimpleCommandsOf(tree).map((placed) => placed.command);
}

function visitList(list: BashList, place: BashCommandPlace, out: BashPlacedCommand[]): void {
	for (const statement of list.statements) {
		for (const pipeline of statement.pipelines) {
			for (const command of pipeline.commands) visitCommand(command, place, out);
		}
	}
}

function visitWord(word: BashWord, out: BashPlacedCommand[]): void {
	for (const body of word.substitutions) visitList(body, "substitution", out);
}

function visitRedirects(redirects: readonly BashRedirect[], out: BashPlacedCommand[]): void {
	for (const redirect of redirects) {
		visitWord(redirect.target, out);
		for (const body of redirect.heredoc?.substitutions ?? []) visitList(body, "heredoc", out);
	}
}

function visitCommand(command: BashCommand, place: BashCommandPlace, out: BashPlacedCommand[]): void {
	switch (command.kind) {
		case "simple":
			out.push({ command, place });
			for (const assignment of command.assignments) visitWord(assignment.value, out);
			for (const word of command.words) visitWord(word, out);
			visitRedirects(command.redirects, out);
			if (command.script?.ok) visitList(command.script.tree, "script", out);
			return;
		case "subshell":
		case "group":
			visitList(command.body, place, out);
			break;
		case "if":
			for (const clause of command.clauses) {
				visitList(clause.condition, place, out);
				visitList(clause.body, place, out);
			}
			if (command.elseBody) visitList(command.elseBody, place, out);
			break;
		case "while":
		case "until":
			visitList(command.condition, place, out);
			visitList(command.body, place, out);
			break;
		case "for":
			for (const word of command.items ?? []) visitWord(word, out);
			visitList(command.body, place, out);
			break;
	}
	visitRedirects(command.redirects, out);
}

/** A pipeline found by {@link pipelinesOf}, with where it sits. */
export interface BashPlacedPipeline {
	readonly pipeline: BashPipeline;
	readonly place: BashCommandPlace;
}

/**
 * Every pipeline in the tree, depth first in source order, nested ones included (inside subshells, groups,
 * compound bodies, substitutions, heredoc bodies and literal nested scripts), each with its place.
 */
export function pipelinesOf(tree: BashList): BashPlacedPipeline[] {
	const out: BashPlacedPipeline[] = [];
	const visit = (list: BashList, place: BashCommandPlace): void => {
		for (const statement of list.statements) {
			for (const pipeline of statement.pipelines) {
				out.push({ pipeline, place });
				for (const command of pipeline.commands) visitNested(command, place);
			}
		}
	};
	const visitWordBodies = (word: BashWord): void => {
		for (const body of word.substitutions) visit(body, "substitution");
	};
	const visitRedirectBodies = (redirects: readonly BashRedirect[]): void => {
		for (const redirect of redirects) {
			visitWordBodies(redirect.target);
			for (const body of redirect.heredoc?.substitutions ?? []) visit(body, "heredoc");
		}
	};
	const visitNested = (command: BashCommand, place: BashCommandPlace): void => {
		switch (command.kind) {
			case "simple":
				for (const assignment of command.assignments) visitWordBodies(assignment.value);
				for (const word of command.words) visitWordBodies(word);
				if (command.script?.ok) visit(command.script.tree, "script");
				break;
			case "subshell":
			case "group":
				visit(command.body, place);
				break;
			case "if":
				for (const clause of command.clauses) {
					visit(clause.condition, place);
					visit(clause.body, place);
				}
				if (command.elseBody) visit(command.elseBody, place);
				break;
			case "while":
			case "until":
				visit(command.condition, place);
				visit(command.body, place);
				break;
			case "for":
				for (const word of command.items ?? []) visitWordBodies(word);
				visit(command.body, place);
				break;
		}
		visitRedirectBodies(command.redirects);
	};
	visit(tree, "top");
	return out;
}

/**
 * True when the word's value depends on the environment or on running something (substitutions, parameters,
 * arithmetic), or hides what it spells (numeric ANSI-C escapes).
 */
export function isDynamicWord(word: BashWord): boolean {
	for (const kind of word.expansions) {
		if (kind === "command-substitution" || kind === "parameter-expansion" || kind === "arithmetic") return true;
		if (kind === "process-substitution" || kind === "escape") return true;
	}
	return false;
}
