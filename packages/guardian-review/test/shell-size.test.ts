import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Issue 13 asked for a shell that only carries out the kernel pipeline's effects and "shrinks well below its 530
// lines". The fact reading lives in floor-facts.ts, the reviewer call in reviewer.ts; the factory stays thin.
describe("guardian-review's shell factory", () => {
	it("stays well below the 530 lines it started from (at most 400)", () => {
		const text = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8");
		expect(text.split("\n").length).toBeLessThanOrEqual(400);
	});

	it("reads no facts itself: the readers are used only through floor-facts.ts", () => {
		const text = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8");
		for (const reader of ["git-config-reader", "path-link-reader", "search-tree-reader", "git-history-reader"])
			expect(text).not.toContain(`./${reader}.js`);
	});
});
