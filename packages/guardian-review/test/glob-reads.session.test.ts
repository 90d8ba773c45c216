// Real Pi sessions (stock Pi's four tools, faux agent and reviewer): a glob word whose parts could meet a protected
// glob (`src/*.py` could be `src/id_rsa.py`) is judged by what it can expand to (decision 0020). The shell lists the
// glob's folder to the glob's depth; with no protected entry there the read needs no reviewer call, and with one it
// is reviewed and a denial keeps the key out of the session.
import { describe, expect, it } from "vitest";
import {
	callTool,
	expectNoLeak,
	expectOneReviewerDenial,
	guardianSandboxPerTest,
	resultTexts,
	verdict,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest();
const STOCK_TOOLS = ["read", "bash", "edit", "write"];
const KEY_TEXT = "-----BEGIN PRIVATE KEY-----\nMIIEglobsessionkey\n-----END PRIVATE KEY-----\n";

const files = {
	"src/app.py": "def app():\n    return 'app body'\n",
	"src/util.py": "def util():\n    return 'util body'\n",
	"README.md": "# readme\n",
	"docs/guide.md": "# guide\n",
	"certs/ca.crt": "public certificate\n",
	"certs/server.key": KEY_TEXT,
};

describe("glob words judged by what they can expand to (decision 0020)", () => {
	it("allows cat src/*.py, ls *.md docs/*.md, head over a wildcard folder and grep -rn over a glob with no reviewer call", async () => {
		const h = await sandbox.start({ tools: STOCK_TOOLS, files });
		h.agent(
			callTool("bash", { command: "cat src/*.py" }),
			callTool("bash", { command: "ls *.md docs/*.md" }),
			callTool("bash", { command: "head -n 1 */*.md" }),
			callTool("bash", { command: "grep -rn body src/*.py" }),
			"done",
		);
		await h.prompt("show me the sources");
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
		]);
		const [sources, listing, heads, matches] = resultTexts(h);
		expect(matches).toContain("src/util.py:2:");
		expect(sources).toContain("app body");
		expect(sources).toContain("util body");
		expect(listing).toContain("docs/guide.md");
		expect(heads).toContain("# guide");
	});

	it("reviews a glob that can expand to a key, and a denial keeps the key out", async () => {
		const h = await sandbox.start({ tools: STOCK_TOOLS, files });
		h.agent(callTool("bash", { command: "cat certs/*" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "reads a private key" }));
		await h.prompt("show the certificates");
		expectOneReviewerDenial(h);
		expect(resultTexts(h).join("\n")).not.toContain("MIIEglobsessionkey");
		expectNoLeak(h, ["MIIEglobsessionkey"]);
	});
});
