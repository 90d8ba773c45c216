// Runs one demo scenario in a fresh real Pi session and collects what reached the model.
import { createHarness } from "@pi-policy/pi-harness";
import { turnRows } from "./report.ts";
import { type DemoScenario, demoWorkspace } from "./scenario.ts";

/** Run one scenario in a fresh harness and return its per-turn rows and narration. */
export async function runScenario(scenario: DemoScenario) {
	const harness = await createHarness({
		...(scenario.harness ?? {}),
		extensions: scenario.extensions(),
		files: { ...demoWorkspace(), ...(scenario.harness?.files ?? {}) },
		...(scenario.config ? { config: scenario.config } : {}),
		...(scenario.tools ? { tools: scenario.tools } : {}),
	});
	try {
		harness.script(...scenario.steps());
		if (scenario.drive) await scenario.drive(harness);
		else {
			await harness.prompt(scenario.prompt);
			for (const command of scenario.afterCommands ?? []) await harness.command(command);
		}
		const narration = scenario.narrate ? await scenario.narrate(harness) : [];
		return {
			rows: turnRows(harness.requests),
			notifications: harness.ui?.notifications() ?? [],
			narration,
		};
	} finally {
		await harness.dispose();
	}
}
