import type { MeUser } from "@quad/contracts";
import { WithProfile } from "../app/with-profile";
import { AppShell, Button, ButtonLink, Icon, TopBar } from "../components";
import { DataSection } from "../features/account/data-section";
import { PrivacySection } from "../features/account/privacy-section";
import { useSignOut } from "../features/auth/use-sign-out";
import { PreferenceSwitch } from "../features/rounds/preference-switch";
import { usePreference } from "../features/rounds/use-preference";
import { BlockedSection } from "../features/safety/blocked-section";
import { SchoolEmailSection } from "../features/school-email";
import { SettingsSection } from "../features/settings/settings-section";
import styles from "../features/settings/settings.module.css";
import { SETTINGS_TEXT } from "../features/settings/texts";
import { NotificationsSection } from "../features/users/notifications-section";
import { PhotoSection } from "../features/users/photo-section";
import { ProfileForm } from "../features/users/profile-form";
import { useDocumentTitle } from "../lib/use-document-title";

/** `/settings`: profile, preference, notifications, privacy, blocked students, data. */
export function SettingsPage() {
  useDocumentTitle(SETTINGS_TEXT.title);
  return <WithProfile>{(user) => <Settings user={user} />}</WithProfile>;
}

function Settings({ user }: { user: MeUser }) {
  const preference = usePreference(user);
  const signOut = useSignOut();

  return (
    // As wide as home on a laptop: the same frame, so the two screens do not jump between widths.
    <AppShell width="wide">
      <TopBar
        start={
          <ButtonLink to="/home" variant="ghost" icon={<Icon name="back" size={20} />} className={styles.back}>
            Home
          </ButtonLink>
        }
      />
      <h1 className={styles.title}>{SETTINGS_TEXT.title}</h1>

      <div className={styles.sections}>
        <SettingsSection title="Profile" icon="person">
          <PhotoSection user={user} />
          <ProfileForm key={user.id} user={user} />
        </SettingsSection>

        <SettingsSection title="School e-mail" icon="mail">
          <SchoolEmailSection user={user} />
        </SettingsSection>

        <SettingsSection title="Who you see" icon="users">
          <PreferenceSwitch
            value={preference.value}
            onChange={(gender) => void preference.change(gender)}
            busy={preference.saving}
          />
        </SettingsSection>

        <SettingsSection title="Notifications" icon="bell">
          <NotificationsSection />
        </SettingsSection>

        <SettingsSection title="Privacy" icon="lock">
          <PrivacySection user={user} />
        </SettingsSection>

        <SettingsSection title="Blocked students" icon="shield">
          <BlockedSection />
        </SettingsSection>

        <SettingsSection title="Your data" icon="download" tone="danger">
          <DataSection />
        </SettingsSection>

        <Button variant="ghost" block onClick={signOut}>
          Logout
        </Button>
      </div>
    </AppShell>
  );
}
