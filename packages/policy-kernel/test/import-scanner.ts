// Finds module specifiers in TypeScript/JavaScript source and flags imports the pure kernel must not have.
import { builtinModules } from "node:module";

/** One import, export-from, dynamic import or require found in source text. */
export interface FoundImport {
	readonly specifier: string;
	/** True only for `import type …` / `export type … from` statements, which are erased at build time. */
	readonly typeOnly: boolean;
	readonly line: number;
}

const STATEMENT = /(?:^|[\s;{}])(import|export)(\s+type)?(?=[\s{*])(?:[^'"`;]*?\sfrom\s*|\s*)(["'])([^"'\n]+)\3/g;
const DYNAMIC = /(?:^|[^\w$.])(import|require)\s*\(\s*(["'`])([^"'`\n]+)\2/g;

/** Lists every module specifier in `source`. Comments are not stripped, so a mention in a comment also counts. */
export function findImports(source: string): FoundImport[] {
	const found: FoundImport[] = [];
	const lineOf = (match: RegExpExecArray) => {
		const offset = (match.index ?? 0) + match[0].search(/import|export|require/);
		return source.slice(0, offset).split("\n").length;
	};
	for (const match of source.matchAll(STATEMENT)) {
		found.push({ specifier: match[4] as string, typeOnly: match[2] !== undefined, line: lineOf(match) });
	}
	for (const match of source.matchAll(DYNAMIC)) {
		found.push({ specifier: match[3] as string, typeOnly: false, line: lineOf(match) });
	}
	return found;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, name.split("/")[0] as string]));

/** True for `node:*` and bare Node built-ins such as `fs`, `fs/promises` or `path`. */
export function isNodeBuiltin(specifier: string): boolean {
	if (specifier.startsWith("node:")) return true;
	return NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split("/")[0] as string);
}

/** Runtime dependencies the pure kernel may import: typebox (a peer) and its subpaths. */
export function isAllowedKernelDependency(specifier: string): boolean {
	return specifier === "typebox" || specifier.startsWith("typebox/");
}

/**
 * Returns a human-readable violation for each import the pure kernel must not have: any Node built-in
 * (even as a type, to keep the modules portable), a runtime import of `@earendil-works/*` (only
 * `import type` is allowed), and any other runtime package besides typebox.
 */
export function findBoundaryViolations(source: string): string[] {
	const violations: string[] = [];
	for (const { specifier, typeOnly, line } of findImports(source)) {
		if (specifier.startsWith(".")) continue;
		if (isNodeBuiltin(specifier)) violations.push(`line ${line}: node built-in "${specifier}"`);
		else if (specifier.startsWith("@earendil-works/")) {
			if (!typeOnly) violations.push(`line ${line}: runtime import of "${specifier}"`);
		} else if (!typeOnly && !isAllowedKernelDependency(specifier)) {
			violations.push(`line ${line}: runtime dependency "${specifier}"`);
		}
	}
	return violations;
}
