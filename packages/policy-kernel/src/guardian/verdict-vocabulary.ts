// The vocabulary of the verdict event payload: verdict sources and review failure reasons. events.ts publishes it,
// and code outside the shared modules imports it from there (so the published declarations keep one home in the
// build); audit.ts spreads it into guardian-review's audit categories. Import-free, so neither forms a cycle.

/** Who decided: the deterministic floor, the reviewer model, the user, a reused verdict for an identical
 * action, a `/guardian allow-once` grant, the unavailable-review fallback (deny when headless), or the tripped
 * denial breaker. */
export const VERDICT_SOURCES = ["floor", "reviewer", "user", "cache", "allow-once", "fallback", "breaker"] as const;

/** Why a review was unavailable. */
export const REVIEW_FAILURE_REASONS = [
	"timeout",
	"model-error",
	"parse-failure",
	"no-model",
	"no-auth",
	"aborted",
] as const;
