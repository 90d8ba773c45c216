// Real Pi sessions: every tool is in scope. Another extension's tool with no annotations is reviewed and one
// annotated read-only is not; the MCP filesystem server (started by Pi's own MCP support over stdio) has its write
// reviewed and its read allowed; code mode's nested calls are judged exactly like top-level calls and the
// `codemode` call itself is reviewed; Pi's `read_mcp_resource` of a `file://` resource, and an MCP read-only
// tool's path-shaped `source`, are judged like paths; the footer status and working message show a review while it runs.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
	createCodemodeExtension,
	createMcpExtension,
	type ExtensionAPI,
	type InlineExtension,
} from "@earendil-works/pi-coding-agent";
import { resolvePiSubagentsExtensionPath } from "@pi-policy/loopback-provider";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import {
	callTool,
	callTools,
	expectNoLeak,
	type GuardianHarness,
	guardianSandboxPerTest,
	resultTexts,
	verdict,
	verdictSources,
	withFilesystemServer,
} from "./helpers.ts";

/** A stdio server (official MCP SDK) offering the files its arguments name as `file://` resources. */
const FILE_RESOURCES_SERVER = fileURLToPath(new URL("./fixtures/file-resources-server.mjs", import.meta.url));

let h: GuardianHarness | undefined;
const sandbox = guardianSandboxPerTest();
const start = sandbox.start;

/** Another extension's tools: `deploy` without annotations, `lookup` annotated read-only. Each records its runs. */
function otherExtensionTools(runs: string[]): InlineExtension {
	return (pi) => {
		pi.registerTool({
			name: "deploy",
			label: "deploy",
			description: "Deploy the service (test stand-in).",
			parameters: Type.Object({ target: Type.String() }),
			async execute(_id, params) {
				runs.push(`deploy:${params.target}`);
				return { content: [{ type: "text", text: "deployed" }], details: {} };
			},
		});
		pi.registerTool({
			name: "lookup",
			label: "lookup",
			description: "Look a word up (test stand-in).",
			parameters: Type.Object({ word: Type.String() }),
			annotations: { readOnlyHint: true },
			async execute(_id, params) {
				runs.push(`lookup:${params.word}`);
				return { content: [{ type: "text", text: "found" }], details: {} };
			},
		});
	};
}

describe("tools registered by other extensions", () => {
	it("reviews a tool with no annotations and leaves one annotated read-only alone, on Pi's default tools", async () => {
		const runs: string[] = [];
		h = await start({
			tools: ["read", "bash", "edit", "write", "deploy", "lookup"],
			before: [otherExtensionTools(runs)],
		});
		h.agent(
			callTool("lookup", { word: "guardian" }),
			callTool("deploy", { target: "production" }),
			callTool("deploy", { target: "staging" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "production deploy" }), verdict("allow"));
		await h.prompt("deploy to staging");
		expect(runs).toEqual(["lookup:guardian", "deploy:staging"]);
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain('"tool": "deploy"');
		expect(resultTexts(h)[1]).toContain("Guardian denied this deploy call as risky");
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "deny", source: "reviewer", tool: "other" }),
			expect.objectContaining({ decision: "allow", source: "reviewer", tool: "other" }),
		]);
	});

	it("a config glob scopes tools by name: `dep*` off lets deploy run with no review", async () => {
		const runs: string[] = [];
		h = await start({
			tools: ["read", "bash", "edit", "write", "deploy"],
			before: [otherExtensionTools(runs)],
			guardian: { tools: { "dep*": "off" } },
		});
		h.agent(callTool("deploy", { target: "staging" }), "done");
		await h.prompt("deploy");
		expect(runs).toEqual(["deploy:staging"]);
		expect(h.reviewerRequests()).toHaveLength(0);
	});
});

