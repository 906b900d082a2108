export { server } from "./server";
export { defaultTrpcResolvers } from "./handlers";
export { inTurn, recording, trpcError, trpcHandler, type TrpcCall, type TrpcResolvers } from "./trpc";
export { restError } from "./rest";
export { createMeUser, createSchool, createTokens } from "./fixtures";
export {
  createRound,
  NO_CANDIDATES,
  nthRound,
  outOfVotes,
  previewHandler,
  roundsAnswers,
  voteRefusedForCooldown,
  type RoundsAnswersOptions,
} from "./rounds";
export {
  createFlashSale,
  createVoteCards,
  inboxAnswers,
  revealedVoteCard,
  TEST_CARDS,
  votesPage,
  type InboxAnswers,
} from "./inbox";
export {
  authTrpcHandler,
  codeSent,
  createPublicConfig,
  createUnverifiedUser,
  profileUploadHandler,
  TEST_CODE,
  TEST_CODE_REQUEST_ID,
  type ProfileUpload,
} from "./auth";
export { settingsAnswers, type SettingsAnswersOptions } from "./settings";
