// Config helpers: JSON text parsing, TypeBox validation into concise errors, range checks, and layer merging.
import type { Static, TSchema } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "./decision.js";

export type { Err, Ok, Result } from "./decision.js";
export { err, ok } from "./decision.js";

/** Bounds and key name for {@link validateIntegerInRange}. */
export interface IntegerRange {
	/** Smallest allowed value, inclusive. */
	readonly min: number;
	/** Largest allowed value, inclusive. */
	readonly max: number;
	/** The config key, used in the error message (for example `"warnAfter"`). */
	readonly name: string;
}

/**
 * Checks that `value` is an integer within `[min, max]`.
 *
 * The error names the key and the bounds, for example `"warnAfter: expected integer between 1 and 20"`,
 * and never echoes the value.
 */
export function validateIntegerInRange(value: unknown, range: IntegerRange): Result<number> {
	if (typeof value === "number" && Number.isInteger(value) && value >= range.min && value <= range.max) {
		return ok(value);
	}
	return err(`${range.name}: expected integer between ${range.min} and ${range.max}`);
}

/**
 * Checks that `value` is one of `allowed`. The error lists the allowed values (which come from code) and
 * never echoes the value.
 */
export function validateEnum<const T extends string>(value: unknown, allowed: readonly T[], name: string): Result<T> {
	if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return ok(value as T);
	return err(`${name}: expected one of ${formatList(allowed)}`);
}

/**
 * Parses JSON text. A leading byte-order mark is ignored. Any failure, including a non-string input, is
 * reported as `"invalid JSON"` without echoing the text or the parser's message.
 */
export function parseJsonText(text: unknown): Result<unknown> {
	if (typeof text !== "string") return err("invalid JSON");
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	try {
		return ok(JSON.parse(body) as unknown);
	} catch {
		return err("invalid JSON");
	}
}

/** Options for {@link parseWithSchema}. */
export interface ParseWithSchemaOptions {
	/** Label used for errors at the root of the value. Default `"config"`. */
	readonly root?: string;
	/** At most this many distinct messages are joined with `"; "`. Default 3. */
	readonly maxErrors?: number;
}

/**
 * Validates `raw` against a TypeBox schema and returns it typed, unchanged and not cloned.
 *
 * Errors are concise and name key paths built only from the schema's own keys, joined with dots
 * (`"reviewer.timeoutMs: expected integer between 5000 and 180000"`). Record keys and unknown keys from the
 * input appear as `*` or are not named at all (`"config: unknown key"`), and no value is ever echoed. An
 * object schema with `additionalProperties: false` rejects unknown keys.
 */
export function parseWithSchema<S extends TSchema>(
	schema: S,
	raw: unknown,
	options: ParseWithSchemaOptions = {},
): Result<Static<S>> {
	const root = options.root ?? "config";
	try {
		if (Value.Check(schema, raw)) return ok(raw as Static<S>);
		const messages = describeSchemaErrors(schema, raw, root);
		const limit = Math.max(1, Math.floor(options.maxErrors ?? 3));
		return err(messages.length > 0 ? messages.slice(0, limit).join("; ") : `${root}: invalid`);
	} catch {
		return err(`${root}: invalid`);
	}
}

/**
 * Returns one concise message per offending key path for `value` against `schema`, in TypeBox's error
 * order. Messages follow the rules of {@link parseWithSchema}. Returns an empty list for a valid value.
 */
export function describeSchemaErrors(schema: TSchema, value: unknown, root = "config"): string[] {
	const byLabel = new Map<string, string>();
	let errors: ReturnType<typeof Value.Errors>;
	try {
		errors = Value.Errors(schema, value);
	} catch {
		return [`${root}: invalid`];
	}
	for (const error of errors) {
		for (const [label, message] of formatValidationError(schema, value, error, root)) {
			if (!byLabel.has(label)) byLabel.set(label, `${label}: ${message}`);
		}
	}
	return [...byLabel.values()];
}

interface ValidationErrorLike {
	readonly keyword: string;
	readonly schemaPath: string;
	readonly instancePath: string;
	readonly params: object;
}

