// pi-harness: a real Pi AgentSession in-process, driven by the faux provider, for session tests.
// Extensions load from source; model turns are scripted; everything the model saw is recorded.

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
	type AssistantMessage,
	type FauxModelDefinition,
	type FauxProviderHandle,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxToolCall,
	type Message,
	type SimpleStreamOptions,
	type ToolCall,
	type ToolResultMessage,
	type TranscriptContext,
} from "@earendil-works/pi-ai";
import {
	type AgentSession,
	CONFIG_DIR_NAME,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionFactory,
	type InlineExtension,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { pathWithFdAdapter } from "./fd-adapter.ts";
import { createRecordingUi, type RecordingUi, type RecordingUiOptions } from "./recording-ui.ts";

export { FD_ADAPTER_DIR, pathWithFdAdapter } from "./fd-adapter.ts";
export { createRecordingUi, type RecordingUi, type RecordingUiOptions, type UiCall } from "./recording-ui.ts";

/** The tools every harness session enables unless told otherwise (grep, find and ls are not Pi defaults). */
export const DEFAULT_HARNESS_TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];

/** One model request as the faux provider received it. */
export interface ModelRequest {
	/** Index of the request in the session, from 0. */
	index: number;
	/** The messages the model was sent, the leading system message included. */
	messages: Message[];
	/** Names of the tools offered to the model, in order. */
	toolNames: string[];
	/** The model id the request was addressed to. */
	modelId: string;
	/** The stream options the host passed (signal, reasoning, …). */
	options: SimpleStreamOptions | undefined;
}

/** A scripted model turn: a reply, a plain text, or a function of the request the model received. */
export type ScriptStep =
	| string
	| AssistantMessage
	| ((request: ModelRequest) => AssistantMessage | string | Promise<AssistantMessage | string>);

export interface HarnessOptions {
	/** Extensions to load, in load order, from source. */
	extensions?: InlineExtension[];
	/** Extension files to load by path (e.g. an installed package's entry), after `extensions`. */
	extensionPaths?: string[];
	/** Active tools. Default: {@link DEFAULT_HARNESS_TOOLS}. */
	tools?: string[];
	/** Files to create in the temp cwd, keyed by relative path. */
	files?: Record<string, string | Uint8Array>;
	/** Global policy configs: written to `<agentDir>/policy/<name>.json` (strings verbatim, else JSON). */
	config?: Record<string, unknown>;
	/** Project policy configs: written to `<cwd>/<CONFIG_DIR_NAME>/policy/<name>.json`. */
	projectConfig?: Record<string, unknown>;
	/** Whether the project is trusted. Default true. */
	projectTrusted?: boolean;
	/** A recording UI (default), with scripted dialog answers; `false` runs headless (`ctx.hasUI` false). */
	ui?: RecordingUiOptions | false;
	/** Environment variables set for the harness lifetime and restored on dispose. */
	env?: Record<string, string | undefined>;
	/** Faux models to offer. Default: one model `faux/faux-1`. */
	models?: FauxModelDefinition[];
	/** Files to create inside the agentDir, keyed by relative path. */
	agentDirFiles?: Record<string, string | Uint8Array>;
	/** Reply used when the script runs out. Default: the text "(harness: no scripted reply)". */
	fallbackReply?: ScriptStep;
	/** Pi settings for the session (e.g. `shellCommandPrefix`), merged over the harness's `{ compaction: off }`. */
	settings?: Record<string, unknown>;
	/**
	 * Load skills as stock Pi does (the agent dir's `skills/`, `~/.agents/skills/`, the project's), so the system
	 * prompt names them. Default false: the harness loads none.
	 */
	skills?: boolean;
}

