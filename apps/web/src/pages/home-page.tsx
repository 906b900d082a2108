import { SCREEN_TEXT } from "@quad/contracts";
import { AppShell, Button, Card, Notice, PageHeader, TopBar } from "../components";
import { useSignOut } from "../features/session/use-sign-out";
import { useSessionStore } from "../lib/session-store";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./home-page.module.css";
import pageStyles from "./pages.module.css";

/** `/home`: the voting screen (spec §2). Rounds, votes and unlocks arrive with their features. */
export function HomePage() {
  useDocumentTitle("Home");
  const user = useSessionStore((state) => state.user);
  const signOut = useSignOut();

  return (
    <AppShell>
      <TopBar
        start={
          user?.schoolName ? (
            <span className={styles.school}>
              {user.schoolLogo && <img src={user.schoolLogo} alt="" className={styles.schoolLogo} />}
              <span className={styles.schoolName}>{user.schoolName}</span>
            </span>
          ) : undefined
        }
        end={
          <Button variant="ghost" onClick={signOut}>
            Logout
          </Button>
        }
      />
      <PageHeader title={user?.firstName ? `Hey ${user.firstName}` : "Hey there"} subtitle="Ready for a round?" />
      <Card className={pageStyles.stack}>
        <Notice icon="ballot" title="Voting rounds are being built">
          Each round will show a prompt and two classmates from your school. Pick one and the next round appears.
        </Notice>
        <Notice icon="heart" title={SCREEN_TEXT.seeWhoVotedForYou} tone="neutral">
          Your received votes and unlocks will live here too.
          {user ? ` You have ${user.remainingUnlocks} unlock${user.remainingUnlocks === 1 ? "" : "s"}.` : ""}
        </Notice>
      </Card>
    </AppShell>
  );
}
