// output-minimizer beside context-shunt in one real Pi session, in both load orders: a `*` glob in context-shunt's
// `tools` never covers the delegation tool, so the referenced file holds the child's whole output; where the user
// names `subagent` exactly and context-shunt runs first, output-minimizer leaves its receipt alone rather than
// saving that receipt as if it were the child's output.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool, realText } from "@pi-policy/pi-harness";
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { createContextShunt } from "../../context-shunt/src/index.ts";
import outputMinimizer from "../src/index.ts";
import { referencesIn } from "./support/helpers.ts";
import { createStockSubagent } from "./support/stock-subagent.ts";

const sessions = sessionPerTest({ tools: ["read", "bash", "subagent", "context_shunt_recover"] });
const tempRoots: string[] = [];
afterEach(() => {
	for (const root of tempRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function delegate(order: "shunt-first" | "minimizer-first", tools: Record<string, string>) {
	const stock = createStockSubagent();
	const output = realText(60_000, 3);
	stock.queue({ kind: "single", child: { agent: "scout", output } });
	const tempRoot = mkdtempSync(join(tmpdir(), "om-cs-"));
	tempRoots.push(tempRoot);
	const shunt = createContextShunt({ tempRoot });
	const extensions =
		order === "shunt-first" ? [stock.extension, shunt, outputMinimizer] : [stock.extension, outputMinimizer, shunt];
	const h = await sessions.start({ extensions, config: { "context-shunt": { mode: "enforce", tools } } });
	h.script(callTool("subagent", { agent: "scout", task: "Survey" }), "done");
	await h.prompt("go");
	const result = h.toolResults()[0];
	return { output, text: result === undefined ? "" : h.toolResultText(result) };
}

describe("output-minimizer with context-shunt", () => {
	it.each(["shunt-first", "minimizer-first"] as const)(
		'%s, tools {"*": "shunt"}: the referenced file is the child\'s whole output',
		async (order) => {
			const { output, text } = await delegate(order, { "*": "shunt" });
			const [reference] = referencesIn(text);
			expect(reference).toBeDefined();
			expect(readFileSync(reference?.path ?? "", "utf8")).toBe(output);
			expect(text).not.toContain("[context-shunt]");
		},
	);

	it('shunt-first with "subagent" named exactly: the receipt stays, and no file claims to be the output', async () => {
		const { text } = await delegate("shunt-first", { subagent: "shunt" });
		expect(text).toContain("[context-shunt]");
		expect(referencesIn(text)).toEqual([]);
	});
});
