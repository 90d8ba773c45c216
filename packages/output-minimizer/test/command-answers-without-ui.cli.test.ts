// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI (`ctx.hasUI` false): `/output-minimizer status`
// and a usage error still answer, on stderr, and JSON mode's stdout stays an event stream.
import { fileURLToPath } from "node:url";
import { type PiCliFixture, startPiCliFixture } from "@pi-policy/loopback-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const EXTENSION = fileURLToPath(new URL("../src/index.ts", import.meta.url));

describe("/output-minimizer without a UI (real pi CLI)", () => {
	let fixture: PiCliFixture;

	beforeAll(async () => {
		fixture = await startPiCliFixture({
			prefix: "minimizer-no-ui-",
			config: { "output-minimizer": { mode: "reference" } },
		});
	});

	afterAll(async () => {
		await fixture?.dispose();
	});

	const run = (mode: string[], prompt: string) =>
		fixture.run([...mode, "--model", "loop/loop-1", "-e", EXTENSION, "-p", prompt], { timeoutMs: 60_000 });

	it("answers /output-minimizer status on stderr in print mode, and never asks the model", async () => {
		const result = await run([], "/output-minimizer status");
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toMatch(/^output-minimizer/m);
		expect(fixture.server.chatRequests).toHaveLength(0);
	});

	it("answers a usage error on stderr in JSON mode, and stdout holds only JSON lines", async () => {
		const result = await run(["--mode", "json"], "/output-minimizer nonsense");
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toContain("Usage: /output-minimizer status");
		for (const line of result.stdout.split("\n").filter((text) => text.trim() !== "")) {
			expect(() => JSON.parse(line), line).not.toThrow();
		}
		expect(fixture.server.chatRequests).toHaveLength(0);
	});
});
