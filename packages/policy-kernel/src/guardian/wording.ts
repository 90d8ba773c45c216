// What guardian-review says: block reasons for the agent, the unavailable-review dialog, and the status text.
// Reasons for the agent may carry the reviewer's rationale; user-facing texts carry enums and counts only.
import type { RiskLevel } from "../events.js";
import type { NothingToGrantReason, WaitingGrant } from "./allow-once.js";
import type { HardDenyRule } from "./floor.js";
import type { DecisionSource } from "./stats.js";
import type { OutcomePolicyRule } from "./verdict.js";

/** Why a review could not decide. */
export type ReviewFailureReason = "timeout" | "model-error" | "parse-failure" | "no-model" | "no-auth" | "aborted";

const RULE_TEXT: Record<HardDenyRule, string> = {
	"recursive-delete-root": "recursive deletion of the filesystem root",
	"recursive-delete-home": "recursive deletion of the home directory",
	"recursive-delete-workspace": "recursive deletion of the workspace root",
	"make-filesystem": "creating a filesystem on a device",
	"disk-overwrite": "writing directly to a disk device",
	"download-to-shell": "piping a download into a shell or interpreter",
	"chmod-777-recursive": "recursively making the root or home directory world-writable",
	"force-push-protected-branch": "force-pushing to main or master",
	"fork-bomb": "a fork bomb",
	"custom-pattern": "a command pattern the user configured as hard-deny",
};

const FAILURE_TEXT: Record<ReviewFailureReason, string> = {
	timeout: "the reviewer did not answer before the deadline",
	"model-error": "the reviewer model returned an error",
	"parse-failure": "the reviewer's answer could not be read as a verdict",
	"no-model": "no reviewer model is available",
	"no-auth": "the reviewer model has no credentials",
	aborted: "the review was cancelled",
};

/** The human description of a hard-deny rule (no user content). */
export function describeHardDenyRule(rule: HardDenyRule): string {
	return RULE_TEXT[rule] ?? "a hard-deny rule";
}

/** The human description of a review failure (no user content). */
export function describeReviewFailure(reason: ReviewFailureReason): string {
	return FAILURE_TEXT[reason] ?? "the review failed";
}

const NO_WORKAROUND =
	"Do not try to reach the same outcome through a workaround (another command, tool, script or encoding). Choose a materially safer path, or stop and ask the user.";

/** The block reason for a floor hard-deny. */
export function floorDenialReason(toolName: string, rule: HardDenyRule): string {
	return `Guardian denied this ${toolName} call: it matches a hard-deny rule (${describeHardDenyRule(rule)}). No reviewer was consulted and no override applies. ${NO_WORKAROUND}`;
}

/** The block reason for a risk denial by the reviewer or the outcome policy. */
export function riskDenialReason(
	toolName: string,
	risk: RiskLevel | undefined,
	rule: OutcomePolicyRule,
	rationale: string | undefined,
): string {
	const policy =
		rule === "critical-denied"
			? " Critical-risk actions are always denied."
			: rule === "high-needs-authorization"
				? " High-risk actions need clear authorization from the user."
				: "";
	const because = rationale ? ` Reviewer rationale: ${rationale}` : "";
	return `Guardian denied this ${toolName} call as risky (risk: ${risk ?? "unrated"}).${policy}${because} ${NO_WORKAROUND} The user can approve this exact call with /guardian allow-once.`;
}

/** The block reason when the review was unavailable; it says not to assume the action is unsafe. */
export function unavailableDenialReason(toolName: string, reason: ReviewFailureReason): string {
	return `Guardian review unavailable (${reason}): ${describeReviewFailure(reason)}, so this ${toolName} call was not run. This does not mean the action is unsafe. Retry once, continue with steps that do not need this call, or ask the user; the user can approve this exact call with /guardian allow-once.`;
}

/** The block reason while the breaker is tripped. */
export function breakerDenialReason(toolName: string): string {
	return `Guardian stopped this ${toolName} call: too many actions were denied in a row, so the turn was ended for the user to decide. Wait for the user's next message.`;
}

/** The title of the unavailable-review dialog. */
export const UNAVAILABLE_DIALOG_TITLE = "Guardian review unavailable";

/** The message of the unavailable-review dialog (tool name and reason only). */
export function unavailableDialogMessage(toolName: string, reason: ReviewFailureReason): string {
	return `The review of the pending ${shownToolName(toolName)} call could not finish: ${describeReviewFailure(reason)}. This does not mean the call is unsafe. Allow it once? (No denies it.)`;
}

