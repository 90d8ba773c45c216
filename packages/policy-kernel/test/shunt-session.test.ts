import { describe, expect, it } from "vitest";
import {
	type ContextShuntConfig,
	DEFAULT_CONTEXT_SHUNT_CONFIG,
	emptyShuntSessionState,
	modeOnBranch,
	planShuntToolActivation,
	reduceShuntAgentEnd,
	reduceShuntAllow,
	reduceShuntArchived,
	reduceShuntCommand,
	reduceShuntContext,
	reduceShuntModeCommand,
	reduceShuntReset,
	reduceShuntSessionCompact,
	reduceShuntSessionStart,
	reduceShuntSessionTree,
	reduceShuntShutdown,
	reduceShuntToolCall,
	reduceShuntToolResult,
	type ShuntEffect,
	type ShuntMode,
	type ShuntSessionState,
	shuntReaderStatus,
} from "../src/shunt/index.js";
import { countContentLines, utf8ByteLength } from "../src/text.js";

const config: ContextShuntConfig = DEFAULT_CONTEXT_SHUNT_CONFIG;
const NOW = 1_000_000;
const fingerprint = (toolName: string, input: unknown) => `${toolName}:${JSON.stringify(input)}`;
const inMode = (mode: ShuntMode): ShuntSessionState => ({ ...emptyShuntSessionState(), mode });
const audits = (effects: readonly ShuntEffect[]) =>
	effects.flatMap((effect) => (effect.type === "audit" ? [effect.entry] : []));
const types = (effects: readonly ShuntEffect[]) => effects.map((effect) => effect.type);

let tokens = 0;
const call = (state: ShuntSessionState, input: unknown, extra: { builtin?: boolean; id?: string } = {}) =>
	reduceShuntToolCall(state, {
		toolName: "read",
		toolCallId: extra.id ?? "c1",
		input,
		builtin: extra.builtin ?? true,
		config,
		now: NOW,
		fingerprint,
		newToken: () => `cst_${String(++tokens).padStart(12, "0")}`,
	});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");
const result = (
	state: ShuntSessionState,
	text: string,
	extra: { id?: string; input?: unknown; toolName?: string; builtin?: boolean; parent?: string } = {},
) =>
	reduceShuntToolResult(state, {
		toolName: extra.toolName ?? "read",
		toolCallId: extra.id ?? "c1",
		parentToolCallId: extra.parent,
		builtin: extra.builtin ?? true,
		isError: false,
		content: [{ type: "text", text }],
		input: extra.input ?? { path: "a" },
		config,
		now: NOW,
		fingerprint,
		newSimulatedId: () => "sim_000000000001",
	});

/** Enforce with one open grant for `GRANTED_INPUT` (blocked, then allowed by the user). */
const GRANTED_INPUT = { path: "a", limit: 900 };
const granted = (): ShuntSessionState => {
	const blocked = call(inMode("enforce"), GRANTED_INPUT);
	const token = blocked.result.kind === "block" ? /cst_\d{12}/.exec(blocked.result.reason)?.[0] : undefined;
	return reduceShuntAllow(blocked.state, { token: token ?? "", maxLines: 100, maxBytes: 60_000, now: NOW }).state;
};
/** Enforce with a consumed grant whose result has not come back yet. */
const consumed = (): ShuntSessionState => call(granted(), GRANTED_INPUT, { id: "g1" }).state;

