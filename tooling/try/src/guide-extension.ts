// The guide `pnpm try` loads next to the extension under test: a widget above the editor that says what will
// happen and which keys to press, and the prepared prompt already in the editor. It reads its text once, from
// PI_POLICY_TRY_GUIDE (JSON `{ lines, prompt }`), written by tooling/try/src/main.ts.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

interface TryGuide {
	lines: string[];
	prompt: string;
}

function readGuide(raw: string | undefined): TryGuide | undefined {
	if (!raw) return undefined;
	try {
		const value = JSON.parse(raw) as Partial<TryGuide>;
		if (!Array.isArray(value.lines) || typeof value.prompt !== "string") return undefined;
		return { lines: value.lines.filter((line): line is string => typeof line === "string"), prompt: value.prompt };
	} catch {
		return undefined;
	}
}

export default function tryGuide(pi: ExtensionAPI): void {
	const guide = readGuide(process.env.PI_POLICY_TRY_GUIDE);
	if (!guide) return;
	pi.on("session_start", (event, ctx) => {
		if (!ctx.hasUI) return;
		ctx.ui.setWidget("pi-policy-try", guide.lines);
		// Only at startup: after `/reload` (or a new session) the editor keeps what the user typed.
		if (event.reason === "startup") ctx.ui.setEditorText(guide.prompt);
	});
}
