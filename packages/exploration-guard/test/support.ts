// Shared fixtures for the exploration-guard session tests: a stand-in delegation tool, a custom tool, an
// audit-bus spy, the private strings the privacy scan looks for, and helpers that read a harness.
import type { ExtensionAPI, InlineExtension } from "@earendil-works/pi-coding-agent";
import { callTool, contentText, createHarness, type Harness, type HarnessOptions } from "@pi-policy/pi-harness";
import type { ExplorationGuardState } from "@pi-policy/policy-kernel/exploration";
import { Type } from "typebox";
import { afterAll } from "vitest";
import explorationGuard, { type ExplorationGuardHandle, registerExplorationGuard } from "../src/index.ts";

/** A grep pattern and paths that must never appear in anything the guard persists or shows. */
export const SECRET_PATTERN = "zebraQuokkaNeedle";
export const SECRET_DIR = "src/secret-module-zebra";
export const SECRET_FILE = `${SECRET_DIR}/handler-quokka.ts`;
export const SECRET_DOC = "docs/secret-notes-quokka.md";
export const PRIVATE_STRINGS = [
	SECRET_PATTERN,
	"secret-module-zebra",
	"handler-quokka",
	"secret-notes-quokka",
	"quokka",
];

/** A small workspace whose files contain the secret pattern. */
export function workspaceFiles(): Record<string, string> {
	const lines = Array.from({ length: 30 }, (_, i) => `export const value${i} = "${SECRET_PATTERN}-${i}";`);
	return {
		[SECRET_FILE]: `${lines.join("\n")}\n`,
		"src/app.ts": `import { value1 } from "./secret-module-zebra/handler-quokka";\nexport const app = value1;\n`,
		[SECRET_DOC]: `# Notes\n${SECRET_PATTERN}\n`,
		"AGENTS.md": "# Agent notes\nKeep it small.\n",
		"package.json": '{ "name": "fixture", "version": "1.0.0" }\n',
		"README.md": `# Fixture\n${SECRET_PATTERN}\n`,
	};
}

/** The guard as Pi loads it (the package's default export). */
export { explorationGuard };

/** The guard, capturing each registration's handle (or `undefined` when it registered nothing). */
export function capturingGuard(handles: Array<ExplorationGuardHandle | undefined>) {
	return (pi: ExtensionAPI) => {
		handles.push(registerExplorationGuard(pi));
	};
}

/** A stand-in for pi-subagents' `subagent` tool: `agent: "broken"` fails, `action` is management. */
export function standInSubagent(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "subagent",
		label: "subagent",
		description: "Delegate a task to a child agent (test stand-in).",
		parameters: Type.Object({
			agent: Type.Optional(Type.String()),
			task: Type.Optional(Type.String()),
			action: Type.Optional(Type.String()),
		}),
		async execute(_id, params) {
			if (params.agent === "broken") throw new Error("child run failed");
			const text = params.action ? "agents: scout" : "scout: survey complete, three modules found.";
			return { content: [{ type: "text", text }], details: {} };
		},
	});
}

/** A custom tool that the guard must never consider. */
export function customSearchTool(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "my_search",
		label: "my_search",
		description: "Search the repository (custom tool).",
		parameters: Type.Object({ path: Type.Optional(Type.String()), pattern: Type.Optional(Type.String()) }),
		async execute() {
			return { content: [{ type: "text", text: "no results" }], details: {} };
		},
	});
}

/** Records every payload on the `pi-policy:audit` channel. */
export function auditBusSpy(payloads: unknown[]) {
	return (pi: ExtensionAPI) => {
		pi.events.on("pi-policy:audit", (payload: unknown) => {
			payloads.push(payload);
		});
	};
}

/** An isolated broad grep over the whole repository. */
export const broadGrep = () => callTool("grep", { pattern: SECRET_PATTERN });

/** The audit entries of the guard in a harness. */
export function guardAudit(harness: Harness): Array<Record<string, unknown>> {
	return harness
		.entries<Record<string, unknown>>("pi-policy.audit")
		.filter((entry) => entry?.ext === "exploration-guard");
}

