// A generated multi-user, multi-day corpus of Pi session files with pi-policy audit entries, for the gate
// acceptance tests and the scan benchmark. Deterministic: the same options give the same bytes.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AuditEntryV1 } from "@pi-policy/policy-kernel/audit";
import { auditLogAttributes, OTLP_SCOPE } from "@pi-policy/policy-kernel/report";
import { hashSessionId } from "../../src/session-hash.js";

/** How the generated corpus looks; the defaults pass the exploration gate. */
export interface GateCorpusOptions {
	/**
	 * Put before every entry id. Corpora written again under other folders need their own: entries with the same id
	 * and timestamp are a fork's copies, which the report counts once.
	 */
	idPrefix?: string;
	/** Days the sessions are spread over (the first on day 0, the last on day `days - 1`). Default 15. */
	days?: number;
	users?: number;
	/** Root warn-mode sessions. Default 40. */
	sessions?: number;
	/** Warnings (opportunities) per session. Default 3. */
	warningsPerSession?: number;
	/** Sessions in which the user ran `/exploration-guard allow`. Default 1 (2.5% of 40). */
	bypassSessions?: number;
	/** Extra child sessions whose guard activated (must be 0 for the gate). Default 0. */
	childActivations?: number;
	/** Sessions with a caught handler error. Default 0. */
	handlerErrors?: number;
	/** Filler bytes of ordinary session entries per session file (benchmarks). Default 0. */
	fillerBytes?: number;
	/** Start time. Default 2026-03-01T09:00:00Z. */
	start?: number;
}

/** One generated session: its id, and its entries with times. */
export interface GeneratedSession {
	readonly id: string;
	readonly user: number;
	readonly records: ReadonlyArray<{ readonly entry: AuditEntryV1; readonly time: number }>;
}

const DAY = 86_400_000;

function guard(event: string, fields: Record<string, unknown> = {}): AuditEntryV1 {
	return { v: 1, ext: "exploration-guard", event, mode: "warn", ...fields } as AuditEntryV1;
}

/** The sessions of a corpus (no I/O). */
export function generateGateSessions(options: GateCorpusOptions = {}): GeneratedSession[] {
	const days = options.days ?? 15;
	const users = options.users ?? 6;
	const count = options.sessions ?? 40;
	const perSession = options.warningsPerSession ?? 3;
	const bypass = options.bypassSessions ?? 1;
	const start = options.start ?? Date.parse("2026-03-01T09:00:00Z");
	const sessions: GeneratedSession[] = [];
	const spread = (i: number, n: number) => (n <= 1 ? 0 : Math.round((i * (days - 1)) / (n - 1)));
	for (let i = 0; i < count; i++) {
		let time = start + spread(i, count) * DAY + (i % 7) * 3_600_000;
		const records: Array<{ entry: AuditEntryV1; time: number }> = [];
		const add = (entry: AuditEntryV1) => {
			records.push({ entry, time });
			time += 20_000;
		};
		add(guard("activated", { state: "tracking", counters: { childSession: 0 } }));
		for (let w = 0; w < perSession; w++) {
			add(guard("warned", { state: "warned", category: "grep", counters: { streak: 3, warnings: w + 1 } }));
			// One opportunity in three reaches four broad operations before the delegation.
			if (w % 3 === 0) add(guard("threshold-reached", { state: "warned", category: "read", counters: { streak: 4 } }));
			add(guard("delegation-started", { state: "delegation-pending" }));
			add(guard("delegation-succeeded", { state: "tracking", counters: { delegationsSucceeded: w + 1 } }));
		}
		if (i < bypass) add(guard("user-allow", { state: "tracking", counters: { userAllowed: 0 } }));
		if (i < (options.handlerErrors ?? 0)) add(guard("handler-error"));
		add({
			v: 1,
			ext: "context-shunt",
			event: "bounded",
			mode: "enforce",
			category: "bash",
			counters: { bytes: 40_000 + i, lines: 900 },
		});
		add({ v: 1, ext: "guardian-review", event: "allowed", mode: "enforce", state: "armed", category: "floor" });
		add({
			v: 1,
			ext: "guardian-review",
			event: i % 4 === 0 ? "denied" : "allowed",
			mode: "enforce",
			state: "armed",
			category: "reviewer",
		});
		add({
			v: 1,
			ext: "output-minimizer",
			event: "minimized",
			mode: "reference",
			category: "single",
			counters: { bytesKeptOutTotal: 10_000, referencesTotal: 1 },
		});
		sessions.push({ id: `gate-${String(i).padStart(4, "0")}-user${i % users}`, user: i % users, records });
	}
	for (let c = 0; c < (options.childActivations ?? 0); c++) {
		const time = start + DAY + c * 60_000;
		sessions.push({
			id: `child-${c}`,
			user: 0,
			records: [{ entry: guard("activated", { state: "tracking", counters: { childSession: 1 } }), time }],
		});
	}
	return sessions;
}

