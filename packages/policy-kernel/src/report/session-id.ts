// Session ids appear only hashed in reports and telemetry. The hash itself is computed by the shell
// (node:crypto); the kernel only knows its shape.

/** Hex characters kept of the hash: enough to tell sessions apart, too few to matter as an identifier. */
export const SESSION_HASH_LENGTH = 16;

/** The text hashed for a session id: a fixed prefix keeps the hash specific to pi-policy reports. */
export function sessionHashInput(sessionId: string): string {
	return `pi-policy-session:${typeof sessionId === "string" ? sessionId : ""}`;
}

/** True for a string shaped like a session hash: {@link SESSION_HASH_LENGTH} lowercase hex characters. */
export function isSessionHash(value: unknown): value is string {
	return typeof value === "string" && /^[0-9a-f]{16}$/.test(value);
}
