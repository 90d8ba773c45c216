// A recursive read of a repository (`grep -rn x .`, `rg --hidden x`) walks its `.git` folder too. The default
// protected list names `.git/` because writes there run programs (hooks, config keys); for reads, what a git
// folder holds is the project's own history and bookkeeping, except where its config carries a credential: a token
// in a remote URL, an `http.extraHeader` (actions/checkout persists one), a credential helper that stores or prints
// secrets. So the shell's tree lister opens a git folder for reads when every config file in it is free of
// credentials, judged here from the text. See docs/decisions/0019-git-folder-reads.md. Pure.

import {
	type GitConfigEntry,
	type GitConfigInclude,
	type GitConfigVerdict,
	type GitContentSetting,
	gitConfigIncludes,
	gitContentSettings,
	gitProgramKeys,
	gitProgramPathWords,
	lastGitConfigEntry,
	parseGitConfig,
} from "./git-config.js";
import { baseName, normalizeAbsolutePath, type PathContext } from "./paths.js";
import { loadedResourcesKey, protectedReadTest, type ReadableLoadedResources } from "./pi-resources.js";

/** The default protected glob that covers every git folder (writes there run programs: hooks, config keys). */
export const GIT_FOLDER_GLOB = ".git/";

/** The files of a git folder git reads as config, at any depth (submodules keep theirs in `.git/modules/<name>/`). */
export const GIT_FOLDER_CONFIG_NAMES: readonly string[] = Object.freeze(["config", "config.worktree"]);

/**
 * What a git config file holds for a reader: `none` when no entry carries a credential, `found` when one may,
 * `unknown` when the text does not parse or includes other files (which may lie in the folder under any name).
 */
export const GIT_CONFIG_SECRETS_VERDICTS = ["none", "found", "unknown"] as const;
/** One of {@link GIT_CONFIG_SECRETS_VERDICTS}. */
export type GitConfigSecretsVerdict = (typeof GIT_CONFIG_SECRETS_VERDICTS)[number];

/** Key names that hold a secret in some tool's repository config (`github.token`, `hub.oauthtoken`). */
// `pass` covers git's own `sendemail.smtpPass` and `imap.pass` (a twentieth review).
const SECRET_KEY_WORDS = ["token", "pass", "secret", "apikey", "auth"];

/** `http` keys that carry a credential or name a file holding one (a cookie jar, a client key). */
const HTTP_CREDENTIAL_KEYS = new Set(["extraheader", "cookiefile", "sslkey", "sslcert", "proxy"]);

/**
 * True when `text` holds a URL with user information (`https://TOKEN@host`, `https://user:pass@host`); `git@` alone
 * names no secret. One pass: each `://` is followed to the next `/`, blank or `@`.
 */
function hasUserInfo(text: string | undefined): boolean {
	if (text === undefined) return false;
	for (let at = text.indexOf("://"); at >= 0; at = text.indexOf("://", at + 3)) {
		let end = at + 3;
		while (end < text.length && text[end] !== "/" && text[end] !== "@" && !/\s/.test(text[end] as string)) end++;
		if (text[end] === "@" && text.slice(at + 3, end) !== "git") return true;
	}
	return false;
}

/**
 * Judges one git config file's text for a reader (see {@link GitConfigSecretsVerdict}). `found` for: user
 * information in any URL, in a value or a subsection (`[url "https://TOKEN@host/"]`); an `http` key that carries or
 * points at a credential (`extraHeader`, `cookieFile`, `sslKey`, `sslCert`, `proxy`); any credential helper (it may
 * store secrets in a file of its choosing, or print them); any key whose name says token, password, secret or auth;
 * a compression level of 0, which stores the history's content in clear (see `storesObjectsInClear`).
 * Pure; never throws.
 */
