// context-shunt pattern recovery: matching lines of an artifact with their line numbers and a little context.
import { err, ok, type Result } from "../decision.js";
import { utf8ByteLength } from "../text.js";
import { type ShuntError, shuntError } from "./codes.js";
import { SEARCH_RULES } from "./constants.js";

/** A validated pattern search. */
export interface PatternSearch {
	readonly pattern: string;
	/** `true`: a JavaScript regular expression (no flags but `i` via `ignoreCase`); `false`: a literal substring. */
	readonly regex: boolean;
	readonly ignoreCase: boolean;
	/** Lines of context before and after each match, 0..5. */
	readonly contextLines: number;
}

/** The outcome of {@link searchArtifactLines}. */
export interface PatternSearchResult {
	/** `N: line` for a match and `N- line` for context, groups separated by `--`, each line ending in "\n". */
	readonly text: string;
	readonly matches: number;
	/** Matches found; when `stopped` is set, at least this many. */
	readonly shownMatches: number;
	readonly totalLines: number;
	/** Why the search stopped early, if it did. */
	readonly stopped: "byte-cap" | "match-cap" | undefined;
}

// Nested quantifiers ("(a+)+", "(a*)*", "(?:a|b+)*") and backreferences: the shapes that backtrack exponentially.
const RISKY_REGEX = /\([^()]*[+*}][^()]*\)\s*[+*{]|\\[1-9]|\\k</;

/**
 * Compiles the matcher of a search, or an `invalid-request`: an empty pattern, one over 256 UTF-8 bytes, an invalid
 * regex, or a regex with nested quantifiers or backreferences. The detail never echoes the pattern. Never throws.
 */
export function compilePatternMatcher(search: PatternSearch): Result<(line: string) => boolean, ShuntError> {
	const { pattern } = search;
	if (typeof pattern !== "string" || pattern.length === 0) {
		return err(shuntError("invalid-request", "pattern: expected a non-empty string"));
	}
	if (utf8ByteLength(pattern) > SEARCH_RULES.patternMaxBytes) {
		return err(shuntError("invalid-request", `pattern: at most ${SEARCH_RULES.patternMaxBytes} UTF-8 bytes`));
	}
	if (!search.regex) {
		if (!search.ignoreCase) return ok((line) => line.includes(pattern));
		const lower = pattern.toLowerCase();
		return ok((line) => line.toLowerCase().includes(lower));
	}
	if (RISKY_REGEX.test(pattern)) {
		return err(shuntError("invalid-request", "pattern: nested quantifiers and backreferences are not allowed"));
	}
	let compiled: RegExp;
	try {
		compiled = new RegExp(pattern, search.ignoreCase ? "iu" : "u");
	} catch {
		return err(shuntError("invalid-request", "pattern: not a valid regular expression"));
	}
	return ok((line) =>
		compiled.test(line.length > SEARCH_RULES.regexLineChars ? line.slice(0, SEARCH_RULES.regexLineChars) : line),
	);
}

function linesOf(text: string): string[] {
	const lines = text.split(/\r\n|\r|\n/);
	if (lines.length > 0 && lines[lines.length - 1] === "" && /[\r\n]$/.test(text)) lines.pop();
	return lines;
}

/**
 * Searches `text` line by line and returns the matching lines, numbered from 1 as {@link countContentLines} counts
 * them, each with up to `contextLines` lines around it; overlapping groups merge, and with context, separate groups
 * are divided by a `--` line (as grep does). The output stays within `maxBytes`
 * (it stops at the last whole line that fits) and at most 100 matches. A regex search whose elapsed time on `clock`
 * passes 250 ms stops with an `invalid-request` ("took too long"). Lines are shown without their terminators.
 */
export function searchArtifactLines(
	text: string,
	search: PatternSearch,
	maxBytes: number,
	clock: () => number = () => 0,
): Result<PatternSearchResult, ShuntError> {
	const matcher = compilePatternMatcher(search);
	if (!matcher.ok) return matcher;
	const lines = linesOf(text);
	const context = Math.max(0, Math.min(SEARCH_RULES.contextLinesMax, Math.trunc(search.contextLines)));
	const started = clock();
	const hits: number[] = [];
	let capped = false;
	for (let i = 0; i < lines.length; i++) {
		if (search.regex && (i & 255) === 0 && clock() - started > SEARCH_RULES.regexTimeMs) {
			return err(shuntError("invalid-request", "pattern: the search took too long; use a literal or a simpler regex"));
		}
		if (matcher.value(lines[i] ?? "")) {
			if (hits.length >= SEARCH_RULES.maxMatches) {
				capped = true;
				break;
			}
			hits.push(i);
		}
	}
	let out = "";
	let bytes = 0;
	let shown = 0;
	let stopped: PatternSearchResult["stopped"] = capped ? "match-cap" : undefined;
	let lastEmitted = -1;
	const hitSet = new Set(hits);
	outer: for (const hit of hits) {
		const from = Math.max(0, hit - context, lastEmitted + 1);
		const to = Math.min(lines.length - 1, hit + context);
		if (context > 0 && lastEmitted >= 0 && from > lastEmitted + 1) {
			if (bytes + 3 > maxBytes) {
				stopped = "byte-cap";
				break;
			}
			out += "--\n";
			bytes += 3;
		}
		for (let i = from; i <= to; i++) {
			const line = `${i + 1}${hitSet.has(i) ? ":" : "-"} ${lines[i] ?? ""}\n`;
			const size = utf8ByteLength(line);
			if (bytes + size > maxBytes) {
				stopped = "byte-cap";
				break outer;
			}
			out += line;
			bytes += size;
			lastEmitted = i;
		}
		shown++;
	}
	return ok({ text: out, matches: hits.length, shownMatches: shown, totalLines: lines.length, stopped });
}
