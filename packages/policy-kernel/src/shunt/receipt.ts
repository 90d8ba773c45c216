// context-shunt receipts: the compact text that replaces a preserved result, at most 2 KiB.
import { boundedSlice, countContentLines, sliceLines, utf8ByteLength } from "../text.js";
import { PREVIEW_MAX_BYTES, RECEIPT_MAX_BYTES, RECOVERY_MAX_LINES } from "./constants.js";
import type { ArtifactSource } from "./ledger.js";

/** What a receipt says about one artifact. */
export interface ReceiptInput {
	readonly artifactId: string;
	readonly source: ArtifactSource;
	readonly bytes: number;
	readonly lines: number;
	/** The limits that were exceeded (omitted for a reader answer). */
	readonly maxLines?: number;
	readonly maxBytes?: number;
	/** Expiry as an ISO-8601 time, from the shell's clock. */
	readonly expiresAt: string;
	/** The byte cap of one recovered range (`targetedReadBytes`). */
	readonly rangeBytes: number;
	/** Whether to mention `context_shunt_delegate`. */
	readonly offerReader: boolean;
	/** The preserved text, for the optional preview; omitted or `previewLines` 0 means no preview. */
	readonly text?: string;
	readonly previewLines?: number;
	/** Lines from the end of the text shown after the head (default 0). */
	readonly previewTailLines?: number;
	/** The tool's own name, shown for a configured tool (`source` is then `tool`). */
	readonly toolName?: string;
	/** A JSON outline ({@link outlineJson}) shown instead of a text preview; the JSON is preserved whole. */
	readonly jsonOutline?: string;
}

/**
 * Builds a receipt: the artifact id, the source tool, bytes and lines, the expiry, how to recover a range or
 * ask about it, and optionally the first `previewLines` lines, capped at 1 KiB. The whole receipt is at most
 * 2048 UTF-8 bytes: the preview shrinks (or goes) to fit. Never throws.
 */
export function buildReceipt(input: ReceiptInput): string {
	const id = input.artifactId;
	const shown =
		input.source === "tool" && typeof input.toolName === "string" ? input.toolName.slice(0, 128) : input.source;
	const what =
		input.source === "reader-answer"
			? "The reader answer"
			: `This ${shown} ${input.jsonOutline !== undefined ? "JSON " : ""}result`;
	const limit =
		input.maxLines !== undefined && input.maxBytes !== undefined
			? ` (limits: ${input.maxLines} lines, ${input.maxBytes} bytes)`
			: "";
	const lines = [
		`[context-shunt] ${what} was preserved as artifact ${id} instead of entering the context: ${input.bytes} bytes, ${input.lines} lines${limit}.`,
		`It expires at ${input.expiresAt}; recovery does not renew it.`,
		input.jsonOutline !== undefined
			? `Recover a subtree with context_shunt_recover {"artifactId":"${id}","jsonPointer":"/key/0"}, or use "pattern":"text" or "byteOffset":0,"maxBytes":${input.rangeBytes} instead of jsonPointer.`
			: `Recover with context_shunt_recover {"artifactId":"${id}"} and one of "lineOffset":1,"lineLimit":${RECOVERY_MAX_LINES} or "byteOffset":0,"maxBytes":${input.rangeBytes} or "pattern":"text".`,
	];
	if (input.offerReader) {
		lines.push(
			`Ask a question about it with context_shunt_delegate {"artifactId":"${id}","question":"...","thinking":"off"}; the answer cites line ranges.`,
		);
	}
	const head = `${lines.join("\n")}\n`;
	if (input.jsonOutline !== undefined) {
		const label = "Outline (key names and shapes only; untrusted data):\n";
		const budget = Math.min(PREVIEW_MAX_BYTES, RECEIPT_MAX_BYTES - utf8ByteLength(head) - utf8ByteLength(label));
		if (budget <= 0) return fit(head);
		return fit(`${head}${label}${boundedSlice(input.jsonOutline, { maxBytes: budget }).text}`);
	}
	const previewLines = Math.max(0, Math.trunc(input.previewLines ?? 0));
	if (typeof input.text !== "string" || previewLines === 0) return fit(head);
	const label = `Preview, first lines (untrusted data):\n`;
	const tailLines = Math.max(0, Math.trunc(input.previewTailLines ?? 0));
	// Head and tail share the preview's 1 KiB: the head takes at most 5/8 of it when a tail follows, the tail 3/8.
	const headCap = tailLines > 0 ? Math.floor((PREVIEW_MAX_BYTES * 5) / 8) : PREVIEW_MAX_BYTES;
	const budget = Math.min(headCap, RECEIPT_MAX_BYTES - utf8ByteLength(head) - utf8ByteLength(label));
	if (budget <= 0) return fit(head);
	const preview = boundedSlice(input.text, { maxLines: previewLines, maxBytes: budget }).text;
	if (preview.length === 0) return fit(head);
	const withHead = `${head}${label}${preview}`;
	const tail = tailPreview(
		input.text,
		preview,
		tailLines,
		`${withHead}\n`,
		PREVIEW_MAX_BYTES - utf8ByteLength(preview),
	);
	return fit(tail === undefined ? withHead : `${ensureNewline(withHead)}${tail}`);
}

