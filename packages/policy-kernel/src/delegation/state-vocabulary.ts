// The vocabulary of the delegation-state event payload: intensities and roles. events.ts publishes it, and code
// outside the shared modules imports it from there (so the published declarations keep one home in the build);
// audit.ts spreads it into delegation-policy's audit vocabulary. Import-free, so neither forms a cycle.

/** Delegation intensities. */
export const DELEGATION_INTENSITIES = ["off", "normal", "aggressive", "orchestrator"] as const;
/** One of {@link DELEGATION_INTENSITIES}. */
export type DelegationIntensity = (typeof DELEGATION_INTENSITIES)[number];

/** Delegation roles. `uiDesign` is the Visual Design role. */
export const DELEGATION_ROLES = ["small", "medium", "large", "uiDesign", "advisor"] as const;
/** One of {@link DELEGATION_ROLES}. */
export type DelegationRole = (typeof DELEGATION_ROLES)[number];
