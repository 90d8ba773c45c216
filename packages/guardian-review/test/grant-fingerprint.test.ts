// The fingerprint `/guardian allow-once` keeps with a grant: the whole workspace, and the paths outside it the action
// names. Each case is a rewrite a grant must notice (a sixtieth and a sixty-first review), or a bound.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actionFingerprint, fingerprintCovers, MAX_FINGERPRINT_NAMED_PATHS } from "../src/grant-fingerprint.ts";

let cwd: string;
let outside: string;
beforeEach(() => {
	cwd = mkdtempSync(join(tmpdir(), "grant-fingerprint-"));
	outside = mkdtempSync(join(tmpdir(), "grant-fingerprint-outside-"));
	writeFileSync(join(cwd, "build.sh"), "echo building\n");
});
afterEach(() => {
	rmSync(cwd, { recursive: true, force: true });
	rmSync(outside, { recursive: true, force: true });
});

/** Whether rewriting `file` after the fingerprint of `command` changes it. */
function noticed(command: string, file: string, home?: string): boolean {
	const before = actionFingerprint("bash", { command }, cwd, home);
	expect(actionFingerprint("bash", { command }, cwd, home)).toBe(before);
	writeFileSync(file, `echo pwned ${command.length}\n`);
	return actionFingerprint("bash", { command }, cwd, home) !== before;
}

