// Eighty-first review: the workspace reached through `work -> via/../work` (`via -> outer/sub`, `outer/work ->
// ../data-ws`): the link text names the link itself when `..` is taken as text. Every reader answers, and no shell
// source calls Node's JS `realpathSync`, which loops forever on it.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { linkHoldingFolders } from "../src/git-folder-reader.ts";
import { createPathLinkReader, readLinkRoots } from "../src/path-link-reader.ts";
import { guardianSandboxPerTest } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

function layout(): { parent: string; work: string } {
	const parent = join(sandbox.home, "layout");
	mkdirSync(parent);
	mkdirSync(join(parent, "data-ws"));
	mkdirSync(join(parent, "outer/sub"), { recursive: true });
	writeFileSync(join(parent, "outer/sub/.keep"), "");
	symlinkSync("../data-ws", join(parent, "outer/work"));
	symlinkSync("outer/sub", join(parent, "via"));
	symlinkSync("via/../work", join(parent, "work"));
	return { parent, work: join(parent, "work") };
}

describe("`work -> via/../work`", () => {
	it("linkHoldingFolders answers", () => {
		const { parent, work } = layout();
		expect(linkHoldingFolders(work)).toContain(join(parent, "outer"));
	});
	it("readLinkRoots answers", () => {
		const { parent, work } = layout();
		expect(readLinkRoots({ cwd: work, home: parent })[0]?.real).toBe(join(parent, "data-ws"));
	});
	it("the path link reader answers for a write of notes.md", () => {
		const { parent, work } = layout();
		expect(
			createPathLinkReader().read([join(work, "notes.md")], { cwd: work, home: parent }).size,
		).toBeGreaterThanOrEqual(0);
	});
	it("armedPathsAround answers", async () => {
		const { parent, work } = layout();
		expect(await createGitConfigFacts(parent).armedPathsAround(work, [work])).toBeDefined();
	});
});

describe("the shell's sources", () => {
	it("never call Node's JS realpathSync (it takes `..` as text and loops on `work -> via/../work`)", () => {
		const folder = new URL("../src/", import.meta.url);
		for (const name of readdirSync(folder)) {
			const text = readFileSync(new URL(name, folder), "utf8");
			expect({ name, calls: text.match(/realpathSync\((?!\))/g) ?? [] }).toEqual({ name, calls: [] });
		}
	});
});
