// Unit and property tests of the minimize domain: config, planning, receipts, fallbacks, details, notify, status.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	boundOneLine,
	buildBoundedInlineResult,
	buildFallbackBlock,
	buildMinimizedResult,
	buildNotifyRewrite,
	buildReceiptLine,
	countOutputLines,
	DETAILS_OUTPUT_NOT_SAVED,
	type DelegatedOutput,
	describePersistFailure,
	EMBEDDED_OUTPUT_MARKER,
	formatOutputMinimizerStatus,
	formatOutputReference,
	OUTPUT_MINIMIZER_DEFAULTS,
	type OutputMinimizerConfig,
	OutputMinimizerConfigSchema,
	outputFileName,
	outputMinimizerCounted,
	outputSessionFolder,
	type PersistOutcome,
	parseNotifyText,
	planNotifyRewrite,
	planToolResult,
	projectDelegationDetails,
	resolveChildStatus,
	resolveOutputMinimizerConfig,
	summarizeOutputMinimizer,
	type ToolResultFacts,
} from "../src/minimize/index.js";
import { utf8ByteLength } from "../src/text.js";
import { isWellFormed, wellFormedText } from "./arbitraries.js";

const config: OutputMinimizerConfig = OUTPUT_MINIMIZER_DEFAULTS;
const runs = { numRuns: 300 };
const LONG = Array.from({ length: 300 }, (_, i) => `line ${i}: the child explains finding number ${i} in detail.`).join(
	"\n",
);

function facts(overrides: Partial<ToolResultFacts> = {}): ToolResultFacts {
	return {
		toolName: "subagent",
		input: { agent: "scout", task: "t" },
		content: [{ type: "text", text: `Run fan-out: 1/64 used, 63 remaining\n${LONG}\nMission: abc (completed)` }],
		details: { mode: "single", runId: "r1", results: [{ agent: "scout", exitCode: 0, finalOutput: LONG }] },
		isError: false,
		...overrides,
	};
}

function child(overrides: Partial<DelegatedOutput> = {}): DelegatedOutput {
	return { position: 0, kind: "child", resultIndex: 0, label: "scout", status: "completed", text: LONG, ...overrides };
}

const saved = (path = "/x/0001-scout.md"): PersistOutcome => ({ ok: true, path, bytes: 10, lines: 2, reused: false });
const failed: PersistOutcome = { ok: false, intendedPath: "/x/0001-scout.md", stage: "write", code: "ENOTDIR" };

describe("config", () => {
	it("applies defaults when no file exists", () => {
		expect(resolveOutputMinimizerConfig({})).toEqual({ ok: true, value: OUTPUT_MINIMIZER_DEFAULTS });
		expect(OUTPUT_MINIMIZER_DEFAULTS).toMatchObject({
			mode: "reference",
			fallbackLines: 80,
			fallbackBytes: 4096,
			minBytesToMinimize: 512,
		});
	});

	it("lets a present project layer replace the global one", () => {
		const resolved = resolveOutputMinimizerConfig({
			global: { mode: "off", fallbackLines: 10 },
			project: { minBytesToMinimize: 0 },
		});
		expect(resolved).toEqual({ ok: true, value: { ...OUTPUT_MINIMIZER_DEFAULTS, minBytesToMinimize: 0 } });
	});

	it.each([
		[{ mode: "on" }, 'global config: mode: expected one of "off", "reference"'],
		[{ fallbackLines: 81 }, "global config: fallbackLines: expected integer between 1 and 80"],
		[{ fallbackBytes: 8192 }, "global config: fallbackBytes: expected integer between 256 and 4096"],
		[
			{ tools: ["sub agent"] },
			'global config: tools.0: expected string: a name such as "subagent" (letters, digits, _ . : -, no spaces, at most 64 characters)',
		],
		[{ extra: true }, "global config: config: unknown key"],
		["nope", "global config: config: expected object"],
	])("rejects %j with a concise error that echoes no value", (global, message) => {
		const resolved = resolveOutputMinimizerConfig({ global });
		expect(resolved.ok).toBe(false);
		if (!resolved.ok) {
			expect(resolved.error.startsWith(message)).toBe(true);
			expect(resolved.error).not.toContain("sub agent");
		}
	});

	it("reports load errors and invalid project layers", () => {
		expect(resolveOutputMinimizerConfig({ errors: ["global config: invalid JSON"] })).toEqual({
			ok: false,
			error: "global config: invalid JSON",
		});
		const project = resolveOutputMinimizerConfig({ global: {}, project: { minBytesToMinimize: -1 } });
		expect(project.ok ? "" : project.error).toMatch(/^project config: minBytesToMinimize/);
	});

	it("exports a JSON schema without unknown keys", () => {
		expect((OutputMinimizerConfigSchema as unknown as { additionalProperties?: unknown }).additionalProperties).toBe(
			false,
		);
		expect(Object.keys(OutputMinimizerConfigSchema.properties)).toEqual([
			"$schema",
			"mode",
			"tools",
			"notifyTypes",
			"fallbackLines",
			"fallbackBytes",
			"minBytesToMinimize",
		]);
	});
});

