// answerCommand: a command's answer is a notification with a UI, a stderr line without one, and never throws.
import { describe, expect, it } from "vitest";
import { answerCommand } from "../src/host/index.js";

describe("answerCommand", () => {
	it("notifies with a UI and writes nothing", () => {
		const notified: Array<[string, string | undefined]> = [];
		const written: string[] = [];
		answerCommand(
			{ hasUI: true, ui: { notify: (text: string, level?: string) => notified.push([text, level]) } },
			"guardian-review: on",
			"warning",
			(text) => written.push(text),
		);
		expect(notified).toEqual([["guardian-review: on", "warning"]]);
		expect(written).toEqual([]);
	});

	it("writes the answer without a UI (print and JSON modes), and with no context at all", () => {
		const written: string[] = [];
		const notify = () => {
			throw new Error("must not be called");
		};
		answerCommand({ hasUI: false, ui: { notify } }, "usage: /x status", "warning", (text) => written.push(text));
		answerCommand(undefined, "second", "info", (text) => written.push(text));
		expect(written).toEqual(["usage: /x status", "second"]);
	});

	it("never throws, whether the UI or the writer fails", () => {
		const failing = () => {
			throw new Error("boom");
		};
		expect(() => answerCommand({ hasUI: true, ui: { notify: failing } }, "a")).not.toThrow();
		expect(() => answerCommand({ hasUI: false }, "b", "info", failing)).not.toThrow();
	});
});
