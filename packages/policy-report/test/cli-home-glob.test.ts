// A quoted glob keeps its `~` from the shell (`'~/team/**/*.jsonl'`, as the README shows it): the CLI reads the
// leading `~` as the home folder (found by a new-user walkthrough: it said "cannot read").
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandHome } from "../src/cli.ts";
import { writeGateCorpus } from "./support/corpus.ts";
import { runCapturedCli as cli } from "./support/run-cli.ts";

const savedHome = process.env.HOME;
let home: string | undefined;

afterEach(async () => {
	process.env.HOME = savedHome;
	if (home !== undefined) await rm(home, { recursive: true, force: true });
	home = undefined;
});

describe("a leading ~ in a CLI input", () => {
	it("reads '~/team/**/*.jsonl' below the home folder", async () => {
		home = await mkdtemp(join(tmpdir(), "policy-report-home-"));
		await writeGateCorpus(join(home, "team"), { sessions: 2, users: 1 });
		process.env.HOME = home;
		const result = await cli(["~/team/**/*.jsonl", "--json"]);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout).sessions).toBe(2);
	});

	it("expands ~ and ~/ only, as a shell would", () => {
		expect(expandHome("~", "/h")).toBe("/h");
		expect(expandHome("~/a/**/*.jsonl", "/h")).toBe("/h/a/**/*.jsonl");
		expect(expandHome("~other/a", "/h")).toBe("~other/a");
		expect(expandHome("a/~/b", "/h")).toBe("a/~/b");
	});
});
