#!/usr/bin/env node
// The `pi-policy-report` executable: runs the CLI on process.argv and sets the exit code.
import { runCli } from "./cli.js";

const { code } = await runCli(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	stderrIsTTY: process.stderr.isTTY === true,
});
process.exitCode = code;
