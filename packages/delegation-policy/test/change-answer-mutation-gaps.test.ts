// The answer to a /delegate change in a real session: a change that leaves delegation failed closed (D:ERR) is a
// warning that names the footer, then each diagnostic; a change that leaves it working is information.
import { sessionPerTest } from "@pi-policy/pi-harness/vitest";
import { describe, expect, it } from "vitest";
import { footer, noKeyProviderExtension, startDelegationSession, validGlobal } from "./support.ts";

const sessions = sessionPerTest(startDelegationSession);

describe("/delegate change answers", () => {
	it("warns with the footer and the diagnostic when a change leaves delegation failed closed", async () => {
		const h = await sessions.start({ global: validGlobal(), before: [noKeyProviderExtension] });
		await h.command("/delegate role small ghostprov/m-1");
		expect(footer(h)).toBe("D:ERR A:OFF");
		expect(h.ui?.notifications().at(-1)).toEqual({
			message:
				"delegation-policy: D:ERR A:OFF\n- error: D small ghostprov/m-1: provider is not known to the model registry (model-missing)",
			level: "warning",
		});
	});

	it("answers a change that leaves delegation working as information", async () => {
		const h = await sessions.start({ global: validGlobal(), before: [noKeyProviderExtension] });
		await h.command("/delegate aggressive");
		expect(h.ui?.notifications().at(-1)).toEqual({ message: "delegation-policy: D:AGG A:OFF", level: "info" });
	});
});
