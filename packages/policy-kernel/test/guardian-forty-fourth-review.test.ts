// A forty-fourth review: credential files in a developer's home, each in its tool's documented format, that Pi's
// `read` tool printed with no review (its default scope judges only the protected list, from any workspace).
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	DEFAULT_PROTECTED_PATHS,
	decideFloor,
	floorContextFor,
	GuardianReviewConfigSchema,
	guardianDefaultsLayer,
	MAX_PROTECTED_PATH_ENTRIES,
	resolveGuardianReviewConfig,
} from "../src/guardian/index.js";
import { parseWithSchema } from "../src/index.js";
import { CLEAN_GIT, CWD, HOME, outcome } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const project = floorContextFor(config, CWD, HOME, CLEAN_GIT);
const inHome = floorContextFor(config, HOME, HOME, { ...CLEAN_GIT, gitTop: HOME });
const read = (path: string, context = project) => outcome(decideFloor("read", { path }, config, context));

describe("more credential files in home", () => {
	it.each<[string]>([
		["~/.config/solana/id.json"],
		["~/.near-credentials/mainnet/alice.near.json"],
		["~/.aptos/config.yaml"],
		["~/.local/share/jupyter/runtime/jpserver-4242.json"],
		["~/Library/Jupyter/runtime/kernel-5d3c.json"],
		["~/.config/openstack/clouds.yaml"],
		["~/.python-gitlab.cfg"],
		["~/.config/nix/nix.conf"],
		["~/.config/nix/access-tokens.conf"],
		["~/.bunfig.toml"],
		["~/.config/hardhat-nodejs/vars.json"],
		["~/.config/argocd/config"],
		["~/.talos/config"],
		["~/.cf/config.json"],
		["~/.fetchmailrc"],
		["~/.config/aichat/config.yaml"],
		["~/.config/shell_gpt/.sgptrc"],
		["~/.copilot/mcp-config.json"],
		["~/.qwen/settings.json"],
		["~/.config/opencode/opencode.json"],
		["~/.config/zed/settings.json"],
		["~/.config/cachix/cachix.dhall"],
		["~/.ethereum/keystore/UTC--2024-01-01T00-00-00.0Z--0123"],
		["~/.foundry/keystores/deployer"],
	])("Pi's read of %s is reviewed, from a project or home", (path) => {
		expect(read(path)).toBe("review:protected-path");
		expect(read(path, inHome)).toBe("review:protected-path");
	});

	it("a project's Aptos profile too, and the tools' neighbours stay readable", () => {
		expect(read(".aptos/config.yaml")).toBe("review:protected-path");
		expect(read("move/.aptos/config.yaml")).toBe("review:protected-path");
		expect(read("~/.config/nix/registry.json")).toMatch(/^allow:/);
		expect(read("~/.config/zed/keymap.json")).toMatch(/^allow:/);
		expect(read("~/.local/share/jupyter/kernels/python3/kernel.json")).toMatch(/^allow:/);
	});
});

describe("the default list's length", () => {
	it("stays within the per-layer entry limit, and a merged layer lists only what differs from it", () => {
		// The README's "every key, with its default" block must stay a valid config file.
		expect(DEFAULT_PROTECTED_PATHS.length).toBeLessThanOrEqual(MAX_PROTECTED_PATH_ENTRIES);
		expect(parseWithSchema(GuardianReviewConfigSchema, { protectedPaths: [...DEFAULT_PROTECTED_PATHS] }).ok).toBe(true);
		expect(parseWithSchema(GuardianReviewConfigSchema, guardianDefaultsLayer()).ok).toBe(true);
		const resolved = resolveGuardianReviewConfig(
			{ protectedPaths: ["!*.key", "secrets/"] },
			{ protectedPaths: ["vault/"] },
		);
		expect(resolved.ok).toBe(true);
		if (!resolved.ok) return;
		const globs = resolved.value.config.protectedPaths;
		expect(globs).toContain("vault/");
		expect(globs).toContain("secrets/");
		expect(globs).not.toContain("*.key");
		expect(globs).toContain("~/.config/solana");
		expect(resolved.value.ignored).toBe(0);
	});
});