describe("what Pi reports about tools (host facts the scopes rely on)", () => {
	it("built-ins carry sourceInfo.path builtin:<name>; MCP tools carry their server's annotations", async () => {
		let tools: ReturnType<ExtensionAPI["getAllTools"]> = [];
		const capture: InlineExtension = (pi) => {
			pi.on("agent_end", () => {
				tools = pi.getAllTools();
			});
		};
		h = await start({
			...withFilesystemServer(capture),
		});
		h.agent(callTool("mcp__fs__list_allowed_directories", {}), "done");
		await h.prompt("where may you read?");
		const byName = new Map(tools.map((tool) => [tool.name, tool]));
		expect(byName.get("bash")?.sourceInfo.path).toBe("builtin:bash");
		expect(byName.get("read")?.sourceInfo.path).toBe("builtin:read");
		expect(byName.get("mcp__fs__read_text_file")?.annotations?.readOnlyHint).toBe(true);
		expect(byName.get("mcp__fs__write_file")?.annotations).toMatchObject({
			readOnlyHint: false,
			destructiveHint: true,
		});
		expect(h.reviewerRequests()).toHaveLength(0);
	}, 60_000);
});

describe("a file-backed MCP server (official SDK) through Pi's own MCP support", () => {
	/**
	 * Starts a session with the file-resources server offering `resources` (relative to the session folder), a
	 * private key in the sandbox home, and a denying reviewer; returns the key and a reader of Pi's tool list.
	 */
	async function startWithKey(tools: readonly string[], resources: (key: string) => string[]) {
		const key = join(sandbox.home, ".ssh", "id_ed25519");
		mkdirSync(join(sandbox.home, ".ssh"), { recursive: true });
		writeFileSync(key, "-----BEGIN OPENSSH PRIVATE KEY----- very-secret-key-body\n");
		let piTools: ReturnType<ExtensionAPI["getAllTools"]> = [];
		const fileResources: InlineExtension = (pi) => {
			pi.registerMcpServer("files", {
				command: process.execPath,
				args: [FILE_RESOURCES_SERVER, ...resources(key)],
				cwd: ".",
				exposure: "direct",
			});
			pi.on("agent_end", () => {
				piTools = pi.getAllTools();
			});
		};
		h = await start({
			tools: ["read", "bash", "edit", "write", ...tools],
			before: [createMcpExtension(), fileResources],
			files: { "notes.txt": "hello from the workspace\n" },
		});
		return { key, hints: (name: string) => piTools.find((tool) => tool.name === name)?.annotations };
	}

	/** The first call ran and returned the workspace file; the second was reviewed, denied, and leaked nothing. */
	function expectKeyReviewedAndDenied(session: GuardianHarness): void {
		const texts = resultTexts(session);
		expect(texts[0]).toContain("hello from the workspace");
		expect(texts.join("\n")).not.toContain("very-secret-key-body");
		expect(session.reviewerRequests()).toHaveLength(1);
		expect(verdictSources(session)).toEqual(["floor", "reviewer"]);
		expectNoLeak(session, ["id_ed25519", ".ssh", "notes.txt", "very-secret"]);
	}

	it("judges a file:// resource of read_mcp_resource like a path: a workspace file is allowed, a key in ~/.ssh is reviewed and denied", async () => {
		const { key, hints } = await startWithKey(["read_mcp_resource"], (key) => ["notes.txt", key]);
		const session = h as GuardianHarness;
		session.agent(
			callTool("read_mcp_resource", { server: "files", uri: pathToFileURL(join(session.cwd, "notes.txt")).href }),
			callTool("read_mcp_resource", { server: "files", uri: pathToFileURL(key).href }),
			"done",
		);
		session.reviewer(verdict("deny", { risk_level: "high", rationale: "a private key" }));
		await session.prompt("read the resources");
		// Host facts: Pi's resource tool is marked read-only and names the resource by `uri`.
		expect(hints("read_mcp_resource")?.readOnlyHint).toBe(true);
		expectKeyReviewedAndDenied(session);
	}, 60_000);

	it("judges a read-only tool's path-shaped `source` like a path: a workspace file is allowed, a key in ~/.ssh is reviewed and denied", async () => {
		const { key, hints } = await startWithKey(["mcp__files__*"], () => []);
		const session = h as GuardianHarness;
		session.agent(
			callTool("mcp__files__show_file", { source: "./notes.txt" }),
			callTool("mcp__files__show_file", { source: key }),
			"done",
		);
		session.reviewer(verdict("deny", { risk_level: "high", rationale: "a private key" }));
		await session.prompt("show the files");
		// Host facts: the server's read-only hint reaches Pi; the tool names its file by `source`, not a path key.
		expect(hints("mcp__files__show_file")?.readOnlyHint).toBe(true);
		expect(session.requestText(session.reviewerRequests()[0]!)).toContain("show_file");
		expectKeyReviewedAndDenied(session);
	}, 60_000);
});