describe("actionFingerprint", () => {
	it("notices a rewrite of any workspace file, named or not, however the command spells it", () => {
		mkdirSync(join(cwd, "sub", "deeper"), { recursive: true });
		const cases: Array<[string, string]> = [
			["sh build.sh", "build.sh"],
			["sh bui\\ld.sh", "build.sh"],
			["sh b''uild.sh", "build.sh"],
			['sh "build".sh', "build.sh"],
			["sh ~+/build.sh", "build.sh"],
			["sh /proc/self/cwd/build.sh", "build.sh"],
			["cd sub && cd deeper && sh build.sh", "sub/deeper/build.sh"],
			["cd s*/deeper && sh build.sh", "sub/deeper/build.sh"],
			["make -fbuild.mk", "build.mk"],
			["PATH=bin:/usr/bin:/bin mytool", "bin/mytool"],
			["npm test", "package.json"],
			["node .", "index.js"],
		];
		for (const [command, file] of cases) {
			if (file === "bin/mytool") mkdirSync(join(cwd, "bin"), { recursive: true });
			expect(noticed(command, join(cwd, file)), command).toBe(true);
		}
	});

	it("notices a link's target rewritten, and a file that appears or disappears", () => {
		writeFileSync(join(cwd, "real.sh"), "echo real\n");
		symlinkSync("real.sh", join(cwd, "run.sh"));
		expect(noticed("sh run.sh", join(cwd, "real.sh"))).toBe(true);
		writeFileSync(join(outside, "target.sh"), "echo outside\n");
		symlinkSync(join(outside, "target.sh"), join(cwd, "out.sh"));
		expect(noticed("sh out.sh", join(outside, "target.sh"))).toBe(true);
		const before = actionFingerprint("bash", { command: "ls" }, cwd);
		rmSync(join(cwd, "build.sh"));
		expect(actionFingerprint("bash", { command: "ls" }, cwd)).not.toBe(before);
	});

	it("notices a rewrite outside the workspace of a path the action names: absolute, relative, under home", () => {
		const home = mkdtempSync(join(tmpdir(), "grant-fingerprint-home-"));
		try {
			mkdirSync(join(outside, "tools"));
			const cases: Array<[string, string]> = [
				[`sh ${outside}/run.sh`, join(outside, "run.sh")],
				[`sh "${outside}"/run2.sh`, join(outside, "run2.sh")],
				[`cd ${outside}/tools && sh run.sh`, join(outside, "tools", "run.sh")],
				[`sh ../${outside.split("/").pop()}/rel.sh`, join(outside, "rel.sh")],
				["sh ~/deploy.sh", join(home, "deploy.sh")],
				["sh $HOME/deploy.sh", join(home, "deploy.sh")],
				["sh $\u007BHOME}/deploy.sh", join(home, "deploy.sh")],
			];
			for (const [command, file] of cases) {
				expect(noticed(command, file, home), command).toBe(true);
			}
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it("counts a workspace link to a folder outside as outside: its files are looked up where they are", () => {
		mkdirSync(join(outside, "lib", "deeper"), { recursive: true });
		symlinkSync(join(outside, "lib"), join(cwd, "lib"));
		const cases: Array<[string, string]> = [
			["sh lib/build.sh", join(outside, "lib", "build.sh")],
			["cd lib && sh build2.sh", join(outside, "lib", "build2.sh")],
			["cd lib && cd deeper && sh build3.sh", join(outside, "lib", "deeper", "build3.sh")],
		];
		for (const [command, file] of cases) {
			writeFileSync(file, "echo building\n");
			expect(noticed(command, file), command).toBe(true);
		}
		const many = Array.from({ length: 9 }, (_, n) => `/tmp/folder-${n}`);
		for (const folder of many) mkdirSync(join(outside, folder.slice(5)), { recursive: true });
		const folders = many.map((folder) => join(outside, folder.slice(5))).join(" ");
		expect(fingerprintCovers(actionFingerprint("bash", { command: `ls ${folders}` }, cwd))).toBe(false);
	});

	it("reads other tools' path arguments, not their multi-line content", () => {
		const input = { path: join(outside, "notes.md"), content: "line 1\nline 2\n" };
		const before = actionFingerprint("write", input, cwd);
		writeFileSync(join(outside, "notes.md"), "changed\n");
		expect(actionFingerprint("write", input, cwd)).not.toBe(before);
	});

	it("notices a rewritten git object, and a file rewritten in a folder outside that a workspace link points at", () => {
		mkdirSync(join(cwd, ".git", "objects", "ab"), { recursive: true });
		writeFileSync(join(cwd, ".git", "objects", "ab", "cdef"), "blob\n");
		expect(noticed("git show HEAD:build.sh | sh", join(cwd, ".git", "objects", "ab", "cdef"))).toBe(true);
		mkdirSync(join(outside, "shared", "deeper"), { recursive: true });
		writeFileSync(join(outside, "shared", "deeper", "helper.sh"), "echo help\n");
		symlinkSync(join(outside, "shared"), join(cwd, "lib"));
		// A loop back to the linked folder is followed once.
		symlinkSync(join(outside, "shared"), join(outside, "shared", "deeper", "again"));
		expect(noticed("sh build.sh", join(outside, "shared", "deeper", "helper.sh"))).toBe(true);
	});

	it("cannot cover a workspace over the bound, too many named paths, or another user's `~`", () => {
		for (let n = 0; n < 5; n++) writeFileSync(join(cwd, `f${n}`), "");
		const large = actionFingerprint("bash", { command: "sh build.sh" }, cwd, undefined, 4);
		expect(fingerprintCovers(large)).toBe(false);
		expect(actionFingerprint("bash", { command: "sh build.sh" }, cwd, undefined, 4)).not.toBe(large);
		expect(fingerprintCovers(actionFingerprint("bash", { command: "sh build.sh" }, cwd, undefined, 6))).toBe(true);
		const many = Array.from({ length: MAX_FINGERPRINT_NAMED_PATHS + 1 }, (_, n) => `/tmp/f${n}`).join(" ");
		expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${many}; sh build.sh` }, cwd))).toBe(false);
		expect(fingerprintCovers(actionFingerprint("bash", { command: "sh ~root/x.sh" }, cwd))).toBe(false);
	});

	it("never throws on odd input", () => {
		for (const input of [null, 5, "text", { command: "\u0000" }, { command: 7 }, []]) {
			expect(fingerprintCovers(actionFingerprint("bash", input, cwd))).toBe(true);
		}
		expect(fingerprintCovers(actionFingerprint("bash", { command: "ls" }, join(cwd, "missing")))).toBe(true);
	});
});
