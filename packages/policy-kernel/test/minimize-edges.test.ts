// output-minimizer planning at its boundaries: a notify body of exactly minBytesToMinimize, and an explicit
// inline result that is an error.
import { describe, expect, it } from "vitest";
import {
	OUTPUT_MINIMIZER_DEFAULTS,
	type OutputMinimizerConfig,
	planNotifyRewrite,
	planToolResult,
} from "../src/minimize/index.js";

const config: OutputMinimizerConfig = OUTPUT_MINIMIZER_DEFAULTS;
const LONG = Array.from({ length: 300 }, (_, i) => `line ${i}: the child explains finding number ${i} in detail.`).join(
	"\n",
);

describe("notify size threshold", () => {
	const notify = (bodyBytes: number) => `Background task completed: **scout**\n\n${"x".repeat(bodyBytes)}`;

	it("minimizes a body of exactly minBytesToMinimize (512 by default) bytes and passes 511 through", () => {
		expect(config.minBytesToMinimize).toBe(512);
		const at = planNotifyRewrite({ customType: "subagent-notify", content: notify(512) }, config);
		expect(at.action).toBe("minimize");
		if (at.action !== "minimize") throw new Error("expected minimize");
		expect(at.body).toBe("x".repeat(512));
		expect(at.rawBytes).toBe(550);
		expect(at.label).toBe("notify-scout");

		expect(planNotifyRewrite({ customType: "subagent-notify", content: notify(511) }, config)).toEqual({
			action: "passthrough",
			reason: "small",
			rawBytes: 549,
		});
	});
});

describe("explicit inline output", () => {
	it("passes an error result with outputMode: inline through unchanged", () => {
		const text = `Run fan-out: 1/64 used, 63 remaining\nChild failed\n\nOutput:\n${LONG}\nMission: abc (failed)`;
		const plan = planToolResult(
			{
				toolName: "subagent",
				input: { agent: "scout", task: "t", outputMode: "inline" },
				content: [{ type: "text", text }],
				details: {
					mode: "single",
					runId: "r1",
					results: [{ agent: "scout", exitCode: 1, error: "Child failed", finalOutput: LONG }],
				},
				isError: true,
			},
			config,
		);
		expect(plan).toEqual({ action: "passthrough", reason: "inline", surface: "single", rawBytes: 17_560 });
	});
});
