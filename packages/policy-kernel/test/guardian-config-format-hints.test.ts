// guardian-review's config errors say what a patterned string accepts (the kernel's `formatHint`), as the other
// extensions' do: never "in the required format", never the value given.
import { describe, expect, it } from "vitest";
import { parseWithSchema } from "../src/config.js";
import { GuardianReviewConfigSchema } from "../src/guardian/index.js";

const errorOf = (config: unknown) => {
	const parsed = parseWithSchema(GuardianReviewConfigSchema, config);
	return parsed.ok ? "ok" : parsed.error;
};

describe("guardian-review config errors name the expected form", () => {
	it("says a reviewer model is provider/model-id", () => {
		expect(errorOf({ reviewer: { model: "claude-haiku" } })).toBe(
			'reviewer.model: expected string: "provider/model-id", e.g. "anthropic/claude-haiku-4-5"',
		);
	});

	it("says what an additional directory may be, without echoing it", () => {
		const error = errorOf({ additionalDirectories: ["relative/secret-project"] });
		expect(error).toBe(
			'additionalDirectories.0: expected string of 1 to 400 characters: a folder such as "~/notes" or "/srv/data" (absolute or under ~, no glob characters, not "/")',
		);
		expect(error).not.toContain("secret-project");
	});

	it("accepts the forms the hints name", () => {
		expect(
			errorOf({ reviewer: { model: "anthropic/claude-haiku-4-5" }, additionalDirectories: ["~/notes", "/srv/data"] }),
		).toBe("ok");
	});
});
