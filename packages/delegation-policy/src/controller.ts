// The shell's state holder: global defaults, the session layer, the current validated view, and the effects
// (session entries, audit, status, bus). Every decision is a kernel call; this file only does I/O.
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import {
	buildDelegationStatePayload,
	DELEGATION_ROLES,
	DELEGATION_SESSION_ENTRY_TYPE,
	type DelegationPolicySettings,
	type DelegationSessionEffect,
	type DelegationSessionEvent,
	type DelegationSessionState,
	type DelegationValidation,
	type EffectiveDelegationPolicy,
	effectiveToSettings,
	formatDelegationStatus,
	formatFooterStatus,
	initialDelegationSessionState,
	type ModelCatalogue,
	reduceDelegationSession,
	renderPolicyBlock,
	renderPolicyBlockBody,
	resolveEffectivePolicy,
	validateDelegationPolicy,
	validationTransitionAudit,
} from "@pi-policy/policy-kernel/delegation";
import { DELEGATION_STATE_CHANNEL, decodeEventPayload } from "@pi-policy/policy-kernel/events";
import { type AuditWriter, createAuditWriter, type PolicyConfig } from "@pi-policy/policy-kernel/host";
import { buildModelCatalogue } from "./catalogue.js";
import { type GlobalDefaults, saveGlobalDefaults } from "./global-config.js";

/** The footer status key. */
export const STATUS_KEY = "delegation-policy";

/** At most this many sanitized warnings are kept for `/delegate status`. */
const MAX_WARNINGS = 5;

/** The validated policy at one moment. */
export interface DelegationView {
	readonly effective: EffectiveDelegationPolicy;
	readonly validation: DelegationValidation;
	/** The full marked block, or undefined when nothing is injected. */
	readonly block: string | undefined;
	/** The block body (what the host wraps in tags as a prompt section). */
	readonly body: string | undefined;
	readonly footer: string;
}

type UiContext = Pick<ExtensionContext, "hasUI" | "ui">;
type ModelContext = Pick<ExtensionContext, "modelRegistry" | "scopedModels">;

function referencedModels(effective: EffectiveDelegationPolicy): Array<{ provider: string; model: string }> {
	const references: Array<{ provider: string; model: string }> = [];
	for (const role of DELEGATION_ROLES) {
		const value = effective.roles[role].value;
		if (value) references.push(value);
	}
	return references;
}

/**
 * Creates the controller of one extension instance. `policy` is the config lifecycle of the global defaults
 * (see index.ts); it notifies and audits an invalid document itself.
 */
