// The test preflight, as a user on a machine without ripgrep meets it: `vitest run` stops with one line.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { missingTestTools, testPreflightProblem } from "../src/preflight.ts";

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");
const vitestCli = join(repoRoot, "node_modules", "vitest", "vitest.mjs");
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A PATH of one temp folder holding executables with the given names (each a tiny shell script). */
function pathWith(...names: string[]): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-policy-preflight-"));
	dirs.push(dir);
	for (const name of names) {
		writeFileSync(join(dir, name), "#!/bin/sh\nexit 0\n");
		chmodSync(join(dir, name), 0o755);
	}
	return dir;
}

describe("test preflight", () => {
	it("names what is missing, and accepts fdfind for fd", () => {
		expect(missingTestTools(pathWith("rg", "fd"))).toEqual([]);
		expect(missingTestTools(pathWith("rg", "fdfind"))).toEqual([]);
		expect(missingTestTools(pathWith("fd"))).toEqual(["ripgrep (rg)"]);
		expect(missingTestTools(pathWith("rg"))).toEqual(["fd (fd or fdfind)"]);
		expect(missingTestTools("")).toEqual(["ripgrep (rg)", "fd (fd or fdfind)"]);
		expect(testPreflightProblem(pathWith("rg", "fd"))).toBeUndefined();
	});

	it("a non-executable file does not count as the tool", () => {
		const dir = pathWith("fd");
		writeFileSync(join(dir, "rg"), "not a program\n");
		chmodSync(join(dir, "rg"), 0o644);
		expect(missingTestTools(dir)).toEqual(["ripgrep (rg)"]);
	});

	it("stops `vitest run` with one line when rg is missing from PATH", () => {
		// fd is present (a stub: the run must stop before any tool is used).
		const path = pathWith("fd");
		const run = spawnSync(
			process.execPath,
			[vitestCli, "run", "--config", "vitest.config.ts", "packages/policy-kernel/test/text.test.ts"],
			{ cwd: repoRoot, env: { ...process.env, PATH: path, CI: "1" }, encoding: "utf8", timeout: 60_000 },
		);
		const expected = testPreflightProblem(path);
		expect(expected).toBe(
			"pnpm test needs ripgrep (rg) on PATH for Pi's grep and find tools: " +
				"install with `apt-get install ripgrep` (Debian/Ubuntu) or `brew install ripgrep` (macOS).",
		);
		expect(run.status).toBe(1);
		const lines = `${run.stdout}\n${run.stderr}`.split("\n").filter((line) => line.trim() !== "");
		expect(lines.filter((line) => line === expected)).toHaveLength(1);
		expect(lines.filter((line) => line.includes("ripgrep"))).toHaveLength(1);
		// No test ran: the run stopped before any file.
		expect(`${run.stdout}${run.stderr}`).not.toMatch(/Test Files|✓|×|FAIL/);
		expect(lines.length).toBeLessThanOrEqual(4);
	});
});
