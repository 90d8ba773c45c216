// The optional local review log (off by default): one JSON line per review under the agent directory. It holds
// the action text the reviewer saw, so it never leaves the machine and is never written unless `reviewLog` is on.
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { getAgentDir } from "@earendil-works/pi-coding-agent";

/** The log file: `<agentDir>/guardian-review/review-log.jsonl`. */
export function reviewLogPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "guardian-review", "review-log.jsonl");
}

/** One log line. */
export interface ReviewLogRecord {
	readonly time: string;
	readonly tool: string;
	readonly action: unknown;
	readonly decision: "allow" | "deny" | "unavailable";
	readonly source: string;
	readonly riskLevel?: string;
	readonly userAuthorization?: string;
	readonly rationale?: string;
	readonly failureReason?: string;
	readonly latencyMs?: number;
	readonly model?: string;
	readonly promptTokens?: number;
}

/** Appends one record; failures are reported to `onError` and never thrown. */
export async function appendReviewLog(record: ReviewLogRecord, onError: () => void): Promise<void> {
	try {
		const path = reviewLogPath();
		await mkdir(join(path, ".."), { recursive: true });
		await appendFile(path, `${JSON.stringify(record)}\n`, { encoding: "utf8", mode: 0o600 });
	} catch {
		onError();
	}
}
