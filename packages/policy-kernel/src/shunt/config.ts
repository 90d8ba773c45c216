// context-shunt configuration: the TypeBox schema, defaults, layer merging and the resolved config.
import { type Static, Type } from "typebox";
import { isPlainObject, mergeConfigLayers, parseWithSchema } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { MODEL_ID_PATTERN, PROVIDER_ID_PATTERN, READER_ROLES, type ReaderRole } from "../events.js";
import {
	AGING_RULES,
	DEFAULT_PREVIEW_LINES,
	DEFAULT_PREVIEW_TAIL_LINES,
	DEFAULT_SHUNT_LIMITS,
	PREVIEW_LINES_MAX,
	READER_RULES,
	SHUNT_LIMIT_MAX,
	SHUNT_MODES,
	type ShuntMode,
	TOOL_ARTIFACT_RULES,
	TOOL_POLICIES,
	type ToolPolicy,
} from "./constants.js";

const limit = (description: string) => Type.Integer({ minimum: 1, maximum: SHUNT_LIMIT_MAX, description });

/** A reader model reference, `"provider/id"`. */
export const READER_MODEL_REF_PATTERN = `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,199}$`;

/** The reader settings. */
export const ContextShuntReaderConfigSchema = Type.Object(
	{
		enabled: Type.Optional(Type.Boolean({ description: "Offer context_shunt_delegate. Default false." })),
		model: Type.Optional(
			Type.String({
				pattern: READER_MODEL_REF_PATTERN,
				formatHint: '"provider/model-id", e.g. "anthropic/claude-haiku-4-5"',
				description: 'The reader model, "provider/id".',
			}),
		),
		role: Type.Optional(
			Type.Enum([...READER_ROLES], { description: "A delegation-policy role to resolve the reader model from." }),
		),
		answerMaxBytes: Type.Optional(
			Type.Integer({
				minimum: READER_RULES.answerMaxBytesMin,
				maximum: READER_RULES.answerMaxBytesMax,
				description: "Cap of the serialized reader result. Default 8192.",
			}),
		),
		timeoutMs: Type.Optional(
			Type.Integer({
				minimum: READER_RULES.timeoutMsMin,
				maximum: READER_RULES.timeoutMsMax,
				description: "Local time budget of one reader call. Default 120000.",
			}),
		),
	},
	{ additionalProperties: false },
);

/** A tool name or a glob over tool names (`*` matches any characters), as a key of `tools`. */
export const TOOL_KEY_PATTERN = "^[A-Za-z0-9_*.:-]{1,128}$";

/** Aging of old tool results. */
export const ContextShuntAgingConfigSchema = Type.Object(
	{
		mode: Type.Optional(Type.Enum(["off", "on"], { description: "Age old tool results into stubs. Default off." })),
		keepTurns: Type.Optional(
			Type.Integer({
				minimum: AGING_RULES.keepTurnsMin,
				maximum: AGING_RULES.keepTurnsMax,
				description: "Model turns whose tool results are never aged. Default 4.",
			}),
		),
		atBytes: Type.Optional(
			Type.Integer({
				minimum: AGING_RULES.atBytesMin,
				maximum: AGING_RULES.atBytesMax,
				description: "Age a batch when the request's tool-result text passes this many bytes. Default 200000.",
			}),
		),
		atContextShare: Type.Optional(
			Type.Number({
				minimum: AGING_RULES.atContextShareMin,
				maximum: AGING_RULES.atContextShareMax,
				description: "Age a batch when this share of the context window is in use. Default 0.5.",
			}),
		),
	},
	{ additionalProperties: false },
);

const toolBytes = (description: string) =>
	Type.Integer({ minimum: 1024, maximum: TOOL_ARTIFACT_RULES.bytesMax, description });

