// Prints one plain closing line, "vitest: N passed, N failed, N skipped", that CI log readers understand.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		let passed = 0;
		let failed = 0;
		let skipped = 0;
		for (const testModule of testModules) {
			for (const test of testModule.children.allTests()) {
				const state = test.result().state;
				if (state === "passed") passed += 1;
				else if (state === "failed") failed += 1;
				else skipped += 1;
			}
		}
		console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
	}
}
