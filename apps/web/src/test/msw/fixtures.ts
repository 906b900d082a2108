import type { AuthTokens, MeUser, School } from "@quad/contracts";

/** Test-data factories: override only what a test cares about. */

export function createMeUser(overrides: Partial<MeUser> = {}): MeUser {
  return {
    id: "user-1",
    phone: "+12025550123",
    firstName: "Avery",
    university: 1,
    graduationYear: 2027,
    instagramHandle: "@avery",
    gender: "female",
    preference: "male",
    profileImage: "/api/media/avatars/user-1.jpg",
    isVerified: true,
    remainingUnlocks: 2,
    schoolLogo: "/api/media/schools/1.svg",
    schoolName: "State University",
    boostEndTime: null,
    organizations: ["Robotics Club"],
    interests: ["Climbing"],
    emojis: ["🎧"],
    paused: false,
    showInPreview: false,
    heldForReview: false,
    schoolEmailVerified: true,
    schoolEmail: "avery@state.edu",
    ...overrides,
  };
}

export function createTokens(overrides: Partial<AuthTokens> = {}): AuthTokens {
  return {
    token: "access-token-1",
    refreshToken: "refresh-token-1",
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    ...overrides,
  };
}

export function createSchool(overrides: Partial<School> = {}): School {
  return {
    id: 1,
    schoolName: "State University",
    icon: "/api/media/schools/1.svg",
    emailDomains: ["state.edu"],
    ...overrides,
  };
}
