// Until the first release the packages are not on npm: every guide and package README leads with the checkout
// form (`pnpm exec pi install ./packages/<name>`), and names `pi install|remove npm:…` only as "after the first
// release". A rollback that names npm also names the checkout form.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// Every package but the kernel is an extension with a guide and a README.
const extensions = readdirSync(join(repoRoot, "packages")).filter((name) => name !== "policy-kernel");
const files = extensions.flatMap((name) => [
	[name, `docs/${name}.md`],
	[name, `packages/${name}/README.md`],
]);

/** The `pi <verb> npm:@pi-policy/<name>` mentions that are not a packed tarball (`…@file:`), with their offsets. */
function npmMentions(text: string, verb: "install" | "remove", name: string): number[] {
	const pattern = new RegExp(`pi ${verb} npm:@pi-policy/${name}(?!@file:)`, "g");
	return [...text.matchAll(pattern)].map((match) => match.index);
}

/** Prose within one short paragraph around an offset, newlines folded. */
function around(text: string, at: number): string {
	return text.slice(Math.max(0, at - 120), at + 160).replace(/\s+/g, " ");
}

describe.each(files)("%s: %s", (name, file) => {
	const text = readFileSync(join(repoRoot, file), "utf8");

	it("installs from the checkout before it names npm", () => {
		const checkout = text.indexOf(`pnpm exec pi install ./packages/${name}`);
		expect(checkout, "checkout install form").toBeGreaterThanOrEqual(0);
		for (const at of npmMentions(text, "install", name)) expect(checkout).toBeLessThan(at);
	});

	it("names npm only as after the first release", () => {
		for (const at of [...npmMentions(text, "install", name), ...npmMentions(text, "remove", name)]) {
			expect(around(text, at)).toMatch(/after the first release/i);
		}
	});

	it("a rollback through npm also gives the checkout form", () => {
		if (npmMentions(text, "remove", name).length === 0) return;
		expect(text).toMatch(new RegExp(`pi remove \\./packages/${name}`));
	});
});
