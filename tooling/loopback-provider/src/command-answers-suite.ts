// One parametrised vitest suite for every extension's command: in print mode (`-p`) and JSON mode the real `pi` CLI
// has no UI (`ctx.hasUI` false), and `/<command> status` and a usage error must still answer, on stderr, without a
// model request, with JSON mode's stdout left an event stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PiCliFixture, startPiCliFixture } from "./pi-cli-fixture.ts";

/** What {@link commandAnswersWithoutUiSuite} needs to know about one extension. */
export interface CommandAnswersSuiteOptions {
	/** The package folder name: its global config file's name. */
	readonly name: string;
	/** The extension's entry file, loaded with `-e`. */
	readonly extension: string;
	/** The command without its slash, for example `guardian`. */
	readonly command: string;
	/** The global config the runs use. */
	readonly config: unknown;
	/** What stderr shows for `/<command> status`. */
	readonly status: RegExp;
	/** A usage error's text, for `/<command> nonsense`. */
	readonly usage: string;
}

/** Registers the suite (two real CLI runs). */
export function commandAnswersWithoutUiSuite(options: CommandAnswersSuiteOptions): void {
	describe(`/${options.command} without a UI (real pi CLI)`, () => {
		let fixture: PiCliFixture;

		beforeAll(async () => {
			fixture = await startPiCliFixture({
				prefix: `${options.name}-no-ui-`,
				config: { [options.name]: options.config },
			});
		});

		afterAll(async () => {
			await fixture?.dispose();
		});

		const run = (mode: string[], prompt: string) =>
			fixture.run([...mode, "--model", "loop/loop-1", "-e", options.extension, "-p", prompt], { timeoutMs: 60_000 });

		it(`answers /${options.command} status on stderr in print mode, and never asks the model`, async () => {
			const result = await run([], `/${options.command} status`);
			expect(result.code, result.stderr).toBe(0);
			expect(result.stderr).toMatch(options.status);
			expect(fixture.server.chatRequests).toHaveLength(0);
		});

		it("answers a usage error on stderr in JSON mode, and stdout holds only JSON lines", async () => {
			const result = await run(["--mode", "json"], `/${options.command} nonsense`);
			expect(result.code, result.stderr).toBe(0);
			expect(result.stderr).toContain(options.usage);
			for (const line of result.stdout.split("\n").filter((text) => text.trim() !== "")) {
				expect(() => JSON.parse(line), line).not.toThrow();
			}
			expect(fixture.server.chatRequests).toHaveLength(0);
		});
	});
}