export interface Harness {
	readonly session: AgentSession;
	readonly faux: FauxProviderHandle;
	readonly cwd: string;
	readonly agentDir: string;
	/** The recording UI, or undefined when headless. */
	readonly ui: RecordingUi | undefined;
	/** Every request the model received, in order (extension model calls through the faux provider included). */
	readonly requests: ModelRequest[];
	/** Queue scripted model turns after any already queued. */
	script(...steps: ScriptStep[]): void;
	/** Number of scripted turns not yet consumed. */
	pendingSteps(): number;
	/** Run a prompt (or a slash command) and wait until the run finishes. */
	prompt(text: string): Promise<void>;
	/** Run a slash command, e.g. `command("/guard status")`. */
	command(text: string): Promise<void>;
	/** Custom entries persisted with `pi.appendEntry(customType, data)` on the current branch, as data. */
	entries<T = unknown>(customType: string): T[];
	/** Every tool result message in the session, in order. */
	toolResults(): ToolResultMessage[];
	/** Text of a tool result message (text blocks joined). */
	toolResultText(result: ToolResultMessage): string;
	/** The UTF-8 byte size of what one request sent the model (JSON of its messages). */
	requestBytes(request: ModelRequest): number;
	/** The text of every message the model was sent in one request, system message included. */
	requestText(request: ModelRequest): string;
	/**
	 * Emit `session_shutdown` (reason "quit") the way Pi's runtime does when it exits; once only.
	 * `AgentSession.dispose()` alone does not emit it.
	 */
	shutdown(): Promise<void>;
	/** Shut down (see {@link Harness.shutdown}), dispose the session, restore the environment and remove the temp directories. */
	dispose(): Promise<void>;
}

/** A text reply. */
export function reply(text: string): AssistantMessage {
	return fauxAssistantMessage(text);
}

/** An assistant turn that calls one or more tools. */
export function callTools(
	...calls: Array<{ name: string; args: Record<string, unknown>; id?: string }>
): AssistantMessage {
	return fauxAssistantMessage(
		calls.map((call) =>
			fauxToolCall(call.name, call.args as ToolCall["arguments"], call.id ? { id: call.id } : undefined),
		),
		{ stopReason: "toolUse" },
	);
}

/** An assistant turn that calls one tool. */
export function callTool(name: string, args: Record<string, unknown>, id?: string): AssistantMessage {
	return callTools({ name, args, ...(id ? { id } : {}) });
}

/** An assistant turn with text and tool calls. */
export function textAndTools(
	text: string,
	...calls: Array<{ name: string; args: Record<string, unknown> }>
): AssistantMessage {
	return fauxAssistantMessage(
		[fauxText(text), ...calls.map((call) => fauxToolCall(call.name, call.args as ToolCall["arguments"]))],
		{
			stopReason: "toolUse",
		},
	);
}

/** The text of the last tool result a request carried; throws when the request or a tool result is missing. */
export function lastToolResultText(harness: Pick<Harness, "requests">, requestIndex: number): string {
	const request = harness.requests[requestIndex];
	if (!request) throw new Error(`no request ${requestIndex} (have ${harness.requests.length})`);
	const last = request.messages.filter((message) => message.role === "toolResult").at(-1);
	if (!last) throw new Error(`request ${requestIndex} has no tool result`);
	return contentText(last.content);
}

/** Text of any message content (string or blocks). */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block) => {
			if (block && typeof block === "object") {
				const b = block as Record<string, unknown>;
				if (typeof b.text === "string") return b.text;
				if (typeof b.thinking === "string") return b.thinking;
				if (b.type === "toolCall") return JSON.stringify(b.arguments ?? {});
			}
			return "";
		})
		.join("\n");
}

function messageText(message: Message): string {
	const m = message as unknown as Record<string, unknown>;
	if (m.role === "system") {
		const sections = m.sections as Record<string, string | null> | undefined;
		const parts = [contentText(m.content)];
		if (sections) for (const text of Object.values(sections)) if (typeof text === "string") parts.push(text);
		return parts.join("\n");
	}
	return contentText(m.content);
}

const encoder = new TextEncoder();

async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
	for (const [relative, content] of Object.entries(files)) {
		const target = join(root, relative);
		await mkdir(dirname(target), { recursive: true });
		await writeFile(target, content);
	}
}

function configFiles(configs: Record<string, unknown> | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(configs ?? {})) {
		out[`policy/${name}.json`] = typeof value === "string" ? value : JSON.stringify(value, null, 2);
	}
	return out;
}

