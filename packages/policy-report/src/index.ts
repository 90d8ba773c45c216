// policy-report: one view of this session across the pi-policy suite (`/policy`), an optional transcript line per
// audit entry, and opt-in OpenTelemetry export of audit events. A thin shell over @pi-policy/policy-kernel/report.
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import { AUDIT_CHANNEL, AUDIT_ENTRY_TYPE, type AuditEntryV1, type AuditExt } from "@pi-policy/policy-kernel/audit";
import { decodeEventPayload } from "@pi-policy/policy-kernel/events";
import { createAuditWriter, createPolicyConfig } from "@pi-policy/policy-kernel/host";
import {
	buildSessionView,
	formatAuditEntryLine,
	formatSessionView,
	isTelemetryEnabled,
	POLICY_REPORT_NAME,
	type PolicyReportConfig,
	PolicyReportConfigSchema,
	resolvePolicyReportConfig,
} from "@pi-policy/policy-kernel/report";
import { hashSessionId } from "./session-hash.js";
import { startTelemetryExport, type TelemetryExport } from "./telemetry.js";
import { PolicyViewComponent } from "./view.js";

export { PolicyViewComponent } from "./view.js";

/** Audit events kept for telemetry while this extension's session_start is still deciding. */
export const MAX_EARLY_EVENTS = 256;

/** The command that shows the view. */
export const POLICY_COMMAND = "policy";

/** The usage line for unknown arguments (never echoes them). */
export const POLICY_USAGE = "Usage: /policy (the view) | /policy status (policy-report's own config state)";

/** Each suite extension's slash command: a registered command says the extension is loaded. */
export const SUITE_COMMANDS: Readonly<Record<string, AuditExt>> = Object.freeze({
	"exploration-guard": "exploration-guard",
	"output-minimizer": "output-minimizer",
	"context-shunt": "context-shunt",
	delegate: "delegation-policy",
	guardian: "guardian-review",
	policy: "policy-report",
});

/** Options of {@link registerPolicyReport}; the defaults are what Pi uses. */
export interface PolicyReportOptions {
	/** Environment read for the telemetry switch. Default `process.env`. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	readonly agentDir?: string;
	/** Local diagnostics (config errors, dropped telemetry batches). Default `console.error`. */
	readonly onDiagnostic?: (message: string) => void;
	/** Where `/policy` prints without a UI. Default `console.log`. */
	readonly print?: (text: string) => void;
	/** How long `session_shutdown` waits for the last telemetry batch. */
	readonly telemetryShutdownMs?: number;
}

/** What a registered policy-report exposes (tests, and other code in the same process). */
export interface PolicyReportHandle {
	/** The effective config of the current session, once `session_start` has run. */
	config(): PolicyReportConfig | undefined;
	/** Live audit events received on `pi-policy:audit`. */
	liveEvents(): number;
	/** Telemetry figures, when the export is on in this session. */
	telemetry(): { exported: number; dropped: number } | undefined;
}

