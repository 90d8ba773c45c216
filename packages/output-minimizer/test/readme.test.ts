// The README's configuration examples must be valid configs: every ```json block is parsed with the kernel parser.
import { readFileSync } from "node:fs";
import { parseJsonText } from "@pi-policy/policy-kernel/config";
import { OUTPUT_MINIMIZER_DEFAULTS, resolveOutputMinimizerConfig } from "@pi-policy/policy-kernel/minimize";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] as string);

describe("README configuration examples", () => {
	it("has the default, an extended, an off and a $schema example", () => {
		expect(blocks).toHaveLength(4);
	});

	it.each(blocks.map((block, index) => [index, block]))("example %i parses and validates", (_index, block) => {
		const parsed = parseJsonText(block);
		expect(parsed.ok).toBe(true);
		const resolved = resolveOutputMinimizerConfig({ global: parsed.ok ? parsed.value : undefined });
		expect(resolved.ok, resolved.ok ? "" : resolved.error).toBe(true);
	});

	it("shows the real defaults in the first example", () => {
		const parsed = parseJsonText(blocks[0]);
		expect(parsed.ok && parsed.value).toEqual({ ...OUTPUT_MINIMIZER_DEFAULTS });
	});
});

describe("README: $schema and status wording", () => {
	it('shows a copyable "$schema" example (validated above) and the status wording', () => {
		expect(blocks.some((block) => block.includes('"$schema"'))).toBe(true);
		// What the config-lifecycle suite sees with no config file: on once installed.
		expect(readme).toContain("`output-minimizer: active (mode reference)`");
		expect(readme).toContain("`off (set in the config file)`");
		expect(readme).toContain("<global|project> <key>: <reason>");
		expect(readme).toContain("invalid JSON at line 3, column 1");
	});

	it("points $schema where a config in ~/.pi/agent/policy/ can reach it, as the other packages' READMEs do", () => {
		// A relative node_modules path means nothing next to the global config file.
		expect(readme).not.toContain("node_modules/@pi-policy/output-minimizer/schema.json");
		expect(readme.replace(/\s+/g, " ")).toContain(
			'until the first release point `"$schema"` at `packages/output-minimizer/schema.json` in your checkout',
		);
		expect(readme).toContain('"$schema": "https://unpkg.com/@pi-policy/output-minimizer/schema.json"');
	});
});
