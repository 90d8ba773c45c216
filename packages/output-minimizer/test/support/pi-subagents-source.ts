// Loads pi-subagents 0.67.0's own formatting functions from the copy installed for tooling/loopback-provider,
// so tests build notify messages and saved-output references in its exact format (not a re-implementation).
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(
	new URL("../../../../tooling/loopback-provider/node_modules/pi-subagents/", import.meta.url),
);

/** `CompletionNotification` input of `buildCompletionDetails` (src/runs/background/notify.ts). */
export type CompletionNotification = Record<string, unknown>;

/** The notify formatters of src/runs/background/notify.ts. */
export interface PiSubagentsNotify {
	buildCompletionDetails(result: CompletionNotification): Record<string, unknown>;
	formatSingleCompletion(details: Record<string, unknown>): string;
	formatGroupedCompletion(details: Record<string, unknown>[]): string;
	formatIncrementalChildCompletion(child: {
		workflowRunId: string;
		childKey: string;
		childRunId?: string;
		outcome: "completed" | "failed" | "paused" | "stopped";
		outputReference?: string;
		error?: string;
		workflowRunning: boolean;
	}): string;
	parseSubagentNotifyContent(content: string): Record<string, unknown> | undefined;
}

/** The saved-output helpers of src/runs/shared/single-output.ts. */
export interface PiSubagentsSingleOutput {
	formatSavedOutputReference(
		savedPath: string,
		fullOutput: string,
	): { path: string; bytes: number; lines: number; message: string };
	finalizeSingleOutput(params: Record<string, unknown>): { displayOutput: string };
}

/** Imports pi-subagents' notify module. */
export async function loadPiSubagentsNotify(): Promise<PiSubagentsNotify> {
	return (await import(`${ROOT}src/runs/background/notify.ts`)) as PiSubagentsNotify;
}

/** Imports pi-subagents' single-output module. */
export async function loadPiSubagentsSingleOutput(): Promise<PiSubagentsSingleOutput> {
	return (await import(`${ROOT}src/runs/shared/single-output.ts`)) as PiSubagentsSingleOutput;
}

/** Imports pi-subagents' run fan-out budget module. */
export async function loadPiSubagentsFanout(): Promise<{
	formatRunFanoutBudget(snapshot: { used: number; limit: number; remaining: number }): string;
}> {
	return await import(`${ROOT}src/runs/shared/run-fanout-budget.ts`);
}