export function judgeGitConfigSecrets(text: string): GitConfigSecretsVerdict {
	const parsed = parseGitConfig(text);
	if (!parsed.ok) return "unknown";
	let includes = false;
	for (const entry of parsed.value) {
		if ((entry.section === "include" || entry.section === "includeif") && entry.key === "path") includes = true;
		if (hasUserInfo(entry.value) || hasUserInfo(entry.subsection)) return "found";
		if (entry.section === "http" && HTTP_CREDENTIAL_KEYS.has(entry.key)) return "found";
		if (entry.section === "credential" && entry.key === "helper" && entry.value !== undefined && entry.value !== "")
			return "found";
		if (SECRET_KEY_WORDS.some((word) => entry.key.includes(word))) return "found";
		if (storesObjectsInClear(entry)) return "found";
	}
	return includes ? "unknown" : "none";
}

/**
 * True for a config entry that makes git store objects uncompressed (`core.compression`, `core.looseCompression`
 * or `pack.compression` at 0, a common tip for large binary repositories): the history's content, a removed `.env`
 * too, then lies in `objects/` in clear, and `grep -ra` prints it (a thirty-seventh review). A value other than a
 * plain level from 1 to 9 or -1 (the default) counts too.
 */
function storesObjectsInClear(entry: GitConfigEntry): boolean {
	const compression =
		(entry.section === "core" && (entry.key === "compression" || entry.key === "loosecompression")) ||
		(entry.section === "pack" && entry.key === "compression");
	return compression && !/^\s*(?:-1|[1-9])\s*$/.test(entry.value ?? "");
}

/**
 * How the shell's tree lister treats one entry of a tree a recursive read walks: `readable`; `protected` (the tree
 * is then protected); `git-folder`, a `.git` folder protected only by {@link GIT_FOLDER_GLOB}, whose entries are
 * walked with `insideGitFolder`; and three kinds of file in such a folder, each readable only when its text passes
 * a check: `git-config` ({@link judgeGitConfigSecrets}), `git-url-file`, a reflog or legacy remote file
 * ({@link judgeGitUrlFileSecrets}), and `git-message`, a message git leaves for an editor
 * ({@link judgeGitMessageSecrets}).
 */
export type TreeEntryKind = "readable" | "protected" | "git-folder" | "git-config" | "git-url-file" | "git-message";

/**
 * Folders of a git folder (at any depth: submodules' and worktrees' too) that hold file content or keys in clear,
 * which the protected globs never see under their own names: Git LFS and git-annex objects (an LFS-tracked
 * `deploy.pem`, also after it left the working tree), a stopped rebase's patches, rerere's recorded conflicts,
 * git-crypt's keys and `git fsck --lost-found`'s objects. A recursive read that meets one goes to review (the
 * thirty-fifth and thirty-sixth reviews). A file the allow-list of {@link treeEntryTest} does not know goes to
 * review too.
 */
export const GIT_FOLDER_CLEAR_CONTENT_NAMES: readonly string[] = Object.freeze([
	"lfs",
	"annex",
	"rebase-merge",
	"rebase-apply",
	"rr-cache",
	"git-crypt",
	"lost-found",
]);

/**
 * Folders of a git folder whose files a reader may read whatever they hold: objects (compressed), refs (object
 * names), `info` (exclude, attributes, grafts) and hook scripts.
 */
const GIT_FOLDER_READABLE_FOLDERS: readonly string[] = ["objects", "refs", "info", "hooks"];

/** Folders whose files hold URLs: reflogs (`git pull URL` writes its command line) and legacy remote files. */
const GIT_FOLDER_URL_FILE_FOLDERS: readonly string[] = ["logs", "remotes", "branches"];

/** Messages git leaves for an editor; `git commit -v` puts the staged diff below the message in COMMIT_EDITMSG. */
const GIT_FOLDER_MESSAGE_NAMES: readonly string[] = [
	"COMMIT_EDITMSG",
	"MERGE_MSG",
	"SQUASH_MSG",
	"TAG_EDITMSG",
	"NOTES_EDITMSG",
	"EDIT_DESCRIPTION",
];

