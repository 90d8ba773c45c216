// A thirty-sixth review: secret files tools keep in a project, named by the tools' own docs, were readable by
// default (a root search or a plain `cat` printed them). Decision 0018's amendment adds them; each entry here is a
// path the tool really uses, and each near miss a file real projects have that must stay readable.
import { describe, expect, it } from "vitest";
import { applyGuardianDefaults, floorContextFor, treeEntryTest } from "../src/guardian/index.js";
import { bashOutcome, CWD, HOME } from "./floor-outcome.js";

const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), CWD, HOME);
const entry = treeEntryTest(context);

describe("secret files tools keep in a project", () => {
	it.each([
		".streamlit/secrets.toml",
		"android/key.properties",
		"android/keystore.properties",
		"android/local.properties",
		"infra/prod.tfvars",
		"infra/prod.auto.tfvars",
		"infra/backend.hcl",
		"deploy/app.env",
		"service/my-app-firebase-adminsdk-ab12c-0123456789.json",
		"functions/.runtimeconfig.json",
		"application_default_credentials.json",
		".cursor/mcp.json",
		".vscode/mcp.json",
		".mcp.json",
		".claude/settings.local.json",
		"apps/web/.claude/settings.local.json",
		".bundle/config",
		"apps/api/.bundle/config",
		".yarnrc.yml",
		"NuGet.Config",
		"src/nuget.config",
		".venv/pip.conf",
		"pip.ini",
		".docker/config.json",
		"profiles.yml",
		".dvc/config.local",
		"kubeconfig.yaml",
		"ops/kubeconfig",
		".aider.conf.yml",
		// A thirty-seventh review: the forms those tools also load.
		"infra/terraform.tfvars.json",
		"infra/prod.auto.tfvars.json",
		"infra/config.s3.tfbackend",
		"android/sentry.properties",
		".secrets",
		"config/secrets.yml",
	])("protects %s", (path) => {
		expect(entry(`${CWD}/${path}`, false, false)).toBe("protected");
		expect(bashOutcome(`cat ${path}`, context)).toBe("review:protected-path");
	});

	it.each([
		"src/secrets.py",
		"docs/env.md",
		"config/settings.toml",
		"gradle.properties",
		"main.tf",
		"variables.tf",
		".vscode/settings.json",
		".dvc/config",
		".bundle",
		"package.json",
		"environment.yml",
		"docker/config.json",
		"android/gradle.properties",
		"config/database.yml",
	])("keeps %s readable", (path) => {
		expect(entry(`${CWD}/${path}`, false, false)).toBe("readable");
		expect(bashOutcome(`cat ${path}`, context)).toBe("allow:read-only");
	});
});
