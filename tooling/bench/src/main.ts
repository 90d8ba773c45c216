// pnpm bench: runs every workload in one process and writes bench/results.json and bench/results.md.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderMarkdown } from "./report.ts";
import type { BenchResult } from "./types.ts";
import { loadWorkloads } from "./workloads.ts";

async function main(argv: string[]): Promise<number> {
	const workloads = await loadWorkloads();
	const onlyAt = argv.indexOf("--only");
	const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
	const selected = only ? workloads.filter((w) => w.id === only) : workloads;
	const results: BenchResult[] = [];
	for (const workload of selected) {
		console.log(`running ${workload.id} …`);
		results.push(await workload.run());
	}
	const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
	const outAt = argv.indexOf("--out");
	const outDir = outAt >= 0 && argv[outAt + 1] ? resolve(argv[outAt + 1] as string) : join(repoRoot, "bench");
	await mkdir(outDir, { recursive: true });
	const meta = { date: new Date().toISOString(), node: process.version };
	await writeFile(join(outDir, "results.json"), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
	const markdown = renderMarkdown(results, meta);
	await writeFile(join(outDir, "results.md"), markdown);
	console.log(`\n${markdown}`);
	console.log(`wrote ${join(outDir, "results.json")} and ${join(outDir, "results.md")}`);
	const failed = results.flatMap((r) => r.checks.filter((c) => !c.passed).map((c) => `${r.id}: ${c.name}`));
	for (const failure of failed) console.error(`check failed: ${failure}`);
	return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
