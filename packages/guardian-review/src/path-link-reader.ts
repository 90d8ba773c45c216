// Follows the symbolic links on the paths a call opens, so that the floor judges where a name really leads: a link
// in the workspace may lead home (`d -> ~`, then `cat d/.kube/config`). The kernel names the paths
// (`floorFactRequestsOf`, `toolCallLinkPaths`) and decides; this module only reads links, part by part, as the
// system resolves a path (decision 0023). Nothing is cached across calls: a link may change between any two. The
// lookups are synchronous `lstat`s on local paths, a few per call: through the thread pool each would cost a hop
// of its own on the tool-call hook.
import {
	type Dirent,
	lstatSync,
	opendirSync,
	readdirSync,
	readlinkSync,
	realpathSync,
	type Stats,
	statSync,
} from "node:fs";
import {
	type FloorContext,
	isHomeConfigPath,
	isWithin,
	type LinkRoot,
	MAX_LINK_HOPS,
	normalizeAbsolutePath,
	type PathLinkTargets,
	pathThroughRoots,
	type ShellSetupInput,
} from "@pi-policy/policy-kernel/guardian";

/** What one absolute path is on disk: a link (with its text), anything else, or nothing. */
export type PathEntry =
	| { readonly kind: "link"; readonly target: string }
	| { readonly kind: "other" }
	| { readonly kind: "missing" };

/** Looks one path up without following it; throws when it cannot tell (a folder it may not search). */
export type PathEntryLookup = (path: string) => PathEntry;

/** A lookup on the real filesystem that reads each path at most once. */
export function createPathEntryLookup(): PathEntryLookup {
	const seen = new Map<string, PathEntry>();
	return (path) => {
		let entry = seen.get(path);
		if (entry === undefined) {
			entry = lookUpPath(path);
			seen.set(path, entry);
		}
		return entry;
	};
}

function lookUpPath(path: string): PathEntry {
	let info: ReturnType<typeof lstatSync>;
	try {
		info = lstatSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
		if (hasLookAlikeEntry(path)) throw new Error("a look-alike entry may be opened instead");
		return { kind: "missing" };
	}
	return info.isSymbolicLink() ? { kind: "link", target: readlinkSync(path) } : { kind: "other" };
}

/**
 * True when another entry may share the name in a different Unicode form: `K`, `;` and a backtick are the NFC forms
 * of U+212A, U+037E and U+1FEF, and any non-ASCII character may have other forms.
 */
function mayHaveLookAlike(name: string): boolean {
	for (const char of name) if (char === "K" || char === ";" || char === "`" || char.charCodeAt(0) > 0x7f) return true;
	return false;
}

/** At most this many entries of a folder are compared; a larger folder counts as holding a look-alike. */
const MAX_LOOK_ALIKE_ENTRIES = 4_096;

/**
 * True when the folder of a missing `path` holds another entry whose NFC or NFKC form is the missing name's. A
 * server that falls back to such an entry when a name is missing (the MCP filesystem server: `Key` opens a link
 * `\u212Aey` to `.env`; a twenty-first review) opens what the floor never judged.
 */
function hasLookAlikeEntry(path: string): boolean {
	const slash = path.lastIndexOf("/");
	const name = path.slice(slash + 1);
	if (!mayHaveLookAlike(name)) return false;
	const forms = new Set([name.normalize("NFC"), name.normalize("NFKC")]);
	let folder: ReturnType<typeof opendirSync>;
	try {
		folder = opendirSync(slash === 0 ? "/" : path.slice(0, slash));
	} catch {
		return false;
	}
	try {
		for (let count = 0; ; count++) {
			const entry = folder.readSync();
			if (entry === null) return false;
			if (count >= MAX_LOOK_ALIKE_ENTRIES) return true;
			if (entry.name !== name && (forms.has(entry.name.normalize("NFC")) || forms.has(entry.name.normalize("NFKC"))))
				return true;
		}
	} finally {
		folder.closeSync();
	}
}

/**
 * The real path the system opens for `path` (absolute; `.` and `..` taken as the system takes them, after the links
 * before them): each part is looked up in turn and a link's text replaces it. The parts below the first missing
 * one are taken as named (nothing below a missing folder can be opened; a missing last part is what a write
 * creates, and a dangling link leads to it), unless one of them is `..`: the call may create the missing part
 * first, maybe as a link, and `..` below it then leads wherever that is. Undefined then, after
 * {@link MAX_LINK_HOPS} links (a loop), or when a part cannot be looked up. `linkFree`: folders (absolute, normalized) known to hold no link on their own path, whose
 * parts need no lookup.
 */