describe("reduceShuntToolCall", () => {
	it.each<[string, ShuntMode, unknown, boolean, string, string[]]>([
		["off lets everything run", "off", { path: "a", limit: 5000 }, true, "allow", []],
		["a call within the cap runs", "enforce", { path: "a", limit: 350 }, true, "allow", []],
		["an undeclared read runs", "enforce", { path: "a" }, true, "allow", []],
		["enforce blocks an oversized built-in read", "enforce", { path: "a", limit: 351 }, true, "block", ["blocked"]],
		["observe counts it as would-block", "observe", { path: "a", limit: 351 }, true, "allow", ["would-block"]],
		["a same-named non-built-in is uncovered", "enforce", { path: "a", limit: 351 }, false, "allow", ["uncovered"]],
	])("%s", (_name, mode, input, builtin, kind, events) => {
		const step = call(inMode(mode), input, { builtin });
		expect(step.result.kind).toBe(kind);
		expect(audits(step.effects).map((entry) => entry.event)).toEqual(events);
		for (const entry of audits(step.effects)) expect(entry.mode).toBe(mode);
	});

	it("counts, marks and words a block without the path", () => {
		const blocked = call(inMode("enforce"), { path: "/secret/file", limit: 900 });
		expect(blocked.state.counters.blocked).toBe(1);
		expect(blocked.result.kind === "block" && blocked.result.reason).toMatch(/cst_\d{12}/);
		expect(blocked.result.kind === "block" && blocked.result.reason).not.toContain("/secret");
		const observed = call(inMode("observe"), { path: "a", limit: 900 }, { id: "o1" });
		expect(observed.state.counters.wouldBlock).toBe(1);
		expect([...observed.state.wouldBlockCalls]).toEqual(["o1"]);
	});

	it("consumes a user grant once and narrows the call to it", () => {
		const input = { path: "a", limit: 900 };
		const blocked = call(inMode("enforce"), input);
		const token = blocked.result.kind === "block" ? /cst_\d{12}/.exec(blocked.result.reason)?.[0] : undefined;
		expect(token).toBeDefined();
		const granted = reduceShuntAllow(blocked.state, { token: token ?? "", maxLines: 100, maxBytes: 60_000, now: NOW });
		expect(audits(granted.effects).map((entry) => entry.event)).toEqual(["exception-granted"]);
		expect(granted.effects.at(-1)).toMatchObject({ type: "notify", level: "info" });
		const admitted = call(granted.state, input, { id: "c2" });
		expect(admitted.result).toEqual({ kind: "allow", narrow: { limit: 100 } });
		expect(admitted.state.counters.exceptions).toBe(1);
		expect(audits(admitted.effects).map((entry) => entry.event)).toEqual(["exception-consumed"]);
		// The grant was used: the same call is blocked again, with a new token.
		expect(call(admitted.state, input, { id: "c3" }).result.kind).toBe("block");
		const unknown = reduceShuntAllow(admitted.state, { token: token ?? "", maxLines: 100, maxBytes: 1, now: NOW });
		expect(unknown.effects).toEqual([
			{ type: "notify", message: "context-shunt: unknown, used or expired token", level: "warning" },
		]);
	});
});

describe("reduceShuntToolResult and reduceShuntArchived", () => {
	it.each<[string, ShuntMode, string, string | undefined]>([
		["off passes", "off", lines(400), undefined],
		["a small result passes", "enforce", lines(10), undefined],
		["enforce preserves an over-limit read", "enforce", lines(400), "preserve"],
		["observe simulates it", "observe", lines(400), undefined],
	])("%s", (_name, mode, text, kind) => {
		const step = result(inMode(mode), text);
		expect(step.result?.kind).toBe(kind);
	});

	it("observe counts a would-bound result once per call, not after a would-block", () => {
		const simulated = result(inMode("observe"), lines(400));
		expect(simulated.state.counters.wouldBound).toBe(1);
		expect(simulated.state.simulatedLedger.artifacts).toHaveLength(1);
		expect(audits(simulated.effects)).toEqual([
			{ mode: "observe", event: "would-bound", category: "read", counters: { bytes: utf8ByteLength(lines(400)) } },
		]);
		const marked = call(inMode("observe"), { path: "a", limit: 900 }, { id: "w1" }).state;
		const after = result(marked, lines(400), { id: "w1" });
		expect(after.state.counters.wouldBound).toBe(0);
		expect(after.state.wouldBlockCalls.size).toBe(0);
	});

	it("leaves configured-tool results of nested (codemode) calls intact", () => {
		const tools: ContextShuntConfig["tools"] = [["my_*", "shunt"]];
		const state = inMode("enforce");
		const big = "x".repeat(40_000);
		const base = { toolName: "my_tool", builtin: false, isError: false, content: [{ type: "text", text: big }] };
		const shared = { toolCallId: "m1", input: {}, config: { ...config, tools }, now: NOW, fingerprint };
		const top = reduceShuntToolResult(state, { ...base, ...shared, newSimulatedId: () => "sim_1" });
		expect(top.result?.kind).toBe("preserve");
		const nested = reduceShuntToolResult(state, {
			...base,
			...shared,
			parentToolCallId: "p1",
			newSimulatedId: () => "sim_1",
		});
		expect(nested.result).toBeUndefined();
	});

	const preserved = () => {
		const step = result(inMode("enforce"), lines(400));
		if (step.result === undefined) throw new Error("expected a preserve request");
		return { state: step.state, request: step.result };
	};

	it("turns a saved artifact into a receipt and keeps Pi's fullOutputPath", () => {
		const { state, request } = preserved();
		const step = reduceShuntArchived(state, {
			request,
			outcome: { saved: { id: "csa_0123456789abcdef01234567", expiresAt: NOW + 60_000 } },
			aborted: false,
			details: { fullOutputPath: "/tmp/pi-out", truncation: { content: "copy" } },
			config,
		});
		expect(step.state.counters.bounded).toBe(1);
		expect(audits(step.effects)).toEqual([
			{ mode: "enforce", event: "bounded", category: "read", counters: { bytes: request.bytes, lines: 400 } },
		]);
		expect(step.result.kind).toBe("replace");
		if (step.result.kind !== "replace") return;
		expect(step.result.replacement.content[0]?.text).toContain("csa_0123456789abcdef01234567");
		expect(step.result.replacement.details).toEqual({
			contextShunt: { artifactId: "csa_0123456789abcdef01234567", source: "read", bytes: request.bytes, lines: 400 },
			fullOutputPath: "/tmp/pi-out",
		});
	});

	it("releases the artifact of an aborted call and counts nothing", () => {
		const { state, request } = preserved();
		const step = reduceShuntArchived(state, {
			request,
			outcome: { saved: { id: "csa_1", expiresAt: NOW } },
			aborted: true,
			details: undefined,
			config,
		});
		expect(step).toEqual({ state, effects: [], result: { kind: "release", id: "csa_1" } });
	});

	it.each<[string, "read" | "tool", boolean, string]>([
		["a built-in write failure leaves the result", "read", false, "leave"],
		["a configured tool over its cap is refused whole", "tool", true, "replace"],
	])("%s", (_name, source, refused, kind) => {
		const { state, request } = preserved();
		const step = reduceShuntArchived(state, {
			request: { ...request, source, toolName: source === "tool" ? "my_tool" : "read" },
			outcome: refused ? { failure: "quota-exhausted", refusal: "artifact-too-large" } : { failure: "write-failed" },
			aborted: false,
			details: undefined,
			config,
		});
		expect(step.state.counters.archiveFailures).toBe(1);
		expect(step.result.kind).toBe(kind);
		expect(audits(step.effects).map((entry) => entry.event)).toEqual(
			refused ? ["archive-failed", "refused"] : ["archive-failed"],
		);
		if (step.result.kind === "replace") expect(step.result.replacement.isError).toBe(true);
	});
});

