// The CLI's exit codes at two edges: --since after --until is bad usage (2, with the reason), and a file that was
// listed but cannot be read when its turn comes is unreadable input (1, and the CLI says it skipped it).
import { unlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeGateCorpus } from "./support/corpus.ts";
import { runCapturedCli } from "./support/run-cli.ts";

const cli = runCapturedCli;

let root: string;

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "policy-report-gaps-"));
});
afterAll(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("pi-policy-report exit codes", () => {
	it("--since after --until exits 2 with a clear message and the usage, and prints no report", async () => {
		const dir = join(root, "window");
		await writeGateCorpus(dir, { sessions: 2, users: 1 });
		const result = await cli([dir, "--json", "--since", "2026-03-10T00:00:00Z", "--until", "2026-03-01T00:00:00Z"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("pi-policy-report: --since is after --until\n");
		expect(result.stderr).toContain("Usage: pi-policy-report");
		expect(result.stdout).toBe("");
	});

	it("a file listed at the start but gone when it is read exits 1 and says one file could not be read", async () => {
		const dir = join(root, "vanishing");
		const paths = await writeGateCorpus(dir, { sessions: 2, users: 1 });
		expect(paths.map((path) => path.slice(dir.length))).toEqual([
			"/--user-0--/gate-0000-user0.jsonl",
			"/--user-0--/gate-0001-user0.jsonl",
		]);
		// The progress bar (a TTY) first draws while the first file is read: the second file goes then.
		let removed = false;
		const result = await cli([dir, "--json"], {
			tty: true,
			onStderr: () => {
				if (removed) return;
				removed = true;
				unlinkSync(paths[1] as string);
			},
		});
		expect(removed).toBe(true);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("pi-policy-report: 1 file(s) could not be read\n");
		const report = JSON.parse(result.stdout) as {
			sessions: number;
			skipped: { lines: number; files: number; notSessions: number };
		};
		expect(report.sessions).toBe(1);
		expect(report.skipped).toEqual({ lines: 0, files: 1, notSessions: 0 });
	});
});
