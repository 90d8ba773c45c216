// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI: `/guardian status` and a usage error
// still answer, on stderr (the shared suite in tooling/loopback-provider).
import { fileURLToPath } from "node:url";
import { commandAnswersWithoutUiSuite } from "@pi-policy/loopback-provider/command-answers";

commandAnswersWithoutUiSuite({
	name: "guardian-review",
	extension: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
	command: "guardian",
	config: { mode: "enforce" },
	status: /^guardian-review: /m,
	usage: "usage: /guardian status | on | off | observe | allow-once",
});
