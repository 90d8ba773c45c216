// Real Pi sessions: what an unavailable review and a failed handler leave behind (a dialog that throws denies, an
// aborted review never asks, the fallback notification names its reason, the footer is cleared after an internal
// error), what /guardian status counts (unavailable reviews by reason, allow-once grants that have not expired), and
// the optional review log (mode 0600, failed reviews logged with their reason, latency and prompt size recorded).
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	type GuardianHarness,
	guardianSandboxPerTest,
	REVIEWER_MODEL,
	resultTexts,
	verdict,
	verdictSources,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-gaps-" });

const REVIEWER = { model: REVIEWER_MODEL, fallbackToSessionModel: false, timeoutMs: 60_000 };

async function waitFor(check: () => boolean): Promise<boolean> {
	for (let i = 0; i < 100; i++) {
		if (check()) return true;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return check();
}

function workingMessages(h: GuardianHarness): Array<string | undefined> {
	return (h.ui?.calls ?? []).flatMap((call) => (call.kind === "setWorkingMessage" ? [call.text] : []));
}

function logPath(h: GuardianHarness): string {
	return join(h.agentDir, "guardian-review", "review-log.jsonl");
}

describe("the unavailable-review dialog", () => {
	it("denies the call when the confirm dialog throws (fails closed)", async () => {
		const h = await sandbox.start({ ui: {} });
		h.ui!.context.confirm = async () => {
			throw new Error("the dialog could not be shown");
		};
		h.reviewer("not a verdict at all");
		h.agent(callTool("bash", { command: "ln -s /dev/null dialog-threw.txt" }), "done");
		await h.prompt("make the link");
		expect(existsSync(join(h.cwd, "dialog-threw.txt"))).toBe(false);
		expect(h.toolResults()[0]?.isError).toBe(true);
		expect(resultTexts(h)[0]).toContain("Guardian review unavailable (parse-failure)");
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "deny", source: "user", failureReason: "parse-failure" }),
		]);
		expect(h.audit().some((entry) => entry.event === "user-override")).toBe(false);
	});

	it("does not open the dialog when the review was cancelled through the turn's abort signal", async () => {
		const h = await sandbox.start({ ui: { confirm: [true] } });
		h.reviewer(() => {
			void h.session.abort();
			return new Promise<string>((resolve) => setTimeout(() => resolve("too late"), 2000));
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null aborted-review.txt" }), "done");
		await h.prompt("make the link");
		expect(h.ui!.calls.filter((call) => call.kind === "confirm")).toEqual([]);
		expect(existsSync(join(h.cwd, "aborted-review.txt"))).toBe(false);
		expect(h.audit().find((entry) => entry.event === "unavailable")).toMatchObject({ category: "aborted" });
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "deny", source: "fallback", failureReason: "aborted" }),
		]);
	});

	it("the fallback denial notification names the source with the failure reason", async () => {
		const h = await sandbox.start({ ui: {}, guardian: { onUnavailable: "deny", reviewer: REVIEWER } });
		h.reviewer("not a verdict at all");
		h.agent(callTool("bash", { command: "ln -s /dev/null fallback.txt" }), "done");
		await h.prompt("make the link");
		expect(h.ui!.calls.some((call) => call.kind === "confirm")).toBe(false);
		expect(h.ui!.notifications()).toContainEqual({
			message:
				"guardian-review denied a bash call (source: review unavailable, parse-failure). /guardian allow-once lets it run once.",
			level: "warning",
		});
	});
});

describe("an internal error during a review", () => {
	it("clears the footer status and the working message, and blocks the call", async () => {
		const h = await sandbox.start({ ui: {} });
		const ui = h.session.extensionRunner.getUIContext();
		const show = ui.setWorkingMessage.bind(ui);
		let failed = false;
		ui.setWorkingMessage = (text?: string) => {
			show(text);
			if (text !== undefined && !failed) {
				failed = true;
				throw new Error("the working message could not be shown");
			}
		};
		h.agent(callTool("bash", { command: "ln -s /dev/null internal-error.txt" }), "done");
		await h.prompt("make the link");
		expect(failed).toBe(true);
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(existsSync(join(h.cwd, "internal-error.txt"))).toBe(false);
		expect(h.audit().filter((entry) => entry.event === "handler-error")).toHaveLength(1);
		expect(h.ui!.statuses.has("guardian-review")).toBe(false);
		const shown = workingMessages(h);
		expect(shown).toHaveLength(2);
		expect(shown[0]).toContain("reviewing");
		expect(shown[1]).toBeUndefined();
		expect(h.ui!.notifications().filter((note) => note.level === "error")).toEqual([
			{ message: "guardian-review tool_call failed closed: internal error; the action was refused.", level: "error" },
		]);
	});
});

