// The test-only stock `subagent` mirror must format exactly as pi-subagents 0.67.0 does: checked against its source.
import { describe, expect, it } from "vitest";
import { loadPiSubagentsFanout, loadPiSubagentsSingleOutput } from "./support/pi-subagents-source.ts";
import { finalizeSingleOutput, formatRunFanoutBudget, formatSavedOutputReference } from "./support/stock-subagent.ts";

const samples = ["", "a", "a\n", "one\ntwo\r\nthree", "x".repeat(5000), "é😀\n".repeat(700)];

describe("stock subagent mirror parity with pi-subagents 0.67.0", () => {
	it("formats saved-output references identically", async () => {
		const real = await loadPiSubagentsSingleOutput();
		for (const text of samples) {
			expect(formatSavedOutputReference("/tmp/out/result.md", text)).toEqual(
				real.formatSavedOutputReference("/tmp/out/result.md", text),
			);
		}
	});

	it("finalizes single output identically (inline, file-only, failed)", async () => {
		const real = await loadPiSubagentsSingleOutput();
		for (const params of [
			{ fullOutput: "report\nbody", exitCode: 0 },
			{ fullOutput: "report\nbody", exitCode: 0, savedPath: "/tmp/o.md" },
			{ fullOutput: "report\nbody", exitCode: 0, savedPath: "/tmp/o.md", outputMode: "file-only" },
			{ fullOutput: "partial", exitCode: 1, savedPath: "/tmp/o.md" },
		]) {
			expect(finalizeSingleOutput(params).displayOutput).toBe(real.finalizeSingleOutput(params).displayOutput);
		}
	});

	it("formats the run fan-out budget line identically", async () => {
		const real = await loadPiSubagentsFanout();
		expect(formatRunFanoutBudget(3)).toBe(real.formatRunFanoutBudget({ used: 3, limit: 64, remaining: 61 }));
	});
});
