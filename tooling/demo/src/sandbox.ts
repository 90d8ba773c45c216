// A sandbox for demo sessions: a throwaway HOME, and curl/wget stand-ins so no demo command reaches the network.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** A throwaway HOME and a PATH whose curl and wget never touch the network. */
export function sandboxEnv(): Record<string, string> {
	const home = mkdtempSync(join(tmpdir(), "pi-policy-demo-home-"));
	const bin = join(home, ".demo-bin");
	mkdirSync(bin);
	for (const tool of ["curl", "wget"]) {
		const file = join(bin, tool);
		writeFileSync(
			file,
			`#!/bin/sh\necho "${tool}: (6) Could not resolve host (demo sandbox: no network)" >&2\nexit 6\n`,
		);
		chmodSync(file, 0o755);
	}
	return { HOME: home, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
}

/**
 * Runs `session` with a fresh {@link sandboxEnv}, and removes its throwaway HOME afterwards, whether the session
 * settles or throws: a demo or test run leaves nothing in the temp folder.
 */
export async function withSandboxEnv<T>(session: (env: Record<string, string>) => Promise<T>): Promise<T> {
	const env = sandboxEnv();
	try {
		return await session(env);
	} finally {
		rmSync(env.HOME as string, { recursive: true, force: true });
	}
}
