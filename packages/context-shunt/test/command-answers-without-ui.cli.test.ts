// The real `pi` CLI in print mode (`-p`) and JSON mode, which have no UI: `/context-shunt status` and a usage error
// still answer, on stderr (the shared suite in tooling/loopback-provider).
import { fileURLToPath } from "node:url";
import { commandAnswersWithoutUiSuite } from "@pi-policy/loopback-provider/command-answers";

commandAnswersWithoutUiSuite({
	name: "context-shunt",
	extension: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
	command: "context-shunt",
	config: { mode: "enforce" },
	status: /^context-shunt: /m,
	usage: "context-shunt: usage: /context-shunt off|observe|enforce|status|reset|allow",
});