/**
 * Files of a git folder a reader may read whatever they hold: object names, ref names, paths, counts, git's own
 * notes of what it did (`FETCH_HEAD` leaves credentials out of its URLs). The index holds paths and object names.
 */
const GIT_FOLDER_READABLE_FILES: readonly string[] = [
	"HEAD",
	"ORIG_HEAD",
	"FETCH_HEAD",
	"MERGE_HEAD",
	"MERGE_MODE",
	"MERGE_RR",
	"CHERRY_PICK_HEAD",
	"REVERT_HEAD",
	"REBASE_HEAD",
	"AUTO_MERGE",
	"BISECT_START",
	"BISECT_TERMS",
	"BISECT_NAMES",
	"BISECT_LOG",
	"BISECT_EXPECTED_REV",
	"BISECT_ANCESTORS_OK",
	"BISECT_RUN",
	"BISECT_HEAD",
	"packed-refs",
	"index",
	"description",
	"shallow",
	"commondir",
	"gitdir",
	"locked",
	"gitk.cache",
	"gc.log",
	"gc.pid",
];

/** Reflog and legacy remote files larger than this are not read: the tree is then `unknown` (review). */
export const MAX_GIT_URL_FILE_BYTES = 8 * 1024 * 1024;

/** Message files larger than this are not read: the tree is then `unknown` (review). */
export const MAX_GIT_MESSAGE_BYTES = 1024 * 1024;

/**
 * Judges a reflog or legacy remote file's text for a reader: `found` when it holds a URL with user information.
 * git writes `git pull URL`'s command line into the reflog as typed (`pull https://oauth2:TOKEN@host/x main:
 * Fast-forward`), where `git fetch` and `FETCH_HEAD` leave the credential out (a thirty-fifth review); a legacy
 * `remotes/NAME` file names its URL (a thirty-sixth). One pass; never throws.
 */
export function judgeGitUrlFileSecrets(text: string): GitConfigSecretsVerdict {
	if (typeof text !== "string") return "unknown";
	return hasUserInfo(text) ? "found" : "none";
}

/**
 * Judges a message file's text (`COMMIT_EDITMSG` and the like) for a reader: `found` when it holds a diff, which
 * `git commit -v` (or `commit.verbose`) writes below the message and git keeps until the next commit: a removed
 * `.env`'s lines with it (a thirty-sixth review). Never throws.
 */
export function judgeGitMessageSecrets(text: string): GitConfigSecretsVerdict {
	if (typeof text !== "string") return "unknown";
	return text.startsWith("diff --git ") || text.includes("\ndiff --git ") ? "found" : "none";
}

/**
 * How an entry inside a git folder is read, from its parts below the innermost `.git` (the folder names of
 * submodules and worktrees included): by an allow-list, so that what a tool keeps there under a name no glob knows
 * (git-crypt's key, `lost-found/`) goes to review.
 */
function gitFolderEntryKind(parts: readonly string[], isDirectory: boolean): TreeEntryKind {
	const folders = isDirectory ? parts : parts.slice(0, -1);
	if (folders.some((part) => GIT_FOLDER_CLEAR_CONTENT_NAMES.includes(part))) return "protected";
	if (isDirectory) return "readable";
	// A lock file is what git is writing in the file's place (`config.lock` holds the new config): judged as that file.
	const file = parts.at(-1) ?? "";
	const name = file.endsWith(".lock") && file.length > ".lock".length ? file.slice(0, -".lock".length) : file;
	// By name first: a submodule or worktree may be named like a folder git keeps (`modules/src/hooks/` is the git
	// folder of a submodule at `src/hooks`; a thirty-seventh review), so its messages and config are still judged.
	if (GIT_FOLDER_CONFIG_NAMES.includes(name)) return "git-config";
	if (GIT_FOLDER_MESSAGE_NAMES.includes(name)) return "git-message";
	if (folders.some((part) => GIT_FOLDER_URL_FILE_FOLDERS.includes(part))) return "git-url-file";
	if (GIT_FOLDER_READABLE_FILES.includes(name) || /^sharedindex\.[0-9a-f]+$/.test(name)) return "readable";
	if (folders.some((part) => GIT_FOLDER_READABLE_FOLDERS.includes(part))) return "readable";
	return "protected";
}

