// A real MCP server from npm (@modelcontextprotocol/server-filesystem), connected through Pi's own MCP support:
// its large read is shunted when configured (the whole text, though Pi cuts MCP text over 20 KB in the middle),
// and stays as Pi delivers it when not.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createMcpExtension, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool } from "@pi-policy/pi-harness";
import { afterEach, describe, expect, it } from "vitest";
import { artifactIdOf, SHUNT_TOOLS, type ShuntSession, startShunt } from "./helpers.ts";

const require = createRequire(import.meta.url);
const SERVER = join(
	dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
	"dist",
	"index.js",
);
const READ = "mcp__fs__read_text_file";

/** Registers the filesystem server over stdio, rooted at the session's cwd, with direct exposure. */
function filesystemServer(pi: ExtensionAPI): void {
	pi.on("session_start", (_event, ctx) => {
		pi.registerMcpServer("fs", { command: process.execPath, args: [SERVER, ctx.cwd], exposure: "direct" });
	});
}

const lines = Array.from(
	{ length: 5000 },
	(_, i) => `${String(i + 1).padStart(5, "0")} server log line ${i % 7 === 0 ? "WARN disk" : "ok"}`,
);
const log = `${lines.join("\n")}\n`;
const body = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[1]?.text ?? "";

let session: ShuntSession | undefined;
afterEach(async () => {
	await session?.dispose();
	session = undefined;
});

async function start(config: Record<string, unknown>) {
	return startShunt(
		config,
		{},
		{
			tools: [...SHUNT_TOOLS, READ],
			files: { "server.log": log },
			before: [createMcpExtension(), filesystemServer],
		},
	);
}

/** Waits until the server's tools are offered (it connects in the background). */
async function readViaMcp(s: ShuntSession, id: string): Promise<void> {
	const h = s.harness;
	h.script(callTool(READ, { path: join(h.cwd, "server.log") }, id), "done");
	await h.prompt("read the log");
}

describe("a real MCP server", () => {
	it("shunts the filesystem server's large read when configured, and recovers the part Pi would cut", async () => {
		session = await start({ mode: "enforce", tools: { "mcp__fs__*": "shunt" } });
		await readViaMcp(session, "m-1");
		const h = session.harness;
		expect(h.requests[0]!.toolNames).toContain(READ);
		const receipt = session.text(0);
		expect(receipt).toContain(`This ${READ} result was preserved as artifact`);
		expect(receipt).toContain(`${Buffer.byteLength(log)} bytes, 5000 lines`);
		expect(Buffer.byteLength(receipt)).toBeLessThanOrEqual(2048);
		expect(JSON.stringify(h.requests.at(-1)!.messages)).not.toContain("02500 server log line");
		const id = artifactIdOf(receipt);
		h.script(
			callTool("context_shunt_recover", { artifactId: id, lineOffset: 2401, lineLimit: 200 }, "r-1"),
			callTool("context_shunt_recover", { artifactId: id, pattern: "02401 server", contextLines: 0 }, "r-2"),
			"done",
		);
		await h.prompt("recover the middle");
		const results = h.toolResults();
		expect(body(results[1]!)).toBe(`${lines.slice(2400, 2600).join("\n")}\n`);
		expect(body(results[2]!)).toBe(`2401: ${lines[2400]}\n`);
	});

	it("leaves the read as Pi delivers it when the tool is not configured", async () => {
		session = await start({ mode: "enforce" });
		await readViaMcp(session, "m-1");
		const text = session.text(0);
		expect(text).not.toContain("[context-shunt]");
		expect(text).toContain("00001 server log line");
		expect(text).toMatch(/chars truncated/);
	});
});
