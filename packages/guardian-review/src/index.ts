// guardian-review: before a risky tool call runs, a deterministic floor and then a reviewer model decide allow or
// deny, failing closed. This is the Pi shell: it binds events to the kernel (@pi-policy/policy-kernel/guardian)
// and does the I/O: config files, the reviewer call, the dialog, the audit trail and the verdict events.
import { homedir } from "node:os";
import type {
	ExtensionAPI,
	ExtensionContext,
	InputEvent,
	ToolCallEvent,
	ToolCallEventResult,
} from "@earendil-works/pi-coding-agent";
import { bucketIndex } from "@pi-policy/policy-kernel/audit";
import { decodeEventPayload, type RiskLevel, VERDICT_CHANNEL, type VerdictV1 } from "@pi-policy/policy-kernel/events";
import {
	type AllowOnceState,
	actionHash,
	applyOutcomePolicy,
	authorizationCounter,
	type BreakerState,
	breakerDenialReason,
	breakerNotification,
	buildReviewerPrompt,
	type DecisionSource,
	decideFloor,
	floorContextFor,
	floorDenialReason,
	formatGuardianStatus,
	GUARDIAN_PROJECT_LOCKED_KEYS,
	GUARDIAN_STRENGTHEN_RULES,
	type GuardianMode,
	type GuardianReviewConfig,
	GuardianReviewConfigSchema,
	type GuardianStats,
	guardianDefaultsLayer,
	HARD_DENY_RULES,
	initialAllowOnceState,
	initialBreakerState,
	initialGuardianStats,
	type OutcomePolicyRule,
	type ReviewerVerdict,
	type ReviewFailureReason,
	recordDecision,
	recordLatency,
	recordUnavailable,
	reduceAllowOnce,
	reduceBreaker,
	resolveGuardianReviewLayer,
	riskDenialReason,
	riskLevelCounter,
	UNAVAILABLE_DIALOG_TITLE,
	unavailableDenialReason,
	unavailableDialogMessage,
} from "@pi-policy/policy-kernel/guardian";
import {
	createAuditWriter,
	createPolicyConfig,
	type PolicyConfig,
	toolCallBlockedResult,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import { appendReviewLog } from "./review-log.js";
import { modelRefOf, resolveReviewerModel, runReview } from "./reviewer.js";
import { sessionTranscript } from "./session-transcript.js";

/** The package folder name: the config file is `policy/guardian-review.json`, audit entries carry this `ext`. */
export const NAME = "guardian-review";

/** Options for {@link createGuardianReview}; the default export uses none. */
export interface GuardianReviewOptions {
	/** The clock for allow-once expiry (tests inject one). Default `Date.now`. */
	readonly now?: () => number;
	/** The home directory used for `~` and protected paths. Default `os.homedir()`. */
	readonly home?: string;
}

/** A cached decision for an identical action within one turn. */
interface CachedDecision {
	readonly decision: "allow" | "deny";
	readonly reason?: string;
	readonly riskLevel?: RiskLevel;
}

/** What one tool call resolved to. */
interface Resolution {
	readonly decision: "allow" | "deny";
	readonly source: DecisionSource;
	readonly reason?: string;
}

/** Deep-freezes a tool input so that a later `tool_call` handler cannot change what was approved. */
export function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
	}
	return value;
}

function verdictTool(toolName: string): VerdictV1["tool"] {
	return toolName === "bash" || toolName === "write" || toolName === "edit" ? toolName : "other";
}

/**
 * The config lifecycle: `policy/guardian-review.json`, global over the defaults, then a trusted project file by
 * the kernel's one project-layer rule, where every key is a security setting: strengthened by its rule or locked.
 * An invalid file fails closed: the valid files (or the defaults) run in `enforce`.
 */
function createGuardianReviewConfig(
	pi: ExtensionAPI,
	diagnose: (message: string) => void,
): PolicyConfig<GuardianReviewConfig> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "closed",
		schema: GuardianReviewConfigSchema,
		defaults: guardianDefaultsLayer(),
		projectLayer: { strengthen: GUARDIAN_STRENGTHEN_RULES, locked: GUARDIAN_PROJECT_LOCKED_KEYS },
		resolve: resolveGuardianReviewLayer,
		enabled: (config) => config.mode !== "off",
		auditFields: { mode: "enforce" },
		closedNote: "enforcing with the valid config file or the defaults",
		onDiagnostic: diagnose,
	});
}

