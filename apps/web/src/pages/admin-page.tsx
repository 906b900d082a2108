import { LoadingScreen } from "../components";
import { ModerationScreen, useModerationData, type ModerationData } from "../features/admin";
import { selectHasSession, useSessionReady, useSessionStore } from "../lib/session-store";
import { useDocumentTitle } from "../lib/use-document-title";
import { NotFoundPage } from "./not-found-page";

/**
 * `/admin`: moderation, for admins only. The client has no admin flag: the
 * server answers NOT_FOUND to everyone else, and so does this page (signed-out
 * visitors without asking), so it looks like any missing route.
 */
export function AdminPage() {
  const ready = useSessionReady();
  const hasSession = useSessionStore(selectHasSession);
  if (!ready) return <LoadingScreen />;
  if (!hasSession) return <NotFoundPage />;
  return <AdminOnly />;
}

function AdminOnly() {
  const data = useModerationData();
  if (data.hidden) return <NotFoundPage />;
  // Until the server has answered, nothing says whether this page exists.
  if (data.queue.isPending) return <LoadingScreen />;
  return <Titled data={data} />;
}

function Titled({ data }: { data: ModerationData }) {
  useDocumentTitle("Moderation");
  return <ModerationScreen data={data} />;
}
