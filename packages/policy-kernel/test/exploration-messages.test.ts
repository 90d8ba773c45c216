// The nudge wording is a pure function of the guard's state: every state in a table, checked for what it must
// and must not say, plus exact texts of the states a user meets first.
import { describe, expect, it } from "vitest";
import {
	createExplorationGuardState,
	EXPLORATION_GUARD_DEFAULTS,
	EXPLORATION_NUDGE_PREFIX,
	type ExplorationGuardConfig,
	type ExplorationGuardEffect,
	type ExplorationGuardEvent,
	type ExplorationNudgeState,
	explorationNudgeText,
	reduceExplorationGuard,
} from "../src/exploration/index.js";

const TRIGGERS = ["streak", "context-pressure"] as const;
const BOOLS = [false, true] as const;
const ALLOWED = [0, 1, 2, 7] as const;

const states: ExplorationNudgeState[] = [];
for (const trigger of TRIGGERS)
	for (const delegationToolActive of BOOLS)
		for (const blockMode of BOOLS)
			for (const bashBlock of BOOLS)
				for (const bashCounted of BOOLS)
					for (const allowedBeforePause of ALLOWED)
						states.push({
							trigger,
							delegationTool: "subagent",
							delegationToolActive,
							blockMode,
							bashBlock,
							bashCounted,
							allowedBeforePause,
							smallReadMaxLines: 400,
							...(trigger === "context-pressure" ? { contextShare: 0.5 } : {}),
						});

function label(state: ExplorationNudgeState): string {
	return [
		state.trigger,
		state.delegationToolActive ? "delegation active" : "no delegation tool",
		state.blockMode ? "block mode" : "warn",
		state.bashBlock ? "bashBlock" : "no bashBlock",
		state.bashCounted ? "bash counted" : "bash not counted",
		`allowed ${state.allowedBeforePause}`,
	].join(", ");
}

describe("explorationNudgeText over every state", () => {
	it("covers every combination", () => {
		expect(states).toHaveLength(2 * 2 * 2 * 2 * 2 * ALLOWED.length);
	});

	it.each(states.map((state) => [label(state), state] as const))("%s", (_label, state) => {
		const text = explorationNudgeText(state);
		expect(text.startsWith(EXPLORATION_NUDGE_PREFIX)).toBe(true);
		expect(text).toContain("at most 400 lines");
		expect(text.length).toBeLessThan(520);
		// The trigger.
		if (state.trigger === "streak") expect(text).toContain("this session keeps making broad");
		else expect(text).toContain("over 50% of the context window");
		// What the guard sees.
		expect(text.includes("bash searches, listings and file reads")).toBe(state.bashCounted);
		const willPause = state.delegationToolActive && state.blockMode;
		if (!state.delegationToolActive) {
			// Without a delegation tool nothing can be blocked (the guard falls back to warn-only before blocking).
			expect(text).toContain("The delegation tool subagent is not active, so nothing will be blocked.");
			expect(text).toContain("enable pi-subagents");
			expect(text).not.toContain("Delegate the remaining survey");
		} else {
			expect(text).toContain("Delegate the remaining survey with subagent");
		}
		if (!willPause) {
			expect(text).toContain("nothing will be blocked");
			expect(text).not.toContain("paused");
			return;
		}
		expect(text).not.toContain("nothing will be blocked");
		expect(text).toContain("until a delegated run succeeds");
		if (state.allowedBeforePause === 0) expect(text).toContain("From the next broad operation,");
		else if (state.allowedBeforePause === 1) expect(text).toContain("After 1 more broad operation,");
		else expect(text).toContain(`After ${state.allowedBeforePause} more broad operations,`);
		expect(text.includes("pure bash exploration commands will be paused")).toBe(state.bashBlock);
		expect(text.includes("Bash commands are counted but never paused.")).toBe(state.bashCounted && !state.bashBlock);
	});

	it("is pure: the same state gives the same text, and only the state changes it", () => {
		for (const state of states) expect(explorationNudgeText({ ...state })).toBe(explorationNudgeText(state));
		const texts = new Set(states.map(explorationNudgeText));
		// Without a delegation tool: trigger x bashCounted (4). Warn mode with one: the same 4. Block mode with one:
		// trigger x bashCounted x bashBlock x the threshold (4 x 2 x 4 = 32). Nothing else changes the text.
		expect(texts.size).toBe(4 + 4 + 32);
	});

	it("says exactly this on stock Pi without pi-subagents (warn or block mode alike)", () => {
		const base = states.find(
			(s) => s.trigger === "streak" && !s.delegationToolActive && s.bashCounted && !s.bashBlock,
		) as ExplorationNudgeState;
		expect(explorationNudgeText({ ...base, blockMode: true })).toBe(
			explorationNudgeText({ ...base, blockMode: false }),
		);
		expect(explorationNudgeText(base)).toBe(
			"Exploration guard: this session keeps making broad read/grep/find/ls calls and bash searches, listings and file reads across the repository. The delegation tool subagent is not active, so nothing will be blocked. To save context, keep to narrow searches and small targeted reads (a path with a limit of at most 400 lines), or enable pi-subagents to delegate the survey.",
		);
	});

	it("says exactly this in block mode with pi-subagents after the second broad operation", () => {
		expect(
			explorationNudgeText({
				trigger: "streak",
				delegationTool: "subagent",
				delegationToolActive: true,
				blockMode: true,
				bashBlock: false,
				bashCounted: true,
				allowedBeforePause: 2,
				smallReadMaxLines: 400,
			}),
		).toBe(
			"Exploration guard: this session keeps making broad read/grep/find/ls calls and bash searches, listings and file reads across the repository. Delegate the remaining survey with subagent and keep to narrow searches and small targeted reads (a path with a limit of at most 400 lines). After 2 more broad operations, isolated broad read/grep/find/ls calls will be paused until a delegated run succeeds. Bash commands are counted but never paused.",
		);
	});
});

