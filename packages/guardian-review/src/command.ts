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
	type ShellSetupFacts,
} from "@pi-policy/policy-kernel/guardian";
import { type AuditWriter, answerCommand, type PolicyConfig } from "@pi-policy/policy-kernel/host";
import { fingerprintCovers } from "./grant-fingerprint.js";
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
	/** How many processes the agent's commands started still run; undefined when unknown (see session-processes.ts). */
	sessionProcesses?(ctx: ExtensionContext): number | undefined;
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
						pendingGrants: state.allowOnce.grants.filter((grant) => grant.expiresAt > host.now()).length,
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
					const running = host.state().allowOnce.lastDenied === undefined ? 0 : host.sessionProcesses?.(ctx);
					if (running !== undefined && running > 0) {
						say(
							`guardian-review: not granted: ${running} ${running === 1 ? "process" : "processes"} the agent's commands started still ${running === 1 ? "runs" : "run"}, and could change what the action does. Stop ${running === 1 ? "it" : "them"} or wait, then ask the agent to try again.`,
							"warning",
						);
						return;
					}
					const fingerprint = host.fingerprint?.();
					if (fingerprint !== undefined && !fingerprintCovers(fingerprint)) {
						say(
							"guardian-review: not granted: the workspace has too many files, or the action names too many outside it, to check that nothing changed before it runs.",
							"warning",
						);
						return;
					}
					const next = grantAllowOnce(host.state(), host.now(), host.changeRunning?.() ?? false, fingerprint);
					host.setState(next.state);
					if (next.granted) {
						audit.write({ event: "allow-once-granted", mode: host.mode(), category: "allow-once" });
						say("guardian-review: the most recently denied action may run once within 5 minutes.");
					} else {
						say(
							"guardian-review: there is no denied action to allow (floor hard-denies cannot be overridden, and a call that changed files since the denial drops it: ask the agent to try again).",
							"warning",
						);
					}
				} else {
					say("usage: /guardian status | on | off | observe | allow-once", "warning");
				}
			} catch {
				answerCommand(ctx, "guardian-review: command failed: internal error", "error");
			}
		},
	};
}
