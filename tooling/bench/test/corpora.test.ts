import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
	type AgentBashCommand,
	type AgentToolCall,
	CorpusFormatError,
	corporaDir,
	corpusNames,
	loadAgentBashCommands,
	loadAgentToolCalls,
	loadJsonl,
	loadPeerSafetyCases,
	type PeerSafetyCase,
	streamJsonl,
} from "../src/corpora.ts";

const sourcesText = readFileSync(join(corporaDir, "SOURCES.md"), "utf8");
const MAX_FILE_BYTES = 4 * 1024 * 1024;

function keysOf(value: object): string[] {
	return Object.keys(value).sort();
}

function isCount(value: unknown): boolean {
	return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** Checks that seq runs 0, 1, 2, … within each session, in file order, and returns the sessions' lengths. */
function sessionLengths(rows: Array<{ system: string; session: string; seq: number }>): Map<string, number> {
	const lengths = new Map<string, number>();
	for (const row of rows) {
		const key = `${row.system}\u0000${row.session}`;
		const next = lengths.get(key) ?? 0;
		expect(row.seq, `seq of ${row.system} ${row.session}`).toBe(next);
		lengths.set(key, next + 1);
	}
	return lengths;
}

describe("replay corpora", () => {
	it("each corpus file exists, is plain JSON lines and stays under 4 MiB", () => {
		for (const name of Object.values(corpusNames)) {
			const size = statSync(join(corporaDir, name)).size;
			expect(size, name).toBeGreaterThan(0);
			expect(size, name).toBeLessThan(MAX_FILE_BYTES);
			const head = readFileSync(join(corporaDir, name)).subarray(0, 2);
			expect(head[0] === 0x1f && head[1] === 0x8b, `${name} is not gzip`).toBe(false);
		}
	});

	it("agent-bash-commands: >= 5,000 commands from >= 2 agent systems, in session order", () => {
		const rows = loadAgentBashCommands();
		expect(rows.length).toBeGreaterThanOrEqual(5_000);
		for (const row of rows) {
			expect(keysOf(row)).toEqual(["command", "seq", "session", "system"]);
			expect(typeof row.system === "string" && row.system.length > 0).toBe(true);
			expect(typeof row.session === "string" && row.session.length > 0).toBe(true);
			expect(typeof row.command === "string" && row.command.trim().length > 0).toBe(true);
			expect(isCount(row.seq)).toBe(true);
		}
		sessionLengths(rows);
		const perSystem = new Map<string, number>();
		for (const row of rows) perSystem.set(row.system, (perSystem.get(row.system) ?? 0) + 1);
		expect(perSystem.size).toBeGreaterThanOrEqual(2);
		// Every system contributes a real share, not a token handful.
		for (const [system, count] of perSystem) expect(count, system).toBeGreaterThanOrEqual(500);
	});

	it("agent-tool-calls: every call of each session with its output size, several sessions of >= 150 calls", () => {
		const rows = loadAgentToolCalls();
		const allowed = ["command", "isError", "outputBytes", "outputLines", "path", "seq", "session", "system", "tool"];
		for (const row of rows) {
			for (const key of keysOf(row)) expect(allowed, `unexpected key ${key}`).toContain(key);
			expect(typeof row.system === "string" && row.system.length > 0).toBe(true);
			expect(typeof row.session === "string" && row.session.length > 0).toBe(true);
			expect(typeof row.tool === "string" && row.tool.length > 0).toBe(true);
			expect(isCount(row.seq) && isCount(row.outputBytes) && isCount(row.outputLines)).toBe(true);
			expect(typeof row.isError).toBe("boolean");
			if (row.command !== undefined) expect(typeof row.command).toBe("string");
			if (row.path !== undefined) expect(typeof row.path).toBe("string");
			if (row.tool === "bash") expect(typeof row.command).toBe("string");
			// Text with bytes has at least one line; an empty output has none.
			expect(row.outputBytes === 0).toBe(row.outputLines === 0);
		}
		const lengths = sessionLengths(rows);
		const long = [...lengths.values()].filter((length) => length >= 150);
		expect(long.length).toBeGreaterThanOrEqual(3);
		expect(rows.some((row) => row.tool !== "bash")).toBe(true);
		expect(rows.some((row) => row.isError) && rows.some((row) => !row.isError)).toBe(true);
	});

	it("the tool-call sessions replay the same bash commands as the command corpus where both hold a session", () => {
		const commands = loadAgentBashCommands();
		const calls = loadAgentToolCalls();
		const bySession = new Map<string, string[]>();
		for (const row of commands) {
			const key = `${row.system}\u0000${row.session}`;
			bySession.set(key, [...(bySession.get(key) ?? []), row.command]);
		}
		let compared = 0;
		const callsBySession = new Map<string, string[]>();
		for (const call of calls) {
			if (call.tool !== "bash" || call.command === undefined) continue;
			const key = `${call.system}\u0000${call.session}`;
			callsBySession.set(key, [...(callsBySession.get(key) ?? []), call.command]);
		}
		for (const [key, bashCalls] of callsBySession) {
			const listed = bySession.get(key);
			if (!listed) continue;
			expect(bashCalls).toEqual(listed);
			compared++;
		}
		expect(compared).toBeGreaterThan(0);
	});

	it("peer-safety-cases: >= 300 cases, safe and dangerous both present, each with an owner/repo:path source", () => {
		const rows = loadPeerSafetyCases();
		expect(rows.length).toBeGreaterThanOrEqual(300);
		for (const row of rows) {
			for (const key of keysOf(row)) expect(["command", "expect", "source", "why"]).toContain(key);
			expect(row.source).toMatch(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+:[^\s:]+$/);
			expect(typeof row.command === "string" && row.command.trim().length > 0).toBe(true);
			expect(["safe", "dangerous"]).toContain(row.expect);
			if (row.why !== undefined) expect(typeof row.why).toBe("string");
		}
		const verdicts = new Set(rows.map((row) => row.expect));
		expect(verdicts).toEqual(new Set(["safe", "dangerous"]));
		expect(new Set(rows.map((row) => row.source.split(":")[0])).size).toBeGreaterThanOrEqual(3);
		const keys = rows.map((row) => `${row.source}\u0000${row.command}\u0000${row.expect}`);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it("SOURCES.md names every peer source file and every agent system that appears in the corpora", () => {
		for (const source of new Set(loadPeerSafetyCases().map((row) => row.source))) {
			expect(sourcesText, `SOURCES.md lacks ${source}`).toContain(`\`${source}\``);
		}
		const systems = new Set<string>();
		for (const row of loadAgentBashCommands()) systems.add(row.system);
		for (const row of loadAgentToolCalls()) systems.add(row.system);
		for (const system of systems) {
			expect(sourcesText, `SOURCES.md lacks system ${system}`).toContain(`### system \`${system}\``);
		}
		// Each named source carries a 40-hex commit id.
		expect(sourcesText.match(/\b[0-9a-f]{40}\b/g)?.length ?? 0).toBeGreaterThanOrEqual(
			systems.size + new Set(loadPeerSafetyCases().map((row) => row.source.split(":")[0])).size,
		);
	});
});

describe("corpora loader", () => {
	const dir = mkdtempSync(join(tmpdir(), "corpora-test-"));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("loadJsonl skips blank lines and names the file and line of a broken one", () => {
		writeFileSync(join(dir, "ok.jsonl"), '{"a":1}\n\n{"a":2}\n');
		expect(loadJsonl<{ a: number }>("ok.jsonl", dir)).toEqual([{ a: 1 }, { a: 2 }]);
		writeFileSync(join(dir, "bad.jsonl"), '{"a":1}\n{"a":\n');
		expect(() => loadJsonl("bad.jsonl", dir)).toThrow(CorpusFormatError);
		expect(() => loadJsonl("bad.jsonl", dir)).toThrow(/bad\.jsonl:2: not a JSON value/);
	});

	it("loadJsonl refuses names that leave the corpora directory and reports a missing file", () => {
		expect(() => loadJsonl("../package.json")).toThrow(CorpusFormatError);
		expect(() => loadJsonl("sub/file.jsonl")).toThrow(/plain file name/);
		expect(() => loadJsonl("missing.jsonl", dir)).toThrow(/cannot read corpus missing\.jsonl/);
	});

	it("streamJsonl yields the same values as loadJsonl and fails the same way", async () => {
		const streamed: PeerSafetyCase[] = [];
		for await (const row of streamJsonl<PeerSafetyCase>(corpusNames.peerSafetyCases)) streamed.push(row);
		expect(streamed).toEqual(loadPeerSafetyCases());
		const broken = async () => {
			for await (const _ of streamJsonl("bad.jsonl", dir)) {
				// drain
			}
		};
		await expect(broken()).rejects.toThrow(/bad\.jsonl:2/);
		const missing = async () => {
			for await (const _ of streamJsonl<AgentBashCommand | AgentToolCall>("missing.jsonl", dir)) {
				// drain
			}
		};
		await expect(missing()).rejects.toThrow(CorpusFormatError);
	});
});
