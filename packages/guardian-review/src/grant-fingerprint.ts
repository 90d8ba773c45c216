// The fingerprint of the files an action names, for `/guardian allow-once`: a grant is used only while they are as
// they were when it was made, whatever changed them (work a call left running in the background, another program).
// Read by lstat (identity, size, change times), bounded, never throws. It sees only the files the action names: a
// script's own imports are not followed.
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { resolve } from "node:path";

/** At most this many words of an action are looked up. */
export const MAX_FINGERPRINT_PATHS = 64;
const MAX_WORD_CHARS = 4096;

/** The words of an action that may name files: bash's command words, and other tools' short string arguments. */
function namedWords(toolName: string, input: unknown): string[] {
	if (input === null || typeof input !== "object") return [];
	const values = Object.values(input as Record<string, unknown>).filter(
		(value): value is string => typeof value === "string",
	);
	if (toolName === "bash") return values.flatMap((text) => text.split(/[\s;&|<>()`'"=]+/));
	return values.filter((text) => !text.includes("\n"));
}

/** The fingerprint of the files `input` names, relative to `cwd`. */
export function actionFingerprint(toolName: string, input: unknown, cwd: string): string {
	const hash = createHash("sha256");
	try {
		const words = [...new Set(namedWords(toolName, input))]
			.filter((word) => word !== "" && word.length <= MAX_WORD_CHARS && !/[$*?[\]~{}]/.test(word))
			.slice(0, MAX_FINGERPRINT_PATHS);
		for (const word of words) {
			const path = resolve(cwd, word);
			let line: string;
			try {
				const info = lstatSync(path, { bigint: true });
				line = `${info.ino}\t${info.size}\t${info.mtimeNs}\t${info.ctimeNs}\t${info.mode}`;
			} catch {
				line = "-";
			}
			hash.update(`${path}\u0000${line}\n`, "utf8");
		}
	} catch {
		hash.update("unreadable");
	}
	return hash.digest("hex");
}
