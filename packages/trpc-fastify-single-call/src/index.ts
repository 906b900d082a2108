export { registerTrpcEndpoint, type TrpcEndpointOptions } from "./endpoint";
export { CHECKED_TRPC_SERVER } from "./checked-version";
