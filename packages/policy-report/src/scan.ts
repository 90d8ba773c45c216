// Streams Pi session files and OTLP/JSON lines into the kernel's report, a line at a time: memory holds one line,
// one session's audit entries (or, for OTLP input, the audit entries per session hash), and the bounded aggregates.
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import {
	addSessionToReport,
	classifySessionLine,
	isOtlpLine,
	type ReportRecord,
	type ReportState,
	readOtlpLogsLine,
} from "@pi-policy/policy-kernel/report";
import { hashSessionId } from "./session-hash.js";

/**
 * Whether a line may be a session header, a pi-policy audit entry or OTLP data; only those are parsed. A message
 * or tool result that merely quotes one of these words is parsed too, and then classified as another entry.
 */
export function mayMatter(line: string): boolean {
	return line.includes('"pi-policy.audit"') || line.includes('"session"') || line.includes('"resource');
}

/** A cheap shape check for lines that are not parsed: one JSON object (trailing whitespace allowed). */
export function looksLikeJsonObject(line: string): boolean {
	let end = line.length - 1;
	while (end > 0 && (line.charCodeAt(end) === 32 || line.charCodeAt(end) === 9 || line.charCodeAt(end) === 13)) end--;
	return line.charCodeAt(0) === 123 && line.charCodeAt(end) === 125;
}

/** A file to read and its size (for the progress bar). */
export interface InputFile {
	readonly path: string;
	readonly bytes: number;
}

/** Lines longer than this are skipped unparsed (a session line is rarely over a few MB). */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

function hasGlob(pattern: string): boolean {
	return /[*?[]/.test(pattern);
}

/** A glob (`*`, `**`, `?`) as a regular expression over `/`-separated paths. */
export function globToRegExp(pattern: string): RegExp {
	let source = "";
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i] as string;
		if (c === "*") {
			if (pattern[i + 1] === "*") {
				const slash = pattern[i + 2] === "/";
				source += slash ? "(?:.*/)?" : ".*";
				i += slash ? 2 : 1;
			} else source += "[^/]*";
		} else if (c === "?") source += "[^/]";
		else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
	}
	return new RegExp(`^${source}$`);
}

async function walk(dir: string, out: string[]): Promise<void> {
	const items = await readdir(dir, { withFileTypes: true });
	items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	for (const item of items) {
		const path = join(dir, item.name);
		if (item.isDirectory()) await walk(path, out);
		else if (item.isFile()) out.push(path);
	}
}

/** An input that could not be read: the CLI exits non-zero with this. */
export class UnreadableInputError extends Error {}

/**
 * Expands the CLI's inputs into files: a directory means every `.jsonl`/`.json` file below it (`.json` for a
 * Collector's OTLP export); a glob is matched below its static prefix; a plain path is that file. A path or glob
 * that matches nothing is unreadable input. Which files are Pi sessions the scan decides by their first line.
 */
export async function resolveInputs(inputs: readonly string[]): Promise<InputFile[]> {
	const files = new Map<string, number>();
	for (const input of inputs) {
		const found: string[] = [];
		if (hasGlob(input)) {
			const absolute = resolve(input).split(sep).join("/");
			const parts = absolute.split("/");
			const firstGlob = parts.findIndex((part) => hasGlob(part));
			const base = parts.slice(0, firstGlob).join("/") || "/";
			const matcher = globToRegExp(absolute);
			const all: string[] = [];
			try {
				await walk(base, all);
			} catch {
				throw new UnreadableInputError(`cannot read: ${input}`);
			}
			for (const path of all) if (matcher.test(path.split(sep).join("/"))) found.push(path);
			if (found.length === 0) throw new UnreadableInputError(`no files match: ${input}`);
		} else {
			let info: Awaited<ReturnType<typeof stat>>;
			try {
				info = await stat(input);
			} catch {
				throw new UnreadableInputError(`cannot read: ${input}`);
			}
			if (info.isDirectory()) {
				const all: string[] = [];
				await walk(input, all);
				found.push(...all.filter((path) => path.endsWith(".jsonl") || path.endsWith(".json")));
			} else found.push(input);
		}
		for (const path of found) {
			if (files.has(path)) continue;
			try {
				files.set(path, (await stat(path)).size);
			} catch {
				throw new UnreadableInputError(`cannot read: ${path}`);
			}
		}
	}
	return [...files].map(([path, bytes]) => ({ path, bytes }));
}

/** Progress callback: bytes read so far across all files. */
export type OnProgress = (bytesRead: number) => void;

/**
 * Reads every file into `state`. OTLP sessions are grouped by session hash and added at the end. Returns how many
 * files could not be read (each also counts as a skipped file).
 */
export async function scanFiles(
	state: ReportState,
	files: readonly InputFile[],
	onProgress?: OnProgress,
): Promise<number> {
	const otlpSessions = new Map<string, ReportRecord[]>();
	const seen = new Set<string>();
	let done = 0;
	let unreadable = 0;
	for (const file of files) {
		if (!(await scanFile(state, file, otlpSessions, seen, (bytes) => onProgress?.(done + bytes)))) unreadable++;
		done += file.bytes;
		onProgress?.(done);
	}
	for (const [sessionHash, records] of otlpSessions) addSessionToReport(state, sessionHash, records);
	return unreadable;
}

