// The shell's tree lister on real git folders: a reflog or legacy remote file is judged within 8 MiB and a message
// git leaves for an editor within 1 MiB (decision 0019); a larger file, or one that is not a regular file, makes the
// tree `unknown` (review), never `none`.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { applyGuardianDefaults, floorContextFor, treeEntryTest } from "@pi-policy/policy-kernel/guardian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSearchTreeVerdict } from "../src/search-tree-reader.ts";

let workspace: string;
let home: string;
beforeEach(() => {
	const base = mkdtempSync(join(tmpdir(), "guardian-tree-bounds-"));
	workspace = join(base, "repo");
	home = join(base, "home");
	mkdirSync(workspace, { recursive: true });
	mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(dirname(workspace), { recursive: true, force: true }));

function files(entries: Record<string, string>): void {
	for (const [path, text] of Object.entries(entries)) {
		mkdirSync(dirname(join(workspace, path)), { recursive: true });
		writeFileSync(join(workspace, path), text);
	}
}

const rootVerdict = () =>
	readSearchTreeVerdict(
		{ root: workspace, skipsHidden: false, followsLinks: false },
		treeEntryTest(floorContextFor(applyGuardianDefaults({ mode: "enforce" }), workspace, home)),
	);

/** A text of exactly `bytes` bytes, in reflog-like lines, holding no URL. */
function filler(bytes: number): string {
	const line = `${"0".repeat(40)} ${"1".repeat(40)} t <t@example.invalid> 1 +0000\tcommit: x\n`;
	const text = line.repeat(Math.ceil(bytes / line.length));
	return `${text.slice(0, bytes - 1)}\n`;
}

const MIB = 1024 * 1024;

describe("the size bounds of a git folder's judged files", () => {
	beforeEach(() => files({ ".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n\tbare = false\n" }));

	it("judges a reflog of 8 MiB by its text, and sends a larger one to review", async () => {
		files({ ".git/logs/HEAD": filler(8 * MIB) });
		expect(await rootVerdict()).toBe("none");
		files({ ".git/logs/HEAD": filler(8 * MIB + 1) });
		expect(await rootVerdict()).toBe("unknown");
	});

	it("judges a legacy remote file of 2 MiB by its text", async () => {
		files({ ".git/remotes/origin": `URL: https://example.invalid/r.git\n${filler(2 * MIB)}` });
		expect(await rootVerdict()).toBe("none");
		files({ ".git/remotes/origin": `${filler(2 * MIB)}URL: https://oauth2:tok@example.invalid/r.git\n` });
		expect(await rootVerdict()).toBe("protected");
	});

	it("judges a message of 1 MiB by its text, and sends a larger one to review", async () => {
		files({ ".git/COMMIT_EDITMSG": filler(MIB) });
		expect(await rootVerdict()).toBe("none");
		files({ ".git/COMMIT_EDITMSG": filler(MIB + 1) });
		expect(await rootVerdict()).toBe("unknown");
	});

	it("sends a reflog or a message that is a link to review, whatever its target holds", async () => {
		files({ "notes.txt": "plain\n" });
		mkdirSync(join(workspace, ".git", "logs"), { recursive: true });
		symlinkSync(join(workspace, "notes.txt"), join(workspace, ".git", "logs", "HEAD"));
		expect(await rootVerdict()).toBe("unknown");
		rmSync(join(workspace, ".git", "logs"), { recursive: true });
		symlinkSync(join(workspace, "notes.txt"), join(workspace, ".git", "MERGE_MSG"));
		expect(await rootVerdict()).toBe("unknown");
	});
});
