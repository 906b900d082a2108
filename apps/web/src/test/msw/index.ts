export { server } from "./server";
export { defaultHandlers, defaultTrpcResolvers } from "./handlers";
export { trpcError, trpcHandler, type TrpcCall, type TrpcResolver, type TrpcResolvers } from "./trpc";
export { restError } from "./rest";
export { createMeUser, createSchool, createTokens } from "./fixtures";
export {
  createCandidate,
  createRound,
  createRoundsServer,
  nthRound,
  previewHandler,
  voteCooldownHandler,
  type RoundsServerOptions,
} from "./rounds";
export {
  createInboxBackend,
  createFlashSale,
  createLockedVoteCard,
  createVoteCards,
  revealedVoteCard,
  LOCAL_PAYMENTS_CONFIG,
  TEST_CARDS,
  type InboxBackend,
  type InboxBackendOptions,
} from "./inbox";
export {
  authTrpcHandler,
  authTrpcResolvers,
  createPublicConfig,
  createUnverifiedUser,
  profileUploadHandler,
  TEST_CODE,
  type ProfileUpload,
} from "./auth";
export { createAccountBackend, type AccountBackend, type AccountBackendOptions, type BlockedStudentFixture } from "./account";
