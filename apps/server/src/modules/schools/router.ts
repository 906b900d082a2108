import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";
import { listSchools } from "./service";

export const schoolsRouter = router({
  list: endpoint("schools.list").query(({ ctx }) => listSchools(ctx.db)),
});
