// Runs the real `pi` CLI as a child process with a bounded timeout, and parses its `--mode json` output.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, parse } from "node:path";
import { fileURLToPath } from "node:url";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";
const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;
const MIN_NODE = [22, 19] as const;

export interface RunPiCliOptions {
	/** Working directory of the run (project root for Pi). */
	cwd: string;
	/** Becomes `PI_CODING_AGENT_DIR`: where Pi reads models.json, settings and stores sessions. */
	agentDir: string;
	/** CLI arguments, e.g. `["--mode", "json", "--model", "loop/loop-1", "-p", "task"]`. */
	args: string[];
	/** Extra environment, applied last. A value of `undefined` removes the variable. */
	env?: Record<string, string | undefined>;
	/** Kill the child (SIGTERM, then SIGKILL) after this long. 45 s by default. */
	timeoutMs?: number;
	/** Written to the child's stdin, which is then closed. Without it stdin is /dev/null. */
	input?: string;
	/** Node binary; `process.execPath` by default. Must be Node >= 22.19. */
	nodePath?: string;
	/** CLI entry; resolved from the installed pi-coding-agent package by default. */
	cliPath?: string;
}

/** One record of Pi's `--mode json` stream. */
export interface PiJsonEvent {
	type: string;
	[key: string]: unknown;
}

export interface PiCliResult {
	/** Exit code; null when the child was killed by a signal. */
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** Every stdout line that parsed as a JSON object with a string `type`, in order. */
	jsonEvents: PiJsonEvent[];
	/** True when the run hit `timeoutMs` and was killed. */
	timedOut: boolean;
	durationMs: number;
}

let cachedCliPath: string | undefined;

/**
 * The directory of an installed package, found by walking up from this file to the nearest
 * `node_modules/<name>/package.json` (symlinks resolved). Works where a package's `exports` hide its package.json.
 */
export function resolveInstalledPackageDir(name: string): string {
	const start = dirname(fileURLToPath(import.meta.url));
	for (let dir = start; ; dir = dirname(dir)) {
		const manifestPath = join(dir, "node_modules", name, "package.json");
		if (existsSync(manifestPath)) return dirname(realpathSync(manifestPath));
		if (dir === parse(dir).root) break;
	}
	throw new Error(`cannot find node_modules/${name} above ${start}`);
}

function readManifest(packageDir: string): Record<string, unknown> {
	return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Record<string, unknown>;
}

/** The absolute path of the installed Pi CLI entry (the package's `bin.pi`). */
export function resolvePiCliPath(): string {
	if (cachedCliPath) return cachedCliPath;
	const packageDir = resolveInstalledPackageDir(PI_PACKAGE);
	const bin = readManifest(packageDir).bin;
	const entry = typeof bin === "string" ? bin : (bin as { pi?: string } | undefined)?.pi;
	if (!entry) throw new Error(`${PI_PACKAGE} has no "pi" bin`);
	cachedCliPath = join(packageDir, entry);
	return cachedCliPath;
}

/** The absolute path of the installed pi-subagents extension entry (its package.json `pi.extensions[0]`). */
export function resolvePiSubagentsExtensionPath(): string {
	const packageDir = resolveInstalledPackageDir("pi-subagents");
	const extensions = (readManifest(packageDir).pi as { extensions?: unknown } | undefined)?.extensions;
	const entry = Array.isArray(extensions) ? extensions[0] : undefined;
	if (typeof entry !== "string") throw new Error("pi-subagents declares no pi.extensions entry");
	return join(packageDir, entry);
}

/** Splits JSONL on LF only (Pi's framing), strips a trailing CR, and keeps the records that are typed JSON objects. */
export function parseJsonEvents(stdout: string): PiJsonEvent[] {
	const events: PiJsonEvent[] = [];
	for (const rawLine of stdout.split("\n")) {
		const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
		if (!line.startsWith("{")) continue;
		try {
			const value: unknown = JSON.parse(line);
			if (value && typeof value === "object" && typeof (value as { type?: unknown }).type === "string") {
				events.push(value as PiJsonEvent);
			}
		} catch {
			// Not a JSON record: print-mode text or a stray log line.
		}
	}
	return events;
}

