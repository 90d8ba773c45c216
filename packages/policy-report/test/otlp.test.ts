// OpenTelemetry export from a real session (pi-harness) to a loopback OTLP/HTTP receiver on 127.0.0.1: the wire
// records equal the official transformer's encoding, their attributes rebuild the session's audit entries, the
// metrics count them, nothing private leaves, and an unreachable endpoint costs only a counted diagnostic.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { JsonLogsSerializer } from "@opentelemetry/otlp-transformer";
import type { LogRecordExporter, ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { callTool, createHarness, type Harness } from "@pi-policy/pi-harness";
import type { AuditEntryV1 } from "@pi-policy/policy-kernel/audit";
import { auditEntryFromAttributes, otlpAnyValue } from "@pi-policy/policy-kernel/report";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import contextShunt from "../../context-shunt/src/index.ts";
import explorationGuard from "../../exploration-guard/src/index.ts";
import { type PolicyReportHandle, registerPolicyReport } from "../src/index.ts";
import { hashSessionId } from "../src/session-hash.js";
import { startTelemetryExport } from "../src/telemetry.ts";

const SECRET = "needle-pangolin-4410";

interface Receiver {
	server: Server;
	url: string;
	bodies: Array<{ path: string; body: string }>;
}

async function startReceiver(): Promise<Receiver> {
	const bodies: Receiver["bodies"] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			bodies.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
			res.writeHead(200, { "content-type": "application/json" });
			res.end("{}");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return { server, url: `http://127.0.0.1:${port}`, bodies };
}

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

const open: Harness[] = [];
let receiver: Receiver;

beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	for (const harness of open) await harness.dispose();
	await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
});

async function runSession(env: Record<string, string | undefined>) {
	const diagnostics: string[] = [];
	const handles: PolicyReportHandle[] = [];
	const report = (pi: ExtensionAPI) => {
		handles.push(
			registerPolicyReport(pi, {
				onDiagnostic: (m) => diagnostics.push(m),
				print: () => {},
				telemetryShutdownMs: 5000,
			}),
		);
	};
	const harness = await createHarness({
		extensions: [explorationGuard, contextShunt, report],
		files: {
			"src/a.ts": `export const a = "${SECRET}";\n`,
			"big.log": `${Array.from({ length: 900 }, (_, i) => `${SECRET} ${i}`).join("\n")}\n`,
		},
		config: { "exploration-guard": { mode: "warn" }, "context-shunt": { mode: "enforce" } },
		ui: false,
		env: { PI_SUBAGENT_CHILD: undefined, ...env },
	});
	open.push(harness);
	harness.script(
		callTool("grep", { pattern: SECRET }),
		callTool("find", { pattern: "*.ts" }),
		callTool("ls", { path: "src" }),
		callTool("grep", { pattern: "export" }),
		callTool("bash", { command: "cat big.log" }),
		"done",
	);
	const started = performance.now();
	await harness.prompt("Look around.");
	const promptMs = performance.now() - started;
	const entries = harness.entries<AuditEntryV1>("pi-policy.audit");
	// Per tool result: the tool and whether it failed (the texts carry per-run temp paths and artifact ids).
	const results = harness.toolResults().map((r) => `${r.toolName}:${r.isError ? "error" : "ok"}`);
	const sessionId = harness.session.sessionManager.getSessionId();
	await harness.shutdown();
	const afterShutdown = harness.entries<AuditEntryV1>("pi-policy.audit").slice(entries.length);
	return {
		harness,
		diagnostics,
		handle: handles[0] as PolicyReportHandle,
		entries,
		afterShutdown,
		results,
		sessionId,
		promptMs,
	};
}

interface WireRecord {
	body?: unknown;
	severityText?: string;
	attributes?: Array<{ key: string; value: unknown }>;
}

function wireRecords(bodies: Receiver["bodies"]): WireRecord[] {
	return bodies
		.filter((b) => b.path === "/v1/logs")
		.flatMap((b) => {
			const parsed = JSON.parse(b.body) as { resourceLogs: Array<{ scopeLogs: Array<{ logRecords: WireRecord[] }> }> };
			return parsed.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords));
		});
}

function attributeMap(record: WireRecord): Map<string, string | number | boolean> {
	const map = new Map<string, string | number | boolean>();
	for (const { key, value } of record.attributes ?? []) {
		const decoded = otlpAnyValue(value);
		if (decoded !== undefined) map.set(key, decoded);
	}
	return map;
}

