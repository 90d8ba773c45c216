// The armed-path read is shared by the folders of one repository within a call (the working directory and a folder
// written ten levels below it): keyed by what the read depends on (the located repository, its top named through
// the path asked about), so folders of different repositories, or one reached through a link that keeps another
// name for the top, are still read each for itself. Checked against one read per folder.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryReadKey } from "../src/git-armed-paths-reader.ts";
import { createGitConfigFacts } from "../src/git-config-reader.ts";
import { locateRepository } from "../src/git-folder-reader.ts";
import { guardianSandboxPerTest, initWithFiles, runGit } from "./helpers.ts";

const sandbox = guardianSandboxPerTest();

/**
 * A workspace repository whose `core.hooksPath` is relative (placed below each name of its top), with a folder ten
 * levels down, a link to its own top (`lnk -> .`), and a second repository beside it with a hooks path of its own.
 */
function layout(): { work: string; deep: string; throughLink: string; other: string; plain: string } {
	const work = join(sandbox.home, "work");
	initWithFiles(sandbox.home, work, { "a/b/c/d/e/f/g/h/i/j/README.md": "x\n", "tools/hooks/.keep": "" });
	runGit(sandbox.home, work, "config", "core.hooksPath", "tools/hooks");
	symlinkSync(".", join(work, "lnk"));
	const other = join(sandbox.home, "other");
	initWithFiles(sandbox.home, other, { "README.md": "x\n" });
	runGit(sandbox.home, other, "config", "core.hooksPath", "githooks");
	const plain = join(sandbox.home, "plain");
	mkdirSync(plain, { recursive: true });
	return { work, deep: join(work, "a/b/c/d/e/f/g/h/i/j"), throughLink: join(work, "lnk/a"), other, plain };
}

describe("repositoryReadKey", () => {
	it("is one key for the folders of one repository, another for a link that names the top otherwise", () => {
		const { work, deep, throughLink, other, plain } = layout();
		const key = (folder: string) => repositoryReadKey(locateRepository(folder));
		expect(key(deep)).toBe(key(work));
		expect(key(throughLink)).not.toBe(key(work));
		expect(key(other)).not.toBe(key(work));
		expect(key(plain)).toBe("none");
		expect(repositoryReadKey("unknown")).toBe("unknown");
	});
});

describe("armedPathsAround with a read shared per repository", () => {
	it("arms, for folders of several repositories in one call, what reading each folder alone arms", async () => {
		const { work, deep, throughLink, other, plain } = layout();
		const folders = [deep, throughLink, other, plain];
		const together = await createGitConfigFacts(sandbox.home).armedPathsAround(work, folders);
		const alone = new Set<string>();
		for (const folder of folders)
			for (const path of await createGitConfigFacts(sandbox.home).armedPathsAround(work, [folder])) alone.add(path);
		expect(new Set(together)).toEqual(alone);
		// Each repository's hooks path, placed below each name its top was reached by.
		expect(together).toEqual(
			expect.arrayContaining([join(work, "tools/hooks"), join(work, "lnk/tools/hooks"), join(other, "githooks")]),
		);
	});

	it("reads again after invalidate(): a hooks path set between calls is armed in the next", async () => {
		const { work, deep } = layout();
		const facts = createGitConfigFacts(sandbox.home);
		expect(await facts.armedPathsAround(work, [deep])).not.toContain(join(work, "a/hooks"));
		runGit(sandbox.home, work, "config", "core.hooksPath", "a/hooks");
		facts.invalidate();
		expect(await facts.armedPathsAround(work, [deep])).toContain(join(work, "a/hooks"));
	});
});
