// Guardian config through the config lifecycle (global file over the defaults, then a trusted project file): the
// reviewer's session-model fallback and its output budget are the global file's choice, so a project file that sets
// them is ignored, each key on its own.
import { describe, expect, it } from "vitest";
import { type ConfigFileRead, resolvePolicyConfig } from "../src/config.js";
import {
	GUARDIAN_PROJECT_LOCKED_KEYS,
	GUARDIAN_STRENGTHEN_RULES,
	GuardianReviewConfigSchema,
	guardianDefaultsLayer,
	resolveGuardianReviewLayer,
} from "../src/guardian/index.js";

const text = (value: unknown): ConfigFileRead => ({ kind: "text", text: JSON.stringify(value) });
const missing: ConfigFileRead = { kind: "missing" };

/** The kernel part of the guardian-review extension's lifecycle spec (packages/guardian-review/src/index.ts). */
function resolve(global: ConfigFileRead, project: ConfigFileRead) {
	return resolvePolicyConfig(
		{ global, project },
		{
			schema: GuardianReviewConfigSchema,
			defaults: guardianDefaultsLayer(),
			projectLayer: { strengthen: GUARDIAN_STRENGTHEN_RULES, locked: GUARDIAN_PROJECT_LOCKED_KEYS },
			resolve: resolveGuardianReviewLayer,
		},
	);
}

function reviewerOf(result: ReturnType<typeof resolve>) {
	if (result.status !== "valid") throw new Error(`expected a valid config, got ${JSON.stringify(result)}`);
	return { reviewer: result.config.reviewer, ignored: result.ignored };
}

describe("reviewer keys a project file may not set", () => {
	it("names reviewer.fallbackToSessionModel and reviewer.maxOutputTokens among the locked keys", () => {
		expect(GUARDIAN_PROJECT_LOCKED_KEYS).toContain("reviewer.fallbackToSessionModel");
		expect(GUARDIAN_PROJECT_LOCKED_KEYS).toContain("reviewer.maxOutputTokens");
	});

	it("keeps the default session-model fallback when only the project file turns it off", () => {
		const result = resolve(missing, text({ mode: "enforce", reviewer: { fallbackToSessionModel: false } }));
		expect(reviewerOf(result)).toEqual({
			reviewer: { fallbackToSessionModel: true, timeoutMs: 60000, maxOutputTokens: 1024 },
			ignored: 1,
		});
	});

	it("keeps the default output budget when only the project file changes it", () => {
		const result = resolve(missing, text({ mode: "enforce", reviewer: { maxOutputTokens: 4096 } }));
		expect(reviewerOf(result)).toEqual({
			reviewer: { fallbackToSessionModel: true, timeoutMs: 60000, maxOutputTokens: 1024 },
			ignored: 1,
		});
	});

	it("keeps the global file's fallback and output budget over project values that differ from both", () => {
		const result = resolve(
			text({
				mode: "enforce",
				reviewer: { model: "anthropic/claude-x", fallbackToSessionModel: false, maxOutputTokens: 2048 },
			}),
			text({ reviewer: { fallbackToSessionModel: true, maxOutputTokens: 512 } }),
		);
		expect(reviewerOf(result)).toEqual({
			reviewer: { model: "anthropic/claude-x", fallbackToSessionModel: false, timeoutMs: 60000, maxOutputTokens: 2048 },
			ignored: 2,
		});
	});

	it("still lets the project file shorten the timeout next to the ignored keys", () => {
		const result = resolve(
			text({ mode: "enforce", reviewer: { maxOutputTokens: 2048 } }),
			text({ reviewer: { timeoutMs: 30000, maxOutputTokens: 8192, fallbackToSessionModel: false } }),
		);
		expect(reviewerOf(result)).toEqual({
			reviewer: { fallbackToSessionModel: true, timeoutMs: 30000, maxOutputTokens: 2048 },
			ignored: 2,
		});
	});
});