describe("OpenTelemetry export", () => {
	it("sends each audit event as an OTLP log record whose attributes rebuild the entry, and counts them as metrics", async () => {
		const run = await runSession({
			PI_POLICY_ENABLE_TELEMETRY: "1",
			OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
		});
		expect(run.entries.length).toBeGreaterThanOrEqual(3);
		const records = wireRecords(receiver.bodies);
		expect(records).toHaveLength(run.entries.length);
		const hash = hashSessionId(run.sessionId);
		const rebuilt = records.map((record) => {
			const decoded = auditEntryFromAttributes(attributeMap(record));
			if (decoded.kind !== "ok") throw new Error(`record not decoded: ${decoded.kind}`);
			expect(decoded.sessionHash).toBe(hash);
			return decoded.entry;
		});
		expect(rebuilt).toEqual(run.entries);
		expect(run.handle.telemetry()).toEqual({ exported: run.entries.length, dropped: 0 });

		// The wire payload is exactly what the official transformer encodes for the same records.
		const captured: ReadableLogRecord[] = [];
		const memory: LogRecordExporter = {
			export(batch, done) {
				captured.push(...batch);
				done({ code: 0 });
			},
			shutdown: async () => {},
			forceFlush: async () => {},
		};
		const local = startTelemetryExport({ sessionHash: hash, exportIntervalMs: 60_000, logExporter: memory });
		for (const entry of run.entries) local.record(entry);
		await local.shutdown();
		const serialized = JsonLogsSerializer.serializeRequest(captured);
		if (serialized === undefined) throw new Error("transformer gave no payload");
		const encoded = JSON.parse(new TextDecoder().decode(serialized)) as {
			resourceLogs: Array<{ scopeLogs: Array<{ logRecords: WireRecord[] }> }>;
		};
		const expected = encoded.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords));
		const strip = (list: WireRecord[]) =>
			list.map(({ body, severityText, attributes }) => ({ body, severityText, attributes }));
		expect(strip(records)).toEqual(strip(expected));

		const metrics = receiver.bodies.filter((b) => b.path === "/v1/metrics").map((b) => b.body);
		expect(metrics.length).toBeGreaterThan(0);
		const last = JSON.parse(metrics[metrics.length - 1] as string) as {
			resourceMetrics: Array<{
				scopeMetrics: Array<{
					metrics: Array<{ name: string; sum?: { dataPoints: Array<{ asInt?: string | number; asDouble?: number }> } }>;
				}>;
			}>;
		};
		const events = last.resourceMetrics
			.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
			.find((m) => m.name === "pi_policy.audit.events");
		const total = (events?.sum?.dataPoints ?? []).reduce((sum, p) => sum + Number(p.asInt ?? p.asDouble ?? 0), 0);
		expect(total).toBe(run.entries.length);

		// Privacy: the payloads carry enums, counts and the hash; never the pattern, paths, cwd or the raw session id.
		const wire = receiver.bodies.map((b) => b.body).join("\n");
		for (const secret of [SECRET, "big.log", "src/a.ts", run.harness.cwd, run.sessionId])
			expect(wire).not.toContain(secret);
	});

	it("is off without the explicit switch, even with an endpoint set", async () => {
		const before = receiver.bodies.length;
		const run = await runSession({ PI_POLICY_ENABLE_TELEMETRY: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
		expect(run.entries.length).toBeGreaterThan(0);
		expect(run.handle.telemetry()).toBeUndefined();
		expect(receiver.bodies.length).toBe(before);
	});

	it("an unreachable endpoint costs the session nothing but a counted diagnostic", async () => {
		const port = await closedPort();
		const off = await runSession({ PI_POLICY_ENABLE_TELEMETRY: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined });
		const on = await runSession({
			PI_POLICY_ENABLE_TELEMETRY: "1",
			OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
		});
		expect(on.results).toHaveLength(5);
		expect(on.results).toEqual(off.results);
		expect(on.entries.map((e) => e.event)).toEqual(off.entries.map((e) => e.event));
		const stats = on.handle.telemetry();
		expect(stats?.exported).toBe(0);
		expect(stats?.dropped ?? 0).toBeGreaterThan(0);
		expect(
			on.diagnostics.some((m) => /^policy-report: telemetry (log|metric) batch dropped \(\d+ so far\)$/.test(m)),
		).toBe(true);
		expect(on.diagnostics.join("\n")).not.toContain(String(port));
		// The drop is also on record: one telemetry-dropped audit entry at session_shutdown, counts only.
		expect(on.afterShutdown).toEqual([
			{
				v: 1,
				ext: "policy-report",
				event: "telemetry-dropped",
				mode: "telemetry-on",
				counters: { batches: stats?.dropped },
			},
		]);
		expect(off.afterShutdown).toEqual([]);
	});
});
