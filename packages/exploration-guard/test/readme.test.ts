// The README's copyable JSON examples are valid configs, and its documented strings match the code.
import { readFile } from "node:fs/promises";
import { stripSchemaKey } from "@pi-policy/policy-kernel/config";
import {
	EXPLORATION_GUARD_DEFAULTS,
	explorationBlockReason,
	resolveExplorationGuardConfig,
} from "@pi-policy/policy-kernel/exploration";
import { describe, expect, it } from "vitest";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const guide = await readFile(new URL("../../../docs/exploration-guard.md", import.meta.url), "utf8");

function fencedBlocks(markdown: string, language: string): string[] {
	const blocks: string[] = [];
	const ticks = "`".repeat(3);
	const fence = new RegExp(`${ticks}${language}\\n([\\s\\S]*?)${ticks}`, "g");
	for (const match of markdown.matchAll(fence)) blocks.push(match[1] ?? "");
	return blocks;
}

describe("README", () => {
	const examples = fencedBlocks(readme, "json");

	it("has copyable JSON examples for warn, block and off", () => {
		expect(examples.length).toBeGreaterThanOrEqual(4);
	});

	it.each(fencedBlocks(readme, "json").map((block, i) => [i, block]))("example %i is a valid config", (_i, block) => {
		const result = resolveExplorationGuardConfig(stripSchemaKey(JSON.parse(block as string)));
		expect(result.ok, result.ok ? "" : result.error).toBe(true);
	});

	it("spells out the defaults in the full example", () => {
		const full = examples.map((block) => JSON.parse(block) as Record<string, unknown>).find((c) => "childEnv" in c);
		expect(full).toEqual({ ...EXPLORATION_GUARD_DEFAULTS, mode: "block" });
	});

	it("quotes the exact block reason", () => {
		expect(fencedBlocks(readme, "text")).toContain(`${explorationBlockReason(EXPLORATION_GUARD_DEFAULTS)}\n`);
	});

	it.each([
		"Not a security boundary",
		"never inspects or regulates `bash`",
		"pi install npm:@pi-policy/exploration-guard",
		"pi install ./packages/exploration-guard",
		"/exploration-guard status",
		"/exploration-guard allow [1..20]",
		"/exploration-guard off",
		"fallback-warn-only",
		"PI_SUBAGENT_CHILD",
		"## Privacy",
		"## Failure behaviour",
		"## Roll back",
		'Set `"mode": "off"`',
		"/reload",
	])("documents %s", (text) => {
		expect(readme).toContain(text);
	});

	it("has a user guide that links the README", () => {
		expect(guide).toContain("packages/exploration-guard/README.md");
		for (const block of fencedBlocks(guide, "json")) {
			expect(resolveExplorationGuardConfig(JSON.parse(block)).ok).toBe(true);
		}
	});
});

describe("README: $schema and status wording", () => {
	it('shows a copyable "$schema" example (validated above) and the status wording', () => {
		expect(fencedBlocks(readme, "json").some((block) => block.includes('"$schema"'))).toBe(true);
		expect(readme).toContain("off (no config file)");
		expect(readme).toContain("<global|project> <key>: <reason>");
		expect(readme).toContain("invalid JSON at line 3, column 1");
	});
});
