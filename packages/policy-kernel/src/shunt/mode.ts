// context-shunt modes: the user command, session-entry persistence of the mode, and what a mode change does.
import { Type } from "typebox";
import { isPlainObject } from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { EXCEPTION_RULES, EXCEPTION_TOKEN_PATTERN, isShuntMode, SHUNT_MODES, type ShuntMode } from "./constants.js";

/** The session entry that records a mode change: `pi.appendEntry("context-shunt.mode", { v: 1, mode })`. */
export const ShuntModeEntryV1Schema = Type.Object(
	{ v: Type.Literal(1), mode: Type.Enum([...SHUNT_MODES]) },
	{ additionalProperties: false },
);

/** A valid mode entry. */
export interface ShuntModeEntryV1 {
	readonly v: 1;
	readonly mode: ShuntMode;
}

/** Validates a mode entry's data: exactly `{ v: 1, mode }`. Never throws. */
export function validateModeEntry(data: unknown): Result<ShuntModeEntryV1> {
	if (!isPlainObject(data)) return err("mode entry: expected object");
	const keys = Object.keys(data);
	if (keys.length !== 2 || data.v !== 1 || !isShuntMode(data.mode)) return err("mode entry: invalid");
	return ok({ v: 1, mode: data.mode });
}

/**
 * The mode of the latest valid entry in `entries` (the data of the mode entries on the current branch, oldest
 * first), and how many later entries were invalid and skipped. `undefined` when none is valid. Never throws.
 */
export function latestValidMode(entries: readonly unknown[]): { mode: ShuntMode | undefined; skipped: number } {
	if (!Array.isArray(entries)) return { mode: undefined, skipped: 0 };
	let skipped = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = validateModeEntry(entries[i]);
		if (entry.ok) return { mode: entry.value.mode, skipped };
		skipped++;
	}
	return { mode: undefined, skipped };
}

/** A parsed `/context-shunt` command. */
export type ShuntCommand =
	| { readonly kind: "mode"; readonly mode: ShuntMode }
	| { readonly kind: "status" }
	| { readonly kind: "reset" }
	| { readonly kind: "allow"; readonly token: string; readonly maxLines: number; readonly maxBytes: number };

/** The usage text of the command. */
export const SHUNT_COMMAND_USAGE =
	"usage: /context-shunt off|observe|enforce|status|reset|allow <token> <maxLines> <maxBytes>";

/**
 * Parses the arguments of `/context-shunt`. No arguments means `status`. `allow` needs a token as issued in a
 * block reason and two integers 1..1048576. Errors are fixed texts that never echo the input. Never throws.
 */
export function parseShuntCommand(args: unknown): Result<ShuntCommand> {
	const words = typeof args === "string" ? args.trim().split(/\s+/).filter(Boolean) : [];
	const [verb, ...rest] = words;
	if (verb === undefined || verb === "status")
		return rest.length === 0 ? ok({ kind: "status" }) : err(SHUNT_COMMAND_USAGE);
	if (isShuntMode(verb)) return rest.length === 0 ? ok({ kind: "mode", mode: verb }) : err(SHUNT_COMMAND_USAGE);
	if (verb === "reset") return rest.length === 0 ? ok({ kind: "reset" }) : err(SHUNT_COMMAND_USAGE);
	if (verb === "allow") {
		const [token, lines, bytes, ...extra] = rest;
		if (token === undefined || lines === undefined || bytes === undefined || extra.length > 0) {
			return err(SHUNT_COMMAND_USAGE);
		}
		if (!EXCEPTION_TOKEN_PATTERN.test(token)) return err("allow: malformed token");
		const max = EXCEPTION_RULES.maxGrantValue;
		const parse = (word: string) => (/^[0-9]{1,7}$/.test(word) ? Number(word) : Number.NaN);
		const maxLines = parse(lines);
		const maxBytes = parse(bytes);
		if (!(maxLines >= 1 && maxLines <= max)) return err(`allow: maxLines: expected integer between 1 and ${max}`);
		if (!(maxBytes >= 1 && maxBytes <= max)) return err(`allow: maxBytes: expected integer between 1 and ${max}`);
		return ok({ kind: "allow", token, maxLines, maxBytes });
	}
	return err(SHUNT_COMMAND_USAGE);
}

/** What the shell does when the mode changes. */
export interface ModeChangePlan {
	readonly changed: boolean;
	/** Store the new mode as a session entry. */
	readonly persist: boolean;
	/** Whether the two tools should be active afterwards (observe and enforce). */
	readonly toolsActive: boolean;
	/** Cancel an in-flight reader call (`reader-cancelled`): leaving enforce. */
	readonly cancelReader: boolean;
	/** Lapse exception grants and consumed authorizations (`cancelled`): leaving enforce. */
	readonly lapseExceptions: boolean;
}

/**
 * Plans a mode change requested by the user. An unchanged mode does nothing. Leaving `enforce` cancels the
 * reader and lapses exceptions; `off` deactivates the tools; observe and enforce activate them.
 */
export function planModeChange(from: ShuntMode, to: ShuntMode): ModeChangePlan {
	const changed = from !== to;
	return {
		changed,
		persist: changed,
		toolsActive: to !== "off",
		cancelReader: changed && from === "enforce",
		lapseExceptions: changed && from === "enforce",
	};
}