function filler(bytes: number, seed: number, time: string): string[] {
	const lines: string[] = [];
	let written = 0;
	let n = 0;
	const text = "The agent reads the module, then runs the tests and reports what changed. ".repeat(24);
	while (written < bytes) {
		const line = JSON.stringify({
			type: "message",
			id: `f${seed}-${n}`,
			parentId: n === 0 ? null : `f${seed}-${n - 1}`,
			timestamp: time,
			message: { role: n % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text }] },
		});
		lines.push(line);
		written += line.length + 1;
		n++;
	}
	return lines;
}

/** One session as Pi session-file lines: a version-3 header, then custom entries (and filler). */
export function sessionFileLines(session: GeneratedSession, fillerBytes = 0, idPrefix = ""): string[] {
	const first = session.records[0]?.time ?? 0;
	const lines = [
		JSON.stringify({
			type: "session",
			version: 3,
			id: session.id,
			timestamp: new Date(first).toISOString(),
			cwd: "/work/project",
		}),
	];
	const perEntry = session.records.length > 0 ? Math.ceil(fillerBytes / session.records.length) : fillerBytes;
	session.records.forEach(({ entry, time }, i) => {
		if (perEntry > 0) lines.push(...filler(perEntry, i, new Date(time).toISOString()));
		lines.push(
			JSON.stringify({
				type: "custom",
				customType: "pi-policy.audit",
				data: entry,
				id: `${idPrefix}e${i}`,
				parentId: i === 0 ? null : `${idPrefix}e${i - 1}`,
				timestamp: new Date(time).toISOString(),
			}),
		);
	});
	return lines;
}

/** Writes the corpus as session files under `dir/<user>/`; returns the file paths. */
export async function writeGateCorpus(dir: string, options: GateCorpusOptions = {}): Promise<string[]> {
	const paths: string[] = [];
	for (const session of generateGateSessions(options)) {
		const folder = join(dir, `--user-${session.user}--`);
		await mkdir(folder, { recursive: true });
		const path = join(folder, `${session.id}.jsonl`);
		await writeFile(path, `${sessionFileLines(session, options.fillerBytes ?? 0, options.idPrefix).join("\n")}\n`);
		paths.push(path);
	}
	return paths;
}

/** The same sessions as OTLP/JSON log lines, one ExportLogsServiceRequest per session (Collector file format). */
export function otlpLines(sessions: readonly GeneratedSession[]): string[] {
	return sessions.map((session) =>
		JSON.stringify({
			resourceLogs: [
				{
					resource: { attributes: [{ key: "service.name", value: { stringValue: "pi-policy" } }] },
					scopeLogs: [
						{
							scope: { name: OTLP_SCOPE },
							logRecords: session.records.map(({ entry, time }) => ({
								timeUnixNano: `${BigInt(time) * 1_000_000n}`,
								severityText: "INFO",
								body: { stringValue: `${entry.ext} ${entry.event}` },
								attributes: Object.entries(auditLogAttributes(entry, hashSessionId(session.id))).map(
									([key, value]) => ({
										key,
										value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value },
									}),
								),
							})),
						},
					],
				},
			],
		}),
	);
}