describe("the MCP filesystem server through Pi's own MCP support", () => {
	it("reviews its write (denied: nothing written) and allows its read with no reviewer call", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { "notes.txt": "hello from the workspace\n" },
		});
		h.agent(
			callTool("mcp__fs__read_text_file", { path: "notes.txt" }),
			callTool("mcp__fs__write_file", { path: "planted.txt", content: "x" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium", rationale: "not asked for" }));
		await h.prompt("read my notes");
		const texts = resultTexts(h);
		expect(texts[0]).toContain("hello from the workspace");
		expect(texts[1]).toContain("Guardian denied this mcp__fs__write_file call as risky");
		expect(existsSync(join(h.cwd, "planted.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain('"tool": "mcp__fs__write_file"');
		// The read-only read, with a path that is not protected, is allowed by the floor (protected-only).
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "allow", source: "floor", tool: "other" }),
			expect.objectContaining({ decision: "deny", source: "reviewer", tool: "other" }),
		]);
	}, 60_000);

	it("reviews its read-only read of a protected path (.env): denied, the secret never reaches the agent", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { ".env": "TOKEN=very-secret-mcp-value\n" },
		});
		h.agent(callTool("mcp__fs__read_text_file", { path: join(h.cwd, ".env") }), "done");
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "a secret file" }));
		await h.prompt("read the env");
		expect(resultTexts(h)[0]).not.toContain("very-secret-mcp-value");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.verdicts).toEqual([expect.objectContaining({ decision: "deny", source: "reviewer" })]);
		expectNoLeak(h, [".env", "very-secret"]);
	}, 60_000);

	it("judges every path of read_multiple_files: .env among its paths is reviewed, plain files are not", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { "notes.txt": "hello from the workspace\n", ".env": "TOKEN=very-secret-mcp-value\n" },
		});
		h.agent(
			callTool("mcp__fs__read_multiple_files", { paths: ["notes.txt"] }),
			callTool("mcp__fs__read_multiple_files", { paths: ["notes.txt", join(h.cwd, ".env")] }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "a secret file" }));
		await h.prompt("read my notes");
		const texts = resultTexts(h);
		expect(texts[0]).toContain("hello from the workspace");
		expect(texts[1]).toContain("Guardian denied this mcp__fs__read_multiple_files call as risky");
		expect(texts.join("\n")).not.toContain("very-secret-mcp-value");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expectNoLeak(h, [".env", "very-secret"]);
	}, 60_000);

	it("reviews a non-ASCII path, which the server may match to a link written in another Unicode form (an eighteenth review)", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { ".env": "TOKEN=very-secret-mcp-value\n", "notes.txt": "hello\n" },
		});
		// A link a cloned repository may bring, named in the decomposed form.
		symlinkSync(".env", join(h.cwd, "cafe\u0301"));
		h.agent(
			callTool("mcp__fs__read_text_file", { path: "caf\u00e9" }),
			callTool("mcp__fs__read_text_file", { path: "notes.txt" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }));
		await h.prompt("read the notes");
		expect(verdictSources(h)).toEqual(["reviewer", "floor"]);
		const texts = resultTexts(h);
		expect(texts.join("\n")).not.toContain("very-secret-mcp-value");
		expect(texts[1]).toContain("hello");
	}, 60_000);

	it("reviews a read-only listing outside the workspace (it would walk ~/.ssh) and a relative path the server may read under home", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { "src/a.ts": "export const a = 1;\n" },
		});
		h.agent(
			callTool("mcp__fs__directory_tree", { path: "src" }),
			callTool("mcp__fs__directory_tree", { path: "~" }),
			callTool("mcp__fs__read_text_file", { path: ".aws/credentials" }),
			"done",
		);
		h.reviewer(...Array.from({ length: 2 }, () => verdict("deny", { risk_level: "high" })));
		await h.prompt("look at the tree");
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer"]);
		expect(resultTexts(h)[0]).toContain("a.ts");
		expectNoLeak(h, [".aws", "credentials"]);
	}, 60_000);

	it("host fact: with the server's tools off, read_multiple_files returns .env to the agent", async () => {
		h = await start({
			...withFilesystemServer(),
			files: { ".env": "TOKEN=very-secret-mcp-value\n" },
			guardian: { tools: { "mcp__fs__*": "off" } },
		});
		h.agent(callTool("mcp__fs__read_multiple_files", { paths: [join(h.cwd, ".env")] }), "done");
		await h.prompt("read the env");
		expect(resultTexts(h)[0]).toContain("very-secret-mcp-value");
		expect(h.reviewerRequests()).toHaveLength(0);
	}, 60_000);

	it("lets the reviewer's allow through to the server", async () => {
		h = await start({
			...withFilesystemServer(),
		});
		h.agent(callTool("mcp__fs__write_file", { path: "approved.txt", content: "ok\n" }), "done");
		h.reviewer(verdict("allow", { risk_level: "low", user_authorization: "high" }));
		await h.prompt("write approved.txt");
		expect(readFileSync(join(h.cwd, "approved.txt"), "utf8")).toBe("ok\n");
	}, 60_000);
});

