// Resolves `@pi-policy/policy-kernel` and its subpaths to the kernel's TypeScript sources in tests, so a stale
// build can never hide a bug: `<name>` → `src/<name>.ts`, or `src/<name>/index.ts` for a folder.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vitest/config";

const kernelSrc = fileURLToPath(new URL("../packages/policy-kernel/src/", import.meta.url));

/** The source file for a kernel specifier, or undefined for anything else. */
export function kernelSourceFile(specifier: string): string | undefined {
	if (specifier === "@pi-policy/policy-kernel") return `${kernelSrc}index.ts`;
	const prefix = "@pi-policy/policy-kernel/";
	if (!specifier.startsWith(prefix)) return undefined;
	const subpath = specifier.slice(prefix.length);
	const file = `${kernelSrc}${subpath}.ts`;
	return existsSync(file) ? file : `${kernelSrc}${subpath}/index.ts`;
}

/** A Vite resolve plugin that maps kernel imports to sources before any other resolution. */
export const kernelSourcePlugin: Plugin = {
	name: "pi-policy-kernel-source",
	enforce: "pre",
	resolveId(source) {
		return kernelSourceFile(source) ?? null;
	},
};
