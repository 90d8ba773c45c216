// Tests a mutation audit of the allow-once fingerprint and process count asked for (55 mutants; each test here
// killed a survivor), and the hole it found: `..` after a workspace link out goes up from where the link leads.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { actionFingerprint, fingerprintCovers } from "../src/grant-fingerprint.ts";
import { sessionProcessIds } from "../src/session-processes.ts";

const countSessionProcesses = (...args: Parameters<typeof sessionProcessIds>) => sessionProcessIds(...args)?.length;

let cwd: string;
let outside: string;
beforeEach(() => {
	cwd = mkdtempSync(join(tmpdir(), "grant-fingerprint-gaps-"));
	outside = mkdtempSync(join(tmpdir(), "grant-fingerprint-gaps-out-"));
});
afterEach(() => {
	rmSync(cwd, { recursive: true, force: true });
	rmSync(outside, { recursive: true, force: true });
	rmSync(`${outside}.ref`, { force: true });
});
/** The file exists before the fingerprint; the rewrite keeps its size. */
function rewritten(command: string, file: string, keepMtime = false): boolean {
	writeFileSync(file, "echo ok\n");
	const before = actionFingerprint("bash", { command }, cwd);
	const ref = `${outside}.ref`;
	execFileSync("touch", ["-r", file, ref]);
	writeFileSync(file, "echo no\n");
	if (keepMtime) execFileSync("touch", ["-r", ref, file]);
	return actionFingerprint("bash", { command }, cwd) !== before;
}
it("notices an outside file named with a backslash inside single quotes (kept as is)", () => {
	expect(rewritten(`sh '${outside}/a\\b.sh'`, join(outside, "a\\b.sh"))).toBe(true);
});
it("notices an outside file named with a backslash escape", () => {
	expect(rewritten(`sh ${outside}/ru\\n.sh`, join(outside, "run.sh"))).toBe(true);
});
it("notices an outside file named through a quoted folder", () => {
	expect(rewritten(`sh "${outside}"/run.sh`, join(outside, "run.sh"))).toBe(true);
});
it("notices an outside file after a colon in an assignment", () => {
	expect(rewritten(`X=a:${outside}/r''un.sh sh`, join(outside, "run.sh"))).toBe(true);
});
it("notices an outside file after an equals sign in an option", () => {
	expect(rewritten(`make --file=${outside}/r''un.mk`, join(outside, "run.mk"))).toBe(true);
});
it("notices a same-size rewrite whose mtime was put back (the change time differs)", () => {
	expect(rewritten(`sh ${outside}/run.sh`, join(outside, "run.sh"), true)).toBe(true);
});

