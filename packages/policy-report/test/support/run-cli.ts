// Runs the pi-policy-report CLI in process and captures what it prints, for the CLI tests.
import { runCli } from "../../src/cli.ts";

/** The CLI's exit code and what it wrote to stdout and stderr. */
export interface CapturedCliRun {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs the CLI with `args`. `tty` makes stderr look like a terminal (the progress bar draws); `onStderr` runs after
 * each write to stderr.
 */
export async function runCapturedCli(
	args: string[],
	options: { tty?: boolean; onStderr?: () => void } = {},
): Promise<CapturedCliRun> {
	let stdout = "";
	let stderr = "";
	const { code } = await runCli(args, {
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
			options.onStderr?.();
		},
		stderrIsTTY: options.tty ?? false,
	});
	return { code, stdout, stderr };
}
