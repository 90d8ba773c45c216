// The fingerprint `/guardian allow-once` keeps of the files a granted action names.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actionFingerprint, MAX_FINGERPRINT_PATHS } from "../src/grant-fingerprint.ts";

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

	it("looks at no more than the bound of words, and never throws on odd input", () => {
		const many = Array.from({ length: MAX_FINGERPRINT_PATHS }, (_, n) => `f${n}`).join(" ");
		const before = actionFingerprint("bash", { command: `${many} build.sh` }, cwd);
		writeFileSync(join(cwd, "build.sh"), "changed\n");
		expect(actionFingerprint("bash", { command: `${many} build.sh` }, cwd)).toBe(before);
		expect(actionFingerprint("bash", null, cwd)).toMatch(/^[0-9a-f]{64}$/);
		expect(actionFingerprint("bash", { command: "\u0000" }, cwd)).toMatch(/^[0-9a-f]{64}$/);
	});
});
