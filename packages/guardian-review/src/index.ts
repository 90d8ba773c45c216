// guardian-review: before a risky tool call runs, a deterministic floor and then a reviewer model decide allow or
// deny, failing closed. This is the Pi shell: the decision order lives in the kernel's pipeline reducer
// (@pi-policy/policy-kernel/guardian); the shell gathers facts, runs the reviewer and the dialog, and carries out
// the effects (./effects.ts).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
	CONFIG_DIR_NAME,
	type ExtensionAPI,
	type ExtensionContext,
	type InputEvent,
	type ToolCallEvent,
	type ToolCallEventResult,
	type ToolExecutionEndEvent,
} from "@earendil-works/pi-coding-agent";
import {
	actionIdentityText,
	buildReviewerPrompt,
	floorContextFor,
	formatGuardianStatus,
	type GuardianMode,
	type GuardianReviewConfig,
	type GuardianState,
	grantAllowOnce,
	initialGuardianState,
	notePrompt,
	type PipelineStep,
	planToolCall,
	resolveGuardianReviewConfig,
	settleReview,
	settleUserAnswer,
	startTurn,
	UNAVAILABLE_DIALOG_TITLE,
	unavailableDialogMessage,
} from "@pi-policy/policy-kernel/guardian";
import {
	createAuditWriter,
	loadPolicyConfig,
	loadPolicyConfigSync,
	toolCallBlockedResult,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import { createEffectPerformer, type ReviewContext, STATUS_KEY } from "./effects.js";
import { createGitConfigFacts, mayRunGit } from "./git-config-reader.js";
import { modelRefOf, type ReviewOutcome, resolveReviewerModel, runReview } from "./reviewer.js";

export { deepFreeze } from "./effects.js";

import { sessionTranscript } from "./session-transcript.js";
import { createToolFactsLookup } from "./tool-facts.js";

/** Pi's built-in tools that only read: they cannot change the repository's git config. */
const READ_ONLY_BUILTINS = new Set(["read", "grep", "find", "ls"]);

/** The config and audit name of this extension. */
export const GUARDIAN_REVIEW = "guardian-review";

/** Options for {@link createGuardianReview}; the default export uses none. */
export interface GuardianReviewOptions {
	/** The clock for allow-once expiry (tests inject one). Default `Date.now`. */
	readonly now?: () => number;
	/** The home directory used for `~` and protected paths. Default `os.homedir()`. */
	readonly home?: string;
}

/** SHA-256 (hex) of the action's canonical identity: the key of verdict reuse and allow-once grants. */
export function actionHash(toolName: string, input: unknown): string {
	return createHash("sha256").update(actionIdentityText(toolName, input), "utf8").digest("hex");
}

/**
 * The startup decision: register only when the global config enables guardian-review (or is invalid, which fails
 * closed), or when a project config file exists in the launch directory (it may enable it once trusted).
 */
function shouldRegister(): boolean {
	const layers = loadPolicyConfigSync({ name: GUARDIAN_REVIEW, cwd: process.cwd(), isProjectTrusted: false });
	const resolved = resolveGuardianReviewConfig(layers.global, undefined);
	if (layers.errors.length > 0 || !resolved.ok || resolved.value.failedClosed) return true;
	if (resolved.value.config.mode !== "off") return true;
	return existsSync(join(process.cwd(), CONFIG_DIR_NAME, "policy", `${GUARDIAN_REVIEW}.json`));
}

/** Creates the extension factory with injected options (tests use a fake clock). */
export function createGuardianReview(options: GuardianReviewOptions = {}): (pi: ExtensionAPI) => void {
	return (pi) => registerGuardianReview(pi, options);
}

/** The guardian-review extension. */
export default function guardianReview(pi: ExtensionAPI): void {
	registerGuardianReview(pi, {});
}

/** Registers the handlers and the `/guardian` command, unless guardian-review is disabled. */
export function registerGuardianReview(pi: ExtensionAPI, options: GuardianReviewOptions): void {
	if (!shouldRegister()) return;
	const now = options.now ?? Date.now;
	const home = options.home ?? homedir();
	const audit = createAuditWriter(pi, GUARDIAN_REVIEW, { onDiagnostic: () => {} });
	const toolFacts = createToolFactsLookup(() => pi.getAllTools());
	const gitFacts = createGitConfigFacts(home);
	/** Allowed calls that may change files (anything but Pi's read-only built-ins) and have not finished. */
	const inFlight = new Set<string>();

	let config: GuardianReviewConfig | undefined;
	let modeOverride: GuardianMode | undefined;
	let state: GuardianState = initialGuardianState();
	let chain: Promise<unknown> = Promise.resolve();
	let reviewLogFailed = false;

	const effectiveMode = (): GuardianMode => modeOverride ?? config?.mode ?? "enforce";

	const loadConfig = async (ctx: ExtensionContext): Promise<GuardianReviewConfig> => {
		const layers = await loadPolicyConfig({
			name: GUARDIAN_REVIEW,
			cwd: ctx.cwd,
			isProjectTrusted: () => ctx.isProjectTrusted(),
		});
		const resolved = resolveGuardianReviewConfig(layers.global, layers.project);
		const errors = [...layers.errors, ...(resolved.ok ? resolved.value.errors : [resolved.error])];
		const fallback = resolveGuardianReviewConfig(undefined, undefined);
		let loaded = resolved.ok ? resolved.value.config : fallback.ok ? fallback.value.config : undefined;
		if (loaded === undefined) throw new Error("guardian-review: defaults unavailable");
		if (errors.length > 0 || (resolved.ok && resolved.value.failedClosed)) {
			loaded = { ...loaded, mode: "enforce" };
			audit.write({ event: "config-invalid", mode: "enforce" });
			if (ctx.hasUI) {
				ctx.ui.notify(
					`guardian-review: config invalid (${errors.slice(0, 2).join("; ")}); enforcing with defaults for the invalid part.`,
					"warning",
				);
			}
		}
		config = loaded;
		return loaded;
	};

	const performEffect = createEffectPerformer(pi, audit, () => {
		reviewLogFailed = true;
	});
	/** Carries out the pipeline's effects, in order, and keeps its state. */
	const perform = (
		step: PipelineStep,
		event: ToolCallEvent,
		ctx: ExtensionContext,
		review?: ReviewContext,
	): PipelineStep => {
		state = step.state;
		for (const effect of step.effects) performEffect(effect, event, ctx, review);
		return step;
	};

	const decideToolCall = async (
		event: ToolCallEvent,
		ctx: ExtensionContext,
	): Promise<ToolCallEventResult | undefined> => {
		const active = config ?? (await loadConfig(ctx));
		const mode = effectiveMode();
		if (mode === "off") return undefined;
		const { toolName } = event;
		const input: unknown = event.input;
		// The repository's git config is a fact only for git commands, and only while no call that may change it runs.
		const gitConfig =
			toolName !== "bash" || !mayRunGit(input)
				? "unknown"
				: inFlight.size > 0
					? "unknown"
					: await gitFacts.verdict(ctx.cwd);
		let step = perform(
			planToolCall(state, {
				toolName,
				input,
				hash: actionHash(toolName, input),
				tool: toolFacts.of(toolName),
				config: active,
				mode,
				floorContext: floorContextFor(active, ctx.cwd, home, { gitConfig }),
				now: now(),
				hasUI: ctx.hasUI,
			}),
			event,
			ctx,
		);
		if (step.next.kind === "review") {
			const call = step.next.call;
			const prompt = buildReviewerPrompt({
				toolName,
				input,
				cwd: ctx.cwd,
				home,
				transcript: sessionTranscript(ctx.sessionManager),
			});
			let review: ReviewOutcome;
			try {
				review = await runReview(ctx, active, prompt);
			} catch {
				review = { ok: false, reason: "model-error", latencyMs: 0, attempts: 0, modelRef: undefined };
			}
			const result = review.ok
				? {
						ok: true as const,
						verdict: review.verdict.verdict,
						latencyMs: review.latencyMs,
						attempts: review.attempts,
						promptTokens: prompt.estimatedTokens,
					}
				: review;
			step = perform(settleReview(state, call, result), event, ctx, { toolName, prompt, review, config: active });
			if (step.next.kind === "ask-user") {
				const { failure } = step.next;
				let approved = false;
				try {
					approved = await ctx.ui.confirm(UNAVAILABLE_DIALOG_TITLE, unavailableDialogMessage(toolName, failure), {
						...(ctx.signal ? { signal: ctx.signal } : {}),
					});
				} catch {
					approved = false;
				}
				step = perform(settleUserAnswer(state, call, failure, approved, review.latencyMs), event, ctx);
			}
		}
		if (step.next.kind !== "done" || step.next.resolution.kind === "allow") {
			if (!READ_ONLY_BUILTINS.has(toolName)) inFlight.add(event.toolCallId);
			return undefined;
		}
		return { block: true, reason: step.next.resolution.reason };
	};

	pi.on(
		"session_start",
		wrapHandler(
			async (_event, ctx) => {
				state = initialGuardianState();
				toolFacts.clear();
				gitFacts.invalidate();
				inFlight.clear();
				await loadConfig(ctx);
			},
			{ failure: "open", name: "guardian-review session_start" },
		),
	);
	pi.on(
		"input",
		wrapHandler(
			(event: InputEvent) => {
				state = notePrompt(state, event.source === "extension");
				toolFacts.clear();
				return undefined;
			},
			{ failure: "open", name: "guardian-review input" },
		),
	);
	pi.on(
		"turn_start",
		wrapHandler(
			() => {
				state = startTurn(state);
				return undefined;
			},
			{ failure: "open", name: "guardian-review turn_start" },
		),
	);

	pi.on(
		"tool_execution_end",
		wrapHandler(
			(event: ToolExecutionEndEvent) => {
				inFlight.delete(event.toolCallId);
				if (!READ_ONLY_BUILTINS.has(event.toolName)) gitFacts.invalidate();
				return undefined;
			},
			{ failure: "open", name: "guardian-review tool_execution_end" },
		),
	);
	pi.on(
		"agent_end",
		wrapHandler(
			() => {
				inFlight.clear();
				return undefined;
			},
			{ failure: "open", name: "guardian-review agent_end" },
		),
	);

	const toolCallHandler = wrapHandler(
		(event: ToolCallEvent, ctx: ExtensionContext) => {
			// Sibling calls are decided one at a time, so a verdict and the breaker see them in order.
			const run = chain.then(() => decideToolCall(event, ctx));
			chain = run.catch(() => undefined);
			return run;
		},
		{
			failure: "closed",
			name: "guardian-review tool_call",
			closedResult: (name: string) => (effectiveMode() === "enforce" ? toolCallBlockedResult(name) : undefined),
			report: (diagnostic, ctx) => {
				audit.write({ event: "handler-error", mode: effectiveMode() });
				const notifyCtx = ctx as ExtensionContext | undefined;
				if (notifyCtx?.hasUI) {
					notifyCtx.ui.setStatus(STATUS_KEY, undefined);
					notifyCtx.ui.setWorkingMessage();
					notifyCtx.ui.notify(diagnostic.message, "error");
				}
			},
		},
	);
	pi.on(
		"tool_call",
		toolCallHandler as (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallEventResult | undefined>,
	);

	const SUBCOMMANDS = ["status", "on", "off", "observe", "allow-once"] as const;
	pi.registerCommand("guardian", {
		description: "guardian-review: status | on | off | observe | allow-once",
		getArgumentCompletions: (prefix) =>
			SUBCOMMANDS.filter((name) => name.startsWith(prefix.trim())).map((name) => ({ value: name, label: name })),
		handler: async (args, ctx) => {
			try {
				const active = config ?? (await loadConfig(ctx));
				const sub = args.trim().split(/\s+/)[0] ?? "";
				const say = (text: string, level: "info" | "warning" = "info") => {
					if (ctx.hasUI) ctx.ui.notify(text, level);
				};
				if (sub === "" || sub === "status") {
					const status = formatGuardianStatus({
						mode: effectiveMode(),
						reviewerModel: modelRefOf(resolveReviewerModel(ctx, active)),
						stats: state.stats,
						breaker: state.breaker,
						pendingGrants: state.allowOnce.grants.filter((grant) => grant.expiresAt > now()).length,
					});
					say(status + (reviewLogFailed ? "\nreview log: write failed" : ""));
				} else if (sub === "on" || sub === "off" || sub === "observe") {
					modeOverride = sub === "on" ? "enforce" : sub;
					audit.write({ event: "mode-changed", mode: modeOverride });
					say(`guardian-review: ${modeOverride} for this session.`);
				} else if (sub === "allow-once") {
					const next = grantAllowOnce(state, now());
					state = next.state;
					if (next.granted) {
						audit.write({ event: "allow-once-granted", mode: effectiveMode(), category: "allow-once" });
						say("guardian-review: the most recently denied action may run once within 5 minutes.");
					} else {
						say(
							"guardian-review: there is no denied action to allow (floor hard-denies cannot be overridden).",
							"warning",
						);
					}
				} else {
					say("usage: /guardian status | on | off | observe | allow-once", "warning");
				}
			} catch {
				if (ctx.hasUI) ctx.ui.notify("guardian-review: command failed: internal error", "error");
			}
		},
	});
}
