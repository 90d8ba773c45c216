// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI: `/output-minimizer status` and a usage error
// still answer, on stderr (the shared suite in tooling/loopback-provider).
import { fileURLToPath } from "node:url";
import { commandAnswersWithoutUiSuite } from "@pi-policy/loopback-provider/command-answers";

commandAnswersWithoutUiSuite({
	name: "output-minimizer",
	extension: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
	command: "output-minimizer",
	config: { mode: "reference" },
	status: /^output-minimizer/m,
	usage: "Usage: /output-minimizer status",
});
