// The cited reader in a real Pi session, with the faux provider as the reader model.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, callTools, type ModelRequest, reply } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, makeLog, type ShuntSession, startShunt } from "./helpers.ts";

const READER = { mode: "enforce", reader: { enabled: true, model: "faux/faux-reader" } };
const MODELS = [{ id: "faux-1" }, { id: "faux-reader" }];
const PROMPT = "PROMPT-MARKER investigate the build";
let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

function sourceOf(request: ModelRequest): { sourceId: string; lineCount: number } {
	const text = request.messages.map((m) => JSON.stringify(m)).join("\n");
	const sourceId = /src_[0-9a-f]{16}/.exec(text)?.[0] ?? "missing";
	const lineCount = Number(/Line count: (\d+)/.exec(text)?.[1] ?? "0");
	return { sourceId, lineCount };
}

/** A reader turn: the reply is built from the source id and line count the reader saw. */
function readerTurn(build: (source: { sourceId: string; lineCount: number }) => unknown, seen?: ModelRequest[]) {
	return (request: ModelRequest) => {
		seen?.push(request);
		const answer = build(sourceOf(request));
		return typeof answer === "string" ? answer : JSON.stringify(answer);
	};
}

async function withArtifact(config: unknown = READER, extra: Parameters<typeof startShunt>[2] = {}, options = {}) {
	session = await startShunt(config as Record<string, unknown>, options, {
		models: MODELS,
		files: { "build.log": makeLog(600, 40, "build"), "other.log": makeLog(600, 40, "OTHER-ARTIFACT") },
		...extra,
	});
	const h = session.harness;
	h.script(callTool("bash", { command: "cat other.log" }), callTool("bash", { command: "cat build.log" }), "ok");
	await h.prompt(PROMPT);
	return { h, id: artifactIdOf(session.text(1)), s: session };
}