export function followPathLinks(
	path: string,
	look: PathEntryLookup,
	linkFree: readonly string[] = [],
	missingUnknown = false,
): string | undefined {
	try {
		// A folder known to have no link on it (a root whose real path is its name) is taken whole.
		const start = linkFree.find((folder) => folder !== "/" && path.startsWith(`${folder}/`));
		const pending = (start === undefined ? path : path.slice(start.length)).split("/").reverse();
		let done = start ?? "";
		let hops = 0;
		while (pending.length > 0) {
			const part = pending.pop() as string;
			if (part === "" || part === ".") continue;
			if (part === "..") {
				done = done.slice(0, done.lastIndexOf("/"));
				continue;
			}
			const next = `${done}/${part}`;
			const entry = look(next);
			if (entry.kind === "missing") {
				// The call may create the missing folder first (`mkdir m && cat m/../kk/config`), and as a link: `..`
				// below it leads wherever that is, and the parts after it are not known.
				// While another call runs, it may make the missing part first (`mv lnk n2` beside `cat n2/.kube/config`;
				// a twentieth review): then nothing after it is known.
				if (missingUnknown || pending.includes("..")) return undefined;
				return normalizeAbsolutePath(`${next}/${pending.reverse().join("/")}`);
			}
			if (entry.kind === "other") {
				done = next;
				continue;
			}
			if (++hops > MAX_LINK_HOPS) return undefined;
			if (entry.target.startsWith("/")) done = "";
			pending.push(...entry.target.split("/").reverse());
		}
		return done === "" ? "/" : done;
	} catch {
		return undefined;
	}
}

/**
 * `FloorFacts.pathLinks` for the paths the kernel asked about: each one's real path, named through the workspace,
 * the additional directories or home where it lies below one of them, or `null` when it cannot be told. Never
 * throws.
 */
export function readPathLinks(
	paths: readonly string[],
	context: Pick<FloorContext, "cwd" | "home" | "additionalDirectories">,
	look: PathEntryLookup = createPathEntryLookup(),
	roots: readonly LinkRoot[] = readLinkRoots(context, look),
	missingUnknown = false,
): PathLinkTargets {
	const targets = new Map<string, string | null>();
	if (paths.length === 0) return targets;
	const linkFree = roots.filter((root) => root.real === root.named).map((root) => root.named);
	for (const path of paths) {
		const real = followPathLinks(path, look, linkFree, missingUnknown);
		targets.set(path, real === undefined ? null : pathThroughRoots(real, roots));
	}
	return targets;
}

/** The workspace, the additional directories and home, each with its real path (one that has none is left out). */
export function readLinkRoots(
	context: Pick<FloorContext, "cwd" | "home" | "additionalDirectories">,
	look: PathEntryLookup = createPathEntryLookup(),
): LinkRoot[] {
	const roots: LinkRoot[] = [];
	const named = [context.cwd, ...(context.additionalDirectories ?? []), context.home].map(normalizeAbsolutePath);
	for (const root of named) {
		const real = followPathLinks(root, look);
		if (real !== undefined) roots.push({ real, named: root });
	}
	return roots;
}

/**
 * {@link readPathLinks} for a session: the roots' real paths are kept until `invalidate()` (after any tool call that
 * may have changed files, and on session start); the paths themselves are followed on every call.
 */
export function createPathLinkReader(): {
	/** `missingUnknown`: a path with a missing part is unknown (`null`), as while another call may be making it. */
	read(
		paths: readonly string[],
		context: Pick<FloorContext, "cwd" | "home" | "additionalDirectories">,
		missingUnknown?: boolean,
	): PathLinkTargets;
	/** The roots' real paths (see {@link readLinkRoots}), as `read` takes them. */
	roots(context: Pick<FloorContext, "cwd" | "home" | "additionalDirectories">): readonly LinkRoot[];
	invalidate(): void;
} {
	let cached: { key: string; roots: readonly LinkRoot[] } | undefined;
	const rootsOf = (context: Pick<FloorContext, "cwd" | "home" | "additionalDirectories">, look: PathEntryLookup) => {
		const key = [context.cwd, context.home, ...(context.additionalDirectories ?? [])].join("\u0000");
		if (cached?.key !== key) cached = { key, roots: readLinkRoots(context, look) };
		return cached.roots;
	};
	return {
		read(paths, context, missingUnknown = false) {
			if (paths.length === 0) return new Map();
			const look = createPathEntryLookup();
			return readPathLinks(paths, context, look, rootsOf(context, look), missingUnknown);
		},
		roots: (context) => rootsOf(context, createPathEntryLookup()),
		invalidate() {
			cached = undefined;
		},
	};
}

