// Seventy-first review: grep judged both ways where options may end at the first operand (floor.ts judgeSearch,
// filesWhereOptionsEnd). A long option word the scan files under `operands` was left out of the file reading (the "bypass" rows failed before the fix).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CWD, HOME, LINUX_CONTEXT, MACOS_CONTEXT, POSIXLY_CORRECT_CONTEXT, withLinks } from "./floor-outcome.js";

const _linux = LINUX_CONTEXT;
const macos = MACOS_CONTEXT;
const posixlyCorrect = POSIXLY_CORRECT_CONTEXT;

describe.each([
	["macOS", macos],
	["POSIXLY_CORRECT", posixlyCorrect],
])("grep on %s (seventy-first review)", (_, context) => {
	it.each([
		["grep -n TODO notes.txt --line-number", "--line-number"],
		["grep TODO notes.txt --ignore-case", "--ignore-case"],
		["grep -n TODO notes.txt --with-filename", "--with-filename"],
		["grep TODO notes.txt --count", "--count"],
		["grep TODO notes.txt --inc=x.py", "--inc=x.py"],
		["grep TODO notes.txt --binary-files=text", "--binary-files=text"],
	])("bypass: %s reads a link %s the repository ships (-> ~/.ssh/id_rsa) as a file, unjudged", (command, word) => {
		expect(withLinks(command, context, { [`${CWD}/${word}`]: `${HOME}/.ssh/id_rsa` })).not.toMatch(/^allow/);
	});

	it("bypass: `grep -rn TODO src --line-number` follows a link `--line-number` -> ~/.ssh as a search root", () => {
		expect(
			withLinks("grep -rn TODO src --line-number", context, { [`${CWD}/--line-number`]: `${HOME}/.ssh` }),
		).not.toMatch(/^allow/);
	});
});

describe("what grep does with such a word (seventy-first review)", () => {
	it("GNU grep under POSIXLY_CORRECT reads `--line-number` after the first operand as a file, through a link", () => {
		const dir = mkdtempSync(join(tmpdir(), "r71-grep-"));
		try {
			writeFileSync(join(dir, "secret"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
			writeFileSync(join(dir, "notes.txt"), "nothing\n");
			symlinkSync(join(dir, "secret"), join(dir, "--line-number"));
			const out = execFileSync("grep", ["-e", "-", "notes.txt", "--line-number"], {
				cwd: dir,
				env: { ...process.env, POSIXLY_CORRECT: "1" },
			}).toString();
			expect(out).toContain("--line-number:-----BEGIN OPENSSH PRIVATE KEY-----");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
