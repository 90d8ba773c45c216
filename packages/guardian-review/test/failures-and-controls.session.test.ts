// Real Pi sessions: review unavailable (malformed, timeout, missing model) denies headless and asks with a UI; the
// breaker trips at exactly the third consecutive denial; allow-once; deep-freeze; observe; project config; commands.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import {
	callTool,
	createGuardianHarness,
	expectNoLeak,
	type GuardianHarness,
	REVIEWER_MODEL,
	resultTexts,
	verdict,
	verdictSources,
} from "./helpers.ts";

let h: GuardianHarness | undefined;
afterEach(async () => {
	await h?.dispose();
	h = undefined;
});

type Failure = "malformed" | "timeout" | "missing-model";

async function unavailableHarness(failure: Failure, ui: boolean): Promise<GuardianHarness> {
	const harness = await createGuardianHarness({
		ui: ui ? { confirm: [true] } : false,
		guardian: {
			mode: "enforce",
			reviewer: {
				model: failure === "missing-model" ? "faux/no-such-model" : REVIEWER_MODEL,
				fallbackToSessionModel: false,
				// The shortest allowed timeout where the test waits for it; the default otherwise, so load cannot time out.
				timeoutMs: failure === "timeout" ? 5000 : 60_000,
			},
		},
	});
	if (failure === "malformed") harness.reviewer("Looks fine to me, go ahead.");
	if (failure === "timeout") harness.reviewer(() => new Promise<string>(() => {}));
	harness.agent(callTool("bash", { command: "ln -s /dev/null after-unavailable.txt" }), "done");
	return harness;
}

const REASON: Record<Failure, string> = {
	malformed: "parse-failure",
	timeout: "timeout",
	"missing-model": "no-model",
};

describe("review unavailable", () => {
	it.each<[Failure]>([["malformed"], ["timeout"], ["missing-model"]])(
		"%s: denies headless with the unavailable wording",
		async (failure) => {
			h = await unavailableHarness(failure, false);
			await h.prompt("create the file");
			const text = resultTexts(h)[0]!;
			expect(h.toolResults()[0]?.isError).toBe(true);
			expect(text).toContain(`Guardian review unavailable (${REASON[failure]})`);
			expect(text).toContain("does not mean the action is unsafe");
			expect(text).not.toContain("risky");
			expect(existsSync(join(h.cwd, "after-unavailable.txt"))).toBe(false);
			expect(h.verdicts.at(-1)).toMatchObject({ decision: "deny", source: "fallback", failureReason: REASON[failure] });
			expect(h.audit().find((e) => e.event === "unavailable")).toMatchObject({ category: REASON[failure] });
			expect(h.reviewerRequests()).toHaveLength(failure === "missing-model" ? 0 : 1);
			expectNoLeak(h, ["ln -s", "after-unavailable"]);
		},
	);

	it.each<[Failure]>([["malformed"], ["timeout"], ["missing-model"]])(
		"%s: asks when a UI exists, and the user's allow runs the call once",
		async (failure) => {
			h = await unavailableHarness(failure, true);
			await h.prompt("create the file");
			const confirms = h.ui!.calls.filter((call) => call.kind === "confirm");
			expect(confirms).toHaveLength(1);
			expect(confirms[0]).toMatchObject({ title: "Guardian review unavailable" });
			const message = (confirms[0] as { message: string }).message;
			expect(message).toContain("does not mean the call is unsafe");
			expect(message).not.toContain("risky");
			expect(h.toolResults()[0]?.isError).toBe(false);
			expect(existsSync(join(h.cwd, "after-unavailable.txt"))).toBe(true);
			expect(h.verdicts.at(-1)).toMatchObject({ decision: "allow", source: "user", failureReason: REASON[failure] });
			expect(h.audit().some((e) => e.event === "user-override")).toBe(true);
			expectNoLeak(h, ["ln -s", "after-unavailable"]);
		},
	);

	it("denies when the user declines, and with onUnavailable deny never asks", async () => {
		h = await createGuardianHarness({ ui: { confirm: [false] } });
		h.reviewer("not json");
		h.agent(callTool("bash", { command: "ln -s /dev/null declined.txt" }), "done");
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "declined.txt"))).toBe(false);
		expect(h.verdicts.at(-1)).toMatchObject({ decision: "deny", source: "user" });
		await h.dispose();

		h = await createGuardianHarness({
			ui: { confirm: [true] },
			guardian: {
				mode: "enforce",
				onUnavailable: "deny",
				reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false },
			},
		});
		h.reviewer("not json");
		h.agent(callTool("bash", { command: "ln -s /dev/null never-asked.txt" }), "done");
		await h.prompt("go");
		expect(h.ui!.calls.some((call) => call.kind === "confirm")).toBe(false);
		expect(existsSync(join(h.cwd, "never-asked.txt"))).toBe(false);
	});
});

