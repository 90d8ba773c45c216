// The guide `pnpm try` loads, in a real Pi session: the prepared prompt is typed into the editor at startup only,
// so `/reload` (which emits session_start again) never appends it to what the user has typed since.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../pi-harness/src/index.ts";
import tryGuide from "../src/guide-extension.ts";

const GUIDE = { lines: ["Enter sends the prepared prompt."], prompt: "Who should do which part of the fix?" };
let harness: Harness | undefined;
const saved = process.env.PI_POLICY_TRY_GUIDE;

afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
	if (saved === undefined) delete process.env.PI_POLICY_TRY_GUIDE;
	else process.env.PI_POLICY_TRY_GUIDE = saved;
});

describe("pnpm try guide", () => {
	it("types the prompt at startup, and leaves the editor alone after /reload", async () => {
		process.env.PI_POLICY_TRY_GUIDE = JSON.stringify(GUIDE);
		harness = await createHarness({ extensions: [tryGuide] });
		const ui = harness.ui?.context;
		expect(ui?.getEditorText()).toBe(GUIDE.prompt);
		ui?.setEditorText("/delegate status");
		await harness.session.reload();
		expect(ui?.getEditorText()).toBe("/delegate status");
		expect(harness.ui?.displayedText()).toContain(GUIDE.lines[0]);
	});
});
