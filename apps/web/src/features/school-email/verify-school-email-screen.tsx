import { SCHOOL_EMAIL_MESSAGES, type MeUser } from "@quad/contracts";
import { Icon } from "../../components/icon";
import { SchoolEmailForm } from "./school-email-form";
import styles from "./school-email.module.css";
import { useSchoolDomains } from "./use-school-email";

/** Keeps one word of a text on one line ("e-mail" would otherwise break at its hyphen). */
function NoBreak({ word, children }: { word: string; children: string }) {
  const at = children.indexOf(word);
  if (at < 0) return <>{children}</>;
  return (
    <>
      {children.slice(0, at)}
      <span className={styles.nowrap}>{word}</span>
      {children.slice(at + word.length)}
    </>
  );
}

/**
 * Takes the round's place until the student proves a school address: Quad
 * shows a school's students only to its members, and shows no one who has
 * not proved it.
 */
export function VerifySchoolEmailScreen({ user, onVerified }: { user: MeUser; onVerified?: (user: MeUser) => void }) {
  const { schoolName } = useSchoolDomains(user);
  return (
    <section className={styles.screen} aria-labelledby="verify-school-email-title">
      <span className={styles.icon} aria-hidden="true">
        <Icon name="mail" size={30} />
      </span>
      <h2 id="verify-school-email-title" className={styles.title}>
        <NoBreak word="e-mail">{SCHOOL_EMAIL_MESSAGES.verifyToVote}</NoBreak>
      </h2>
      <p className={styles.body}>
        Quad shows {schoolName} students only to {schoolName} students. Enter your school e-mail and we'll send you a
        code: you do this once, and your address stays private.
      </p>
      <SchoolEmailForm user={user} onVerified={onVerified} />
    </section>
  );
}
