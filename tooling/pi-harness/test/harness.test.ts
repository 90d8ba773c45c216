import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { callTool, callTools, createHarness, type Harness, lastToolResultText, reply } from "../src/index.ts";
import { sessionPerTest } from "../src/vitest.ts";

const sessions = sessionPerTest();
let harness: Harness | undefined;

describe("pi-harness in a real AgentSession", () => {
	it("runs scripted turns, executes real tools and records every request the model was sent", async () => {
		harness = await sessions.start({ files: { "notes.txt": "alpha\nbeta\n" } });
		harness.script(callTool("read", { path: "notes.txt" }), (request) => {
			expect(request.toolNames).toEqual(expect.arrayContaining(["read", "grep", "find", "ls"]));
			return "read it";
		});
		await harness.prompt("read the notes");

		expect(harness.requests).toHaveLength(2);
		expect(harness.requests[0]?.messages[0]?.role).toBe("system");
		expect(harness.requestText(harness.requests[0]!)).toContain("read the notes");
		expect(lastToolResultText(harness, 1)).toContain("alpha");
		expect(harness.requestBytes(harness.requests[1]!)).toBeGreaterThan(harness.requestBytes(harness.requests[0]!));
		expect(harness.toolResults()).toHaveLength(1);
		expect(harness.session.getLastAssistantText()).toBe("read it");
		expect(harness.pendingSteps()).toBe(0);
	});

	it("delivers a blocked tool_call to the model as an error tool result, without running the tool", async () => {
		const blockWrites = (pi: ExtensionAPI) => {
			pi.on("tool_call", (event) =>
				event.toolName === "write" ? { block: true, reason: "writes are paused by the test" } : undefined,
			);
		};
		harness = await sessions.start({ extensions: [blockWrites] });
		harness.script(callTool("write", { path: "out.txt", content: "x" }), "stopped");
		await harness.prompt("write a file");

		const result = harness.toolResults()[0];
		expect(result?.isError).toBe(true);
		expect(harness.toolResultText(result!)).toContain("writes are paused by the test");
		expect(lastToolResultText(harness, 1)).toContain("writes are paused by the test");
		const { existsSync } = await import("node:fs");
		expect(existsSync(`${harness.cwd}/out.txt`)).toBe(false);
	});

	it("shows the model a tool_result replacement on its next request", async () => {
		const replaceReads = (pi: ExtensionAPI) => {
			pi.on("tool_result", (event) =>
				event.toolName === "read" ? { content: [{ type: "text", text: "REPLACED BY EXTENSION" }] } : undefined,
			);
		};
		harness = await sessions.start({ extensions: [replaceReads], files: { "secret.txt": "original content" } });
		harness.script(callTool("read", { path: "secret.txt" }), "ok");
		await harness.prompt("read");

		const seen = lastToolResultText(harness, 1);
		expect(seen).toBe("REPLACED BY EXTENSION");
		expect(harness.requestText(harness.requests[1]!)).not.toContain("original content");
	});

	it("persists a message_end replacement of a custom message, and the model sees only the replacement", async () => {
		const rewriteNotes = (pi: ExtensionAPI) => {
			pi.on("message_end", (event) => {
				const message = event.message as { role: string; customType?: string };
				if (message.role === "custom" && message.customType === "test-note") {
					return { message: { ...event.message, content: "short receipt" } as typeof event.message };
				}
				return undefined;
			});
			pi.registerCommand("note", {
				description: "send a long custom message",
				handler: async () => {
					pi.sendMessage(
						{ customType: "test-note", content: "VERY LONG ORIGINAL NOTE ".repeat(20), display: true },
						{ triggerTurn: true },
					);
				},
			});
		};
		harness = await sessions.start({ extensions: [rewriteNotes] });
		harness.script("noted");
		await harness.command("/note");
		await harness.session.waitForIdle();

		const stored = harness.session.sessionManager
			.getBranch()
			.filter((e) => e.type === "custom_message" && (e as { customType?: string }).customType === "test-note");
		expect(stored).toHaveLength(1);
		expect(JSON.stringify(stored[0])).toContain("short receipt");
		expect(JSON.stringify(stored[0])).not.toContain("VERY LONG ORIGINAL NOTE");
		expect(harness.requests).toHaveLength(1);
		const text = harness.requestText(harness.requests[0]!);
		expect(text).toContain("short receipt");
		expect(text).not.toContain("VERY LONG ORIGINAL NOTE");
	});

	it("records notify and setStatus on the recording UI, and answers confirm and select from the script", async () => {
		const answers: unknown[] = [];
		const uiUser = (pi: ExtensionAPI) => {
			pi.registerCommand("ask", {
				description: "use the UI",
				handler: async (_args, ctx) => {
					ctx.ui.notify("hello from the extension", "warning");
					ctx.ui.setStatus("test", "ready");
					answers.push(ctx.hasUI);
					answers.push(await ctx.ui.confirm("Proceed?", "really"));
					answers.push(await ctx.ui.select("Pick", ["a", "b", "c"]));
				},
			});
		};
		harness = await sessions.start({ extensions: [uiUser], ui: { confirm: [true], select: ["b"] } });
		await harness.command("/ask");

		expect(answers).toEqual([true, true, "b"]);
		expect(harness.ui?.notifications()).toEqual([{ message: "hello from the extension", level: "warning" }]);
		expect(harness.ui?.statuses.get("test")).toBe("ready");
		expect(harness.ui?.displayedText()).toContain("ready");
		expect(harness.requests).toHaveLength(0);
	});

	it("runs headless when ui is false", async () => {
		let hasUI: boolean | undefined;
		harness = await sessions.start({
			ui: false,
			extensions: [
				(pi: ExtensionAPI) =>
					pi.registerCommand("probe", {
						description: "probe",
						handler: async (_a, ctx) => {
							hasUI = ctx.hasUI;
						},
					}),
			],
		});
		await harness.command("/probe");
		expect(hasUI).toBe(false);
		expect(harness.ui).toBeUndefined();
	});

	it("loads several extensions at once, in order, and reads custom entries by type", async () => {
		const order: string[] = [];
		const first = (pi: ExtensionAPI) => {
			pi.on("tool_result", () => {
				order.push("first");
				return undefined;
			});
			pi.on("session_start", () => pi.appendEntry("test-entry", { from: "first" }));
		};
		const second = (pi: ExtensionAPI) => {
			pi.on("tool_result", () => {
				order.push("second");
				return undefined;
			});
			pi.on("session_start", () => pi.appendEntry("test-entry", { from: "second" }));
		};
		harness = await sessions.start({ extensions: [first, second], files: { "a.txt": "a", "b.txt": "b" } });
		harness.script(
			callTools({ name: "read", args: { path: "a.txt" } }, { name: "read", args: { path: "b.txt" } }),
			reply("done"),
		);
		await harness.prompt("read both");
		expect(order).toEqual(["first", "second", "first", "second"]);
		expect(harness.entries<{ from: string }>("test-entry").map((e) => e.from)).toEqual(["first", "second"]);
	});

	it("writes global and project policy config files and sets PI_CODING_AGENT_DIR for the session", async () => {
		let seenAgentDir: string | undefined;
		harness = await sessions.start({
			config: { "exploration-guard": { enabled: true } },
			projectConfig: { "exploration-guard": "{ not json" },
			extensions: [
				() => {
					seenAgentDir = process.env.PI_CODING_AGENT_DIR;
				},
			],
		});
		const { readFile } = await import("node:fs/promises");
		const global = JSON.parse(await readFile(`${harness.agentDir}/policy/exploration-guard.json`, "utf8"));
		expect(global).toEqual({ enabled: true });
		const project = await readFile(`${harness.cwd}/.pi/policy/exploration-guard.json`, "utf8");
		expect(project).toBe("{ not json");
		expect(seenAgentDir).toBe(harness.agentDir);
		const agentDir = harness.agentDir;
		await harness.dispose();
		harness = undefined;
		expect(process.env.PI_CODING_AGENT_DIR).not.toBe(agentDir);
	});

	it("runs the real grep, find and ls tools (ripgrep and fd present on the machine)", async () => {
		harness = await sessions.start({ files: { "src/a.ts": "const needle = 1;\n", "src/b.ts": "nothing\n" } });
		harness.script(
			callTool("grep", { pattern: "needle" }),
			callTool("find", { pattern: "*.ts" }),
			callTool("ls", { path: "src" }),
			"done",
		);
		await harness.prompt("look around");
		const [grep, find, ls] = harness.toolResults();
		expect(grep?.isError).toBe(false);
		expect(harness.toolResultText(grep!)).toContain("src/a.ts");
		expect(harness.toolResultText(grep!)).not.toContain("src/b.ts");
		expect(find?.isError).toBe(false);
		expect(harness.toolResultText(find!)).toContain("src/b.ts");
		expect(ls?.isError).toBe(false);
		expect(harness.toolResultText(ls!)).toContain("a.ts");
	});

	it("reports the tools declared to the model, folding tools removed mid-session", async () => {
		const toolSwitch = (pi: ExtensionAPI) => {
			pi.registerCommand("no-ls", {
				description: "deactivate ls",
				handler: async () => {
					pi.setActiveTools(pi.getActiveTools().filter((name) => name !== "ls"));
				},
			});
		};
		harness = await sessions.start({ extensions: [toolSwitch] });
		harness.script("first", "second");
		await harness.prompt("one");
		expect(harness.requests[0]?.toolNames).toContain("ls");
		await harness.command("/no-ls");
		await harness.prompt("two");
		expect(harness.requests[1]?.toolNames).not.toContain("ls");
		expect(harness.requests[1]?.toolNames).toContain("grep");
	});

	it("emits session_shutdown once, on shutdown() or dispose(), as Pi's runtime does on quit", async () => {
		const reasons: string[] = [];
		harness = await sessions.start({
			extensions: [
				(pi: ExtensionAPI) => {
					pi.on("session_shutdown", (event) => void reasons.push(event.reason));
				},
			],
		});
		harness.session.dispose();
		expect(reasons).toEqual([]);
		await harness.shutdown();
		await harness.dispose();
		harness = undefined;
		expect(reasons).toEqual(["quit"]);
	});

	it("keeps Pi's find tool working when a test sets its own PATH", async () => {
		harness = await sessions.start({
			files: { "src/a.ts": "x\n" },
			env: { PATH: process.env.PATH },
		});
		harness.script(callTool("find", { pattern: "*.ts" }), "done");
		await harness.prompt("find");
		const [find] = harness.toolResults();
		expect(find?.isError).toBe(false);
		expect(harness.toolResultText(find!)).toContain("src/a.ts");
	});

	it("falls back to a plain reply when the script runs out", async () => {
		harness = await sessions.start();
		await harness.prompt("hello");
		expect(harness.session.getLastAssistantText()).toBe("(harness: no scripted reply)");
	});
});

describe("the environment a harness sets", () => {
	it("is restored whatever order two harnesses are disposed in", async () => {
		const before = { home: process.env.HOME, path: process.env.PATH, agentDir: process.env.PI_CODING_AGENT_DIR };
		const first = await createHarness({ env: { HOME: "/tmp/harness-env-first", PATH: "/usr/bin:/bin" } });
		const second = await createHarness({ env: { HOME: "/tmp/harness-env-second" } });
		expect(process.env.HOME).toBe("/tmp/harness-env-second");
		expect(process.env.PI_CODING_AGENT_DIR).toBe(second.agentDir);
		// Disposing the first (older) one keeps the second's values, which are still live.
		await first.dispose();
		expect(process.env.HOME).toBe("/tmp/harness-env-second");
		expect(process.env.PI_CODING_AGENT_DIR).toBe(second.agentDir);
		await second.dispose();
		expect({ home: process.env.HOME, path: process.env.PATH, agentDir: process.env.PI_CODING_AGENT_DIR }).toEqual(
			before,
		);
	});
});