it("does not count its own process", () => {
	mkdirSync(join(outside, String(process.pid)));
	writeFileSync(join(outside, String(process.pid), "environ"), "PI_SESSION_ID=s9\0");
	mkdirSync(join(outside, "1"));
	writeFileSync(join(outside, "1", "environ"), "PI_SESSION_ID=s9\0");
	expect(countSessionProcesses(new Set(["s9"]), outside)).toBe(1);
});
it("a link back into the workspace is not walked again", () => {
	for (let n = 0; n < 4; n++) writeFileSync(join(cwd, `f${n}`), "");
	symlinkSync(".", join(cwd, "self"));
	expect(fingerprintCovers(actionFingerprint("bash", { command: "ls" }, cwd, undefined, 6))).toBe(true);
});
it("goes up from where a workspace link out leads: cd lib && sh ../run.sh", () => {
	mkdirSync(join(outside, "lib"));
	symlinkSync(join(outside, "lib"), join(cwd, "lib"));
	expect(rewritten("cd lib && sh ../run.sh", join(outside, "run.sh"))).toBe(true);
});
it("goes up from where a workspace link out leads: sh lib/../run.sh", () => {
	mkdirSync(join(outside, "lib"));
	symlinkSync(join(outside, "lib"), join(cwd, "lib"));
	expect(rewritten("sh lib/../run.sh", join(outside, "run.sh"))).toBe(true);
});
it("notices a rewrite of an existing outside file named from a folder the action enters", () => {
	mkdirSync(join(outside, "tools"));
	expect(rewritten(`cd ${outside}/tools && sh run.sh`, join(outside, "tools", "run.sh"))).toBe(true);
});
it("a link loop outside is walked once, under a small bound", () => {
	mkdirSync(join(outside, "shared", "deeper"), { recursive: true });
	symlinkSync(join(outside, "shared"), join(cwd, "lib"));
	symlinkSync(join(outside, "shared"), join(outside, "shared", "deeper", "again"));
	expect(fingerprintCovers(actionFingerprint("bash", { command: "ls" }, cwd, undefined, 10))).toBe(true);
});
it("named link-out path whose folder the walk already followed elsewhere", () => {
	mkdirSync(join(outside, "lib"));
	symlinkSync(join(outside, "lib"), join(cwd, "lib"));
	expect(rewritten(`sh lib/run.sh`, join(outside, "lib", "run.sh"))).toBe(true);
});
it("self-linked folders outside stop at the folder cap", () => {
	symlinkSync(".", join(outside, "a"));
	symlinkSync(".", join(outside, "b"));
	expect(fingerprintCovers(actionFingerprint("bash", { command: `cd ${outside} && ls a b` }, cwd))).toBe(false);
}, 5000);
it("more than 1024 distinct words cannot be covered", () => {
	const words = Array.from({ length: 1025 }, (_, n) => `w${n}`).join(" ");
	expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${words}` }, cwd))).toBe(false);
	const fewer = Array.from({ length: 1023 }, (_, n) => `w${n}`).join(" ");
	expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${fewer}` }, cwd))).toBe(true);
});
it("256 named paths are covered, 257 are not", () => {
	const paths = (k: number) => Array.from({ length: k }, (_, n) => `/tmp/zz-none-${n}`).join(" ");
	expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${paths(256)}` }, cwd))).toBe(true);
	expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${paths(257)}` }, cwd))).toBe(false);
});
it("a link to a sibling folder sharing the workspace's name as prefix is followed", () => {
	const sibling = `${cwd}-lib`;
	mkdirSync(sibling);
	try {
		writeFileSync(join(sibling, "helper.sh"), "echo ok\n");
		symlinkSync(sibling, join(cwd, "lib"));
		expect(rewritten("sh main.sh", join(sibling, "helper.sh"))).toBe(true);
	} finally {
		rmSync(sibling, { recursive: true, force: true });
	}
});
it("exactly the bound of processes is still read", () => {
	for (const pid of ["11", "12"]) {
		mkdirSync(join(outside, pid));
		writeFileSync(join(outside, pid, "environ"), "PI_SESSION_ID=other\0");
	}
	expect(countSessionProcesses(new Set(["s3"]), outside, 2)).toBe(0);
});
it("no session ids: none, even without /proc", () => {
	expect(countSessionProcesses(new Set(), join(outside, "missing"))).toBe(0);
});
it("a leader read through readable threads that carry another id does not count", () => {
	mkdirSync(join(outside, "201", "environ"), { recursive: true });
	mkdirSync(join(outside, "201", "task", "202"), { recursive: true });
	writeFileSync(join(outside, "201", "task", "202", "environ"), "PI_SESSION_ID=other\0");
	writeFileSync(join(outside, "201", "status"), "Name:\tx\nThreads:\t2\n");
	expect(countSessionProcesses(new Set(["s5"]), outside)).toBe(0);
});
it("a named outside link whose target is rewritten", () => {
	mkdirSync(join(outside, "a"));
	mkdirSync(join(outside, "b"));
	symlinkSync(join(outside, "b", "target.sh"), join(outside, "a", "link.sh"));
	expect(rewritten(`sh ${outside}/a/link.sh`, join(outside, "b", "target.sh"))).toBe(true);
});
it("257 relative words resolving outside cannot be covered", () => {
	const words = Array.from({ length: 257 }, (_, n) => `../zz-none-${n}`).join(" ");
	expect(fingerprintCovers(actionFingerprint("bash", { command: `true ${words}` }, cwd))).toBe(false);
});
