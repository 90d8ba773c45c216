// The real `pi` CLI (loopback provider over HTTP) with exploration-guard, context-shunt and policy-report loaded
// from source: the session file Pi wrote holds the audit entries, and pi-policy-report over the agent's sessions
// folder (its default input) gives exactly the counts the sessions' own status commands printed. The built `bin`
// runs too.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type PiCliFixture, type PiCliResult, startPiCliFixture } from "@pi-policy/loopback-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.ts";

const EXPLORATION_GUARD = fileURLToPath(new URL("../../exploration-guard/src/index.ts", import.meta.url));
const CONTEXT_SHUNT = fileURLToPath(new URL("../../context-shunt/src/index.ts", import.meta.url));
const POLICY_REPORT = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const BIN = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const SECRET = "needle-capybara-2291";

let fixture: PiCliFixture;
let result: PiCliResult;

beforeAll(async () => {
	fixture = await startPiCliFixture({
		prefix: "policy-report-cli-",
		provider: {
			steps: [
				{ toolCalls: [{ name: "grep", arguments: { pattern: SECRET } }] },
				{ toolCalls: [{ name: "find", arguments: { pattern: "*.ts" } }] },
				{ toolCalls: [{ name: "ls", arguments: { path: "." } }] },
				{ toolCalls: [{ name: "grep", arguments: { pattern: "export" } }] },
				{ toolCalls: [{ name: "bash", arguments: { command: "cat big.log" } }] },
				{ toolCalls: [{ name: "read", arguments: { path: "big.log", limit: 1000 } }] },
				{ text: "done" },
			],
		},
		files: {
			"src/a.ts": `export const a = "${SECRET}";\n`,
			"big.log": `${Array.from({ length: 1500 }, (_, i) => `${SECRET} line ${i}`).join("\n")}\n`,
		},
		config: { "exploration-guard": { mode: "warn" }, "context-shunt": { mode: "enforce" } },
	});
	result = await fixture.run(
		[
			"--model",
			"loop/loop-1",
			"--tools",
			"read,bash,grep,find,ls",
			"-e",
			EXPLORATION_GUARD,
			"-e",
			CONTEXT_SHUNT,
			"-e",
			POLICY_REPORT,
			"-p",
			"Look around the project.",
			"/exploration-guard status",
			"/context-shunt status",
			"/policy",
		],
		{ timeoutMs: 90_000, env: { PI_SUBAGENT_CHILD: undefined } },
	);
}, 120_000);

afterAll(async () => {
	await fixture?.dispose();
});

async function readSessionEntries(): Promise<Array<{ ext: string; event: string }>> {
	const dir = join(fixture.agentDir, "sessions");
	const files = (await readdir(dir, { recursive: true })).filter((name) => name.endsWith(".jsonl"));
	expect(files).toHaveLength(1);
	const text = await readFile(join(dir, files[0] as string), "utf8");
	return text
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as { type?: string; customType?: string; data?: { ext: string; event: string } })
		.filter((line) => line.type === "custom" && line.customType === "pi-policy.audit")
		.map((line) => line.data as { ext: string; event: string });
}

function number(text: string, pattern: RegExp): number {
	const match = pattern.exec(text);
	if (!match) throw new Error(`no match for ${pattern} in output`);
	return Number(match[1]);
}

