import { SCREEN_TEXT } from "@quad/contracts";
import { Link } from "react-router";
import { AppShell, ButtonLink, Icon, Notice, TopBar, type IconName } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./landing-page.module.css";

/** Example prompts, purely decorative. */
const SAMPLE_PROMPTS: { text: string; icon: IconName }[] = [
  { text: "Most likely to start a company", icon: "zap" },
  { text: "Best playlist on campus", icon: "music" },
  { text: "Would survive a zombie apocalypse", icon: "shield" },
];

/** `/`: the visitor's first screen (spec §2). The live preview round comes with the landing feature. */
export function LandingPage() {
  useDocumentTitle();
  return (
    <AppShell>
      <TopBar
        end={
          <Link to="/login" className={styles.topLink}>
            Log in
          </Link>
        }
      />

      <section className={styles.hero} aria-labelledby="landing-title">
        <p className={styles.eyebrow}>For university students</p>
        <h1 id="landing-title" className={styles.title}>
          Vote on your <span className={styles.highlight}>classmates</span>. See who picked&nbsp;you.
        </h1>
        <p className={styles.lead}>
          Each round is a prompt and two students from your school. Tap one. Votes stay anonymous until the person
          you voted for unlocks them.
        </p>
      </section>

      <ul className={styles.prompts} aria-label="Example prompts">
        {SAMPLE_PROMPTS.map((prompt, index) => (
          <li key={prompt.text} className={styles.prompt} style={{ ["--i" as string]: index }}>
            <span className={styles.promptIcon}>
              <Icon name={prompt.icon} size={18} />
            </span>
            {prompt.text}
          </li>
        ))}
      </ul>

      <div className={styles.cta}>
        <ButtonLink to="/signup" size="lg" block>
          {SCREEN_TEXT.joinToStartVoting}
        </ButtonLink>
        <Notice icon="eye" title="A preview round is on its way" tone="neutral">
          Soon you'll be able to try a real round right here before you sign up.
        </Notice>
      </div>

      <div className={styles.spacer} />

      <p className={styles.legal}>
        <Link to="/terms">Privacy Policy &amp; Terms</Link>
      </p>
      <nav className={styles.authBar} aria-label="Account">
        <ButtonLink to="/login" variant="secondary" block>
          Log in
        </ButtonLink>
        <ButtonLink to="/signup" variant="secondary" block>
          Sign up
        </ButtonLink>
      </nav>
    </AppShell>
  );
}