describe("format helpers", () => {
	it.each([
		["", 0],
		["a", 1],
		["a\n", 1],
		["a\nb", 2],
		["a\r\nb\r\n", 2],
		["a\rb", 2],
		["\n\n", 2],
	])("countOutputLines(%j) = %i", (text, lines) => {
		expect(countOutputLines(text)).toBe(lines);
	});

	it("formats references with exact bytes and singular units", () => {
		expect(formatOutputReference("/a.md", 1, 1)).toBe(
			"Output saved to: /a.md (1 byte, 1 line). Read this file if needed.",
		);
		expect(formatOutputReference("/a.md", 2048, 3)).toBe(
			"Output saved to: /a.md (2048 bytes, 3 lines). Read this file if needed.",
		);
	});

	it("builds safe file and folder names", () => {
		expect(outputFileName(7, "Code Reviewer/../x")).toBe("0007-code-reviewer-..-x.md");
		expect(outputFileName(12345, "")).toBe("12345-child.md");
		expect(outputFileName(-1, "../..")).toBe("0000-child.md");
		expect(outputSessionFolder("01a2-ff")).toBe("01a2-ff");
		expect(outputSessionFolder("../etc")).toBe("etc");
		expect(outputSessionFolder(undefined)).toBe("session");
		fc.assert(
			fc.property(fc.string(), fc.nat(), (label, seq) => {
				const name = outputFileName(seq, label);
				expect(name).toMatch(/^\d{4,}-[a-z0-9._-]+\.md$/);
				expect(name).not.toContain("/");
				expect(name.includes("..md")).toBe(false);
			}),
			runs,
		);
	});

	it("bounds one line on a code point boundary", () => {
		fc.assert(
			fc.property(wellFormedText, fc.integer({ min: 3, max: 200 }), (text, max) => {
				const line = boundOneLine(text, max);
				expect(utf8ByteLength(line)).toBeLessThanOrEqual(Math.max(max, 3));
				expect(line).not.toMatch(/[\r\n]/);
				expect(isWellFormed(line)).toBe(true);
			}),
			runs,
		);
	});

	it("describes persistence failures by stage and errno code only", () => {
		expect(describePersistFailure("write", "ENOTDIR")).toBe("write failed (ENOTDIR)");
		expect(describePersistFailure("read", "/etc/passwd")).toBe("read failed (unknown)");
	});
});