/**
 * True when an ignore file's text (gitignore syntax: `.gitignore`, `.ignore`, `.rgignore`, `info/exclude`) may
 * whitelist an entry: any line starting with `!` (`!.env`), which makes ripgrep read a hidden entry it would skip.
 * Pure; never throws.
 */
export function ignoreRulesWhitelist(text: string): boolean {
	return text.split("\n").some((line) => line.trimStart().startsWith("!"));
}

/**
 * What {@link treeEntryTest} answers for, as a cache key: the workspace, home, what Pi loaded for the model to read
 * and the protected globs. A fact the shell derived with the test (a tree listing, a history listing) is reused only
 * under the same key, so a config change or another prompt's skills never reuse a stale one.
 */
export function treeProtectionKey(
	context: PathContext & { readonly loadedResources?: ReadableLoadedResources },
): string {
	const readable = loadedResourcesKey(context.loadedResources);
	return `${context.cwd}\u0000${context.home}\u0000${readable}\u0000${context.protectedPaths.join("\u0000")}\u0000`;
}

/**
 * The lister's test for one entry (absolute, normalized `path`; whether it is a directory, not following links;
 * whether it lies in a git folder being walked): the read test of {@link protectedReadTest}, except that a git
 * folder protected by nothing but {@link GIT_FOLDER_GLOB} is walked rather than refused. Inside it every entry is
 * judged by the other globs (`.git/deploy.key` stays protected), then by an allow-list of what git keeps there:
 * config, reflog, legacy remote and message files by their text, the folders of {@link GIT_FOLDER_CLEAR_CONTENT_NAMES}
 * and anything the list does not know stay protected. A user list without the exact `.git/`
 * entry, or with another glob that covers git folders, keeps them protected whole.
 */
export function treeEntryTest(
	context: PathContext,
): (path: string, isDirectory: boolean, insideGitFolder: boolean) => TreeEntryKind {
	const all = protectedReadTest(context);
	const withoutGitFolder = protectedReadTest({
		...context,
		protectedPaths: context.protectedPaths.filter((glob) => glob !== GIT_FOLDER_GLOB),
	});
	return (path, isDirectory, insideGitFolder) => {
		if (insideGitFolder) {
			if (withoutGitFolder(path)) return "protected";
			// The parts below the innermost `.git` (submodules' and worktrees' git folders lie within it).
			return gitFolderEntryKind(path.slice(path.lastIndexOf("/.git/") + "/.git/".length).split("/"), isDirectory);
		}
		if (!all(path)) return "readable";
		return isDirectory && baseName(path) === ".git" && !withoutGitFolder(path) ? "git-folder" : "protected";
	};
}

/**
 * The verdict on the URLs a repository's remotes show, as a fact for `git remote -v` and `git remote get-url`:
 * `none` when no config file git reads holds a URL with user information (`https://user:token@host/…`), `present`
 * when one does (in a `remote.*.url`, `pushurl` or an `url.<base>.insteadOf` rewrite, which `-v` prints expanded),
 * `unknown` when a file could not be read.
 */
export const GIT_URL_CREDENTIALS_VERDICTS = ["none", "present", "unknown"] as const;
/** One of {@link GIT_URL_CREDENTIALS_VERDICTS}. */
export type GitUrlCredentialsVerdict = (typeof GIT_URL_CREDENTIALS_VERDICTS)[number];

/**
 * Judges one config file's text for URLs with user information (see {@link GIT_URL_CREDENTIALS_VERDICTS}), in a
 * value or a subsection: `unknown` when it does not parse. Any entry counts, not only `remote.*`, since rewrites
 * move a URL. Pure; never throws.
 */