/** The context-shunt config file (`<agentDir>/policy/context-shunt.json`, or the trusted project file). */
export const ContextShuntConfigSchema = Type.Object(
	{
		enabled: Type.Optional(
			Type.Boolean({ description: "false: the extension registers nothing at all. Default true." }),
		),
		mode: Type.Optional(Type.Enum([...SHUNT_MODES], { description: "Starting mode. Default off." })),
		fullReadLines: Type.Optional(limit("Declared lines of a read without offset. Default 350.")),
		fullReadBytes: Type.Optional(limit("Returned bytes of a read without offset. Default 16384.")),
		targetedReadLines: Type.Optional(limit("Lines of a read with offset or any other result. Default 250.")),
		targetedReadBytes: Type.Optional(limit("Bytes of a read with offset or any other result. Default 16384.")),
		previewLines: Type.Optional(
			Type.Integer({ minimum: 0, maximum: PREVIEW_LINES_MAX, description: "Receipt preview lines. Default 10." }),
		),
		previewTailLines: Type.Optional(
			Type.Integer({
				minimum: 0,
				maximum: PREVIEW_LINES_MAX,
				description: "Receipt preview lines from the end of the output. Default 8.",
			}),
		),
		tools: Type.Optional(
			Type.Record(Type.String({ pattern: TOOL_KEY_PATTERN }), Type.Enum([...TOOL_POLICIES]), {
				maxProperties: 256,
				description:
					'Per-tool policy for tools other than the built-ins: "shunt" or "intact", keyed by name or glob ("mcp__*"). Unlisted tools stay intact.',
			}),
		),
		toolArtifactBytes: Type.Optional(toolBytes("One artifact of a configured tool. Default 1048576 (1 MiB).")),
		toolSessionBytes: Type.Optional(toolBytes("All live artifacts of configured tools. Default 8388608 (8 MiB).")),
		aging: Type.Optional(ContextShuntAgingConfigSchema),
		reader: Type.Optional(ContextShuntReaderConfigSchema),
	},
	{ additionalProperties: false },
);

/** The raw config, as validated. */
export type ContextShuntConfigInput = Static<typeof ContextShuntConfigSchema>;

/** The four limits. */
export interface ShuntLimits {
	readonly fullReadLines: number;
	readonly fullReadBytes: number;
	readonly targetedReadLines: number;
	readonly targetedReadBytes: number;
}

/** Where the reader model comes from. */
export type ReaderModelSource =
	| { readonly kind: "model"; readonly provider: string; readonly model: string }
	| { readonly kind: "role"; readonly role: ReaderRole }
	| { readonly kind: "none" };

/** The resolved config with every default applied. */
export interface ContextShuntConfig {
	readonly enabled: boolean;
	readonly mode: ShuntMode;
	readonly limits: ShuntLimits;
	readonly previewLines: number;
	readonly previewTailLines: number;
	/** Per-tool policies, in file order. */
	readonly tools: readonly (readonly [pattern: string, policy: ToolPolicy])[];
	readonly toolArtifactBytes: number;
	readonly toolSessionBytes: number;
	readonly aging: AgingSettings;
	readonly reader: {
		readonly enabled: boolean;
		readonly source: ReaderModelSource;
		readonly answerMaxBytes: number;
		readonly timeoutMs: number;
	};
}

/** Resolved aging settings. */
export interface AgingSettings {
	readonly enabled: boolean;
	readonly keepTurns: number;
	readonly atBytes: number;
	readonly atContextShare: number;
}

/** Aging defaults: off. */
export const DEFAULT_AGING_SETTINGS: AgingSettings = Object.freeze({
	enabled: false,
	keepTurns: AGING_RULES.keepTurnsDefault,
	atBytes: AGING_RULES.atBytesDefault,
	atContextShare: AGING_RULES.atContextShareDefault,
});

/** The defaults: enabled, mode off, the spec's limits, reader off. */
export const DEFAULT_CONTEXT_SHUNT_CONFIG: ContextShuntConfig = Object.freeze<ContextShuntConfig>({
	enabled: true,
	mode: "off",
	limits: { ...DEFAULT_SHUNT_LIMITS },
	previewLines: DEFAULT_PREVIEW_LINES,
	previewTailLines: DEFAULT_PREVIEW_TAIL_LINES,
	tools: [],
	toolArtifactBytes: TOOL_ARTIFACT_RULES.artifactBytesDefault,
	toolSessionBytes: TOOL_ARTIFACT_RULES.sessionBytesDefault,
	aging: DEFAULT_AGING_SETTINGS,
	reader: {
		enabled: false,
		source: { kind: "none" },
		answerMaxBytes: READER_RULES.answerMaxBytesDefault,
		timeoutMs: READER_RULES.timeoutMsDefault,
	},
});

/**
 * Splits `"provider/id"` at the first slash. Returns `undefined` for anything that does not match
 * {@link READER_MODEL_REF_PATTERN}.
 */
