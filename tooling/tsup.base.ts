// One tsup configuration for every publishable package: ESM plus .d.ts, host packages external.
import type { Options } from "tsup";

/** Packages the Pi host provides at run time; never bundled into an extension. */
export const hostPackages = [
	"@earendil-works/pi-coding-agent",
	"@earendil-works/pi-ai",
	"@earendil-works/pi-agent-core",
	"@earendil-works/pi-tui",
	"typebox",
	/^typebox\//,
	/^@pi-policy\//,
];

/** Builds the tsup options for a package from its entry points. */
export function definePackageBuild(entry: Record<string, string>, overrides: Partial<Options> = {}): Options {
	return {
		entry,
		format: ["esm"],
		target: "node22",
		platform: "node",
		dts: true,
		sourcemap: true,
		clean: true,
		splitting: true,
		treeshake: true,
		external: hostPackages,
		tsconfig: "tsconfig.build.json",
		removeNodeProtocol: false,
		// Errors still print; the per-file size listing does not.
		silent: true,
		...overrides,
	};
}
