// The fingerprint of the files an action names, for `/guardian allow-once`: a grant is used only while they are as
// they were when it was made, whatever changed them (work a call left running in the background, another program).
// Bounded, never throws. What it reads:
// - each word that may name a file, by lstat and, through a link, by stat of what the link points at (identity, size,
//   change times, mode);
// - each word relative to the workspace and to every folder the action names, so `cd sub && sh build.sh` reads
//   `sub/build.sh`;
// - `~/…` and `$HOME/…` under home;
// - for a word with glob or brace characters, every entry of the folder it matches in (one level).
// An action that names more than it can look at gets a fingerprint that never matches again, so its grant is not
// used. It does not follow what a script reads on its own (`build.sh` sourcing `lib.sh`).
import { createHash, randomUUID } from "node:crypto";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** At most this many files are looked up for one action; an action that needs more is never matched again. */
export const MAX_FINGERPRINT_LOOKUPS = 256;
/** At most this many folders the action names are used as bases for its relative words. */
const MAX_BASE_FOLDERS = 8;
const MAX_WORD_CHARS = 4096;
const PATTERN_CHARACTERS = /[*?[\]{}]/;
const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;

/** The words of an action that may name files: bash's command words, and other tools' short string arguments. */
function namedWords(toolName: string, input: unknown): string[] {
	if (input === null || typeof input !== "object") return [];
	const values = Object.values(input as Record<string, unknown>).filter(
		(value): value is string => typeof value === "string",
	);
	if (toolName === "bash") return values.flatMap((text) => text.split(/[\s;&|<>()`'"=]+/));
	return values.filter((text) => !text.includes("\n"));
}

/** One file's identity and change times, through a link too; `-` when it does not exist. */
function fileLine(path: string): string {
	const parts: string[] = [];
	for (const read of [lstatSync, statSync]) {
		try {
			const info = read(path, { bigint: true });
			parts.push(`${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.mode}`);
		} catch {
			parts.push("-");
		}
	}
	return parts.join("\t");
}

function isFolder(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** The paths a word may name: under home for `~/…`, as is when absolute, else under each base folder. */
function candidatePaths(word: string, bases: readonly string[], home: string | undefined): string[] {
	const homeRelative = HOME_PREFIX.exec(word);
	if (homeRelative !== null) return home === undefined ? [] : [join(home, word.slice(homeRelative[0].length))];
	if (word.includes("$")) return [];
	if (isAbsolute(word)) return [resolve(word)];
	return bases.map((base) => resolve(base, word));
}

/** For a pattern, the entries of the deepest folder before its first pattern character (one level). */
function patternFolderEntries(path: string): string[] {
	const fixed = path.slice(0, path.search(PATTERN_CHARACTERS));
	const folder = fixed.endsWith("/") ? fixed : dirname(fixed);
	try {
		return [
			folder,
			...readdirSync(folder)
				.sort()
				.map((entry) => join(folder, entry)),
		];
	} catch {
		return [folder];
	}
}

/**
 * The fingerprint of the files `input` names, relative to `cwd` (and `home` for `~/…`): equal while none of them
 * changed, different once one did, and unique (never equal again) when the action names more than it can look at.
 */
export function actionFingerprint(toolName: string, input: unknown, cwd: string, home?: string): string {
	const hash = createHash("sha256");
	try {
		const words = [...new Set(namedWords(toolName, input))].filter(
			(word) => word !== "" && word.length <= MAX_WORD_CHARS,
		);
		const folders = words
			.filter((word) => !PATTERN_CHARACTERS.test(word))
			.flatMap((word) => candidatePaths(word, [cwd], home))
			.filter((path, index, all) => path !== cwd && all.indexOf(path) === index && isFolder(path))
			.slice(0, MAX_BASE_FOLDERS);
		const bases = [cwd, ...folders];
		const paths = new Set<string>();
		for (const word of words) {
			for (const path of candidatePaths(word, bases, home)) {
				if (PATTERN_CHARACTERS.test(path)) for (const entry of patternFolderEntries(path)) paths.add(entry);
				else paths.add(path);
			}
			if (paths.size > MAX_FINGERPRINT_LOOKUPS) break;
		}
		if (paths.size > MAX_FINGERPRINT_LOOKUPS) return `unbounded:${randomUUID()}`;
		for (const path of [...paths].sort()) hash.update(`${path}\u0000${fileLine(path)}\n`, "utf8");
	} catch {
		return `unreadable:${randomUUID()}`;
	}
	return hash.digest("hex");
}
