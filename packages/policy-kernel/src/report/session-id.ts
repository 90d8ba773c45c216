// Session ids appear only hashed in reports and telemetry.
import { sha256Hex } from "../guardian/sha256.js";

/** Hex characters kept of the hash: enough to tell sessions apart, too few to matter as an identifier. */
export const SESSION_HASH_LENGTH = 16;

/** A session id's stable hash: the first 16 hex characters of SHA-256 over `pi-policy-session:<id>`. */
export function hashSessionId(sessionId: string): string {
	return sha256Hex(`pi-policy-session:${typeof sessionId === "string" ? sessionId : ""}`).slice(0, SESSION_HASH_LENGTH);
}

/** True for a string shaped like {@link hashSessionId}'s output. */
export function isSessionHash(value: unknown): value is string {
	return typeof value === "string" && /^[0-9a-f]{16}$/.test(value);
}
