// exploration-guard config: the TypeBox schema, defaults, and resolution into a normalised config or one error.
import { type Static, Type } from "typebox";
import { isPlainObject, parseWithSchema, validateIntegerInRange } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import {
	EXPLORATION_BASH_MODES,
	EXPLORATION_GUARD_MODES,
	type ExplorationBashMode,
	type ExplorationGuardMode,
} from "./vocabulary.js";

export {
	EXPLORATION_BASH_MODES,
	EXPLORATION_GUARD_MODES,
	type ExplorationBashMode,
	type ExplorationGuardMode,
} from "./vocabulary.js";

/** Environment variables that mark a subagent child process by default (pi-subagents, and the fork it came from). */
export const DEFAULT_CHILD_ENV = ["PI_SUBAGENT_CHILD", "SELESAI_SUBAGENT_CHILD"] as const;

/** Bounds of the integer settings, from the spec. `blockAfter` also has to exceed `warnAfter`. */
export const EXPLORATION_GUARD_BOUNDS = {
	warnAfter: { min: 1, max: 20 },
	blockAfter: { min: 2, max: 50 },
	smallReadMaxLines: { min: 1, max: 1000 },
} as const;

/** A tool name: letters, digits, `_`, `-` and `.`, starting with a letter, at most 64 characters. */
export const TOOL_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_.-]{0,63}$";

/** An environment variable name: letters, digits and `_`, not starting with a digit, at most 64 characters. */
export const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]{0,63}$";

/**
 * The JSON schema of `policy/exploration-guard.json` (an object; the file may also hold `false`, meaning off).
 * `mode` is required so that a file with thresholds but no mode is reported rather than silently off.
 */
export const ExplorationGuardConfigSchema = Type.Object(
	{
		mode: Type.Enum([...EXPLORATION_GUARD_MODES], {
			description: "off (default when the file is missing), warn (nudge once), or block (nudge, then block)",
		}),
		warnAfter: Type.Optional(
			Type.Integer({
				minimum: EXPLORATION_GUARD_BOUNDS.warnAfter.min,
				maximum: EXPLORATION_GUARD_BOUNDS.warnAfter.max,
				description: "Broad operations before the one nudge. Default 2.",
			}),
		),
		blockAfter: Type.Optional(
			Type.Integer({
				minimum: EXPLORATION_GUARD_BOUNDS.blockAfter.min,
				maximum: EXPLORATION_GUARD_BOUNDS.blockAfter.max,
				description:
					"Broad operations allowed before isolated ones are blocked (block mode); above warnAfter. Default 4.",
			}),
		),
		smallReadMaxLines: Type.Optional(
			Type.Integer({
				minimum: EXPLORATION_GUARD_BOUNDS.smallReadMaxLines.min,
				maximum: EXPLORATION_GUARD_BOUNDS.smallReadMaxLines.max,
				description: "A read with a path and a limit at most this many lines is never counted. Default 400.",
			}),
		),
		delegationTool: Type.Optional(
			Type.String({
				pattern: TOOL_NAME_PATTERN,
				formatHint: 'a tool name such as "subagent" (a letter, then letters, digits, _ . -, at most 64 characters)',
				description: 'The delegation tool named in nudges and checked before blocking. Default "subagent".',
			}),
		),
		childEnv: Type.Optional(
			Type.Array(
				Type.String({
					pattern: ENV_NAME_PATTERN,
					formatHint: 'a variable name such as "PI_SUBAGENT_CHILD" (letters, digits and _, not starting with a digit)',
				}),
				{
					minItems: 1,
					maxItems: 16,
					uniqueItems: true,
					description: 'Variables that mark a child process when set to "1"; the guard then registers nothing.',
				},
			),
		),
		bash: Type.Optional(
			Type.Enum([...EXPLORATION_BASH_MODES], {
				description:
					'Count read-only exploration run through bash (rg, grep -r, find, ls -R, cat, sed -n ...): "auto" (default) ' +
					'when grep, find and ls are not all active tools, "count" always, "off" never.',
			}),
		),
		bashBlock: Type.Optional(
			Type.Boolean({
				description:
					"Block mode may also pause a pure bash exploration command. Default false: bash is counted, never blocked.",
			}),
		),
		nudgeAtContextShare: Type.Optional(
			Type.Number({
				exclusiveMinimum: 0,
				maximum: 1,
				description:
					"Opt-in: once the context window is more than this share full, the next broad operation nudges (once per session).",
			}),
		),
	},
	{ additionalProperties: false },
);

/** The raw config object as written in the file (before defaults). */
export type ExplorationGuardConfigInput = Static<typeof ExplorationGuardConfigSchema>;

