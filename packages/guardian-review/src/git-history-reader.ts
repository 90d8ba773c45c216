// Lists the protected files a repository's index or history holds, for the floor's judgement of git forms that print
// file content (`git diff`, `git show`, `git log -p`, `git grep`): a test key committed years ago, or a `.env`
// stashed with `-u`, is printed by them as readily as by `cat`. Runs git itself, only where the config reader found
// a config that runs no program, with the program-running keys it may meet in the user's own config switched off;
// bounded in time and output, and cached per repository until its refs or reflogs move (then only the new commits
// are read).
import { execFile } from "node:child_process";
import { readFile, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { gitRefHidesObjects } from "@pi-policy/policy-kernel/guardian";

/** More protected files than this in one repository make the fact unknown (its content-printing git is reviewed). */
export const MAX_HISTORY_PROTECTED = 64;
/** git gets this long for one listing; a slower repository's fact is unknown. */
const GIT_TIMEOUT_MS = 20_000;
/** At most this much output is read from one git listing. */
const MAX_GIT_OUTPUT_BYTES = 256 * 1024 * 1024;
/** At most this many repositories' listings are kept. */
const MAX_CACHED_REPOSITORIES = 8;

/** Options that keep git from running a program or asking anything while it lists names. */
const QUIET_GIT = [
	"-c",
	"core.fsmonitor=false",
	"-c",
	"log.showSignature=false",
	// `log.showRoot=false` in the user's config would leave root commits' files out of the name list.
	"-c",
	"log.showRoot=true",
	"-c",
	"core.quotePath=false",
	// The objects as stored: a replacement (`git replace`) would hide a commit from the listing but not from
	// `git --no-replace-objects show`; the replacements' own commits are walked through `refs/replace/*`.
	"--no-replace-objects",
];

/** The environment git runs in: the process's, without variables that point git elsewhere or run programs. */
function gitEnvironment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("GIT_")) env[name] = value;
	// `GIT_NO_LAZY_FETCH` (git 2.44 on): a partial clone's missing object is not fetched through its promisor remote.
	// Older git ignores it; there the listing runs only where the config names no promisor (decision 0013).
	return {
		...env,
		GIT_OPTIONAL_LOCKS: "0",
		GIT_TERMINAL_PROMPT: "0",
		GIT_NO_LAZY_FETCH: "1",
		GIT_PAGER: "cat",
		PAGER: "cat",
	};
}

/**
 * Runs git in `cwd` with the options that keep it from running a program (`QUIET_GIT`, no pager, no `GIT_*`
 * variables) and answers its output; `input`, when given, is written to its standard input. Rejects when git fails,
 * times out or prints too much.
 */
export function runQuietGit(cwd: string, args: readonly string[], input?: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = execFile(
			"git",
			[...QUIET_GIT, "--no-pager", ...args],
			{ cwd, env: gitEnvironment(), timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: "utf8" },
			(error, stdout) => (error === null ? resolve(stdout) : reject(error)),
		);
		child.stdin?.on("error", () => {}); // git may exit before reading it all; the callback reports why
		child.stdin?.end(input ?? "");
	});
}

/** The text of a file, or an empty string when it does not exist. Rejects on other errors. */
async function readOrEmpty(path: string): Promise<string> {
	try {
		return await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
		throw error;
	}
}

/**
 * The commits every ref, HEAD and every reflog entry (other worktrees' too) name, sorted and without repeats: a
 * commit undone by `git reset --hard` moves no ref back from where it was, but `HEAD@{1}` still names it. A
 * repository with no commit yet names none.
 */
async function namedCommits(cwd: string): Promise<string[]> {
	const listed = await runQuietGit(cwd, ["rev-list", "--no-walk=unsorted", "--all", "--reflog", "HEAD"]).catch(() =>
		runQuietGit(cwd, ["rev-list", "--no-walk=unsorted", "--all", "--reflog"]),
	);
	return [...new Set(listed.split("\n").filter((line) => line !== ""))].sort();
}

/** What one repository's history held when last read: the commits its names reach, and the protected files seen. */
interface HistoryListing {
	/** What `isProtected` stood for (the protected globs and places): another one starts the listing over. */
	readonly protection: string;
	/** The commits refs, HEAD and reflog entries named then (see `namedCommits`): others start a new walk. */
	readonly tips: readonly string[];
	/** The shallow boundary then (the `shallow` file, empty when the clone is whole). */
	readonly shallow: string;
	readonly protectedPaths: ReadonlySet<string>;
	/** Every commit reached (full hashes): content by another object name is not covered by the listing. */
	readonly commits: ReadonlySet<string>;
}

/** What the listing found for one repository. */
export interface GitHistoryListing {
	readonly protectedPaths: readonly string[];
	readonly commits: ReadonlySet<string>;
}

