// A command's answer reaches the user in every mode: a notification where Pi has a UI, else a line on stderr.
import type { NotifyContext } from "./wrap-handler.js";

/** Where {@link answerCommand} writes without a UI. Default: `process.stderr`, one line per answer. */
export type AnswerWriter = (text: string) => void;

const writeStderr: AnswerWriter = (text) => {
	process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
};

/**
 * Shows the answer to a command the user typed (`/guardian status`, a usage error): `ctx.ui.notify` when
 * `ctx.hasUI` (TUI and RPC modes), else `write` (stderr by default). Print mode (`pi -p "/guardian status"`) and
 * JSON mode have no UI, and their stdout carries the model's answer or the event stream, so the answer goes to
 * stderr there instead of nowhere. Never throws.
 */
export function answerCommand(
	ctx: NotifyContext | undefined,
	text: string,
	level: "info" | "warning" | "error" = "info",
	write: AnswerWriter = writeStderr,
): void {
	try {
		if (ctx?.hasUI === true && ctx.ui?.notify !== undefined) {
			ctx.ui.notify(text, level);
			return;
		}
		write(text);
	} catch {
		// An answer is best effort: a failing UI or stream must not break the command.
	}
}