/**
 * The real paths `judgeShellSetup` asks about ({@link ShellSetupInput.realPaths}): each absolute `PATH` folder (a
 * leading `~` expanded) and each workspace root, links followed ({@link followPathLinks}; a missing tail is taken
 * as named). A folder whose links cannot be followed is left out. Never throws.
 */
export function readShellSetupRealPaths(input: Omit<ShellSetupInput, "realPaths">): Map<string, string> {
	const real = new Map<string, string>();
	const pathKey = Object.keys(input.environment).find((name) => name.toUpperCase() === "PATH");
	const entries = (pathKey === undefined ? "" : (input.environment[pathKey] ?? "")).split(input.pathDelimiter ?? ":");
	const home = input.home;
	const folders = entries
		.map((entry) => (entry === "~" || entry.startsWith("~/") ? `${home}/${entry.slice(1)}` : entry))
		.filter((entry) => entry.startsWith("/"));
	const look = createPathEntryLookup();
	for (const folder of [input.workspace, ...(input.additionalDirectories ?? []), ...folders].slice(0, 300)) {
		// A folder not made yet leads where its existing parts' links lead (`node_modules -> vendor/nm`, `.bin` to be
		// made): followed part by part, a missing tail taken as named.
		const named = normalizeAbsolutePath(folder);
		const followed = followPathLinks(named, look);
		if (followed !== undefined) real.set(named, followed);
	}
	return real;
}

/**
 * `FloorFacts.existingPaths` for the module paths the kernel asked about (`FloorFactRequests.modulePaths`): the ones
 * that exist as regular files (`tests/__init__.py`, `tests.py`), links followed. While another call runs (`settled`
 * false) it may make or remove one, so nothing counts as existing and the labels that need one are reviewed. Never
 * throws.
 */
export function readExistingPaths(paths: readonly string[], settled: boolean): ReadonlySet<string> {
	const existing = new Set<string>();
	if (!settled) return existing;
	for (const path of paths) {
		try {
			if (statSync(path).isFile()) existing.add(path);
		} catch {
			// Missing or unreadable: not known to exist.
		}
	}
	return existing;
}

/**
 * Home as the workspace's path names it: `home` itself, unless only its real path (links followed) holds the
 * workspace or lies in it. Pi's folder is the real path the system gives; a `$HOME` through a link
 * (`/home -> /usr/home` on FreeBSD, a home moved to another disk) would otherwise leave the workspace's own names of
 * home's files (`.ssh/`, `.config/`) unjudged as home's (a forty-first review). Never throws.
 */
export function homeNamedLikeWorkspace(home: string, cwd: string): string {
	try {
		const named = normalizeAbsolutePath(home);
		const workspace = normalizeAbsolutePath(cwd);
		if (isWithin(named, workspace) || isWithin(workspace, named)) return named;
		const real = normalizeAbsolutePath(realpathSync.native(named));
		return real !== named && (isWithin(real, workspace) || isWithin(workspace, real)) ? real : named;
	} catch {
		return home;
	}
}

/**
 * Folders of home's configuration whose entries, two levels deep, are looked at for links too (as GNU Stow makes):
 * the folders on `PATH` first, so that a large `~/.config` cannot use up the budget before them (a fiftieth review).
 */
const HOME_CONFIG_PATH_FOLDERS = [".local/bin", "bin"] as const;
const HOME_CONFIG_LINK_FOLDERS = [
	".config",
	".local/share",
	// Plugin managers' folders, whose entries a plugin's author links to a checkout (`~/.vim/pack/dev/start/p ->
	// ~/src/p`; a fifty-first review), two levels above them.
	".vim/pack",
	".config/nvim/pack",
	".local/share/nvim/site/pack",
	".oh-my-zsh/custom",
	".tmux/plugins",
] as const;
/**
 * Data folders below {@link HOME_CONFIG_LINK_FOLDERS} nothing loads configuration from, which can hold tens of
 * thousands of entries and would use up the bound (a fifty-second review: 33,000 items in the Trash).
 */