export function judgeGitConfigUrlCredentials(text: string): GitUrlCredentialsVerdict {
	const parsed = parseGitConfig(text);
	return parsed.ok ? urlCredentialsOf(parsed.value) : "unknown";
}

function urlCredentialsOf(entries: readonly GitConfigEntry[]): GitUrlCredentialsVerdict {
	return entries.some((entry) => hasUserInfo(entry.value) || hasUserInfo(entry.subsection)) ? "present" : "none";
}

/**
 * One git config file judged from a single parse: the programs it may run, URLs with credentials, the settings
 * that make read-only git print more (undefined when the text does not parse), its includes.
 */
export interface GitConfigFileJudgement {
	readonly config: GitConfigVerdict;
	/**
	 * {@link config} with `core.hooksPath` left out: the reader judges the folder it names by the hooks in it, as it
	 * judges `.git/hooks`, so that a husky repository (`core.hooksPath=.husky/_`) is not reviewed for the key alone.
	 */
	readonly configApartFromHooksPath: GitConfigVerdict;
	readonly urlCredentials: GitUrlCredentialsVerdict;
	readonly contentSettings: readonly GitContentSetting[] | undefined;
	/**
	 * The working tree the file names (`core.worktree`, the last one; empty for a key with no value), undefined when
	 * it names none: git then reads and prints that folder's files, wherever it lies.
	 */
	readonly worktree: string | undefined;
	readonly includes: readonly GitConfigInclude[];
	/** Every non-empty `core.hooksPath` value, in file order: the folder git runs hooks from (see `gitHooksFolderPaths`). */
	readonly hooksPaths: readonly string[];
	/** The words of the programs its keys name that look like paths (see {@link gitProgramPathWords}). */
	readonly programPaths: readonly string[];
}

/**
 * Judges one config file's text for the shell's reader in one parse: {@link judgeGitConfigText},
 * {@link judgeGitConfigUrlCredentials}, `gitContentSettings` and the includes git would follow. Text that does not
 * parse is `unknown` for all three and names no include. Pure; never throws.
 */
export function judgeGitConfigFile(text: string): GitConfigFileJudgement {
	const parsed = parseGitConfig(text);
	if (!parsed.ok) {
		return {
			config: "unknown",
			configApartFromHooksPath: "unknown",
			urlCredentials: "unknown",
			contentSettings: undefined,
			worktree: undefined,
			includes: [],
			hooksPaths: [],
			programPaths: [],
		};
	}
	const worktree = lastGitConfigEntry(parsed.value, "core", "worktree");
	const programs = gitProgramKeys(parsed.value);
	return {
		config: programs.length > 0 ? "unsafe" : "safe",
		configApartFromHooksPath: programs.some((key) => key.kind !== "hooks-path") ? "unsafe" : "safe",
		urlCredentials: urlCredentialsOf(parsed.value),
		contentSettings: gitContentSettings(parsed.value),
		worktree: worktree === undefined ? undefined : (worktree.value ?? ""),
		includes: gitConfigIncludes(parsed.value),
		hooksPaths: parsed.value
			.filter((entry) => entry.section === "core" && entry.subsection === undefined && entry.key === "hookspath")
			.flatMap((entry) => (entry.value === undefined || entry.value === "" ? [] : [entry.value])),
		programPaths: gitProgramPathWords(parsed.value),
	};
}

/**
 * True when one line of `git for-each-ref --format='%(objecttype) %(*objecttype) %(refname)'` names a ref whose
 * objects a commit walk does not read: a replace ref (it can swap any object, a blob too, for one the walk never
 * reads), or a ref that names (or a tag that peels to) a blob, a tree or another tag (`git tag t <blob>`, fetched
 * tags too), which `git show` prints. An empty line names none. Pure; never throws.
 */
export function gitRefHidesObjects(line: string): boolean {
	if (line === "") return false;
	const [type, peeled, name = ""] = line.split(" ");
	if (name.startsWith("refs/replace/")) return true;
	return !(type === "commit" || (type === "tag" && peeled === "commit"));
}

