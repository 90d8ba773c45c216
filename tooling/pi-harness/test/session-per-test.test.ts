// sessionPerTest: the one-line session setup for test files. Tests in this file run in order and share state on
// purpose: the second checks what the hook did after the first.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionPerTest } from "../src/vitest.ts";

const sessions = sessionPerTest({ config: { "a-ext": { mode: "warn" } }, files: { "a.txt": "a\n" } });
const seen: string[] = [];

describe("sessionPerTest", () => {
	it("starts a real session with the defaults, config merged key by key", async () => {
		const harness = await sessions.start({ config: { "b-ext": { mode: "block" } } });
		expect(sessions.current).toBe(harness);
		expect(readFileSync(join(harness.cwd, "a.txt"), "utf8")).toBe("a\n");
		expect(JSON.parse(readFileSync(join(harness.agentDir, "policy", "a-ext.json"), "utf8"))).toEqual({ mode: "warn" });
		expect(JSON.parse(readFileSync(join(harness.agentDir, "policy", "b-ext.json"), "utf8"))).toEqual({ mode: "block" });
		const tracked = sessions.track(await sessions.start());
		seen.push(harness.cwd, tracked.cwd);
		harness.script("hello");
		await harness.prompt("hi");
		expect(harness.requests).toHaveLength(1);
	});

	it("disposed every session of the previous test, and dispose is idempotent", async () => {
		expect(seen).toHaveLength(2);
		for (const cwd of seen) expect(existsSync(cwd)).toBe(false);
		expect(sessions.current).toBeUndefined();
		const harness = await sessions.start();
		await harness.dispose();
		await harness.dispose();
		expect(existsSync(harness.cwd)).toBe(false);
	});
});
