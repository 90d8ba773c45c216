// The loopback provider's command: serve a JSON script, write models.json, answer by model, stop on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseLoopbackScript, resolveUserPath } from "../src/cli.ts";

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

	it("reads relative paths from where pnpm was run (INIT_CWD), else from the process's cwd", () => {
		expect(resolveUserPath("script.json", { INIT_CWD: "/home/u/repo" }, "/home/u/repo/tooling/loopback-provider")).toBe(
			"/home/u/repo/script.json",
		);
		expect(resolveUserPath("a/agent", {}, "/work")).toBe("/work/a/agent");
		expect(resolveUserPath("/abs/script.json", { INIT_CWD: "/home/u/repo" }, "/work")).toBe("/abs/script.json");
	});

	it("run as pnpm --filter runs it (cwd the package folder, INIT_CWD the user's), relative paths are the user's", async () => {
		const userDir = mkdtempSync(join(dir, "user-"));
		writeFileSync(join(userDir, "script.tmp.json"), JSON.stringify([{ text: "from the user's folder" }]));
		const child = spawn(
			process.execPath,
			["--import", "tsx", cli, "--script", "script.tmp.json", "--agent-dir", "agent"],
			{
				cwd: resolve(import.meta.dirname, ".."),
				env: { ...process.env, INIT_CWD: userDir },
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		let out = "";
		let err = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString();
		});
		child.stderr.on("data", (chunk: Buffer) => {
			err += chunk.toString();
		});
		const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
		const deadline = Date.now() + 30_000;
		while (!out.includes("Ctrl+C stops the server") && child.exitCode === null && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 100));
		expect(err).toBe("");
		const baseUrl = /on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
		expect(JSON.parse(readFileSync(join(userDir, "agent", "models.json"), "utf8")).providers.loop.baseUrl).toBe(
			baseUrl,
		);
		expect(out).toContain(`PI_CODING_AGENT_DIR=${join(userDir, "agent")} `);
		expect(await chat(baseUrl ?? "", "loop-1")).toBe("from the user's folder");
		child.kill("SIGTERM");
		expect(await exited).toBe(0);
	});
});