/** Creates the extension factory with injected options (tests use a fake clock). */
export function createGuardianReview(options: GuardianReviewOptions = {}): (pi: ExtensionAPI) => void {
	return (pi) => registerGuardianReview(pi, options);
}

/** The guardian-review extension. */
export default function guardianReview(pi: ExtensionAPI): void {
	registerGuardianReview(pi, {});
}

/**
 * Registers guardian-review. The `/guardian` command and `session_start` are always registered, so
 * `/guardian status` answers whatever the config says. The review hooks are registered when the startup gate (the
 * global file, read synchronously here, or a project file in the launch folder) may turn it on, or when the
 * global file is invalid (which fails closed).
 */
export function registerGuardianReview(pi: ExtensionAPI, options: GuardianReviewOptions = {}): void {
	const diagnose = (message: string) => console.error(message);
	const policy = createGuardianReviewConfig(pi, diagnose);
	const now = options.now ?? Date.now;
	const home = options.home ?? homedir();
	const audit = createAuditWriter(pi, NAME, { onDiagnostic: diagnose });

	let config: GuardianReviewConfig | undefined;
	let modeOverride: GuardianMode | undefined;
	let breaker: BreakerState = initialBreakerState();
	let allowOnce: AllowOnceState = initialAllowOnceState();
	let stats: GuardianStats = initialGuardianStats();
	let turnCache = new Map<string, CachedDecision>();
	let chain: Promise<unknown> = Promise.resolve();
	let reviewLogFailed = false;

	const effectiveMode = (): GuardianMode => modeOverride ?? config?.mode ?? "enforce";
	const auditMode = (): "off" | "observe" | "enforce" => effectiveMode();
	const state = () => (breaker.tripped ? "tripped" : "armed") as "armed" | "tripped";

	const emitVerdict = (payload: Omit<VerdictV1, "v">) => {
		const candidate = { v: 1, ...payload };
		const decoded = decodeEventPayload(VERDICT_CHANNEL, candidate);
		if (!decoded.ok) return;
		try {
			pi.events.emit(VERDICT_CHANNEL, decoded.value);
		} catch {
			// The bus is best effort.
		}
	};

	const loadConfig = async (ctx: ExtensionContext) => {
		const loaded = await policy.load(ctx);
		const base = loaded.config ?? resolveFallback();
		// Fails closed: an invalid file leaves the valid one (or the defaults), always enforced.
		config = loaded.problem !== undefined ? { ...base, mode: "enforce" } : base;
	};

	pi.on(
		"session_start",
		wrapHandler(
			async (_event, ctx) => {
				breaker = initialBreakerState();
				allowOnce = initialAllowOnceState();
				stats = initialGuardianStats();
				turnCache = new Map();
				await loadConfig(ctx);
			},
			{ failure: "open", name: "guardian-review session_start" },
		),
	);

	const SUBCOMMANDS = ["status", "on", "off", "observe", "allow-once"] as const;
	pi.registerCommand("guardian", {
		description: "guardian-review: status | on | off | observe | allow-once",
		getArgumentCompletions: (prefix) =>
			SUBCOMMANDS.filter((name) => name.startsWith(prefix.trim())).map((name) => ({ value: name, label: name })),
		handler: async (args, ctx) => runCommand(args, ctx),
	});

	// The review hooks only when the startup gate says the config may turn it on: none otherwise (no overhead).
	if (!policy.hooks) return;

	pi.on(
		"input",
		wrapHandler(
			(event: InputEvent) => {
				// Only a person's prompt resets the consecutive count; extension-sent input does not.
				if (event.source !== "extension") breaker = reduceBreaker(breaker, { type: "user-prompt" }).state;
				return undefined;
			},
			{ failure: "open", name: "guardian-review input" },
		),
	);

	pi.on(
		"turn_start",
		wrapHandler(
			() => {
				turnCache = new Map();
				return undefined;
			},
			{ failure: "open", name: "guardian-review turn_start" },
		),
	);

	const decideToolCall = async (
		event: ToolCallEvent,
		ctx: ExtensionContext,
	): Promise<ToolCallEventResult | undefined> => {
		if (config === undefined) await loadConfig(ctx);
		const active = config as GuardianReviewConfig;
		const mode = effectiveMode();
		if (mode === "off") return undefined;
		const observe = mode === "observe";
		const toolName = event.toolName;
		const input: unknown = event.input;
		const floor = decideFloor(toolName, input, active, floorContextFor(active, ctx.cwd, home));
		if (floor.kind === "out-of-scope") return undefined;
		const hash = actionHash(toolName, input);
		const tool = verdictTool(toolName);

		const finish = (
			resolution: Resolution,
			extra: Partial<Omit<VerdictV1, "v">> = {},
		): ToolCallEventResult | undefined => {
			stats = recordDecision(stats, resolution.source, resolution.decision);
			emitVerdict({
				decision: resolution.decision,
				source: resolution.source,
				mode: observe ? "observe" : "enforce",
				tool,
				...extra,
			});
			if (observe) return undefined;
			if (resolution.decision === "allow") {
				deepFreeze(event.input);
				return undefined;
			}
			return { block: true, reason: resolution.reason ?? toolCallBlockedResult("guardian-review").reason };
		};

		const noteBreaker = (decision: "allow" | "deny") => {
			const next = reduceBreaker(breaker, { type: "review-decided", decision });
			breaker = next.state;
			for (const effect of next.effects) {
				audit.write({
					event: "breaker-tripped",
					mode: auditMode(),
					state: "tripped",
					counters: { consecutive: effect.consecutive, windowDenials: effect.windowDenials },
				});
				if (!observe) {
					if (ctx.hasUI)
						ctx.ui.notify(breakerNotification(effect.cause, effect.consecutive, effect.windowDenials), "warning");
					ctx.abort();
				}
			}
		};

		if (floor.kind === "deny") {
			audit.write({
				event: "denied",
				mode: auditMode(),
				state: state(),
				category: "floor",
				counters: { hardDenyRule: HARD_DENY_RULES.indexOf(floor.rule) + 1 },
			});
			allowOnce = reduceAllowOnce(allowOnce, { type: "denied", hash, at: now(), eligible: false }).state;
			const result = finish({ decision: "deny", source: "floor", reason: floorDenialReason(toolName, floor.rule) });
			noteBreaker("deny");
			return result;
		}
		if (floor.kind === "allow") {
			audit.write({ event: "allowed", mode: auditMode(), state: state(), category: "floor" });
			return finish({ decision: "allow", source: "floor" });
		}

		// The floor sent the call to review.
		if (breaker.tripped && !observe) {
			audit.write({ event: "denied", mode: auditMode(), state: "tripped", category: "breaker" });
			return finish({ decision: "deny", source: "breaker", reason: breakerDenialReason(toolName) });
		}
		const grant = reduceAllowOnce(allowOnce, { type: "check", hash, now: now() });
		allowOnce = grant.state;
		if (grant.effects.some((effect) => effect.type === "consumed")) {
			turnCache.delete(hash);
			audit.write({ event: "allowed", mode: auditMode(), state: state(), category: "allow-once" });
			return finish({ decision: "allow", source: "allow-once" });
		}
		const cached = turnCache.get(hash);
		if (cached !== undefined) {
			audit.write({
				event: cached.decision === "allow" ? "allowed" : "denied",
				mode: auditMode(),
				state: state(),
				category: "cache",
				counters: { riskLevel: riskLevelCounter(cached.riskLevel) },
			});
			return finish(
				{
					decision: cached.decision,
					source: "cache",
					...(cached.reason === undefined ? {} : { reason: cached.reason }),
				},
				cached.riskLevel === undefined ? {} : { riskLevel: cached.riskLevel },
			);
		}

		const prompt = buildReviewerPrompt({
			toolName,
			input,
			cwd: ctx.cwd,
			home,
			transcript: sessionTranscript(ctx.sessionManager),
		});
		const review = await runReview(ctx, active, prompt);
		const latencyBucket = bucketIndex(review.latencyMs);
		if (review.ok) {
			stats = recordLatency(stats, review.latencyMs);
			const verdict: ReviewerVerdict = review.verdict.verdict;
			const policy = applyOutcomePolicy(verdict);
			const riskLevel = verdict.risk_level;
			audit.write({
				event: "reviewed",
				mode: auditMode(),
				state: state(),
				category: "reviewer",
				counters: {
					riskLevel: riskLevelCounter(riskLevel),
					userAuthorization: authorizationCounter(verdict.user_authorization),
					latencyBucket,
					attempts: review.attempts,
					promptTokens: prompt.estimatedTokens,
				},
			});
			const reason =
				policy.decision === "deny" ? riskDenialReason(toolName, riskLevel, policy.rule, verdict.rationale) : undefined;
			turnCache.set(hash, {
				decision: policy.decision,
				...(reason === undefined ? {} : { reason }),
				...(riskLevel === undefined ? {} : { riskLevel }),
			});
			if (policy.decision === "deny") {
				allowOnce = reduceAllowOnce(allowOnce, { type: "denied", hash, at: now(), eligible: true }).state;
			}
			audit.write({
				event: policy.decision === "allow" ? "allowed" : "denied",
				mode: auditMode(),
				state: state(),
				category: "reviewer",
				counters: { riskLevel: riskLevelCounter(riskLevel), latencyBucket, policyRule: policyRuleCounter(policy.rule) },
			});
			writeLog(active, {
				tool: toolName,
				action: prompt.action,
				decision: policy.decision,
				source: "reviewer",
				...(riskLevel === undefined ? {} : { riskLevel }),
				...(verdict.user_authorization === undefined ? {} : { userAuthorization: verdict.user_authorization }),
				...(verdict.rationale === undefined ? {} : { rationale: verdict.rationale }),
				latencyMs: review.latencyMs,
				...(review.modelRef === undefined ? {} : { model: review.modelRef }),
				promptTokens: prompt.estimatedTokens,
			});
			const result = finish(
				{ decision: policy.decision, source: "reviewer", ...(reason === undefined ? {} : { reason }) },
				{
					...(riskLevel === undefined ? {} : { riskLevel }),
					...(verdict.user_authorization === undefined ? {} : { userAuthorization: verdict.user_authorization }),
					latencyBucket,
				},
			);
			noteBreaker(policy.decision);
			return result;
		}

		// The review could not decide.
		const failure: ReviewFailureReason = review.reason;
		stats = recordUnavailable(stats, failure);
		audit.write({
			event: "unavailable",
			mode: auditMode(),
			state: state(),
			category: failure,
			counters: { latencyBucket, attempts: review.attempts },
		});
		writeLog(active, {
			tool: toolName,
			action: prompt.action,
			decision: "unavailable",
			source: "reviewer",
			failureReason: failure,
			latencyMs: review.latencyMs,
			...(review.modelRef === undefined ? {} : { model: review.modelRef }),
			promptTokens: prompt.estimatedTokens,
		});
		const failureFields = { failureReason: failure, latencyBucket };
		if (observe) return finish({ decision: "deny", source: "fallback" }, failureFields);
		if (failure !== "aborted" && active.onUnavailable === "ask" && ctx.hasUI) {
			let approved = false;
			try {
				approved = await ctx.ui.confirm(UNAVAILABLE_DIALOG_TITLE, unavailableDialogMessage(toolName, failure), {
					...(ctx.signal ? { signal: ctx.signal } : {}),
				});
			} catch {
				approved = false;
			}
			if (approved) {
				audit.write({ event: "user-override", mode: auditMode(), state: state(), category: "user" });
				return finish({ decision: "allow", source: "user" }, failureFields);
			}
			audit.write({ event: "denied", mode: auditMode(), state: state(), category: "user" });
			allowOnce = reduceAllowOnce(allowOnce, { type: "denied", hash, at: now(), eligible: true }).state;
			return finish(
				{ decision: "deny", source: "user", reason: unavailableDenialReason(toolName, failure) },
				failureFields,
			);
		}
		audit.write({ event: "denied", mode: auditMode(), state: state(), category: "fallback" });
		allowOnce = reduceAllowOnce(allowOnce, { type: "denied", hash, at: now(), eligible: true }).state;
		return finish(
			{ decision: "deny", source: "fallback", reason: unavailableDenialReason(toolName, failure) },
			failureFields,
		);
	};

	const writeLog = (active: GuardianReviewConfig, record: Omit<Parameters<typeof appendReviewLog>[0], "time">) => {
		if (!active.reviewLog) return;
		void appendReviewLog({ time: new Date().toISOString(), ...record }, () => {
			reviewLogFailed = true;
		});
	};

	const toolCallHandler = wrapHandler(
		(event: ToolCallEvent, ctx: ExtensionContext) => {
			const run = chain.then(() => decideToolCall(event, ctx));
			chain = run.catch(() => undefined);
			return run;
		},
		{
			failure: "closed",
			name: "guardian-review tool_call",
			closedResult: (name: string) => (effectiveMode() === "enforce" ? toolCallBlockedResult(name) : undefined),
			report: (diagnostic, ctx) => {
				audit.write({ event: "handler-error", mode: auditMode() });
				const notifyCtx = ctx as ExtensionContext | undefined;
				if (notifyCtx?.hasUI) notifyCtx.ui.notify(diagnostic.message, "error");
			},
		},
	);
	pi.on(
		"tool_call",
		toolCallHandler as (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallEventResult | undefined>,
	);

	async function runCommand(args: string, ctx: ExtensionContext): Promise<void> {
		try {
			if (config === undefined) await loadConfig(ctx);
			const sub = args.trim().split(/\s+/)[0] ?? "";
			const say = (text: string, level: "info" | "warning" = "info") => {
				if (ctx.hasUI) ctx.ui.notify(text, level);
			};
			const known = sub === "" || (SUBCOMMANDS as readonly string[]).includes(sub);
			if (known && !policy.hooks) {
				// No review hooks in this process: nothing can be reviewed, so every action explains why.
				const line = policy.statusLine() ?? "inactive";
				if (sub === "" || sub === "status") say(`${NAME}: ${line}`);
				else say(policy.unavailable(sub) ?? `${NAME} ${sub}: unavailable, ${line}`, "warning");
				return;
			}
			switch (sub) {
				case "":
				case "status": {
					const reviewer = config ? modelRefOf(resolveReviewerModel(ctx, config)) : undefined;
					const closed = policy.current().state === "failed-closed" ? `${NAME}: ${policy.statusLine()}\n` : "";
					say(
						closed +
							formatGuardianStatus({
								mode: effectiveMode(),
								reviewerModel: reviewer,
								stats,
								breaker,
								pendingGrants: allowOnce.grants.filter((grant) => grant.expiresAt > now()).length,
							}) +
							(reviewLogFailed ? "\nreview log: write failed" : ""),
					);
					return;
				}
				case "on":
				case "off":
				case "observe": {
					modeOverride = sub === "on" ? "enforce" : sub;
					audit.write({ event: "mode-changed", mode: modeOverride });
					say(`guardian-review: ${modeOverride} for this session.`);
					return;
				}
				case "allow-once": {
					const next = reduceAllowOnce(allowOnce, { type: "grant", now: now() });
					allowOnce = next.state;
					if (next.effects.some((effect) => effect.type === "granted")) {
						audit.write({ event: "allow-once-granted", mode: auditMode(), category: "allow-once" });
						say("guardian-review: the most recently denied action may run once within 5 minutes.");
					} else {
						say(
							"guardian-review: there is no denied action to allow (floor hard-denies cannot be overridden).",
							"warning",
						);
					}
					return;
				}
				default:
					say("usage: /guardian status | on | off | observe | allow-once", "warning");
			}
		} catch {
			if (ctx.hasUI) ctx.ui.notify("guardian-review: command failed: internal error", "error");
		}
	}
}

function policyRuleCounter(rule: OutcomePolicyRule): number {
	return rule === "model-outcome" ? 0 : rule === "critical-denied" ? 1 : 2;
}

function resolveFallback(): GuardianReviewConfig {
	const resolved = resolveGuardianReviewLayer(undefined);
	if (resolved.ok) return resolved.value;
	throw new Error("guardian-review: defaults unavailable");
}
