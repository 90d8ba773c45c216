// A forty-fourth review, in real Pi sessions (faux agent and reviewer), default config: Pi's `read` tool printed
// credential files the protected list did not name (a Solana keypair, a Jupyter server's token, an agent's MCP
// config). Each is now reviewed, and the reviewer's denial keeps the secret out of the session; an ordinary file of
// the same tool stays readable.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, expectNoLeak, guardianSandboxPerTest, promptsWithDenials, resultTexts } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review44-home-" });

function homeFile(relative: string, text: string): void {
	const path = join(sandbox.home, relative);
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

describe("credential files in home, read with Pi's read tool", () => {
	it("reviews them and keeps their secrets out; the tool's ordinary files stay readable", async () => {
		homeFile(".config/solana/id.json", "[174,47,154,16,202,193,206,113,199,190,53,133,169,175,31,56,secret-44]\n");
		homeFile(".local/share/jupyter/runtime/jpserver-4242.json", '{"port": 8888, "token": "secret-44-jupyter"}\n');
		homeFile(
			".copilot/mcp-config.json",
			'{"mcpServers":{"github":{"command":"npx","env":{"GITHUB_TOKEN":"secret-44-copilot"}}}}\n',
		);
		homeFile(".config/zed/keymap.json", '[{"bindings":{"ctrl-k":"menu::open"}}]\n');
		const h = await sandbox.start({});
		h.agent(
			callTool("read", { path: "~/.config/solana/id.json" }),
			callTool("read", { path: "~/.local/share/jupyter/runtime/jpserver-4242.json" }),
			"next",
			callTool("read", { path: "~/.copilot/mcp-config.json" }),
			callTool("read", { path: "~/.config/zed/keymap.json" }),
			"done",
		);
		const sources = await promptsWithDenials(h, 3, "check my wallet", "and my editor");
		expect(sources).toEqual(["reviewer", "reviewer", "reviewer", "floor"]);
		expect(resultTexts(h).join("\n")).toContain("menu::open");
		expectNoLeak(h, ["secret-44"]);
	});
});
