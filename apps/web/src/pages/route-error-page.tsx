import { TOASTS } from "@quad/contracts";
import { AppShell, Button, ButtonLink, Icon, PageHeader, TopBar } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./pages.module.css";

/** Shown when a screen crashes or a lazy chunk fails to load (e.g. after a deploy). */
export function RouteErrorPage() {
  useDocumentTitle("Something went wrong");
  return (
    <AppShell>
      <TopBar />
      <div className={styles.centerStack}>
        <span className={styles.heroIcon}>
          <Icon name="alert" size={36} />
        </span>
        <PageHeader
          align="center"
          title="Something went wrong"
          subtitle={`${TOASTS.unexpected}. Reloading usually fixes it.`}
        />
        <div className={styles.actions}>
          <Button block size="lg" onClick={() => window.location.reload()}>
            Reload
          </Button>
          <ButtonLink to="/" variant="ghost" block reloadDocument>
            Back to Quad
          </ButtonLink>
        </div>
      </div>
    </AppShell>
  );
}
