// The typed action the reviewer sees: one JSON object per tool call, every string truncated from the middle with
// an explicit omission marker. Also canonical JSON and the action hash used by verdict reuse and allow-once.
import { canonicalJson, isRecord } from "../json.js";
import { splitLines, utf8ByteLength } from "../text.js";
import { resolveToolPath } from "./paths.js";
import { sha256Hex } from "./sha256.js";

export { canonicalJson } from "../json.js";

/** Character caps for the strings of a review action. */
export interface ActionLimits {
	/** A bash command. */
	readonly command: number;
	/** A path. */
	readonly path: number;
	/** The content excerpt of a write, and the diff excerpt of an edit. */
	readonly excerpt: number;
	/** Any other string value (custom tools). */
	readonly value: number;
	/** At most this many keys or items per object or array of a custom tool's input. */
	readonly items: number;
}

/** The default caps. */
export const DEFAULT_ACTION_LIMITS: ActionLimits = Object.freeze({
	command: 4_000,
	path: 400,
	excerpt: 3_000,
	value: 1_000,
	items: 40,
});

/** The reviewer's view of a bash call. */
export interface BashReviewAction {
	readonly tool: "bash";
	readonly command: string;
	readonly cwd: string;
	readonly timeoutSeconds?: number;
}

/** The reviewer's view of a write call. */
export interface WriteReviewAction {
	readonly tool: "write";
	readonly path: string;
	readonly resolvedPath: string;
	readonly bytes: number;
	readonly excerpt: string;
}

/** The reviewer's view of an edit call. */
export interface EditReviewAction {
	readonly tool: "edit";
	readonly path: string;
	readonly resolvedPath: string;
	readonly edits: number;
	readonly bytes: number;
	readonly diff: string;
}

/** The reviewer's view of any other tool call. */
export interface OtherReviewAction {
	readonly tool: string;
	readonly cwd: string;
	readonly input: unknown;
}

/** The typed action JSON for one tool call. */
export type ReviewAction = BashReviewAction | WriteReviewAction | EditReviewAction | OtherReviewAction;

/**
 * Shortens `text` to at most `maxChars` characters by cutting from the middle and inserting
 * `…[N chars omitted]…`, keeping the head and the tail. Never splits a surrogate pair. Text within the cap is
 * returned unchanged.
 */
export function truncateMiddle(text: string, maxChars: number): string {
	if (typeof text !== "string") return "";
	const limit = Math.max(0, Math.floor(maxChars));
	if (text.length <= limit) return text;
	const omittedGuess = text.length - limit;
	const marker = `…[${omittedGuess} chars omitted]…`;
	if (limit < marker.length + 8) {
		const end = limit > 0 && isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
		return text.slice(0, end);
	}
	const keep = Math.max(0, limit - marker.length - 4);
	let headEnd = Math.ceil(keep / 2);
	let tailStart = text.length - Math.floor(keep / 2);
	if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
	if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
	const omitted = tailStart - headEnd;
	return `${text.slice(0, headEnd)}…[${omitted} chars omitted]…${text.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Builds the typed action JSON for a tool call. bash: `{ tool, command, cwd }`; write: `{ tool, path,
 * resolvedPath, bytes, excerpt }`; edit: `{ tool, path, resolvedPath, edits, bytes, diff }` with a bounded
 * `-`/`+` diff excerpt; other tools: `{ tool, cwd, input }` with every string bounded. Never throws.
 */
export function buildReviewAction(
	toolName: string,
	input: unknown,
	context: { readonly cwd: string; readonly home: string },
	limits: ActionLimits = DEFAULT_ACTION_LIMITS,
): ReviewAction {
	const record = isRecord(input) ? input : {};
	const cwd = truncateMiddle(context.cwd, limits.path);
	if (toolName === "bash") {
		const command = typeof record.command === "string" ? record.command : "";
		const timeout = typeof record.timeout === "number" && Number.isFinite(record.timeout) ? record.timeout : undefined;
		return {
			tool: "bash",
			command: truncateMiddle(command, limits.command),
			cwd,
			...(timeout === undefined ? {} : { timeoutSeconds: timeout }),
		};
	}
	if (toolName === "write" || toolName === "edit") {
		const rawPath = typeof record.path === "string" ? record.path : "";
		const path = truncateMiddle(rawPath, limits.path);
		const resolvedPath = truncateMiddle(resolveToolPath(rawPath, context.cwd, context.home), limits.path);
		if (toolName === "write") {
			const content = typeof record.content === "string" ? record.content : "";
			return {
				tool: "write",
				path,
				resolvedPath,
				bytes: utf8ByteLength(content),
				excerpt: truncateMiddle(content, limits.excerpt),
			};
		}
		const edits = Array.isArray(record.edits) ? record.edits.filter(isRecord) : [];
		const diff = edits
			.map((edit) => {
				const oldText = typeof edit.oldText === "string" ? edit.oldText : "";
				const newText = typeof edit.newText === "string" ? edit.newText : "";
				return `${prefixLines(oldText, "-")}\n${prefixLines(newText, "+")}`;
			})
			.join("\n@@\n");
		const bytes = edits.reduce(
			(sum, edit) => sum + (typeof edit.newText === "string" ? utf8ByteLength(edit.newText) : 0),
			0,
		);
		return { tool: "edit", path, resolvedPath, edits: edits.length, bytes, diff: truncateMiddle(diff, limits.excerpt) };
	}
	const bounded = boundValue(input, limits, 0);
	const json = JSON.stringify(bounded) ?? "null";
	return {
		tool: truncateMiddle(String(toolName), 64),
		cwd,
		input: json.length > limits.excerpt ? truncateMiddle(json, limits.excerpt) : bounded,
	};
}

function prefixLines(text: string, prefix: string): string {
	return splitLines(text)
		.map((line) => `${prefix} ${line}`)
		.join("\n");
}

function boundValue(value: unknown, limits: ActionLimits, depth: number): unknown {
	if (typeof value === "string") return truncateMiddle(value, limits.value);
	if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
	if (depth >= 6) return "…[nested value omitted]…";
	if (Array.isArray(value)) {
		const items = value.slice(0, limits.items).map((item) => boundValue(item, limits, depth + 1));
		if (value.length > limits.items) items.push(`…[${value.length - limits.items} items omitted]…`);
		return items;
	}
	if (isRecord(value)) {
		const keys = Object.keys(value).sort();
		const out: Record<string, unknown> = {};
		for (const key of keys.slice(0, limits.items)) {
			Object.defineProperty(out, truncateMiddle(key, 100), {
				value: boundValue(value[key], limits, depth + 1),
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		if (keys.length > limits.items) out["…"] = `${keys.length - limits.items} keys omitted`;
		return out;
	}
	return undefined;
}

/**
 * The hash of an exact action: SHA-256 (hex) of the canonical JSON of `{ tool, input }`. Used to reuse a
 * verdict for an identical action within a turn and to match an allow-once grant. Never throws.
 */
export function actionHash(toolName: string, input: unknown): string {
	return sha256Hex(canonicalJson({ tool: String(toolName), input }));
}
