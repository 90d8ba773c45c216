// A fifty-sixth review looked for needless reviews in the commands agents run on TypeScript, Go and Rust
// repositories. Node, npm and tsc take `-v` for `--version`; in real sessions (faux agent and reviewer, real bash)
// `node -v` and `npm -v` are decided by the floor and print their versions, and `pnpm -v`, whose version follows the
// workspace's `packageManager`, still goes to review. guardian-review judges the shell by a plain `PATH` here: the test
// runner's own has pyenv shims and `./node_modules/.bin`, which send every version probe to review.
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials, resultTexts } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-r56-home-" });

describe("version probes with -v, in real sessions", () => {
	it("allows `node -v` and `npm -v` without a model, and reviews `pnpm -v`", async () => {
		const h = await sandbox.start({
			files: { "package.json": '{ "packageManager": "pnpm@10.0.0" }\n' },
			guardianOptions: {
				home: sandbox.home,
				environment: { HOME: sandbox.home, PATH: "/usr/local/bin:/usr/bin:/bin" },
			},
		});
		h.agent(
			callTool("bash", { command: "node -v" }),
			callTool("bash", { command: "npm -v" }),
			callTool("bash", { command: "pnpm -v" }),
			"done",
		);
		expect(await promptsWithDenials(h, 1, "which versions?")).toEqual(["floor", "floor", "reviewer"]);
		const [node, npm] = resultTexts(h);
		expect(node).toMatch(/^v\d+\.\d+\.\d+/);
		expect(npm).toMatch(/^\d+\.\d+\.\d+/);
	});
});
