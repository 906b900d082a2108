import { Link } from "react-router";
import { AppShell, Card, Notice, PageHeader, TopBar } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./pages.module.css";

/** `/login`: phone sign-in (spec §2). The phone and code form arrive with the sign-in feature. */
export function LoginPage() {
  useDocumentTitle("Log in");
  return (
    <AppShell>
      <TopBar />
      <PageHeader title="Log in" subtitle="Welcome back! Sign in with your phone number." />
      <Card className={styles.stack}>
        <Notice icon="phone" title="Phone sign-in is being built">
          You'll enter your number, we'll text you a one-time code, and you're in. No password needed.
        </Notice>
      </Card>
      <p className={styles.footnote}>
        New to Quad? <Link to="/signup">Sign up</Link>
      </p>
    </AppShell>
  );
}