describe("reduceShuntContext", () => {
	const turn = (i: number) => [
		{ role: "assistant", content: [] },
		{
			role: "toolResult",
			toolCallId: `t${i}`,
			toolName: "read",
			isError: false,
			content: [{ type: "text", text: `${i}`.repeat(2000) }],
		},
	];
	const messages = [{ role: "user", content: "go" }, ...Array.from({ length: 8 }, (_, i) => turn(i)).flat()];
	const settings = { enabled: true, keepTurns: 2, atBytes: 4000, atContextShare: 0.5 };
	const sizeOf = (_id: string, text: string) => ({ bytes: utf8ByteLength(text), lines: countContentLines(text) });

	it("ages one batch, audits it with counts, and keeps the same plan between batches", () => {
		const first = reduceShuntContext(inMode("off"), { messages, settings, contextShare: undefined, sizeOf });
		expect(first.result).toHaveLength(messages.length);
		expect(first.state.aging.aged).toBeGreaterThan(0);
		expect(first.state.aging.plan.batches).toBe(1);
		expect(audits(first.effects)).toEqual([
			{
				mode: "off",
				event: "aged",
				counters: { results: first.state.aging.aged, bytes: first.state.aging.keptOutBytes },
			},
		]);
		const second = reduceShuntContext(first.state, { messages, settings, contextShare: undefined, sizeOf });
		expect(second.effects).toEqual([]);
		expect(second.state.aging.plan).toBe(first.state.aging.plan);
		expect(JSON.stringify(second.result)).toBe(JSON.stringify(first.result));
	});

	it("leaves the request alone below the thresholds", () => {
		const step = reduceShuntContext(inMode("enforce"), {
			messages,
			settings: { ...settings, atBytes: 10_000_000 },
			contextShare: 0.1,
			sizeOf,
		});
		expect(step.result).toBeUndefined();
		expect(step.effects).toEqual([]);
	});
});

