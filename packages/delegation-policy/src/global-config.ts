// Global defaults: read `<agentDir>/policy/delegation-policy.json` and write it atomically (temp file + rename).
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
	createGlobalDocument,
	DELEGATION_POLICY_CONFIG_NAME,
	type DelegationPolicySettings,
	isThinkingDocumentError,
	parseDelegationPolicyDocument,
} from "@pi-policy/policy-kernel/delegation";
import { loadPolicyConfig, policyConfigPaths } from "@pi-policy/policy-kernel/host";

/** The global layer as loaded: settings (empty on any error) and a concise error that names no path. */
export interface LoadedGlobalDefaults {
	readonly settings: DelegationPolicySettings;
	readonly error?: string;
	readonly thinkingError?: boolean;
	readonly migratedFrom?: number;
}

/** Reads and parses the global document. Never throws; a malformed document gives empty defaults. */
export async function loadGlobalDefaults(cwd: string): Promise<LoadedGlobalDefaults> {
	try {
		const layers = await loadPolicyConfig({ name: DELEGATION_POLICY_CONFIG_NAME, cwd, isProjectTrusted: false });
		if (layers.errors.length > 0) return { settings: {}, error: layers.errors[0] ?? "global config: unreadable" };
		if (layers.global === undefined) return { settings: {} };
		const parsed = parseDelegationPolicyDocument(layers.global);
		if (!parsed.ok) return { settings: {}, error: parsed.error, thinkingError: isThinkingDocumentError(parsed.error) };
		return {
			settings: parsed.value.settings,
			...(parsed.value.migratedFrom === undefined ? {} : { migratedFrom: parsed.value.migratedFrom }),
		};
	} catch {
		return { settings: {}, error: "global config: unreadable" };
	}
}

/** The path of the global document (shown only on the user's own terminal, never in audit or status). */
export function globalDefaultsPath(cwd: string): string {
	return policyConfigPaths({ name: DELEGATION_POLICY_CONFIG_NAME, cwd }).global;
}

/**
 * Writes the global document atomically: a temp file in the same folder, then a rename over the target, so a
 * reader sees the old or the new document and never a partial one. Returns false on any failure.
 */
export async function saveGlobalDefaults(cwd: string, settings: DelegationPolicySettings): Promise<boolean> {
	const target = globalDefaultsPath(cwd);
	const temp = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
	try {
		await mkdir(dirname(target), { recursive: true });
		await writeFile(temp, `${JSON.stringify(createGlobalDocument(settings), null, "\t")}\n`, { mode: 0o600 });
		await rename(temp, target);
		return true;
	} catch {
		await rm(temp, { force: true }).catch(() => undefined);
		return false;
	}
}
