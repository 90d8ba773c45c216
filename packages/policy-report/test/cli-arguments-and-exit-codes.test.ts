// The CLI's answers to bad and edge arguments: a flag where --html wants its file, relative durations in minutes
// and hours, --help, an --html file that cannot be written, an unknown flag, a window of one instant, and a glob
// that matches nothing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTimeArg } from "../src/cli.ts";
import { writeGateCorpus } from "./support/corpus.ts";
import { runCapturedCli as cli } from "./support/run-cli.ts";

let root: string;

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "policy-report-cli-args-"));
});
afterAll(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("pi-policy-report arguments", () => {
	it("--html followed by another flag is bad usage (2): it never writes a file named --json", async () => {
		const result = await cli([join(root, "none"), "--html", "--json"]);
		expect(result.code).toBe(2);
		expect(result.stderr.startsWith("pi-policy-report: --html needs a file\nUsage: pi-policy-report")).toBe(true);
		expect(result.stdout).toBe("");
	});

	it("an unknown flag is bad usage (2) with the fixed wording and the usage, not the flag", async () => {
		const result = await cli(["--verbose-secret"]);
		expect(result.code).toBe(2);
		expect(result.stderr.startsWith("pi-policy-report: unknown option\nUsage: pi-policy-report")).toBe(true);
		expect(result.stderr).not.toContain("verbose-secret");
		expect(result.stdout).toBe("");
	});

	it("--help prints the usage on stdout and exits 0", async () => {
		for (const flag of ["--help", "-h"]) {
			const result = await cli([flag]);
			expect(result.code).toBe(0);
			expect(result.stdout.startsWith("Usage: pi-policy-report [paths or globs...]")).toBe(true);
			expect(result.stderr).toBe("");
		}
	});

	it("reads 30m, 12h and 14d as minutes, hours and days before now", () => {
		const now = 1_000_000_000_000;
		expect(parseTimeArg("30m", now)).toBe(999_998_200_000);
		expect(parseTimeArg("12h", now)).toBe(999_956_800_000);
		expect(parseTimeArg("14d", now)).toBe(998_790_400_000);
		expect(parseTimeArg("soon", now)).toBeUndefined();
	});

	it("accepts --since equal to --until (one instant) and exits 0", async () => {
		const dir = join(root, "instant");
		await writeGateCorpus(dir, { sessions: 1, users: 1 });
		const at = "2026-03-05T00:00:00Z";
		const result = await cli([dir, "--json", "--since", at, "--until", at]);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe("");
		expect(JSON.parse(result.stdout)).toMatchObject({ skipped: { lines: 0, files: 0 } });
	});

	it("an --html file that cannot be written exits 1 and says so, after printing the report", async () => {
		const dir = join(root, "html");
		await writeGateCorpus(dir, { sessions: 1, users: 1 });
		const result = await cli([dir, "--json", "--html", join(root, "no-such-folder", "report.html")]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe("pi-policy-report: cannot write the --html file\n");
		expect(JSON.parse(result.stdout)).toMatchObject({ skipped: { lines: 0, files: 0 } });
	});

	it("a glob that matches nothing exits 1 and says that nothing matched", async () => {
		const glob = join(root, "nothing-here-*.jsonl");
		const result = await cli([glob]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(`pi-policy-report: no files match: ${glob}\n`);
		expect(result.stdout).toBe("");
	});
});