function toolNamesOf(context: TranscriptContext): string[] {
	const names: string[] = [];
	for (const message of context.messages) {
		const m = message as unknown as Record<string, unknown>;
		for (const key of ["tools", "toolsAdded"]) {
			const tools = m[key];
			if (Array.isArray(tools)) {
				for (const tool of tools) {
					const name = (tool as { name?: unknown })?.name;
					if (typeof name === "string" && !names.includes(name)) names.push(name);
				}
			}
		}
		const removed = m.toolsRemoved;
		if (Array.isArray(removed)) {
			for (const item of removed) {
				// Pi 1.6.0 reports removed tools as `{ name }` objects; accept plain names too.
				const name = typeof item === "string" ? item : (item as { name?: unknown })?.name;
				const at = names.indexOf(String(name));
				if (at >= 0) names.splice(at, 1);
			}
		}
	}
	return names;
}

/** The environment each live harness set, in start order, over what the process had before the first of them. */
const environmentLayers: Array<Readonly<Record<string, string | undefined>>> = [];
const environmentBaseline = new Map<string, string | undefined>();

/** Sets each of `keys` in `process.env` to its baseline under every live layer, the latest layer winning. */
function applyEnvironmentLayers(keys: readonly string[]): void {
	for (const key of keys) {
		let value = environmentBaseline.get(key);
		for (const layer of environmentLayers) if (Object.hasOwn(layer, key)) value = layer[key];
		if (value === undefined) delete process.env[key];
		else process.env[key] = value;
	}
}

/**
 * Sets `env` over the process environment for one harness's lifetime; the returned function takes it off again. Two
 * harnesses may be disposed in any order: each removal recomputes the environment from what the process had before
 * any harness and the layers still live, so none restores a value another one set.
 */
function overrideEnvironment(env: Readonly<Record<string, string | undefined>>): () => void {
	for (const key of Object.keys(env)) {
		if (!environmentBaseline.has(key)) environmentBaseline.set(key, process.env[key]);
	}
	const layer = { ...env };
	const keys = Object.keys(layer);
	environmentLayers.push(layer);
	applyEnvironmentLayers(keys);
	let removed = false;
	return () => {
		if (removed) return;
		removed = true;
		environmentLayers.splice(environmentLayers.indexOf(layer), 1);
		applyEnvironmentLayers(keys);
		if (environmentLayers.length === 0) environmentBaseline.clear();
	};
}

