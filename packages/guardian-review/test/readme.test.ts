// The README's JSON examples are valid configs for the kernel parser, and the docs state the key facts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseJsonText, parseWithSchema, stripSchemaKey } from "@pi-policy/policy-kernel/config";
import { GuardianReviewConfigSchema, resolveGuardianReviewConfig } from "@pi-policy/policy-kernel/guardian";
import { describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const guide = readFileSync(fileURLToPath(new URL("../../../docs/guardian-review.md", import.meta.url)), "utf8");

function jsonBlocks(markdown: string): string[] {
	return [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

describe("README", () => {
	it("has JSON examples that the kernel parser accepts", () => {
		const blocks = [...jsonBlocks(readme), ...jsonBlocks(guide)];
		expect(blocks.length).toBeGreaterThanOrEqual(4);
		for (const block of blocks) {
			const parsed = parseJsonText(block);
			expect(parsed.ok).toBe(true);
			if (!parsed.ok) continue;
			const checked = parseWithSchema(GuardianReviewConfigSchema, stripSchemaKey(parsed.value));
			expect(checked.ok ? "ok" : checked.error).toBe("ok");
		}
	});

	it("documents the real defaults", () => {
		const defaults = JSON.parse(
			jsonBlocks(readme.slice(readme.indexOf("\n## Every key, with its default\n")))[0] as string,
		) as unknown;
		const resolved = resolveGuardianReviewConfig(undefined, undefined);
		expect(resolved.ok).toBe(true);
		if (!resolved.ok) return;
		const config = resolved.value.config;
		expect(defaults).toEqual({
			mode: config.mode,
			tools: config.tools,
			protectedPaths: config.protectedPaths,
			trustedCommands: config.trustedCommands,
			additionalDirectories: config.additionalDirectories,
			floor: config.floor,
			reviewer: {
				fallbackToSessionModel: config.reviewer.fallbackToSessionModel,
				timeoutMs: config.reviewer.timeoutMs,
				maxOutputTokens: config.reviewer.maxOutputTokens,
			},
			onUnavailable: config.onUnavailable,
			reviewLog: config.reviewLog,
		});
	});

	it("covers what a user must know", () => {
		for (const phrase of [
			"not a sandbox",
			"Load it last",
			"untrusted evidence",
			"allow-once",
			"Rollback",
			"Privacy",
			"Breaker",
			"review-log.jsonl",
		]) {
			expect(readme).toContain(phrase);
		}
	});
});

describe("README: $schema and status wording", () => {
	it('shows a copyable "$schema" example (validated above) and the status wording', () => {
		expect(jsonBlocks(readme).some((block) => block.includes('"$schema"'))).toBe(true);
		expect(readme).toContain("off (no config file)");
		expect(readme).toContain("<global|project> <key>: <reason>");
		expect(readme).toContain("invalid JSON at line 3, column 1");
	});
});
