/** The settings screen's own words; each section's are its feature's. Server messages come from contracts. */
export const SETTINGS_TEXT = {
  title: "Settings",
} as const;