describe("planToolResult", () => {
	it("minimizes a large single result and keeps the frame lines", () => {
		const plan = planToolResult(facts(), config);
		expect(plan).toMatchObject({
			action: "minimize",
			surface: "single",
			headLines: ["Run fan-out: 1/64 used, 63 remaining"],
			tailLines: ["Mission: abc (completed)"],
		});
		if (plan.action === "minimize") {
			expect(plan.outputs).toHaveLength(1);
			expect(plan.outputs[0]).toMatchObject({ label: "scout", status: "completed", text: LONG, runId: "r1" });
		}
	});

	it.each([
		["another tool", facts({ toolName: "read" }), { action: "ignore", reason: "other-tool" }],
		[
			"mode off",
			facts(),
			{ action: "ignore", reason: "mode-off" },
			{ ...config, mode: "off" } as OutputMinimizerConfig,
		],
		[
			"management details",
			facts({ details: { mode: "management", results: [] } }),
			{ action: "ignore", reason: "management" },
		],
		["a management action", facts({ input: { action: "list" } }), { action: "ignore", reason: "management" }],
		[
			"an async launch receipt",
			facts({ details: { mode: "single", asyncId: "a1", results: [] } }),
			{ action: "ignore", reason: "launch-receipt" },
		],
		[
			"explicit inline",
			facts({ input: { agent: "a", outputMode: "inline", output: false } }),
			{ action: "passthrough", reason: "inline" },
		],
		[
			"small output",
			facts({ content: [{ type: "text", text: "ok" }], details: { results: [{ exitCode: 0, finalOutput: "ok" }] } }),
			{ action: "passthrough", reason: "small" },
		],
		["output: false", facts({ input: { output: false } }), { action: "bound" }],
		['output: "false"', facts({ input: { output: "false" } }), { action: "bound" }],
		["resume", facts({ input: { action: "resume", id: "r1" } }), { action: "minimize" }],
	] as Array<[string, ToolResultFacts, Record<string, unknown>, OutputMinimizerConfig?]>)(
		"plans %s",
		(_name, input, expected, cfg = config) => {
			expect(planToolResult(input, cfg)).toMatchObject(expected);
		},
	);

	it("treats a result without details as one child whose output is the whole text", () => {
		const plan = planToolResult(facts({ details: undefined, isError: true }), config);
		expect(plan).toMatchObject({ action: "minimize", outputs: [{ status: "failed", exitCode: 1 }] });
	});

	it("adds the workflow text as a last output in workflow mode", () => {
		const plan = planToolResult(
			facts({
				details: {
					mode: "workflow",
					results: [
						{ agent: "a", workflowKey: "k1", exitCode: 0, finalOutput: LONG },
						{ agent: "b", workflowKey: "k2", exitCode: 1, error: "boom\nstack", finalOutput: "partial" },
					],
				},
			}),
			config,
		);
		expect(plan).toMatchObject({
			action: "minimize",
			surface: "workflow",
			outputs: [
				{ kind: "child", workflowKey: "k1", status: "completed" },
				{ kind: "child", workflowKey: "k2", status: "failed", exitCode: 1, error: "boom stack" },
				{ kind: "workflow-text", resultIndex: -1 },
			],
		});
	});

	it.each([
		[{ exitCode: 0 }, "completed"],
		[{ exitCode: 2 }, "failed"],
		[{ exitCode: 1, stopped: true }, "stopped"],
		[{ exitCode: 0, interrupted: true }, "paused"],
		[{ detached: true }, "paused"],
		[{ exitCode: 1, timedOut: true }, "timed out"],
		[{ error: "x" }, "failed"],
		[{}, "completed"],
	])("resolves status of %j as %s", (record, status) => {
		expect(resolveChildStatus(record, { isError: false })).toBe(status);
	});

	it("never throws on hostile input", () => {
		fc.assert(
			fc.property(fc.anything(), fc.anything(), fc.anything(), (input, content, details) => {
				const plan = planToolResult({ toolName: "subagent", input, content, details, isError: false }, config);
				expect(["ignore", "passthrough", "bound", "minimize"]).toContain(plan.action);
			}),
			runs,
		);
	});
});

