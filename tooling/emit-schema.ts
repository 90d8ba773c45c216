// Writes a package's schema.json from the TypeBox config schema the kernel exports, so editors can complete
// the config file. Run from the package folder after tsup; package.json names the schema:
//   "piPolicy": { "schema": { "module": "@pi-policy/policy-kernel/<domain>", "export": "<SchemaName>" } }

import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.cwd();

/**
 * Resolves a bare specifier such as `@pi-policy/policy-kernel/minimize` from the package's own node_modules,
 * through the target package's `exports` map (exact subpath or a `./*` pattern, `import` condition).
 */
function resolveFromPackage(specifier: string): string {
	const parts = specifier.split("/");
	const nameLength = specifier.startsWith("@") ? 2 : 1;
	const name = parts.slice(0, nameLength).join("/");
	const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join("/")}` : ".";
	const targetDir = join(packageDir, "node_modules", name);
	const exportsMap = (JSON.parse(readFileSync(join(targetDir, "package.json"), "utf8")) as { exports?: unknown })
		.exports as Record<string, unknown> | undefined;
	const pick = (entry: unknown): string | undefined =>
		typeof entry === "string" ? entry : ((entry as { import?: string } | undefined)?.import ?? undefined);
	let target = pick(exportsMap?.[subpath]);
	if (!target) {
		for (const [key, value] of Object.entries(exportsMap ?? {})) {
			if (!key.endsWith("*")) continue;
			const prefix = key.slice(0, -1);
			const pattern = pick(value);
			if (pattern && subpath.startsWith(prefix)) target = pattern.replace("*", subpath.slice(prefix.length));
		}
	}
	if (!target) throw new Error(`${specifier} is not exported by ${name}`);
	return join(targetDir, target);
}
const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
	name: string;
	piPolicy?: { schema?: { module: string; export: string } };
};
const target = manifest.piPolicy?.schema;
if (!target) {
	console.error(`${manifest.name}: package.json has no piPolicy.schema entry`);
	process.exit(1);
}
const module = (await import(pathToFileURL(resolveFromPackage(target.module)).href)) as Record<string, unknown>;
const schema = module[target.export];
if (!schema || typeof schema !== "object") {
	console.error(`${manifest.name}: ${target.module} does not export ${target.export}`);
	process.exit(1);
}
const body = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
// Every config file may name its schema for editors; the config lifecycle strips "$schema" before validating.
const schemaHint = { type: "string", description: "The JSON schema of this file, for editor completion; ignored." };
if (body.type === "object" && typeof body.properties === "object" && body.properties !== null) {
	body.properties = { $schema: schemaHint, ...(body.properties as Record<string, unknown>) };
} else if (Array.isArray(body.anyOf)) {
	body.anyOf = body.anyOf.map((branch: Record<string, unknown>) =>
		branch.type === "object" && typeof branch.properties === "object"
			? { ...branch, properties: { $schema: schemaHint, ...(branch.properties as Record<string, unknown>) } }
			: branch,
	);
}
const document = {
	$schema: "https://json-schema.org/draft/2020-12/schema",
	title: `${manifest.name} configuration`,
	...body,
};
await writeFile(join(packageDir, "schema.json"), `${JSON.stringify(document, null, 2)}\n`);
console.log(`${manifest.name}: wrote schema.json`);