describe("denial breaker", () => {
	it("trips at exactly the third consecutive denial and aborts the turn", async () => {
		h = await createGuardianHarness({ ui: {} });
		h.agent(
			callTool("bash", { command: "ln -s /dev/null one.txt" }),
			callTool("bash", { command: "ln -s /dev/null two.txt" }),
			callTool("bash", { command: "ln -s /dev/null three.txt" }),
			callTool("bash", { command: "ln -s /dev/null four.txt" }),
			"never reached",
		);
		h.reviewer(verdict("deny"), verdict("deny"), verdict("deny"), verdict("deny"));
		await h.prompt("make four files");
		const events = h.audit().map((e) => `${e.event}/${e.category ?? e.state}`);
		const trip = events.indexOf("breaker-tripped/tripped");
		expect(trip).toBeGreaterThan(0);
		expect(events.filter((e) => e === "denied/reviewer")).toHaveLength(3);
		expect(events.slice(0, trip).filter((e) => e === "denied/reviewer")).toHaveLength(3);
		expect(h.audit()[trip]).toMatchObject({ counters: { consecutive: 3 } });
		// The turn was aborted: the agent was asked three times and never got to its fourth call.
		expect(h.agentRequests()).toHaveLength(3);
		expect(h.reviewerRequests()).toHaveLength(3);
		// Host behaviour (Pi 1.6.0): once the signal is aborted, the host replaces the block reason of that call.
		expect(resultTexts(h).at(-1)).toBe("Operation aborted");
		expect(h.ui!.notifications().some((n) => n.message.includes("ended the turn after 3 consecutive denials"))).toBe(
			true,
		);
		expect(h.clearScripts()).toBe(2);
		// A new user prompt re-arms it.
		h.agent(callTool("bash", { command: "ln -s /dev/null five.txt" }), "done");
		h.reviewer(verdict("allow"));
		await h.prompt("try once more");
		expect(existsSync(join(h.cwd, "five.txt"))).toBe(true);
		expectNoLeak(h, ["ln -s", "one.txt", "five.txt"]);
	});

	it("does not trip on two denials or on unavailable reviews", async () => {
		h = await createGuardianHarness({ ui: false });
		h.agent(
			callTool("bash", { command: "ln -s /dev/null a.txt" }),
			callTool("bash", { command: "ln -s /dev/null b.txt" }),
			callTool("bash", { command: "ln -s /dev/null c.txt" }),
			callTool("bash", { command: "ln -s /dev/null d.txt" }),
			"done",
		);
		h.reviewer(verdict("deny"), "garbled", verdict("deny"), "garbled");
		await h.prompt("go");
		expect(h.audit().some((e) => e.event === "breaker-tripped")).toBe(false);
		expect(h.agentRequests()).toHaveLength(5);
	});
});

