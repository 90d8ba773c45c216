// delegation-policy: injects one validated, marked delegation-policy block into every request, with the
// `/delegate` command, a TUI panel, footer status and the `pi-policy:delegation-state` bus event.
//
// Placement: `before_agent_start` declares the block as the `delegation_policy` prompt section (so prompts that
// other extensions build from the chained prompt carry it) and fixes a prompt forced earlier in the chain;
// `context_with_system` refreshes it in the leading system message before every request; and
// `before_provider_request` re-applies it inside the payload's instruction fields. It fails closed: on D:ERR
// or an internal error no delegation text is injected. Config: global defaults only, read at session_start
// (and again after /reload); there is no project configuration, so project trust is never consulted.
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import {
	applyPolicyBlockToPayload,
	applyPolicyBlockToTranscript,
	DELEGATE_USAGE,
	DELEGATION_POLICY_CONFIG_NAME,
	DELEGATION_POLICY_SECTION,
	formatDelegationChange,
	parseDelegateCommand,
	replacePolicyBlockInText,
} from "@pi-policy/policy-kernel/delegation";
import { answerCommand, createPolicyConfig, type PolicyConfig, wrapHandler } from "@pi-policy/policy-kernel/host";
import { createDelegationController } from "./controller.js";
import { type GlobalDefaults, isThinkingIssue, resolveGlobalDefaults } from "./global-config.js";
import { openDelegationPanel } from "./panel-host.js";

const NO_RESULT = () => undefined;

/** The package folder name: the config file is `policy/delegation-policy.json`, audit entries carry this `ext`. */
export const NAME = DELEGATION_POLICY_CONFIG_NAME;

/**
 * The config lifecycle of the global defaults: `policy/delegation-policy.json` only (no project file, so project
 * trust is never consulted). An invalid document fails closed: empty global defaults, one notification.
 */
function createDelegationPolicyConfig(pi: ExtensionAPI): PolicyConfig<GlobalDefaults> {
	return createPolicyConfig(pi, {
		name: NAME,
		failure: "closed",
		projectLayer: "none",
		resolve: resolveGlobalDefaults,
		enabled: () => true,
		auditFields: (issues) =>
			issues.some((issue) => isThinkingIssue(issue.key)) ? { category: "thinking-malformed" as const } : {},
		closedNote: "global defaults ignored",
	});
}

/** The extension Pi loads (the package's default export). */
export default function delegationPolicy(pi: ExtensionAPI): void {
	registerDelegationPolicy(pi);
}

/** Registers delegation-policy on a Pi extension API: every hook and `/delegate`, always. */
export function registerDelegationPolicy(pi: ExtensionAPI): void {
	const controller = createDelegationController(pi, createDelegationPolicyConfig(pi));
	controller.subscribeToRequests();

	const load = wrapHandler(async (_event: unknown, ctx: ExtensionContext) => controller.load(ctx), {
		failure: "closed",
		name: "delegation-policy session_start",
		closedResult: NO_RESULT,
	});
	pi.on("session_start", load);
	pi.on(
		"session_tree",
		wrapHandler(async (_event: unknown, ctx: ExtensionContext) => controller.restore(ctx), {
			failure: "closed",
			name: "delegation-policy session_tree",
			closedResult: NO_RESULT,
		}),
	);

	pi.on(
		"before_agent_start",
		wrapHandler(
			(event, ctx) => {
				const view = controller.refresh(ctx);
				const sections = event.systemPromptOptions.sections;
				if (view.body === undefined) delete sections[DELEGATION_POLICY_SECTION];
				else sections[DELEGATION_POLICY_SECTION] = view.body;
				const forced = event.systemPromptOptions.forceSystemPrompt;
				if (forced === undefined) return undefined;
				const placed = replacePolicyBlockInText(forced, view.block);
				return placed.changed ? { systemPrompt: placed.value } : undefined;
			},
			{ failure: "closed", name: "delegation-policy before_agent_start", closedResult: NO_RESULT },
		),
	);

	pi.on(
		"context_with_system",
		wrapHandler(
			(event, ctx) => {
				let block: string | undefined;
				try {
					block = controller.refresh(ctx).block;
				} catch {
					block = undefined;
				}
				const placed = applyPolicyBlockToTranscript(event.messages, block);
				return placed.changed ? { messages: placed.value } : undefined;
			},
			{ failure: "closed", name: "delegation-policy context_with_system", closedResult: NO_RESULT },
		),
	);

	pi.on(
		"before_provider_request",
		wrapHandler(
			(event, ctx) => {
				let block: string | undefined;
				try {
					block = controller.view(ctx).block;
				} catch {
					block = undefined;
				}
				const placed = applyPolicyBlockToPayload(event.payload, block);
				return placed.changed ? placed.value : undefined;
			},
			{ failure: "closed", name: "delegation-policy before_provider_request", closedResult: NO_RESULT },
		),
	);

	pi.registerCommand("delegate", {
		description: "Delegation policy: status, intensity, roles, Advisor; no argument opens the panel",
		getArgumentCompletions: (prefix) => {
			const options = [
				"status",
				"off",
				"normal",
				"aggressive",
				"orchestrator",
				"reset",
				"advisor",
				"role",
				"thinking",
				"preference",
				"help",
			];
			const matches = options.filter((option) => option.startsWith(prefix.trim()));
			return matches.length > 0 ? matches.map((value) => ({ value, label: value })) : null;
		},
		handler: async (args, ctx) => {
			try {
				const parsed = parseDelegateCommand(args);
				if (!parsed.ok) {
					answerCommand(ctx, `delegation-policy: ${parsed.error}`, "warning");
					return;
				}
				const command = parsed.value;
				if (command.kind === "help") answerCommand(ctx, DELEGATE_USAGE, "info");
				else if (command.kind === "status" || (command.kind === "panel" && ctx.mode !== "tui")) {
					answerCommand(ctx, controller.statusLines(ctx).join("\n"), "info");
				} else if (command.kind === "panel") await openDelegationPanel(controller, ctx);
				else {
					const view = controller.apply(command.event, ctx);
					const failed = view.validation.diagnostics.some((entry) => entry.severity === "error");
					answerCommand(
						ctx,
						formatDelegationChange(view.footer, view.validation).join("\n"),
						failed ? "warning" : "info",
					);
				}
			} catch {
				answerCommand(ctx, "delegation-policy: the command failed (internal error); nothing changed.", "error");
			}
		},
	});
}
