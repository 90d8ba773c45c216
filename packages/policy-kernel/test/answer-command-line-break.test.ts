// Without a UI and without a writer of its own, answerCommand writes each answer to stderr as whole lines: a line
// break ends every answer once, so two answers never run together on one line.
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerCommand } from "../src/host/index.js";

afterEach(() => {
	vi.restoreAllMocks();
});

describe("answerCommand on stderr", () => {
	it("ends each answer with one line break", () => {
		const written: string[] = [];
		vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
			written.push(String(chunk));
			return true;
		});
		answerCommand({ hasUI: false }, "guardian-review: off");
		answerCommand(undefined, "usage: /guardian status | on | off | observe | allow-once\n", "warning");
		expect(written.join("")).toBe("guardian-review: off\nusage: /guardian status | on | off | observe | allow-once\n");
	});
});
