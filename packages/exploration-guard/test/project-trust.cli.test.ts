// Pins how Pi 1.6.0 decides project trust for a folder whose `.pi` holds only pi-policy files (the real `pi` CLI in
// print mode, no UI): Pi asks about trust only when the folder holds a resource that needs it (`.pi/settings.json`,
// extensions, skills, MCP servers, ...), so `ctx.isProjectTrusted()` is true for a bare `.pi/policy/` and a project
// policy file applies with no prompt; `--no-approve` ignores it. With `.pi/settings.json` beside it, print mode
// (which cannot ask) declines trust unless `--approve` is given. The root README's "Configuration" says so.
import { fileURLToPath } from "node:url";
import { type PiCliFixture, startPiCliFixture } from "@pi-policy/loopback-provider";
import { afterEach, describe, expect, it } from "vitest";

const EXTENSION = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const PROJECT_POLICY = { ".pi/policy/exploration-guard.json": JSON.stringify({ mode: "block" }) };

let fixture: PiCliFixture | undefined;

afterEach(async () => {
	await fixture?.dispose();
	fixture = undefined;
});

async function statusMode(files: Record<string, string>, flags: string[] = []): Promise<string | undefined> {
	fixture = await startPiCliFixture({
		prefix: "exploration-guard-trust-",
		config: { "exploration-guard": { mode: "warn" } },
		files,
	});
	const result = await fixture.run(
		[...flags, "--model", "loop/loop-1", "-e", EXTENSION, "-p", "/exploration-guard status"],
		{ timeoutMs: 60_000 },
	);
	expect(result.code, result.stderr).toBe(0);
	expect(fixture.server.chatRequests).toHaveLength(0);
	return /^Exploration guard: mode (\w+), /m.exec(result.stderr)?.[1];
}

describe("project policy files and Pi's project trust (real pi CLI)", () => {
	it("applies a project file in a folder whose .pi holds only policy files: Pi asks nothing there", async () => {
		expect(await statusMode(PROJECT_POLICY)).toBe("block");
	});

	it("ignores it under --no-approve", async () => {
		expect(await statusMode(PROJECT_POLICY, ["--no-approve"])).toBe("warn");
	});

	it("ignores it beside .pi/settings.json in print mode, which cannot ask, unless --approve is given", async () => {
		const files = { ...PROJECT_POLICY, ".pi/settings.json": "{}" };
		expect(await statusMode(files)).toBe("warn");
		await fixture?.dispose();
		expect(await statusMode(files, ["--approve"])).toBe("block");
	});
});
