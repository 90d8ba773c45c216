// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI: `/delegate status` and a usage error
// still answer, on stderr (the shared suite in tooling/loopback-provider).
import { fileURLToPath } from "node:url";
import { commandAnswersWithoutUiSuite } from "@pi-policy/loopback-provider/command-answers";

commandAnswersWithoutUiSuite({
	name: "delegation-policy",
	extension: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
	command: "delegate",
	config: { version: 1, intensity: "orchestrator" },
	status: /^delegation-policy/m,
	usage: "delegation-policy: unknown subcommand; see /delegate help",
});
