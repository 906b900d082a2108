import { Link } from "react-router";
import { AppShell, Card, Icon, TopBar } from "../components";
import { LoginForm } from "../features/auth/login/login-form";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./login-page.module.css";

/** `/login`: phone sign-in (docs/product.md "Screens"). */
export function LoginPage() {
  useDocumentTitle("Log in");
  return (
    <AppShell>
      <TopBar
        end={
          <Link to="/signup" className={styles.topLink}>
            Sign up
          </Link>
        }
      />
      <header className={styles.header}>
        <span className={styles.badge} aria-hidden="true">
          <Icon name="phone" size={30} />
        </span>
        <h1 className={styles.title}>Log in</h1>
        <p className={styles.subtitle}>Welcome back! Enter your number and we&rsquo;ll text you a one-time code.</p>
      </header>
      <Card padding="lg" className={styles.card}>
        <LoginForm />
      </Card>
      <p className={styles.footnote}>
        New to Quad? <Link to="/signup">Create an account</Link>
      </p>
    </AppShell>
  );
}