/** Registers `/policy`, the bus listener and, when configured, the entry renderer and telemetry. */
export function registerPolicyReport(pi: ExtensionAPI, options: PolicyReportOptions = {}): PolicyReportHandle {
	const env = options.env ?? process.env;
	const diagnose = options.onDiagnostic ?? ((message: string) => console.error(message));
	const print = options.print ?? ((text: string) => console.log(text));
	const agentDir = options.agentDir;
	let config: PolicyReportConfig | undefined;
	let live = 0;
	let telemetry: TelemetryExport | undefined;
	let rendererRegistered = false;
	// Extensions loaded earlier write their first entries (e.g. `activated`) in their own session_start, before this
	// one has decided on telemetry: those wait here (bounded) and are exported once it starts.
	let early: AuditEntryV1[] | undefined = [];

	const safely = (what: string, run: () => void) => {
		try {
			run();
		} catch {
			try {
				diagnose(`policy-report: ${what} failed; nothing else changed`);
			} catch {
				// Diagnostics are best effort.
			}
		}
	};

	const registerRenderer = () => {
		if (rendererRegistered) return;
		rendererRegistered = true;
		pi.registerEntryRenderer(AUDIT_ENTRY_TYPE, (entry, renderOptions, theme) => {
			const line = formatAuditEntryLine(entry.data, renderOptions.expanded);
			if (line === undefined) return undefined;
			return new Text(theme.fg("dim", line), 0, 0);
		});
	};

	// One config lifecycle (policy-kernel/host): the global file decides at load time whether the renderer is
	// registered; a trusted project file may turn it on at session_start, but never telemetry (locked).
	const lifecycle = createPolicyConfig(pi, {
		name: POLICY_REPORT_NAME,
		failure: "open",
		schema: PolicyReportConfigSchema,
		projectLayer: { locked: ["telemetry"] },
		resolve: resolvePolicyReportConfig,
		enabled: () => true,
		onDiagnostic: diagnose,
		...(agentDir ? { agentDir } : {}),
	});
	const audit = createAuditWriter(pi, POLICY_REPORT_NAME, { onDiagnostic: diagnose });
	if (lifecycle.startup.config?.entryRenderer === true) safely("renderer", registerRenderer);

	safely("bus", () => {
		pi.events.on(AUDIT_CHANNEL, (payload: unknown) => {
			try {
				const decoded = decodeEventPayload(AUDIT_CHANNEL, payload);
				if (!decoded.ok) return;
				live++;
				if (telemetry) telemetry.record(decoded.value);
				else if (early !== undefined && early.length < MAX_EARLY_EVENTS) early.push(decoded.value);
			} catch {
				// A bad payload never reaches the sender.
			}
		});
	});

	pi.on("session_start", async (_event, ctx) => {
		const waiting = early ?? [];
		early = undefined;
		try {
			const session = await lifecycle.load(ctx);
			config = session.config;
			// An invalid file: the lifecycle wrote the audit entry and the one notification; only extras stay off.
			if (config === undefined) return;
			if (config.entryRenderer) registerRenderer();
			if (telemetry === undefined && isTelemetryEnabled(config, env)) {
				telemetry = startTelemetryExport({
					sessionHash: hashSessionId(ctx.sessionManager.getSessionId()),
					exportIntervalMs: config.telemetry.exportIntervalMs,
					env,
					...(env.OTEL_SERVICE_NAME ? { serviceName: env.OTEL_SERVICE_NAME } : {}),
					onDropped: (message) => diagnose(message),
				});
				for (const entry of waiting) telemetry.record(entry);
			}
		} catch {
			say(ctx, "policy-report: could not start; /policy still works, telemetry is off", "warning");
		}
	});

	pi.on("session_shutdown", async () => {
		const running = telemetry;
		telemetry = undefined;
		if (running) {
			try {
				await running.shutdown(options.telemetryShutdownMs);
				lastTelemetry = running.stats();
				if (lastTelemetry.dropped > 0) {
					audit.write({
						event: "telemetry-dropped",
						mode: "telemetry-on",
						counters: { batches: lastTelemetry.dropped },
					});
				}
			} catch {
				// Shutdown is bounded and best effort.
			}
		}
	});
	let lastTelemetry: { exported: number; dropped: number } | undefined;

	const say = (ctx: ExtensionContext, message: string, level: "info" | "warning") => {
		try {
			if (ctx.hasUI) {
				ctx.ui.notify(message, level);
				return;
			}
		} catch {
			// Fall through.
		}
		try {
			diagnose(message);
		} catch {
			// Diagnostics are best effort.
		}
	};

	const loadedExtensions = (): AuditExt[] => {
		const found = new Set<AuditExt>();
		try {
			for (const command of pi.getCommands()) {
				const ext = Object.hasOwn(SUITE_COMMANDS, command.name) ? SUITE_COMMANDS[command.name] : undefined;
				if (ext !== undefined && command.source === "extension") found.add(ext);
			}
		} catch {
			// Without the command list, entries alone say what is loaded.
		}
		return [...found];
	};

	const showView = async (ctx: ExtensionCommandContext) => {
		const stats = telemetry?.stats();
		const view = buildSessionView({
			entries: ctx.sessionManager.getBranch(),
			loaded: loadedExtensions(),
			liveEvents: live,
			...(stats ? { telemetry: stats } : {}),
		});
		if (!ctx.hasUI) {
			print(formatSessionView(view).join("\n"));
			return;
		}
		await ctx.ui.custom<void>((_tui, theme, _keybindings, done) => new PolicyViewComponent(view, theme, () => done()));
	};

	const statusText = (): string => {
		const line = lifecycle.statusLine();
		if (line !== undefined) return `policy-report: ${line}`;
		const renderer = config?.entryRenderer === true || rendererRegistered ? "on" : "off";
		return `policy-report: active (entry renderer ${renderer}, telemetry ${telemetry ? "on" : "off"})`;
	};

	pi.registerCommand(POLICY_COMMAND, {
		description: "One view of this session across every loaded pi-policy extension: /policy [status]",
		handler: async (args, ctx) => {
			try {
				const action = typeof args === "string" ? args.trim() : "";
				if (action === "") await showView(ctx);
				else if (action === "status") say(ctx, statusText(), "info");
				else say(ctx, POLICY_USAGE, "warning");
			} catch {
				say(ctx, "policy-report: /policy failed: internal error", "warning");
			}
		},
	});

	return {
		config: () => config,
		liveEvents: () => live,
		telemetry: () => telemetry?.stats() ?? lastTelemetry,
	};
}

/** The extension factory Pi loads. */
export default function policyReport(pi: ExtensionAPI): void {
	registerPolicyReport(pi);
}
