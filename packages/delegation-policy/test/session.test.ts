// Acceptance in real Pi sessions (pi-harness, faux provider): placement, mid-turn changes, off, coexistence
// with other prompt-editing extensions, status and footer.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, createHarness, type Harness, type ModelRequest } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import delegationPolicy from "../src/index.ts";
import {
	blockCount,
	FAUX_MODELS,
	footer,
	lastNotification,
	leadingSections,
	leadingSystem,
	requestJson,
	startDelegationSession,
	systemMessages,
	systemText,
} from "./support.ts";

const sessions = sessionPerTest(startDelegationSession);
let harness: Harness | undefined;

function sectionsWithout(request: ModelRequest, name: string): Record<string, string | null> {
	const copy = { ...leadingSections(request) };
	delete copy[name];
	return copy;
}

/** Asserts the block is present exactly once, as the leading message's named section. */
function expectBlockOnce(request: ModelRequest): string {
	const section = leadingSections(request).delegation_policy;
	expect(typeof section).toBe("string");
	expect(section?.startsWith("<delegation_policy>\n")).toBe(true);
	expect(section?.endsWith("\n</delegation_policy>")).toBe(true);
	expect(blockCount(requestJson(request))).toBe(1);
	for (const later of systemMessages(request).slice(1)) {
		expect(JSON.stringify(later)).not.toContain("delegation_policy");
	}
	return section as string;
}

describe("block placement in a real session", () => {
	it("is present exactly once, in its named section, in every request of a multi-turn run", async () => {
		harness = await sessions.start({ files: { "notes.txt": "alpha\nbeta\n" } });
		harness.script(
			callTool("ls", { path: "." }),
			callTool("read", { path: "notes.txt" }),
			callTool("grep", { pattern: "beta" }),
			"done",
		);
		await harness.prompt("Look around.");
		harness.script("second answer");
		await harness.prompt("And again.");
		expect(harness.requests).toHaveLength(5);
		for (const request of harness.requests) {
			const section = expectBlockOnce(request);
			expect(section).toContain("Intensity: normal.");
			expect(section).toContain("model faux/faux-large, thinking high");
		}
		expect(footer(harness)).toBe("D:NORM A:OFF");
	});

	it("shows a change made during a turn in the very next request", { timeout: 20_000 }, async () => {
		harness = await sessions.start();
		const active = harness;
		harness.script(
			async () => {
				await active.session.prompt("/delegate aggressive");
				return callTool("ls", { path: "." });
			},
			async () => {
				await active.session.prompt("/delegate role small off");
				return callTool("ls", { path: "." });
			},
			"finished",
		);
		await harness.prompt("Work.");
		const [first, second, third] = harness.requests;
		expect(expectBlockOnce(first as ModelRequest)).toContain("Intensity: normal.");
		expect(expectBlockOnce(second as ModelRequest)).toContain("Intensity: aggressive.");
		expect(expectBlockOnce(second as ModelRequest)).toContain("model faux/faux-small");
		expect(expectBlockOnce(third as ModelRequest)).toContain("- Small: disabled; do not delegate to it.");
		expect(footer(harness)).toBe("D:AGG A:OFF");
	});

	it("off removes only the block: every other section, the content and the tools stay byte-identical", async () => {
		harness = await sessions.start();
		harness.script("on", "off");
		await harness.prompt("First.");
		await harness.command("/delegate off");
		await harness.prompt("Second.");
		const [on, off] = harness.requests as [ModelRequest, ModelRequest];
		expectBlockOnce(on);
		expect(blockCount(requestJson(off))).toBe(0);
		expect(Object.keys(leadingSections(off))).not.toContain("delegation_policy");
		expect(JSON.stringify(leadingSections(off))).toBe(JSON.stringify(sectionsWithout(on, "delegation_policy")));
		expect(JSON.stringify(leadingSystem(off).content)).toBe(JSON.stringify(leadingSystem(on).content));
		expect(JSON.stringify(leadingSystem(off).toolsAdded)).toBe(JSON.stringify(leadingSystem(on).toolsAdded));
		// No left-over patch message: the conversation is the only thing that grew.
		expect(systemMessages(off)).toHaveLength(1);
		expect(off.messages.slice(1, on.messages.length)).toEqual(on.messages.slice(1));
		expect(footer(harness)).toBe("D:OFF A:OFF");
	});

	it("a session that starts off sends exactly the sections of a session without the extension", async () => {
		const files = { "a.txt": "x\n" };
		const without = await createHarness({ models: FAUX_MODELS, files });
		try {
			without.script("plain");
			await without.prompt("Hi.");
			harness = sessions.track(await createHarness({ extensions: [delegationPolicy], models: FAUX_MODELS, files }));
			harness.script("plain");
			await harness.prompt("Hi.");
			const stripCwd = (request: ModelRequest, cwd: string) =>
				JSON.stringify(leadingSections(request)).split(cwd).join("<cwd>");
			expect(stripCwd(harness.requests[0] as ModelRequest, harness.cwd)).toBe(
				stripCwd(without.requests[0] as ModelRequest, without.cwd),
			);
			expect(systemMessages(harness.requests[0] as ModelRequest)).toHaveLength(1);
		} finally {
			await without.dispose();
		}
	});
});

/** Another extension that forces the whole prompt from the chained prompt, as the host docs show. */
function promptForcer(pi: ExtensionAPI): void {
	pi.on("before_agent_start", (event) => ({ systemPrompt: `${event.systemPrompt}\n\nFORCER: extra rules.` }));
}

