// pi-policy-report: a report over many Pi sessions (session files, or OTLP/JSON lines from a Collector's file
// exporter): per extension, per day, and exploration-guard's go/no-go gate. Exit 0 unless usage or input is bad.
import { writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import {
	createReport,
	finishReport,
	formatReportText,
	type PolicyReport,
	renderReportHtml,
	reportToJson,
} from "@pi-policy/policy-kernel/report";
import { resolveInputs, scanFiles, UnreadableInputError } from "./scan.js";

/** The usage text. */
export const USAGE = `Usage: pi-policy-report [paths or globs...] [--json] [--html FILE] [--since 14d|DATE] [--until DATE]

Reads Pi session files (default: <agentDir>/sessions/**) and OTLP/JSON log lines, and prints a summary per
extension and per day with the exploration gate. Only enums and counts are shown; session ids are hashed.

  --json        print the report as JSON
  --html FILE   also write a self-contained HTML page with charts
  --since X     only entries at or after X: a duration (14d, 12h, 30m) before now, or a date/time
  --until X     only entries at or before X (same forms)
  -h, --help    this text`;

/**
 * Pi's agent directory: the host's own `getAgentDir()` when Pi is installed next to this package (it honours
 * `PI_CODING_AGENT_DIR`), else `PI_CODING_AGENT_DIR` or Pi's documented default, so `npx` works without Pi.
 */
export async function defaultAgentDir(
	env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
	try {
		const host = (await import("@earendil-works/pi-coding-agent")) as { getAgentDir?: () => string };
		if (typeof host.getAgentDir === "function") return host.getAgentDir();
	} catch {
		// Pi is not installed here: use its documented location.
	}
	return env.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent");
}

/** Parsed arguments. */
export interface CliArgs {
	readonly inputs: string[];
	readonly json: boolean;
	readonly html: string | undefined;
	readonly since: number | undefined;
	readonly until: number | undefined;
	readonly help: boolean;
}

/** A time argument: `<n>d|h|m` before `now`, or anything `Date.parse` reads. `undefined` when invalid. */
export function parseTimeArg(value: string, now: number): number | undefined {
	const relative = /^(\d{1,6})([dhm])$/.exec(value);
	if (relative) {
		const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as "d" | "h" | "m"];
		return now - Number(relative[1]) * unit;
	}
	const time = Date.parse(value);
	return Number.isFinite(time) ? time : undefined;
}

/** Parses argv (without node and script). Errors are fixed wording plus the offending flag name only. */
export function parseCliArgs(
	argv: readonly string[],
	now = Date.now(),
): { ok: true; args: CliArgs } | { ok: false; error: string } {
	const inputs: string[] = [];
	let json = false;
	let html: string | undefined;
	let since: number | undefined;
	let until: number | undefined;
	let help = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		const next = () => {
			const value = argv[i + 1];
			i++;
			return value;
		};
		if (arg === "--json") json = true;
		else if (arg === "-h" || arg === "--help") help = true;
		else if (arg === "--html") {
			html = next();
			if (html === undefined || html.startsWith("--")) return { ok: false, error: "--html needs a file" };
		} else if (arg === "--since" || arg === "--until") {
			const value = next();
			const time = value === undefined ? undefined : parseTimeArg(value, now);
			if (time === undefined) return { ok: false, error: `${arg} needs a duration (14d) or a date` };
			if (arg === "--since") since = time;
			else until = time;
		} else if (arg.startsWith("-")) return { ok: false, error: "unknown option" };
		else inputs.push(arg);
	}
	if (since !== undefined && until !== undefined && since > until)
		return { ok: false, error: "--since is after --until" };
	return { ok: true, args: { inputs, json, html, since, until, help } };
}

/**
 * A leading `~` or `~/` read as the home folder, as a shell would: a quoted glob (`'~/team/**\/*.jsonl'`, quoted so
 * that the CLI expands the `**`) reaches the CLI with its `~` unexpanded. `~user` is left as it is.
 */
export function expandHome(input: string, home: string = homedir()): string {
	if (input === "~") return home;
	return input.startsWith("~/") ? join(home, input.slice(2)) : input;
}

/** Where the CLI writes. */
export interface CliIo {
	stdout(text: string): void;
	stderr(text: string): void;
	/** True when stderr is a terminal: the progress bar is drawn. */
	readonly stderrIsTTY: boolean;
}

function progressBar(io: CliIo, total: number): (read: number) => void {
	if (!io.stderrIsTTY || total <= 0) return () => {};
	let last = -1;
	return (read) => {
		const share = Math.min(1, read / total);
		const step = Math.floor(share * 40);
		if (step === last) return;
		last = step;
		io.stderr(`\r[${"#".repeat(step)}${" ".repeat(40 - step)}] ${Math.floor(share * 100)}%`);
	};
}

/** Runs the report; returns the exit code (0 ok, 1 unreadable input, 2 bad usage) and the report when made. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<{ code: number; report?: PolicyReport }> {
	const parsed = parseCliArgs(argv);
	if (!parsed.ok) {
		io.stderr(`pi-policy-report: ${parsed.error}\n${USAGE}\n`);
		return { code: 2 };
	}
	const args = parsed.args;
	if (args.help) {
		io.stdout(`${USAGE}\n`);
		return { code: 0 };
	}
	const inputs =
		args.inputs.length > 0
			? args.inputs.map((input) => expandHome(input))
			: [join(await defaultAgentDir(), "sessions")];
	let files: Awaited<ReturnType<typeof resolveInputs>>;
	try {
		files = await resolveInputs(inputs);
	} catch (error) {
		io.stderr(`pi-policy-report: ${error instanceof UnreadableInputError ? error.message : "cannot read input"}\n`);
		return { code: 1 };
	}
	const state = createReport({
		...(args.since !== undefined ? { since: args.since } : {}),
		...(args.until !== undefined ? { until: args.until } : {}),
	});
	const total = files.reduce((sum, file) => sum + file.bytes, 0);
	const unreadable = await scanFiles(state, files, progressBar(io, total));
	if (io.stderrIsTTY && total > 0) io.stderr("\r\x1b[K");
	const report = finishReport(state);
	io.stdout(args.json ? `${JSON.stringify(reportToJson(report), null, 2)}\n` : `${formatReportText(report)}\n`);
	if (args.html !== undefined) {
		try {
			await writeFile(args.html, renderReportHtml(report, { generatedAt: new Date().toISOString() }));
		} catch {
			io.stderr("pi-policy-report: cannot write the --html file\n");
			return { code: 1, report };
		}
	}
	if (unreadable > 0) {
		io.stderr(`pi-policy-report: ${unreadable} file(s) could not be read\n`);
		return { code: 1, report };
	}
	return { code: 0, report };
}
