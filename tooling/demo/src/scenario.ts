// The shape of a demo scenario and the workspace every scenario runs in.
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { type Harness, type HarnessOptions, realisticWorkspaceFiles, type ScriptStep } from "@pi-policy/pi-harness";

/** One scripted session the demo runs in a real Pi AgentSession. */
export interface DemoScenario {
	/** Short id used by `pnpm demo --only <id>`. */
	id: string;
	title: string;
	/** What a reader should notice. */
	summary: string;
	/** The user's prompt. */
	prompt: string;
	/** Extensions loaded for this run (none for the stock baseline). */
	extensions: () => InlineExtension[];
	/** Global policy configs written to the temp agentDir. */
	config?: HarnessOptions["config"];
	tools?: string[];
	/** The scripted model turns. */
	steps: () => ScriptStep[];
	/** Slash commands the user runs after the prompt, in order. */
	afterCommands?: string[];
	/** Extra harness options (files are merged over the demo workspace). */
	harness?: Partial<HarnessOptions>;
	/** Drives the session instead of the default (prompt, then afterCommands). */
	drive?: (harness: Harness) => Promise<void>;
	/** Lines to print after the turn table: what the extension did, side by side with stock Pi. */
	narrate?: (harness: Harness) => string[] | Promise<string[]>;
}

/** The workspace every scenario runs in: real sources and docs from the installed host. */
export function demoWorkspace(): Record<string, string> {
	return realisticWorkspaceFiles({ sourceFiles: 12, docs: 4 });
}