describe("context_shunt_delegate", () => {
	it("returns a validated answer with citations, sending only the snapshot, its id, line count and the question", async () => {
		const { h, id, s } = await withArtifact();
		const seen: ModelRequest[] = [];
		h.script(
			callTool("context_shunt_delegate", {
				artifactId: id,
				question: "Which line mentions build 42?",
				thinking: "off",
			}),
			readerTurn(
				({ sourceId }) => ({
					status: "answered",
					answer: "Line 42.",
					citations: [{ sourceId, startLine: 42, endLine: 42 }],
				}),
				seen,
			),
			"done",
		);
		await h.prompt("ask");
		const result = h.toolResults().at(-1)!;
		expect(result.isError).toBe(false);
		expect(JSON.parse(h.toolResultText(result))).toEqual({
			v: 1,
			artifactId: id,
			status: "answered",
			answer: "Line 42.",
			citations: [{ startLine: 42, endLine: 42 }],
		});
		const request = seen[0]!;
		expect(request.modelId).toBe("faux-reader");
		expect(request.messages.map((m) => m.role)).toEqual(["system", "user"]);
		const sent = h.requestText(request);
		expect(sent).toContain("Which line mentions build 42?");
		expect(sent).toContain("Line count: 600");
		expect(sent).toContain("42| build 42 ");
		expect(sent).not.toContain("PROMPT-MARKER");
		expect(sent).not.toContain("OTHER-ARTIFACT");
		expect(sent).not.toContain("cat build.log");
		expect(s.audit().at(-1)).toMatchObject({ event: "reader-answered", counters: { citations: 1 } });
	});

	it.each([
		[
			"a forged source id",
			({ lineCount }: { lineCount: number }) => ({
				status: "answered",
				answer: "x",
				citations: [{ sourceId: "src_ffffffffffffffff", startLine: 1, endLine: lineCount }],
			}),
		],
		[
			"an out-of-range citation",
			({ sourceId, lineCount }: { sourceId: string; lineCount: number }) => ({
				status: "answered",
				answer: "x",
				citations: [{ sourceId, startLine: 1, endLine: lineCount + 1 }],
			}),
		],
		[
			"17 citations",
			({ sourceId }: { sourceId: string }) => ({
				status: "answered",
				answer: "x",
				citations: Array.from({ length: 17 }, (_, i) => ({ sourceId, startLine: i + 1, endLine: i + 1 })),
			}),
		],
		["non-JSON", () => "RAW-REPLY-MARKER I think it is line 3."],
	])("turns %s into invalid-answer that never reaches the agent", async (_name, build) => {
		const { h, id, s } = await withArtifact();
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "What failed?", thinking: "off" }),
			readerTurn((source) => {
				const value = (build as (source: { sourceId: string; lineCount: number }) => unknown)(source);
				return typeof value === "string" ? value : { ...(value as object), marker: undefined };
			}),
			"done",
		);
		await h.prompt("ask");
		const result = h.toolResults().at(-1)!;
		expect(result.isError).toBe(true);
		expect(h.toolResultText(result)).toMatch(
			/^context_shunt_delegate failed: invalid-answer: the answer failed the contract/,
		);
		expect(h.requestText(h.requests.at(-1)!)).not.toContain("RAW-REPLY-MARKER");
		expect(s.audit().at(-1)).toMatchObject({ event: "reader-failed", category: "invalid-answer" });
	});

	it("accepts exactly 16 citations and insufficient-evidence without citations", async () => {
		const { h, id } = await withArtifact();
		h.script(
			callTools({ name: "context_shunt_delegate", args: { artifactId: id, question: "q1", thinking: "off" } }),
			readerTurn(({ sourceId }) => ({
				status: "answered",
				answer: "a",
				citations: Array.from({ length: 16 }, (_, i) => ({ sourceId, startLine: i + 1, endLine: i + 1 })),
			})),
			callTool("context_shunt_delegate", { artifactId: id, question: "q2", thinking: "off" }),
			readerTurn(() => ({ status: "insufficient-evidence", answer: "Not in the log.", citations: [] })),
			"done",
		);
		await h.prompt("ask");
		const [sixteen, insufficient] = h
			.toolResults()
			.slice(-2)
			.map((r) => JSON.parse(h.toolResultText(r)));
		expect(sixteen.citations).toHaveLength(16);
		expect(insufficient).toMatchObject({ status: "insufficient-evidence", citations: [] });
	});

	it("gives reader-busy to a second concurrent request", async () => {
		const { h, id } = await withArtifact();
		h.script(
			callTools(
				{ name: "context_shunt_delegate", args: { artifactId: id, question: "first", thinking: "off" } },
				{ name: "context_shunt_delegate", args: { artifactId: id, question: "second", thinking: "off" } },
			),
			async (request) => {
				await new Promise((resolve) => setTimeout(resolve, 150));
				const { sourceId } = sourceOf(request);
				return JSON.stringify({
					status: "answered",
					answer: "one",
					citations: [{ sourceId, startLine: 1, endLine: 1 }],
				});
			},
			"done",
		);
		await h.prompt("ask twice");
		const [first, second] = h.toolResults().slice(-2);
		expect(first?.isError).toBe(false);
		expect(h.toolResultText(second!)).toBe("context_shunt_delegate failed: reader-busy: another call is in flight.");
		expect(h.requests.filter((r) => r.modelId === "faux-reader")).toHaveLength(1);
	});

	it("gives reader-timed-out when the reader hangs past its local budget", async () => {
		const { h, id } = await withArtifact(READER, {}, { readerTimeoutMs: 200 });
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "slow?", thinking: "off" }),
			(request) =>
				new Promise((resolve) => {
					request.options?.signal?.addEventListener("abort", () => resolve(reply("LATE")));
					setTimeout(() => resolve(reply("LATE")), 5000);
				}),
			"done",
		);
		await h.prompt("ask");
		expect(session!.lastToolText()).toBe(
			"context_shunt_delegate failed: reader-timed-out: the call used its whole local time budget.",
		);
	});

	it("gives reader-cancelled when the user turns it off while the call is in flight", async () => {
		const { h, id } = await withArtifact();
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "slow?", thinking: "off" }),
			async () => {
				await h.command("/context-shunt off");
				return reply("too late");
			},
			"done",
		);
		await h.prompt("ask");
		expect(session!.lastToolText()).toBe(
			"context_shunt_delegate failed: reader-cancelled: revoked by a branch change, by off or reset, or by shutdown.",
		);
	});

	it("preserves an answer over answerMaxBytes as a separate artifact that recovery reads back", async () => {
		const { h, id } = await withArtifact({ ...READER, reader: { ...READER.reader, answerMaxBytes: 1024 } });
		const long = "A".repeat(3000);
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "Summarise", thinking: "off" }),
			readerTurn(({ sourceId }) => ({
				status: "answered",
				answer: long,
				citations: [{ sourceId, startLine: 1, endLine: 2 }],
			})),
			(request) => {
				const answerId =
					/csa_[0-9a-f]{24}/g.exec(h.requestText(request).split("The reader answer")[1] ?? "")?.[0] ?? "none";
				return callTool("context_shunt_recover", { artifactId: answerId, byteOffset: 0, maxBytes: 16384 });
			},
			"done",
		);
		await h.prompt("ask");
		const results = h.toolResults();
		const receipt = h.toolResultText(results.at(-2)!);
		expect(receipt).toContain("The reader answer was preserved as artifact");
		expect(receipt).not.toContain(long);
		const recovered = (results.at(-1)!.content as Array<{ text: string }>)[1]!.text;
		expect(JSON.parse(recovered)).toMatchObject({
			artifactId: id,
			answer: long,
			citations: [{ startLine: 1, endLine: 2 }],
		});
	});

	it("gives output-unavailable when an answer over the cap cannot be preserved (over 64 KiB)", async () => {
		const { h, id, s } = await withArtifact();
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "Everything", thinking: "off" }),
			readerTurn(({ sourceId }) => ({
				status: "answered",
				answer: "B".repeat(70_000),
				citations: [{ sourceId, startLine: 1, endLine: 1 }],
			})),
			"done",
		);
		await h.prompt("ask");
		expect(s.lastToolText()).toMatch(
			/^context_shunt_delegate failed: output-unavailable: .*\(the answer could not be preserved\)\.$/,
		);
		expect(
			s
				.audit()
				.map((e) => [e.event, e.category])
				.slice(-2),
		).toEqual([
			["archive-failed", "quota-exhausted"],
			["reader-failed", "output-unavailable"],
		]);
	});

	it("refuses bounded: not enforce, reader disabled, no model, unsupported thinking, long question, expired source", async () => {
		const { h, id } = await withArtifact();
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "q", thinking: "high" }),
			callTool("context_shunt_delegate", { artifactId: id, question: "q".repeat(2049), thinking: "off" }),
			callTool("context_shunt_delegate", {
				artifactId: "csa_000000000000000000000000",
				question: "q",
				thinking: "off",
			}),
			"done",
		);
		await h.prompt("ask");
		const texts = h
			.toolResults()
			.slice(-3)
			.map((r) => h.toolResultText(r));
		expect(texts[0]).toMatch(/^context_shunt_delegate failed: invalid-request: .*does not support this level/);
		expect(texts[1]).toMatch(/^context_shunt_delegate failed: invalid-request: .*at most 2048 UTF-8 bytes/);
		expect(texts[2]).toMatch(/^context_shunt_delegate failed: evidence-expired/);
		await h.command("/context-shunt observe");
		h.script(callTool("context_shunt_delegate", { artifactId: id, question: "q", thinking: "off" }), "done");
		await h.prompt("ask in observe");
		expect(session!.lastToolText()).toMatch(/^context_shunt_delegate failed: output-unavailable/);
		expect(h.requests.some((r) => r.modelId === "faux-reader")).toBe(false);
	});

	it("refuses when the reader is disabled or its model is missing", async () => {
		const { h, id } = await withArtifact({ mode: "enforce" });
		h.script(callTool("context_shunt_delegate", { artifactId: id, question: "q", thinking: "off" }), "done");
		await h.prompt("ask");
		expect(session!.lastToolText()).toMatch(/^context_shunt_delegate failed: output-unavailable/);
		await session!.dispose();
		const missing = await withArtifact({ mode: "enforce", reader: { enabled: true, model: "faux/not-there" } });
		missing.h.script(
			callTool("context_shunt_delegate", { artifactId: missing.id, question: "q", thinking: "off" }),
			"done",
		);
		await missing.h.prompt("ask");
		expect(session!.lastToolText()).toBe(
			"context_shunt_delegate failed: reader-unavailable: no reader model, or the model is not available.",
		);
	});
});