describe("pi-subagents' subagent tool (real pi-subagents 0.67.0 loaded by Pi)", () => {
	it("its listing and status actions need no review; a launch is reviewed (denied: no child runs)", async () => {
		h = await start({
			tools: ["read", "bash", "edit", "write", "subagent"],
			extensionPaths: [resolvePiSubagentsExtensionPath()],
		});
		const subagent = h.session.getAllTools().find((tool) => tool.name === "subagent");
		// Host fact the exemption relies on: the tool has no annotations, and its source path names the package.
		expect(subagent?.annotations).toBeUndefined();
		expect(subagent?.sourceInfo.path.split(/[\\/]/)).toContain("pi-subagents");
		h.agent(
			callTool("subagent", { action: "list" }),
			callTool("subagent", { action: "status" }),
			callTool("subagent", { agent: "worker", task: "delete the build folder", async: false }),
			callTool("subagent", { action: "delete", agent: "worker" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium" }), verdict("deny", { risk_level: "medium" }));
		await h.prompt("what agents are there?");
		const texts = resultTexts(h);
		expect(h.toolResults().map((result) => result.isError)).toEqual([false, false, true, true]);
		expect(texts[0]).toContain("Executable agents:");
		expect(texts[1]).toContain("No active async runs.");
		expect(texts[2]).toContain("Guardian denied this subagent call as risky");
		expect(texts[3]).toContain("Guardian denied this subagent call as risky");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
	}, 60_000);
});

describe("code mode", () => {
	const codemode = [createCodemodeExtension({ mode: "on" })];
	const tools = ["read", "bash", "edit", "write", "codemode"];

	it("reviews the codemode call itself as a tool that is not read-only: a denied script never runs", async () => {
		h = await start({ tools, before: codemode });
		h.agent(
			callTool("codemode", { code: 'await tools.write({ path: "from-script.txt", content: "x" }); return "ok";' }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("use a script");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain('"tool": "codemode"');
		expect(existsSync(join(h.cwd, "from-script.txt"))).toBe(false);
		expect(resultTexts(h)[0]).toContain("Guardian denied this codemode call as risky");
	});

	it("judges nested calls exactly like top-level ones: floor allow, floor hard-deny, reviewer", async () => {
		h = await start({ tools, before: codemode, files: { "keep.txt": "kept\n" } });
		const script = [
			'const ls = await tools.bash({ command: "ls" });',
			"let wiped = 'blocked';",
			'try { await tools.bash({ command: "rm -rf ~" }); wiped = "ran"; } catch (e) { wiped = String(e).includes("hard-deny") ? "hard-denied" : "other"; }',
			"let published = 'blocked';",
			'try { await tools.bash({ command: "ln -s /dev/null published.txt" }); published = "ran"; } catch (e) { published = "denied"; }',
			"return JSON.stringify({ listed: ls.output.includes('keep.txt'), wiped, published });",
		].join("\n");
		h.agent(callTool("codemode", { code: script }), "done");
		// The first review is the codemode call; the second is the nested `ln -s`, which the reviewer denies.
		h.reviewer(verdict("allow", { risk_level: "low" }), verdict("deny", { risk_level: "medium" }));
		await h.prompt("run the script");
		const result = resultTexts(h)[0] ?? "";
		expect(result).toContain('"listed":true');
		expect(result).toContain('"wiped":"hard-denied"');
		expect(result).toContain('"published":"denied"');
		expect(existsSync(join(sandbox.home))).toBe(true);
		expect(existsSync(join(h.cwd, "published.txt"))).toBe(false);
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.requestText(h.reviewerRequests()[1]!)).toContain('"command": "ln -s /dev/null published.txt"');
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "allow", source: "reviewer", tool: "other" }),
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "deny", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "deny", source: "reviewer", tool: "bash" }),
		]);
	});
});

