// output-minimizer config: the TypeBox schema, defaults, and layer resolution (a trusted project replaces global).
import { type Static, Type } from "typebox";
import { mergeConfigLayers, parseWithSchema } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { OUTPUT_MINIMIZER_MODES, type OutputMinimizerMode } from "./vocabulary.js";

export { OUTPUT_MINIMIZER_MODES, type OutputMinimizerMode } from "./vocabulary.js";

/** The contract's hard limits. Config may lower the fallback bounds, never raise them. */
export const OUTPUT_MINIMIZER_LIMITS = Object.freeze({
	/** Most lines of a bounded fallback or `output: false` result. */
	maxFallbackLines: 80,
	/** Most UTF-8 bytes of a bounded fallback or `output: false` result. */
	maxFallbackBytes: 4096,
	/** Least `fallbackBytes` a config may set, so a fallback still shows something useful. */
	minFallbackBytes: 256,
	/** Most UTF-8 bytes of one child's receipt, not counting the output path. */
	maxReceiptBytesPerChild: 1024,
	/** Largest `minBytesToMinimize` a config may set. */
	maxMinBytesToMinimize: 1024 * 1024,
});

const NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$";
/** What {@link NAME_PATTERN} accepts, in a config error. */
const NAME_HINT = 'a name such as "subagent" (letters, digits, _ . : -, no spaces, at most 64 characters)';

/**
 * The schema of `policy/output-minimizer.json`. Every key is optional; omitted keys take
 * {@link OUTPUT_MINIMIZER_DEFAULTS}. Unknown keys are rejected.
 */
export const OutputMinimizerConfigSchema = Type.Object(
	{
		$schema: Type.Optional(Type.String({ maxLength: 2048, description: "Editor hint; ignored." })),
		mode: Type.Optional(
			Type.Enum([...OUTPUT_MINIMIZER_MODES], {
				description: '"reference" (default) keeps delegated output out of context; "off" disables the extension.',
			}),
		),
		tools: Type.Optional(
			Type.Array(Type.String({ pattern: NAME_PATTERN, formatHint: NAME_HINT }), {
				maxItems: 16,
				description: 'Delegation tools whose results are minimized. Default ["subagent"].',
			}),
		),
		notifyTypes: Type.Optional(
			Type.Array(Type.String({ pattern: NAME_PATTERN, formatHint: NAME_HINT }), {
				maxItems: 16,
				description:
					'Custom message types rewritten at message_end. Default ["subagent-notify", "subagent-incremental-child-notify"].',
			}),
		),
		fallbackLines: Type.Optional(
			Type.Integer({
				minimum: 1,
				maximum: OUTPUT_MINIMIZER_LIMITS.maxFallbackLines,
				description: "Most lines shown inline when output cannot be saved or output is false. Default 80.",
			}),
		),
		fallbackBytes: Type.Optional(
			Type.Integer({
				minimum: OUTPUT_MINIMIZER_LIMITS.minFallbackBytes,
				maximum: OUTPUT_MINIMIZER_LIMITS.maxFallbackBytes,
				description: "Most UTF-8 bytes shown inline when output cannot be saved or output is false. Default 4096.",
			}),
		),
		minBytesToMinimize: Type.Optional(
			Type.Integer({
				minimum: 0,
				maximum: OUTPUT_MINIMIZER_LIMITS.maxMinBytesToMinimize,
				description: "Delegated output smaller than this many UTF-8 bytes passes through unchanged. Default 512.",
			}),
		),
	},
	{ additionalProperties: false },
);

/** A config file's content as written (every key optional). */
export type OutputMinimizerConfigInput = Static<typeof OutputMinimizerConfigSchema>;

/** The effective config, with every default applied. */
export interface OutputMinimizerConfig {
	readonly mode: OutputMinimizerMode;
	readonly tools: readonly string[];
	readonly notifyTypes: readonly string[];
	readonly fallbackLines: number;
	readonly fallbackBytes: number;
	readonly minBytesToMinimize: number;
}

/** The defaults: installing the extension opts in to reference mode. */
export const OUTPUT_MINIMIZER_DEFAULTS: OutputMinimizerConfig = Object.freeze({
	mode: "reference",
	tools: Object.freeze(["subagent"]) as readonly string[],
	notifyTypes: Object.freeze(["subagent-notify", "subagent-incremental-child-notify"]) as readonly string[],
	fallbackLines: OUTPUT_MINIMIZER_LIMITS.maxFallbackLines,
	fallbackBytes: OUTPUT_MINIMIZER_LIMITS.maxFallbackBytes,
	minBytesToMinimize: 512,
});

/** Validates one config layer (parsed JSON). Errors name key paths only, never values. */
export function parseOutputMinimizerConfig(raw: unknown): Result<OutputMinimizerConfigInput> {
	return parseWithSchema(OutputMinimizerConfigSchema, raw);
}

/** Applies {@link OUTPUT_MINIMIZER_DEFAULTS} to a validated layer. */
export function withOutputMinimizerDefaults(input: OutputMinimizerConfigInput | undefined): OutputMinimizerConfig {
	const base = OUTPUT_MINIMIZER_DEFAULTS;
	return {
		mode: input?.mode ?? base.mode,
		tools: [...new Set(input?.tools ?? base.tools)],
		notifyTypes: [...new Set(input?.notifyTypes ?? base.notifyTypes)],
		fallbackLines: input?.fallbackLines ?? base.fallbackLines,
		fallbackBytes: input?.fallbackBytes ?? base.fallbackBytes,
		minBytesToMinimize: input?.minBytesToMinimize ?? base.minBytesToMinimize,
	};
}

/** The raw layers as `loadPolicyConfig` returns them. */
export interface OutputMinimizerConfigLayers {
	readonly global?: unknown;
	readonly project?: unknown;
	/** Load errors (unreadable file, invalid JSON); any error makes the config invalid. */
	readonly errors?: readonly string[];
}

/**
 * Resolves the effective config: each present layer is validated, then a present (trusted) project layer
 * replaces the global one, and defaults fill the rest. Any load or validation error makes the whole config
 * invalid, so the shell fails open (changes nothing) and reports it once. The error is prefixed with the
 * layer, for example `"project config: fallbackLines: expected integer between 1 and 80"`.
 */
export function resolveOutputMinimizerConfig(layers: OutputMinimizerConfigLayers): Result<OutputMinimizerConfig> {
	const errors = Array.isArray(layers?.errors) ? layers.errors.filter((e) => typeof e === "string") : [];
	if (errors.length > 0) return err(errors.slice(0, 2).join("; "));
	for (const layer of ["global", "project"] as const) {
		const raw = layers?.[layer];
		if (raw === undefined) continue;
		const parsed = parseOutputMinimizerConfig(raw);
		if (!parsed.ok) return err(`${layer} config: ${parsed.error}`);
	}
	const merged = mergeConfigLayers(layers?.global, layers?.project, { mode: "replace" });
	return ok(withOutputMinimizerDefaults(merged.value as OutputMinimizerConfigInput | undefined));
}