describe("lifecycle and command reducers", () => {
	const aged = () =>
		reduceShuntContext(inMode("enforce"), {
			messages: [
				{ role: "user", content: "go" },
				...Array.from({ length: 6 }, (_, i) => [
					{ role: "assistant", content: [] },
					{
						role: "toolResult",
						toolCallId: `t${i}`,
						toolName: "read",
						isError: false,
						content: [{ type: "text", text: "x".repeat(3000) }],
					},
				]).flat(),
			],
			settings: { enabled: true, keepTurns: 1, atBytes: 1000, atContextShare: 0.5 },
			contextShare: undefined,
			sizeOf: (_id, text) => ({ bytes: text.length, lines: 1 }),
		}).state;

	it("session_start restores the branch's mode, else config's, and starts aging over", () => {
		const state = aged();
		expect(state.aging.aged).toBeGreaterThan(0);
		const restored = reduceShuntSessionStart(state, { hooks: true, restoredMode: "observe", configMode: "enforce" });
		expect(restored.state.mode).toBe("observe");
		expect(restored.state.aging.aged).toBe(0);
		expect(types(restored.effects)).toEqual(["sync-tools", "show-footer"]);
		expect(reduceShuntSessionStart(state, { hooks: true, restoredMode: undefined, configMode: "off" }).state.mode).toBe(
			"off",
		);
		const gated = reduceShuntSessionStart(state, { hooks: false, restoredMode: undefined, configMode: "off" });
		expect(gated.state.mode).toBe("enforce");
		expect(gated.effects).toEqual([]);
	});

	it("session_tree lapses exceptions under the old mode, forgets marks and aging, restores the mode", () => {
		const blocked = granted();
		const withMark = { ...blocked, wouldBlockCalls: new Set(["w1"]), aging: aged().aging };
		const step = reduceShuntSessionTree(withMark, { configValid: true, restoredMode: "observe", configMode: "off" });
		expect(types(step.effects)).toEqual(["cancel-reader", "audit", "sync-tools", "show-footer"]);
		expect(audits(step.effects)).toEqual([{ mode: "enforce", event: "exception-lapsed", category: "branch-changed" }]);
		expect(step.state.mode).toBe("observe");
		expect(step.state.wouldBlockCalls.size).toBe(0);
		expect(step.state.aging.aged).toBe(0);
		const invalid = reduceShuntSessionTree(withMark, { configValid: false, restoredMode: "off", configMode: "off" });
		expect(invalid.state.mode).toBe("enforce");
		expect(types(invalid.effects)).toEqual(["cancel-reader", "audit"]);
	});

	it("session_compact starts aging over and keeps the rest", () => {
		const state = aged();
		const step = reduceShuntSessionCompact(state);
		expect(step.state).toEqual({ ...state, aging: { plan: { aged: [], batches: 0 }, aged: 0, keptOutBytes: 0 } });
	});

	it("agent_end lapses exceptions only with a valid config, and always forgets marks", () => {
		const blocked = { ...consumed(), wouldBlockCalls: new Set(["w"]) };
		const valid = reduceShuntAgentEnd(blocked, { configValid: true });
		expect(audits(valid.effects)).toEqual([{ mode: "enforce", event: "exception-lapsed", category: "agent-ended" }]);
		expect(valid.state.wouldBlockCalls.size).toBe(0);
		const invalid = reduceShuntAgentEnd(blocked, { configValid: false });
		expect(invalid.effects).toEqual([]);
		expect(invalid.state.exceptions).toBe(blocked.exceptions);
	});

	it("session_shutdown cancels the reader and drops exceptions and the simulated ledger", () => {
		const observed = result(inMode("observe"), lines(400)).state;
		const step = reduceShuntShutdown(observed);
		expect(step.effects).toEqual([{ type: "cancel-reader" }]);
		expect(step.state.simulatedLedger.artifacts).toHaveLength(0);
		expect(step.state.counters).toBe(observed.counters);
	});

	it.each<[ShuntMode, ShuntMode, string[]]>([
		["off", "off", ["notify"]],
		["off", "enforce", ["persist-mode", "audit", "sync-tools", "show-footer", "notify"]],
		["enforce", "observe", ["cancel-reader", "persist-mode", "audit", "sync-tools", "show-footer", "notify"]],
	])("mode %s -> %s", (from, to, expected) => {
		const step = reduceShuntModeCommand(inMode(from), to);
		expect(types(step.effects)).toEqual(expected);
		expect(step.state.mode).toBe(to);
		expect(step.effects.at(-1)).toEqual({ type: "notify", message: `context-shunt: mode ${to}`, level: "info" });
		for (const entry of audits(step.effects)) expect(entry).toEqual({ mode: to, event: "mode-changed" });
	});

	it("reset zeroes counters, lapses exceptions and forgets observe's ledger", () => {
		const blocked = granted();
		const step = reduceShuntReset({ ...blocked, wouldBlockCalls: new Set(["w"]) });
		expect(step.state.counters.blocked).toBe(0);
		expect(step.state.wouldBlockCalls.size).toBe(0);
		expect(types(step.effects)).toEqual(["cancel-reader", "audit", "clear-artifacts", "audit", "notify"]);
		expect(audits(step.effects).map((entry) => entry.event)).toEqual(["exception-lapsed", "reset"]);
	});
});

