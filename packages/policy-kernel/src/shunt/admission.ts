// context-shunt admission: declared ranges before a call runs, and which results may be preserved after it.
import { isPlainObject } from "../config.js";
import { canonicalJson } from "../json.js";
import type { ShuntLimits } from "./config.js";
import { isShuntTool, type ShuntTool } from "./constants.js";
import { type LimitScope, limitsForScope } from "./limits.js";

/** The narrow PowerShell form: `Get-Content`/`gc`, one literal path, and `-TotalCount N` or `-First N`. */
export interface PowerShellHeadCommand {
	/** The declared line count. */
	readonly lines: number;
	/** UTF-16 index range of the count token in the command, for narrowing. */
	readonly countStart: number;
	readonly countEnd: number;
}

// Anything that makes a command composite, redirected, piped, expanded or multi-file.
const POWERSHELL_UNSAFE = /[|<>;&`$(){}[\]*?\r\n,@#]/;

/**
 * Recognises the deliberately narrow PowerShell read `Get-Content <path> -TotalCount <N>` (or `gc`, `-First`,
 * `-Path`/`-LiteralPath`), in any parameter order. Returns `undefined` for anything else: pipes, redirects,
 * composite commands, expansions, wildcards, other parameters, a missing or repeated path or count. Names are
 * case-insensitive; the path may be single- or double-quoted without embedded quotes. Never throws.
 */
export function parsePowerShellHeadCommand(command: unknown): PowerShellHeadCommand | undefined {
	if (typeof command !== "string" || command.length > 4096 || POWERSHELL_UNSAFE.test(command)) return undefined;
	const tokens: Array<{ text: string; start: number; end: number; quoted: boolean }> = [];
	const tokenPattern = /'([^']*)'|"([^"]*)"|(\S+)/g;
	for (const match of command.matchAll(tokenPattern)) {
		const quoted = match[1] !== undefined || match[2] !== undefined;
		const text = match[1] ?? match[2] ?? match[3] ?? "";
		const start = match.index ?? 0;
		tokens.push({ text, start, end: start + match[0].length, quoted });
	}
	const head = tokens[0];
	if (head === undefined || head.quoted || !/^(get-content|gc)$/i.test(head.text)) return undefined;
	let path: string | undefined;
	let count: { lines: number; start: number; end: number } | undefined;
	for (let i = 1; i < tokens.length; i++) {
		const token = tokens[i] as (typeof tokens)[number];
		if (!token.quoted && /^-(path|literalpath)$/i.test(token.text)) {
			const value = tokens[++i];
			if (value === undefined || path !== undefined || (!value.quoted && value.text.startsWith("-"))) return undefined;
			path = value.text;
		} else if (!token.quoted && /^-(totalcount|first)$/i.test(token.text)) {
			const value = tokens[++i];
			if (value === undefined || count !== undefined || value.quoted || !/^[0-9]{1,9}$/.test(value.text)) {
				return undefined;
			}
			count = { lines: Number(value.text), start: value.start, end: value.end };
		} else if (!token.quoted && token.text.startsWith("-")) {
			return undefined;
		} else {
			if (path !== undefined) return undefined;
			path = token.text;
		}
	}
	if (path === undefined || path.length === 0 || count === undefined || count.lines < 1) return undefined;
	return { lines: count.lines, countStart: count.start, countEnd: count.end };
}

/** Rewrites the count of a narrow PowerShell read to `lines`; `undefined` when `command` is not that form. */
export function narrowPowerShellHeadCommand(command: string, lines: number): string | undefined {
	const parsed = parsePowerShellHeadCommand(command);
	if (parsed === undefined || !Number.isInteger(lines) || lines < 1) return undefined;
	return `${command.slice(0, parsed.countStart)}${lines}${command.slice(parsed.countEnd)}`;
}

/** A declared range: how many lines a call says it will return, and which limits apply. */
export interface DeclaredRange {
	readonly tool: "read" | "powershell";
	readonly scope: LimitScope;
	/** The declared line count, when the call declares one. */
	readonly lines: number | undefined;
}

/** The outcome of {@link classifyDeclaredRange}. */
export type DeclaredRangeResult =
	| { readonly kind: "declared"; readonly range: DeclaredRange }
	| { readonly kind: "invalid" }
	| { readonly kind: "none" };

function positiveInteger(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

/**
 * The declared range of a call, by the built-in contract of its tool name:
 * - `read`: `limit` is the declared line count (absent: undeclared); an `offset` makes it targeted. An offset or
 *   limit that is present but not a positive integer is `invalid`, and stays with the original tool.
 * - `powershell`: the narrow head form of {@link parsePowerShellHeadCommand}, a full read of N lines.
 * Anything else is `none`. Never throws.
 */
export function classifyDeclaredRange(toolName: unknown, input: unknown): DeclaredRangeResult {
	if (!isPlainObject(input)) return toolName === "read" ? { kind: "invalid" } : { kind: "none" };
	if (toolName === "read") {
		const { offset, limit } = input;
		if ((offset !== undefined && !positiveInteger(offset)) || (limit !== undefined && !positiveInteger(limit))) {
			return { kind: "invalid" };
		}
		return {
			kind: "declared",
			range: { tool: "read", scope: offset === undefined ? "full" : "targeted", lines: limit },
		};
	}
	if (toolName === "powershell") {
		const parsed = parsePowerShellHeadCommand(input.command);
		if (parsed === undefined) return { kind: "none" };
		return { kind: "declared", range: { tool: "powershell", scope: "full", lines: parsed.lines } };
	}
	return { kind: "none" };
}

/** The outcome of {@link decidePreCall}. */
export type PreCallDecision =
	/** Not a recognised declared range: the call proceeds untouched. */
	| { readonly kind: "pass" }
	/** A declared range within its line limit. */
	| { readonly kind: "within"; readonly range: DeclaredRange; readonly maxLines: number }
	/** A built-in declared range above its line limit: enforce blocks it, observe counts would-block. */
	| { readonly kind: "oversized"; readonly range: DeclaredRange & { lines: number }; readonly maxLines: number }
	/** The same declared shape from a tool that is not the built-in: never blocked, only counted. */
	| { readonly kind: "uncovered"; readonly tool: "read" | "powershell" };

/**
 * Decides a call before it runs. Only the built-in `read` (provenance `builtin:read`) with a declared `limit`
 * above the line cap, and the built-in `powershell` narrow head form above it, are oversized. Same-named SDK or
 * extension tools, and every other shape, pass. Declared limits count lines only. Never throws.
 */
export function decidePreCall(input: {
	readonly toolName: unknown;
	readonly input: unknown;
	readonly builtin: boolean;
	readonly limits: ShuntLimits;
}): PreCallDecision {
	const declared = classifyDeclaredRange(input.toolName, input.input);
	if (declared.kind !== "declared") return { kind: "pass" };
	const { range } = declared;
	const { maxLines } = limitsForScope(input.limits, range.scope);
	if (range.lines === undefined) return input.builtin ? { kind: "within", range, maxLines } : { kind: "pass" };
	if (range.lines <= maxLines) return input.builtin ? { kind: "within", range, maxLines } : { kind: "pass" };
	if (!input.builtin) return { kind: "uncovered", tool: range.tool };
	return { kind: "oversized", range: { ...range, lines: range.lines }, maxLines };
}

/** Why a result is left intact. */
export type ResultIneligibility =
	| "not-covered-tool"
	| "not-builtin"
	| "error"
	| "not-single-text"
	| "binary"
	| "json"
	| "invalid-range";

/** The outcome of {@link classifyResultEligibility}. */
export type ResultEligibility =
	| {
			readonly eligible: true;
			readonly tool: ShuntTool;
			readonly text: string;
			readonly scope: LimitScope;
			/** The declared line count, when the call declared one. */
			readonly declaredLines: number | undefined;
	  }
	| { readonly eligible: false; readonly reason: ResultIneligibility };

/** The characters a JSON value can start with. */
const JSON_START = new Set(["{", "[", '"', "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "t", "f", "n"]);

/** True when `text` is valid JSON of any root type (after trimming whitespace). */
export function isJsonText(text: string): boolean {
	if (typeof text !== "string") return false;
	// A JSON text starts with one of these after its leading white space; anything else is not JSON, and is told
	// apart without parsing (and throwing on) the whole output.
	const first = text.search(/\S/);
	if (first < 0 || !JSON_START.has(text[first] as string)) return false;
	const trimmed = text.trim();
	try {
		JSON.parse(trimmed);
		return true;
	} catch {
		return false;
	}
}

/**
 * Decides whether a finished result may be preserved: a successful result of the built-in `read`, `bash`,
 * `powershell` or `grep`, made of exactly one text block, that is not valid JSON and holds no NUL. Errors,
 * images, mixed or multi-block results, JSON, binaries and invalid read ranges stay intact. A read with an
 * offset, and every non-read result, use the targeted limits, except the narrow PowerShell head form, which is
 * a full read of its declared lines. Never throws.
 */
export function classifyResultEligibility(result: {
	readonly toolName: unknown;
	readonly builtin: boolean;
	readonly isError: unknown;
	readonly content: unknown;
	readonly input: unknown;
}): ResultEligibility {
	const tool = result.toolName;
	if (!isShuntTool(tool)) return { eligible: false, reason: "not-covered-tool" };
	if (!result.builtin) return { eligible: false, reason: "not-builtin" };
	if (result.isError === true) return { eligible: false, reason: "error" };
	const content = result.content;
	if (!Array.isArray(content) || content.length !== 1) return { eligible: false, reason: "not-single-text" };
	const block = content[0] as unknown;
	if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") {
		return { eligible: false, reason: "not-single-text" };
	}
	const text = block.text;
	if (text.includes("\u0000")) return { eligible: false, reason: "binary" };
	if (isJsonText(text)) return { eligible: false, reason: "json" };
	const declared = classifyDeclaredRange(tool, result.input);
	if (declared.kind === "invalid") return { eligible: false, reason: "invalid-range" };
	if (declared.kind === "declared") {
		return { eligible: true, tool, text, scope: declared.range.scope, declaredLines: declared.range.lines };
	}
	return { eligible: true, tool, text, scope: "targeted", declaredLines: undefined };
}

/**
 * A canonical JSON text of a tool call (name and input, object keys sorted), used to tie an exception to the
 * exact call it names. Kept in memory only; the shell hashes it. Never throws.
 */
export function canonicalToolCall(toolName: unknown, input: unknown): string {
	return canonicalJson([typeof toolName === "string" ? toolName : "", input]);
}
