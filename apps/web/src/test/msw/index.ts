export { server } from "./server";
export { defaultHandlers, defaultTrpcResolvers } from "./handlers";
export { trpcError, trpcHandler, type TrpcCall, type TrpcResolver, type TrpcResolvers } from "./trpc";
export { restError } from "./rest";
export { createMeUser, createSchool, createTokens } from "./fixtures";
