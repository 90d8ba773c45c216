// pnpm demo: runs scripted, realistic coding sessions in a real Pi session (no API key) and prints
// what reached the model turn by turn. `--only <id>` runs one scenario; `--list` lists them.
import { approxTokens, formatBytes, renderTurnTable } from "./report.ts";
import { runScenario } from "./run.ts";
import { loadScenarios } from "./scenarios.ts";

async function main(argv: string[]): Promise<number> {
	const scenarios = await loadScenarios();
	if (argv.includes("--list")) {
		for (const s of scenarios) console.log(`${s.id.padEnd(20)} ${s.title}`);
		return 0;
	}
	const onlyAt = argv.indexOf("--only");
	const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
	const selected = only ? scenarios.filter((s) => s.id === only) : scenarios;
	if (selected.length === 0) {
		console.error(`Unknown scenario "${only}". Run pnpm demo --list to see the scenarios.`);
		return 2;
	}
	console.log("pi-policy demo: scripted sessions in a real Pi 1.6.0 AgentSession (faux model, no API key)\n");
	for (const scenario of selected) {
		console.log(`== ${scenario.title}`);
		console.log(`   ${scenario.summary}\n`);
		const { rows, notifications, narration } = await runScenario(scenario);
		console.log(renderTurnTable(rows));
		const total = rows.reduce((sum, row) => sum + row.requestBytes, 0);
		console.log(`\n   ${rows.length} requests, ${formatBytes(total)} (~${approxTokens(total)} tokens) sent in total`);
		for (const n of notifications) console.log(`   notify[${n.level}]: ${n.message}`);
		for (const line of narration) console.log(`   ${line}`);
		console.log("");
	}
	return 0;
}

process.exitCode = await main(process.argv.slice(2));