async function report(args: string[]) {
	let stdout = "";
	const previous = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = fixture.agentDir;
	try {
		const { code } = await runCli(args, {
			stdout: (t) => {
				stdout += t;
			},
			stderr: () => {},
			stderrIsTTY: false,
		});
		expect(code).toBe(0);
	} finally {
		if (previous === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = previous;
	}
	return stdout;
}

describe("real pi CLI sessions", () => {
	it("pi-policy-report over <agentDir>/sessions gives the counts the status commands printed", async () => {
		expect(result.code, result.stderr).toBe(0);
		const output = `${result.stdout}\n${result.stderr}`;
		const warnings = number(output, /Counters: attempts \d+, allowed \d+, blocked \d+, warnings (\d+)/);
		const guardBlocked = number(output, /Counters: attempts \d+, allowed \d+, blocked (\d+)/);
		// context-shunt prints its status only through a UI (the harness test compares it); here its counts come
		// from the audit entries in the session file Pi wrote, and from policy-report's own /policy line.
		const entries = (await readSessionEntries()).filter((e) => e.ext === "context-shunt");
		const shuntBlocked = entries.filter((e) => e.event === "blocked").length;
		const bounded = entries.filter((e) => e.event === "bounded").length;
		expect(output).toMatch(
			new RegExp(`context-shunt: active \\(mode enforce\\)[^\\n]*\\n\\s+blocks ${shuntBlocked} · artifacts ${bounded}`),
		);
		expect(warnings).toBeGreaterThan(0);
		expect(bounded).toBeGreaterThan(0);
		expect(shuntBlocked).toBeGreaterThan(0);
		const json = JSON.parse(await report(["--json"])) as {
			sessions: number;
			extensions: Record<string, Record<string, number>>;
		};
		expect(json.sessions).toBe(1);
		expect(json.extensions["exploration-guard"]?.warned ?? 0).toBe(warnings);
		expect(json.extensions["exploration-guard"]?.blocked ?? 0).toBe(guardBlocked);
		expect(json.extensions["context-shunt"]?.blocked ?? 0).toBe(shuntBlocked);
		expect(json.extensions["context-shunt"]?.bounded ?? 0).toBe(bounded);
		// /policy without a UI printed the same counts as plain text.
		expect(output).toContain("exploration-guard: active (mode warn)");
		expect(output).toContain(`nudges ${warnings}`);
		expect(output).toContain(`artifacts ${bounded}`);
	});

	it("files next to the sessions that are not Pi sessions (pi-subagents' artifacts) are counted apart, not as malformed lines", async () => {
		const dir = await mkdtemp(join(tmpdir(), "policy-report-not-sessions-"));
		try {
			await cp(join(fixture.agentDir, "sessions"), dir, { recursive: true });
			const artifacts = join(dir, "subagent-artifacts");
			await mkdir(artifacts, { recursive: true });
			// What pi-subagents 0.67 writes there: pretty-printed metadata, Markdown input and output, a transcript.
			await writeFile(
				join(artifacts, "run1_worker_meta.json"),
				JSON.stringify({ runId: "run1", agent: "worker", exitCode: 0, usage: { input: 10, output: 5 } }, null, 2),
			);
			await writeFile(join(artifacts, "run1_worker_output.md"), "# Findings\n\n- one\n- two\n");
			await writeFile(
				join(artifacts, "run1_worker_transcript.jsonl"),
				`${JSON.stringify({ version: 1, recordType: "message", runId: "run1", agent: "worker" })}\n`,
			);
			const baseline = JSON.parse(await report(["--json"])) as { extensions: unknown };
			const byFolder = JSON.parse(await report([dir, "--json"])) as {
				sessions: number;
				skipped: unknown;
				extensions: unknown;
			};
			// The folder walk takes .jsonl and .json: the metadata and the transcript.
			expect(byFolder.skipped).toEqual({ lines: 0, files: 0, notSessions: 2 });
			expect(byFolder.sessions).toBe(1);
			expect(byFolder.extensions).toEqual(baseline.extensions);
			// A quoted glob takes every file, the Markdown too.
			const byGlob = await report([`${dir}/**`]);
			expect(byGlob).toContain(
				"pi-policy report: 1 session(s) · skipped 0 line(s), 0 file(s) · 3 file(s) not Pi sessions, skipped",
			);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("the built bin runs on the same folder and prints the summary", async () => {
		expect(existsSync(BIN), "dist/cli.js is missing: run pnpm build first").toBe(true);
		const { stdout } = await promisify(execFile)(process.execPath, [BIN, `${fixture.agentDir}/sessions`], {
			env: { ...process.env, PI_CODING_AGENT_DIR: fixture.agentDir },
		});
		expect(stdout).toContain("pi-policy report: 1 session(s)");
		expect(stdout).toContain("Exploration gate: FAIL");
		expect(stdout).not.toContain(SECRET);
		expect(stdout).not.toContain(fixture.cwd);
	});
});