const BRANCH_KEYWORDS = new Set(["anyOf", "oneOf"]);

/** Maps one TypeBox error to `[label, message]` pairs; branch-internal union errors map to nothing. */
function formatValidationError(
	schema: TSchema,
	value: unknown,
	error: ValidationErrorLike,
	root: string,
): Array<[string, string]> {
	const schemaSegments = parsePointer(error.schemaPath);
	const instanceSegments = parsePointer(error.instancePath);
	if (schemaSegments === undefined || instanceSegments === undefined) return [[root, "invalid value"]];
	if (!branchErrorIsReportable(schema, schemaSegments)) return [];
	const walked = walkSchema(schema, schemaSegments, instanceSegments);
	if (walked === undefined) return [[root, "invalid value"]];
	const { node, labels, lastKeyword } = walked;
	const label = (extra: readonly string[] = []) => {
		const all = [...labels, ...extra];
		return all.length > 0 ? all.join(".") : root;
	};
	const params = error.params as Record<string, unknown>;
	switch (error.keyword) {
		case "required": {
			const keys = Array.isArray(params.requiredProperties) ? params.requiredProperties : [];
			return keys.filter((key): key is string => typeof key === "string").map((key) => [label([key]), "required"]);
		}
		case "additionalProperties":
			return [[label(), "unknown key"]];
		case "boolean":
			if (lastKeyword === "additionalProperties") return [[label().replace(/\.?\*$/, "") || root, "unknown key"]];
			return [[label(), "not allowed"]];
		case "propertyNames":
			return [[label(), "invalid key"]];
		case "maxProperties":
			return [[label(), `expected at most ${numberParam(params.limit)} keys`]];
		case "minProperties":
			return [[label(), `expected at least ${numberParam(params.limit)} keys`]];
		case "maxItems":
			return [[label(), `expected at most ${numberParam(params.limit)} items`]];
		case "minItems":
			return [[label(), `expected at least ${numberParam(params.limit)} items`]];
		case "uniqueItems":
			return [[label(), "expected unique items"]];
		case "contains":
			return [[label(), "expected a required item"]];
		case "not":
			return [[label(), "not allowed"]];
		case "anyOf":
		case "oneOf": {
			const actual = valueAt(value, instanceSegments);
			if (explainedByNullableBranch(node, actual)) return [];
			if (isRecord(actual) && allBranchesAreObjects(node))
				return [[label(), "expected one of the allowed object shapes"]];
			return [[label(), `expected ${describeSchema(node)}`]];
		}
		case "type":
		case "const":
		case "enum":
		case "minimum":
		case "maximum":
		case "exclusiveMinimum":
		case "exclusiveMaximum":
		case "multipleOf":
		case "minLength":
		case "maxLength":
		case "pattern":
		case "format":
			return [[label(), `expected ${describeSchema(node)}`]];
		default:
			return [[label(), "invalid value"]];
	}
}

/** True when `node` is a nullable union whose non-null branch has the same JSON type as `value`. */
function explainedByNullableBranch(node: unknown, value: unknown): boolean {
	if (!isRecord(node) || !Array.isArray(node.anyOf) || node.anyOf.length !== 2 || value === null) return false;
	const other = node.anyOf.find((branch) => !(isRecord(branch) && branch.type === "null"));
	if (!isRecord(other) || node.anyOf.every((branch) => !(isRecord(branch) && branch.type === "null"))) return false;
	const type = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
	return other.type === type || (type === "number" && other.type === "integer");
}

function allBranchesAreObjects(node: unknown): boolean {
	const branches = isRecord(node) ? (node.anyOf ?? node.oneOf) : undefined;
	return Array.isArray(branches) && branches.length > 0 && branches.every((b) => isRecord(b) && b.type === "object");
}

/** The value at an instance pointer, or `undefined` when the path does not exist. */
function valueAt(root: unknown, segments: readonly string[]): unknown {
	let current: unknown = root;
	for (const segment of segments) {
		if (Array.isArray(current) && /^\d{1,9}$/.test(segment)) current = current[Number(segment)];
		else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
		else return undefined;
	}
	return current;
}