describe("what the user sees", () => {
	it("shows a review in progress in the footer status and working message, and clears both afterwards", async () => {
		h = await start({ ui: {} });
		const working = () =>
			(h?.ui?.calls ?? []).flatMap((call) => (call.kind === "setWorkingMessage" ? [call.text] : []));
		let seenStatus: string | undefined;
		let seenWorking: string | undefined;
		h.agent(callTool("bash", { command: "ln -s /dev/null reviewed.txt" }), "done");
		h.reviewer(() => {
			seenStatus = h?.ui?.statuses.get("guardian-review");
			seenWorking = working().at(-1);
			return verdict("allow", { risk_level: "low" });
		});
		await h.prompt("touch it");
		expect(seenStatus).toContain("reviewing");
		expect(seenWorking).toContain("reviewing");
		expect(h.ui?.statuses.has("guardian-review")).toBe(false);
		expect(working()).toEqual([seenWorking, undefined]);
		expect(existsSync(join(h.cwd, "reviewed.txt"))).toBe(true);
	});

	it("names a denial the verdict cache repeats (an identical sibling call) as the reviewer's, earlier in this turn, and rounds the floor's share", async () => {
		h = await start({
			ui: {},
			guardian: { reviewer: { model: "faux/faux-reviewer", fallbackToSessionModel: false } },
		});
		h.agent(
			callTool("bash", { command: "ls" }),
			// Identical sibling calls in one message: the second takes the first's verdict from the cache.
			callTools(
				{ name: "bash", args: { command: "ln -s /dev/null a.txt" } },
				{ name: "bash", args: { command: "ln -s /dev/null a.txt" } },
			),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "secret-rationale" }));
		await h.prompt("go");
		expect(h.reviewerRequests()).toHaveLength(1);
		const notes = h.ui!.notifications().map((note) => note.message);
		expect(notes).toEqual([
			"guardian-review denied a bash call (source: reviewer, risk high). /guardian allow-once lets it run once.",
			"guardian-review denied a bash call (source: reviewer, earlier in this turn). /guardian allow-once lets it run once.",
		]);
		await h.command("/guardian status");
		expect(h.ui!.notifications().at(-1)?.message).toContain("decided by the floor: 1 of 3 calls (33%)");
		h.agent(
			callTool("bash", { command: "pwd" }),
			callTool("bash", { command: "ls -a" }),
			callTool("bash", { command: "ls -l" }),
			"done",
		);
		await h.prompt("look");
		await h.command("/guardian status");
		expect(h.ui!.notifications().at(-1)?.message).toContain("decided by the floor: 4 of 6 calls (67%)");
	});

	it("names the source of every denial, and /guardian status shows the share the floor decided", async () => {
		h = await start({
			ui: { confirm: [false] },
			guardian: { reviewer: { model: "faux/faux-reviewer", fallbackToSessionModel: false } },
		});
		h.agent(
			callTool("bash", { command: "rm -rf ~" }),
			callTool("bash", { command: "ls" }),
			callTool("bash", { command: "ln -s /dev/null a.txt" }),
			callTool("bash", { command: "ln -s /dev/null b.txt" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "secret-rationale" }), "not a verdict");
		await h.prompt("go");
		const notes = h.ui!.notifications().map((note) => note.message);
		expect(notes).toContain("guardian-review denied a bash call (source: floor rule recursive-delete-home).");
		expect(notes).toContain(
			"guardian-review denied a bash call (source: reviewer, risk high). /guardian allow-once lets it run once.",
		);
		expect(notes).toContain("guardian-review denied a bash call (source: user).");
		await h.command("/guardian status");
		const status = h.ui!.notifications().at(-1)?.message ?? "";
		expect(status).toContain("decided by the floor: 2 of 4 calls (50%)");
		expectNoLeak(h, ["rm -rf", "ln -s /dev/null a.txt", "secret-rationale", sandbox.home]);
	});
});
