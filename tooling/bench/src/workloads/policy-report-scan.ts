// pi-policy-report scan: 2,000 generated session files (>= 500 MB, written to a temp dir at bench time and removed
// after), read by the real CLI in a child process; its wall time against `wc -l` on the same files, and its peak RSS.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { writeGateCorpus } from "../../../../packages/policy-report/test/support/corpus.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL("../../../../packages/policy-report/", import.meta.url));
const BUILT = join(PACKAGE, "dist/cli.js");
const SOURCE = join(PACKAGE, "src/bin.ts");
/** Prints the child's peak RSS (bytes) on exit, then loads the CLI given as the first argument. */
const RSS_PROBE =
	"process.on('exit',()=>process.stderr.write('\\nMAXRSS '+process.resourceUsage().maxRSS*1024+'\\n'));" +
	"await import((await import('node:url')).pathToFileURL(process.argv[1]).href);";

/** The CLI's peak RSS and time over `files` (all paths given, as a user would pass a glob's expansion). */
async function timeReport(dir: string): Promise<{ ms: number; maxRss: number; sessions: number }> {
	const built = existsSync(BUILT);
	const args = [
		...(built ? [] : ["--import", "tsx"]),
		"--input-type=module",
		"-e",
		RSS_PROBE,
		built ? BUILT : SOURCE,
		dir,
		"--json",
	];
	const start = performance.now();
	const { stdout, stderr } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024, cwd: PACKAGE });
	const ms = performance.now() - start;
	const rss = /MAXRSS (\d+)/.exec(stderr);
	const report = JSON.parse(stdout) as { sessions: number };
	return { ms, maxRss: rss ? Number(rss[1]) : Number.NaN, sessions: report.sessions };
}

async function timeWc(files: string[]): Promise<{ ms: number; lines: number }> {
	const start = performance.now();
	const { stdout } = await run("wc", ["-l", ...files], { maxBuffer: 64 * 1024 * 1024 });
	const ms = performance.now() - start;
	const total = /(\d+)\s+total\s*$/.exec(stdout.trim());
	return { ms, lines: total ? Number(total[1]) : 0 };
}

/** Build the workload; tests use a small corpus, `pnpm bench` the full one. */
export function policyReportScanWorkload(files = 2000, fillerBytesPerFile = 264_000): BenchWorkload {
	return {
		id: "policy-report-scan",
		title: `pi-policy-report scan: ${files} session files, streaming, against wc -l on the same files`,
		async run(): Promise<BenchResult> {
			const dir = await mkdtemp(join(tmpdir(), "policy-report-scan-"));
			try {
				// 40 gate sessions per batch, 14-day spread; repeated in folders until `files` sessions exist.
				const paths: string[] = [];
				for (let batch = 0; paths.length < files; batch++) {
					const count = Math.min(40, files - paths.length);
					paths.push(
						...(await writeGateCorpus(join(dir, `batch-${batch}`), {
							sessions: count,
							fillerBytes: fillerBytesPerFile,
							idPrefix: `b${batch}-`,
						})),
					);
				}
				let bytes = 0;
				for (const path of paths) bytes += (await stat(path)).size;
				// Warm the page cache for both sides, then measure wc first and the report second, twice; keep the best.
				await timeWc(paths);
				const wc = [await timeWc(paths), await timeWc(paths)];
				const report = [await timeReport(dir), await timeReport(dir)];
				const wcMs = Math.min(...wc.map((r) => r.ms));
				const reportMs = Math.min(...report.map((r) => r.ms));
				const maxRss = Math.max(...report.map((r) => r.maxRss));
				return {
					id: "policy-report-scan",
					title: this.title,
					figures: [
						{ name: "session files", value: paths.length, unit: "count" },
						{ name: "corpus size", value: bytes, unit: "bytes" },
						{ name: "lines (wc -l)", value: wc[0]?.lines ?? 0, unit: "count" },
						{ name: "report time / wc -l time", value: reportMs / wcMs, unit: "ratio" },
						{
							name: "report throughput (bytes per second)",
							value: Math.round(bytes / (reportMs / 1000)),
							unit: "count",
						},
						{ name: "peak RSS of the report", value: maxRss, unit: "bytes" },
					],
					checks: [
						{ name: "every session counted", passed: report.every((r) => r.sessions === paths.length) },
						{ name: "corpus >= 500 MB (full run)", passed: files < 2000 || bytes >= 500 * 1024 * 1024 },
						{ name: "peak RSS < 150 MB", passed: maxRss < 150 * 1024 * 1024 },
					],
				};
			} finally {
				await rm(dir, { recursive: true, force: true });
			}
		},
	};
}

export default policyReportScanWorkload();