describe("modeOnBranch and planShuntToolActivation", () => {
	const entry = (data: unknown, customType = "context-shunt.mode") => ({ type: "custom", customType, data });

	it.each<[string, unknown[], ShuntMode | undefined]>([
		["an empty branch has no mode", [], undefined],
		["the latest valid entry wins", [entry({ v: 1, mode: "observe" }), entry({ v: 1, mode: "enforce" })], "enforce"],
		["invalid later entries are skipped", [entry({ v: 1, mode: "observe" }), entry({ v: 1, mode: "loud" })], "observe"],
		[
			"other custom entries and messages are ignored",
			[entry({ v: 1, mode: "observe" }, "other"), { type: "message" }, null],
			undefined,
		],
	])("%s", (_name, branch, mode) => {
		expect(modeOnBranch(branch)).toBe(mode);
	});

	const names = ["context_shunt_recover", "context_shunt_delegate"];
	it.each<[string, boolean, boolean, string[], unknown]>([
		["registers once when first wanted", true, false, [], { kind: "register" }],
		["does nothing when never wanted", false, false, ["read"], { kind: "none" }],
		["does nothing when already active", true, true, ["read", ...names], { kind: "none" }],
		[
			"reactivates missing tools at the end",
			true,
			true,
			["read", "context_shunt_recover"],
			{ kind: "set-active", tools: ["read", "context_shunt_recover", "context_shunt_delegate"] },
		],
		[
			"deactivates them, keeping the others in order",
			false,
			true,
			["context_shunt_recover", "read", "bash", "context_shunt_delegate"],
			{ kind: "set-active", tools: ["read", "bash"] },
		],
		["does nothing when already inactive", false, true, ["read"], { kind: "none" }],
	])("%s", (_name, want, registered, active, expected) => {
		expect(planShuntToolActivation({ want, registered, active, names })).toEqual(expected);
	});
});

describe("reduceShuntCommand", () => {
	const status = {
		artifacts: 2,
		artifactBytes: 70_000,
		reader: "off" as const,
		configValid: true,
		agingEnabled: false,
	};
	const run = (command: Parameters<typeof reduceShuntCommand>[1]["command"], facts = status) =>
		reduceShuntCommand(granted(), { command, now: NOW, status: facts });

	it("answers status with counts whatever the config", () => {
		for (const configValid of [true, false]) {
			const step = run({ kind: "status" }, { ...status, configValid });
			expect(step.effects).toHaveLength(1);
			const [notice] = step.effects;
			expect(notice).toMatchObject({ type: "notify", level: "info" });
			expect(notice?.type === "notify" && notice.message).toContain("enforce");
		}
	});

	it.each<[string, Parameters<typeof reduceShuntCommand>[1]["command"], string[]]>([
		[
			"mode",
			{ kind: "mode", mode: "observe" },
			["cancel-reader", "audit", "persist-mode", "audit", "sync-tools", "show-footer", "notify"],
		],
		["reset", { kind: "reset" }, ["cancel-reader", "audit", "clear-artifacts", "audit", "notify"]],
		["allow", { kind: "allow", token: "cst_unknown", maxLines: 1, maxBytes: 1 }, ["notify"]],
	])("%s with a valid config", (_name, command, expected) => {
		expect(types(run(command).effects)).toEqual(expected);
	});

	it.each<Parameters<typeof reduceShuntCommand>[1]["command"]>([
		{ kind: "mode", mode: "off" },
		{ kind: "reset" },
		{ kind: "allow", token: "cst_000000000001", maxLines: 1, maxBytes: 1 },
	])("refuses %j with an invalid config and changes nothing", (command) => {
		const before = granted();
		const step = reduceShuntCommand(before, { command, now: NOW, status: { ...status, configValid: false } });
		expect(step.state).toBe(before);
		expect(step.effects).toEqual([
			{
				type: "notify",
				message: "context-shunt is inactive for this session: its configuration is invalid.",
				level: "warning",
			},
		]);
	});
});

describe("shuntReaderStatus", () => {
	const model = { kind: "model" as const, provider: "faux", model: "r" };
	it.each<[string, boolean, ContextShuntConfig["reader"]["source"], string]>([
		["off by config", false, model, "off"],
		["ready with a named model", true, model, "ready"],
		["unavailable with no source", true, { kind: "none" }, "unavailable"],
		["unavailable with a role and no delegation state", true, { kind: "role", role: "small" }, "unavailable"],
	])("%s", (_name, enabled, source, expected) => {
		expect(shuntReaderStatus({ enabled, source }, undefined)).toBe(expected);
	});
});
