// The workspace fixture on its own (no CLI run): the layout it writes, and a dispose that closes and cleans up.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PiCliFixture, renderPiSubagentProfile, startPiCliFixture } from "../src/index.ts";

describe("startPiCliFixture", () => {
	let fixture: PiCliFixture | undefined;

	afterEach(async () => {
		await fixture?.dispose();
		fixture = undefined;
	});

	it("lays out cwd, agentDir and home below one temp root, with models.json, files, profiles and configs", async () => {
		fixture = await startPiCliFixture({
			prefix: "loopback-fixture-",
			files: { "notes.txt": "hello\n", "src/deep/app.ts": "export {};\n" },
			agents: [{ name: "loop-child", description: "A test child", prompt: "CHILD-TOKEN: answer in one line." }],
			config: { "exploration-guard": { mode: "block" }, verbatim: "{ }" },
		});
		const { root, cwd, agentDir, home, server } = fixture;
		expect(root).toContain("loopback-fixture-");
		expect([cwd, agentDir, home]).toEqual([join(root, "cwd"), join(root, "agent"), join(root, "home")]);
		expect(existsSync(home)).toBe(true);
		expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("hello\n");
		expect(await readFile(join(cwd, "src", "deep", "app.ts"), "utf8")).toBe("export {};\n");
		expect(await readFile(join(agentDir, "agents", "loop-child.md"), "utf8")).toBe(
			"---\nname: loop-child\ndescription: A test child\nmodel: loop/loop-1\ntools: read\n---\nCHILD-TOKEN: answer in one line.\n",
		);
		expect(await readFile(join(agentDir, "policy", "exploration-guard.json"), "utf8")).toBe('{"mode":"block"}');
		expect(await readFile(join(agentDir, "policy", "verbatim.json"), "utf8")).toBe("{ }");
		const models = JSON.parse(await readFile(join(agentDir, "models.json"), "utf8"));
		expect(models.providers.loop.baseUrl).toBe(server.baseUrl);
	});

	it("renders a profile's model and tool allowlist into its frontmatter", () => {
		const text = renderPiSubagentProfile({
			name: "scout",
			description: "d",
			model: "loop/loop-big",
			tools: ["read", "grep"],
			prompt: "p",
		});
		expect(text).toBe("---\nname: scout\ndescription: d\nmodel: loop/loop-big\ntools: read, grep\n---\np\n");
	});

	it("dispose closes the server and removes the root, once", async () => {
		fixture = await startPiCliFixture();
		const { root, server } = fixture;
		expect(root).toContain("pi-cli-fixture-");
		await fixture.dispose();
		await expect(fixture.dispose()).resolves.toBeUndefined();
		expect(existsSync(root)).toBe(false);
		await expect(fetch(`${server.baseUrl}/models`)).rejects.toThrow();
	});
});
