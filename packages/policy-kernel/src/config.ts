// Config helpers: JSON text parsing, TypeBox validation into concise errors, range checks, and layer merging.
import type { Static, TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { Value } from "typebox/value";
import { err, ok, type Result } from "./decision.js";
import { isRecord } from "./json.js";

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
 * order. Messages follow the rules of {@link parseWithSchema}. Returns an empty list for a valid value. With
 * `nameUnknownKeys` (for config files the user wrote, never for payloads or audit entries), an unknown key that is a
 * plain identifier is quoted: `config: unknown key "foo"`.
 */
export function describeSchemaErrors(
	schema: TSchema,
	value: unknown,
	root = "config",
	options: { readonly nameUnknownKeys?: boolean } = {},
): string[] {
	return collectSchemaIssues(schema, value, root, options.nameUnknownKeys === true).map(
		(issue) => `${issue.label}: ${issue.message}`,
	);
}

interface SchemaIssue {
	readonly label: string;
	readonly message: string;
	readonly keyword: string;
}

/**
 * One issue per label (per unknown key when `nameUnknownKeys`), in TypeBox's error order. With
 * `nameUnknownKeys`, an unknown key whose name is a plain identifier is quoted in the message.
 */
function collectSchemaIssues(schema: TSchema, value: unknown, root: string, nameUnknownKeys: boolean): SchemaIssue[] {
	if (schemaAccepts(schema, value)) return [];
	const byLabel = new Map<string, SchemaIssue>();
	let errors: ReturnType<typeof Value.Errors>;
	try {
		errors = Value.Errors(schema, value);
	} catch {
		return [{ label: root, message: "invalid", keyword: "invalid" }];
	}
	for (const error of errors) {
		for (const [label, message] of formatValidationError(schema, value, error, root, nameUnknownKeys)) {
			const id = message.startsWith("unknown key ") ? `${label}\u0000${message}` : label;
			if (!byLabel.has(id)) byLabel.set(id, { label, message, keyword: error.keyword });
		}
	}
	return [...byLabel.values()];
}

/** One compiled validator per schema object: audit entries and bus payloads are checked on hot paths. */
const compiledValidators = new WeakMap<TSchema, Validator | null>();

/**
 * Whether `value` is valid for `schema`, by a validator compiled once per schema (about 30 times faster than
 * walking TypeBox's error iterator). Only the fast path: a `false`, or a schema TypeBox cannot compile, goes on to
 * the error walk, which decides and describes.
 */
function schemaAccepts(schema: TSchema, value: unknown): boolean {
	let validator = compiledValidators.get(schema);
	if (validator === undefined) {
		try {
			validator = Compile(schema);
		} catch {
			validator = null;
		}
		compiledValidators.set(schema, validator);
	}
	if (validator === null) return false;
	try {
		return validator.Check(value);
	} catch {
		return false;
	}
}

/** Key names shown in a config error: a plain identifier of at most 64 characters, else not named. */
const SHOWN_KEY_PATTERN = /^[A-Za-z_$][A-Za-z0-9_$.-]{0,63}$/;

function unknownKeyMessage(key: unknown, nameUnknownKeys: boolean): string {
	return nameUnknownKeys && typeof key === "string" && SHOWN_KEY_PATTERN.test(key)
		? `unknown key ${JSON.stringify(key)}`
		: "unknown key";
}

/**
 * The last of `segments` when it is an own key of the object the others lead to, else undefined: an error's
 * instance path does not escape a `/` inside a key, so a key such as `/home/me/x` is left unnamed.
 */
function ownKeyAt(value: unknown, segments: readonly string[]): string | undefined {
	let owner = value;
	for (const segment of segments.slice(0, -1)) {
		if (!isPlainObject(owner) || !Object.hasOwn(owner, segment)) return undefined;
		owner = owner[segment];
	}
	const key = segments.at(-1);
	return key !== undefined && isPlainObject(owner) && Object.hasOwn(owner, key) ? key : undefined;
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
	nameUnknownKeys = false,
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
		case "additionalProperties": {
			const keys = nameUnknownKeys && Array.isArray(params.additionalProperties) ? params.additionalProperties : [];
			if (keys.length === 0) return [[label(), "unknown key"]];
			return keys.map((key) => [label(), unknownKeyMessage(key, true)]);
		}
		case "boolean":
			if (lastKeyword === "additionalProperties") {
				// One error per unknown key, named by its instance path: TypeBox stops after 8 errors, so with 8 unknown
				// keys or more the parent's additionalProperties error (with its key list) never comes.
				const owner = label().replace(/\.?\*$/, "") || root;
				return [[owner, unknownKeyMessage(ownKeyAt(value, instanceSegments), nameUnknownKeys)]];
			}
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

/**
 * The schema key that says, in words, what a `pattern` accepts: `Type.String({ pattern, formatHint: '"provider/id"' })`
 * makes a mismatch read `expected string: "provider/id"` instead of `… in the required format`. It is
 * written by the schema's author (never input), cut at {@link MAX_FORMAT_HINT_CHARS} characters, and a `;` in it
 * (the separator of joined issues) becomes `,`.
 */
export const FORMAT_HINT_KEY = "formatHint";

/** The longest {@link FORMAT_HINT_KEY} text an error message quotes. */
export const MAX_FORMAT_HINT_CHARS = 120;

function describeString(node: Record<string, unknown>): string {
	const minLength = finite(node.minLength);
	const maxLength = finite(node.maxLength);
	let text = minLength !== undefined && minLength > 0 && maxLength === undefined ? "non-empty string" : "string";
	if (maxLength !== undefined) {
		text +=
			minLength !== undefined ? ` of ${minLength} to ${maxLength} characters` : ` of at most ${maxLength} characters`;
	}
	const hint = node[FORMAT_HINT_KEY];
	// `;` separates issues in a joined message, so a hint cannot hold one.
	if (typeof hint === "string" && hint.length > 0)
		text += `: ${hint.slice(0, MAX_FORMAT_HINT_CHARS).replace(/;/g, ",")}`;
	else if (typeof node.pattern === "string" || typeof node.format === "string") text += " in the required format";
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

// ---------------------------------------------------------------------------------------------------------------
// The policy config lifecycle, pure part: JSON positions, `$schema`, per-file issues, the one project-layer rule
// and resolution of both files. The host part (bounded file reads, audit, notification) is createPolicyConfig in
// `@pi-policy/policy-kernel/host`.

/** Which config file a problem is in. Errors name the file this way, never by its path. */
export type ConfigFile = "global" | "project";

/** One problem in one config file: the key path (absent for the whole file) and a reason with no value in it. */
export interface ConfigIssue {
	readonly file: ConfigFile;
	/** A dotted key path built from schema keys, for example `"reviewer.timeoutMs"`; absent for the file itself. */
	readonly key?: string;
	/** For example `expected integer between 1 and 20`, `unknown key "foo"`, `invalid JSON at line 3, column 5`. */
	readonly reason: string;
}

/** The largest config file read, in bytes. One more byte is read to detect a larger file. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * The one reason given for a file that could not be read as config: missing permissions, a directory, a FIFO, a
 * device, or more than {@link MAX_CONFIG_FILE_BYTES}. The same bounded wording for all of them, at once.
 */
export const CONFIG_UNREADABLE_REASON = "unreadable (expected a regular file of at most 1 MiB)";

/** What the host loader found for one file. */
export type ConfigFileRead =
	| { readonly kind: "missing" }
	| { readonly kind: "unreadable" }
	| { readonly kind: "text"; readonly text: string };

/**
 * Formats an issue as `<file>[ <key>]: <reason>`, for example `project bash: expected one of "auto", "off"` or
 * `global: unknown key "foo"`. Contains no path and no config value.
 */
export function formatConfigIssue(issue: ConfigIssue): string {
	return `${issue.file}${issue.key === undefined || issue.key === "" ? "" : ` ${issue.key}`}: ${issue.reason}`;
}

/**
 * Formats issues for a notification or a status line: the first one, then `(+N more)` when there are others.
 * Returns `"config invalid"` for an empty list.
 */
export function formatConfigIssues(issues: readonly ConfigIssue[]): string {
	const first = issues[0];
	if (first === undefined) return "config invalid";
	return issues.length > 1 ? `${formatConfigIssue(first)} (+${issues.length - 1} more)` : formatConfigIssue(first);
}

/** A 1-based line and column (in UTF-16 code units, as editors count) of a position in a text. */
export interface TextPosition {
	readonly line: number;
	readonly column: number;
}

/** The 1-based line and column of UTF-16 `offset` in `text` (clamped to the text). Lines end at `\n`. */
export function textPositionAt(text: string, offset: number): TextPosition {
	const end = Math.max(0, Math.min(Math.floor(Number.isFinite(offset) ? offset : 0), text.length));
	let line = 1;
	let lineStart = 0;
	for (let index = text.indexOf("\n"); index !== -1 && index < end; index = text.indexOf("\n", index + 1)) {
		line++;
		lineStart = index + 1;
	}
	return { line, column: end - lineStart + 1 };
}

/**
 * Parses config JSON text. A leading byte-order mark is ignored. On failure the error is
 * `invalid JSON at line L, column C` (the position the parser stopped at; the end of the text for a truncated
 * file), never the text or the parser's own message.
 */
export function parseConfigJson(text: string): Result<unknown> {
	if (typeof text !== "string") return err("invalid JSON");
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	try {
		return ok(JSON.parse(body) as unknown);
	} catch {
		const { line, column } = textPositionAt(body, jsonErrorOffset(body));
		return err(`invalid JSON at line ${line}, column ${column}`);
	}
}

/**
 * The UTF-16 offset of the first JSON syntax error in `text` (`text.length` when the text ends too early), found
 * by a small scanner of the JSON grammar; the parser's own messages differ between engines and may quote the text.
 * Only called on text that `JSON.parse` rejected.
 */
export function jsonErrorOffset(text: string): number {
	let at = 0;
	const fail = (offset: number): never => {
		throw new JsonSyntaxOffset(offset);
	};
	const space = () => {
		while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
	};
	const literal = (word: string) => {
		for (let i = 0; i < word.length; i++, at++) if (text[at] !== word[i]) fail(at);
	};
	const string = () => {
		at++;
		while (at < text.length) {
			const code = text.charCodeAt(at);
			if (code === 0x22) {
				at++;
				return;
			}
			if (code < 0x20) fail(at);
			if (code === 0x5c) {
				const next = text[at + 1];
				if (next === "u") {
					if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail(at + 2);
					at += 6;
				} else if (next !== undefined && '"\\/bfnrt'.includes(next)) at += 2;
				else fail(at + 1);
			} else at++;
		}
		fail(text.length);
	};
	const number = () => {
		const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
		if (match === null || match[0] === "" || match[0] === "-") fail(at + (text[at] === "-" ? 1 : 0));
		at += (match as RegExpExecArray)[0].length;
	};
	const value = (depth: number): void => {
		if (depth > 512) fail(at);
		space();
		const c = text[at];
		if (c === undefined) fail(at);
		else if (c === "{") {
			at++;
			space();
			if (text[at] === "}") {
				at++;
				return;
			}
			for (;;) {
				space();
				if (text[at] !== '"') fail(at);
				string();
				space();
				if (text[at] !== ":") fail(at);
				at++;
				value(depth + 1);
				space();
				if (text[at] === ",") at++;
				else if (text[at] === "}") {
					at++;
					return;
				} else fail(at);
			}
		} else if (c === "[") {
			at++;
			space();
			if (text[at] === "]") {
				at++;
				return;
			}
			for (;;) {
				value(depth + 1);
				space();
				if (text[at] === ",") at++;
				else if (text[at] === "]") {
					at++;
					return;
				} else fail(at);
			}
		} else if (c === '"') string();
		else if (c === "t") literal("true");
		else if (c === "f") literal("false");
		else if (c === "n") literal("null");
		else number();
	};
	try {
		value(0);
		space();
		return Math.min(at, text.length);
	} catch (error) {
		return error instanceof JsonSyntaxOffset ? error.offset : text.length;
	}
}

class JsonSyntaxOffset {
	constructor(readonly offset: number) {}
}

/**
 * Removes a top-level `"$schema"` string (the editor hint every config file may carry) from a parsed layer. The
 * input is not mutated. A non-string `$schema` is left in place, so validation reports it.
 */
export function stripSchemaKey(layer: unknown): unknown {
	if (!isPlainObject(layer) || !Object.hasOwn(layer, "$schema") || typeof layer.$schema !== "string") return layer;
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(layer)) if (key !== "$schema") defineOwn(copy, key, layer[key]);
	return copy;
}

/** Options for {@link describeConfigIssues}. */
export interface DescribeConfigIssuesOptions {
	/** Skip `required` errors (a layer may leave a key to the other file; the merged value is checked later). */
	readonly ignoreRequired?: boolean;
}

/**
 * Validates one config layer against `schema` and returns one issue per offending key path in `file`. Unlike
 * {@link describeSchemaErrors}, an unknown key is named when it is a plain identifier (`unknown key "foo"`);
 * values are never echoed. An empty list means valid.
 */
export function describeConfigIssues(
	schema: TSchema,
	layer: unknown,
	file: ConfigFile,
	options: DescribeConfigIssuesOptions = {},
): ConfigIssue[] {
	const all = collectSchemaIssues(schema, layer, "", true);
	if (all.length === 0) {
		let valid = true;
		try {
			valid = Value.Check(schema, layer);
		} catch {
			valid = false;
		}
		return valid ? [] : [{ file, reason: "invalid value" }];
	}
	return all
		.filter((issue) => !(options.ignoreRequired === true && issue.keyword === "required"))
		.map((issue) =>
			issue.label === "" ? { file, reason: issue.message } : { file, key: issue.label, reason: issue.message },
		);
}

/**
 * Splits an error of a kernel resolver (`"key: reason"`, several joined by `"; "`, `"config: …"` for the whole
 * file) into issues, attributing each to the project file when that file sets the key, else to the global file
 * when present, else to the project file.
 */
export function issuesFromResolverError(
	error: string,
	layers: { readonly global?: unknown; readonly project?: unknown },
): ConfigIssue[] {
	const issues: ConfigIssue[] = [];
	for (const part of String(error).split("; ")) {
		const colon = part.indexOf(": ");
		const label = colon > 0 ? part.slice(0, colon) : "";
		const reason = colon > 0 ? part.slice(colon + 2) : part;
		const key = label === "" || label === "config" ? undefined : label;
		const inProject = layers.project !== undefined && (key === undefined || hasKeyPath(layers.project, key));
		const file: ConfigFile = inProject || layers.global === undefined ? "project" : "global";
		issues.push(key === undefined ? { file, reason } : { file, key, reason });
	}
	return issues;
}

function hasKeyPath(layer: unknown, key: string): boolean {
	let current: unknown = layer;
	for (const segment of key.split(".")) {
		if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return false;
		current = current[segment];
	}
	return true;
}

/**
 * How a trusted project file combines with the global file; the same rule for every extension:
 *
 * - the project file overrides the global one key by key (objects merge recursively, arrays and scalars replace);
 * - a key path with a `strengthen` rule is a security setting: the rule combines both values, so a project may
 *   only strengthen it (see {@link strengthenByOrder} and friends);
 * - a `locked` key path is a security setting a project may not set at all; its project value is ignored.
 *
 * `"none"`: the extension has no project file (it is never read).
 */
export type ProjectLayerRule =
	| "none"
	| {
			readonly strengthen?: Readonly<Record<string, StrengthenRule>>;
			readonly locked?: readonly string[];
	  };

/**
 * Applies a trusted project layer to a base layer (the global file, over the defaults when given) by the one
 * project-layer rule. Pure: the inputs are never mutated. `ignored` counts project values a rule or a lock refused.
 */
export function applyProjectLayer(
	base: unknown,
	project: unknown,
	rule: Exclude<ProjectLayerRule, "none">,
): MergeConfigResult {
	if (project === undefined) return { value: cloneJson(base), ignored: 0 };
	const counter = { ignored: 0 };
	const locked = new Set(rule.locked ?? []);
	const value = projectMerge("", base, project, rule.strengthen ?? {}, locked, counter);
	return { value, ignored: counter.ignored };
}

/**
 * Whether a strengthen rule's result keeps everything the project asked for: every entry of a list, every key of a
 * record with its value (recursively), or the value itself. A project entry or key the rule dropped, or a value it
 * replaced with the global one, was ignored; the global file's own entries and keys beside it were not (a project
 * `tools: { read: "outside-workspace" }` over a global file with other tools is kept whole).
 */
function keepsProjectValue(merged: unknown, requested: unknown): boolean {
	if (Array.isArray(requested)) {
		if (!Array.isArray(merged)) return false;
		const kept = new Set(merged.map((entry) => stableKey(entry)));
		return requested.every((entry) => kept.has(stableKey(entry)));
	}
	if (isPlainObject(requested)) {
		if (!isPlainObject(merged)) return false;
		return Object.keys(requested).every(
			(key) => Object.hasOwn(merged, key) && keepsProjectValue(merged[key], requested[key]),
		);
	}
	return jsonEqual(merged, requested);
}

function projectMerge(
	path: string,
	baseValue: unknown,
	projectValue: unknown,
	rules: Readonly<Record<string, StrengthenRule>>,
	locked: ReadonlySet<string>,
	counter: { ignored: number },
): unknown {
	if (projectValue === undefined) return cloneJson(baseValue);
	const rule = path !== "" && Object.hasOwn(rules, path) ? rules[path] : undefined;
	if (rule !== undefined) {
		const merged = rule(baseValue, projectValue);
		if (!keepsProjectValue(merged, projectValue)) counter.ignored++;
		return cloneJson(merged);
	}
	if (path !== "" && locked.has(path)) {
		if (!jsonEqual(baseValue, projectValue)) counter.ignored++;
		return cloneJson(baseValue);
	}
	if (isPlainObject(projectValue) && (baseValue === undefined || isPlainObject(baseValue))) {
		const result = (baseValue === undefined ? {} : cloneJson(baseValue)) as Record<string, unknown>;
		for (const key of Object.keys(projectValue)) {
			const childPath = path === "" ? key : `${path}.${key}`;
			const merged = projectMerge(
				childPath,
				baseValue === undefined ? undefined : ownValue(baseValue, key),
				projectValue[key],
				rules,
				locked,
				counter,
			);
			if (merged === undefined) delete result[key];
			else defineOwn(result, key, merged);
		}
		return result;
	}
	return cloneJson(projectValue);
}

/** What one extension tells the lifecycle about its config. */
export interface PolicyConfigSpec<T> {
	/**
	 * Validates each file (after `$schema` is stripped and {@link PolicyConfigSpec.normalizeLayer} applied).
	 * Required keys are checked after merging, so either file may hold them. Optional: without it only `resolve`
	 * validates.
	 */
	readonly schema?: TSchema;
	/** Maps a file's value before validation, for example `false` to `{ mode: "off" }`. */
	readonly normalizeLayer?: (layer: unknown) => unknown;
	/** The raw defaults under the global file, so a project's strengthen rules compare against effective values. */
	readonly defaults?: unknown;
	/** The project-layer rule: {@link ProjectLayerRule}. */
	readonly projectLayer: ProjectLayerRule;
	/**
	 * Turns the merged raw value (`undefined` when no file exists) into the effective config, applying defaults and
	 * checks across keys. Errors use `"key: reason"`, several joined with `"; "`. Never throws.
	 */
	readonly resolve: (merged: unknown) => Result<T>;
}

/** The outcome of {@link resolvePolicyConfig}. */
export type PolicyConfigResolution<T> =
	/** No config file exists: the defaults. */
	| { readonly status: "absent"; readonly config: T }
	/** Every present file is valid. `files` lists them; `ignored` counts project values the rule refused. */
	| {
			readonly status: "valid";
			readonly config: T;
			readonly files: readonly ConfigFile[];
			readonly ignored: number;
	  }
	/**
	 * Some file is invalid. `fallback` is the config of the valid files only (the defaults when none is), for an
	 * extension that fails closed; `undefined` when even that does not resolve.
	 */
	| { readonly status: "invalid"; readonly issues: readonly ConfigIssue[]; readonly fallback: T | undefined };

/**
 * Resolves an extension's effective config from what the loader read: each file is parsed (line and column for
 * invalid JSON), stripped of `$schema`, normalised and validated; then the project file is applied by the
 * project-layer rule and `resolve` gives the config. A `project` read is ignored when the rule is `"none"`.
 * Never throws.
 */
export function resolvePolicyConfig<T>(
	reads: { readonly global: ConfigFileRead; readonly project?: ConfigFileRead },
	spec: PolicyConfigSpec<T>,
): PolicyConfigResolution<T> {
	try {
		const issues: ConfigIssue[] = [];
		const layers: { global?: unknown; project?: unknown } = {};
		const files: ConfigFile[] = [];
		const entries: Array<[ConfigFile, ConfigFileRead | undefined]> = [["global", reads.global]];
		if (spec.projectLayer !== "none") entries.push(["project", reads.project]);
		for (const [file, read] of entries) {
			if (read === undefined || read.kind === "missing") continue;
			files.push(file);
			const layer = readLayer(file, read, spec);
			if (layer.ok) layers[file] = layer.value;
			else issues.push(...layer.error);
		}
		if (files.length === 0) {
			const config = spec.resolve(mergeLayers(undefined, undefined, spec).value);
			return config.ok
				? { status: "absent", config: config.value }
				: { status: "invalid", issues: issuesFromResolverError(config.error, {}), fallback: undefined };
		}
		if (issues.length > 0) {
			const fallback = spec.resolve(mergeLayers(layers.global, layers.project, spec).value);
			const defaults = fallback.ok ? fallback : spec.resolve(mergeLayers(undefined, undefined, spec).value);
			return { status: "invalid", issues, fallback: defaults.ok ? defaults.value : undefined };
		}
		const merged = mergeLayers(layers.global, layers.project, spec);
		const config = spec.resolve(merged.value);
		if (!config.ok) {
			const defaults = spec.resolve(mergeLayers(undefined, undefined, spec).value);
			return {
				status: "invalid",
				issues: issuesFromResolverError(config.error, layers),
				fallback: defaults.ok ? defaults.value : undefined,
			};
		}
		return { status: "valid", config: config.value, files, ignored: merged.ignored };
	} catch {
		return { status: "invalid", issues: [{ file: "global", reason: "invalid" }], fallback: undefined };
	}
}

function readLayer(
	file: ConfigFile,
	read: ConfigFileRead,
	spec: PolicyConfigSpec<unknown>,
): Result<unknown, ConfigIssue[]> {
	if (read.kind === "unreadable") return err([{ file, reason: CONFIG_UNREADABLE_REASON }]);
	if (read.kind !== "text") return err([{ file, reason: CONFIG_UNREADABLE_REASON }]);
	const parsed = parseConfigJson(read.text);
	if (!parsed.ok) return err([{ file, reason: parsed.error }]);
	let layer = stripSchemaKey(parsed.value);
	if (spec.normalizeLayer !== undefined) layer = spec.normalizeLayer(layer);
	if (spec.schema !== undefined) {
		const issues = describeConfigIssues(spec.schema, layer, file, { ignoreRequired: true });
		if (issues.length > 0) return err(issues.slice(0, 8));
	}
	return ok(layer);
}

function mergeLayers(globalLayer: unknown, projectLayer: unknown, spec: PolicyConfigSpec<unknown>): MergeConfigResult {
	const base =
		spec.defaults === undefined
			? cloneJson(globalLayer)
			: globalLayer === undefined
				? cloneJson(spec.defaults)
				: applyProjectLayer(spec.defaults, globalLayer, {}).value;
	if (spec.projectLayer === "none" || projectLayer === undefined) return { value: base, ignored: 0 };
	return applyProjectLayer(base, projectLayer, spec.projectLayer);
}
