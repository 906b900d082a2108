import { TOASTS, type MeUser } from "@quad/contracts";
import type { ReactNode } from "react";
import { AppShell, Button, Icon, LoadingScreen, TopBar } from "../components";
import { useProfile } from "../features/users/use-profile";
import styles from "../pages/pages.module.css";

/**
 * Draws `children` with the signed-in profile. After a reload the session
 * is restored at once but the profile is asked for: the loading screen
 * shows until it comes, and a failure offers to ask again.
 */
export function WithProfile({ children }: { children: (me: MeUser) => ReactNode }) {
  const profile = useProfile();
  if (profile.data) return children(profile.data);
  if (!profile.isError) return <LoadingScreen label="Loading your profile" />;
  return (
    <AppShell>
      <TopBar />
      <div className={styles.centerStack} role="alert">
        <span className={styles.heroIcon}>
          <Icon name="alert" size={36} />
        </span>
        <p>{TOASTS.fetchUserFailed}</p>
        <div className={styles.actions}>
          <Button block size="lg" icon={<Icon name="refresh" size={18} />} onClick={() => void profile.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    </AppShell>
  );
}
