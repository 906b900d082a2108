import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";
import { publicConfig } from "./public-config";

export const configRouter = router({
  public: endpoint("config.public").query(({ ctx }) => publicConfig(ctx.config, ctx.push?.publicKey ?? null)),
});
