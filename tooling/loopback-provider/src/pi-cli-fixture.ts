// A disposable workspace for one or more real `pi` CLI runs against a fresh loopback server: temp cwd, agentDir and
// HOME, models.json pointing at the server, agent profiles and policy configs, and a `run(args)` with isolated env.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ModelsJsonOptions } from "./models-json.ts";
import { type PiCliResult, type RunPiCliOptions, runPiCli } from "./pi-cli.ts";
import { type LoopbackProvider, type LoopbackProviderOptions, startLoopbackProvider } from "./server.ts";

/** A pi-subagents agent profile, written by the fixture to `<agentDir>/agents/<name>.md` (the user scope). */
export interface PiSubagentProfile {
	/** The agent name, as the `subagent` tool's `agent` argument names it. */
	name: string;
	description: string;
	/** The child's model as `provider/model`; `loop/loop-1` (the loopback default) by default. */
	model?: string;
	/** The child's tool allowlist; `["read"]` by default. */
	tools?: readonly string[];
	/** The profile's system prompt. A unique token in it lets a router recognise the child's requests. */
	prompt: string;
}

/** The Markdown of an agent profile: YAML frontmatter (name, description, model, tools), then the prompt. */
export function renderPiSubagentProfile(profile: PiSubagentProfile): string {
	const { name, description, model = "loop/loop-1", tools = ["read"], prompt } = profile;
	const frontmatter = [`name: ${name}`, `description: ${description}`, `model: ${model}`, `tools: ${tools.join(", ")}`];
	return ["---", ...frontmatter, "---", prompt, ""].join("\n");
}

export interface PiCliFixtureOptions {
	/** Prefix of the temp root created under `os.tmpdir()`. `"pi-cli-fixture-"` by default. */
	prefix?: string;
	/** Options for the loopback server (script, router, chunk size, ...). */
	provider?: LoopbackProviderOptions;
	/** Options for the `<agentDir>/models.json` that points Pi at the server. */
	modelsJson?: ModelsJsonOptions;
	/** Files to create in the cwd, keyed by relative path (parent folders are created). */
	files?: Record<string, string>;
	/**
	 * Agent profiles for pi-subagents, written to `<agentDir>/agents/<name>.md`: the user scope, where pi-subagents
	 * looks when `PI_CODING_AGENT_DIR` is set, and which needs no project trust (a project `.pi/` folder would).
	 */
	agents?: readonly PiSubagentProfile[];
	/** Global policy configs, keyed by package folder: written to `<agentDir>/policy/<name>.json` (strings verbatim, else JSON). */
	config?: Record<string, unknown>;
}

/** Per-run options of {@link PiCliFixture.run}: everything of `runPiCli` except the paths the fixture owns. */
export type PiCliFixtureRunOptions = Pick<RunPiCliOptions, "env" | "timeoutMs" | "input">;

export interface PiCliFixture {
	/** The temp root that holds everything below; free for the test's own files (captures, logs). */
	readonly root: string;
	/** `<root>/cwd`: the project directory of every run. */
	readonly cwd: string;
	/** `<root>/agent`: becomes `PI_CODING_AGENT_DIR` (models.json, agents/, policy/, sessions/). */
	readonly agentDir: string;
	/** `<root>/home`: the runs' `HOME`. */
	readonly home: string;
	/** The loopback server the runs talk to. */
	readonly server: LoopbackProvider;
	/**
	 * Runs the real `pi` CLI with `args` in this workspace (see `runPiCli`), with `HOME` set to {@link home} and
	 * `PI_SUBAGENTS_TEMP_ROOT` to `<root>/subagents-tmp`; `options.env` is applied on top.
	 */
	run(args: string[], options?: PiCliFixtureRunOptions): Promise<PiCliResult>;
	/** Closes the server and removes the temp root. Idempotent. */
	dispose(): Promise<void>;
	[Symbol.asyncDispose](): Promise<void>;
}

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
	for (const [relative, content] of Object.entries(files)) {
		const target = join(root, relative);
		await mkdir(dirname(target), { recursive: true });
		await writeFile(target, content);
	}
}

/** `{ name: value }` → `{ "<folder>/<name><extension>": text }`: strings verbatim, anything else as JSON. */
function filesByName(folder: string, extension: string, entries: Record<string, unknown> = {}): Record<string, string> {
	return Object.fromEntries(
		Object.entries(entries).map(([name, value]) => [
			`${folder}/${name}${extension}`,
			typeof value === "string" ? value : JSON.stringify(value),
		]),
	);
}

/**
 * Starts a loopback server and prepares a temp workspace for the real `pi` CLI: `<root>/cwd` (with `files`),
 * `<root>/agent` (models.json for the server, `agents/<name>.md` profiles, `policy/<name>.json` configs) and
 * `<root>/home`. Dispose it (or `await using` it) to close the server and remove the root.
 */
export async function startPiCliFixture(options: PiCliFixtureOptions = {}): Promise<PiCliFixture> {
	const server = await startLoopbackProvider(options.provider);
	let root: string | undefined;
	let disposed: Promise<void> | undefined;
	const dispose = () => {
		disposed ??= (async () => {
			await server.close();
			if (root) await rm(root, { recursive: true, force: true });
		})();
		return disposed;
	};
	try {
		root = await mkdtemp(join(tmpdir(), options.prefix ?? "pi-cli-fixture-"));
		const cwd = join(root, "cwd");
		const agentDir = join(root, "agent");
		const home = join(root, "home");
		const subagentsTempRoot = join(root, "subagents-tmp");
		await Promise.all([cwd, agentDir, home].map((dir) => mkdir(dir, { recursive: true })));
		await writeFiles(cwd, options.files ?? {});
		const profiles = Object.fromEntries(
			(options.agents ?? []).map((agent) => [agent.name, renderPiSubagentProfile(agent)]),
		);
		await writeFiles(agentDir, {
			...filesByName("agents", ".md", profiles),
			...filesByName("policy", ".json", options.config),
		});
		await server.writeModelsJson(agentDir, options.modelsJson);
		return {
			root,
			cwd,
			agentDir,
			home,
			server,
			run: (args, runOptions = {}) =>
				runPiCli({
					...runOptions,
					cwd,
					agentDir,
					args,
					env: { HOME: home, PI_SUBAGENTS_TEMP_ROOT: subagentsTempRoot, ...runOptions.env },
				}),
			dispose,
			[Symbol.asyncDispose]: dispose,
		};
	} catch (error) {
		await dispose();
		throw error;
	}
}