describe("the reducer words its nudge from the real state", () => {
	function nudgeOf(config: ExplorationGuardConfig, events: ExplorationGuardEvent[]): ExplorationNudgeState[] {
		let state = createExplorationGuardState(config);
		const found: ExplorationNudgeState[] = [];
		for (const event of events) {
			const next = reduceExplorationGuard(state, event);
			state = next.state;
			for (const effect of next.effects as ExplorationGuardEffect[])
				if (effect.type === "nudge") found.push(effect.wording);
		}
		return found;
	}
	let position = 0;
	const call = (over: Partial<Extract<ExplorationGuardEvent, { type: "broad-call" }>> = {}): ExplorationGuardEvent => ({
		type: "broad-call",
		category: "grep",
		batch: { size: 1, position: ++position },
		delegationToolActive: true,
		...over,
	});

	it.each([
		["warn mode, delegation active", "warn", true, false, { blockMode: false, delegationToolActive: true }],
		["warn mode, no delegation tool", "warn", false, false, { blockMode: false, delegationToolActive: false }],
		["block mode, delegation active", "block", true, false, { blockMode: true, allowedBeforePause: 2 }],
		["block mode, bashBlock", "block", true, true, { blockMode: true, bashBlock: true }],
		["block mode, no delegation tool", "block", false, false, { blockMode: true, delegationToolActive: false }],
	] as const)("%s", (_label, mode, active, bashBlock, expected) => {
		const config = { ...EXPLORATION_GUARD_DEFAULTS, mode, bashBlock };
		const wording = nudgeOf(config, [
			call({ delegationToolActive: active, bashCounted: true }),
			call({ delegationToolActive: active, bashCounted: true }),
		]);
		expect(wording).toHaveLength(1);
		expect(wording[0]).toMatchObject({ trigger: "streak", bashCounted: true, ...expected });
		// The text follows from the state: no delegation tool means nothing will be blocked.
		if (!active) expect(explorationNudgeText(wording[0] as ExplorationNudgeState)).toContain("nothing will be blocked");
	});

	it("names the context share in a pressure nudge", () => {
		const config = { ...EXPLORATION_GUARD_DEFAULTS, mode: "warn" as const, nudgeAtContextShare: 0.6 };
		const wording = nudgeOf(config, [call({ contextShare: 0.61 })]);
		expect(wording).toEqual([expect.objectContaining({ trigger: "context-pressure", contextShare: 0.6 })]);
		expect(explorationNudgeText(wording[0] as ExplorationNudgeState)).toContain("over 60% of the context window");
	});
});