function ensureNewline(text: string): string {
	return /[\r\n]$/.test(text) ? text : `${text}\n`;
}

/** The last `count` lines after a "Last lines" label, within what the receipt has left; none when they overlap the head. */
function tailPreview(
	text: string,
	head: string,
	count: number,
	before: string,
	previewLeft: number,
): string | undefined {
	if (count === 0) return undefined;
	const total = countContentLines(text);
	const headLines = countContentLines(head);
	const from = Math.max(headLines + 1, total - count + 1);
	if (from > total) return undefined;
	const label = `Last lines, from line ${from} of ${total}:\n`;
	const budget = Math.min(previewLeft, RECEIPT_MAX_BYTES - utf8ByteLength(before) - utf8ByteLength(label));
	if (budget <= 16) return undefined;
	let tail = sliceLines(text, from, total).text;
	// Keep the end: drop whole lines from the front until the tail fits.
	while (utf8ByteLength(tail) > budget) {
		const cut = tail.search(/\r\n|\r|\n/);
		if (cut < 0) return undefined;
		tail = tail.slice(cut + (tail.startsWith("\r\n", cut) ? 2 : 1));
		if (tail.length === 0) return undefined;
	}
	const shownFrom = total - countContentLines(tail) + 1;
	return `Last lines, from line ${shownFrom} of ${total}:\n${tail}`;
}

/**
 * The bounded notice that replaces a configured tool's result refused whole: over its per-artifact or session cap,
 * it is neither preserved nor passed on, and never silently cut. At most 512 bytes; counts only.
 */
export function formatRefusedNotice(input: {
	readonly toolName: string;
	readonly bytes: number;
	readonly lines: number;
	readonly reason: "artifact-too-large" | "artifact-count" | "session-bytes";
	readonly capBytes: number;
}): string {
	const why =
		input.reason === "artifact-too-large"
			? `over the ${input.capBytes}-byte cap of one artifact (toolArtifactBytes)`
			: input.reason === "session-bytes"
				? `over what is left of the ${input.capBytes}-byte session cap (toolSessionBytes)`
				: "over the live-artifact count of configured tools";
	const text =
		`[context-shunt] The ${input.toolName.slice(0, 128)} result (${input.bytes} bytes, ${input.lines} lines) was refused whole: ` +
		`${why}. Nothing of it entered the context and nothing was cut. Ask for less (a narrower query, a page, a filter) and call again.`;
	return fit(text);
}

function fit(text: string): string {
	return utf8ByteLength(text) <= RECEIPT_MAX_BYTES ? text : boundedSlice(text, { maxBytes: RECEIPT_MAX_BYTES }).text;
}