/**
 * The session's cache of history listings, per repository. `protectedPathsOf(cwd, isProtected, protection, root)`
 * answers for the repository around `cwd` (`protection` names what `isProtected` tests): the absolute paths of the
 * files its index, its untracked files that are not ignored (`git add -A` stages them) or any commit reachable from
 * a ref or a reflog (stashes included) holds that `isProtected` accepts, and one that lies outside the workspace
 * (`isOutside`; one stands for all: a pathspec outside is judged by the floor itself), and those commits; undefined when git
 * failed, timed out, found more than {@link MAX_HISTORY_PROTECTED}, or the repository has replace refs. Paths are
 * under `root`, the top folder as the config reader found it through the path the command uses (a link such as
 * `lnk -> .` included), which must be the folder git names; without it, under git's own. Never throws.
 */
export function createGitHistoryFacts(): {
	protectedPathsOf(
		cwd: string,
		isProtected: (path: string) => boolean,
		protection: string,
		root?: string,
		isOutside?: (path: string) => boolean,
	): Promise<GitHistoryListing | undefined>;
} {
	const listings = new Map<string, HistoryListing>();
	return {
		async protectedPathsOf(cwd, isProtected, protection, root, isOutside = () => false) {
			try {
				const [located, tips, refs] = await Promise.all([
					runQuietGit(cwd, ["rev-parse", "--show-toplevel", "--git-path", "shallow", "--git-path", "info/grafts"]),
					namedCommits(cwd),
					runQuietGit(cwd, ["for-each-ref", "--format=%(objecttype) %(*objecttype) %(refname)"]),
				]);
				const [top = "", shallowPath = "", graftsPath = ""] = located.split("\n");
				if (top === "") return undefined;
				if (refs.split("\n").some(gitRefHidesObjects)) return undefined;
				// Grafts (deprecated, still read) give commits other parents; the shallow boundary moves when a shallow
				// clone is deepened (`fetch --unshallow` brings old commits and may move no ref).
				const [grafts, shallow] = await Promise.all([
					readOrEmpty(resolve(cwd, graftsPath)),
					readOrEmpty(resolve(cwd, shallowPath)),
				]);
				if (grafts !== "") return undefined;
				if (root !== undefined && (await realpath(root)) !== top) return undefined;
				const base = root ?? top;
				const listed = listings.get(base);
				const cached = listed?.protection === protection ? listed : undefined;
				const found = new Set(cached?.protectedPaths);
				const commits = new Set<string>(cached?.commits);
				let outsideSeen = [...found].some(isOutside);
				/** Reads NUL-separated names, and commit hashes marked by a leading `\x01` (see the log format below). */
				const add = (listing: string) => {
					for (const token of listing.split("\0")) {
						if (token.startsWith("\x01")) {
							commits.add(token.slice(1));
							continue;
						}
						// The format line ends in a newline before the commit's names.
						const path = token.replace(/^\n+/, "");
						if (path === "") continue;
						const absolute = `${base}/${path}`;
						if (found.has(absolute)) continue;
						if (isOutside(absolute)) {
							if (!outsideSeen) found.add(absolute);
							outsideSeen = true;
						} else if (isProtected(absolute)) found.add(absolute);
					}
				};
				if (cached === undefined || cached.tips.join() !== tips.join() || cached.shallow !== shallow) {
					// Only the commits the last listing did not reach: the refs moved by a commit, a fetch, a stash, or the
					// reflogs grew; the ones reached before are excluded on standard input (a long reflog would not fit
					// on a command line). `-m`: a merge's own changes against each parent (a file a merge adds shows in no
					// other commit).
					// A commit named before and pruned since (`git gc` after a branch and its reflog went) cannot be excluded:
					// then the whole history is read again.
					const format = "--format=%x01%H";
					const walk = (excluded: readonly string[]) =>
						runQuietGit(
							top,
							["log", "--all", "--reflog", "--stdin", "-m", format, "--name-only", "-z", "--no-renames"],
							excluded.map((tip) => `^${tip}\n`).join(""),
						);
					// Across a moved shallow boundary the old commits gained parents: all of them are read again.
					const excluded = cached === undefined || cached.shallow !== shallow ? undefined : cached.tips;
					add(await (excluded === undefined ? walk([]) : walk(excluded).catch(() => walk([]))));
				}
				if (listings.size >= MAX_CACHED_REPOSITORIES && !listings.has(base)) listings.clear();
				listings.set(base, { protection, tips, shallow, protectedPaths: new Set(found), commits });
				// The index changes with every `git add`, and `git add -A` stages the untracked files that are not ignored:
				// read both each time (fast: names only).
				add(await runQuietGit(top, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]));
				return found.size > MAX_HISTORY_PROTECTED ? undefined : { protectedPaths: [...found], commits };
			} catch {
				return undefined;
			}
		},
	};
}
