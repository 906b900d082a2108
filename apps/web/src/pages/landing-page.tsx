import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from "react";
import { Link, useNavigate } from "react-router";
import { SCREEN_TEXT, type Gender } from "@quad/contracts";
import { AppShell, ButtonLink, TopBar } from "../components";
import { GenderPickerModal } from "../features/rounds/gender-picker-modal";
import { PREFERENCE_OPTIONS, PreferenceSwitch } from "../features/rounds/preference-switch";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./landing-page.module.css";

// The first paint is the gender question; the preview round's code follows
// right after (fetched on mount, so it is there by the time a choice is made).
const loadLandingPreview = () => import("../features/rounds/landing-preview");
const LandingPreview = lazy(() => loadLandingPreview().then((m) => ({ default: m.LandingPreview })));

/** True while the build renders this page to static HTML (src/prerender.tsx), where there is no document. */
const PRERENDERING = typeof document === "undefined";

/**
 * The answer to "Who do you want to see?", kept for the tab's session so that
 * coming back to `/` (Back from sign-up) shows the preview without asking again.
 */
const PREFERENCE_KEY = "quad:landing-preference";

function rememberedPreference(): Gender | null {
  if (PRERENDERING) return null;
  try {
    const stored = window.sessionStorage.getItem(PREFERENCE_KEY);
    return PREFERENCE_OPTIONS.find((option) => option.gender === stored)?.gender ?? null;
  } catch {
    return null;
  }
}

function rememberPreference(gender: Gender): void {
  try {
    window.sessionStorage.setItem(PREFERENCE_KEY, gender);
  } catch {
    // Storage may be unavailable (privacy modes): the question is then asked again.
  }
}

/** Whether any part of the element is on screen (false where IntersectionObserver is missing). */
function useOnScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry?.isIntersecting ?? false));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

/** Where sign-up starts, carrying the visitor's choice so sign-up can save it. */
function signupPath(gender: Gender | null): string {
  return gender ? `/signup?preference=${gender}` : "/signup";
}

/**
 * `/`: the visitor's first screen (docs/product.md "Screens"): the "Who do you
 * want to see?" modal, then a real preview round. Voting or unlocking in the
 * preview leads to sign-up with the chosen preference.
 */
export function LandingPage() {
  useDocumentTitle();
  const navigate = useNavigate();
  const [gender, setGender] = useState<Gender | null>(rememberedPreference);
  const [pickerOpen, setPickerOpen] = useState(gender === null);
  const joinPath = signupPath(gender);
  const cta = useRef<HTMLDivElement>(null);
  // While "Join to start voting" is on screen the bar says the same and would cover it and the
  // anonymity line under it: it then stays in its place at the end of the page.
  const ctaOnScreen = useOnScreen(cta);

  useEffect(() => {
    void loadLandingPreview();
  }, []);

  const choose = (picked: Gender) => {
    rememberPreference(picked);
    setGender(picked);
    setPickerOpen(false);
  };

  return (
    <AppShell width="wide">
      <TopBar
        end={
          gender ? (
            // Once a preview shows, the switch takes the top corner (Log in stays in the bar below).
            <PreferenceSwitch value={gender} onChange={choose} label={SCREEN_TEXT.whoDoYouWantToSee} />
          ) : (
            <Link to="/login" className={styles.topLink}>
              Log in
            </Link>
          )
        }
      />

      <section className={styles.hero} aria-labelledby="landing-title">
        <h1 id="landing-title" className={`${styles.title} ${gender ? styles.titleCompact : ""}`}>
          Vote on your <span className={styles.highlight}>classmates</span>. See who picked&nbsp;you.
        </h1>
        {gender === null && (
          <p className={styles.lead}>A prompt, two students from your school: tap one. Try a round below.</p>
        )}
      </section>

      <div className={styles.preview}>
        {PRERENDERING ? (
          // The build's static HTML holds the placeholder; the preview arrives with the app.
          <div className={styles.previewPlaceholder} />
        ) : (
          <Suspense fallback={<div className={styles.previewPlaceholder} />}>
            <LandingPreview gender={gender} onChooseGender={choose} onJoin={() => void navigate(joinPath)} />
          </Suspense>
        )}
      </div>

      <div ref={cta} className={styles.cta}>
        <ButtonLink to={joinPath} size="lg" block>
          {SCREEN_TEXT.joinToStartVoting}
        </ButtonLink>
        <p className={styles.note}>{SCREEN_TEXT.anonymityNote}</p>
      </div>

      <div className={styles.spacer} />

      <p className={styles.legal}>
        <Link to="/terms">Privacy Policy &amp; Terms</Link>
      </p>
      <nav className={`${styles.authBar} ${ctaOnScreen ? styles.authBarInPlace : ""}`} aria-label="Account">
        <ButtonLink to="/login" variant="secondary" block>
          Log in
        </ButtonLink>
        <ButtonLink to={joinPath} variant="secondary" block>
          Sign up
        </ButtonLink>
      </nav>

      <GenderPickerModal open={pickerOpen} onPick={choose} onClose={() => setPickerOpen(false)} />
    </AppShell>
  );
}