const SKIPPED_DATA_FOLDERS: ReadonlySet<string> = new Set([".local/share/Trash"]);
/** At most this many entries are looked at (see {@link readHomeConfigLinkTargets}); ordinary homes hold far fewer. */
export const MAX_HOME_CONFIG_ENTRIES = 65_536;

/** What {@link readHomeConfigLinkTargets} found. */
export interface HomeConfigLinks {
	/**
	 * Where the links lead inside the roots, named as the roots name them; every root itself when the entries ran past
	 * {@link MAX_HOME_CONFIG_ENTRIES}, so that every write there is judged as one into home's configuration.
	 */
	readonly targets: readonly string[];
	/** False when the entries ran past the bound: a link among those not looked at may lead anywhere in the roots. */
	readonly complete: boolean;
}

/**
 * Where the links among home's own configuration lead inside `roots` (the workspace and the additional
 * directories): the entries of {@link HOME_CONFIG_PATH_FOLDERS}, home's entries that `isHomeConfigPath` counts, and
 * the entries of {@link HOME_CONFIG_LINK_FOLDERS}, each folder's two levels deep. A dotfiles folder
 * (`~/.config/nvim -> ~/dotfiles/nvim`, as GNU Stow makes) or a program `~/.local/bin` links to is then home's
 * configuration for writes (a forty-first review). At most `bound` entries are looked at (by default
 * {@link MAX_HOME_CONFIG_ENTRIES}); past them it fails closed (see {@link HomeConfigLinks}); an entry that cannot be read is skipped. Never throws.
 */
export function readHomeConfigLinkTargets(
	home: string,
	roots: readonly string[],
	bound = MAX_HOME_CONFIG_ENTRIES,
): HomeConfigLinks {
	const targets = new Set<string>();
	let budget = bound;
	try {
		const named = normalizeAbsolutePath(home);
		const base = named === "/" ? "" : named;
		const rootsReal = roots.map((root) => {
			try {
				return normalizeAbsolutePath(realpathSync.native(root));
			} catch {
				return normalizeAbsolutePath(root);
			}
		});
		/** Looks at `folder`'s entries that `keep` takes, and `depth` levels of real folders below them. */
		const visit = (folder: string, keep: (name: string) => boolean, depth = 0) => {
			let entries: Dirent[];
			try {
				// Each entry's type comes with its name: only links cost a call of their own.
				entries = readdirSync(folder, { withFileTypes: true });
			} catch {
				return;
			}
			for (const entry of entries) {
				if (!keep(entry.name)) continue;
				if (--budget < 0) return;
				const path = `${folder}/${entry.name}`;
				if (entry.isDirectory()) {
					if (depth > 0) visit(path, () => true, depth - 1);
					continue;
				}
				if (!entry.isSymbolicLink()) continue;
				try {
					const real = normalizeAbsolutePath(realpathSync.native(path));
					rootsReal.forEach((root, index) => {
						// Named as the workspace names it: through the root it lies in; a link to a folder holding the root
						// makes all of it home's (`~/.vim -> ~/dotfiles/vim` with the root `~/dotfiles/vim/plugin`).
						if (isWithin(root, real)) targets.add(normalizeAbsolutePath(`${roots[index]}/${real.slice(root.length)}`));
						else if (isWithin(real, root)) targets.add(normalizeAbsolutePath(roots[index] as string));
					});
				} catch {
					// A dangling or unreadable link leads nowhere the agent may write.
				}
			}
		};
		for (const folder of HOME_CONFIG_PATH_FOLDERS) visit(`${base}/${folder}`, () => true, 2);
		visit(named, (name) => isHomeConfigPath(`${base}/${name}`, named, []));
		// Stow links files, not only folders, once a folder exists (`~/.config/git/config -> ~/dotfiles/git/config`; a
		// forty-third review): two levels below these folders.
		for (const folder of HOME_CONFIG_LINK_FOLDERS)
			visit(`${base}/${folder}`, (name) => !SKIPPED_DATA_FOLDERS.has(`${folder}/${name}`), 2);
	} catch {
		// Nothing more can be read.
	}
	if (budget < 0) return { targets: roots.map((root) => normalizeAbsolutePath(root)), complete: false };
	return { targets: [...targets], complete: true };
}

