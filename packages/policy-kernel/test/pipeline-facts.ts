// Shared by the pipeline reducer's tests: the facts of one bash call, the enforce config, and the pending review.
import {
	applyGuardianDefaults,
	floorContextFor,
	type GuardianReviewConfig,
	type PendingCall,
	type PipelineStep,
	type ToolCallFacts,
} from "../src/guardian/index.js";

/** The home folder and the workspace the pipeline tests decide in. */
export const PIPELINE_HOME = "/home/u";
export const PIPELINE_CWD = "/work/repo";

/** The defaults in `enforce`, with `layer` over them. */
export function configOf(layer: Record<string, unknown> = {}): GuardianReviewConfig {
	return applyGuardianDefaults({ mode: "enforce", ...layer } as never);
}

/** The facts of a bash call of `command`, hashed as `h-bash-<command>`, with no UI unless `extra` says so. */
export function bashFacts(
	command: string,
	config: GuardianReviewConfig,
	now = 1_000,
	extra: Partial<ToolCallFacts> = {},
): ToolCallFacts {
	return {
		toolName: "bash",
		input: { command },
		hash: `h-bash-${command}`,
		tool: { builtin: true },
		config,
		mode: config.mode,
		floorContext: floorContextFor(config, PIPELINE_CWD, PIPELINE_HOME),
		now,
		hasUI: false,
		...extra,
	};
}

/** The call a step sends to the reviewer; throws when the step did not. */
export function pending(step: PipelineStep): PendingCall {
	if (step.next.kind !== "review") throw new Error(`expected a review, got ${step.next.kind}`);
	return step.next.call;
}
