import { useSearchParams } from "react-router";
import { SCREEN_TEXT, type MeUser } from "@quad/contracts";
import { WithProfile } from "../app/with-profile";
import { AppShell, Button, ButtonLink, TopBar } from "../components";
import { BoostStatus, BuyUnlocksButton, NewVotesMeanwhile, VotedOnYouButton } from "../features/inbox";
import { useLiveUpdates } from "../features/live/use-live-updates";
import { PausedNotice } from "../features/account/paused-notice";
import { AfterVoteOffer, PushOffer } from "../features/push/device-offers";
import { tellVotesAreBack } from "../features/push/push-device";
import { OFFER_TEXT } from "../features/push/texts";
import { HomeRound } from "../features/rounds/home-round";
import { VerifySchoolEmailScreen } from "../features/school-email";
import { Icon } from "../components/icon";
import { PreferenceSwitch } from "../features/rounds/preference-switch";
import { usePreference } from "../features/rounds/use-preference";
import { useSignOut } from "../features/auth/use-sign-out";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./home-page.module.css";

/** `/home`: the voting screen (docs/product.md "Screens"). */
export function HomePage() {
  useDocumentTitle("Home");
  return <WithProfile>{(user) => <Home user={user} />}</WithProfile>;
}

function Home({ user }: { user: MeUser }) {
  const signOut = useSignOut();
  const preference = usePreference(user);
  // Until the student proves a school address, the school's students stay hidden and so does the inbox.
  const member = user.schoolEmailVerified;
  // A vote for me, or one cast in another tab, shows here and in the inbox at once (the stream opens for members only).
  useLiveUpdates(member);
  // A vote notification opens /home?votes=1: "Voted on you" shows at once, and closing it drops the parameter.
  const [params, setParams] = useSearchParams();
  const fromNotice = params.get("votes") === "1";
  const dropNotice = () => {
    if (fromNotice) setParams((next) => (next.delete("votes"), next), { replace: true });
  };

  return (
    <AppShell width="wide">
      <TopBar
        start={
          user.schoolName ? (
            <span className={styles.school}>
              {user.schoolLogo && <img src={user.schoolLogo} alt="" className={styles.schoolLogo} />}
              <span className={styles.schoolName}>{user.schoolName}</span>
            </span>
          ) : undefined
        }
        end={
          <>
            <ButtonLink
              to="/settings"
              variant="ghost"
              icon={<Icon name="settings" size={20} />}
              aria-label="Settings"
              className={styles.iconLink}
            >
              {null}
            </ButtonLink>
            <Button variant="ghost" onClick={signOut}>
              Logout
            </Button>
          </>
        }
      />

      <div className={styles.header}>
        <h1 className={styles.greeting}>{user.firstName ? `Hey ${user.firstName}` : "Hey there"}</h1>
        {member && (
          <>
            <PreferenceSwitch
              value={preference.value}
              onChange={(gender) => void preference.change(gender)}
              busy={preference.saving}
            />
            <div className={styles.inbox}>
              <VotedOnYouButton openFromNotice={fromNotice} onClosed={dropNotice} />
              <BoostStatus className={styles.boost} />
            </div>
          </>
        )}
      </div>

      <PausedNotice user={user} />
      {!member && <VerifySchoolEmailScreen user={user} />}
      {member && (
        <HomeRound
          userId={user.id}
          preference={preference.value}
          actions={<BuyUnlocksButton />}
          whileOut={
            <>
              <NewVotesMeanwhile />
              <PushOffer title={OFFER_TEXT.votesBackTitle} body={OFFER_TEXT.votesBackBody} />
            </>
          }
          afterVote={<AfterVoteOffer />}
          onVotesBack={() => tellVotesAreBack(OFFER_TEXT.votesBackNotice, OFFER_TEXT.votesBackNoticeBody)}
        />
      )}

      <p className={styles.note}>
        <Icon name="lock" size={14} className={styles.noteIcon} />
        {SCREEN_TEXT.anonymityNote}
      </p>
    </AppShell>
  );
}
