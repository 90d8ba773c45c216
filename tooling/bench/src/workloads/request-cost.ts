// What each extension adds to or removes from the requests the model receives: the demo suite session (a scripted
// 13-turn coding session in a real Pi session) run with stock Pi and with each extension alone, side by side. The
// READMEs' "What it costs" sections quote these figures. Reviewer model requests (guardian-review) are counted on
// their own: how many, and how many bytes they sent.
import { approxTokens } from "../../../demo/src/report.ts";
import { runSuiteSession, SUITE_EXTENSIONS, type SuiteRun } from "../../../demo/src/suite.ts";
import type { BenchFigure, BenchResult, BenchWorkload } from "../types.ts";

function perRequest(run: SuiteRun): number {
	return run.turns.length === 0 ? 0 : run.totals.bytes / run.turns.length;
}

/** The figures of one extension against stock: per-request and total bytes, and its own model requests. */
export function requestCostFigures(name: string, stock: SuiteRun, alone: SuiteRun): BenchFigure[] {
	const delta = perRequest(alone) - perRequest(stock);
	const figures: BenchFigure[] = [
		{ name: `${name}: agent requests (stock ${stock.turns.length})`, value: alone.turns.length, unit: "count" },
		{ name: `${name}: bytes per agent request, change vs stock (mean)`, value: Math.round(delta), unit: "bytes" },
		{ name: `${name}: ~tokens per agent request, change vs stock (mean)`, value: approxTokens(delta), unit: "count" },
		{
			name: `${name}: bytes sent over the session, alone / stock`,
			value: stock.totals.bytes > 0 ? alone.totals.bytes / stock.totals.bytes : 0,
			unit: "ratio",
		},
	];
	if (alone.reviewerCalls > 0) {
		figures.push(
			{ name: `${name}: reviewer model requests`, value: alone.reviewerCalls, unit: "count" },
			{
				name: `${name}: bytes per reviewer request (mean)`,
				value: Math.round(alone.reviewerBytes / alone.reviewerCalls),
				unit: "bytes",
			},
		);
	}
	return figures;
}

const workload: BenchWorkload = {
	id: "request-cost",
	title: "Request cost: what each extension adds to or removes from the model's requests (demo suite session)",
	async run(): Promise<BenchResult> {
		const stock = await runSuiteSession([], "stock Pi");
		const figures: BenchFigure[] = [
			{ name: "stock: agent requests", value: stock.turns.length, unit: "count" },
			{ name: "stock: bytes per agent request (mean)", value: Math.round(perRequest(stock)), unit: "bytes" },
		];
		let sameTurns = true;
		for (const name of SUITE_EXTENSIONS) {
			const alone = await runSuiteSession([name], name);
			sameTurns &&= alone.turns.length === stock.turns.length;
			figures.push(...requestCostFigures(name, stock, alone));
		}
		return {
			id: "request-cost",
			title: this.title,
			figures,
			checks: [{ name: "every run made the same agent requests as stock", passed: sameTurns }],
		};
	},
};

export default workload;