/** A normalised exploration-guard config: every field present. */
export interface ExplorationGuardConfig {
	readonly mode: ExplorationGuardMode;
	readonly warnAfter: number;
	readonly blockAfter: number;
	readonly smallReadMaxLines: number;
	readonly delegationTool: string;
	readonly childEnv: readonly string[];
	/** Whether bash exploration counts: `auto` (when grep, find and ls are not all active), `count`, `off`. */
	readonly bash: ExplorationBashMode;
	/** Block mode may pause a pure bash exploration command (never any other bash command). */
	readonly bashBlock: boolean;
	/** Opt-in context-pressure share in (0, 1]; absent means no pressure trigger. */
	readonly nudgeAtContextShare?: number;
}

/** The defaults; `mode` is `off`, so a missing file leaves the guard inert. */
export const EXPLORATION_GUARD_DEFAULTS: ExplorationGuardConfig = Object.freeze({
	mode: "off",
	warnAfter: 2,
	blockAfter: 4,
	smallReadMaxLines: 400,
	delegationTool: "subagent",
	childEnv: Object.freeze([...DEFAULT_CHILD_ENV]),
	bash: "auto",
	bashBlock: false,
});

/**
 * Resolves the raw content of `policy/exploration-guard.json` into a normalised config.
 *
 * `undefined` (no file) and `false` give the defaults with `mode: "off"`. An object is validated against
 * {@link ExplorationGuardConfigSchema}, then `blockAfter` is checked against `warnAfter + 1 .. 50`. Any other
 * value, or any rule broken, gives one concise error that names keys and bounds only, for example
 * `"blockAfter: expected integer between 3 and 50"`. Never throws.
 */
export function resolveExplorationGuardConfig(raw: unknown): Result<ExplorationGuardConfig> {
	if (raw === undefined || raw === false) return ok(EXPLORATION_GUARD_DEFAULTS);
	if (!isPlainObject(raw)) return err("config: expected an object or false");
	const parsed = parseWithSchema(ExplorationGuardConfigSchema, raw);
	if (!parsed.ok) return parsed;
	const input = parsed.value;
	const warnAfter = input.warnAfter ?? EXPLORATION_GUARD_DEFAULTS.warnAfter;
	const blockAfter = input.blockAfter ?? EXPLORATION_GUARD_DEFAULTS.blockAfter;
	const ordered = validateIntegerInRange(blockAfter, {
		min: warnAfter + 1,
		max: EXPLORATION_GUARD_BOUNDS.blockAfter.max,
		name: "blockAfter",
	});
	if (!ordered.ok) return ordered;
	return ok(
		Object.freeze({
			mode: input.mode,
			warnAfter,
			blockAfter,
			smallReadMaxLines: input.smallReadMaxLines ?? EXPLORATION_GUARD_DEFAULTS.smallReadMaxLines,
			delegationTool: input.delegationTool ?? EXPLORATION_GUARD_DEFAULTS.delegationTool,
			childEnv: Object.freeze([...(input.childEnv ?? EXPLORATION_GUARD_DEFAULTS.childEnv)]),
			bash: input.bash ?? EXPLORATION_GUARD_DEFAULTS.bash,
			bashBlock: input.bashBlock ?? EXPLORATION_GUARD_DEFAULTS.bashBlock,
			...(input.nudgeAtContextShare === undefined ? {} : { nudgeAtContextShare: input.nudgeAtContextShare }),
		}),
	);
}

/** The raw config layers as the host loader returns them (`loadPolicyConfig` in `@pi-policy/policy-kernel/host`). */
export interface ExplorationGuardConfigLayers {
	readonly global?: unknown;
	readonly project?: unknown;
	/** Whether the project layer was consulted (the project is trusted). */
	readonly projectTrusted?: boolean;
	/** Loader errors, such as `"global config: invalid JSON"`; they name the layer only. */
	readonly errors?: readonly string[];
}

/**
 * Resolves the effective config from the global and the trusted project layer: a present project layer
 * replaces the global one (spec: "project replaces global"). A loader error in the layer that would be used
 * (the project's when it failed, else the global's) gives that error. Never throws.
 */
export function resolveExplorationGuardLayers(layers: ExplorationGuardConfigLayers): Result<ExplorationGuardConfig> {
	if (!isPlainObject(layers)) return err("config: invalid");
	const errors = Array.isArray(layers.errors) ? layers.errors.filter((e): e is string => typeof e === "string") : [];
	const projectError = errors.find((e) => e.startsWith("project config"));
	if (projectError !== undefined) return err(projectError);
	if (layers.project !== undefined) return resolveExplorationGuardConfig(layers.project);
	const otherError = errors[0];
	if (otherError !== undefined) return err(otherError);
	return resolveExplorationGuardConfig(layers.global);
}

/**
 * True when any of `names` is set to exactly `"1"` in `env`: the process hosts a subagent child, and the guard
 * must register nothing. Never throws.
 */
export function isChildEnvironment(
	env: Readonly<Record<string, string | undefined>>,
	names: readonly string[],
): boolean {
	if (typeof env !== "object" || env === null || !Array.isArray(names)) return false;
	for (const name of names) {
		if (typeof name !== "string") continue;
		try {
			if (env[name] === "1") return true;
		} catch {
			// An exotic env object: treat the variable as unset.
		}
	}
	return false;
}
