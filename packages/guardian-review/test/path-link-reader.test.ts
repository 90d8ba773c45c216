// The shell's link reader on real links: where a path leads as the system resolves it, named through the
// workspace and home (decision 0023).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeShellSetup } from "@pi-policy/policy-kernel/guardian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createPathEntryLookup,
	createPathLinkReader,
	followPathLinks,
	readPathLinks,
	readShellSetupRealPaths,
} from "../src/path-link-reader.ts";

let root: string;
let home: string;
let ws: string;

beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "guardian-links-")));
	home = join(root, "home");
	ws = join(home, "project");
	mkdirSync(join(home, ".kube"), { recursive: true });
	writeFileSync(join(home, ".kube", "config"), "x\n");
	mkdirSync(join(ws, "src"), { recursive: true });
	writeFileSync(join(ws, "README.md"), "# r\n");
	symlinkSync("..", join(ws, "up"));
	symlinkSync(join(home, ".kube"), join(ws, "kube"));
	symlinkSync("../README.md", join(ws, "src", "readme.md"));
	symlinkSync(join(home, "not-yet"), join(ws, "dangling"));
	symlinkSync("loop-b", join(ws, "loop-a"));
	symlinkSync("loop-a", join(ws, "loop-b"));
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("followPathLinks", () => {
	it("follows relative and absolute links part by part, and `..` after a link from its target", async () => {
		const look = createPathEntryLookup();
		expect(followPathLinks(`${ws}/up/.kube/config`, look)).toBe(`${home}/.kube/config`);
		expect(followPathLinks(`${ws}/kube/config`, look)).toBe(`${home}/.kube/config`);
		expect(followPathLinks(`${ws}/kube/../project/README.md`, look)).toBe(`${ws}/README.md`);
		expect(followPathLinks(`${ws}/src/readme.md`, look)).toBe(`${ws}/README.md`);
		expect(followPathLinks(`${ws}/src/./new.txt`, look)).toBe(`${ws}/src/new.txt`);
	});

	it("takes a missing tail as named (a dangling link leads to what a write creates) and a loop as unknown", async () => {
		const look = createPathEntryLookup();
		expect(followPathLinks(`${ws}/dangling`, look)).toBe(`${home}/not-yet`);
		expect(followPathLinks(`${ws}/new/deeper/file`, look)).toBe(`${ws}/new/deeper/file`);
		expect(followPathLinks(`${ws}/README.md/x`, look)).toBe(`${ws}/README.md/x`);
		expect(followPathLinks(`${ws}/loop-a`, look)).toBeUndefined();
	});

	it("is unknown for `..` below a missing part, which the call may create first, even as a link", async () => {
		const look = createPathEntryLookup();
		// `mkdir m && cat m/../kube/config`: by text `m/..` is the workspace, but `kube` is a link home.
		expect(followPathLinks(`${ws}/m/../kube/config`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/m/n/../../kube/config`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/dangling/../x`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/m/./n`, look)).toBe(`${ws}/m/n`);
	});

	it("while another call runs, is unknown for a path with a missing part, which that call may make (a twentieth review)", async () => {
		const look = createPathEntryLookup();
		// `mv root n2` beside `cat n2/.kube/config`: n2 is missing when the second call is decided.
		expect(followPathLinks(`${ws}/n2/.kube/config`, look, [], true)).toBeUndefined();
		expect(followPathLinks(`${ws}/new.txt`, look, [], true)).toBeUndefined();
		expect(followPathLinks(`${ws}/README.md`, look, [], true)).toBe(`${ws}/README.md`);
		expect(followPathLinks(`${ws}/kube/config`, look, [], true)).toBe(`${home}/.kube/config`);
	});

	it("is unknown for a missing name whose folder holds it in another Unicode form (a twenty-first review)", async () => {
		// The MCP filesystem server opens `\u212Aey` (KELVIN SIGN) for a missing `Key`: NFC makes it `Key`.
		symlinkSync("../.kube/config", join(ws, "\u212Aey"));
		symlinkSync("README.md", join(ws, "a\u037Eb"));
		writeFileSync(join(ws, "cafe\u0301"), "x\n");
		const look = createPathEntryLookup();
		expect(followPathLinks(`${ws}/Key`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/Key/deeper`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/a;b`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/caf\u00e9`, look)).toBeUndefined();
		// The entry itself, other missing names, and names no other form can reach, as before.
		expect(followPathLinks(`${ws}/\u212Aey`, look)).toBe(`${home}/.kube/config`);
		expect(followPathLinks(`${ws}/Keys`, look)).toBe(`${ws}/Keys`);
		expect(followPathLinks(`${ws}/src/Key`, look)).toBe(`${ws}/src/Key`);
		expect(followPathLinks(`${ws}/new.txt`, look)).toBe(`${ws}/new.txt`);
	});

	it("is unknown for a missing name with a look-alike character in a folder too large to compare", async () => {
		mkdirSync(join(ws, "big"));
		for (let i = 0; i <= 4_096; i++) writeFileSync(join(ws, "big", `f${i}`), "");
		const look = createPathEntryLookup();
		expect(followPathLinks(`${ws}/big/Key`, look)).toBeUndefined();
		expect(followPathLinks(`${ws}/big/new.txt`, look)).toBe(`${ws}/big/new.txt`);
	});

	it("is unknown when a part cannot be looked up", async () => {
		const failing = () => {
			throw Object.assign(new Error("denied"), { code: "EACCES" });
		};
		expect(followPathLinks(`${ws}/x`, failing)).toBeUndefined();
	});
});

