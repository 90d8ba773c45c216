// The reviewer prompt's user message and its token budget: the omitted-entries note says how many entries were
// left out, the folder line names every additional directory (up to 32), and with a small token budget the
// transcript and then the action shrink until the whole request fits.
import { describe, expect, it } from "vitest";
import { buildReviewerPrompt, type TranscriptEntry } from "../src/guardian/index.js";
import { utf8ByteLength } from "../src/text.js";

/** The reviewer prompt for a bash command. */
function bashPrompt(
	command: string,
	transcript: readonly TranscriptEntry[],
	extra: { additionalDirectories?: readonly string[]; tokenBudget?: number } = {},
) {
	return buildReviewerPrompt({ toolName: "bash", input: { command }, cwd: "/w", home: "/h", transcript, ...extra });
}

describe("the omitted-entries note", () => {
	it("says so when a single entry was omitted", () => {
		// 41 non-user entries: the oldest one is over the limit of 40.
		const transcript: TranscriptEntry[] = [{ kind: "user", text: "list the folders" }];
		for (let i = 1; i <= 41; i++) transcript.push({ kind: "tool-call", toolName: "ls", text: `{"path":"d${i}"}` });
		const prompt = bashPrompt("ls", transcript);
		expect(prompt.userText).toContain('<transcript entries="42" shown="41">');
		expect(prompt.userText).toContain(
			"<omitted>1 of 42 entries omitted to fit the review budget.</omitted>\n</transcript>",
		);
		expect(prompt.userText).not.toContain('[2] tool call ls: "{\\"path\\":\\"d1\\"}"');
		expect(prompt.userText).toContain('[3] tool call ls: "{\\"path\\":\\"d2\\"}"');
	});

	it("is absent when nothing was omitted", () => {
		const prompt = bashPrompt("ls", [{ kind: "user", text: "list the folders" }]);
		expect(prompt.userText).toContain('<transcript entries="1" shown="1">');
		expect(prompt.userText).not.toContain("<omitted>");
	});
});

describe("the additional-directories line", () => {
	it("names every additional directory up to 32, in order", () => {
		const folders = Array.from({ length: 32 }, (_, i) => `/extra/folder-${i}`);
		const prompt = bashPrompt("ls", [{ kind: "user", text: "look" }], { additionalDirectories: folders });
		const line = prompt.userText.split("\n").find((text) => text.startsWith("The user's config adds"));
		expect(line).toBe(`The user's config adds these folders to the workspace: ${JSON.stringify(folders)}.`);
		expect(prompt.userText).toContain('"/extra/folder-0","/extra/folder-1"');
		expect(prompt.userText).toContain('"/extra/folder-30","/extra/folder-31"]');
	});

	it("leaves out a 33rd directory", () => {
		const folders = Array.from({ length: 33 }, (_, i) => `/extra/folder-${i}`);
		const prompt = bashPrompt("ls", [{ kind: "user", text: "look" }], { additionalDirectories: folders });
		expect(prompt.userText).toContain('"/extra/folder-31"].');
		expect(prompt.userText).not.toContain("/extra/folder-32");
	});
});

describe("a small token budget", () => {
	// 30 call/result pairs (results of 600 characters, 624 bytes each) between two user messages, and a
	// 3,017-character command: about 3,460 tokens at the default budgets.
	const transcript: TranscriptEntry[] = [{ kind: "user", text: "please clean the build folder" }];
	for (let i = 0; i < 30; i++) {
		transcript.push({ kind: "tool-call", toolName: "bash", text: `{"command":"cat part${i}.log"}` });
		transcript.push({ kind: "tool-result", toolName: "bash", text: "r".repeat(600) });
	}
	transcript.push({ kind: "user", text: "now remove it" });
	const command = `rm -rf build/ && ${"x".repeat(3000)}`;
	const toolBytes = (prompt: ReturnType<typeof bashPrompt>) =>
		prompt.transcript.entries
			.filter((entry) => entry.kind === "tool-call" || entry.kind === "tool-result")
			.reduce((sum, entry) => sum + utf8ByteLength(entry.text) + 24, 0);

	it("fits the default budget without shrinking", () => {
		const prompt = bashPrompt(command, transcript);
		expect(prompt.shrunk).toBe(false);
		expect(prompt.tokenBudget).toBe(8000);
		expect(prompt.estimatedTokens).toBeLessThanOrEqual(8000);
		expect((prompt.action as { command: string }).command).toBe(command);
	});

	it("shrinks the transcript first: at 3,000 tokens the tool budget halves and the action stays whole", () => {
		const prompt = bashPrompt(command, transcript, { tokenBudget: 3000 });
		expect(prompt.shrunk).toBe(true);
		expect(prompt.tokenBudget).toBe(3000);
		expect(prompt.estimatedTokens).toBeLessThanOrEqual(3000);
		expect((prompt.action as { command: string }).command).toBe(command);
		expect(toolBytes(prompt)).toBeLessThanOrEqual(4000);
		// Both user messages, the 5 newest call/result pairs and 11 more calls of 53 bytes.
		expect(prompt.transcript.entries).toHaveLength(23);
	});

	it("then shrinks the action: at 2,000 tokens the command is cut to at most 2,000 characters", () => {
		const prompt = bashPrompt(command, transcript, { tokenBudget: 2000 });
		expect(prompt.shrunk).toBe(true);
		expect(prompt.estimatedTokens).toBeLessThanOrEqual(2000);
		const cut = (prompt.action as { command: string }).command;
		expect(cut.length).toBeLessThanOrEqual(2000);
		expect(cut.startsWith("rm -rf build/ && xxx")).toBe(true);
		expect(cut).toMatch(/…\[\d+ chars omitted\]…/);
		expect(toolBytes(prompt)).toBeLessThanOrEqual(2000);
	});

	it("at its last step keeps only the user messages and a command of at most 400 characters", () => {
		const prompt = bashPrompt(command, transcript, { tokenBudget: 1100 });
		expect(prompt.shrunk).toBe(true);
		expect(prompt.estimatedTokens).toBeLessThanOrEqual(1100);
		expect(prompt.transcript.entries.map((entry) => entry.text)).toEqual([
			"please clean the build folder",
			"now remove it",
		]);
		expect((prompt.action as { command: string }).command.length).toBeLessThanOrEqual(400);
		expect(prompt.userText).toContain("<omitted>60 of 62 entries omitted to fit the review budget.</omitted>");
	});
});