/** The text of the last assistant `message_end` in a JSON event stream, or undefined. */
export function finalAssistantText(events: readonly PiJsonEvent[]): string | undefined {
	for (let position = events.length - 1; position >= 0; position--) {
		const event = events[position];
		const message = event?.message as { role?: string; content?: unknown } | undefined;
		if (event?.type !== "message_end" || message?.role !== "assistant") continue;
		if (typeof message.content === "string") return message.content;
		if (!Array.isArray(message.content)) return "";
		return message.content
			.filter((part): part is { type: "text"; text: string } => part?.type === "text" && typeof part.text === "string")
			.map((part) => part.text)
			.join("");
	}
	return undefined;
}

function assertNodeVersion(nodePath: string) {
	if (nodePath !== process.execPath) return;
	const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
	if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
		throw new Error(
			`runPiCli: Pi needs Node >= ${MIN_NODE.join(".")}, this process runs ${process.versions.node}. ` +
				"Run through pnpm (the workspace's node devDependency) or pass nodePath.",
		);
	}
}

/**
 * The environment for a Pi child: inherited, minus inherited `PI_*` and `AI_AGENT` session variables, plus
 * isolation defaults (`PI_CODING_AGENT_DIR=agentDir`, offline, no version check or telemetry, `NO_PROXY` for the
 * loopback hosts); `extra` is applied last and `undefined` removes a variable.
 */
export function piCliEnv(agentDir: string, extra: Record<string, string | undefined> | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (key.startsWith("PI_") || key === "AI_AGENT") continue;
		env[key] = value;
	}
	const loopbackHosts = "127.0.0.1,localhost";
	env.NO_PROXY = env.NO_PROXY ? `${env.NO_PROXY},${loopbackHosts}` : loopbackHosts;
	env.no_proxy = env.NO_PROXY;
	env.PI_CODING_AGENT_DIR = agentDir;
	env.PI_OFFLINE = "1";
	env.PI_SKIP_VERSION_CHECK = "1";
	env.PI_TELEMETRY = "0";
	for (const [key, value] of Object.entries(extra ?? {})) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

/**
 * Spawns the real Pi CLI (`node <pi-coding-agent>/dist/bundle/cli.js ...args`) with `PI_CODING_AGENT_DIR=agentDir`,
 * offline, and waits for it to exit or for `timeoutMs`, after which the child's process group is killed.
 */
export function runPiCli(options: RunPiCliOptions): Promise<PiCliResult> {
	const nodePath = options.nodePath ?? process.execPath;
	assertNodeVersion(nodePath);
	const cliPath = options.cliPath ?? resolvePiCliPath();
	const timeoutMs = options.timeoutMs ?? 45_000;
	const started = Date.now();

	return new Promise((resolve, reject) => {
		const child = spawn(nodePath, [cliPath, ...options.args], {
			cwd: options.cwd,
			env: piCliEnv(options.agentDir, options.env),
			stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
			detached: process.platform !== "win32",
		});
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let stdoutBytes = 0;
		let stderrBytes = 0;
		let timedOut = false;
		let killTimer: NodeJS.Timeout | undefined;

		const killGroup = (signal: NodeJS.Signals) => {
			if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
			try {
				if (process.platform !== "win32") process.kill(-child.pid, signal);
				else child.kill(signal);
			} catch {
				child.kill(signal);
			}
		};
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup("SIGTERM");
			killTimer = setTimeout(() => killGroup("SIGKILL"), 2_000);
		}, timeoutMs);

		child.stdout?.on("data", (chunk: Buffer) => {
			if (stdoutBytes >= MAX_CAPTURE_BYTES) return;
			stdoutBytes += chunk.length;
			stdout.push(chunk);
		});
		child.stderr?.on("data", (chunk: Buffer) => {
			if (stderrBytes >= MAX_CAPTURE_BYTES) return;
			stderrBytes += chunk.length;
			stderr.push(chunk);
		});
		if (options.input !== undefined && child.stdin) {
			child.stdin.on("error", () => {});
			child.stdin.end(options.input);
		}
		child.on("error", (error) => {
			clearTimeout(timer);
			if (killTimer) clearTimeout(killTimer);
			reject(error);
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (killTimer) clearTimeout(killTimer);
			// The CLI may leave grandchildren (tool processes) behind when killed; end the group we started.
			if (timedOut) killGroup("SIGKILL");
			const out = Buffer.concat(stdout).toString("utf8");
			resolve({
				code,
				signal,
				stdout: out,
				stderr: Buffer.concat(stderr).toString("utf8"),
				jsonEvents: parseJsonEvents(out),
				timedOut,
				durationMs: Date.now() - started,
			});
		});
	});
}
