// docs/audit-schema.md says what the code does: the common events belong to every extension that writes audit
// entries, and sizes (context-shunt's per-item `lines` and `bytes`) are counts the rule allows.
import { readFileSync } from "node:fs";
import { AUDIT_EVENTS, AUDIT_EXTS, COMMON_AUDIT_EVENTS, validateAuditEntry } from "@pi-policy/policy-kernel/audit";
import { describe, expect, it } from "vitest";

const doc = readFileSync(new URL("../../../docs/audit-schema.md", import.meta.url), "utf8").replace(/\s+/g, " ");
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

describe("docs/audit-schema.md", () => {
	it("counts the extensions the common events belong to", () => {
		for (const ext of AUDIT_EXTS) for (const event of COMMON_AUDIT_EVENTS) expect(AUDIT_EVENTS[ext]).toContain(event);
		expect(doc).toContain(`are common to all ${NUMBER_WORDS[AUDIT_EXTS.length]} (\`COMMON_AUDIT_EVENTS\`)`);
	});

	it("allows sizes of one item as counts, and its quoted context-shunt entries are valid", () => {
		expect(doc).not.toContain("sizes of a single user item");
		const quoted = [...doc.matchAll(/`(blocked|bounded) (\{[^`]*\})`/g)];
		expect(quoted.map((match) => match[1])).toEqual(["blocked", "bounded"]);
		for (const [, event, counters] of quoted) {
			const entry = { v: 1, ext: "context-shunt", event, counters: JSON.parse(counters as string) };
			expect(validateAuditEntry(entry).ok, `${event} ${counters}`).toBe(true);
		}
		expect(doc).toContain("paths, patterns, commands, prompts, tool arguments, ids, and any text from the session");
	});
});