describe("allow-once", () => {
	it("approves the last denied exact action once, then it is reviewed again", async () => {
		h = await createGuardianHarness({ ui: {} });
		h.agent(callTool("bash", { command: "ln -s /dev/null once.txt" }), "denied");
		h.reviewer(verdict("deny", { risk_level: "medium", rationale: "not requested" }));
		await h.prompt("make once.txt");
		expect(existsSync(join(h.cwd, "once.txt"))).toBe(false);
		await h.command("/guardian allow-once");
		h.agent(
			callTool("bash", { command: "ln -s /dev/null once.txt && unlink once.txt" }),
			callTool("bash", { command: "ln -s /dev/null once.txt" }),
			callTool("bash", { command: "unlink once.txt" }),
			callTool("bash", { command: "ln -s /dev/null once.txt" }),
			"done",
		);
		h.reviewer(verdict("deny"), verdict("allow"), verdict("deny"));
		await h.prompt("I approve, try again");
		const sources = verdictSources(h);
		// denied, then (a different action, reviewed) denied, then the exact action via allow-once, then reviewed again.
		expect(sources).toEqual(["reviewer", "reviewer", "allow-once", "reviewer", "reviewer"]);
		expect(h.reviewerRequests()).toHaveLength(4);
		expect(existsSync(join(h.cwd, "once.txt"))).toBe(false);
		expect(resultTexts(h).at(-1)).toContain("as risky");
		expect(h.audit().some((e) => e.event === "allow-once-granted")).toBe(true);
		expectNoLeak(h, ["ln -s", "once.txt"]);
	});

	it("expires after five minutes and never overrides a floor hard-deny", async () => {
		let clock = 1_000_000;
		h = await createGuardianHarness({ ui: {}, guardianOptions: { now: () => clock } });
		h.agent(callTool("bash", { command: "ln -s /dev/null late.txt" }), "denied");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		await h.command("/guardian allow-once");
		clock += 5 * 60 * 1000;
		h.agent(callTool("bash", { command: "ln -s /dev/null late.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("again");
		expect(existsSync(join(h.cwd, "late.txt"))).toBe(false);
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);

		h.agent(callTool("bash", { command: "git push --force origin main" }), "done");
		await h.prompt("push");
		await h.command("/guardian allow-once");
		expect(h.ui!.notifications().at(-1)?.message).toContain("not granted: the last denial was a floor hard-deny");
	});
});

describe("approved input is locked", () => {
	const mutator =
		(mode: "guarded" | "plain", seen: { threw: boolean }): InlineExtension =>
		(pi) => {
			pi.on("tool_call", (event) => {
				if (event.toolName !== "bash") return undefined;
				const input = event.input as { command: string };
				if (mode === "guarded") {
					try {
						input.command = "ln -s /dev/null hijacked.txt";
					} catch {
						seen.threw = true;
					}
				} else input.command = "ln -s /dev/null hijacked.txt";
				return undefined;
			});
		};

	it("control: without guardian enforcing, a later handler's mutation changes what runs", async () => {
		const seen = { threw: false };
		h = await createGuardianHarness({ ui: false, guardian: { mode: "observe" }, after: [mutator("guarded", seen)] });
		h.agent(callTool("bash", { command: "ln -s /dev/null approved.txt" }), "done");
		h.reviewer(verdict("allow"));
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "hijacked.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "approved.txt"))).toBe(false);
	});

	it("after an allow, a later handler cannot change the input: the approved command runs", async () => {
		const seen = { threw: false };
		h = await createGuardianHarness({ ui: false, after: [mutator("guarded", seen)] });
		h.agent(callTool("bash", { command: "ln -s /dev/null approved.txt" }), "done");
		h.reviewer(verdict("allow"));
		await h.prompt("go");
		expect(seen.threw).toBe(true);
		expect(existsSync(join(h.cwd, "approved.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "hijacked.txt"))).toBe(false);
	});

	it("a later handler that assigns without catching throws, and the host blocks the call (Pi 1.6.0 fail-safe)", async () => {
		const seen = { threw: false };
		h = await createGuardianHarness({ ui: false, after: [mutator("plain", seen)] });
		h.agent(callTool("bash", { command: "ls" }), "done");
		await h.prompt("go");
		expect(h.toolResults()[0]?.isError).toBe(true);
		expect(resultTexts(h)[0]).toMatch(/read.only|Cannot assign/i);
		expect(existsSync(join(h.cwd, "hijacked.txt"))).toBe(false);
	});
});

describe("observe mode", () => {
	it("never blocks: hard-deny, risk denial and unavailable reviews are recorded but the calls run", async () => {
		h = await createGuardianHarness({
			ui: { confirm: [false] },
			guardian: { mode: "observe", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
		});
		h.agent(
			callTool("bash", { command: "git push --force origin main" }),
			callTool("bash", { command: "ln -s /dev/null observed-deny.txt" }),
			callTool("bash", { command: "ln -s /dev/null observed-unavailable.txt" }),
			callTool("bash", { command: "ln -s /dev/null observed-3.txt" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "critical" }), "garbage", verdict("deny"));
		await h.prompt("go");
		expect(resultTexts(h).some((text) => text.includes("Guardian"))).toBe(false);
		expect(existsSync(join(h.cwd, "observed-deny.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "observed-unavailable.txt"))).toBe(true);
		expect(existsSync(join(h.cwd, "observed-3.txt"))).toBe(true);
		expect(h.ui!.calls.some((call) => call.kind === "confirm")).toBe(false);
		expect(h.verdicts.map((v) => [(v as { decision: string }).decision, (v as { mode: string }).mode])).toEqual([
			["deny", "observe"],
			["deny", "observe"],
			["deny", "observe"],
			["deny", "observe"],
		]);
		expect(h.agentRequests()).toHaveLength(5);
	});
});

describe("config", () => {
	it("a trusted project config cannot weaken the global one", async () => {
		h = await createGuardianHarness({
			ui: false,
			projectTrusted: true,
			projectConfig: {
				"guardian-review": {
					mode: "off",
					tools: { bash: "off" },
					floor: { readOnly: ["ln"] },
					reviewer: { model: "faux/faux-1" },
				},
			},
		});
		h.agent(
			callTool("bash", { command: "ln -s /dev/null project.txt" }),
			callTool("bash", { command: "rm -rf ~" }),
			"done",
		);
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(existsSync(join(h.cwd, "project.txt"))).toBe(false);
		expect(resultTexts(h)[1]).toContain("hard-deny");
	});

	it("a trusted project config can strengthen the global one", async () => {
		h = await createGuardianHarness({
			ui: false,
			guardian: { mode: "observe", reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false } },
			projectConfig: { "guardian-review": { mode: "enforce" } },
		});
		h.agent(callTool("bash", { command: "ln -s /dev/null strengthened.txt" }), "done");
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		expect(existsSync(join(h.cwd, "strengthened.txt"))).toBe(false);
	});

	it("an invalid global config fails closed (enforce with defaults) with one concise notification", async () => {
		h = await createGuardianHarness({ ui: {}, guardian: '{"mode": "sometimes", "tools": {"bash": "/etc/secret"}}' });
		h.agent(callTool("bash", { command: "git push --force origin main" }), "done");
		await h.prompt("go");
		expect(resultTexts(h)[0]).toContain("hard-deny");
		const notes = h.ui!.notifications().filter((n) => n.message.includes("config invalid"));
		expect(notes).toHaveLength(1);
		expect(notes[0]!.message).not.toContain("sometimes");
		expect(notes[0]!.message).not.toContain("/etc/secret");
		expect(h.audit().some((e) => e.event === "config-invalid")).toBe(true);
	});

	it("registers only its command (which answers) when disabled", async () => {
		const probe: { commands: string[]; handlers: boolean } = { commands: [], handlers: false };
		const probeExtension: InlineExtension = (pi) => {
			pi.on("session_start", () => {
				probe.commands = pi.getCommands().map((c) => c.name);
			});
		};
		h = await createGuardianHarness({ ui: false, guardian: { mode: "off" }, after: [probeExtension] });
		h.agent(callTool("bash", { command: "ln -s /dev/null disabled.txt" }), "done");
		await h.prompt("go");
		expect(probe.commands).toContain("guardian");
		expect(h.session.extensionRunner.hasHandlers("tool_call")).toBe(false);
		expect(existsSync(join(h.cwd, "disabled.txt"))).toBe(true);
		expect(h.audit()).toEqual([]);
		expect(h.verdicts).toEqual([]);
		const requests = h.requests.length;
		await h.command("/guardian status");
		await h.command("/guardian on");
		expect(h.requests).toHaveLength(requests);
	});
});

describe("/guardian", () => {
	it("status shows mode, reviewer, counters by source and outcome, breaker and latency; on/off/observe switch", async () => {
		h = await createGuardianHarness({ ui: {} });
		h.agent(
			callTool("bash", { command: "git status" }),
			callTool("bash", { command: "ln -s /dev/null status.txt" }),
			"done",
		);
		h.reviewer(verdict("deny"));
		await h.prompt("go");
		await h.command("/guardian status");
		const status = h.ui!.notifications().at(-1)!.message;
		expect(status).toContain("guardian-review: enforce");
		expect(status).toContain(`reviewer: ${REVIEWER_MODEL}`);
		expect(status).toContain("allowed: floor 1");
		expect(status).toContain("denied: reviewer 1");
		expect(status).toContain("breaker: armed (consecutive denials 1");
		expect(status).toMatch(/median review latency: \d+ ms over 1 reviews/);
		await h.command("/guardian off");
		h.agent(callTool("bash", { command: "ln -s /dev/null status.txt" }), "done");
		await h.prompt("again");
		expect(existsSync(join(h.cwd, "status.txt"))).toBe(true);
		await h.command("/guardian observe");
		await h.command("/guardian on");
		await h.command("/guardian status");
		expect(h.ui!.notifications().at(-1)!.message).toContain("guardian-review: enforce");
		expect(
			h
				.audit()
				.filter((e) => e.event === "mode-changed")
				.map((e) => e.mode),
		).toEqual(["off", "observe", "enforce"]);
		expectNoLeak(h, ["ln -s", "status.txt", "git status"]);
	});
});