/**
 * Errors inside a union branch are dropped in favour of the union's own error, except inside the non-null
 * branch of a nullable union (`T | null`), where they say more than "expected object or null".
 */
function branchErrorIsReportable(schema: unknown, schemaSegments: readonly string[]): boolean {
	let node: unknown = schema;
	for (let i = 0; i < schemaSegments.length; i++) {
		const segment = schemaSegments[i] as string;
		if (!isRecord(node)) return true;
		if (BRANCH_KEYWORDS.has(segment) && i < schemaSegments.length - 1) {
			const branches = node[segment];
			const index = Number(schemaSegments[i + 1]);
			if (!Array.isArray(branches) || branches.length !== 2) return false;
			const nullIndex = branches.findIndex((branch) => isRecord(branch) && branch.type === "null");
			if (nullIndex < 0 || nullIndex === index) return false;
			node = branches[index];
			i++;
			continue;
		}
		node = node[segment];
	}
	return true;
}

interface WalkedSchema {
	readonly node: unknown;
	readonly labels: readonly string[];
	readonly lastKeyword: string | undefined;
}

/**
 * Follows a schema pointer from the root and builds the label from schema keys only. Record and
 * additional-property keys become `*`; array positions keep their numeric index.
 */
function walkSchema(
	schema: unknown,
	schemaSegments: readonly string[],
	instanceSegments: readonly string[],
): WalkedSchema | undefined {
	let node: unknown = schema;
	const labels: string[] = [];
	let instanceIndex = 0;
	let lastKeyword: string | undefined;
	for (let i = 0; i < schemaSegments.length; i++) {
		const segment = schemaSegments[i] as string;
		lastKeyword = segment;
		if (!isRecord(node)) return undefined;
		switch (segment) {
			case "properties": {
				const key = schemaSegments[++i];
				const properties = node.properties;
				if (key === undefined || !isRecord(properties) || !Object.hasOwn(properties, key)) return undefined;
				labels.push(key);
				instanceIndex++;
				node = properties[key];
				break;
			}
			case "patternProperties": {
				const pattern = schemaSegments[++i];
				const patterns = node.patternProperties;
				if (pattern === undefined || !isRecord(patterns) || !Object.hasOwn(patterns, pattern)) return undefined;
				labels.push("*");
				instanceIndex++;
				node = patterns[pattern];
				break;
			}
			case "additionalProperties":
				labels.push("*");
				instanceIndex++;
				node = node.additionalProperties;
				break;
			case "items": {
				const index = instanceSegments[instanceIndex];
				labels.push(index !== undefined && /^\d{1,9}$/.test(index) ? index : "*");
				instanceIndex++;
				node = node.items;
				break;
			}
			case "prefixItems": {
				const index = schemaSegments[++i];
				const items = node.prefixItems;
				if (index === undefined || !/^\d{1,9}$/.test(index) || !Array.isArray(items)) return undefined;
				labels.push(index);
				instanceIndex++;
				node = items[Number(index)];
				break;
			}
			case "allOf":
			case "anyOf":
			case "oneOf": {
				const index = schemaSegments[++i];
				const branches = node[segment];
				if (index === undefined || !/^\d{1,9}$/.test(index) || !Array.isArray(branches)) return undefined;
				node = branches[Number(index)];
				break;
			}
			case "if":
			case "then":
			case "else":
			case "not":
				node = node[segment];
				break;
			default:
				return undefined;
		}
	}
	return { node, labels, lastKeyword };
}

