// Reads an extension's raw global and (trusted) project config layers from disk, bounded (see read-config-file).

import { join } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir } from "@earendil-works/pi-coding-agent";
import { type ConfigFileRead, MAX_CONFIG_FILE_BYTES, parseJsonText } from "../config.js";
import { readConfigFile, readConfigFileSync } from "./read-config-file.js";

/** Config files larger than this are refused as unreadable rather than parsed. */
export const MAX_CONFIG_BYTES = MAX_CONFIG_FILE_BYTES;

/** A config name: the package folder name, for example `"exploration-guard"`. */
export const CONFIG_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/** Options for {@link loadPolicyConfig}. */
export interface LoadPolicyConfigOptions {
	/** The package folder name; the file is `policy/<name>.json`. */
	readonly name: string;
	/** The agent directory; defaults to Pi's `getAgentDir()` (which honours `PI_CODING_AGENT_DIR`). */
	readonly agentDir?: string;
	/** The project directory (`ctx.cwd`). */
	readonly cwd: string;
	/** Whether project-local config may be read: `ctx.isProjectTrusted()` or a function calling it. */
	readonly isProjectTrusted: boolean | (() => boolean);
}

/** The raw layers found on disk. A missing file leaves its layer `undefined` and adds no error. */
export interface PolicyConfigLayers {
	/** Parsed JSON of `<agentDir>/policy/<name>.json`, unvalidated. */
	readonly global?: unknown;
	/** Parsed JSON of `<cwd>/<CONFIG_DIR_NAME>/policy/<name>.json`, unvalidated; read only when trusted. */
	readonly project?: unknown;
	/** Whether the project layer was consulted. */
	readonly projectTrusted: boolean;
	/**
	 * Concise errors such as `"global config: invalid JSON"` or `"project config: unreadable"`. They name the
	 * layer only: never a path, never file content.
	 */
	readonly errors: readonly string[];
}

/** The two config file paths for `name`. For tests and diagnostics on the user's own terminal only. */
export function policyConfigPaths(options: { name: string; agentDir?: string; cwd: string }): {
	global: string;
	project: string;
} {
	const agentDir = options.agentDir ?? getAgentDir();
	return {
		global: join(agentDir, "policy", `${options.name}.json`),
		project: join(options.cwd, CONFIG_DIR_NAME, "policy", `${options.name}.json`),
	};
}

type Layer = "global" | "project";
type ReadOutcome = { kind: "missing" } | { kind: "text"; text: string } | { kind: "error"; error: string };

function fromRead(layer: Layer, read: ConfigFileRead): ReadOutcome {
	if (read.kind === "missing") return { kind: "missing" };
	if (read.kind === "text") return { kind: "text", text: read.text };
	return { kind: "error", error: `${layer} config: unreadable` };
}

function resolveTrust(isProjectTrusted: LoadPolicyConfigOptions["isProjectTrusted"], errors: string[]): boolean {
	try {
		return typeof isProjectTrusted === "function" ? isProjectTrusted() === true : isProjectTrusted === true;
	} catch {
		errors.push("project config: trust unknown");
		return false;
	}
}

function assemble(
	outcomes: Partial<Record<Layer, ReadOutcome>>,
	projectTrusted: boolean,
	errors: string[],
): PolicyConfigLayers {
	const layers: { global?: unknown; project?: unknown } = {};
	for (const layer of ["global", "project"] as const) {
		const outcome = outcomes[layer];
		if (outcome === undefined || outcome.kind === "missing") continue;
		if (outcome.kind === "error") {
			errors.push(outcome.error);
			continue;
		}
		const parsed = parseJsonText(outcome.text);
		if (parsed.ok) layers[layer] = parsed.value;
		else errors.push(`${layer} config: invalid JSON`);
	}
	return { ...layers, projectTrusted, errors };
}

/** What both loaders read, once the name is valid and the files are located. */
interface LoadPlan {
	readonly paths: { readonly global: string; readonly project: string };
	readonly trusted: boolean;
	readonly errors: string[];
}

/** Checks the name, locates both files and resolves trust: a plan to read, or the result when there is nothing to. */
function planLoad(options: LoadPolicyConfigOptions): { plan: LoadPlan } | { result: PolicyConfigLayers } {
	if (typeof options.name !== "string" || !CONFIG_NAME_PATTERN.test(options.name)) {
		return { result: { projectTrusted: false, errors: ["config: invalid name"] } };
	}
	let paths: LoadPlan["paths"];
	try {
		paths = policyConfigPaths(options);
	} catch {
		return { result: { projectTrusted: false, errors: ["config: location unknown"] } };
	}
	const errors: string[] = [];
	return { plan: { paths, trusted: resolveTrust(options.isProjectTrusted, errors), errors } };
}

/**
 * Reads `<agentDir>/policy/<name>.json` and, only when the project is trusted,
 * `<cwd>/<CONFIG_DIR_NAME>/policy/<name>.json`. Returns the parsed, unvalidated layers. Never throws.
 */
export async function loadPolicyConfig(options: LoadPolicyConfigOptions): Promise<PolicyConfigLayers> {
	const planned = planLoad(options);
	if ("result" in planned) return planned.result;
	const { paths, trusted, errors } = planned.plan;
	const read = async (layer: Layer, path: string): Promise<ReadOutcome> => fromRead(layer, await readConfigFile(path));
	const [global, project] = await Promise.all([
		read("global", paths.global),
		trusted ? read("project", paths.project) : Promise.resolve(undefined),
	]);
	return assemble({ global, ...(project === undefined ? {} : { project }) }, trusted, errors);
}

/** The synchronous form of {@link loadPolicyConfig}, for code paths that cannot await. Never throws. */
export function loadPolicyConfigSync(options: LoadPolicyConfigOptions): PolicyConfigLayers {
	const planned = planLoad(options);
	if ("result" in planned) return planned.result;
	const { paths, trusted, errors } = planned.plan;
	const read = (layer: Layer, path: string): ReadOutcome => fromRead(layer, readConfigFileSync(path));
	const outcomes: Partial<Record<Layer, ReadOutcome>> = { global: read("global", paths.global) };
	if (trusted) outcomes.project = read("project", paths.project);
	return assemble(outcomes, trusted, errors);
}