describe("receipts and fallbacks", () => {
	it("keeps every receipt line at or under 1 KiB not counting the path", () => {
		fc.assert(
			fc.property(
				fc.string({ maxLength: 3000 }),
				fc.string({ maxLength: 3000 }),
				fc.string({ maxLength: 600 }),
				fc.constantFrom("completed", "failed", "paused", "stopped", "timed out" as const),
				fc.string({ minLength: 1, maxLength: 400 }),
				(error, label, session, status, path) => {
					const output = child({
						label: boundOneLine(label, 64) || "x",
						status,
						error: boundOneLine(error, 300),
						sessionFile: boundOneLine(session, 400),
						runId: "r".repeat(128),
						workflowKey: "k".repeat(64),
					});
					const line = buildReceiptLine(
						output,
						{ ok: true, path, bytes: 123456789, lines: 99999, reused: false },
						"- ",
					);
					expect(utf8ByteLength(line) - utf8ByteLength(path)).toBeLessThanOrEqual(1024);
					expect(line).toContain(`Output saved to: ${path} (123456789 bytes, 99999 lines)`);
				},
			),
			runs,
		);
	});

	it("states recovery guidance for children that did not complete", () => {
		const line = buildReceiptLine(child({ status: "timed out", runId: "r9", error: "timed out after 60s" }), saved());
		expect(line).toMatch(/^scout: timed out\. Error: timed out after 60s\. Output saved to: /);
		expect(line).toContain(
			'Recovery: the child timed out; the saved output holds what it produced. Rerun with a longer timeout or resume it. Resume with subagent({ action: "resume", id: "r9"',
		);
		expect(buildReceiptLine(child(), saved())).not.toContain("Recovery");
	});

	it("bounds the fallback excerpt to a prefix of the output within the shared budget and claims no file", () => {
		fc.assert(
			fc.property(
				wellFormedText,
				fc.integer({ min: 1, max: 80 }),
				fc.integer({ min: 1, max: 4096 }),
				(text, lines, bytes) => {
					const budget = { lines, bytes };
					const block = buildFallbackBlock(child({ text }), failed as Extract<PersistOutcome, { ok: false }>, budget);
					expect(block).not.toContain("Output saved to");
					expect(block).toContain("The full output is unavailable");
					const [, ...rest] = block.split("\n");
					const excerpt = rest.slice(0, -1).join("\n");
					expect(text.startsWith(excerpt)).toBe(true);
					expect(utf8ByteLength(excerpt)).toBeLessThanOrEqual(bytes);
					expect(budget.bytes).toBeGreaterThanOrEqual(0);
					expect(budget.lines).toBeGreaterThanOrEqual(0);
				},
			),
			runs,
		);
	});

	it("shares one fallback budget across every failed output of a result", () => {
		const plan = planToolResult(
			facts({
				details: {
					mode: "workflow",
					results: [1, 2, 3].map((n) => ({ agent: `a${n}`, exitCode: 0, finalOutput: LONG })),
				},
			}),
			config,
		);
		if (plan.action !== "minimize") throw new Error("expected minimize");
		const built = buildMinimizedResult(
			plan,
			plan.outputs.map(() => failed),
			config,
		);
		expect(built.fallbacks).toBe(4);
		const excerptLines = built.text.split("\n").filter((line) => line.startsWith("line "));
		expect(excerptLines.length).toBeLessThanOrEqual(80);
		expect(built.text).not.toContain("Output saved to");
	});

	it("never inlines referenced output, whatever the text", () => {
		fc.assert(
			fc.property(fc.string({ minLength: 600, maxLength: 3000 }), (text) => {
				fc.pre(text.trim().length > 100);
				const plan = planToolResult(
					facts({
						content: [{ type: "text", text }],
						details: { results: [{ agent: "s", exitCode: 0, finalOutput: text }] },
					}),
					config,
				);
				if (plan.action !== "minimize") throw new Error("expected minimize");
				const built = buildMinimizedResult(plan, [saved()], config);
				expect(built.text.includes(text.trim().slice(0, 100))).toBe(false);
				expect(built.referenced).toBe(1);
			}),
			{ numRuns: 100 },
		);
	});

	it("keeps output: false within the bounds, cut on a UTF-8 boundary", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom("a", "é", "€", "😀", "漢", "\n", "\r\n", " "), { minLength: 0, maxLength: 9000 }),
				fc.integer({ min: 1, max: 80 }),
				fc.integer({ min: 256, max: 4096 }),
				(parts, lines, bytes) => {
					const text = parts.join("");
					const plan = planToolResult(
						facts({
							input: { output: false },
							content: [{ type: "text", text }],
							details: { results: [{ agent: "s", exitCode: 0, finalOutput: text }] },
						}),
						{ ...config, minBytesToMinimize: 0, fallbackLines: lines, fallbackBytes: bytes },
					);
					if (plan.action !== "bound") throw new Error("expected bound");
					const built = buildBoundedInlineResult(plan, { ...config, fallbackLines: lines, fallbackBytes: bytes });
					expect(utf8ByteLength(built.text)).toBeLessThanOrEqual(bytes);
					expect(built.text.split(/\r\n|\r|\n/).length).toBeLessThanOrEqual(lines);
					expect(isWellFormed(built.text)).toBe(true);
				},
			),
			runs,
		);
	});
});

