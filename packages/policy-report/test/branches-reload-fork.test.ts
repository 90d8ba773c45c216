// pi-policy-report and the OTLP export over what real sessions hold (a twenty-seventh review): a session file with
// two branches (/tree), where output-minimizer's running totals restart per branch; a /reload mid-session, after
// which a new export pipeline starts; and a session forked with the real `pi --fork`, whose file repeats its
// parent's audit entries. Each entry's bytes and each audit entry count once.

import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { type PiCliFixture, startPiCliFixture } from "@pi-policy/loopback-provider";
import { callTool, createHarness, realText } from "@pi-policy/pi-harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import outputMinimizer from "../../output-minimizer/src/index.ts";
import { createStockSubagent } from "../../output-minimizer/test/support/stock-subagent.ts";
import { runCli } from "../src/cli.ts";
import { registerPolicyReport } from "../src/index.ts";

let server: Server;
let url = "";
const bodies: Array<{ path: string; body: string }> = [];
beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			bodies.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
			res.writeHead(200, { "content-type": "application/json" });
			res.end("{}");
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((r) => server.close(() => r()));
});

type Metrics = {
	resourceMetrics: Array<{
		scopeMetrics: Array<{
			metrics: Array<{
				name: string;
				sum?: { dataPoints: Array<{ startTimeUnixNano: string; asInt?: string | number; asDouble?: number }> };
			}>;
		}>;
	}>;
};

const EXPLORATION_GUARD = fileURLToPath(new URL("../../exploration-guard/src/index.ts", import.meta.url));
const POLICY_REPORT = fileURLToPath(new URL("../src/index.ts", import.meta.url));

let fixture: PiCliFixture;

async function sessionFiles(): Promise<string[]> {
	const dir = join(fixture.agentDir, "sessions");
	return (await readdir(dir, { recursive: true })).filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n));
}