describe("createPathLinkReader", () => {
	it("keeps the roots' real paths until invalidated, and follows the paths on every call", () => {
		const linkedHome = join(root, "linked-home");
		symlinkSync(home, linkedHome);
		const reader = createPathLinkReader();
		const context = { cwd: ws, home: linkedHome };
		expect(reader.read([`${ws}/kube/config`], context).get(`${ws}/kube/config`)).toBe(`${linkedHome}/.kube/config`);
		// Home is linked elsewhere: the kept root still names the old place until the reader is invalidated.
		rmSync(linkedHome);
		symlinkSync(root, linkedHome);
		expect(reader.read([`${ws}/kube/config`], context).get(`${ws}/kube/config`)).toBe(`${linkedHome}/.kube/config`);
		reader.invalidate();
		expect(reader.read([`${ws}/kube/config`], context).get(`${ws}/kube/config`)).toBe(
			`${linkedHome}/home/.kube/config`,
		);
		// A path changed since the last call is followed anew.
		symlinkSync(join(home, ".kube", "config"), join(ws, "late"));
		expect(reader.read([`${ws}/late`], context).get(`${ws}/late`)).toBe(`${linkedHome}/home/.kube/config`);
	});
});

describe("readPathLinks", () => {
	it("looks up no part of a root whose real path is its name, and still every part below it", () => {
		const looked: string[] = [];
		const look = createPathEntryLookup();
		const counting = (path: string) => {
			looked.push(path);
			return look(path);
		};
		expect(followPathLinks(`${ws}/src/readme.md`, counting, [ws])).toBe(`${ws}/README.md`);
		expect(looked).toEqual([`${ws}/src`, `${ws}/src/readme.md`, `${ws}/README.md`]);
	});

	it("names each target through the workspace or home, and a loop as null", async () => {
		const links = readPathLinks([`${ws}/kube/config`, `${ws}/src/readme.md`, `${ws}/loop-a`, `${ws}/src`], {
			cwd: ws,
			home,
		});
		expect(Object.fromEntries(links)).toEqual({
			[`${ws}/kube/config`]: `${home}/.kube/config`,
			[`${ws}/src/readme.md`]: `${ws}/README.md`,
			[`${ws}/loop-a`]: null,
			[`${ws}/src`]: `${ws}/src`,
		});
	});

	it("names a target by home's name when home itself is reached through a link", async () => {
		const linkedHome = join(root, "linked-home");
		symlinkSync(home, linkedHome);
		const links = readPathLinks([`${ws}/kube/config`], { cwd: ws, home: linkedHome });
		// The workspace is the deeper root, so a path inside it keeps the workspace's name; the kube config lies in
		// home only, and is named through home's own name.
		expect(links.get(`${ws}/kube/config`)).toBe(`${linkedHome}/.kube/config`);
	});
});

describe("readShellSetupRealPaths", () => {
	it("follows a PATH folder that does not exist yet through the links of its existing parts", () => {
		// A fifteenth review: `node_modules -> vendor/nm` with `.bin` still to be made.
		mkdirSync(join(ws, "vendor", "nm"), { recursive: true });
		symlinkSync("vendor/nm", join(ws, "node_modules"));
		const input = {
			environment: { PATH: `${ws}/node_modules/.bin:~/bin:/usr/bin` },
			workspace: ws,
			home,
		};
		const real = readShellSetupRealPaths(input);
		expect(real.get(`${ws}/node_modules/.bin`)).toBe(`${ws}/vendor/nm/.bin`);
		expect(real.get(`${home}/bin`)).toBe(`${home}/bin`);
		expect(judgeShellSetup({ ...input, realPaths: real }).commandDirectories).toContain(`${ws}/vendor/nm/.bin`);
	});
});
