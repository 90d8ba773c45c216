// vitest globalSetup for the workspace: before any test runs, check that ripgrep and fd are on PATH (Pi's grep and
// find tools run them) and stop with one line saying how to install them, instead of dozens of failing tests.
import { testPreflightProblem } from "./pi-harness/src/preflight.ts";

export default function preflight(): void {
	const problem = testPreflightProblem(process.env.PATH);
	if (problem === undefined) return;
	process.stderr.write(`\n${problem}\n`);
	process.exit(1);
}
