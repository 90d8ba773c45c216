// The README's JSON examples parse with the kernel's document parser, the schema export exists, and the agent
// profiles ship with the frontmatter the spec asks for.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolvePiSubagentsExtensionPath } from "@pi-policy/loopback-provider";
import { DelegationPolicyConfigSchema, parseDelegationPolicyDocument } from "@pi-policy/policy-kernel/delegation";
import { describe, expect, it } from "vitest";

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

function jsonBlocks(markdown: string): string[] {
	return [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

function frontmatter(markdown: string): Record<string, string> {
	const body = /^---\n([\s\S]*?)\n---\n/.exec(markdown)?.[1] ?? "";
	return Object.fromEntries(
		body.split("\n").map((line) => {
			const at = line.indexOf(":");
			return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
		}),
	);
}

describe("README", () => {
	const readme = readFileSync(root("README.md"), "utf8");
	const blocks = jsonBlocks(readme);

	it("has copyable configuration examples", () => {
		expect(blocks.length).toBeGreaterThanOrEqual(2);
	});

	it.each(blocks.map((block, index) => [index, block]))(
		"JSON example %i is a valid global document",
		(_index, block) => {
			const parsed = parseDelegationPolicyDocument(JSON.parse(block as string));
			expect(parsed).toEqual(expect.objectContaining({ ok: true }));
		},
	);

	it("documents every command, footer token and D cause", () => {
		for (const text of [
			"/delegate status",
			"/delegate reset",
			"/delegate advisor on|off|with-delegation",
			"/delegate role <role> <provider/model|off|default>",
			"D:OFF",
			"D:NORM",
			"D:AGG",
			"D:ORCH",
			"D:ERR",
			"A:ON",
			"A:OFF",
			"A:ERR",
			"role-absent",
			"model-missing",
			"model-unavailable",
			"model-unauthenticated",
			"model-out-of-scope",
			"no-enabled-role",
			"thinking-unsupported",
		]) {
			expect(readme.replaceAll("\\|", "|")).toContain(text);
		}
	});
});

describe("package manifest and agent profiles", () => {
	const pkg = JSON.parse(readFileSync(root("package.json"), "utf8"));

	it("ships the agents folder and declares it for pi-subagents; the schema export exists", () => {
		expect(pkg.files).toContain("agents");
		expect(pkg.pi.subagents.agents).toEqual(["./agents"]);
		expect(pkg.piPolicy.schema).toEqual({
			module: "@pi-policy/policy-kernel/delegation",
			export: "DelegationPolicyConfigSchema",
		});
		expect(typeof DelegationPolicyConfigSchema).toBe("object");
	});

	it("the Advisor profile has no tools, no extensions, a fresh context and a replacing system prompt", () => {
		const meta = frontmatter(readFileSync(root("agents/delegation-policy.advisor.md"), "utf8"));
		expect(meta).toMatchObject({
			name: "delegation-policy.advisor",
			tools: "",
			extensions: "",
			systemPromptMode: "replace",
			inheritProjectContext: "false",
			inheritSkills: "false",
		});
	});

	it("the bulk-reader profile is limited to read, grep, find and ls", () => {
		const meta = frontmatter(readFileSync(root("agents/delegation-policy.bulk-reader.md"), "utf8"));
		expect(meta.name).toBe("delegation-policy.bulk-reader");
		expect(meta.tools?.split(",").map((tool) => tool.trim())).toEqual(["read", "grep", "find", "ls"]);
		expect(meta.extensions).toBe("");
	});

	it("pi-subagents 0.67.0's own frontmatter parser reads no tools for the Advisor and four for the reader", async () => {
		const module = (await import(
			pathToFileURL(join(dirname(resolvePiSubagentsExtensionPath()), "src/agents/frontmatter.ts")).href
		)) as {
			parseFrontmatter(content: string): { frontmatter: Record<string, string> };
			parseFrontmatterList(raw: string | undefined): string[] | undefined;
		};
		const advisor = module.parseFrontmatter(readFileSync(root("agents/delegation-policy.advisor.md"), "utf8"));
		expect(module.parseFrontmatterList(advisor.frontmatter.tools)).toEqual([]);
		expect(module.parseFrontmatterList(advisor.frontmatter.extensions)).toEqual([]);
		const reader = module.parseFrontmatter(readFileSync(root("agents/delegation-policy.bulk-reader.md"), "utf8"));
		expect(module.parseFrontmatterList(reader.frontmatter.tools)).toEqual(["read", "grep", "find", "ls"]);
	});
});

describe("README: $schema and status wording", () => {
	const readme = readFileSync(root("README.md"), "utf8");
	const blocks = jsonBlocks(readme);
	it('shows a copyable "$schema" example (validated above) and the status wording', () => {
		expect(blocks.some((block) => block.includes('"$schema"'))).toBe(true);
		// What the config-lifecycle suite sees with no config file, and the failed-closed form (no project file).
		expect(readme).toContain("`delegation-policy D:OFF A:OFF (delegation is off)`");
		expect(readme).toContain("failed closed: global <key>: <reason>");
		expect(readme).toContain("invalid JSON at line 3, column 1");
	});
});
