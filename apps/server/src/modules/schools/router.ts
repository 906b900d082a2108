import { SchoolList } from "@quad/contracts";
import { publicProcedure, router } from "../../trpc/init";
import { listSchools } from "./service";

export const schoolsRouter = router({
  list: publicProcedure.output(SchoolList).query(({ ctx }) => listSchools(ctx.db)),
});
