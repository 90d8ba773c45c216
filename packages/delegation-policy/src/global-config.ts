// Global defaults: read `<agentDir>/policy/delegation-policy.json` and write it atomically (temp file + rename).
import { randomBytes } from "node:crypto";
import { lstat, mkdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isPlainObject, parseConfigJson } from "@pi-policy/policy-kernel/config";
import { err, ok, type Result } from "@pi-policy/policy-kernel/decision";
import {
	createGlobalDocument,
	DELEGATION_POLICY_CONFIG_NAME,
	type DelegationPolicySettings,
	isThinkingDocumentError,
	parseDelegationPolicyDocument,
} from "@pi-policy/policy-kernel/delegation";
import { policyConfigPaths, readConfigFile } from "@pi-policy/policy-kernel/host";

/** The parsed global document: the settings, and the version it was migrated from (an unversioned file). */
export interface GlobalDefaults {
	readonly settings: DelegationPolicySettings;
	readonly migratedFrom?: number;
}

/**
 * Resolves the raw global document for the config lifecycle: no file gives empty defaults; a document is
 * parsed (version 1, or an unversioned one migrated in memory). Errors name key paths only. Never throws.
 */
export function resolveGlobalDefaults(raw: unknown): Result<GlobalDefaults> {
	if (raw === undefined) return ok({ settings: {} });
	try {
		const parsed = parseDelegationPolicyDocument(raw);
		if (!parsed.ok) return parsed;
		return ok({
			settings: parsed.value.settings,
			...(parsed.value.migratedFrom === undefined ? {} : { migratedFrom: parsed.value.migratedFrom }),
		});
	} catch {
		return err("config: invalid");
	}
}

/** True when a config issue is about a thinking entry (audited with category `thinking-malformed`). */
export function isThinkingIssue(key: string | undefined): boolean {
	return key !== undefined && isThinkingDocumentError(`${key}:`);
}

/** The path of the global document (shown only on the user's own terminal, never in audit or status). */
export function globalDefaultsPath(cwd: string): string {
	return policyConfigPaths({ name: DELEGATION_POLICY_CONFIG_NAME, cwd }).global;
}

/** The `"$schema"` string of the current global document, kept when the defaults are saved; bounded read. */
async function currentSchemaHint(target: string): Promise<string | undefined> {
	const read = await readConfigFile(target);
	if (read.kind !== "text") return undefined;
	const parsed = parseConfigJson(read.text);
	if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
	const hint = parsed.value.$schema;
	return typeof hint === "string" && hint.length <= 1000 ? hint : undefined;
}

/**
 * Writes the global document atomically: a temp file in the same folder, then a rename over the target, so a
 * reader sees the old or the new document and never a partial one. A `"$schema"` the current file names is kept.
 * Returns false on any failure.
 */
export async function saveGlobalDefaults(cwd: string, settings: DelegationPolicySettings): Promise<boolean> {
	let target = globalDefaultsPath(cwd);
	let temp: string | undefined;
	try {
		// A file linked from a dotfiles folder is written where the link leads, not replaced by a plain file (a
		// twenty-seventh review); a link that leads nowhere is not saved over.
		if ((await lstat(target).catch(() => undefined))?.isSymbolicLink() === true) target = await realpath(target);
		temp = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
		await mkdir(dirname(target), { recursive: true });
		const hint = await currentSchemaHint(target);
		const document = { ...(hint === undefined ? {} : { $schema: hint }), ...createGlobalDocument(settings) };
		await writeFile(temp, `${JSON.stringify(document, null, "\t")}\n`, { mode: 0o600 });
		await rename(temp, target);
		return true;
	} catch {
		if (temp !== undefined) await rm(temp, { force: true }).catch(() => undefined);
		return false;
	}
}