describe("projectDelegationDetails", () => {
	it("removes raw output, keeps metadata, points results at the reference and redacts embedded previews", () => {
		const details = {
			mode: "workflow",
			runId: "r",
			truncation: { truncated: true },
			outputs: { a: LONG },
			progress: [{ recentOutput: [LONG] }],
			mission: { id: "m", summary: LONG.slice(0, 500) },
			workflow: {
				value: { a: LONG },
				console: [{ text: LONG }],
				emits: [],
				trace: [{ key: "a" }],
				receipt: { path: "/r" },
			},
			results: [
				{
					agent: "a",
					exitCode: 1,
					error: `bad\n${"x".repeat(5000)}`,
					finalOutput: LONG,
					messages: [{ role: "assistant" }],
					progress: { recentOutput: [LONG] },
					structuredOutput: { big: LONG },
					truncation: { text: LONG },
					usage: { input: 1 },
					sessionFile: "/s.jsonl",
					toolCalls: [{ name: "read" }],
					note: `prefix ${LONG.slice(0, 400)}`,
				},
			],
		};
		const outputs = [child({ label: "a" })];
		const projected = projectDelegationDetails(details, outputs, [saved("/o/0001-a.md")], "workflow");
		const text = JSON.stringify(projected);
		expect(text).not.toContain("finding number 150");
		expect(text).not.toContain("finding number 1 ");
		expect(projected).not.toHaveProperty("truncation");
		expect(projected).not.toHaveProperty("outputs");
		expect(projected.workflow).toEqual({ trace: [{ key: "a" }], receipt: { path: "/r" } });
		expect(projected.mission).toEqual({ id: "m" });
		const [result] = projected.results as Array<Record<string, unknown>>;
		expect(Object.keys(result ?? {}).sort()).toEqual(
			[
				"agent",
				"error",
				"exitCode",
				"finalOutput",
				"note",
				"outputReference",
				"savedOutputPath",
				"sessionFile",
				"toolCalls",
				"usage",
			].sort(),
		);
		expect(result?.note).toBe(EMBEDDED_OUTPUT_MARKER);
		expect(utf8ByteLength(String(result?.error))).toBeLessThanOrEqual(1024);
		expect(result?.outputReference).toEqual({
			path: "/o/0001-a.md",
			bytes: 10,
			lines: 2,
			message: formatOutputReference("/o/0001-a.md", 10, 2),
		});
		expect(projected.outputMinimizer).toEqual({
			v: 1,
			surface: "workflow",
			outputs: [
				{
					kind: "child",
					resultIndex: 0,
					status: "completed",
					delivery: "referenced",
					path: "/o/0001-a.md",
					bytes: 10,
					lines: 2,
				},
			],
		});
		// The reference line stands in for the text, so pi-subagents' row does not read "Done (no text output)".
		expect(result?.finalOutput).toBe(formatOutputReference("/o/0001-a.md", 10, 2));
		expect(details.results[0]?.finalOutput).toBe(LONG);
	});

	it("says the output was not saved where it failed or was bounded, and leaves an empty output empty", () => {
		const details = () => ({
			results: [
				{ agent: "a", exitCode: 0, finalOutput: LONG },
				{ agent: "b", exitCode: 0, finalOutput: "" },
			],
		});
		const outputs = [child({ label: "a", resultIndex: 0 }), child({ label: "b", resultIndex: 1, text: "" })];
		const empty: PersistOutcome = { ok: "empty" };
		for (const projected of [
			projectDelegationDetails(details(), outputs, [failed, empty], "workflow"),
			projectDelegationDetails(details(), outputs, [undefined, empty], "workflow", true),
		]) {
			const [a, b] = projected.results as Array<Record<string, unknown>>;
			expect(a?.finalOutput).toBe(DETAILS_OUTPUT_NOT_SAVED);
			expect(b).not.toHaveProperty("finalOutput");
			expect(JSON.stringify(projected)).not.toContain("finding number");
		}
	});
});

