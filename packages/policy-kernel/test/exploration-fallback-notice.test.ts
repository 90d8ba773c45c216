// The exploration-guard reducer after warn-only fallback: a later failed launch does not announce it again.
import { describe, expect, it } from "vitest";
import {
	createExplorationGuardState,
	EXPLORATION_GUARD_DEFAULTS,
	type ExplorationGuardConfig,
	type ExplorationGuardEffect,
	type ExplorationGuardEvent,
	explorationGuardStateName,
	reduceExplorationGuard,
} from "../src/exploration/index.js";

const BLOCK: ExplorationGuardConfig = { ...EXPLORATION_GUARD_DEFAULTS, mode: "block" };

function run(events: ExplorationGuardEvent[]) {
	let state = createExplorationGuardState(BLOCK);
	const effects: ExplorationGuardEffect[][] = [];
	for (const event of events) {
		const next = reduceExplorationGuard(state, event);
		state = next.state;
		effects.push([...next.effects]);
	}
	return { state, effects };
}

describe("delegation failure fallback", () => {
	it("notifies fallback-failed on the first failed launch only, not on a second one", () => {
		const { state, effects } = run([
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: true },
			{ type: "delegation-call", launch: true },
			{ type: "delegation-result", launch: true, isError: true },
		]);
		expect(explorationGuardStateName(state)).toBe("fallback-warn-only");
		expect(state.counters.delegationsFailed).toBe(2);
		expect(effects[1]?.filter((e) => e.type === "notify")).toEqual([{ type: "notify", notice: "fallback-failed" }]);
		expect(effects[3]?.filter((e) => e.type === "notify")).toEqual([]);
		expect(effects[3]?.map((e) => e.type)).toEqual(["audit"]);
		expect(
			effects
				.flat()
				.filter((e) => e.type === "notify")
				.map((e) => (e as { notice: string }).notice),
		).toEqual(["fallback-failed"]);
	});
});