/** At most this many entries of one mirrored home folder are looked at; past them the folder written counts itself. */
const MAX_MIRRORED_FOLDER_ENTRIES = 4_096;
/** A folder written more than this many folders below its root counts as home's configuration itself. */
const MAX_MIRRORED_DEPTH = 32;

/**
 * The links in `folder`, and with `deep` in every real folder below it; undefined past
 * {@link MAX_MIRRORED_FOLDER_ENTRIES} entries in all. Throws when `folder` cannot be listed.
 */
function linksBelow(folder: string, deep: boolean): string[] | undefined {
	const links: string[] = [];
	const pending = [folder];
	let budget = MAX_MIRRORED_FOLDER_ENTRIES;
	while (pending.length > 0) {
		const current = pending.pop() as string;
		let listed: Dirent[];
		try {
			listed = readdirSync(current, { withFileTypes: true });
		} catch (error) {
			if (current === folder) throw error;
			continue;
		}
		budget -= listed.length;
		if (budget < 0) return undefined;
		for (const entry of listed) {
			if (entry.isSymbolicLink()) links.push(`${current}/${entry.name}`);
			else if (deep && entry.isDirectory()) pending.push(`${current}/${entry.name}`);
		}
	}
	return links;
}

/** `path`'s real path: its nearest existing folder's, with the missing names after it. Undefined when unreadable. */
function realPathOfMaybeMissing(path: string): string | undefined {
	const missing: string[] = [];
	let current = path;
	for (let depth = 0; depth <= MAX_MIRRORED_DEPTH * 2; depth++) {
		try {
			const real = normalizeAbsolutePath(realpathSync.native(current));
			return normalizeAbsolutePath([real, ...missing.reverse()].join("/"));
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if ((code !== "ENOENT" && code !== "ENOTDIR") || current === "/") return undefined;
			missing.push(current.slice(current.lastIndexOf("/") + 1));
			current = current.slice(0, current.lastIndexOf("/")) || "/";
		}
	}
	return undefined;
}

/** chezmoi's attribute prefixes, which it drops from a source name before `dot_` (`private_dot_ssh` for `.ssh`). */
const CHEZMOI_ATTRIBUTES =
	/^(?:(?:create|modify|remove|run|symlink|encrypted|private|readonly|empty|executable|exact|literal|once|onchange|before|after)_)+/;
/** Folders Stow is often pointed at with `-t` (a package's paths then start below them). */
const MIRROR_BASES = ["", ".config", ".local/share"] as const;

/**
 * The tails of each path (names below a root) to look up under home: each tail as written, with a dot before its first
 * name (rcm keeps `~/.dotfiles/vimrc` for `~/.vimrc`), with GNU Stow's `--dotfiles` names read (`dot-vim` for
 * `.vim`) and with chezmoi's (`private_dot_ssh` for `.ssh`), each also below {@link MIRROR_BASES}; without repeats.
 */
function mirrorTails(paths: readonly (readonly string[])[]): string[][] {
	const tails = new Map<string, string[]>();
	const add = (tail: readonly string[]) => {
		for (const base of MIRROR_BASES) {
			const full = base === "" ? [...tail] : [...base.split("/"), ...tail];
			tails.set(full.join("/"), full);
		}
	};
	for (const path of paths) {
		for (let start = 0; start < path.length; start++) {
			const tail = path.slice(start);
			const first = tail[0] as string;
			add(tail);
			if (!first.startsWith(".")) add([`.${first}`, ...tail.slice(1)]);
			add(tail.map((part) => (part.startsWith("dot-") ? `.${part.slice(4)}` : part)));
			add(
				tail.map((part) => {
					const name = part.replace(CHEZMOI_ATTRIBUTES, "");
					return name.startsWith("dot_") ? `.${name.slice(4)}` : name;
				}),
			);
		}
	}
	return [...tails.values()];
}