/** Splits a JSON pointer (`"#/a/b"`, `"/a/b"` or `""`) into unescaped segments. */
function parsePointer(pointer: string): string[] | undefined {
	if (typeof pointer !== "string") return undefined;
	const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
	if (body === "") return [];
	if (!body.startsWith("/")) return undefined;
	return body
		.slice(1)
		.split("/")
		.map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** A short description of what a schema node accepts, built only from the schema. */
function describeSchema(node: unknown): string {
	if (!isRecord(node)) return "a valid value";
	if (Object.hasOwn(node, "const")) return formatLiteral(node.const);
	if (Array.isArray(node.enum)) return `one of ${formatList(node.enum)}`;
	const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
	if (branches !== undefined) {
		if (branches.length > 0 && branches.every((branch) => isRecord(branch) && Object.hasOwn(branch, "const"))) {
			return `one of ${formatList(branches.map((branch) => (branch as Record<string, unknown>).const))}`;
		}
		const parts = [...new Set(branches.map((branch) => describeSchema(branch)))];
		return parts.length > 0 ? parts.join(" or ") : "a valid value";
	}
	const type = node.type;
	if (Array.isArray(type)) return type.filter((entry) => typeof entry === "string").join(" or ") || "a valid value";
	switch (type) {
		case "integer":
		case "number":
			return describeNumber(type, node);
		case "string":
			return describeString(node);
		case "array":
			return describeArray(node);
		case "boolean":
		case "null":
		case "object":
			return type;
		default:
			if (isRecord(node.not) && Object.keys(node.not).length === 0) return "nothing";
			return "a valid value";
	}
}

function describeNumber(kind: string, node: Record<string, unknown>): string {
	let type = kind;
	const min = finite(node.minimum);
	const max = finite(node.maximum);
	const exclusiveMin = finite(node.exclusiveMinimum);
	const exclusiveMax = finite(node.exclusiveMaximum);
	const upper = max !== undefined && max < Number.MAX_SAFE_INTEGER ? max : undefined;
	if (type === "integer" && max === Number.MAX_SAFE_INTEGER) type = "safe integer";
	if (min !== undefined && upper !== undefined) return `${type} between ${min} and ${upper}`;
	const bounds: string[] = [];
	if (min !== undefined) bounds.push(`>= ${min}`);
	if (exclusiveMin !== undefined) bounds.push(`> ${exclusiveMin}`);
	if (upper !== undefined) bounds.push(`<= ${upper}`);
	if (exclusiveMax !== undefined) bounds.push(`< ${exclusiveMax}`);
	return bounds.length > 0 ? `${type} ${bounds.join(" and ")}` : type;
}

function describeString(node: Record<string, unknown>): string {
	const minLength = finite(node.minLength);
	const maxLength = finite(node.maxLength);
	let text = minLength !== undefined && minLength > 0 && maxLength === undefined ? "non-empty string" : "string";
	if (maxLength !== undefined) {
		text +=
			minLength !== undefined ? ` of ${minLength} to ${maxLength} characters` : ` of at most ${maxLength} characters`;
	}
	if (typeof node.pattern === "string" || typeof node.format === "string") text += " in the required format";
	return text;
}

function describeArray(node: Record<string, unknown>): string {
	const minItems = finite(node.minItems);
	const maxItems = finite(node.maxItems);
	let text = "array";
	if (minItems !== undefined && maxItems !== undefined) text += ` of ${minItems} to ${maxItems} items`;
	else if (maxItems !== undefined) text += ` of at most ${maxItems} items`;
	else if (minItems !== undefined) text += ` of at least ${minItems} items`;
	return text;
}

function finite(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function numberParam(value: unknown): string {
	return typeof value === "number" && Number.isFinite(value) ? String(value) : "the allowed number of";
}

/** Formats a literal taken from a schema or from code (never from input). */
function formatLiteral(value: unknown): string {
	if (typeof value === "string") return JSON.stringify(value);
	if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
	return "a fixed value";
}

function formatList(values: readonly unknown[]): string {
	const shown = values.slice(0, 24).map(formatLiteral);
	return values.length > shown.length ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
	const proto = Object.getPrototypeOf(value) as unknown;
	return proto === Object.prototype || proto === null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Layer merging

/**
 * Combines the global and the project value of one key in `strengthen-only` mode and returns the merged
 * value. Either side may be `undefined` (absent) or of an unexpected type.
 */
export type StrengthenRule = (globalValue: unknown, projectValue: unknown) => unknown;

/** How {@link mergeConfigLayers} combines a project layer with the global one. */
export type MergeMode = "replace" | "override" | "strengthen-only";

/** Options for {@link mergeConfigLayers}. */
export interface MergeConfigOptions {
	/**
	 * - `replace`: a present project layer replaces the global one entirely.
	 * - `override`: plain objects merge key by key, recursively; any other project value (array, scalar)
	 *   replaces the global one.
	 * - `strengthen-only`: the project may only strengthen. A key path with a rule is combined by that rule;
	 *   plain objects without a rule merge key by key; any other project value without a rule is ignored.
	 */
	readonly mode: MergeMode;
	/**
	 * `strengthen-only` rules keyed by dotted key path, for example `"mode"` or `"reviewer.timeoutMs"`. A rule
	 * for an object path receives both whole objects. See {@link strengthenByOrder} and friends.
	 */
	readonly rules?: Readonly<Record<string, StrengthenRule>>;
}

/** The outcome of {@link mergeConfigLayers}. */
export interface MergeConfigResult {
	/** The merged raw value, to validate with the extension's schema. `undefined` when both layers are absent. */
	readonly value: unknown;
	/** How many project values `strengthen-only` ignored because no rule allowed them (0 in other modes). */
	readonly ignored: number;
}

/**
 * Merges a global and a project config layer (raw JSON values) into one raw value. Pure: the inputs are
 * never mutated, and the result shares no objects with them.
 *
 * Validate each layer before merging so that an invalid project value is reported rather than silently
 * ignored. In `strengthen-only` mode, pass the global layer with defaults applied, so that a project cannot
 * weaken a default the global file left implicit.
 */
export function mergeConfigLayers(
	globalLayer: unknown,
	projectLayer: unknown,
	options: MergeConfigOptions,
): MergeConfigResult {
	if (projectLayer === undefined) return { value: cloneJson(globalLayer), ignored: 0 };
	switch (options.mode) {
		case "replace":
			return { value: cloneJson(projectLayer), ignored: 0 };
		case "override":
			return { value: overrideMerge(globalLayer, projectLayer), ignored: 0 };
		case "strengthen-only": {
			const counter = { ignored: 0 };
			const value = strengthenMerge("", globalLayer, projectLayer, options.rules ?? {}, counter);
			return { value, ignored: counter.ignored };
		}
		default:
			return { value: cloneJson(globalLayer), ignored: 0 };
	}
}

function overrideMerge(globalValue: unknown, projectValue: unknown): unknown {
	if (projectValue === undefined) return cloneJson(globalValue);
	if (!isPlainObject(globalValue) || !isPlainObject(projectValue)) return cloneJson(projectValue);
	const result = cloneJson(globalValue) as Record<string, unknown>;
	for (const key of Object.keys(projectValue)) {
		defineOwn(result, key, overrideMerge(ownValue(globalValue, key), projectValue[key]));
	}
	return result;
}

function strengthenMerge(
	path: string,
	globalValue: unknown,
	projectValue: unknown,
	rules: Readonly<Record<string, StrengthenRule>>,
	counter: { ignored: number },
): unknown {
	const rule = Object.hasOwn(rules, path) ? rules[path] : undefined;
	if (rule !== undefined) return cloneJson(rule(globalValue, projectValue));
	if (projectValue === undefined) return cloneJson(globalValue);
	if (isPlainObject(projectValue) && (globalValue === undefined || isPlainObject(globalValue))) {
		const result = (globalValue === undefined ? {} : cloneJson(globalValue)) as Record<string, unknown>;
		for (const key of Object.keys(projectValue)) {
			const childPath = path === "" ? key : `${path}.${key}`;
			const merged = strengthenMerge(
				childPath,
				globalValue === undefined ? undefined : ownValue(globalValue, key),
				projectValue[key],
				rules,
				counter,
			);
			if (merged === undefined) delete result[key];
			else defineOwn(result, key, merged);
		}
		return result;
	}
	if (!jsonEqual(globalValue, projectValue)) counter.ignored++;
	return cloneJson(globalValue);
}

/**
 * A `strengthen-only` rule for ordered enums: later entries of `order` are stronger, and the stronger of
 * the two values wins. A value outside `order` is not comparable: when only one side is comparable it
 * wins, and when neither is the global value is kept.
 */
export function strengthenByOrder(order: readonly unknown[]): StrengthenRule {
	return (globalValue, projectValue) => {
		const g = order.indexOf(globalValue);
		const p = order.indexOf(projectValue);
		if (p < 0) return globalValue;
		if (g < 0) return projectValue;
		return p > g ? projectValue : globalValue;
	};
}

/**
 * A `strengthen-only` rule for numbers: `"lower"` keeps the smaller (for example a threshold), `"higher"`
 * the larger. Non-finite values are not comparable (see {@link strengthenByOrder}).
 */
export function strengthenNumber(stronger: "lower" | "higher"): StrengthenRule {
	return (globalValue, projectValue) => {
		const g = typeof globalValue === "number" && Number.isFinite(globalValue);
		const p = typeof projectValue === "number" && Number.isFinite(projectValue);
		if (!p) return globalValue;
		if (!g) return projectValue;
		const a = globalValue as number;
		const b = projectValue as number;
		return stronger === "lower" ? Math.min(a, b) : Math.max(a, b);
	};
}

/** A `strengthen-only` rule for booleans: `strong` wins whenever either side has it. */
export function strengthenFlag(strong: boolean): StrengthenRule {
	return (globalValue, projectValue) => {
		if (globalValue === strong || projectValue === strong) return strong;
		return typeof globalValue === "boolean" ? globalValue : projectValue;
	};
}

/**
 * A `strengthen-only` rule for lists where more entries are stronger (for example protected paths): the
 * global entries in order, then project entries not already present. A non-array side is not comparable.
 */
export function strengthenUnion(): StrengthenRule {
	return (globalValue, projectValue) => {
		if (!Array.isArray(projectValue)) return globalValue;
		if (!Array.isArray(globalValue)) return projectValue;
		const seen = new Set(globalValue.map((entry) => stableKey(entry)));
		const merged = [...globalValue];
		for (const entry of projectValue) {
			const key = stableKey(entry);
			if (!seen.has(key)) {
				seen.add(key);
				merged.push(entry);
			}
		}
		return merged;
	};
}

/**
 * A `strengthen-only` rule for records (for example a per-tool scope map): applies `rule` to every key of
 * either side, so a project may add keys or strengthen existing ones. A non-object side is not comparable.
 */
export function strengthenEach(rule: StrengthenRule): StrengthenRule {
	return (globalValue, projectValue) => {
		if (!isPlainObject(projectValue)) return globalValue;
		const base = isPlainObject(globalValue) ? globalValue : {};
		const result: Record<string, unknown> = {};
		for (const key of new Set([...Object.keys(base), ...Object.keys(projectValue)])) {
			const merged = rule(ownValue(base, key), ownValue(projectValue, key));
			if (merged !== undefined) defineOwn(result, key, merged);
		}
		return result;
	};
}

function ownValue(object: Record<string, unknown>, key: string): unknown {
	return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets an own enumerable property even for keys such as `__proto__`, never touching the prototype. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep-copies plain objects and arrays; other values are returned as they are. */
export function cloneJson<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry) => cloneJson(entry)) as T;
	if (isPlainObject(value)) {
		const copy: Record<string, unknown> = {};
		for (const key of Object.keys(value)) defineOwn(copy, key, cloneJson(value[key]));
		return copy as T;
	}
	return value;
}

function jsonEqual(a: unknown, b: unknown): boolean {
	return stableKey(a) === stableKey(b);
}

function stableKey(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((entry) => stableKey(entry)).join(",")}]`;
	if (isPlainObject(value)) {
		const keys = Object.keys(value).sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${stableKey(value[key])}`).join(",")}}`;
	}
	if (value === undefined) return "undefined";
	return typeof value === "number" || typeof value === "string" || typeof value === "boolean" || value === null
		? JSON.stringify(value)
		: `<${typeof value}>`;
}
