// context-shunt JSON artifacts: a bounded structural outline for the receipt, and RFC 6901 JSON Pointer lookup.
import { isPlainObject } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { boundedSlice, utf8ByteLength } from "../text.js";
import { type ShuntError, shuntError } from "./codes.js";
import { JSON_POINTER_MAX_BYTES } from "./constants.js";

/** The outline of a JSON artifact is at most this many UTF-8 bytes. */
export const JSON_OUTLINE_MAX_BYTES = 900;
const OUTLINE_MAX_KEYS = 24;
const OUTLINE_KEY_CHARS = 48;

/** The parsed value of a JSON text (whitespace trimmed), or `undefined` when it is not JSON. Never throws. */
export function parseJsonText(text: string): { value: unknown } | undefined {
	if (typeof text !== "string") return undefined;
	const trimmed = text.trim();
	if (trimmed.length === 0 || !'{["-0123456789tfn'.includes(trimmed[0] ?? "")) return undefined;
	try {
		return { value: JSON.parse(trimmed) as unknown };
	} catch {
		return undefined;
	}
}

function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return `array(${value.length})`;
	if (isPlainObject(value)) return `object(${Object.keys(value).length} keys)`;
	return typeof value;
}

function keyLabel(key: string): string {
	const shown = key.length > OUTLINE_KEY_CHARS ? `${key.slice(0, OUTLINE_KEY_CHARS)}…` : key;
	return JSON.stringify(shown);
}

function shapeOf(value: unknown): string {
	if (Array.isArray(value)) {
		const first = value[0];
		return value.length === 0 ? "array(0)" : `array(${value.length}) of ${shallowShape(first)}`;
	}
	return shallowShape(value);
}

function shallowShape(value: unknown): string {
	if (!isPlainObject(value)) return typeName(value);
	const keys = Object.keys(value);
	const shown = keys.slice(0, 12).map((key) => `${keyLabel(key)}: ${typeName(value[key])}`);
	return `{ ${shown.join(", ")}${keys.length > 12 ? `, … ${keys.length - 12} more` : ""} }`;
}

/**
 * A bounded structural outline of a JSON value: its type; for an object, its top-level keys (at most 24, long keys
 * shortened) with each value's type, array lengths and the shape of one element; for an array, its length and the
 * shape of its first element. Key names are shown, values never are. At most {@link JSON_OUTLINE_MAX_BYTES}.
 */
export function outlineJson(value: unknown): string {
	const lines: string[] = [];
	if (isPlainObject(value)) {
		const keys = Object.keys(value);
		lines.push(`JSON object with ${keys.length} top-level keys:`);
		for (const key of keys.slice(0, OUTLINE_MAX_KEYS)) lines.push(`  ${keyLabel(key)}: ${shapeOf(value[key])}`);
		if (keys.length > OUTLINE_MAX_KEYS) lines.push(`  … ${keys.length - OUTLINE_MAX_KEYS} more keys`);
	} else if (Array.isArray(value)) {
		lines.push(`JSON ${shapeOf(value)}`);
	} else {
		lines.push(`JSON ${typeName(value)}`);
	}
	const text = `${lines.join("\n")}\n`;
	return utf8ByteLength(text) <= JSON_OUTLINE_MAX_BYTES
		? text
		: `${boundedSlice(text, { maxBytes: JSON_OUTLINE_MAX_BYTES - 4 }).text}…\n`;
}

/**
 * Resolves an RFC 6901 JSON Pointer (`""` is the whole document, `/a/0/b~1c` walks keys and array indexes, `~0` is
 * `~` and `~1` is `/`). A pointer that does not start with `/`, a bad escape, a non-canonical or out-of-range array
 * index, `-`, or a missing key is an `invalid-request` whose detail names the failing step number only. Never throws.
 */
export function resolveJsonPointer(document: unknown, pointer: string): Result<unknown, ShuntError> {
	if (typeof pointer !== "string" || utf8ByteLength(pointer) > JSON_POINTER_MAX_BYTES) {
		return err(shuntError("invalid-request", `jsonPointer: expected at most ${JSON_POINTER_MAX_BYTES} UTF-8 bytes`));
	}
	if (pointer === "") return ok(document);
	if (!pointer.startsWith("/"))
		return err(shuntError("invalid-request", 'jsonPointer: expected "" or to start with "/"'));
	let current = document;
	const tokens = pointer.slice(1).split("/");
	for (let step = 0; step < tokens.length; step++) {
		const raw = tokens[step] ?? "";
		if (/~(?![01])/.test(raw)) return err(shuntError("invalid-request", `jsonPointer: bad escape in step ${step + 1}`));
		const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
		if (Array.isArray(current)) {
			if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length) {
				return err(shuntError("invalid-request", `jsonPointer: step ${step + 1} is not an index of the array`));
			}
			current = current[Number(token)];
		} else if (isPlainObject(current) && Object.hasOwn(current, token)) {
			current = current[token];
		} else {
			return err(shuntError("invalid-request", `jsonPointer: step ${step + 1} names nothing`));
		}
	}
	return ok(current);
}
