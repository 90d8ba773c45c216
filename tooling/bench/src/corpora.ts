// Loader for the replay corpora in tooling/bench/corpora/ (format and sources: corpora/SOURCES.md).
// Bench and test code only: these functions read files and are never meant for a hook's hot path.
import { createReadStream, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The directory that holds the checked-in corpora. */
export const corporaDir: string = join(dirname(fileURLToPath(import.meta.url)), "..", "corpora");

/** The corpus files this loader knows, by name. */
export const corpusNames = {
	agentBashCommands: "agent-bash-commands.jsonl",
	agentToolCalls: "agent-tool-calls.jsonl",
	peerSafetyCases: "peer-safety-cases.jsonl",
} as const;

/** One bash command an agent ran, in session order (`seq` counts from 0 within a session). */
export interface AgentBashCommand {
	system: string;
	session: string;
	seq: number;
	command: string;
}

/** One tool call of a replayed session, with the real size and shape of its output. */
export interface AgentToolCall {
	system: string;
	session: string;
	seq: number;
	/** Pi's name for the tool where one matches (bash, read, edit, write, grep, find); otherwise the agent's own name. */
	tool: string;
	command?: string;
	path?: string;
	outputBytes: number;
	outputLines: number;
	isError: boolean;
}

/** One command-safety case from another project's test suite. */
export interface PeerSafetyCase {
	/** `owner/repo:path` of the test file the case comes from. */
	source: string;
	command: string;
	/** `safe`: the project's test expects it to run without approval; `dangerous`: it must not run unasked. */
	expect: "safe" | "dangerous";
	why?: string;
}

/** Longest line quoted back in an error message. */
const QUOTE_LIMIT = 80;

/** Thrown when a corpus file cannot be read or a line is not one JSON value. */
export class CorpusFormatError extends Error {
	override name = "CorpusFormatError";
}

function corpusPath(name: string, dir: string): string {
	if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes("..")) {
		throw new CorpusFormatError(
			`corpus name must be a plain file name, got ${JSON.stringify(name.slice(0, QUOTE_LIMIT))}`,
		);
	}
	return join(dir, name);
}

function parseLine<T>(line: string, name: string, lineNumber: number): T {
	try {
		return JSON.parse(line) as T;
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		const quoted = line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT)}…` : line;
		throw new CorpusFormatError(`${name}:${lineNumber}: not a JSON value (${reason}): ${quoted}`);
	}
}

/**
 * Reads a JSON-lines corpus file whole: one value per non-empty line, in file order.
 * `name` is a file name inside `dir` (default: the checked-in corpora directory).
 * Throws CorpusFormatError naming the file and line when the file is missing or a line is not JSON.
 */
export function loadJsonl<T>(name: string, dir: string = corporaDir): T[] {
	const path = corpusPath(name, dir);
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new CorpusFormatError(`cannot read corpus ${name}: ${reason}`);
	}
	const values: T[] = [];
	const lines = text.split("\n");
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] ?? "";
		if (line.trim() === "") continue;
		values.push(parseLine<T>(line, name, index + 1));
	}
	return values;
}

/**
 * Streams a JSON-lines corpus file one value at a time, in file order, without holding the whole file.
 * Same rules and errors as loadJsonl.
 */
export async function* streamJsonl<T>(name: string, dir: string = corporaDir): AsyncGenerator<T> {
	const path = corpusPath(name, dir);
	const input = createReadStream(path, { encoding: "utf8" });
	const failure: { error?: Error } = {};
	input.on("error", (error) => {
		failure.error = error;
	});
	const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
	let lineNumber = 0;
	try {
		for await (const line of lines) {
			lineNumber++;
			if (line.trim() === "") continue;
			yield parseLine<T>(line, name, lineNumber);
		}
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		if (error instanceof CorpusFormatError) throw error;
		throw new CorpusFormatError(`cannot read corpus ${name}: ${reason}`);
	} finally {
		lines.close();
		input.destroy();
	}
	if (failure.error) throw new CorpusFormatError(`cannot read corpus ${name}: ${failure.error.message}`);
}

/** The agent bash-command corpus. */
export function loadAgentBashCommands(dir: string = corporaDir): AgentBashCommand[] {
	return loadJsonl<AgentBashCommand>(corpusNames.agentBashCommands, dir);
}

/** The agent tool-call corpus (every call of a subset of sessions). */
export function loadAgentToolCalls(dir: string = corporaDir): AgentToolCall[] {
	return loadJsonl<AgentToolCall>(corpusNames.agentToolCalls, dir);
}

/** The peer command-safety cases. */
export function loadPeerSafetyCases(dir: string = corporaDir): PeerSafetyCase[] {
	return loadJsonl<PeerSafetyCase>(corpusNames.peerSafetyCases, dir);
}