/**
 * Reads a file as UTF-8 and calls `onLine` for each line, synchronously within each chunk, so a line's string
 * dies young. A line longer than {@link MAX_LINE_CHARS} is passed as `undefined` (to be counted, not kept).
 * `onLine` returning `false` stops the reading there. Resolves `false` when the file could not be read.
 */
export async function forEachLine(
	path: string,
	onLine: (line: string | undefined) => boolean | undefined,
	onProgress?: (bytes: number) => void,
): Promise<boolean> {
	const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 });
	let carry = "";
	let overlong = false;
	let read = 0;
	let stopped = false;
	try {
		for await (const chunk of stream as AsyncIterable<string>) {
			read += chunk.length;
			let start = 0;
			let newline = chunk.indexOf("\n", start);
			while (newline !== -1) {
				const piece = chunk.slice(start, newline);
				stopped = onLine(overlong ? undefined : carry.length > 0 ? carry + piece : piece) === false;
				if (stopped) break;
				carry = "";
				overlong = false;
				start = newline + 1;
				newline = chunk.indexOf("\n", start);
			}
			if (!overlong && start < chunk.length) {
				carry = carry.length > 0 ? carry + chunk.slice(start) : chunk.slice(start);
				if (carry.length > MAX_LINE_CHARS) {
					carry = "";
					overlong = true;
				}
			}
			onProgress?.(read);
			if (stopped) break;
		}
	} catch {
		return false;
	} finally {
		stream.destroy();
	}
	if (stopped) return true;
	if (overlong) onLine(undefined);
	else if (carry.length > 0) onLine(carry);
	return true;
}

/** Whether a file's first non-empty line is a Pi session header or an OTLP/JSON logs request. */
export function opensSessionOrOtlp(line: string): boolean {
	if (!looksLikeJsonObject(line)) return false;
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return false;
	}
	return isOtlpLine(value) || classifySessionLine(value).kind === "header";
}

/** The most audit entries a scan remembers to count forked copies once (about 100 MB); past it, copies count again. */
const MAX_COPY_KEYS = 1_000_000;

async function scanFile(
	state: ReportState,
	file: InputFile,
	otlpSessions: Map<string, ReportRecord[]>,
	seen: Set<string>,
	onProgress: (bytes: number) => void,
): Promise<boolean> {
	let sessionId: string | undefined;
	let sawHeader = false;
	let unknownHeader = false;
	let firstLine = true;
	let records: ReportRecord[] = [];
	const onLine = (raw: string | undefined): boolean | undefined => {
		if (unknownHeader) return false;
		const line = raw === undefined ? undefined : raw.endsWith("\r") ? raw.slice(0, -1) : raw;
		if (line?.length === 0) return;
		if (firstLine) {
			// A Pi session file opens with its `session` header, an OTLP export with a logs request. Anything else
			// (pi-subagents' `_meta.json` and `.md` artifacts next to the sessions, a transcript) is not a session: it
			// is counted as such and not read on, so its lines never count as malformed.
			firstLine = false;
			if (line === undefined || !opensSessionOrOtlp(line)) {
				state.skipped.notSessions++;
				return false;
			}
		}
		if (line === undefined) {
			state.skipped.lines++;
			return;
		}
		if (!mayMatter(line)) {
			// Most lines are messages and tool results: not parsed, only checked for the shape of one JSON object.
			if (!looksLikeJsonObject(line)) state.skipped.lines++;
			return;
		}
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			state.skipped.lines++;
			return;
		}
		if (isOtlpLine(value)) {
			const result = readOtlpLogsLine(value);
			state.skipped.lines += result.invalid + result.unknownVersion;
			for (const record of result.records) {
				let list = otlpSessions.get(record.sessionHash);
				if (list === undefined) {
					list = [];
					otlpSessions.set(record.sessionHash, list);
				}
				list.push({ entry: record.entry, time: record.time });
			}
			return;
		}
		const classified = classifySessionLine(value);
		switch (classified.kind) {
			case "header":
				if (sawHeader) {
					// A second header: a new session in the same stream.
					addSessionToReport(state, hashSessionId(sessionId ?? file.path), records);
					records = [];
				}
				sawHeader = true;
				sessionId = classified.sessionId;
				if (!classified.known) {
					unknownHeader = true;
					state.skipped.files++;
					records = [];
					return false;
				}
				break;
			case "audit":
				// A forked session's file repeats its parent's entries (same id and timestamp): each counts once, or a
				// fork would double the gate's opportunities and sessions (a twenty-seventh review).
				if (classified.copyKey !== undefined) {
					if (seen.has(classified.copyKey)) break;
					if (seen.size < MAX_COPY_KEYS) seen.add(classified.copyKey);
				}
				records.push({ entry: classified.entry, time: classified.time });
				break;
			case "skip":
				state.skipped.lines++;
				break;
			default:
				break;
		}
	};
	const readable = await forEachLine(file.path, onLine, (chars) => onProgress(Math.min(chars, file.bytes)));
	if (!readable) {
		state.skipped.files++;
		return false;
	}
	if (!unknownHeader && records.length > 0) addSessionToReport(state, hashSessionId(sessionId ?? file.path), records);
	return true;
}
