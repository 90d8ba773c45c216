// The `/guardian status | on | off | observe | allow-once` command. It reads and changes the shell's session state
// through a small host interface; what it says carries enums and counts only.
import type { ExtensionContext, RegisteredCommand } from "@earendil-works/pi-coding-agent";
import {
	formatGuardianStatus,
	type GuardianMode,
	type GuardianReviewConfig,
	type GuardianState,
	grantAllowOnce,
	type LoadedPiResources,
	nothingToGrantNotice,
	type ShellSetupFacts,
} from "@pi-policy/policy-kernel/guardian";
import { type AuditWriter, answerCommand, type PolicyConfig } from "@pi-policy/policy-kernel/host";
import { fingerprintGap } from "./grant-fingerprint.js";
import { modelRefOf, resolveReviewerModel, reviewerAvailability } from "./reviewer.js";

const NAME = "guardian-review";
const SUBCOMMANDS = ["status", "on", "off", "observe", "allow-once"] as const;

/** What the command needs from the shell. */
export interface GuardianCommandHost {
	readonly policy: PolicyConfig<GuardianReviewConfig>;
	readonly audit: AuditWriter<"guardian-review">;
	now(): number;
	config(ctx: ExtensionContext): Promise<GuardianReviewConfig>;
	mode(): GuardianMode;
	setMode(mode: GuardianMode): void;
	state(): GuardianState;
	setState(state: GuardianState): void;
	reviewLogFailed(): boolean;
	/** The judged shell Pi's bash tool runs commands in, for this working directory and config. */
	shellSetup(cwd: string, config: GuardianReviewConfig): ShellSetupFacts;
	/** What Pi loaded for the model to read at the last prompt (skills, context files), if a prompt ran. */
	loadedResources(): LoadedPiResources | undefined;
	/**
	 * Whether an allowed call that may change files still runs, other than the calls that made the denied one: nothing
	 * is granted meanwhile.
	 */
	changeRunning?(): boolean;
	/** The fingerprint of the files the denied call names, as they are now (see grant-fingerprint.ts). */
	fingerprint?(): string | undefined;
	/** The processes the agent's commands started that still run, by pid; undefined when unknown (session-processes.ts). */
	sessionProcesses?(ctx: ExtensionContext): readonly number[] | undefined;
}

/** The `/guardian` command definition. Never throws: a failure is reported as one line. */
export function createGuardianCommand(host: GuardianCommandHost): Omit<RegisteredCommand, "name" | "sourceInfo"> {
	return {
		description: "guardian-review: status | on | off | observe | allow-once",
		getArgumentCompletions: (prefix) =>
			SUBCOMMANDS.filter((name) => name.startsWith(prefix.trim())).map((name) => ({ value: name, label: name })),
		handler: async (args, ctx) => {
			try {
				const active = await host.config(ctx);
				const { policy, audit } = host;
				const sub = args.trim().split(/\s+/)[0] ?? "";
				const say = (text: string, level: "info" | "warning" = "info") => answerCommand(ctx, text, level);
				const known = sub === "" || (SUBCOMMANDS as readonly string[]).includes(sub);
				if (known && !policy.hooks) {
					// No review hooks in this process: nothing can be reviewed, so every action explains why.
					const line = policy.statusLine() ?? "inactive";
					if (sub === "" || sub === "status") say(`${NAME}: ${line}`);
					else say(policy.unavailable(sub) ?? `${NAME} ${sub}: unavailable, ${line}`, "warning");
				} else if (sub === "" || sub === "status") {
					const closed = policy.current().state === "failed-closed" ? `${NAME}: ${policy.statusLine()}\n` : "";
					const state = host.state();
					const reviewer = resolveReviewerModel(ctx, active);
					const status = formatGuardianStatus({
						mode: host.mode(),
						reviewerModel: modelRefOf(reviewer),
						reviewerAvailability: reviewerAvailability(ctx, reviewer),
						stats: state.stats,
						breaker: state.breaker,
						...grantStatus(state, host.now()),
						agentProcesses: host.sessionProcesses?.(ctx)?.length ?? 0,
						shell: host.shellSetup(ctx.cwd, active),
						additionalDirectories: active.additionalDirectories.length,
						loadedResources: host.loadedResources(),
					});
					say(closed + status + (host.reviewLogFailed() ? "\nreview log: write failed" : ""));
				} else if (sub === "on" || sub === "off" || sub === "observe") {
					const mode: GuardianMode = sub === "on" ? "enforce" : sub;
					host.setMode(mode);
					audit.write({ event: "mode-changed", mode });
					say(`guardian-review: ${mode} for this session.`);
				} else if (sub === "allow-once") {
					const [answer, level] = allowOnce(host, ctx);
					say(answer, level);
				} else {
					say("usage: /guardian status | on | off | observe | allow-once", "warning");
				}
			} catch {
				answerCommand(ctx, "guardian-review: command failed: internal error", "error");
			}
		},
	};
}

const TURN_OFF_FOR_THE_CALL = "turn guardian off for that call (/guardian off, then /guardian on)";

/**
 * `/guardian allow-once`: grants the last denial, or says why not and what to do next. Counts and enums only: not
 * the processes' ids or commands, nor the action.
 */
function allowOnce(host: GuardianCommandHost, ctx: ExtensionContext): [string, "info" | "warning"] {
	const running = host.state().allowOnce.lastDenied === undefined ? [] : (host.sessionProcesses?.(ctx) ?? []);
	if (running.length > 0) {
		const one = running.length === 1;
		return [
			`guardian-review: not granted: ${running.length} ${one ? "process" : "processes"} the agent's commands started still ${one ? "runs" : "run"} (a background job or a server), and could change what the action does. Stop ${one ? "it" : "them"} or wait, then ask the agent to try again; or ${TURN_OFF_FOR_THE_CALL}.`,
			"warning",
		];
	}
	const fingerprint = host.fingerprint?.();
	const gap = fingerprint === undefined ? undefined : fingerprintGap(fingerprint);
	if (gap !== undefined) {
		const what =
			gap === "workspace"
				? "the workspace has more files than allow-once can check (200,000 by default)"
				: "the action names more paths outside the workspace than allow-once can check (256), or another user's home";
		return [
			`guardian-review: not granted: ${what}, so it cannot make sure nothing changed before the call runs. To let it run, ${TURN_OFF_FOR_THE_CALL}, or add its runner to trustedCommands.`,
			"warning",
		];
	}
	const next = grantAllowOnce(host.state(), host.now(), host.changeRunning?.() ?? false, fingerprint);
	host.setState(next.state);
	if (!next.granted) return [nothingToGrantNotice(next.nothingBecause ?? "none"), "warning"];
	host.audit.write({ event: "allow-once-granted", mode: host.mode(), category: "allow-once" });
	return ["guardian-review: the most recently denied action may run once within 5 minutes.", "info"];
}

/** The pending grants for `/guardian status`: how many, and the minutes until the soonest expires. */
function grantStatus(state: GuardianState, now: number): { pendingGrants: number; grantMinutesLeft?: number } {
	const live = state.allowOnce.grants.filter((grant) => grant.expiresAt > now);
	if (live.length === 0) return { pendingGrants: 0 };
	const soonest = Math.min(...live.map((grant) => grant.expiresAt));
	return { pendingGrants: live.length, grantMinutesLeft: Math.ceil((soonest - now) / 60_000) };
}