/** Another extension that adds its own section and re-inserts a stale copy of the block into the content. */
function sectionEditor(pi: ExtensionAPI): void {
	pi.on("context_with_system", (event) => {
		const [head, ...rest] = event.messages as unknown as Array<Record<string, unknown>>;
		if (head?.role !== "system") return undefined;
		const sections = {
			...((head.sections ?? {}) as Record<string, string>),
			other_ext: "<other_ext>\nkeep me\n</other_ext>",
		};
		const content = `${String(head.content ?? "")}\n\n<delegation_policy>\nSTALE COPY\n</delegation_policy>`;
		return { messages: [{ ...head, sections, content }, ...rest] as never };
	});
}

describe("coexistence with other extensions that edit the prompt", () => {
	it.each([
		["forcer loaded first", { before: [promptForcer] }],
		["forcer loaded last", { after: [promptForcer] }],
	])("a forced prompt (%s) carries the block exactly once and keeps the other edit", async (_name, order) => {
		harness = await sessions.start(order);
		harness.script(callTool("ls", { path: "." }), "done");
		await harness.prompt("Go.");
		for (const request of harness.requests) {
			const text = systemText(request);
			expect(blockCount(requestJson(request))).toBe(1);
			expect(text).toContain("Intensity: normal.");
			expect(text.split("FORCER: extra rules.")).toHaveLength(2);
		}
	});

	it("a forced prompt drops the block once delegation is turned off (no stale copy survives)", async () => {
		harness = await sessions.start({ before: [promptForcer] });
		harness.script("on", "off");
		await harness.prompt("One.");
		await harness.command("/delegate off");
		await harness.prompt("Two.");
		expect(blockCount(requestJson(harness.requests[0] as ModelRequest))).toBe(1);
		expect(blockCount(requestJson(harness.requests[1] as ModelRequest))).toBe(0);
		expect(systemText(harness.requests[1] as ModelRequest)).toContain("FORCER: extra rules.");
	});

	it("a context_with_system editor loaded first cannot duplicate the block, and its own section survives", async () => {
		harness = await sessions.start({ before: [sectionEditor] });
		harness.script(callTool("ls", { path: "." }), "done");
		await harness.prompt("Go.");
		for (const request of harness.requests) {
			expectBlockOnce(request);
			expect(requestJson(request)).not.toContain("STALE COPY");
			expect(leadingSections(request).other_ext).toBe("<other_ext>\nkeep me\n</other_ext>");
		}
	});

	it("a second section added through before_agent_start keeps its place next to the block", async () => {
		const addSection = (pi: ExtensionAPI) => {
			pi.on("before_agent_start", (event) => {
				event.systemPromptOptions.sections.team_notes = "Use tabs.";
			});
		};
		harness = await sessions.start({ after: [addSection] });
		harness.script("ok");
		await harness.prompt("Go.");
		const request = harness.requests[0] as ModelRequest;
		// Seen missing once in a loaded compatibility run and never since: say what the session reported if it recurs.
		expect(
			leadingSections(request).delegation_policy,
			`sections ${JSON.stringify(Object.keys(leadingSections(request)))}, notifications ${JSON.stringify(harness.ui?.notifications())}, ${harness.requests.length} requests`,
		).toBeTypeOf("string");
		expectBlockOnce(request);
		expect(leadingSections(request).team_notes).toBe("<team_notes>\nUse tabs.\n</team_notes>");
	});
});

describe("status and footer", () => {
	it("shows provenance (default, global, session) and one thinking token per role", async () => {
		harness = await sessions.start();
		await harness.command("/delegate role medium faux/faux-1");
		await harness.command("/delegate thinking large low..high");
		await harness.command("/delegate status");
		const status = lastNotification(harness);
		expect(status).toContain(
			"D:NORM A:OFF (local validation passed; this does not prove that any delegation happened)",
		);
		expect(status).toContain("intensity normal [global]");
		expect(status).toContain("preference standard [default]");
		expect(status).toContain("small: faux/faux-small [global]");
		expect(status).toContain("medium: faux/faux-1 [session]");
		expect(status).toContain("uiDesign: not configured [default]");
		expect(status).toContain("thinking-large:low..high [session]");
		for (const role of ["small", "medium", "large", "uiDesign", "advisor"]) {
			expect(status.split(`thinking-${role}:`)).toHaveLength(2);
		}
		expect(footer(harness)).toBe("D:NORM A:OFF");
		await harness.command("/delegate orchestrator");
		expect(footer(harness)).toBe("D:ORCH A:OFF");
		await harness.command("/delegate reset");
		expect(footer(harness)).toBe("D:NORM A:OFF");
		await harness.command("/delegate status");
		expect(lastNotification(harness)).toContain("medium: faux/faux-medium [global]");
	});

	it("/delegate with no argument prints status outside the TUI, and bad arguments get a usage hint", async () => {
		harness = sessions.track(await createHarness({ extensions: [delegationPolicy], models: FAUX_MODELS }));
		await harness.command("/delegate");
		expect(lastNotification(harness)).toContain("delegation-policy D:OFF A:OFF (delegation is off)");
		await harness.command("/delegate role small not-a-reference");
		expect(lastNotification(harness)).toBe("delegation-policy: role: expected provider/model, off or default");
		await harness.command("/delegate frobnicate /secret/path");
		expect(lastNotification(harness)).not.toContain("/secret/path");
	});
});