export function createDelegationController(pi: ExtensionAPI, policy: PolicyConfig<GlobalDefaults>) {
	let globalSettings: DelegationPolicySettings = {};
	let session: DelegationSessionState = initialDelegationSessionState();
	let view: DelegationView | undefined;
	let lastValidation: Pick<DelegationValidation, "delegation" | "advisor"> | undefined;
	let publishedJson: string | undefined;
	let publishedView: DelegationView | undefined;
	let viewCache:
		| {
				global: DelegationPolicySettings;
				session: DelegationPolicySettings;
				catalogueJson: string;
				view: DelegationView;
		  }
		| undefined;
	let shownFooter: string | undefined;
	const warnings: string[] = [];
	const audit: AuditWriter<"delegation-policy"> = createAuditWriter(pi, "delegation-policy");

	function keepWarning(message: string, ctx: UiContext | undefined): void {
		warnings.push(message);
		while (warnings.length > MAX_WARNINGS) warnings.shift();
		notify(ctx, message, "warning");
	}

	function notify(ctx: UiContext | undefined, message: string, level: "info" | "warning" | "error"): void {
		try {
			if (ctx?.hasUI) ctx.ui.notify(message, level);
		} catch {
			// A failing UI must not break the policy.
		}
	}

	/** Validates a session layer (the committed one by default) without side effects. */
	function computeView(
		ctx: ModelContext,
		sessionSettings: DelegationPolicySettings = session.settings,
	): DelegationView {
		const effective = resolveEffectivePolicy(globalSettings, sessionSettings);
		let catalogue: ModelCatalogue;
		try {
			catalogue = buildModelCatalogue(ctx, referencedModels(effective));
		} catch {
			catalogue = { models: [], providers: [] };
		}
		// Runs before every request: when the layers and the catalogue are unchanged, the view is too.
		const catalogueJson = JSON.stringify(catalogue);
		const cached = viewCache;
		if (
			cached !== undefined &&
			cached.global === globalSettings &&
			cached.session === sessionSettings &&
			cached.catalogueJson === catalogueJson
		) {
			return cached.view;
		}
		const validation = validateDelegationPolicy(effective, catalogue);
		const computed: DelegationView = {
			effective,
			validation,
			block: renderPolicyBlock(effective, validation),
			body: renderPolicyBlockBody(effective, validation),
			footer: formatFooterStatus(effective, validation),
		};
		viewCache = { global: globalSettings, session: sessionSettings, catalogueJson, view: computed };
		return computed;
	}

	function publish(): void {
		if (view === undefined || view === publishedView) return;
		publishedView = view;
		try {
			const payload = buildDelegationStatePayload(view.effective, view.validation);
			const json = JSON.stringify(payload);
			if (json === publishedJson) return;
			publishedJson = json;
			pi.events.emit(DELEGATION_STATE_CHANNEL, payload);
		} catch {
			// The bus is best effort.
		}
	}

	/** Recomputes the view from the current layers and catalogue, then updates status, audit and bus. */
	function refresh(ctx: ModelContext & Partial<UiContext>): DelegationView {
		view = computeView(ctx);
		const transition = validationTransitionAudit(lastValidation, view.validation);
		if (transition !== undefined) audit.write({ ...transition, mode: view.effective.intensity.value });
		lastValidation = { delegation: view.validation.delegation, advisor: view.validation.advisor };
		if (view.footer !== shownFooter && ctx.hasUI === true && ctx.ui !== undefined) {
			try {
				ctx.ui.setStatus(STATUS_KEY, view.footer);
				shownFooter = view.footer;
			} catch {
				// Status is best effort.
			}
		}
		publish();
		return view;
	}

	function runEffects(effects: readonly DelegationSessionEffect[], ctx: UiContext | undefined): boolean {
		let persisted = true;
		for (const effect of effects) {
			if (effect.kind === "persist") {
				try {
					pi.appendEntry(DELEGATION_SESSION_ENTRY_TYPE, effect.entry);
				} catch {
					persisted = false;
					keepWarning("delegation-policy: the session change could not be stored.", ctx);
				}
			} else if (effect.kind === "audit") audit.write(effect.fields);
			else keepWarning(effect.message, ctx);
		}
		return persisted;
	}

	function latestSessionEntryData(ctx: Pick<ExtensionContext, "sessionManager">): unknown {
		const branch = ctx.sessionManager.getBranch();
		for (let index = branch.length - 1; index >= 0; index--) {
			const entry = branch[index] as { type?: string; customType?: string; data?: unknown } | undefined;
			if (entry?.type === "custom" && entry.customType === DELEGATION_SESSION_ENTRY_TYPE) {
				return entry.data === undefined ? null : entry.data;
			}
		}
		return undefined;
	}

	return {
		/** The current view (computed on demand when none exists yet). */
		view(ctx: ModelContext & Partial<UiContext>): DelegationView {
			return view ?? refresh(ctx);
		},
		refresh,
		computeView,
		/** The committed session layer. */
		sessionSettings: (): DelegationPolicySettings => session.settings,
		globalSettings: (): DelegationPolicySettings => globalSettings,
		catalogue(ctx: ModelContext): ModelCatalogue {
			try {
				return buildModelCatalogue(ctx);
			} catch {
				return { models: [], providers: [] };
			}
		},

		/** Loads global defaults and restores the latest session entry of the current branch. */
		async load(ctx: ExtensionContext): Promise<void> {
			const loaded = await policy.load(ctx);
			// Fails closed: an invalid document gives empty global defaults (the lifecycle's fallback).
			globalSettings = loaded.problem === undefined ? (loaded.config?.settings ?? {}) : {};
			this.restore(ctx);
		},

		/** Restores the session layer from the latest session entry (branch changes included). */
		restore(ctx: ExtensionContext): void {
			const step = reduceDelegationSession(initialDelegationSessionState(), {
				type: "restore",
				data: latestSessionEntryData(ctx),
			});
			session = step.state;
			runEffects(step.effects, ctx);
			refresh(ctx);
		},

		/** Applies a session-layer event (command or panel), persists it and refreshes. */
		apply(event: DelegationSessionEvent, ctx: ExtensionContext): DelegationView {
			const step = reduceDelegationSession(session, event);
			const persisted = runEffects(step.effects, ctx);
			if (persisted) session = step.state;
			return refresh(ctx);
		},

		/** Writes the effective configuration of a session layer as global defaults. */
		async saveDefaults(ctx: ExtensionContext, sessionSettings: DelegationPolicySettings): Promise<boolean> {
			const effective = resolveEffectivePolicy(globalSettings, sessionSettings);
			const settings = effectiveToSettings(effective);
			const saved = await saveGlobalDefaults(ctx.cwd, settings);
			if (saved) {
				globalSettings = settings;
				audit.write({ event: "defaults-saved" });
				// The file now holds a valid document: read it again, so a failed-closed line about the old one goes.
				await policy.load(ctx);
				refresh(ctx);
			} else keepWarning("delegation-policy: the global defaults could not be saved.", ctx);
			return saved;
		},

		/** The `/delegate status` lines, with kept warnings. */
		statusLines(ctx: ModelContext & Partial<UiContext>): string[] {
			const current = refresh(ctx);
			const lines = formatDelegationStatus(current.effective, current.validation);
			const config = policy.statusLine();
			if (config !== undefined) lines.splice(1, 0, `config: ${config}`);
			for (const warning of warnings) lines.push(`warning: ${warning}`);
			return lines;
		},

		/** Answers requests for the state on the bus. */
		subscribeToRequests(): void {
			try {
				pi.events.on(DELEGATION_STATE_CHANNEL, (data: unknown) => {
					const decoded = decodeEventPayload(DELEGATION_STATE_CHANNEL, data);
					if (!decoded.ok || decoded.value.kind !== "request" || view === undefined) return;
					publishedJson = undefined;
					publishedView = undefined;
					publish();
				});
			} catch {
				// No bus: nothing to answer.
			}
		},

		notify,
	};
}

/** The controller type. */
export type DelegationController = ReturnType<typeof createDelegationController>;
