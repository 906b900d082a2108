import { AppShell, ButtonLink, Icon, PageHeader, TopBar } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./pages.module.css";

export function NotFoundPage() {
  useDocumentTitle("Page not found");
  return (
    <AppShell>
      <TopBar />
      <div className={styles.centerStack}>
        <span className={styles.heroIcon}>
          <Icon name="compass" size={36} />
        </span>
        <PageHeader
          align="center"
          title="Page not found"
          subtitle="This page doesn't exist or has moved. Let's get you back to Quad."
        />
        <ButtonLink to="/" replace block size="lg">
          Back to Quad
        </ButtonLink>
      </div>
    </AppShell>
  );
}
