// output-minimizer: keeps delegated (subagent) output out of the parent's context. The full text goes to a
// durable file and the parent gets a compact receipt; background completion messages are rewritten likewise.
// Decisions live in @pi-policy/policy-kernel/minimize; this shell binds Pi events, files, audit and a command.
import {
	type ExtensionAPI,
	type ExtensionContext,
	getAgentDir,
	type MessageEndEvent,
	type MessageEndEventResult,
	type ToolResultEvent,
	type ToolResultEventResult,
} from "@earendil-works/pi-coding-agent";
import { collectAuditEntries } from "@pi-policy/policy-kernel/audit";
import {
	answerCommand,
	createAuditWriter,
	createPolicyConfig,
	type PolicyConfig,
	wrapHandler,
} from "@pi-policy/policy-kernel/host";
import {
	buildBoundedInlineResult,
	buildMinimizedResult,
	buildNotifyRewrite,
	formatOutputMinimizerStatus,
	nonTextBlocks,
	type OutputMinimizerConfig,
	OutputMinimizerConfigSchema,
	type OutputMinimizerRunState,
	outputMinimizerCounted,
	type PersistOutcome,
	parseOutputMinimizerConfig,
	planNotifyRewrite,
	planToolResult,
	projectDelegationDetails,
	summarizeOutputMinimizer,
	type ToolResultPlan,
	textBytes,
	withOutputMinimizerDefaults,
} from "@pi-policy/policy-kernel/minimize";
import { createOutputStore } from "./output-store.js";

/** The package folder name: config file, audit `ext` and command name. */
export const NAME = "output-minimizer";

type Category = "single" | "workflow" | "notify";

/** Running totals carried by audit entries so that `/output-minimizer status` survives reloads. */
interface Totals {
	bytesKeptOutTotal: number;
	referencesTotal: number;
	reusedTotal: number;
}

/**
 * The config lifecycle: `policy/output-minimizer.json`, global then trusted project file by the kernel's one
 * project-layer rule (key by key; no security settings). An invalid config fails open.
 */
function createOutputMinimizerConfig(pi: ExtensionAPI): PolicyConfig<OutputMinimizerConfig> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "open",
		schema: OutputMinimizerConfigSchema,
		projectLayer: {},
		resolve: (merged) => {
			if (merged === undefined) return { ok: true, value: withOutputMinimizerDefaults(undefined) };
			const parsed = parseOutputMinimizerConfig(merged);
			return parsed.ok ? { ok: true, value: withOutputMinimizerDefaults(parsed.value) } : parsed;
		},
		enabled: (config) => config.mode === "reference",
	});
}

/** The extension Pi loads (the package's default export). */
export default function outputMinimizer(pi: ExtensionAPI): void {
	registerOutputMinimizer(pi);
}

/**
 * Registers output-minimizer. The command and `session_start` are always registered, so
 * `/output-minimizer status` answers whatever the config says. The result hooks are registered when the startup
 * gate (the global file, read synchronously here, or a project file in the launch folder) may turn it on; the
 * effective config is resolved at every `session_start`. An invalid config fails open: one notification, an
 * audit `config-invalid`, and results pass unchanged.
 */
