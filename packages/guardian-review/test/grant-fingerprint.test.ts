// The fingerprint `/guardian allow-once` keeps of the files a granted action names.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actionFingerprint, MAX_FINGERPRINT_LOOKUPS } from "../src/grant-fingerprint.ts";

let cwd: string;
beforeEach(() => {
	cwd = mkdtempSync(join(tmpdir(), "grant-fingerprint-"));
	writeFileSync(join(cwd, "build.sh"), "echo building\n");
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe("actionFingerprint", () => {
	it("is the same while the named files are unchanged, and differs once one is rewritten", () => {
		const before = actionFingerprint("bash", { command: "sh build.sh" }, cwd);
		expect(actionFingerprint("bash", { command: "sh build.sh" }, cwd)).toBe(before);
		writeFileSync(join(cwd, "build.sh"), "echo pwned\n");
		expect(actionFingerprint("bash", { command: "sh build.sh" }, cwd)).not.toBe(before);
	});

	it("notices a named file that appears or disappears", () => {
		const before = actionFingerprint("bash", { command: "sh later.sh && cat build.sh" }, cwd);
		writeFileSync(join(cwd, "later.sh"), "echo x\n");
		expect(actionFingerprint("bash", { command: "sh later.sh && cat build.sh" }, cwd)).not.toBe(before);
	});

	it("reads other tools' path arguments, not their multi-line content", () => {
		const input = { path: "build.sh", content: "line 1\nline 2\n" };
		const before = actionFingerprint("write", input, cwd);
		writeFileSync(join(cwd, "build.sh"), "changed\n");
		expect(actionFingerprint("write", input, cwd)).not.toBe(before);
	});

	it("follows a link to what it points at: rewriting the target changes the fingerprint of the link's name", () => {
		writeFileSync(join(cwd, "real.sh"), "echo real\n");
		symlinkSync("real.sh", join(cwd, "run.sh"));
		const before = actionFingerprint("bash", { command: "sh run.sh" }, cwd);
		writeFileSync(join(cwd, "real.sh"), "echo pwned, and longer\n");
		expect(actionFingerprint("bash", { command: "sh run.sh" }, cwd)).not.toBe(before);
	});

	it("reads words relative to the folders the action names, as `cd sub && sh build.sh` runs them", () => {
		mkdirSync(join(cwd, "sub"));
		writeFileSync(join(cwd, "sub", "build.sh"), "echo sub\n");
		for (const command of ["cd sub && sh build.sh", "sh -c 'cd sub; sh build.sh'", "(cd sub && bash build.sh)"]) {
			const before = actionFingerprint("bash", { command }, cwd);
			writeFileSync(join(cwd, "sub", "build.sh"), `echo pwned ${command.length}\n`);
			expect(actionFingerprint("bash", { command }, cwd), command).not.toBe(before);
		}
	});

	it("reads `~/…` and `$HOME/…` under home", () => {
		const home = mkdtempSync(join(tmpdir(), "grant-fingerprint-home-"));
		try {
			writeFileSync(join(home, "deploy.sh"), "echo deploy\n");
			for (const command of ["sh ~/deploy.sh", "sh $HOME/deploy.sh", "sh $\u007BHOME}/deploy.sh"]) {
				const before = actionFingerprint("bash", { command }, cwd, home);
				writeFileSync(join(home, "deploy.sh"), `echo pwned ${command.length}\n`);
				expect(actionFingerprint("bash", { command }, cwd, home), command).not.toBe(before);
			}
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it("reads every entry of the folder a glob or brace word matches in", () => {
		mkdirSync(join(cwd, "scripts"));
		writeFileSync(join(cwd, "scripts", "build.sh"), "echo build\n");
		for (const command of ["sh buil?.sh", "sh b*.sh", "sh {build,none}.sh", "sh scripts/b*.sh"]) {
			const before = actionFingerprint("bash", { command }, cwd);
			const target = command.includes("scripts/") ? join(cwd, "scripts", "build.sh") : join(cwd, "build.sh");
			writeFileSync(target, `echo pwned ${command.length}\n`);
			expect(actionFingerprint("bash", { command }, cwd), command).not.toBe(before);
		}
	});

	it("never matches again when the action names more than it can look at, and never throws on odd input", () => {
		const many = Array.from({ length: MAX_FINGERPRINT_LOOKUPS }, (_, n) => `f${n}`).join(" ");
		const padded = { command: `true ${many}; sh build.sh` };
		expect(actionFingerprint("bash", padded, cwd)).not.toBe(actionFingerprint("bash", padded, cwd));
		const within = { command: `true ${many.split(" ").slice(0, 64).join(" ")}; sh build.sh` };
		const before = actionFingerprint("bash", within, cwd);
		expect(actionFingerprint("bash", within, cwd)).toBe(before);
		writeFileSync(join(cwd, "build.sh"), "changed\n");
		expect(actionFingerprint("bash", within, cwd)).not.toBe(before);
		expect(actionFingerprint("bash", null, cwd)).toMatch(/^[0-9a-f]{64}$/);
		expect(actionFingerprint("bash", { command: "\u0000" }, cwd)).toMatch(/^[0-9a-f]{64}$/);
	});
});
