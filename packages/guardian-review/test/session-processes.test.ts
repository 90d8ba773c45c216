// Counting the processes the agent's commands left running: live processes whose environment carries one of the
// session ids as PI_SESSION_ID (Pi's bash tool sets it for every command).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noteSessionId, seenSessionIds, sessionProcessIds } from "../src/session-processes.ts";

const countSessionProcesses = (...args: Parameters<typeof sessionProcessIds>) => sessionProcessIds(...args)?.length;

describe("countSessionProcesses", () => {
	it("counts a live process that carries a session id, and no longer once it ended", async () => {
		const id = `test-session-${process.pid}-${Date.now()}`;
		expect(countSessionProcesses(new Set([id]))).toBe(0);
		const child = spawn("sleep", ["30"], { env: { ...process.env, PI_SESSION_ID: id }, stdio: "ignore" });
		try {
			await new Promise((started) => setTimeout(started, 200));
			expect(countSessionProcesses(new Set([id]))).toBe(1);
			expect(countSessionProcesses(new Set(["another-session"]))).toBe(0);
			expect(countSessionProcesses(new Set())).toBe(0);
		} finally {
			child.kill("SIGKILL");
		}
		await new Promise((ended) => child.once("exit", ended));
		expect(countSessionProcesses(new Set([id]))).toBe(0);
	});

	it("reads a process table by its environments, skips unreadable ones, and is unknown without one", () => {
		const proc = mkdtempSync(join(tmpdir(), "session-processes-"));
		try {
			for (const [pid, environment] of [
				["101", "HOME=/h\0PI_SESSION_ID=s1\0"],
				["102", "PI_SESSION_ID=s2\0"],
				["103", "PI_SESSION_ID=s10\0"],
			] as const) {
				mkdirSync(join(proc, pid));
				writeFileSync(join(proc, pid, "environ"), environment);
			}
			mkdirSync(join(proc, "104"));
			mkdirSync(join(proc, "self"));
			expect(countSessionProcesses(new Set(["s1"]), proc)).toBe(1);
			expect(countSessionProcesses(new Set(["s1", "s2"]), proc)).toBe(2);
			expect(countSessionProcesses(new Set(["s3"]), proc, 2)).toBeUndefined();
			expect(sessionProcessIds(new Set(["s1", "s2"]), proc)).toEqual([101, 102]);
			expect(countSessionProcesses(new Set(["s1"]), join(proc, "missing"))).toBeUndefined();
			// A leader whose own environment cannot be read (it exited; its threads run) is read through its threads;
			// with none readable (a process that is exiting), nothing shows it is the agent's, and it does not count.
			mkdirSync(join(proc, "201", "environ"), { recursive: true });
			mkdirSync(join(proc, "201", "task", "202"), { recursive: true });
			writeFileSync(join(proc, "201", "task", "202", "environ"), "PI_SESSION_ID=s5\0");
			expect(countSessionProcesses(new Set(["s5"]), proc)).toBe(1);
			mkdirSync(join(proc, "301", "environ"), { recursive: true });
			mkdirSync(join(proc, "301", "task", "302", "environ"), { recursive: true });
			writeFileSync(join(proc, "301", "status"), "Name:\tnode\nThreads:\t8\n");
			expect(countSessionProcesses(new Set(["s6"]), proc)).toBe(0);
		} finally {
			rmSync(proc, { recursive: true, force: true });
		}
	});

	it("keeps every session id it was shown, and never throws on a session manager that does", () => {
		noteSessionId({ getSessionId: () => "earlier-session" });
		noteSessionId({ getSessionId: () => "later-session" });
		noteSessionId({
			getSessionId: () => {
				throw new Error("no session");
			},
		});
		noteSessionId(undefined);
		expect(seenSessionIds.has("earlier-session") && seenSessionIds.has("later-session")).toBe(true);
	});
});
