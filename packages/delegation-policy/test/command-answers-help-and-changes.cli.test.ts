// The real `pi` CLI in print mode, which has no UI: `/delegate help` and a change such as `/delegate off` answer on
// stderr too, as the README says of every answer, not only status and usage errors.
import { fileURLToPath } from "node:url";
import { type PiCliFixture, startPiCliFixture } from "@pi-policy/loopback-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const EXTENSION = fileURLToPath(new URL("../src/index.ts", import.meta.url));

describe("/delegate help and changes without a UI (real pi CLI)", () => {
	let fixture: PiCliFixture;

	beforeAll(async () => {
		fixture = await startPiCliFixture({
			prefix: "delegation-no-ui-answers-",
			config: { "delegation-policy": { version: 1, intensity: "orchestrator" } },
		});
	});

	afterAll(async () => {
		await fixture?.dispose();
	});

	const run = (prompt: string) =>
		fixture.run(["--model", "loop/loop-1", "-e", EXTENSION, "-p", prompt], { timeoutMs: 60_000 });

	it("prints the usage for /delegate help on stderr, and never asks the model", async () => {
		const result = await run("/delegate help");
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toContain(
			"/delegate reset                drop every session change (back to global defaults)",
		);
		expect(fixture.server.chatRequests).toHaveLength(0);
	});

	it("prints the new footer for /delegate off on stderr", async () => {
		const result = await run("/delegate off");
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toContain("delegation-policy: D:OFF A:OFF\n");
		expect(fixture.server.chatRequests).toHaveLength(0);
	});

	it("says why a change leaves delegation failed closed: the footer, then each diagnostic", async () => {
		const result = await run("/delegate role small nosuch/model");
		expect(result.code, result.stderr).toBe(0);
		const answer = result.stderr.slice(result.stderr.indexOf("delegation-policy: D:ERR"));
		expect(answer).toMatch(/^delegation-policy: D:ERR A:\w+\n- error: .*small/);
		expect(fixture.server.chatRequests).toHaveLength(0);
	});
});
