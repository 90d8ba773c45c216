// A session id's stable hash for reports and telemetry: SHA-256 (node:crypto) over the kernel's hash input.
import { createHash } from "node:crypto";
import { SESSION_HASH_LENGTH, sessionHashInput } from "@pi-policy/policy-kernel/report";

/** The first 16 hex characters of SHA-256 over `pi-policy-session:<id>`. */
export function hashSessionId(sessionId: string): string {
	return createHash("sha256").update(sessionHashInput(sessionId)).digest("hex").slice(0, SESSION_HASH_LENGTH);
}
