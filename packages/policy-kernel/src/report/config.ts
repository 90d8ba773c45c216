// policy-report's config: the transcript entry renderer switch and the opt-in OpenTelemetry export.
import { type Static, Type } from "typebox";
import { isPlainObject, parseWithSchema } from "../config.js";
import { err, ok, type Result } from "../decision.js";

/** The package folder name: config file `policy/policy-report.json`. */
export const POLICY_REPORT_NAME = "policy-report";

/** The environment switch that turns the OpenTelemetry export on (`1` or `true`), as Claude Code's is. */
export const TELEMETRY_ENABLE_ENV = "PI_POLICY_ENABLE_TELEMETRY";

/** Bounds of `telemetry.exportIntervalMs` (the metrics export interval). */
export const EXPORT_INTERVAL_RANGE = Object.freeze({ min: 1000, max: 600_000, default: 60_000 });

/** The TypeBox schema of `policy/policy-report.json`. */
export const PolicyReportConfigSchema = Type.Object(
	{
		$schema: Type.Optional(Type.String({ maxLength: 2048 })),
		entryRenderer: Type.Optional(
			Type.Boolean({ description: "Show each pi-policy audit entry as one dim transcript line. Default false." }),
		),
		telemetry: Type.Optional(
			Type.Object(
				{
					enabled: Type.Optional(
						Type.Boolean({
							description: `Export audit events and counters over OTLP/HTTP. Default false; ${TELEMETRY_ENABLE_ENV}=1 also enables it.`,
						}),
					),
					exportIntervalMs: Type.Optional(
						Type.Integer({
							minimum: EXPORT_INTERVAL_RANGE.min,
							maximum: EXPORT_INTERVAL_RANGE.max,
							description: "Metrics export interval in milliseconds. Default 60000.",
						}),
					),
				},
				{ additionalProperties: false },
			),
		),
	},
	{ additionalProperties: false },
);

/** The raw config file shape. */
export type PolicyReportConfigFile = Static<typeof PolicyReportConfigSchema>;

/** The effective config, defaults filled in. */
export interface PolicyReportConfig {
	readonly entryRenderer: boolean;
	readonly telemetry: { readonly enabled: boolean; readonly exportIntervalMs: number };
}

/** The defaults: renderer off, telemetry off. */
export const DEFAULT_POLICY_REPORT_CONFIG: PolicyReportConfig = Object.freeze({
	entryRenderer: false,
	telemetry: Object.freeze({ enabled: false, exportIntervalMs: EXPORT_INTERVAL_RANGE.default }),
});

/** Validates one config value (a missing file is `undefined`, meaning defaults). Never throws. */
export function resolvePolicyReportConfig(raw: unknown): Result<PolicyReportConfig> {
	if (raw === undefined) return ok(DEFAULT_POLICY_REPORT_CONFIG);
	const parsed = parseWithSchema(PolicyReportConfigSchema, raw);
	if (!parsed.ok) return parsed;
	const file = parsed.value;
	return ok({
		entryRenderer: file.entryRenderer ?? false,
		telemetry: {
			enabled: file.telemetry?.enabled ?? false,
			exportIntervalMs: file.telemetry?.exportIntervalMs ?? EXPORT_INTERVAL_RANGE.default,
		},
	});
}

/**
 * Resolves the loaded layers: a trusted project file replaces the global one; a loader error in the layer that
 * would be used gives that error. Never throws.
 */
export function resolvePolicyReportLayers(layers: {
	readonly global?: unknown;
	readonly project?: unknown;
	readonly errors?: readonly string[];
}): Result<PolicyReportConfig> {
	if (!isPlainObject(layers)) return err("config: invalid");
	const errors = Array.isArray(layers.errors) ? layers.errors.filter((e): e is string => typeof e === "string") : [];
	const projectError = errors.find((e) => e.startsWith("project config"));
	if (projectError !== undefined) return err(projectError);
	if (layers.project !== undefined) return resolvePolicyReportConfig(layers.project);
	const otherError = errors[0];
	if (otherError !== undefined) return err(otherError);
	return resolvePolicyReportConfig(layers.global);
}

/**
 * Whether the OpenTelemetry export is on: the config says `telemetry.enabled: true`, or the environment sets
 * {@link TELEMETRY_ENABLE_ENV} to `1` or `true`. Nothing else (an endpoint variable alone) turns it on.
 */
export function isTelemetryEnabled(
	config: PolicyReportConfig,
	env: Readonly<Record<string, string | undefined>>,
): boolean {
	if (config.telemetry.enabled) return true;
	const value = typeof env === "object" && env !== null ? env[TELEMETRY_ENABLE_ENV] : undefined;
	return value === "1" || value === "true";
}