export function registerOutputMinimizer(pi: ExtensionAPI): void {
	const policy = createOutputMinimizerConfig(pi);
	const diagnostics = (message: string) => console.error(message);
	const audit = createAuditWriter(pi, NAME, { onDiagnostic: diagnostics });
	const reported = new Set<string>();
	let config: OutputMinimizerConfig | undefined;
	let runState: OutputMinimizerRunState = "starting";
	let context: ExtensionContext | undefined;
	const totals: Totals = { bytesKeptOutTotal: 0, referencesTotal: 0, reusedTotal: 0 };

	const store = createOutputStore({
		agentDir: () => getAgentDir(),
		sessionId: () => context?.sessionManager.getSessionId() ?? "session",
		cwd: () => context?.cwd ?? process.cwd(),
	});

	const report = (_diagnostic: unknown, ctx: unknown) => {
		audit.write({ event: "handler-error" });
		const ui = ctx as ExtensionContext | undefined;
		if (ui?.hasUI) ui.ui.notify("output-minimizer: internal error; the result was left unchanged.", "warning");
	};

	pi.on(
		"session_start",
		wrapHandler(
			async (_event, ctx) => {
				context = ctx;
				const loaded = await policy.load(ctx);
				seedTotals(ctx);
				config = loaded.state === "active" ? loaded.config : undefined;
				runState = config ? "active" : loaded.state === "disabled" ? "inactive-invalid-config" : "inactive-project-off";
			},
			{ failure: "open", name: "output-minimizer session_start", reported },
		),
	);

	// `/tree` moves to another branch: the running totals the next audit entry carries are that branch's.
	pi.on(
		"session_tree",
		wrapHandler(
			async (_event, ctx) => {
				seedTotals(ctx);
			},
			{ failure: "open", name: "output-minimizer session_tree", reported },
		),
	);

	pi.registerCommand(NAME, {
		description: "Show output-minimizer counters: /output-minimizer status",
		handler: async (args, ctx) => {
			const sub = args.trim().toLowerCase();
			if (sub !== "" && sub !== "status") {
				answerCommand(ctx, "Usage: /output-minimizer status", "warning");
				return;
			}
			const stats = summarizeOutputMinimizer(ctx.sessionManager.getBranch());
			const report = formatOutputMinimizerStatus(stats, runState);
			const notLive = policy.statusLine();
			// Not live: the state line, and the counters only when this branch counted something while it was on.
			const text =
				notLive === undefined
					? report
					: outputMinimizerCounted(stats)
						? [`${NAME}: ${notLive}`, "counted earlier in this branch:", ...report.split("\n").slice(1)].join("\n")
						: `${NAME}: ${notLive}`;
			answerCommand(ctx, text, "info");
		},
	});

	// The result hooks only when the startup gate says the config may turn it on: none otherwise (no overhead).
	if (!policy.hooks) return;

	pi.on(
		"tool_result",
		wrapHandler(
			async (event: ToolResultEvent, ctx: ExtensionContext): Promise<ToolResultEventResult | undefined> => {
				if (config === undefined) return undefined;
				context = ctx;
				return minimizeToolResult(event, config);
			},
			{ failure: "open", name: "output-minimizer tool_result", reported, report },
		),
	);

	pi.on(
		"message_end",
		wrapHandler(
			async (event: MessageEndEvent, ctx: ExtensionContext): Promise<MessageEndEventResult | undefined> => {
				if (config === undefined) return undefined;
				const message = event.message as unknown as Record<string, unknown>;
				if (message.role !== "custom") return undefined;
				context = ctx;
				return minimizeNotify(message, config);
			},
			{ failure: "open", name: "output-minimizer message_end", reported, report },
		),
	);

	function seedTotals(ctx: ExtensionContext): void {
		const stats = summarizeOutputMinimizer(collectAuditEntries(ctx.sessionManager.getBranch()));
		totals.bytesKeptOutTotal = stats.bytesKeptOut;
		totals.referencesTotal = stats.references;
		totals.reusedTotal = stats.reused;
	}

	function writeOutcome(category: Category, rawBytes: number, text: string, referenced: number, reused: number): void {
		const bytesKeptOut = Math.max(0, rawBytes - textBytes(text));
		totals.bytesKeptOutTotal += bytesKeptOut;
		totals.referencesTotal += referenced;
		totals.reusedTotal += reused;
		// The entry's own bytes beside the branch's running totals: a report over a file that holds several branches
		// (`/tree`), or an exporter that starts after `/reload`, sums these instead of following one running total.
		audit.write({
			event: "minimized",
			mode: "reference",
			category,
			counters: { outputs: referenced, bytesKeptOut, ...totals },
		});
	}

	async function minimizeToolResult(
		event: ToolResultEvent,
		active: OutputMinimizerConfig,
	): Promise<ToolResultEventResult | undefined> {
		const plan: ToolResultPlan = planToolResult(
			{
				toolName: event.toolName,
				input: event.input,
				content: event.content,
				details: event.details,
				isError: event.isError,
			},
			active,
		);
		if (plan.action === "ignore") return undefined;
		if (plan.action === "passthrough") {
			audit.write({
				event: plan.reason === "inline" ? "passthrough-inline" : "passthrough-small",
				mode: "reference",
				category: plan.surface,
			});
			return undefined;
		}
		const extraBlocks = nonTextBlocks(event.content) as ToolResultEventResult["content"] & unknown[];
		if (plan.action === "bound") {
			const built = buildBoundedInlineResult(plan, active);
			audit.write({ event: "bounded-inline", mode: "reference", category: plan.surface });
			return {
				content: [{ type: "text", text: built.text }, ...(extraBlocks ?? [])],
				details: projectDelegationDetails(event.details, plan.outputs, [], plan.surface, true),
				isError: event.isError,
			};
		}
		const outcomes: PersistOutcome[] = [];
		for (const output of plan.outputs) {
			outcomes.push(
				await store.persist({
					label: output.kind === "workflow-text" ? "workflow" : output.label,
					text: output.text,
					...(output.hostSavedPath !== undefined ? { hostSavedPath: output.hostSavedPath } : {}),
				}),
			);
		}
		const built = buildMinimizedResult(plan, outcomes, active);
		recordFailures(plan.surface, built.fallbacks);
		if (built.fallbacks === 0) writeOutcome(plan.surface, plan.rawBytes, built.text, built.referenced, built.reused);
		return {
			content: [{ type: "text", text: built.text }, ...(extraBlocks ?? [])],
			details: projectDelegationDetails(event.details, plan.outputs, outcomes, plan.surface),
			isError: event.isError,
		};
	}

	function recordFailures(category: Category, failures: number): void {
		if (failures === 0) return;
		audit.write({ event: "persistence-failed", mode: "reference", category, counters: { outputs: failures } });
		audit.write({ event: "bounded-fallback", mode: "reference", category, counters: { outputs: failures } });
	}

	async function minimizeNotify(
		message: Record<string, unknown>,
		active: OutputMinimizerConfig,
	): Promise<MessageEndEventResult | undefined> {
		const plan = planNotifyRewrite({ customType: message.customType, content: message.content }, active);
		if (plan.action === "ignore") return undefined;
		if (plan.action === "passthrough") {
			audit.write({ event: "passthrough-small", mode: "reference", category: "notify" });
			return undefined;
		}
		const outcome = await store.persist({ label: plan.label, text: plan.text });
		const text = buildNotifyRewrite(plan, outcome, active);
		if (outcome.ok === true) writeOutcome("notify", plan.rawBytes, text, 1, 0);
		else recordFailures("notify", 1);
		const content =
			typeof message.content === "string"
				? text
				: [{ type: "text", text }, ...(nonTextBlocks(message.content) as Array<Record<string, unknown>>)];
		return { message: { ...message, content } as unknown as MessageEndEvent["message"] };
	}
}