describe("reader.role through delegation-policy's bus event", () => {
	const delegationPolicyStandIn = (intensity: "off" | "normal") => (pi: ExtensionAPI) => {
		pi.events.on("pi-policy:delegation-state", (payload) => {
			if ((payload as { kind?: string }).kind !== "request") return;
			pi.events.emit("pi-policy:delegation-state", {
				v: 1,
				kind: "state",
				intensity,
				delegation: intensity === "off" ? "off" : "ok",
				advisor: "off",
				roles: { small: { provider: "faux", model: "faux-reader" }, medium: null },
			});
		});
	};
	const ROLE = { mode: "enforce", reader: { enabled: true, role: "small" } };

	it("resolves the role from the published state", async () => {
		const { h, id } = await withArtifact(ROLE, { before: [delegationPolicyStandIn("normal")] });
		h.script(
			callTool("context_shunt_delegate", { artifactId: id, question: "q", thinking: "off" }),
			readerTurn(({ sourceId }) => ({
				status: "answered",
				answer: "yes",
				citations: [{ sourceId, startLine: 1, endLine: 1 }],
			})),
			"done",
		);
		await h.prompt("ask");
		expect(JSON.parse(session!.lastToolText())).toMatchObject({ status: "answered" });
		expect(h.requests.some((r) => r.modelId === "faux-reader")).toBe(true);
	});

	it("is unavailable without an active intensity, or without delegation-policy", async () => {
		const { h, id } = await withArtifact(ROLE, { before: [delegationPolicyStandIn("off")] });
		h.script(callTool("context_shunt_delegate", { artifactId: id, question: "q", thinking: "off" }), "done");
		await h.prompt("ask");
		expect(session!.lastToolText()).toMatch(/^context_shunt_delegate failed: reader-unavailable/);
		await session!.dispose();
		const alone = await withArtifact(ROLE);
		alone.h.script(
			callTool("context_shunt_delegate", { artifactId: alone.id, question: "q", thinking: "off" }),
			"done",
		);
		await alone.h.prompt("ask");
		expect(session!.lastToolText()).toMatch(/^context_shunt_delegate failed: reader-unavailable/);
	});
});