/**
 * Links from home's configuration into the folders a call writes in, found by their mirror image, at any depth: GNU
 * Stow, rcm and dotbot name each link as its target's path below the package (`~/.vim/plugin ->
 * ~/dotfiles/vim/.vim/plugin`, `~/.ssh/config -> ~/dotfiles/ssh/.ssh/config`), inside home folders that are real
 * (`~/.vim`, `~/.ssh`, `~/.bashrc.d` exist before Stow runs), which {@link readHomeConfigLinkTargets} does not descend
 * into (a fifty-first review). For each folder written (`folders`, as the workspace names them) below a root, each tail
 * of its path below the root, as written and by where its links lead, is looked up under home in the forms
 * dotfile managers name links ({@link mirrorTails}), folder by folder, where its first name is home's own
 * configuration (`isHomeConfigPath`): a link on the way whose real path holds the folder makes the folder home's
 * configuration, and the links in the home folder the whole tail names (a real folder)
 * name the files they lead to in it; for a path an `mv` renames or replaces (`moved`), the links anywhere below that
 * home folder do (a fifty-fourth review). A link on the way to a folder elsewhere is walked through. Answers those
 * folders and files, named as the workspace names them. A path that
 * cannot be read is skipped; past the bounds the folder counts itself. Never throws.
 */
export function readMirroredHomeLinkTargets(
	home: string,
	roots: readonly string[],
	folders: readonly string[],
	moved: readonly string[] = [],
): string[] {
	const found = new Set<string>();
	const base = normalizeAbsolutePath(home);
	// Many tails share their first folders (`~/.config`): each home path is looked at once a call.
	const entries = new Map<string, Stats | undefined>();
	const entryAt = (path: string): Stats | undefined => {
		if (!entries.has(path)) entries.set(path, lstatSync(path, { throwIfNoEntry: false }));
		return entries.get(path);
	};
	const written = [
		...folders.map((path) => ({ named: normalizeAbsolutePath(path), deep: false })),
		...moved.map((path) => ({ named: normalizeAbsolutePath(path), deep: true })),
	];
	for (const { named, deep } of written) {
		try {
			const root = roots.map(normalizeAbsolutePath).find((candidate) => isWithin(candidate, named));
			if (root === undefined) continue;
			const below = named === root ? [] : named.slice(root === "/" ? 1 : root.length + 1).split("/");
			if (below.length > MAX_MIRRORED_DEPTH) {
				found.add(named);
				continue;
			}
			const real = realPathOfMaybeMissing(named);
			if (real === undefined) continue;
			// By the names the path is written with, and by where its links lead (`rc -> bash/.bashrc.d`; a
			// fifty-third review).
			const realRoot = realPathOfMaybeMissing(root);
			const realBelow =
				realRoot !== undefined && isWithin(realRoot, real) && real !== realRoot
					? real.slice(realRoot === "/" ? 1 : realRoot.length + 1).split("/")
					: [];
			const tails = mirrorTails([below, realBelow]);
			for (const tail of tails) {
				if (found.has(named)) break;
				// Only home's own configuration: a convenience link such as `~/src -> ~/code` is not one.
				if (!isHomeConfigPath(`${base === "/" ? "" : base}/${tail[0]}`, base, [])) continue;
				let mirror = base === "/" ? "" : base;
				let whole = true;
				for (const name of tail) {
					mirror = `${mirror}/${name}`;
					const entry = entryAt(mirror);
					if (entry?.isSymbolicLink()) {
						const target = realPathOfMaybeMissing(mirror);
						if (target !== undefined && isWithin(target, real)) {
							found.add(named);
							break;
						}
						// A link to a folder elsewhere (`~/.config -> ~/sync/config`) is walked through (a fifty-fourth
						// review).
						if (statSync(mirror, { throwIfNoEntry: false })?.isDirectory() === true) continue;
					}
					if (entry === undefined || !entry.isDirectory()) {
						whole = false;
						break;
					}
				}
				if (!whole || found.has(named)) continue;
				// The home folder this tail names is real: its links may lead to files in the folder written, and for a
				// folder an `mv` renames, to files anywhere below it.
				const links = linksBelow(mirror, deep);
				if (links === undefined) {
					found.add(named);
					continue;
				}
				for (const link of links) {
					const target = realPathOfMaybeMissing(link);
					if (target !== undefined && isWithin(real, target))
						found.add(normalizeAbsolutePath(`${named}/${target.slice(real.length)}`));
				}
			}
		} catch {
			// Unreadable: nothing found there.
		}
	}
	return [...found];
}
