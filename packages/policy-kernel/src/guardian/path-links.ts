// Symbolic links under the paths the floor judges. The floor judges names; a name inside the workspace may lead
// elsewhere through a link (`d -> ~`, so `cat d/.kube/config` reads `~/.kube/config`, and `echo x >> d/.bashrc`
// writes `~/.bashrc`). The shell follows each judged path's links on the filesystem (one `lstat`/`readlink` per
// part) and reports where it leads, named through the workspace, the additional directories or home where it lies
// below one of them; the floor then judges that target as well (decision 0023). Pure.

import { isWithin, normalizeAbsolutePath, type PathClass } from "./paths.js";

/**
 * Where each path the floor asked about really leads (see `FloorFactRequests.linkPaths`): the target, named through
 * the roots it lies in ({@link pathThroughRoots}); the path itself (normalized) when no link on it leads elsewhere;
 * `null` when the shell could not tell (a link loop, an unreadable folder). A path missing from the map counts as
 * `null`.
 */
export type PathLinkTargets = ReadonlyMap<string, string | null>;

/** At most this many paths are checked for one call; a path past it counts as unresolved, so the call is reviewed. */
export const MAX_LINK_PATHS = 64;

/** At most this many links are followed for one path (Linux's own limit is 40); more counts as a loop. */
export const MAX_LINK_HOPS = 40;

/**
 * The key under which the shell follows a path bash opens: `raw` joined to the directory bash runs in, with `~`
 * expanded but `.` and `..` kept. bash hands the text to the system, which takes `..` after a link to the link
 * target's parent (`d/../x` with `d -> ~` is `~/../x`), unlike the floor's normalized name. A leading `@` is a
 * name's own character to bash. Undefined when `raw` is relative and the directory is unknown, or starts `~user`.
 */
export function bashPathLinkKey(raw: string, cwd: string | undefined, home: string): string | undefined {
	if (raw === "~") return home;
	if (raw.startsWith("~/")) return `${home}${raw.slice(1)}`;
	if (raw.startsWith("~")) return undefined;
	if (raw.startsWith("/")) return raw;
	if (cwd === undefined) return undefined;
	return cwd === "/" ? `/${raw}` : `${cwd}/${raw}`;
}

/**
 * The key the shell must follow for a path a command acts on: the path's own key, or, when the command acts on the
 * last part itself (`rm link`, the source of `mv link x` remove or rename the link, not what it leads to), its
 * folder's key (unless a trailing `/` makes the system follow that last part too).
 */
export function linkCheckKey(key: string, followsLast: boolean): string {
	if (followsLast) return key;
	return unfollowedLastPart(key)?.folder ?? key;
}

/**
 * A key's folder and last part (`/a/b` → `/a`, `b`) when the system would not follow a link in that last part:
 * undefined when it would anyway (a trailing `/`, or a last part `.` or `..`).
 */
function unfollowedLastPart(key: string): { readonly folder: string; readonly name: string } | undefined {
	const slash = key.lastIndexOf("/");
	const name = key.slice(slash + 1);
	if (slash < 0 || name === "" || name === "." || name === "..") return undefined;
	return { folder: slash === 0 ? "/" : key.slice(0, slash), name };
}

/** A folder's link target joined with a name below it. */
function joinLinkTarget(folder: string, name: string): string {
	return folder === "/" ? `/${name}` : `${folder}/${name}`;
}

/** One root a real path is named through: its real location and the name the floor knows it by. */
export interface LinkRoot {
	/** The root's real path (its own links followed). */
	readonly real: string;
	/** The root as the floor names it (the workspace, an additional directory, home). */
	readonly named: string;
}

/**
 * Names a real path through the root it lies in: the deepest root whose real location holds it gives its named
 * prefix (`/var/home/u/.ssh/id` with home named `/home/u` and real `/var/home/u` is `/home/u/.ssh/id`), so the
 * protected globs anchored at home and the workspace still apply. A path below no root is returned as it is.
 */
export function pathThroughRoots(real: string, roots: readonly LinkRoot[]): string {
	const path = normalizeAbsolutePath(real);
	let best: LinkRoot | undefined;
	for (const root of roots) {
		if (isWithin(root.real, path) && (best === undefined || root.real.length > best.real.length)) best = root;
	}
	if (best === undefined) return path;
	const rest = path.slice(best.real === "/" ? 1 : best.real.length).replace(/^\//, "");
	return rest === "" ? best.named : joinLinkTarget(best.named, rest);
}

/**
 * The class a link gives a judged path, beyond its name's: undefined when the shell did not check links
 * (`links` missing) or the path leads nowhere else; the target's class when it does; `protected` (always
 * reviewed) when the shell could not tell where it leads.
 *
 * @param key the path as the shell followed it ({@link bashPathLinkKey}, or the normalized path for Pi's tools)
 * @param named the normalized path the floor judged by name
 * @param classify the class of a path by its name, as the caller judges reads or writes
 * @param followsLast false when the command acts on the last part itself (`rm`, the source of `mv`)
 */
export function linkedPathClass(
	links: PathLinkTargets | undefined,
	key: string,
	named: string,
	classify: (path: string) => PathClass,
	followsLast = true,
): PathClass | undefined {
	if (links === undefined) return undefined;
	const target = linkTargetOf(links, key, followsLast);
	if (target === null) return "protected";
	return target === named ? undefined : classify(target);
}

/**
 * Where a path leads by the shell's facts (see {@link linkedPathClass} for `key` and `followsLast`): its target, or
 * `null` when the shell could not tell or was not asked.
 */
export function linkTargetOf(links: PathLinkTargets, key: string, followsLast = true): string | null {
	const last = followsLast ? undefined : unfollowedLastPart(key);
	const found = links.get(last?.folder ?? key);
	if (found == null) return null;
	return last === undefined ? found : joinLinkTarget(found, last.name);
}