/** The guard's audit events, in order. */
export function auditEvents(harness: Harness): string[] {
	return guardAudit(harness).map((entry) => String(entry.event));
}

/** How many steer nudges reached the session. */
export function nudgeCount(harness: Harness): number {
	return harness.session.messages.filter(
		(m) => m.role === "user" && contentText(m.content).startsWith("Exploration guard: this session keeps making"),
	).length;
}

/** Each tool result as `name:ok` or `name:error`, in order. */
export function resultSummary(harness: Harness): string[] {
	return harness.toolResults().map((r) => `${r.toolName}:${r.isError ? "error" : "ok"}`);
}

/** The latest notification text, or "" when none. */
export function lastNotification(harness: Harness): string {
	return harness.ui?.notifications().at(-1)?.message ?? "";
}

/** Everything the guard persisted or displayed in one run, for the privacy scan. */
export interface CollectedOutput {
	readonly label: string;
	readonly texts: string[];
}

/** Gathers the audit entries, bus payloads, notifications and status texts of a run. */
export function collectOutput(label: string, harness: Harness, busPayloads: unknown[] = []): CollectedOutput {
	return {
		label,
		texts: [
			...harness.entries("pi-policy.audit").map((entry) => JSON.stringify(entry)),
			...busPayloads.map((payload) => JSON.stringify(payload)),
			...(harness.ui?.displayedText() ?? []),
			...[...(harness.ui?.statuses.values() ?? [])],
		],
	};
}

/** The guard's state through its handle. */
export function stateOf(handles: Array<ExplorationGuardHandle | undefined>): ExplorationGuardState | undefined {
	return handles.at(-1)?.state();
}

/** A session with the guard, named for the privacy scan. */
export interface GuardRun {
	/** Names the run in the privacy scan. */
	label: string;
	harness: Harness;
	handles: Array<ExplorationGuardHandle | undefined>;
	bus: unknown[];
}

export interface GuardRunsSetup {
	/** The session's active tools (a call's own `tools` option replaces them). */
	tools: string[];
	/** Extensions loaded after the capturing guard and before the bus spy. */
	extensions: InlineExtension[];
	/** More texts of a finished run for the privacy scan, after its collected output. */
	moreTexts?: (harness: Harness) => string[];
}

/** The guard sessions of one test file: output collected for the file's privacy scan, open ones disposed after all. */
export interface GuardRuns {
	/** Output of every finished run (and of any run a test collects itself). */
	readonly collected: CollectedOutput[];
	/** Sessions not yet finished; disposed after all tests of the file. */
	readonly open: Harness[];
	/** Starts a session with the guard configured by `guard` (the global `exploration-guard.json`). */
	start(label: string, guard: unknown, options?: Omit<HarnessOptions, "config">): Promise<GuardRun>;
	/** Collects a run's output for the privacy scan and disposes it. */
	finish(run: GuardRun): Promise<void>;
}

/** Guard sessions for one test file (registers an afterAll that disposes any left open). */
export function guardRunsPerFile(setup: GuardRunsSetup): GuardRuns {
	const collected: CollectedOutput[] = [];
	const open: Harness[] = [];
	afterAll(async () => {
		for (const harness of open.splice(0)) await harness.dispose();
	});
	return {
		collected,
		open,
		async start(label, guard, options = {}) {
			const handles: Array<ExplorationGuardHandle | undefined> = [];
			const bus: unknown[] = [];
			const harness = await createHarness({
				files: workspaceFiles(),
				tools: setup.tools,
				env: { PI_SUBAGENT_CHILD: undefined, SELESAI_SUBAGENT_CHILD: undefined },
				...options,
				config: { "exploration-guard": guard },
				extensions: [...(options.extensions ?? []), capturingGuard(handles), ...setup.extensions, auditBusSpy(bus)],
			});
			open.push(harness);
			return { label, harness, handles, bus };
		},
		async finish(run) {
			const output = collectOutput(run.label, run.harness, run.bus);
			collected.push(
				setup.moreTexts ? { label: output.label, texts: [...output.texts, ...setup.moreTexts(run.harness)] } : output,
			);
			await run.harness.dispose();
			open.splice(open.indexOf(run.harness), 1);
		},
	};
}
