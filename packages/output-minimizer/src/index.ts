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
import { createAuditWriter, loadPolicyConfig, loadPolicyConfigSync, wrapHandler } from "@pi-policy/policy-kernel/host";
import {
	buildBoundedInlineResult,
	buildMinimizedResult,
	buildNotifyRewrite,
	formatOutputMinimizerStatus,
	nonTextBlocks,
	type OutputMinimizerConfig,
	type OutputMinimizerRunState,
	type PersistOutcome,
	planNotifyRewrite,
	planToolResult,
	projectDelegationDetails,
	resolveOutputMinimizerConfig,
	summarizeOutputMinimizer,
	type ToolResultPlan,
	textBytes,
} from "@pi-policy/policy-kernel/minimize";
import { createOutputStore } from "./output-store.js";

/** The package folder name: config file, audit `ext` and command name. */
export const OUTPUT_MINIMIZER_NAME = "output-minimizer";

type Category = "single" | "workflow" | "notify";

/** Running totals carried by audit entries so that `/output-minimizer status` survives reloads. */
interface Totals {
	bytesKeptOutTotal: number;
	referencesTotal: number;
	reusedTotal: number;
}

/**
 * The extension factory. The global config is read synchronously here: `mode: "off"` in it registers
 * nothing. The effective config (a trusted project file replaces the global one) is resolved at every
 * `session_start`, where `ctx.isProjectTrusted()` is available; a project `mode: "off"` leaves the handlers
 * registered but inert. An invalid config fails open: one notification, an audit `config-invalid`, and
 * results pass unchanged.
 */
export default function registerOutputMinimizer(pi: ExtensionAPI): void {
	const globalLayers = loadPolicyConfigSync({
		name: OUTPUT_MINIMIZER_NAME,
		cwd: process.cwd(),
		isProjectTrusted: false,
	});
	const globalConfig = resolveOutputMinimizerConfig({ global: globalLayers.global, errors: globalLayers.errors });
	if (globalConfig.ok && globalConfig.value.mode === "off") return;

	const diagnostics = (message: string) => console.error(message);
	const audit = createAuditWriter(pi, OUTPUT_MINIMIZER_NAME, { onDiagnostic: diagnostics });
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
				const layers = await loadPolicyConfig({
					name: OUTPUT_MINIMIZER_NAME,
					cwd: ctx.cwd,
					isProjectTrusted: () => ctx.isProjectTrusted(),
				});
				const resolved = resolveOutputMinimizerConfig(layers);
				seedTotals(ctx);
				if (!resolved.ok) {
					config = undefined;
					runState = "inactive-invalid-config";
					audit.write({ event: "config-invalid" });
					if (ctx.hasUI) ctx.ui.notify(`output-minimizer disabled: ${resolved.error}`, "warning");
					return;
				}
				config = resolved.value.mode === "reference" ? resolved.value : undefined;
				runState = config ? "active" : "inactive-project-off";
			},
			{ failure: "open", name: "output-minimizer session_start", reported },
		),
	);

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

	pi.registerCommand(OUTPUT_MINIMIZER_NAME, {
		description: "Show output-minimizer counters: /output-minimizer status",
		handler: async (args, ctx) => {
			const sub = args.trim().toLowerCase();
			if (sub !== "" && sub !== "status") {
				if (ctx.hasUI) ctx.ui.notify("Usage: /output-minimizer status", "warning");
				return;
			}
			const stats = summarizeOutputMinimizer(ctx.sessionManager.getBranch());
			if (ctx.hasUI) ctx.ui.notify(formatOutputMinimizerStatus(stats, runState), "info");
		},
	});

	function seedTotals(ctx: ExtensionContext): void {
		const stats = summarizeOutputMinimizer(collectAuditEntries(ctx.sessionManager.getBranch()));
		totals.bytesKeptOutTotal = stats.bytesKeptOut;
		totals.referencesTotal = stats.references;
		totals.reusedTotal = stats.reused;
	}

	function writeOutcome(category: Category, rawBytes: number, text: string, referenced: number, reused: number): void {
		totals.bytesKeptOutTotal += Math.max(0, rawBytes - textBytes(text));
		totals.referencesTotal += referenced;
		totals.reusedTotal += reused;
		audit.write({
			event: "minimized",
			mode: "reference",
			category,
			counters: { outputs: referenced, ...totals },
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
