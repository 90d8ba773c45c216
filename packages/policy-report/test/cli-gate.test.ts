// The CLI over a generated 14-day multi-user corpus: the gate passes, each variant fails exactly its criterion,
// OTLP/JSON lines of the same sessions give the same report, and bad lines and versions are counted and skipped.
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GateCorpusOptions, generateGateSessions, otlpLines, writeGateCorpus } from "./support/corpus.ts";
import { type CapturedCliRun, runCapturedCli } from "./support/run-cli.ts";

/** Runs the CLI; `tty` makes stderr look like a terminal. */
function cli(args: string[], tty = false): Promise<CapturedCliRun> {
	return runCapturedCli(args, { tty });
}

interface JsonReport {
	sessions: number;
	skipped: { lines: number; files: number; notSessions: number };
	extensions: Record<string, Record<string, number>>;
	gate: { pass: boolean; criteria: Array<{ id: string; pass: boolean; value: number | null; threshold: number }> };
}

let root: string;

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "policy-report-gate-"));
});
afterAll(async () => {
	await rm(root, { recursive: true, force: true });
});

async function reportFor(name: string, options: GateCorpusOptions): Promise<JsonReport> {
	const dir = join(root, name);
	await writeGateCorpus(dir, options);
	const result = await cli([dir, "--json"]);
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as JsonReport;
}

const failing = (report: JsonReport) => report.gate.criteria.filter((c) => !c.pass).map((c) => c.id);

describe("exploration gate over a generated corpus", () => {
	it("a 14-day multi-user corpus passes every criterion, with the exact --json shape", async () => {
		const report = await reportFor("pass", {});
		expect(Object.keys(report)).toEqual(["sessions", "skipped", "extensions", "gate"]);
		expect(report.sessions).toBe(40);
		expect(report.skipped).toEqual({ lines: 0, files: 0, notSessions: 0 });
		expect(report.gate.criteria.map((c) => c.id)).toEqual([
			"days",
			"opportunities",
			"residual-share",
			"warn-sessions",
			"warnings",
			"bypass-share",
			"child-activations",
			"handler-exceptions",
			"blocked-other-tools",
		]);
		for (const criterion of report.gate.criteria)
			expect(Object.keys(criterion)).toEqual(["id", "pass", "value", "threshold"]);
		expect(failing(report)).toEqual([]);
		expect(report.gate.pass).toBe(true);
		const value = (id: string) => report.gate.criteria.find((c) => c.id === id)?.value;
		expect(value("opportunities")).toBe(120);
		expect(value("warn-sessions")).toBe(40);
		expect(value("warnings")).toBe(120);
		expect(value("bypass-share")).toBeCloseTo(1 / 40);
		expect(value("residual-share")).toBeCloseTo(40 / 120);
		expect(value("days")).toBeGreaterThanOrEqual(14);
		expect(report.extensions["exploration-guard"]?.warned).toBe(120);
		expect(report.extensions["guardian-review"]?.denied).toBe(10);
	});

	it.each([
		["too few days", { days: 10 }, "days"],
		["too few opportunities", { sessions: 30 }, "opportunities"],
		["too many bypasses", { bypassSessions: 4 }, "bypass-share"],
		["a child activation", { childActivations: 1 }, "child-activations"],
		["a handler exception", { handlerErrors: 1 }, "handler-exceptions"],
	] as const)("%s fails exactly that criterion, and the exit code stays 0", async (name, options, id) => {
		const report = await reportFor(name.replaceAll(" ", "-"), options);
		expect(failing(report)).toEqual([id]);
		expect(report.gate.pass).toBe(false);
	});

	it("OTLP/JSON lines of the same sessions (Collector file exporter format) give the same report", async () => {
		const files = await reportFor("otlp-base", {});
		const path = join(root, "export.jsonl");
		await writeFile(path, `${otlpLines(generateGateSessions()).join("\n")}\n`);
		const result = await cli([path, "--json"]);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual(files);
	});

	it("malformed lines, unknown schema versions and unknown session versions are counted and skipped", async () => {
		const dir = join(root, "dirty");
		const [first] = await writeGateCorpus(dir, { sessions: 2 });
		await appendFile(first as string, "{not json\n");
		await appendFile(
			first as string,
			`${JSON.stringify({ type: "custom", customType: "pi-policy.audit", data: { v: 2, ext: "exploration-guard", event: "warned" } })}\n`,
		);
		await appendFile(
			first as string,
			`${JSON.stringify({ type: "custom", customType: "pi-policy.audit", data: { v: 1, ext: "exploration-guard", event: "not-an-event" } })}\n`,
		);
		await writeFile(join(dir, "future.jsonl"), `${JSON.stringify({ type: "session", version: 99, id: "x" })}\n`);
		const result = await cli([dir, "--json"]);
		expect(result.code).toBe(0);
		const report = JSON.parse(result.stdout) as JsonReport;
		expect(report.skipped).toEqual({ lines: 3, files: 1, notSessions: 0 });
		expect(report.sessions).toBe(2);
	});

	it("--since and --until keep only entries in the window", async () => {
		const dir = join(root, "window");
		await writeGateCorpus(dir, {});
		const all = JSON.parse((await cli([dir, "--json"])).stdout) as JsonReport;
		const windowed = await cli([dir, "--json", "--since", "2026-03-08T00:00:00Z", "--until", "2026-03-10T23:59:59Z"]);
		const report = JSON.parse(windowed.stdout) as JsonReport;
		expect(report.sessions).toBeGreaterThan(0);
		expect(report.sessions).toBeLessThan(all.sessions);
		expect(report.gate.criteria.find((c) => c.id === "days")?.pass).toBe(false);
		const relative = JSON.parse((await cli([dir, "--json", "--since", "14d"])).stdout) as JsonReport;
		expect(relative.sessions).toBe(0);
	});

	it("exit codes: 2 on bad usage, 1 on unreadable input, 0 on a failed gate", async () => {
		expect((await cli(["--bogus"])).code).toBe(2);
		expect((await cli(["--since", "yesterday-ish"])).code).toBe(2);
		expect((await cli(["--html"])).code).toBe(2);
		expect((await cli([join(root, "does-not-exist")])).code).toBe(1);
		expect((await cli([join(root, "nothing-*.jsonl")])).code).toBe(1);
		const failed = await reportFor("exit-fail", { days: 3 });
		expect(failed.gate.pass).toBe(false);
	});

	it("the terminal summary names every criterion with pass/fail and its figure; globs select files; a TTY gets a progress bar", async () => {
		const dir = join(root, "text");
		await writeGateCorpus(dir, { bypassSessions: 4 });
		const result = await cli([join(dir, "**/*.jsonl")], true);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Exploration gate: FAIL");
		expect(result.stdout).toMatch(/FAIL\s+bypass-share\s+10\.0%\s+\(<= 5\.0%\)/);
		expect(result.stdout).toMatch(/pass\s+opportunities\s+120\s+\(>= 100\)/);
		expect(result.stdout).toContain("Per day (UTC)");
		expect(result.stdout).toContain("2026-03-01:");
		expect(result.stderr).toContain("[########");
		const quiet = await cli([join(dir, "**/*.jsonl")], false);
		expect(quiet.stderr).toBe("");
	});
});
