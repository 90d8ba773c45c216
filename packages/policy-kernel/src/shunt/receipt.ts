// context-shunt receipts: the compact text that replaces a preserved result, at most 2 KiB.
import { boundedSlice, utf8ByteLength } from "../text.js";
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
}

/**
 * Builds a receipt: the artifact id, the source tool, bytes and lines, the expiry, how to recover a range or
 * ask about it, and optionally the first `previewLines` lines, capped at 1 KiB. The whole receipt is at most
 * 2048 UTF-8 bytes: the preview shrinks (or goes) to fit. Never throws.
 */
export function buildReceipt(input: ReceiptInput): string {
	const id = input.artifactId;
	const what = input.source === "reader-answer" ? "The reader answer" : `This ${input.source} result`;
	const limit =
		input.maxLines !== undefined && input.maxBytes !== undefined
			? ` (limits: ${input.maxLines} lines, ${input.maxBytes} bytes)`
			: "";
	const lines = [
		`[context-shunt] ${what} was preserved as artifact ${id} instead of entering the context: ${input.bytes} bytes, ${input.lines} lines${limit}.`,
		`It expires at ${input.expiresAt}; recovery does not renew it.`,
		`Recover one range with context_shunt_recover {"artifactId":"${id}","lineOffset":1,"lineLimit":${RECOVERY_MAX_LINES}} or {"artifactId":"${id}","byteOffset":0,"maxBytes":${input.rangeBytes}}.`,
	];
	if (input.offerReader) {
		lines.push(
			`Ask a question about it with context_shunt_delegate {"artifactId":"${id}","question":"...","thinking":"off"}; the answer cites line ranges.`,
		);
	}
	const head = `${lines.join("\n")}\n`;
	const previewLines = Math.max(0, Math.trunc(input.previewLines ?? 0));
	if (typeof input.text !== "string" || previewLines === 0) return fit(head);
	const label = `Preview, first lines (untrusted data):\n`;
	const budget = Math.min(PREVIEW_MAX_BYTES, RECEIPT_MAX_BYTES - utf8ByteLength(head) - utf8ByteLength(label));
	if (budget <= 0) return fit(head);
	const preview = boundedSlice(input.text, { maxLines: previewLines, maxBytes: budget }).text;
	if (preview.length === 0) return fit(head);
	return fit(`${head}${label}${preview}`);
}

function fit(text: string): string {
	return utf8ByteLength(text) <= RECEIPT_MAX_BYTES ? text : boundedSlice(text, { maxBytes: RECEIPT_MAX_BYTES }).text;
}
