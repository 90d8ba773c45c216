// Writes a package's schema.json from the TypeBox config schema the kernel exports, so editors can complete
// the config file. Run from the package folder after tsup; package.json names the schema:
//   "piPolicy": { "schema": { "module": "@pi-policy/policy-kernel/<domain>", "export": "<SchemaName>" } }
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const packageDir = process.cwd();
const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
	name: string;
	piPolicy?: { schema?: { module: string; export: string } };
};
const target = manifest.piPolicy?.schema;
if (!target) {
	console.error(`${manifest.name}: package.json has no piPolicy.schema entry`);
	process.exit(1);
}
const module = (await import(target.module)) as Record<string, unknown>;
const schema = module[target.export];
if (!schema || typeof schema !== "object") {
	console.error(`${manifest.name}: ${target.module} does not export ${target.export}`);
	process.exit(1);
}
const document = {
	$schema: "https://json-schema.org/draft/2020-12/schema",
	title: `${manifest.name} configuration`,
	...JSON.parse(JSON.stringify(schema)),
};
await writeFile(join(packageDir, "schema.json"), `${JSON.stringify(document, null, 2)}\n`);
console.log(`${manifest.name}: wrote schema.json`);
