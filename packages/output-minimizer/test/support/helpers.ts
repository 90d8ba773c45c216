// Shared helpers for output-minimizer tests: reference parsing, prose probes, file metadata, privacy scans.
import { readFileSync, statSync } from "node:fs";
import type { Harness } from "@pi-policy/pi-harness";

/** One `Output saved to: <path> (<bytes> bytes, <lines> lines)` reference found in a text. */
export interface FoundReference {
	path: string;
	bytes: number;
	lines: number;
	/** The whole receipt line that carried the reference. */
	line: string;
}

/** Every reference in `text`, in order. */
export function referencesIn(text: string): FoundReference[] {
	const found: FoundReference[] = [];
	for (const line of text.split("\n")) {
		for (const match of line.matchAll(/Output saved to: (\S+) \((\d+) bytes?, (\d+) lines?\)/g)) {
			found.push({ path: match[1] as string, bytes: Number(match[2]), lines: Number(match[3]), line });
		}
	}
	return found;
}

/** Lines as the reference counts them (pi-subagents' convention: a trailing break adds no line). */
export function referenceLineCount(text: string): number {
	if (text.length === 0) return 0;
	return (text.match(/\r\n|\r|\n/g)?.length ?? 0) + (/[\r\n]$/.test(text) ? 0 : 1);
}

/** Reads a referenced file and checks its metadata against the file itself. */
export function fileMatchesReference(reference: FoundReference): {
	content: string;
	bytesOk: boolean;
	linesOk: boolean;
} {
	const buffer = readFileSync(reference.path);
	const content = buffer.toString("utf8");
	return {
		content,
		bytesOk: buffer.byteLength === reference.bytes && statSync(reference.path).size === reference.bytes,
		linesOk: referenceLineCount(content) === reference.lines,
	};
}

/**
 * Distinctive lines of `text` (trimmed, at least 40 characters, unique in the text), spread across it: if any
 * of them reaches the parent, child prose leaked.
 */
export function proseProbes(text: string, count = 8): string[] {
	const lines = text
		.split(/\r\n|\r|\n/)
		.map((line) => line.trim())
		.filter((line) => line.length >= 40);
	const unique = lines.filter((line, index) => lines.indexOf(line) === index && lines.lastIndexOf(line) === index);
	if (unique.length === 0) return [];
	const step = Math.max(1, Math.floor(unique.length / count));
	const probes: string[] = [];
	for (let index = 0; index < unique.length && probes.length < count; index += step) {
		probes.push((unique[index] as string).slice(0, 80));
	}
	return probes;
}

/** The probes of `text` that occur in `haystack`. */
export function leakedProbes(haystack: string, text: string): string[] {
	return proseProbes(text).filter((probe) => haystack.includes(probe));
}

/** Everything the extension persisted (audit entries) or displayed (notifications, statuses, widgets). */
export function observableOutput(harness: Harness): string {
	return [JSON.stringify(harness.entries("pi-policy.audit")), ...(harness.ui?.displayedText() ?? [])].join("\n");
}

/** UTF-8 byte length. */
export function bytesOf(text: string): number {
	return Buffer.byteLength(text, "utf8");
}

export { lastToolResultText } from "@pi-policy/pi-harness";
