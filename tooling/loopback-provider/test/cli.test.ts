// The loopback provider's command: serve a JSON script, write models.json, answer by model, stop on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseLoopbackScript } from "../src/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "loopback-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = resolve(import.meta.dirname, "..", "src", "cli.ts");

async function chat(baseUrl: string, model: string): Promise<string> {
	const response = await fetch(`${baseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
	});
	const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
	return body.choices[0]?.message.content ?? "";
}

describe("loopback-provider serve", () => {
	it("rejects a malformed script with a bounded message", () => {
		expect(() => parseLoopbackScript("{")).toThrow(/^script is not JSON/);
		expect(() => parseLoopbackScript('{"steps": [1]}')).toThrow("script.steps must be a list of reply objects");
		expect(() => parseLoopbackScript('{"byModel": {"r": "x"}}')).toThrow("script.byModel.r must be a list");
		expect(parseLoopbackScript('[{"text": "a"}]')).toEqual({ steps: [{ text: "a" }], byModel: {} });
	});

	it("serves the script, routes by model, writes models.json and stops on SIGTERM", async () => {
		const script = join(dir, "script.json");
		const agentDir = join(dir, "agent");
		writeFileSync(
			script,
			JSON.stringify({ steps: [{ text: "agent one" }], byModel: { "loop-reviewer": [{ text: "reviewer one" }] } }),
		);
		const child = spawn(process.execPath, ["--import", "tsx", cli, "--script", script, "--agent-dir", agentDir], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString();
		});
		const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
		const deadline = Date.now() + 30_000;
		while (!out.includes("Ctrl+C stops the server") && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 100));
		const baseUrl = /on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
		expect(baseUrl).toBeDefined();
		const models = JSON.parse(readFileSync(join(agentDir, "models.json"), "utf8"));
		expect(models.providers.loop.baseUrl).toBe(baseUrl);
		expect(models.providers.loop.models.map((m: { id: string }) => m.id)).toEqual(["loop-1", "loop-reviewer"]);
		expect(await chat(baseUrl ?? "", "loop-reviewer")).toBe("reviewer one");
		expect(await chat(baseUrl ?? "", "loop-1")).toBe("agent one");
		expect(await chat(baseUrl ?? "", "loop-1")).toBe("loopback: no scripted response");
		child.kill("SIGTERM");
		expect(await exited).toBe(0);
		expect(out).toContain("stopped after 3 chat requests");
	});
});
