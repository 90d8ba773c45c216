// The README's JSON examples are valid configs, and the package points at the kernel schema it documents.
import { readFileSync } from "node:fs";
import { stripSchemaKey } from "@pi-policy/policy-kernel/config";
import { resolveContextShuntConfig, resolveToolPolicy, SHUNT_ERROR_CODES } from "@pi-policy/policy-kernel/shunt";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

describe("README", () => {
	it("has copyable JSON examples that the kernel parser accepts", () => {
		expect(blocks.length).toBeGreaterThanOrEqual(4);
		for (const block of blocks) {
			const parsed = resolveContextShuntConfig(stripSchemaKey(JSON.parse(block)));
			expect(parsed).toMatchObject({ ok: true });
		}
	});

	it("keeps the secrets server intact in the tools example, and shunts the other MCP tools", () => {
		const example = blocks.find((block) => block.includes("mcp__secrets__*"));
		const parsed = resolveContextShuntConfig(stripSchemaKey(JSON.parse(example ?? "{}")));
		if (!parsed.ok) throw new Error("the tools example does not parse");
		const tools = parsed.value.tools;
		expect(resolveToolPolicy(tools, "mcp__secrets__get", false)).toBe("intact");
		expect(resolveToolPolicy(tools, "mcp__github__search", false)).toBe("shunt");
		expect(resolveToolPolicy(tools, "my_tool", false)).toBe("shunt");
	});

	it("documents every error code and the contract's numbers", () => {
		for (const text of [
			...SHUNT_ERROR_CODES,
			"| 350 |",
			"| 250 |",
			"16384",
			"8 live artifacts",
			"512 KiB",
			"64 KiB",
			"30 minutes",
			"one minute",
			"1..16 citations",
			"1024..16384",
			"Not a sandbox",
		]) {
			expect(readme).toContain(text);
		}
	});

	it("names the kernel schema export the build emits", () => {
		const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
		expect(manifest.piPolicy.schema).toEqual({
			module: "@pi-policy/policy-kernel/shunt",
			export: "ContextShuntConfigSchema",
		});
	});
});

describe("README: $schema and status wording", () => {
	it('shows a copyable "$schema" example (validated above) and the status wording', () => {
		expect(blocks.some((block) => block.includes('"$schema"'))).toBe(true);
		// What the config-lifecycle suite sees with no config file: live, in mode off.
		expect(readme).toContain("`context-shunt: mode off`");
		expect(readme).toContain("<global|project> <key>: <reason>");
		expect(readme).toContain("invalid JSON at line 3, column 1");
	});
});

describe("docs/context-shunt.md", () => {
	const guide = readFileSync(new URL("../../../docs/context-shunt.md", import.meta.url), "utf8").replace(/\s+/g, " ");

	it("says Pi's bash tool truncates a long log before context-shunt sees it (host-facts: built-in output limits)", () => {
		const example = guide.slice(guide.indexOf("4,000-line log"), guide.indexOf("context_shunt_delegate"));
		expect(example).toContain("Pi's `bash` tool truncates it first");
		expect(example).toContain("last 2,000 lines");
		expect(example).toContain("the first 2,000 lines are only in Pi's temp file");
		expect(example).not.toMatch(/any 250-line or 16 KiB range of it\b/);
	});
});
