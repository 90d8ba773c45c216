// Stable wording of the exploration guard (nudge, block reason, notices, status) and its command parser.
// Every text is built from fixed strings, validated config values and counts: never from tool arguments.
import { err, ok, type Result } from "../decision.js";
import type { ExplorationGuardConfig } from "./config.js";
import {
	type ExplorationGuardState,
	type ExplorationNotice,
	type ExplorationNudgeState,
	explorationGuardStateName,
	MAX_USER_ALLOWANCE,
} from "./machine.js";

/** The slash command name (without the leading slash). */
export const EXPLORATION_GUARD_COMMAND = "exploration-guard";

/** The block reason the model receives as the error tool result. Names the delegation tool and the user command. */
export function explorationBlockReason(config: Pick<ExplorationGuardConfig, "delegationTool">): string {
	return (
		"Exploration guard: repeated broad repo exploration is paused. " +
		`Delegate the remaining survey with ${config.delegationTool}, or ask the user to run ` +
		`/${EXPLORATION_GUARD_COMMAND} allow or off. Small targeted reads remain allowed.`
	);
}

/** The start of every nudge; the session tests and the README key on it. */
export const EXPLORATION_NUDGE_PREFIX = "Exploration guard: ";

function plural(n: number, word: string): string {
	return `${n} more ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The steer nudge, worded from the guard's actual state and nothing else, so it only says what is true:
 *
 * - the trigger: the streak reached `warnAfter`, or the context window passed `nudgeAtContextShare`;
 * - without an active delegation tool: nothing will be blocked; it suggests narrower reads or enabling
 *   pi-subagents;
 * - with one, in warn mode (or warn-only fallback): it suggests delegating and says nothing will be blocked;
 * - with one, in block mode: it names the exact threshold ("after N more broad operations"), what can be
 *   paused (read/grep/find/ls calls, and pure bash exploration only with `bashBlock`), and that bash is
 *   counted but never paused otherwise.
 *
 * Built from fixed strings, validated config values and counts only. Pure.
 */
export function explorationNudgeText(state: ExplorationNudgeState): string {
	const seen = state.bashCounted
		? "broad read/grep/find/ls calls and bash searches, listings and file reads"
		: "broad read/grep/find/ls calls";
	const share =
		state.contextShare === undefined ? "" : ` over ${Math.round(state.contextShare * 100)}% of the context window`;
	const opening =
		state.trigger === "context-pressure"
			? `${EXPLORATION_NUDGE_PREFIX}the context is${share === "" ? " filling up" : share} and this session is still making ${seen} across the repository.`
			: `${EXPLORATION_NUDGE_PREFIX}this session keeps making ${seen} across the repository.`;
	const narrow = `keep to narrow searches and small targeted reads (a path with a limit of at most ${state.smallReadMaxLines} lines)`;
	if (!state.delegationToolActive) {
		return (
			`${opening} The delegation tool ${state.delegationTool} is not active, so nothing will be blocked. ` +
			`To save context, ${narrow}, or enable pi-subagents to delegate the survey.`
		);
	}
	const advice = `Delegate the remaining survey with ${state.delegationTool} and ${narrow}.`;
	if (!state.blockMode) return `${opening} ${advice} This is advice only: nothing will be blocked.`;
	const what = state.bashBlock
		? "isolated broad read/grep/find/ls calls and pure bash exploration commands"
		: "isolated broad read/grep/find/ls calls";
	const when =
		state.allowedBeforePause > 0
			? `After ${plural(state.allowedBeforePause, "broad operation")}, ${what} will be paused`
			: `From the next broad operation, ${what} will be paused`;
	const bash = state.bashCounted && !state.bashBlock ? " Bash commands are counted but never paused." : "";
	return `${opening} ${advice} ${when} until a delegated run succeeds.${bash}`;
}

/** The UI notices, fixed strings. */
export const EXPLORATION_NOTICES: Readonly<Record<ExplorationNotice, string>> = Object.freeze({
	// The nudge itself says whether delegation is possible (on stock Pi it is not: a twenty-seventh review).
	warned: "Exploration guard: repeated broad exploration; the agent was nudged to narrow it or delegate it.",
	blocked: `Exploration guard paused a broad exploration call. Run /${EXPLORATION_GUARD_COMMAND} allow [n] or /${EXPLORATION_GUARD_COMMAND} off to permit more.`,
	"fallback-unavailable":
		"Exploration guard: the delegation tool is not active; warn-only for the rest of this session.",
	"fallback-failed": "Exploration guard: a delegated run failed; warn-only for the rest of this session.",
});

/** Notification levels of the notices. */
export const EXPLORATION_NOTICE_LEVELS: Readonly<Record<ExplorationNotice, "info" | "warning">> = Object.freeze({
	warned: "info",
	blocked: "warning",
	"fallback-unavailable": "warning",
	"fallback-failed": "warning",
});

function nextThreshold(state: ExplorationGuardState): string {
	const { config, streak } = state;
	if (state.bypassed) return "none (guard off for this session)";
	if (!state.warningLatched && streak < config.warnAfter) {
		return `nudge after ${config.warnAfter - streak} more broad operation(s)`;
	}
	if (config.mode !== "block" || state.fallback) return "none (warn-only)";
	if (streak < config.blockAfter) return `block after ${config.blockAfter - streak} more broad operation(s)`;
	return "blocking isolated broad operations now";
}

/**
 * The `/exploration-guard status` text: effective mode, state, counters, next threshold and whether warn-only
 * fallback is active. Counts and enums only.
 */
export function renderExplorationGuardStatus(state: ExplorationGuardState): string {
	const c = state.counters;
	const { config } = state;
	return [
		`Exploration guard: mode ${config.mode}, state ${explorationGuardStateName(state)}`,
		`Streak: ${state.streak} broad operation(s); nudge at ${config.warnAfter}, block after ${config.blockAfter}${config.mode === "block" ? "" : " (block mode only)"}`,
		`Next threshold: ${nextThreshold(state)}`,
		`Counters: attempts ${c.broadAttempts}, allowed ${c.allowedBroad}, blocked ${c.blockedBroad}, warnings ${c.warnings}, user-allowed ${c.userAllowed}`,
		`Allowance left: ${state.allowance}`,
		`Delegation: started ${c.delegationsStarted}, succeeded ${c.delegationsSucceeded}, failed ${c.delegationsFailed}, pending ${state.pendingLaunches}`,
		`Fallback (warn-only): ${state.fallback ? "active" : "inactive"}`,
		`Bash: ${config.bash}${config.bashBlock ? ", may block pure exploration commands" : ", never blocked"}; counted ${c.bashBroad}, blocked ${c.bashBlocked}`,
		`Code mode nested: counted ${c.nestedBroad}; context pressure: ${config.nudgeAtContextShare === undefined ? "off" : `nudge over ${Math.round(config.nudgeAtContextShare * 100)}%`}${state.pressureLatched ? " (sent)" : ""}`,
	].join("\n");
}

/** A parsed `/exploration-guard` command. */
export type ExplorationGuardCommand =
	| { readonly action: "status" }
	| { readonly action: "allow"; readonly count: number }
	| { readonly action: "off" };

/** The usage line shown for a malformed command. */
export const EXPLORATION_GUARD_USAGE = `Usage: /${EXPLORATION_GUARD_COMMAND} status | allow [1..${MAX_USER_ALLOWANCE}] | off`;

/**
 * Parses the arguments of `/exploration-guard`: `status` (also the default for empty input), `allow [n]` with
 * an integer n from 1 to 20 (default 1), or `off`. Errors are fixed strings that never echo the input.
 */
export function parseExplorationGuardCommand(args: unknown): Result<ExplorationGuardCommand> {
	if (args !== undefined && typeof args !== "string") return err(EXPLORATION_GUARD_USAGE);
	const words = (args ?? "")
		.trim()
		.split(/\s+/)
		.filter((word) => word !== "");
	const [verb, count, ...rest] = words;
	if (verb === undefined || (verb.toLowerCase() === "status" && count === undefined)) return ok({ action: "status" });
	const action = verb.toLowerCase();
	if (action === "off" && count === undefined) return ok({ action: "off" });
	if (action === "allow" && rest.length === 0) {
		if (count === undefined) return ok({ action: "allow", count: 1 });
		if (/^\d{1,2}$/.test(count)) {
			const n = Number(count);
			if (n >= 1 && n <= MAX_USER_ALLOWANCE) return ok({ action: "allow", count: n });
		}
		return err(`allow: expected an integer between 1 and ${MAX_USER_ALLOWANCE}`);
	}
	return err(EXPLORATION_GUARD_USAGE);
}
