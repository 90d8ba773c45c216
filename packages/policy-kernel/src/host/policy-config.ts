// The one config lifecycle every shell uses: the startup gate, the session read, the project-layer rule, the
// `config-invalid` audit entry and the one notification. The decisions are pure (resolvePolicyConfig in
// ../config.ts); this file only reads files, writes the audit entry and notifies.
import { existsSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { AuditExt } from "../audit.js";
import {
	type ConfigFileRead,
	type ConfigIssue,
	formatConfigIssues,
	type PolicyConfigResolution,
	type PolicyConfigSpec,
	resolvePolicyConfig,
} from "../config.js";
import type { FailureDirection } from "../decision.js";
import { type AuditInput, createAuditWriter } from "./audit-writer.js";
import { CONFIG_NAME_PATTERN, policyConfigPaths } from "./load-config.js";
import { readConfigFile, readConfigFileSync } from "./read-config-file.js";

/**
 * Where an extension stands for the current session:
 * - `off-no-file`: no config file, and the defaults leave it off;
 * - `off`: the config turns it off;
 * - `active`: a valid config turns it on (or the defaults do);
 * - `disabled`: a config file is invalid and the extension fails open (does nothing this session);
 * - `failed-closed`: a config file is invalid and the extension fails closed, running with `config` (the valid
 *   files only, or the defaults) in its strictest form;
 * - `needs-reload`: the config turns it on, but its hooks were not registered when Pi started (the startup gate
 *   saw no reason to); `/reload` registers them.
 */
export type PolicyConfigState = "off-no-file" | "off" | "active" | "disabled" | "failed-closed" | "needs-reload";

/** The config outcome of one session. */
export interface PolicyConfigSession<T> {
	readonly state: PolicyConfigState;
	/** The config to run with: set for `active`, `off`, `off-no-file` and `failed-closed`; unset for `disabled`. */
	readonly config: T | undefined;
	/** The pure resolution behind the state. */
	readonly resolution: PolicyConfigResolution<T>;
	/** For an invalid config: `global bash: expected …` (the first issue, `(+N more)`). No path, no value. */
	readonly problem?: string;
}

/** The context the session read needs: any Pi handler or command context qualifies. */
export type PolicyConfigContext = Pick<ExtensionContext, "cwd" | "isProjectTrusted" | "hasUI"> & {
	readonly ui?: Partial<Pick<ExtensionContext["ui"], "notify">>;
};

/** Options for {@link createPolicyConfig}. */
export interface PolicyConfigOptions<T, E extends AuditExt> extends PolicyConfigSpec<T> {
	/** The package folder name: the file is `policy/<name>.json`, and audit entries carry it as `ext`. */
	readonly name: E;
	/** `open`: an invalid config disables the extension for the session. `closed`: it runs with `fallback`. */
	readonly failure: FailureDirection;
	/** Whether a config turns the extension on; decides the startup gate and the `off` states. */
	readonly enabled: (config: T) => boolean;
	/**
	 * Fields added to the `config-invalid` audit entry, for example `{ mode: "enforce" }`, or a function of the
	 * issues (enums only; the writer rejects anything else).
	 */
	readonly auditFields?:
		| Omit<AuditInput<E>, "event">
		| ((issues: readonly ConfigIssue[]) => Omit<AuditInput<E>, "event">);
	/** For `failure: "closed"`: what the notification says the extension does instead, e.g. `"enforcing"`. */
	readonly closedNote?: string;
	/** The agent directory. Default Pi's `getAgentDir()` (which honours `PI_CODING_AGENT_DIR`). */
	readonly agentDir?: string;
	/** The launch directory the startup gate looks for a project file in. Default `process.cwd()`. */
	readonly launchCwd?: string;
	/** Receives the notification when there is no UI, and audit-writer diagnostics. Default `console.error`. */
	readonly onDiagnostic?: (message: string) => void;
}

/** The lifecycle of one extension's config; see {@link createPolicyConfig}. */
export interface PolicyConfig<T> {
	readonly name: string;
	/**
	 * The startup gate, decided from the global file alone when the factory runs: whether to register the
	 * extension's hooks. True when the global config turns it on, when it is invalid and the extension fails
	 * closed, or when the launch directory holds a project file (which may turn it on once trusted). The command
	 * and `session_start` are registered whatever it says.
	 */
	readonly hooks: boolean;
	/** The outcome at startup (global file only), until the first {@link PolicyConfig.load}. */
	readonly startup: PolicyConfigSession<T>;
	/**
	 * Reads the global and, when the project is trusted, the project file (asynchronously, bounded), resolves
	 * them, and for an invalid config writes one `config-invalid` audit entry and one notification. Call it from
	 * `session_start`. Never throws.
	 */
	load(ctx: PolicyConfigContext): Promise<PolicyConfigSession<T>>;
	/** The latest session outcome (the startup one before the first load). */
	current(): PolicyConfigSession<T>;
	/**
	 * The status line when the extension is not live: `off (no config file)`, `off (set in the config file)`,
	 * `disabled: <file> <key>: <reason>`, `failed closed: <file> <key>: <reason>`, or the reload hint.
	 * `undefined` when it is active (the shell shows its live state).
	 */
	statusLine(): string | undefined;
	/**
	 * Why an action subcommand cannot run: `<name> <action>: unavailable, <status line>`; `undefined` when the
	 * extension is active (or failed closed, which still runs).
	 */
	unavailable(action: string): string | undefined;
}

const defaultDiagnostic = (message: string) => console.error(message);

/**
 * Creates an extension's config lifecycle. Call it once in the factory: it reads the global file synchronously
 * (bounded, non-blocking) to decide {@link PolicyConfig.hooks}. Never throws; an unexpected failure counts as an
 * invalid global file.
 */
export function createPolicyConfig<T, E extends AuditExt>(
	pi: Pick<ExtensionAPI, "appendEntry" | "events">,
	options: PolicyConfigOptions<T, E>,
): PolicyConfig<T> {
	const name = options.name;
	const diagnose = (message: string) => {
		try {
			(options.onDiagnostic ?? defaultDiagnostic)(message);
		} catch {
			// Diagnostics are best effort.
		}
	};
	const audit = createAuditWriter(pi, name, { onDiagnostic: diagnose });
	const paths = (cwd: string) =>
		policyConfigPaths({ name, cwd, ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }) });
	const validName = typeof name === "string" && CONFIG_NAME_PATTERN.test(name);

	const isEnabled = (config: T | undefined): boolean => {
		if (config === undefined) return false;
		try {
			return options.enabled(config) === true;
		} catch {
			return false;
		}
	};

	const sessionOf = (resolution: PolicyConfigResolution<T>, hooks: boolean): PolicyConfigSession<T> => {
		if (resolution.status === "invalid") {
			const problem = formatConfigIssues(resolution.issues);
			if (options.failure === "closed") {
				const state = hooks ? "failed-closed" : "needs-reload";
				return { state, config: resolution.fallback, resolution, problem };
			}
			return { state: "disabled", config: undefined, resolution, problem };
		}
		const config = resolution.config;
		if (!isEnabled(config))
			return { state: resolution.status === "absent" ? "off-no-file" : "off", config, resolution };
		return { state: hooks ? "active" : "needs-reload", config, resolution };
	};

	let startupResolution: PolicyConfigResolution<T>;
	let hooks: boolean;
	try {
		const globalRead: ConfigFileRead = validName
			? readConfigFileSync(paths(launchCwd()).global)
			: { kind: "unreadable" };
		startupResolution = resolvePolicyConfig({ global: globalRead }, options);
		const closedInvalid = startupResolution.status === "invalid" && options.failure === "closed";
		const globalOn = startupResolution.status !== "invalid" && isEnabled(startupResolution.config);
		hooks = globalOn || closedInvalid || (options.projectLayer !== "none" && projectFileMayExist());
	} catch {
		startupResolution = { status: "invalid", issues: [{ file: "global", reason: "invalid" }], fallback: undefined };
		hooks = options.failure === "closed";
	}
	const startup = sessionOf(startupResolution, hooks);
	let latest = startup;

	function launchCwd(): string {
		return options.launchCwd ?? process.cwd();
	}

	function projectFileMayExist(): boolean {
		try {
			return existsSync(paths(launchCwd()).project);
		} catch {
			return false;
		}
	}

	function notify(ctx: PolicyConfigContext, message: string): void {
		try {
			if (ctx.hasUI === true && typeof ctx.ui?.notify === "function") {
				ctx.ui.notify(message, "warning");
				return;
			}
		} catch {
			// Fall through to the local diagnostic.
		}
		diagnose(message);
	}

	function trusted(ctx: PolicyConfigContext): boolean {
		try {
			return ctx.isProjectTrusted() === true;
		} catch {
			return false;
		}
	}

	const statusLine = (): string | undefined => {
		switch (latest.state) {
			case "off-no-file":
				return "off (no config file)";
			case "off":
				return "off (set in the config file)";
			case "disabled":
				return `disabled: ${latest.problem ?? "config invalid"}`;
			case "failed-closed":
				return `failed closed: ${latest.problem ?? "config invalid"}`;
			case "needs-reload":
				return "inactive: the config turns it on, but Pi started without its hooks; run /reload";
			default:
				return undefined;
		}
	};

	return {
		name,
		hooks,
		startup,
		async load(ctx) {
			try {
				let reads: { global: ConfigFileRead; project?: ConfigFileRead } = { global: { kind: "unreadable" } };
				if (validName) {
					const located = paths(ctx.cwd);
					const readProject = options.projectLayer !== "none" && trusted(ctx);
					const [global, project] = await Promise.all([
						readConfigFile(located.global),
						readProject ? readConfigFile(located.project) : Promise.resolve(undefined),
					]);
					reads = project === undefined ? { global } : { global, project };
				}
				latest = sessionOf(resolvePolicyConfig(reads, options), hooks);
			} catch {
				const resolution: PolicyConfigResolution<T> = {
					status: "invalid",
					issues: [{ file: "global", reason: "invalid" }],
					fallback: undefined,
				};
				latest = sessionOf(resolution, hooks);
			}
			// A project value the one rule refused (a locked key, a weaker security setting) is ignored: say so once per
			// session start, as a count, so a project file that seems to do nothing is explained.
			if (latest.resolution.status === "valid" && latest.resolution.ignored > 0) {
				const count = latest.resolution.ignored;
				notify(
					ctx,
					`${name}: ignored ${count} project setting${count === 1 ? "" : "s"} that only the global file may set or weaken; the global values stand.`,
				);
			}
			if (latest.problem !== undefined) {
				const issues = latest.resolution.status === "invalid" ? latest.resolution.issues : [];
				let fields: Omit<AuditInput<E>, "event"> | undefined;
				try {
					fields = typeof options.auditFields === "function" ? options.auditFields(issues) : options.auditFields;
				} catch {
					fields = undefined;
				}
				audit.write({ ...(fields ?? {}), event: "config-invalid" } as AuditInput<E>);
				notify(
					ctx,
					options.failure === "closed"
						? `${name}: config invalid: ${latest.problem}; ${options.closedNote ?? "failing closed"}.`
						: `${name} disabled: ${latest.problem}`,
				);
			}
			return latest;
		},
		current: () => latest,
		statusLine,
		unavailable(action) {
			if (latest.state === "active" || latest.state === "failed-closed") return undefined;
			return `${name} ${action}: unavailable, ${statusLine() ?? "inactive"}`;
		},
	};
}