async function reportJson(): Promise<{
	sessions: number;
	extensions: Record<string, Record<string, number>>;
	gate: { criteria: Array<{ id: string; value: number | null }> };
}> {
	let stdout = "";
	const previous = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = fixture.agentDir;
	try {
		const { code } = await runCli(["--json"], {
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
	return JSON.parse(stdout);
}

beforeAll(async () => {
	fixture = await startPiCliFixture({
		prefix: "zz-review-fork-",
		provider: {
			steps: [
				{ toolCalls: [{ name: "grep", arguments: { pattern: "x" } }] },
				{ toolCalls: [{ name: "find", arguments: { pattern: "*.ts" } }] },
				{ toolCalls: [{ name: "ls", arguments: { path: "." } }] },
				{ toolCalls: [{ name: "grep", arguments: { pattern: "export" } }] },
				{ text: "done" },
			],
			defaultText: "ok",
		},
		files: { "src/a.ts": "export const x = 1;\n" },
		config: { "exploration-guard": { mode: "warn" } },
	});
}, 60_000);

afterAll(async () => {
	await fixture?.dispose();
});

describe("pi-policy-report over a session with an abandoned branch", () => {
	it("counts the bytes both branches kept out", async () => {
		const stock = createStockSubagent();
		stock.queue(
			{ kind: "single", child: { agent: "scout", output: realText(100_000, 1) } },
			{ kind: "single", child: { agent: "scout", output: realText(50_000, 2) } },
		);
		const h = await createHarness({ extensions: [stock.extension, outputMinimizer], tools: ["read", "subagent"] });
		let file = "";
		let fileDir = "";
		const kept: number[] = [];
		try {
			h.script("ok");
			await h.prompt("hello");
			const before = h.session.sessionManager.getLeafId();
			h.script(callTool("subagent", { agent: "scout", task: "one" }), "done");
			await h.prompt("Delegate one.");
			kept.push(
				...h
					.entries<{ counters?: { bytesKeptOutTotal?: number } }>("pi-policy.audit")
					.map((e) => e.counters?.bytesKeptOutTotal ?? 0),
			);
			await h.session.navigateTree(before as string, { summarize: false });
			h.script(callTool("subagent", { agent: "scout", task: "two" }), "done");
			await h.prompt("Delegate two.");
			kept.push(
				...h
					.entries<{ counters?: { bytesKeptOutTotal?: number } }>("pi-policy.audit")
					.map((e) => e.counters?.bytesKeptOutTotal ?? 0),
			);
			// The file Pi would have written: the header, then every entry in append order (both branches).
			const sm = h.session.sessionManager;
			fileDir = await mkdtemp(join(tmpdir(), "zz-review-tree-"));
			file = join(fileDir, "session.jsonl");
			await writeFile(file, `${[sm.getHeader(), ...sm.getEntries()].map((e) => JSON.stringify(e)).join("\n")}\n`);
		} finally {
			await h.dispose();
		}
		let stdout = "";
		const { code } = await runCli([file], {
			stdout: (t) => {
				stdout += t;
			},
			stderr: () => {},
			stderrIsTTY: false,
		}).finally(() => rm(fileDir, { recursive: true, force: true }));
		expect(code).toBe(0);
		const line = stdout.split("\n").find((l) => l.startsWith("kept out of context")) ?? "";
		const branchOne = kept[0] ?? 0;
		const branchTwo = kept[1] ?? 0;
		expect(branchOne).toBeGreaterThan(0);
		expect(branchTwo).toBeGreaterThan(0);
		expect(line).toContain(`kept out of context: ${branchOne + branchTwo} bytes`);
	});
});

describe("OTLP bytes_kept_out across /reload", () => {
	it("the exported counter equals what /policy reports", async () => {
		const stock = createStockSubagent();
		stock.queue({ kind: "single", child: { agent: "scout", output: realText(20_000) } });
		stock.queue({ kind: "single", child: { agent: "scout", output: realText(20_000) } });
		const printed: string[] = [];
		const report = (pi: ExtensionAPI) => {
			registerPolicyReport(pi, { onDiagnostic: () => {}, print: (t) => printed.push(t), telemetryShutdownMs: 5000 });
		};
		const harness = await createHarness({
			extensions: [stock.extension, outputMinimizer, report],
			tools: ["read", "subagent"],
			ui: false,
			env: { PI_SUBAGENT_CHILD: undefined, PI_POLICY_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: url },
		});
		try {
			harness.script(callTool("subagent", { agent: "scout", task: "one" }), "done");
			await harness.prompt("Delegate one.");
			await harness.session.reload();
			harness.script(callTool("subagent", { agent: "scout", task: "two" }), "done");
			await harness.prompt("Delegate two.");
			await harness.command("/policy");
			await harness.shutdown();
		} finally {
			await harness.dispose();
		}
		const policyLine = printed.at(-1) ?? "";
		const keptOut = Number(/kept out of context: (\d+) bytes/.exec(policyLine)?.[1]);
		// Cumulative counters: per export pipeline (start time), the last value is its total.
		const perPipeline = new Map<string, number>();
		for (const b of bodies.filter((x) => x.path === "/v1/metrics")) {
			const parsed = JSON.parse(b.body) as Metrics;
			for (const m of parsed.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))) {
				if (m.name !== "pi_policy.context.bytes_kept_out") continue;
				for (const p of m.sum?.dataPoints ?? [])
					perPipeline.set(p.startTimeUnixNano, Number(p.asInt ?? p.asDouble ?? 0));
			}
		}
		const exported = [...perPipeline.values()].reduce((a, b) => a + b, 0);
		expect(keptOut).toBeGreaterThan(0);
		expect(exported).toBe(keptOut);
	});
});

describe("pi-policy-report and forked sessions", () => {
	it("counts each audit entry once, even when `pi --fork` copied it into a second file", async () => {
		const base = [
			"--model",
			"loop/loop-1",
			"--tools",
			"read,bash,grep,find,ls",
			"-e",
			EXPLORATION_GUARD,
			"-e",
			POLICY_REPORT,
		];
		const first = await fixture.run([...base, "-p", "Look around."], {
			timeoutMs: 90_000,
			env: { PI_SUBAGENT_CHILD: undefined },
		});
		expect(first.code, first.stderr).toBe(0);
		const [parent] = await sessionFiles();
		const before = await reportJson();
		const second = await fixture.run([...base, "--fork", parent as string, "-p", "Thanks."], {
			timeoutMs: 90_000,
			env: { PI_SUBAGENT_CHILD: undefined },
		});
		expect(second.code, second.stderr).toBe(0);
		const files = await sessionFiles();
		expect(files).toHaveLength(2);
		// The forked file carries the parent's audit entries verbatim (same ids).
		const ids = async (file: string) =>
			(await readFile(file, "utf8"))
				.split("\n")
				.filter(Boolean)
				.map((l) => JSON.parse(l))
				.filter((e) => e.customType === "pi-policy.audit")
				.map((e) => e.id as string);
		const child = files.find((f) => f !== parent) as string;
		const parentIds = await ids(parent as string);
		const childIds = await ids(child);
		expect(childIds.filter((id) => parentIds.includes(id)).length).toBeGreaterThan(0);
		const after = await reportJson();
		// The fork's own turn only said "ok": no new exploration happened, so nothing guard-related should grow.
		expect(after.extensions["exploration-guard"]?.warned).toBe(before.extensions["exploration-guard"]?.warned);
		expect(after.gate.criteria.find((c) => c.id === "opportunities")?.value).toBe(
			before.gate.criteria.find((c) => c.id === "opportunities")?.value,
		);
	});
});