describe("notify", () => {
	const body = LONG;
	const single = `Background task failed: **scout** (1/2)\nWorkflow receipt: /w/receipt.json\n\n${body}\n\nWorkflow run: wf-1\nChild runs: a=c-1 (failed)\n\nSession file: /s/session.jsonl`;

	it("parses kept and body lines of a single completion", () => {
		const parsed = parseNotifyText(single);
		expect(parsed).toMatchObject({ kind: "single", status: "failed", agents: ["scout"] });
		const kept = parsed.lines.filter((line) => line.kept && line.text !== "").map((line) => line.text);
		expect(kept).toEqual([
			"Background task failed: **scout** (1/2)",
			"Workflow receipt: /w/receipt.json",
			"Workflow run: wf-1",
			"Child runs: a=c-1 (failed)",
			"Session file: /s/session.jsonl",
		]);
	});

	it("rewrites the body into a reference, or a bounded fallback that claims no file", () => {
		const plan = planNotifyRewrite({ customType: "subagent-notify", content: single }, config);
		if (plan.action !== "minimize") throw new Error("expected minimize");
		expect(plan.label).toBe("notify-scout");
		const rewritten = buildNotifyRewrite(plan, saved("/n/0001-notify-scout.md"), config);
		expect(rewritten.split("\n")).toEqual([
			"Background task failed: **scout** (1/2)",
			"Workflow receipt: /w/receipt.json",
			"",
			`[output-minimizer] Notification text kept out of context; the file holds the whole notification. ${formatOutputReference("/n/0001-notify-scout.md", 10, 2)}`,
			"",
			"Workflow run: wf-1",
			"Child runs: a=c-1 (failed)",
			"",
			"Session file: /s/session.jsonl",
		]);
		const fallback = buildNotifyRewrite(plan, failed, { ...config, fallbackLines: 5 });
		expect(fallback).toContain("could not be saved: write failed (ENOTDIR); intended path: /x/0001-scout.md");
		expect(fallback).not.toContain("Output saved to");
		expect(fallback).toContain("line 3: ");
		expect(fallback).not.toContain("line 5: ");
	});

	it("ignores other custom types and passes short bodies through", () => {
		expect(planNotifyRewrite({ customType: "other", content: single }, config)).toEqual({
			action: "ignore",
			reason: "other-type",
		});
		expect(
			planNotifyRewrite({ customType: "subagent-notify", content: "Background task completed: **a**\n\nok" }, config),
		).toMatchObject({
			action: "passthrough",
		});
		expect(planNotifyRewrite({ customType: "subagent-notify", content: single }, { ...config, mode: "off" })).toEqual({
			action: "ignore",
			reason: "mode-off",
		});
	});

	it("never keeps a body line in the rewrite, whatever the body", () => {
		fc.assert(
			fc.property(fc.array(fc.string({ minLength: 30, maxLength: 80 }), { minLength: 20, maxLength: 60 }), (lines) => {
				const unique = lines.map((line, i) => `body ${i} ${line.replace(/[\r\n]/g, " ")}`);
				const text = `Background task completed: **a**\n\n${unique.join("\n")}\n\nSession file: /s`;
				const plan = planNotifyRewrite({ customType: "subagent-notify", content: text }, config);
				if (plan.action !== "minimize") return;
				const rewritten = buildNotifyRewrite(plan, saved(), config);
				for (const line of plan.parsed.lines.filter((l) => !l.kept)) expect(rewritten).not.toContain(line.text);
			}),
			{ numRuns: 100 },
		);
	});
});

describe("status", () => {
	it("summarizes audit entries into counters and formats them without paths", () => {
		const entry = (event: string, extra: Record<string, unknown> = {}) => ({
			type: "custom",
			customType: "pi-policy.audit",
			data: { v: 1, ext: "output-minimizer", event, mode: "reference", ...extra },
		});
		const stats = summarizeOutputMinimizer([
			entry("minimized", {
				category: "single",
				counters: { outputs: 1, bytesKeptOutTotal: 100, referencesTotal: 1, reusedTotal: 0 },
			}),
			entry("minimized", {
				category: "notify",
				counters: { outputs: 1, bytesKeptOutTotal: 250, referencesTotal: 2, reusedTotal: 1 },
			}),
			entry("passthrough-inline", { category: "single" }),
			entry("bounded-fallback", { category: "workflow" }),
			entry("persistence-failed", { category: "workflow" }),
			{ type: "message" },
		]);
		expect(stats).toMatchObject({
			minimized: 2,
			bySurface: { single: 1, workflow: 0, notify: 1 },
			bytesKeptOut: 250,
			references: 2,
			reused: 1,
			fallbacks: 1,
			persistenceFailures: 1,
			passthrough: { inline: 1, small: 0, boundedInline: 0 },
		});
		expect(formatOutputMinimizerStatus(stats, "active")).toContain("bytes kept out of context: 250");
		expect(formatOutputMinimizerStatus(stats, "active")).not.toContain("/");
	});
});

describe("outputMinimizerCounted", () => {
	const entry = (event: string, category = "single") => ({
		type: "custom",
		customType: "pi-policy.audit",
		data: { v: 1, ext: "output-minimizer", event, mode: "reference", category },
	});

	it("is false for a branch with no entries, or only config and handler errors", () => {
		expect(outputMinimizerCounted(summarizeOutputMinimizer([]))).toBe(false);
		expect(outputMinimizerCounted(summarizeOutputMinimizer([entry("config-invalid"), entry("handler-error")]))).toBe(
			false,
		);
	});

	it.each([
		"minimized",
		"bounded-fallback",
		"persistence-failed",
		"passthrough-inline",
		"passthrough-small",
		"bounded-inline",
	])("is true after one %s entry", (event) => {
		expect(outputMinimizerCounted(summarizeOutputMinimizer([entry(event)]))).toBe(true);
	});
});
