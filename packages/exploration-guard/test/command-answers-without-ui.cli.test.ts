// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI: `/exploration-guard status` and a usage error
// still answer, on stderr (the shared suite in tooling/loopback-provider).
import { fileURLToPath } from "node:url";
import { commandAnswersWithoutUiSuite } from "@pi-policy/loopback-provider/command-answers";

commandAnswersWithoutUiSuite({
	name: "exploration-guard",
	extension: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
	command: "exploration-guard",
	config: { mode: "warn" },
	status: /^Exploration guard: mode warn, /m,
	usage: "Usage: /exploration-guard status | allow [1..20] | off",
});