/** Start a real Pi AgentSession with the faux provider, a temp cwd and agentDir, and the given extensions. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	const root = await mkdtemp(join(tmpdir(), "pi-harness-"));
	const cwd = join(root, "work");
	const agentDir = join(root, "agent");
	await mkdir(cwd, { recursive: true });
	await mkdir(agentDir, { recursive: true });
	await writeTree(cwd, options.files ?? {});
	await writeTree(agentDir, { ...configFiles(options.config), ...(options.agentDirFiles ?? {}) });
	const projectConfig = configFiles(options.projectConfig);
	await writeTree(join(cwd, CONFIG_DIR_NAME), projectConfig);

	const env: Record<string, string | undefined> = {
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		...(options.env ?? {}),
	};
	// A test's own PATH still gets the adapter, so Pi's find tool works whatever PATH the test sets.
	env.PATH = pathWithFdAdapter(env.PATH ?? process.env.PATH ?? "");
	const restoreEnv = overrideEnvironment(env);

	try {
		const faux = fauxProvider({ provider: "faux", models: options.models ?? [{ id: "faux-1" }] });
		const modelRuntime = await ModelRuntime.create({
			authPath: join(agentDir, "auth.json"),
			modelsPath: null,
			refreshOnCreate: false,
		});
		modelRuntime.registerNativeProvider(faux.provider);
		await modelRuntime.setRuntimeApiKey("faux", "x");
		// registerNativeProvider starts a catalog refresh it does not await; a pass of it that finishes late could
		// leave the snapshot without the runtime key (seen once under load: the reviewer's auth check said no-auth).
		// One awaited refresh settles the snapshot before the session starts.
		await modelRuntime.refresh({ allowNetwork: false });
		if (!modelRuntime.hasConfiguredAuth("faux")) throw new Error("harness: the faux provider has no credentials");

		const requests: ModelRequest[] = [];
		const queue: ScriptStep[] = [];
		const fallback: ScriptStep = options.fallbackReply ?? "(harness: no scripted reply)";
		const dispatcher = async (
			context: TranscriptContext,
			streamOptions: SimpleStreamOptions | undefined,
			_state: unknown,
			model: { id: string },
		): Promise<AssistantMessage> => {
			faux.appendResponses([dispatcher]);
			const request: ModelRequest = {
				index: requests.length,
				messages: structuredClone(context.messages),
				toolNames: toolNamesOf(context),
				modelId: model.id,
				options: streamOptions,
			};
			requests.push(request);
			const step = queue.shift() ?? fallback;
			const produced = typeof step === "function" ? await step(request) : step;
			return typeof produced === "string" ? fauxAssistantMessage(produced) : produced;
		};
		faux.setResponses([dispatcher]);

		const settingsManager = SettingsManager.inMemory(
			{ compaction: { enabled: false }, ...options.settings },
			{ projectTrusted: options.projectTrusted ?? true },
		);
		const resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			settingsManager,
			extensionFactories: options.extensions ?? [],
			additionalExtensionPaths: options.extensionPaths ?? [],
			noExtensions: true,
			noSkills: options.skills !== true,
			noPromptTemplates: true,
			noThemes: true,
		});
		await resourceLoader.reload();
		const extensionErrors = resourceLoader.getExtensions().errors;
		if (extensionErrors.length > 0) {
			throw new Error(`extension load failed: ${extensionErrors.map((e) => e.error).join("; ")}`);
		}

		const { session } = await createAgentSession({
			cwd,
			agentDir,
			model: faux.getModel(),
			thinkingLevel: "off",
			modelRuntime,
			resourceLoader,
			tools: options.tools ?? DEFAULT_HARNESS_TOOLS,
			sessionManager: SessionManager.inMemory(cwd),
			settingsManager,
		});

		const ui = options.ui === false ? undefined : createRecordingUi(options.ui ?? {});
		await session.bindExtensions({ ...(ui ? { uiContext: ui.context, mode: "rpc" as const } : {}) });

		let shutDown = false;
		let disposed = false;
		const harness: Harness = {
			session,
			faux,
			cwd,
			agentDir,
			ui,
			requests,
			script(...steps) {
				queue.push(...steps);
			},
			pendingSteps: () => queue.length,
			async prompt(text) {
				await session.prompt(text);
				await session.waitForIdle();
			},
			async command(text) {
				await harness.prompt(text.startsWith("/") ? text : `/${text}`);
			},
			entries<T>(customType: string): T[] {
				return session.sessionManager
					.getBranch()
					.filter((entry) => entry.type === "custom" && (entry as { customType?: string }).customType === customType)
					.map((entry) => (entry as { data?: unknown }).data as T);
			},
			toolResults() {
				return session.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
			},
			toolResultText(result) {
				return contentText(result.content);
			},
			requestBytes(request) {
				return encoder.encode(JSON.stringify(request.messages)).byteLength;
			},
			requestText(request) {
				return request.messages.map(messageText).join("\n");
			},
			async shutdown() {
				if (shutDown) return;
				shutDown = true;
				await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
			},
			async dispose() {
				if (disposed) return;
				disposed = true;
				try {
					await harness.shutdown();
				} catch {
					// A failing shutdown handler must not keep the temp directories around.
				}
				try {
					session.dispose();
				} finally {
					restoreEnv();
					await rm(root, { recursive: true, force: true });
				}
			},
		};
		return harness;
	} catch (error) {
		restoreEnv();
		await rm(root, { recursive: true, force: true });
		throw error;
	}
}

export { type SpecialConfigFileKind, specialConfigFile } from "./special-files.ts";
export { hostPackageDir, type RealisticWorkspaceOptions, realisticWorkspaceFiles, realText } from "./workspace.ts";
export type { ExtensionFactory };
