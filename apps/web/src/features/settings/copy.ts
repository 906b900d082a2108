/** The settings screen's own words. Server messages come from contracts. */
export const SETTINGS_COPY = {
  title: "Settings",
} as const;
