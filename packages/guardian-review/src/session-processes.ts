// Work the agent's commands left running. Pi's bash tool gives every command `PI_SESSION_ID` (host docs,
// environment-variables.md), and background processes keep it after the call that started them ended, so a live
// process carrying one of this extension's session ids is work the agent started that may still change files.
// `/guardian allow-once` neither makes nor uses a grant while one runs (decision 0025). Linux only (`/proc`); where
// there is no `/proc`, the count is unknown and the grant's fingerprint is the only check. Bounded, never throws.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** At most this many processes are looked at; past it, the count is unknown and the fingerprint is the only check. */
export const MAX_SESSION_PROCESS_LOOKUPS = 32_768;
const ENVIRONMENT_NAME = "PI_SESSION_ID=";
const MAX_THREAD_LOOKUPS = 64;

/**
 * Every session id guardian-review saw in this Pi process, across its instances (Pi makes a new one on `/new`,
 * `/fork` and `/resume`): a job an earlier session started still counts.
 */
export const seenSessionIds = new Set<string>();

/** Notes the current session's id in {@link seenSessionIds}; never throws. */
export function noteSessionId(sessionManager: { getSessionId(): string } | undefined): void {
	try {
		const id = sessionManager?.getSessionId();
		if (typeof id === "string" && id !== "") seenSessionIds.add(id);
	} catch {
		// No session id: the ones seen before still count.
	}
}

/** Whether a process environment (NUL-separated) holds `PI_SESSION_ID` set to one of `sessionIds`. */
function carriesSessionId(environment: Buffer, sessionIds: ReadonlySet<string>): boolean {
	for (const entry of environment.toString("latin1").split("\0")) {
		if (entry.startsWith(ENVIRONMENT_NAME)) return sessionIds.has(entry.slice(ENVIRONMENT_NAME.length));
	}
	return false;
}

/**
 * The live processes other than this one that carry one of `sessionIds` as `PI_SESSION_ID`, by pid; undefined when
 * that cannot be known (no readable `/proc`, or more processes than the lookup bound).
 */
export function sessionProcessIds(
	sessionIds: ReadonlySet<string>,
	procRoot = "/proc",
	bound = MAX_SESSION_PROCESS_LOOKUPS,
): number[] | undefined {
	if (sessionIds.size === 0) return [];
	let pids: string[];
	try {
		pids = readdirSync(procRoot).filter((name) => /^[0-9]+$/.test(name) && Number(name) !== process.pid);
	} catch {
		return undefined;
	}
	if (pids.length > bound) return undefined;
	return pids
		.filter((pid) => processCarries(join(procRoot, pid), sessionIds))
		.map(Number)
		.sort((a, b) => a - b);
}

/**
 * Whether the process at `folder` carries one of `sessionIds`. A process gone, or another user's, does not. One whose
 * own environment cannot be read for another reason (a thread-group leader that exited while its threads run) is
 * read through its threads; when none of them can be read either (a process that is exiting), it does not count, as
 * nothing shows it is the agent's.
 */
function processCarries(folder: string, sessionIds: ReadonlySet<string>): boolean {
	try {
		return carriesSessionId(readFileSync(join(folder, "environ")), sessionIds);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "EACCES" || code === "EPERM") return false;
	}
	try {
		for (const thread of readdirSync(join(folder, "task")).slice(0, MAX_THREAD_LOOKUPS)) {
			try {
				if (carriesSessionId(readFileSync(join(folder, "task", thread, "environ")), sessionIds)) return true;
			} catch {
				// The next thread may be readable.
			}
		}
	} catch {
		// No threads to read.
	}
	return false;
}
