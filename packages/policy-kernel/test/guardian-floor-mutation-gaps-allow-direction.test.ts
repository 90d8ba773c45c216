// A mutation audit of the floor in the allow direction (81 mutants): each survivor that would let the floor allow
// more is pinned here. A sed script file, a `-c` after a safe git global, git grep's bundled `-O`, an interactive
// bash, a skill loaded from home itself, every default protected name, rg's `--pre-glob`, a descriptor redirect, and
// three git keys that run programs.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	DEFAULT_PROTECTED_PATHS,
	floorContextFor,
	judgeGitConfigText,
} from "../src/guardian/index.js";
import { bashOutcome, CLEAN_GIT, CWD, HOME } from "./floor-outcome.js";

const config = applyGuardianDefaults({ mode: "enforce" });
const plain = floorContextFor(config, CWD, HOME, CLEAN_GIT);

describe("floor rules a mutation audit found untested", () => {
	it("reviews programs an allowed-looking command would run", () => {
		expect(bashOutcome("sed -f p notes.txt", plain)).toBe("review:writes");
		expect(bashOutcome("git --no-pager -c core.fsmonitor=./x.sh status", plain)).toBe("review:not-read-only");
		expect(bashOutcome("git grep -iOsh foo", plain)).toBe("review:not-read-only");
		expect(bashOutcome("bash -ic ls", plain)).toBe("review:not-read-only");
		expect(bashOutcome("rg --pre-glob '*' foo", plain)).toBe("review:not-read-only");
	});

	it("counts a redirect to a descriptor number as a workspace write, not a read", () => {
		expect(bashOutcome("echo x >&1234", plain)).toBe("allow:workspace-write");
	});

	it("does not open all of home for a skill whose folder is home itself", () => {
		const serving = floorContextFor(config, "/srv/project", HOME, {
			...CLEAN_GIT,
			gitTop: "/srv/project",
			loadedResources: { skills: [{ filePath: `${HOME}/SKILL.md`, baseDir: HOME }], contextFiles: [] },
		});
		expect(bashOutcome("cat ~/notes.txt", serving)).toBe("review:outside-workspace");
	});

	it("protects every default protected path: names in the workspace, home's paths when the workspace is home", () => {
		const inHome = floorContextFor(config, HOME, HOME, { ...CLEAN_GIT, gitTop: HOME });
		const unprotected = DEFAULT_PROTECTED_PATHS.map((pattern) => {
			const name = pattern
				.replace(/\*/g, "x")
				.replace(/\?/g, "a")
				.replace(/\[(.)[^\]]*\]/g, "$1");
			const path = name.endsWith("/") ? `${name}config` : name;
			const command = path.startsWith("~/") ? `cat ~/'${path.slice(2)}'` : `cat '${path}'`;
			return { pattern, outcome: bashOutcome(command, path.startsWith("~/") ? inHome : plain) };
		}).filter(({ outcome }) => outcome !== "review:protected-path");
		expect(unprotected).toEqual([]);
		// And by name, so dropping one from the defaults fails too.
		for (const name of [
			"kaggle.json",
			".boto",
			".dockercfg",
			".htpasswd",
			".modal.toml",
			".sentryclirc",
			"hgrc",
			"wallet.dat",
			"service-account-prod.json",
		]) {
			expect(bashOutcome(`cat config/${name}`, plain), name).toBe("review:protected-path");
		}
	});

	it("judges three more git keys that run programs unsafe", () => {
		expect(judgeGitConfigText("[uploadpack]\n\tpackObjectsHook = ./x")).toBe("unsafe");
		expect(judgeGitConfigText("[interactive]\n\tdiffFilter = ./x")).toBe("unsafe");
		expect(judgeGitConfigText("[sendemail]\n\tsmtpServer = /tmp/x")).toBe("unsafe");
	});
});
