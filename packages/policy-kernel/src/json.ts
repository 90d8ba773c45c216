// JSON value helpers shared by every domain: the one record guard and the one canonical JSON encoding.

/** True for any non-null, non-array object (a JSON object as parsed, or any record-like value). */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` and functions dropped, non-finite numbers as
 * `null`. Equal inputs in any key order give the same text. Cycles are replaced by `null`. Never throws.
 *
 * Used wherever a call or an action must be identified exactly: guardian-review's action hash (verdict reuse,
 * allow-once) and context-shunt's exception fingerprint.
 */
export function canonicalJson(value: unknown): string {
	const seen = new Set<unknown>();
	const encode = (v: unknown): string | undefined => {
		if (v === null) return "null";
		if (typeof v === "string") return JSON.stringify(v);
		if (typeof v === "number") return Number.isFinite(v) ? JSON.stringify(v) : "null";
		if (typeof v === "boolean") return v ? "true" : "false";
		if (typeof v !== "object") return undefined;
		if (seen.has(v)) return "null";
		seen.add(v);
		let text: string;
		if (Array.isArray(v)) text = `[${v.map((item) => encode(item) ?? "null").join(",")}]`;
		else {
			const record = v as Record<string, unknown>;
			const parts: string[] = [];
			for (const key of Object.keys(record).sort()) {
				let encoded: string | undefined;
				try {
					encoded = encode(record[key]);
				} catch {
					encoded = "null";
				}
				if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`);
			}
			text = `{${parts.join(",")}}`;
		}
		seen.delete(v);
		return text;
	};
	try {
		return encode(value) ?? "null";
	} catch {
		return "null";
	}
}
