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
	const outOfOrder: string[] = [];
	for (const row of rows) {
		const key = `${row.system}\u0000${row.session}`;
		const next = lengths.get(key) ?? 0;
		if (row.seq !== next) outOfOrder.push(`${row.system} ${row.session}: seq ${row.seq}, expected ${next}`);
		lengths.set(key, next + 1);
	}
	expect(outOfOrder.slice(0, 3)).toEqual([]);
	return lengths;
}

function isText(value: unknown): value is string {
	return typeof value === "string" && value.length > 0;
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
		const badRows = rows.filter(
			(row) =>
				keysOf(row).join(",") !== "command,seq,session,system" ||
				!isText(row.system) ||
				!isText(row.session) ||
				!isText(row.command) ||
				row.command.trim() === "" ||
				!isCount(row.seq),
		);
		expect(badRows.slice(0, 3)).toEqual([]);
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
		const badRows = rows.filter(
			(row) =>
				keysOf(row).some((key) => !allowed.includes(key)) ||
				!isText(row.system) ||
				!isText(row.session) ||
				!isText(row.tool) ||
				!isCount(row.seq) ||
				!isCount(row.outputBytes) ||
				!isCount(row.outputLines) ||
				typeof row.isError !== "boolean" ||
				(row.command !== undefined && typeof row.command !== "string") ||
				(row.path !== undefined && typeof row.path !== "string") ||
				(row.tool === "bash" && typeof row.command !== "string") ||
				// Text with bytes has at least one line; an empty output has none.
				(row.outputBytes === 0) !== (row.outputLines === 0),
		);
		expect(badRows.slice(0, 3)).toEqual([]);
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
	it("the row counts SOURCES.md states for each file are the files' real counts", () => {
		const stated = (file: string): number => {
			const match = sourcesText.match(new RegExp(`\\| \`${file.replace(".", "\\.")}\` \\| ([0-9,]+) `));
			expect(match, `SOURCES.md states no count for ${file}`).not.toBeNull();
			return Number((match?.[1] ?? "").replaceAll(",", ""));
		};
		expect(stated(corpusNames.agentBashCommands)).toBe(loadAgentBashCommands().length);
		expect(stated(corpusNames.agentToolCalls)).toBe(loadAgentToolCalls().length);
		expect(stated(corpusNames.peerSafetyCases)).toBe(loadPeerSafetyCases().length);
	});

	it("the safe/dangerous counts SOURCES.md gives per peer project are the file's real counts", () => {
		const real = new Map<string, { safe: number; dangerous: number }>();
		for (const row of loadPeerSafetyCases()) {
			const repo = row.source.split(":")[0] ?? "";
			const counts = real.get(repo) ?? { safe: 0, dangerous: 0 };
			counts[row.expect]++;
			real.set(repo, counts);
		}
		const stated = new Map<string, { safe: number; dangerous: number }>();
		for (const match of sourcesText.matchAll(/^\| ([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)[^|]* \| (\d+) \| (\d+) \|$/gm)) {
			stated.set(match[1] ?? "", { safe: Number(match[2]), dangerous: Number(match[3]) });
		}
		expect(stated).toEqual(real);
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