/**
 * Judges a legacy remote file's text (`.git/remotes/NAME`, `.git/branches/NAME`, which `git remote get-url` still
 * reads) for a URL with user information anywhere in it. Pure; never throws.
 */
export function judgeGitRemoteFileUrlCredentials(text: string): GitUrlCredentialsVerdict {
	return typeof text === "string" && !hasUserInfo(text) ? "none" : "present";
}

/** The verdict over several files: `present` if any is, else `unknown` if any is, else `none` (also for none). */
export function combineGitUrlCredentialsVerdicts(
	verdicts: readonly GitUrlCredentialsVerdict[],
): GitUrlCredentialsVerdict {
	if (verdicts.includes("present")) return "present";
	if (verdicts.includes("unknown")) return "unknown";
	return "none";
}

/**
 * The path a `.git` file names, as git reads it (`read_gitfile_gently`): the text must start with `gitdir: ` (one
 * space), and git keeps everything after it but the trailing newlines and carriage returns: blanks too, and every
 * line. Undefined for text git rejects (no `gitdir: `, no path) and for a path git would read other than a plain
 * reading does (a NUL, where git stops; a line break inside; a blank at either end, which git keeps): the caller's
 * facts are then unknown. A relative path is relative to the folder holding the `.git` file, resolved by the
 * system (a `..` after a link leads beside the link's target). Pure; never throws.
 */
export function gitDirFileTarget(text: string): string | undefined {
	if (typeof text !== "string" || !text.startsWith("gitdir: ")) return undefined;
	return plainGitFolderPath(text.slice("gitdir: ".length));
}

/**
 * The path a git folder's `commondir` file names (a linked worktree's, `../..`), as git reads it
 * (`get_common_dir_noenv`): the whole text but the trailing newlines and carriage returns, relative to the git
 * folder and resolved by the system. Undefined for an empty file (git stops there) and for a path git would read
 * other than a plain reading does (see {@link gitDirFileTarget}). Pure; never throws.
 */
export function gitCommonDirFileTarget(text: string): string | undefined {
	return typeof text === "string" ? plainGitFolderPath(text) : undefined;
}

/**
 * The value without its trailing line ends; undefined when it is empty, holds a NUL or a line break, or has blanks
 * at an end.
 */
function plainGitFolderPath(value: string): string | undefined {
	const path = value.replace(/[\r\n]+$/, "");
	if (path === "" || /[\0\r\n]/.test(path) || path.trim() !== path) return undefined;
	return path;
}

/**
 * True when a git folder's `HEAD` passes git's test (`validate_headref`), which decides whether git takes a folder
 * as a git folder while it looks for the repository: a link whose target starts with `refs/`, or a file whose first
 * 255 bytes start with `ref:`, blanks, then `refs/`, or with a 40-digit object name. Anything else (a missing or
 * empty file, a folder) is not valid: git then skips a `.git` folder and goes on looking. Only forms git accepts
 * are accepted (blanks are the ones git's own `isspace` knows), so a folder this calls valid is one git takes.
 * Pure; never throws.
 */
export function judgeGitHead(head: { readonly link: string } | { readonly text: string }): boolean {
	if ("link" in head) return typeof head.link === "string" && head.link.startsWith("refs/");
	if (typeof head.text !== "string") return false;
	const text = head.text.slice(0, 255);
	return /^ref:[ \t\n\r]*refs\//.test(text) || /^[0-9a-fA-F]{40}/.test(text);
}

/**
 * True when git surely rejects a `HEAD` (`validate_headref`): a link not to `refs/`, or text that starts neither with
 * `ref:` nor with an object id (empty, or cut short by a crash). The converse of {@link judgeGitHead} is looser:
 * a `ref:` this reader would not take is not sure. Pure; never throws.
 */
export function gitHeadSurelyRejected(head: { readonly link: string } | { readonly text: string }): boolean {
	if ("link" in head) return typeof head.link !== "string" || !head.link.startsWith("refs/");
	if (typeof head.text !== "string") return false;
	return !head.text.startsWith("ref:") && !/^[0-9a-fA-F]{40}/.test(head.text);
}

