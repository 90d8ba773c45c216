// Transcript compaction for the reviewer at its default budgets, with inputs sized to the byte: the first and the
// latest user message are always kept, other user messages newest first, the 40 most recent non-user entries,
// separate budgets for conversation (12 KB) and tool entries (8 KB), and the per-entry caps (user 2,000, assistant
// 1,000, tool 600 characters). An entry costs its UTF-8 bytes plus 24.
import { describe, expect, it } from "vitest";
import { compactTranscript, type TranscriptEntry } from "../src/guardian/index.js";

/** A user message of exactly `chars` ASCII characters, recognisable by `label`. */
function user(label: string, chars: number): TranscriptEntry {
	return { kind: "user", text: label.padEnd(chars, ".") };
}

const indexes = (entries: readonly TranscriptEntry[]) =>
	compactTranscript(entries).entries.map((entry) => (entry as { index: number }).index);

describe("user messages", () => {
	// Eight user messages of 2,000 bytes each (1,976 characters + 24) against the 12,000-byte budget: six fit.
	const eight = Array.from({ length: 8 }, (_, i) => user(`user message ${i}`, 1976));

	it("keeps the first and the latest user message even when the budget cannot hold every user message", () => {
		const compact = compactTranscript(eight);
		expect(compact.entries[0]?.text.startsWith("user message 0")).toBe(true);
		expect(compact.entries.at(-1)?.text.startsWith("user message 7")).toBe(true);
		expect(compact.omitted).toBe(2);
		expect(compact.total).toBe(8);
	});

	it("fills the rest of the budget with the other user messages newest first", () => {
		expect(indexes(eight)).toEqual([0, 3, 4, 5, 6, 7]);
	});

	it("keeps user messages filling the 12,000-byte budget to the byte, and omits one more of 25 bytes", () => {
		// Six messages of 2,000 bytes fill the budget exactly; a 1-character message (25 bytes) at index 1 is
		// reached last (newest first) and no longer fits.
		const list = [user("first", 1976), user("x", 1)];
		for (let i = 2; i <= 5; i++) list.push(user(`middle ${i}`, 1976));
		list.push(user("latest", 1976));
		const compact = compactTranscript(list);
		expect(compact.entries.map((entry) => entry.index)).toEqual([0, 2, 3, 4, 5, 6]);
		expect(compact.omitted).toBe(1);
		expect(compact.truncated).toBe(0);
	});
});

describe("non-user entries", () => {
	it("keeps the 40 most recent non-user entries and omits the older ones", () => {
		const list: TranscriptEntry[] = [{ kind: "user", text: "tidy the repository" }];
		for (let i = 1; i <= 50; i++) {
			list.push(
				i % 2 === 0
					? { kind: "assistant", text: `note ${i}` }
					: { kind: "tool-result", toolName: "ls", text: `listing ${i}` },
			);
		}
		const compact = compactTranscript(list);
		expect(compact.entries.map((entry) => entry.index)).toEqual([0, ...Array.from({ length: 40 }, (_, i) => 11 + i)]);
		expect(compact.entries[1]?.text).toBe("listing 11");
		expect(compact.entries.at(-1)?.text).toBe("note 50");
		expect(compact.omitted).toBe(10);
	});

	it("charges assistant text to the conversation budget, so a full tool budget does not push it out", () => {
		// 12 tool results of 624 bytes use 7,488 of the 8,000 tool bytes; the 5 assistant messages (1,024 bytes each)
		// come from the 12,000-byte conversation budget.
		const list: TranscriptEntry[] = [{ kind: "user", text: "go" }];
		for (let i = 0; i < 5; i++) list.push({ kind: "assistant", text: `${i}`.padEnd(1000, "a") });
		for (let i = 0; i < 12; i++) list.push({ kind: "tool-result", toolName: "bash", text: `${i}`.padEnd(600, "r") });
		const compact = compactTranscript(list);
		expect(compact.entries.map((entry) => entry.kind)).toEqual([
			"user",
			...Array<string>(5).fill("assistant"),
			...Array<string>(12).fill("tool-result"),
		]);
		expect(compact.omitted).toBe(0);
	});

	it("gives tool entries their own 8,000-byte budget: 12 results of 624 bytes fit, the 2 oldest of 14 do not", () => {
		const list: TranscriptEntry[] = [{ kind: "user", text: "go" }];
		for (let i = 1; i <= 14; i++) list.push({ kind: "tool-result", toolName: "bash", text: `${i}`.padEnd(600, "r") });
		list.push({ kind: "assistant", text: "a".repeat(1000) });
		const compact = compactTranscript(list);
		expect(compact.entries.map((entry) => entry.index)).toEqual([0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
		expect(compact.omitted).toBe(2);
	});
});

describe("per-entry caps", () => {
	it.each([
		["user", 2000, `${"u".repeat(989)}…[24 chars omitted]…${"u".repeat(988)}`],
		["assistant", 1000, `${"a".repeat(489)}…[24 chars omitted]…${"a".repeat(488)}`],
		["tool-call", 600, `${"c".repeat(289)}…[24 chars omitted]…${"c".repeat(288)}`],
		["tool-result", 600, `${"r".repeat(289)}…[24 chars omitted]…${"r".repeat(288)}`],
	] as const)(
		"caps %s entries at %i characters: one that long stays whole, one character more is cut",
		(kind, cap, cut) => {
			const letter = cut[0] as string;
			const opening: TranscriptEntry = { kind: "user", text: "start" };
			const atCap = compactTranscript([opening, { kind, toolName: "bash", text: letter.repeat(cap) }]);
			expect(atCap.entries[1]?.text).toBe(letter.repeat(cap));
			expect(atCap.truncated).toBe(0);
			const over = compactTranscript([opening, { kind, toolName: "bash", text: letter.repeat(cap + 1) }]);
			expect(over.entries[1]?.text).toBe(cut);
			expect(over.truncated).toBe(1);
		},
	);
});