/** The notification when the breaker trips. */
export function breakerNotification(
	cause: "consecutive" | "window",
	consecutive: number,
	windowDenials: number,
): string {
	return cause === "consecutive"
		? `Guardian ended the turn after ${consecutive} consecutive denials. Review what the agent is trying to do before continuing.`
		: `Guardian ended the turn after ${windowDenials} denials among recent reviews. Review what the agent is trying to do before continuing.`;
}

/** The footer status while a review runs (cleared when it ends). */
export const REVIEW_IN_PROGRESS_STATUS = "guardian: reviewing a tool call…";

/** The working message while a review runs (the default returns when it ends). */
export const REVIEW_IN_PROGRESS_WORKING_MESSAGE = "Guardian is reviewing the next tool call…";

const SOURCE_TEXT: Record<DecisionSource, string> = {
	floor: "floor rule",
	reviewer: "reviewer",
	user: "user",
	cache: "reviewer",
	"allow-once": "allow-once",
	fallback: "review unavailable",
	breaker: "breaker",
};

/**
 * A tool's name as notifications and dialogs show it: `bash`, `write` or `edit`, else `tool` (an MCP or extension
 * tool's name may carry a server, account or project name: a twenty-sixth review found it in the dialog).
 */
function shownToolName(toolName: string): string {
	return toolName === "bash" || toolName === "write" || toolName === "edit" ? toolName : "tool";
}

/**
 * The notification of a denial. It names the source (floor rule, reviewer, user, the unavailable-review fallback
 * or the breaker) and an enum detail such as the rule or risk level; never the command, path or rationale. A denial
 * allow-once can approve says so.
 */
export function denialNotification(
	toolName: string,
	source: DecisionSource,
	detail: string | undefined,
	waitingGrant?: WaitingGrant,
): string {
	const tool = shownToolName(toolName);
	const by = detail ?? SOURCE_TEXT[source] ?? source;
	if (!ALLOW_ONCE_SOURCES.has(source)) return `guardian-review denied a ${tool} call (source: ${by}).`;
	const waiting = waitingGrant === undefined ? "" : ` ${WAITING_GRANT_NOTICE[waitingGrant]}`;
	return `guardian-review denied a ${tool} call (source: ${by}).${waiting} /guardian allow-once lets it run once.`;
}

/** Why a grant the user made did not let this call run (enums only). */
const WAITING_GRANT_NOTICE: Readonly<Record<WaitingGrant, string>> = {
	"this-call":
		"Its allow-once grant was not used: files the call names changed since the grant, or a command the agent started still ran.",
	"other-call": "An allow-once grant waits for a different call: a grant is for the exact call that was denied.",
};

/** The denials `/guardian allow-once` can approve, whose notification says so. */
const ALLOW_ONCE_SOURCES: ReadonlySet<DecisionSource> = new Set<DecisionSource>(["reviewer", "cache", "fallback"]);

const TRY_AGAIN = "Ask the agent to try it again; if it is denied again, run /guardian allow-once.";

/** What `/guardian allow-once` answers when there is nothing to grant, by why (enums only; never the action). */
const NOTHING_TO_GRANT_NOTICE: Readonly<Record<NothingToGrantReason, string>> = {
	none: "nothing to allow: no call that allow-once can approve was denied in this session.",
	"hard-deny": "not granted: the last denial was a floor hard-deny, which allow-once cannot approve.",
	changed: `not granted: a call that may have changed files ran after the denial, so the denied call might now do something else. ${TRY_AGAIN}`,
	forgotten: `not granted: guardian was switched off or on after the denial. ${TRY_AGAIN}`,
	granted: "already granted: the denied call may run once within 5 minutes; ask the agent to try it again.",
	used: "nothing to allow: the last grant was used, and nothing was denied since.",
	expired: `not granted: the denial, or its grant, is more than 5 minutes old. ${TRY_AGAIN}`,
	"change-running": `not granted: a call that may change files is still running, and its end drops the denial. Once it ends: ${TRY_AGAIN}`,
};

/** The `/guardian allow-once` answer when there is nothing to grant. */
export function nothingToGrantNotice(reason: NothingToGrantReason): string {
	return `guardian-review: ${NOTHING_TO_GRANT_NOTICE[reason] ?? NOTHING_TO_GRANT_NOTICE.none}`;
}