describe("/guardian status", () => {
	it("shows unavailable reviews by failure reason", async () => {
		const h = await sandbox.start({ ui: { confirm: [false] } });
		h.reviewer("not a verdict at all");
		h.agent(callTool("bash", { command: "ln -s /dev/null unavailable.txt" }), "done");
		await h.prompt("make the link");
		await h.command("/guardian status");
		const status = h.ui!.notifications().at(-1)!.message;
		expect(status.split("\n")).toContain("unavailable: parse-failure 1");
	});

	it("counts an allow-once grant as pending until its five minutes are over", async () => {
		let clock = 2_000_000;
		const h = await sandbox.start({ ui: {}, guardianOptions: { home: sandbox.home, now: () => clock } });
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		h.agent(callTool("bash", { command: "ln -s /dev/null granted.txt" }), "denied");
		await h.prompt("make the link");
		expect(verdictSources(h)).toEqual(["reviewer"]);
		await h.command("/guardian allow-once");
		const pending = async () => {
			await h.command("/guardian status");
			return h
				.ui!.notifications()
				.at(-1)!
				.message.split("\n")
				.filter((line) => line.startsWith("allow-once grants pending:"));
		};
		expect(await pending()).toEqual(["allow-once grants pending: 1 (the next expires in 5 min)"]);
		clock += 5 * 60 * 1000 - 1;
		expect(await pending()).toEqual(["allow-once grants pending: 1 (the next expires in 1 min)"]);
		clock += 1;
		expect(await pending()).toEqual(["allow-once grants pending: 0"]);
	});
});

/** The review log's records once its last line is whole: the log is appended while the test goes on. */
async function loggedRecords(h: GuardianHarness): Promise<Array<Record<string, unknown>>> {
	const whole = () => {
		try {
			const text = readFileSync(logPath(h), "utf8");
			return text.length > 0 && text.endsWith("\n");
		} catch {
			return false;
		}
	};
	expect(await waitFor(whole)).toBe(true);
	return readFileSync(logPath(h), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the review log", () => {
	const logged = { mode: "enforce", reviewLog: true, reviewer: REVIEWER };

	it("is a file of mode 0600", async () => {
		const h = await sandbox.start({ guardian: logged });
		h.reviewer(verdict("allow", { risk_level: "low" }));
		h.agent(callTool("bash", { command: "ln -s /dev/null mode.txt" }), "done");
		await h.prompt("make the link");
		expect(await waitFor(() => existsSync(logPath(h)))).toBe(true);
		expect(statSync(logPath(h)).mode & 0o777).toBe(0o600);
	});

	it("logs a failed review with its failure reason", async () => {
		const h = await sandbox.start({ guardian: logged });
		h.reviewer("not a verdict at all");
		h.agent(callTool("bash", { command: "ln -s /dev/null failed-review.txt" }), "done");
		await h.prompt("make the link");
		const records = await loggedRecords(h);
		expect(records).toHaveLength(1);
		expect(records[0]).toMatchObject({
			tool: "bash",
			action: { tool: "bash", command: "ln -s /dev/null failed-review.txt" },
			decision: "unavailable",
			source: "reviewer",
			failureReason: "parse-failure",
			model: REVIEWER_MODEL,
		});
	});

	it("records the review's latency and the prompt's estimated tokens as numbers", async () => {
		const h = await sandbox.start({ guardian: logged });
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "not asked for" }));
		h.agent(callTool("bash", { command: "ln -s /dev/null measured.txt" }), "done");
		await h.prompt("make the link");
		const [record = {}] = await loggedRecords(h);
		expect(record).toMatchObject({ decision: "deny", riskLevel: "high", rationale: "not asked for" });
		expect(record.latencyMs).toEqual(expect.any(Number));
		expect(record.latencyMs as number).toBeGreaterThanOrEqual(0);
		expect(record.promptTokens).toEqual(expect.any(Number));
		expect(record.promptTokens as number).toBeGreaterThan(0);
	});
});
