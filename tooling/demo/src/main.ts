// pnpm demo: one scripted, realistic coding session in real Pi sessions (faux model, no API key), run with stock
// Pi and with the pi-policy extensions, printed side by side, plus an HTML report with a chart.
//   pnpm demo                      stock vs all five extensions
//   pnpm demo --with <extension>   stock vs one extension alone
//   pnpm demo --scenarios          the focused per-extension scenarios (or --scenario <id> for one)
//   pnpm demo --list               list extensions and scenarios
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { approxTokens, formatBytes, renderTurnTable } from "./report.ts";
import { runScenario } from "./run.ts";
import { loadScenarios } from "./scenarios.ts";
import { runSuiteSession, SUITE_EXTENSIONS, type SuiteExtension } from "./suite.ts";
import { renderHeader, renderHtmlReport, renderSideBySide, renderTotals } from "./suite-report.ts";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function flagValue(argv: string[], flag: string): string | undefined {
	const at = argv.indexOf(flag);
	return at >= 0 ? argv[at + 1] : undefined;
}

async function runSuite(extensions: SuiteExtension[], label: string, reportPath: string): Promise<void> {
	console.log(`${renderHeader(label).join("\n")}\n`);
	const stock = await runSuiteSession([], "stock Pi");
	const policy = await runSuiteSession(extensions, label);
	console.log(renderSideBySide(stock, policy));
	console.log("");
	console.log(renderTotals(stock, policy));
	await writeFile(reportPath, renderHtmlReport(stock, policy));
	console.log(`\nHTML report with the context chart: ${resolve(reportPath)}`);
	console.log("Focused scenarios per extension: pnpm demo --scenarios (list them with pnpm demo --list).");
}

async function runScenarios(only: string | undefined): Promise<number> {
	const scenarios = await loadScenarios();
	const selected = only ? scenarios.filter((s) => s.id === only) : scenarios;
	if (selected.length === 0) {
		console.error(`Unknown scenario "${only}". Run pnpm demo --list to see the scenarios.`);
		return 2;
	}
	for (const scenario of selected) {
		console.log(`== ${scenario.title}`);
		console.log(`   ${scenario.summary}\n`);
		const { rows, notifications, narration } = await runScenario(scenario);
		console.log(renderTurnTable(rows));
		const total = rows.reduce((sum, row) => sum + row.requestBytes, 0);
		console.log(`\n   ${rows.length} requests, ${formatBytes(total)} (~${approxTokens(total)} tokens) sent in total`);
		for (const n of notifications) console.log(`   notify[${n.level}]: ${n.message.split("\n").join("\n      ")}`);
		for (const line of narration) console.log(`   ${line}`);
		console.log("");
	}
	return 0;
}

/** The flags `pnpm demo` takes: those with a value, and switches. */
const VALUE_FLAGS = new Set(["--with", "--scenario", "--report"]);
const SWITCHES = new Set(["--list", "--scenarios"]);

/**
 * The first argument `pnpm demo` does not know (a flag such as `--only`, or a stray word), or a value flag with no
 * value after it (`--with` alone, which would otherwise run the whole suite), or undefined.
 */
export function unknownDemoArgument(argv: readonly string[]): string | undefined {
	for (let at = 0; at < argv.length; at++) {
		const arg = argv[at] as string;
		if (VALUE_FLAGS.has(arg)) {
			const value = argv[at + 1];
			if (value === undefined || value.startsWith("--")) return `${arg}`;
			at++;
		} else if (!SWITCHES.has(arg)) return arg;
	}
	return undefined;
}

async function main(argv: string[]): Promise<number> {
	const unknown = unknownDemoArgument(argv);
	if (unknown !== undefined) {
		console.error(
			`${VALUE_FLAGS.has(unknown) ? `${unknown} needs a value` : `Unknown argument "${unknown}"`}. pnpm demo takes --with <extension>, --scenarios, --scenario <id>, --report <file> and --list.`,
		);
		return 2;
	}
	if (argv.includes("--list")) {
		console.log("extensions (pnpm demo --with <name>):");
		for (const name of SUITE_EXTENSIONS) console.log(`  ${name}`);
		console.log("scenarios (pnpm demo --scenario <id>):");
		for (const s of await loadScenarios()) console.log(`  ${s.id.padEnd(20)} ${s.title}`);
		return 0;
	}
	if (argv.includes("--scenarios") || argv.includes("--scenario")) {
		return runScenarios(flagValue(argv, "--scenario"));
	}
	const only = flagValue(argv, "--with");
	if (only !== undefined && !SUITE_EXTENSIONS.includes(only as SuiteExtension)) {
		console.error(`Unknown extension "${only}". Choose one of: ${SUITE_EXTENSIONS.join(", ")}.`);
		return 2;
	}
	const extensions = only ? [only as SuiteExtension] : [...SUITE_EXTENSIONS];
	// A relative --report is taken from where the user typed the command (pnpm runs this in tooling/demo).
	const reportFlag = flagValue(argv, "--report");
	const reportPath = reportFlag
		? resolve(process.env.INIT_CWD ?? process.cwd(), reportFlag)
		: join(repoRoot, only ? `demo-report-${only}.html` : "demo-report.html");
	await runSuite(extensions, only ?? "all five pi-policy extensions", reportPath);
	return 0;
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntryPoint) process.exitCode = await main(process.argv.slice(2));