/**
 * True for a `core.hooksPath` value git places below the working tree's top (neither absolute nor starting with
 * `~`), as {@link gitHooksFolderPaths} places it. Pure; never throws.
 */
export function isRelativeHooksPath(value: string): boolean {
	return !value.startsWith("/") && !value.startsWith("~");
}

/**
 * True when a `..` part of `path` follows a name (`lnk/../hk`, `/a/../b`, `~/../x`): the system takes it from where a
 * link of that name leads, which the text does not say. Leading ones (`../../shared-hooks`) climb from the real path
 * they are placed on, as the text says. Pure; never throws.
 */
export function dotDotFollowsName(path: string): boolean {
	const parts = path.split("/").filter((part) => part !== "" && part !== ".");
	const firstName = parts.findIndex((part) => part !== "..");
	return firstName >= 0 && parts.slice(firstName).includes("..");
}

/** At most this many `path` entries of a `.gitmodules` file are taken (boost lists about 170). */
export const MAX_GITMODULES_PATHS = 1024;

/**
 * The submodule paths a `.gitmodules` text lists (`path = …`), in file order, and each path by its submodule's name
 * (`[submodule "name"]`; a key may follow its header on one line). Lines end as git reads them (`\r\n` too).
 * Undefined for what this does not take as written, so that the caller errs toward review: a lone `\r`, a value
 * with quotes, escapes or comment characters, an empty value or one with a `..` part, or more than
 * {@link MAX_GITMODULES_PATHS} paths. Pure; never throws.
 */
export function gitmodulesPaths(
	text: string,
): { readonly paths: readonly string[]; readonly pathsByName: ReadonlyMap<string, string> } | undefined {
	if (typeof text !== "string") return undefined;
	const lines = text.replace(/\r\n/g, "\n");
	if (lines.includes("\r")) return undefined;
	const paths: string[] = [];
	const pathsByName = new Map<string, string>();
	let section: string | undefined;
	for (const line of lines.split("\n")) {
		const header = /^\s*\[([^\]\n]*)\](.*)$/.exec(line);
		if (header !== null) section = /^\s*submodule\s+"([^"\\]*)"\s*$/i.exec(header[1] ?? "")?.[1];
		const match = /^\s*path\s*=(.*)$/i.exec(header === null ? line : (header[2] ?? ""));
		if (match === null) continue;
		const value = (match[1] ?? "").trim();
		if (value === "" || /["\\;#]/.test(value) || value.split("/").includes("..")) return undefined;
		paths.push(value);
		if (section !== undefined) pathsByName.set(section, value);
	}
	return paths.length > MAX_GITMODULES_PATHS ? undefined : { paths, pathsByName };
}

/**
 * The folders `core.hooksPath` values name (from {@link GitConfigFileJudgement.hooksPaths}), absolute and normalized:
 * `~/x` below `home`, an absolute path as it is, anything else relative to the repository's top folder `top`, where
 * git runs hooks from (left out when `top` is undefined: the user's own config read outside a repository). A value this cannot place (`~user/x`) is left out. Pure; never throws.
 */
export function gitHooksFolderPaths(values: readonly string[], top: string | undefined, home: string): string[] {
	const folders: string[] = [];
	for (const value of values) {
		if (typeof value !== "string" || value === "") continue;
		if (value.startsWith("~") && value !== "~" && !value.startsWith("~/")) continue;
		// A relative value is relative to each repository's top: outside one (the user's own config) it names none.
		if (top === undefined && isRelativeHooksPath(value)) continue;
		const absolute =
			value === "~" || value.startsWith("~/")
				? `${home}/${value.slice(1)}`
				: value.startsWith("/")
					? value
					: `${top}/${value}`;
		const folder = normalizeAbsolutePath(absolute);
		if (!folders.includes(folder)) folders.push(folder);
	}
	return folders;
}
