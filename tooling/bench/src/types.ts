// The shape every benchmark workload reports, so one run can print them side by side.

/** One measured figure. Sizes are bytes; ratios are plain numbers (0.95 = 95%); times are milliseconds. */
export interface BenchFigure {
	name: string;
	value: number;
	unit: "bytes" | "ratio" | "count" | "percent" | "ms";
}

/** What one workload measured in this run. Every side of a ratio is measured in the same run. */
export interface BenchResult {
	id: string;
	title: string;
	figures: BenchFigure[];
	/** Pass/fail checks against the contract, e.g. `cut >= 0.95`. */
	checks: Array<{ name: string; passed: boolean }>;
}

/** A benchmark workload. */
export interface BenchWorkload {
	id: string;
	title: string;
	run(): Promise<BenchResult>;
}