export function parseReaderModelRef(ref: unknown): { provider: string; model: string } | undefined {
	if (typeof ref !== "string" || !new RegExp(READER_MODEL_REF_PATTERN).test(ref)) return undefined;
	const at = ref.indexOf("/");
	const provider = ref.slice(0, at);
	const model = ref.slice(at + 1);
	if (!new RegExp(PROVIDER_ID_PATTERN).test(provider) || !new RegExp(MODEL_ID_PATTERN).test(model)) return undefined;
	return { provider, model };
}

/**
 * Validates one raw config layer and applies the defaults. A missing layer (`undefined`) gives the defaults.
 * Errors name keys and bounds only (`"fullReadLines: expected integer between 1 and 1048576"`,
 * `"reader: set model or role, not both"`). Never throws.
 */
export function resolveContextShuntConfig(raw: unknown): Result<ContextShuntConfig> {
	if (raw === undefined) return ok(DEFAULT_CONTEXT_SHUNT_CONFIG);
	const parsed = parseWithSchema(ContextShuntConfigSchema, raw);
	if (!parsed.ok) return parsed;
	const input = parsed.value;
	const reader = input.reader ?? {};
	if (reader.model !== undefined && reader.role !== undefined) return err("reader: set model or role, not both");
	let source: ReaderModelSource = { kind: "none" };
	if (reader.model !== undefined) {
		const ref = parseReaderModelRef(reader.model);
		if (ref === undefined) return err('reader.model: expected "provider/id"');
		source = { kind: "model", ...ref };
	} else if (reader.role !== undefined) source = { kind: "role", role: reader.role };
	const defaults = DEFAULT_CONTEXT_SHUNT_CONFIG;
	const aging = input.aging ?? {};
	const toolKey = new RegExp(TOOL_KEY_PATTERN);
	if (Object.keys(input.tools ?? {}).some((key) => !toolKey.test(key))) {
		return err("tools: expected keys that are tool names or globs (letters, digits, _ * . : -)");
	}
	const toolArtifactBytes = input.toolArtifactBytes ?? defaults.toolArtifactBytes;
	const toolSessionBytes = input.toolSessionBytes ?? defaults.toolSessionBytes;
	if (toolArtifactBytes > toolSessionBytes) return err("toolArtifactBytes: expected at most toolSessionBytes");
	return ok({
		enabled: input.enabled ?? true,
		mode: input.mode ?? defaults.mode,
		limits: {
			fullReadLines: input.fullReadLines ?? defaults.limits.fullReadLines,
			fullReadBytes: input.fullReadBytes ?? defaults.limits.fullReadBytes,
			targetedReadLines: input.targetedReadLines ?? defaults.limits.targetedReadLines,
			targetedReadBytes: input.targetedReadBytes ?? defaults.limits.targetedReadBytes,
		},
		previewLines: input.previewLines ?? defaults.previewLines,
		previewTailLines: input.previewTailLines ?? defaults.previewTailLines,
		tools: Object.entries(input.tools ?? {}) as Array<[string, ToolPolicy]>,
		toolArtifactBytes,
		toolSessionBytes,
		aging: {
			enabled: aging.mode === "on",
			keepTurns: aging.keepTurns ?? DEFAULT_AGING_SETTINGS.keepTurns,
			atBytes: aging.atBytes ?? DEFAULT_AGING_SETTINGS.atBytes,
			atContextShare: aging.atContextShare ?? DEFAULT_AGING_SETTINGS.atContextShare,
		},
		reader: {
			enabled: reader.enabled ?? false,
			source,
			answerMaxBytes: reader.answerMaxBytes ?? defaults.reader.answerMaxBytes,
			timeoutMs: reader.timeoutMs ?? defaults.reader.timeoutMs,
		},
	});
}

/**
 * Validates the global and the (trusted) project layer separately, then merges them: a project layer
 * overrides the global one key by key (objects such as `reader` merge deeply). Errors are prefixed with the
 * layer (`"project config: mode: expected one of …"`). Never throws.
 */
export function resolveContextShuntLayers(layers: { global?: unknown; project?: unknown }): Result<ContextShuntConfig> {
	for (const layer of ["global", "project"] as const) {
		const value = layers[layer];
		if (value === undefined) continue;
		const checked = resolveContextShuntConfig(value);
		if (!checked.ok) return err(`${layer} config: ${checked.error}`);
	}
	const merged = mergeConfigLayers(
		isPlainObject(layers.global) ? layers.global : undefined,
		isPlainObject(layers.project) ? layers.project : undefined,
		{ mode: "override" },
	);
	const resolved = resolveContextShuntConfig(merged.value);
	return resolved.ok ? resolved : err(`config: ${resolved.error}`);
}
