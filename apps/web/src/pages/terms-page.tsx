import {
  BOOST_OPTIONS,
  FLASH_SALE_PACKAGE_ID,
  POLICY_EFFECTIVE_DATE,
  POLICY_UPDATED_DATE,
  PUSH_DEVICES_PER_STUDENT,
  SMS_CONSENT_TEXT,
  UNLOCK_PACKAGES,
  formatPrice,
} from "@quad/contracts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { AppShell, Icon, TopBar } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./terms-page.module.css";

/** The one-off price of a single unlock stated in the legal text (docs/product.md: $2.99). */
const singleUnlock = UNLOCK_PACKAGES.find((pack) => pack.id === FLASH_SALE_PACKAGE_ID);
const SINGLE_UNLOCK_PRICE = formatPrice(
  singleUnlock && "originalPriceCents" in singleUnlock
    ? singleUnlock.originalPriceCents
    : (singleUnlock?.priceCents ?? 0),
);
/** "1, 3 or 7" */
const BOOST_DURATIONS = BOOST_OPTIONS.map((boost) => boost.durationDays)
  .join(", ")
  .replace(/, (\d+)$/, " or $1");

interface Section {
  id: string;
  title: string;
}

const PRIVACY_SECTIONS: Section[] = [
  { id: "privacy-scope", title: "Who we are and what this covers" },
  { id: "privacy-collect", title: "Information we collect" },
  { id: "privacy-visibility", title: "Who can see what" },
  { id: "privacy-use", title: "How we use your information" },
  { id: "privacy-sms", title: "Text messages" },
  { id: "privacy-push", title: "Push notifications" },
  { id: "privacy-school-email", title: "Your school e-mail address" },
  { id: "privacy-payments", title: "Payment information" },
  { id: "privacy-sharing", title: "When we share information" },
  { id: "privacy-retention", title: "Keeping and deleting data" },
  { id: "privacy-security", title: "Security" },
  { id: "privacy-choices", title: "Your choices and rights" },
];

const TERMS_SECTIONS: Section[] = [
  { id: "terms-acceptance", title: "Agreeing to these terms" },
  { id: "terms-eligibility", title: "Who can use Quad" },
  { id: "terms-account", title: "Your account" },
  { id: "terms-how", title: "How voting and unlocks work" },
  { id: "terms-conduct", title: "Community rules" },
  { id: "terms-purchases", title: "Purchases, unlocks and boosts" },
  { id: "terms-refunds", title: "All payments are final" },
  { id: "terms-sms", title: "SMS program terms" },
  { id: "terms-content", title: "Your content" },
  { id: "terms-termination", title: "Suspension and termination" },
  { id: "terms-disclaimers", title: "Disclaimers and liability" },
  { id: "terms-changes", title: "Changes and contact" },
];

function TermsSection({ section, children }: { section: Section; children: ReactNode }) {
  return (
    <section id={section.id} className={styles.section} aria-labelledby={`${section.id}-title`}>
      <h3 id={`${section.id}-title`} className={styles.sectionTitle}>
        {section.title}
      </h3>
      {children}
    </section>
  );
}

function sectionFor(sections: Section[], id: string): Section {
  const found = sections.find((section) => section.id === id);
  if (!found) throw new Error(`Unknown terms section ${id}`);
  return found;
}

const privacy = (id: string) => sectionFor(PRIVACY_SECTIONS, id);
const terms = (id: string) => sectionFor(TERMS_SECTIONS, id);

/** `/terms`: Privacy Policy and Terms and Conditions (docs/product.md). */
export function TermsPage() {
  useDocumentTitle("Privacy Policy and Terms");

  return (
    <AppShell width="wide">
      <TopBar
        end={
          <Link to="/" className={styles.backLink}>
            <Icon name="arrowLeft" size={18} />
            Back to Quad
          </Link>
        }
      />

      <article className={styles.document}>
        <header className={styles.header}>
          <p className={styles.eyebrow}>Legal</p>
          <h1 className={styles.title}>Privacy Policy and Terms and Conditions</h1>
          <dl className={styles.dates}>
            <div>
              <dt>Effective</dt>
              <dd>
                <time>{POLICY_EFFECTIVE_DATE}</time>
              </dd>
            </div>
            <div>
              <dt>Last updated</dt>
              <dd>
                <time>{POLICY_UPDATED_DATE}</time>
              </dd>
            </div>
          </dl>
          <div className={styles.summary}>
            <p className={styles.summaryTitle}>The short version</p>
            <ul>
              <li>Quad is for university students aged 18 or older with a school (.edu) e-mail address.</li>
              <li>Your votes are anonymous unless the person you voted for pays to unlock them.</li>
              <li>
                We tell you about votes you receive by text, or by push notification on devices where you turn those on.
                Reply STOP to stop texts, HELP for help; turn push off in Settings.
              </li>
              <li>Payments go through our card payment provider. All payments are final, with no refunds.</li>
              <li>Your e-mail, phone number and payment data are private and never shown to other students.</li>
            </ul>
          </div>
        </header>

        <nav className={styles.toc} aria-labelledby="toc-title">
          <h2 id="toc-title" className={styles.tocTitle}>
            Contents
          </h2>
          <div className={styles.tocColumns}>
            <div>
              <a href="#privacy-policy" className={styles.tocPart}>
                Privacy Policy
              </a>
              <ol>
                {PRIVACY_SECTIONS.map((section) => (
                  <li key={section.id}>
                    <a href={`#${section.id}`}>{section.title}</a>
                  </li>
                ))}
              </ol>
            </div>
            <div>
              <a href="#terms-and-conditions" className={styles.tocPart}>
                Terms and Conditions
              </a>
              <ol>
                {TERMS_SECTIONS.map((section) => (
                  <li key={section.id}>
                    <a href={`#${section.id}`}>{section.title}</a>
                  </li>
                ))}
              </ol>
            </div>
          </div>
        </nav>

        <section id="privacy-policy" className={styles.part} aria-labelledby="privacy-policy-title">
          <h2 id="privacy-policy-title" className={styles.partTitle}>
            Privacy Policy
          </h2>

          <TermsSection section={privacy("privacy-scope")}>
            <p>
              Quad (&ldquo;Quad&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;) runs a social voting app for university
              students. This Privacy Policy explains what information we collect when you use Quad, who can see it, and
              the choices you have. It applies to the Quad web app and to the text messages we send.
            </p>
          </TermsSection>

          <TermsSection section={privacy("privacy-collect")}>
            <p>We collect only what the app needs to work:</p>
            <ul>
              <li>
                <strong>Account details you give us:</strong> your phone number, first name, university, graduation
                year, gender, Instagram handle, profile photo and, if you add them, organizations, interests and emojis.
              </li>
              <li>
                <strong>Your school e-mail address,</strong> when we ask you to confirm that you are a student, and the
                codes and e-mails we send to it.
              </li>
              <li>
                <strong>Activity in the app:</strong> the votes you cast and receive, skips, unlocks, boosts and your
                preference for which students you see.
              </li>
              <li>
                <strong>Purchase records:</strong> what you bought, when, and the amount. Card details are collected by
                our card payment provider, not by us.
              </li>
              <li>
                <strong>Notification settings:</strong> whether you agreed to text messages and whether you opted out.
              </li>
              <li>
                <strong>Push subscriptions:</strong> for each device where you turn on push notifications, the address
                your browser&rsquo;s push service gives us for it and the keys to encrypt notices to it.
              </li>
              <li>
                <strong>Technical data:</strong> basic device, browser and log information needed to keep the service
                secure and running.
              </li>
            </ul>
          </TermsSection>

          <TermsSection section={privacy("privacy-visibility")}>
            <p>Every piece of information on Quad belongs to one of three classes:</p>
            <div className={styles.dataClasses}>
              <div className={`${styles.dataClass} ${styles.public}`}>
                <p className={styles.dataClassName}>Public</p>
                <p className={styles.dataClassWho}>Visible to other students at your school and in previews</p>
                <ul>
                  <li>First name</li>
                  <li>Photo</li>
                  <li>Class year</li>
                  <li>Organizations</li>
                  <li>Interests</li>
                  <li>School</li>
                </ul>
              </div>
              <div className={`${styles.dataClass} ${styles.unlockable}`}>
                <p className={styles.dataClassName}>Unlockable</p>
                <p className={styles.dataClassWho}>
                  Shown only to the person you voted on, and only after they unlock your vote
                </p>
                <ul>
                  <li>Name</li>
                  <li>Photo</li>
                  <li>Class year</li>
                  <li>Emojis</li>
                  <li>Instagram handle</li>
                </ul>
              </div>
              <div className={`${styles.dataClass} ${styles.private}`}>
                <p className={styles.dataClassName}>Private</p>
                <p className={styles.dataClassWho}>Only you, never shown to other students</p>
                <ul>
                  <li>E-mail address</li>
                  <li>Phone number</li>
                  <li>Payment data</li>
                  <li>Notification settings and push subscriptions</li>
                </ul>
              </div>
            </div>
            <p>
              When you vote for someone, they do not learn who you are unless they use an unlock on that vote. An unlock
              reveals your unlockable details to that one person only. Your Instagram handle is never shown on your
              public card. A vote you cast reaches the person within the hour, at a random moment, in no order of when
              you cast it, so nobody can work out who sent a vote from when it came.
            </p>
          </TermsSection>

          <TermsSection section={privacy("privacy-use")}>
            <ul>
              <li>To create your account, sign you in with a code sent to your phone and keep you signed in.</li>
              <li>To show you rounds of students from your school and record your votes.</li>
              <li>To show you the votes you received and reveal voters you unlock.</li>
              <li>To process purchases and add the unlocks or boosts you paid for.</li>
              <li>To send you text messages you agreed to receive, and push notifications you turned on.</li>
              <li>To confirm once that you are a student at your school, by a code sent to your school e-mail.</li>
              <li>To prevent abuse, fraud and spam, and to enforce these terms.</li>
            </ul>
            <p>We do not sell your personal information and we do not use it for third-party advertising.</p>
          </TermsSection>

          <TermsSection section={privacy("privacy-sms")}>
            <p>
              We send text messages to the phone number on your account: sign-in verification codes and notifications
              when you receive votes. At sign-up you are asked to agree to the following:
            </p>
            <blockquote className={styles.quote}>{SMS_CONSENT_TEXT}</blockquote>
            <ul>
              <li>Message frequency varies with how many votes you receive.</li>
              <li>Message and data rates may apply, depending on your mobile plan.</li>
              <li>
                Reply <strong className={styles.keyword}>STOP</strong> to any message to opt out of notifications.
              </li>
              <li>
                Reply <strong className={styles.keyword}>HELP</strong> for help.
              </li>
            </ul>
          </TermsSection>

          <TermsSection section={privacy("privacy-push")}>
            <p>
              Push notifications are off until you turn them on for a device, in the app or in Settings. Your browser
              then gives us an address at its push service (Google, Mozilla, Apple or Microsoft) and keys to encrypt
              what we send; notices go there instead of a text, and say only how many votes you received. We keep at
              most {PUSH_DEVICES_PER_STUDENT} devices per account; a new one replaces the oldest.
            </p>
            <ul>
              <li>
                A device is removed when you turn push off for it in Settings, when its push service tells us it is
                gone, or when you delete your account.
              </li>
              <li>A record of each notice (how many votes and when) is kept for 30 days.</li>
            </ul>
          </TermsSection>

          <TermsSection section={privacy("privacy-school-email")}>
            <p>
              To show you rounds and votes we ask you to confirm your school e-mail address once, with a code we e-mail
              to it. The address is private: only you see it, in Settings and in your data export. One mailbox can
              confirm one account.
            </p>
            <ul>
              <li>The address stays on your account while it is open, and is removed when you delete your account.</li>
              <li>Codes we e-mail expire after 10 minutes and are deleted a day later.</li>
              <li>
                A record of each e-mail we send (the address, whether it was delivered and when) is kept for 30 days.
              </li>
            </ul>
          </TermsSection>

          <TermsSection section={privacy("privacy-payments")}>
            <p>
              Payments are handled by our card payment provider. Your card number is sent directly to the provider and
              is never stored on Quad&rsquo;s servers. We keep a record of each purchase (product, amount, date and
              status) so we can deliver it and answer questions about it. Payment data is private.
            </p>
          </TermsSection>

          <TermsSection section={privacy("privacy-sharing")}>
            <p>We share information only:</p>
            <ul>
              <li>with other students, as described in &ldquo;Who can see what&rdquo;;</li>
              <li>
                with service providers who help us run Quad (hosting, text message delivery, phone verification and card
                payments), only as needed to provide their service;
              </li>
              <li>when the law requires it, or to protect the safety of our users and the public.</li>
            </ul>
          </TermsSection>

          <TermsSection section={privacy("privacy-retention")}>
            <p>
              We keep your information while your account is active. Sign-in codes expire within minutes and are deleted
              a day later; school e-mail codes likewise. Records of texts, e-mails and push notices we sent are deleted
              after 30 days. If you delete your account we remove your profile, your school e-mail address and your push
              subscriptions from Quad; reports you filed stay with our moderators without your name until they are
              reviewed, and we may keep purchase records as long as the law requires. While your profile is under review
              after reports about it, you can delete your account once the review is done. A report that an account
              belongs to someone under 18 that our moderators have not yet reviewed is kept after the account is
              deleted, for a year, with a scrambled form of its phone number (not the number itself): if the number
              signs up again, the report goes back to our moderators.
            </p>
          </TermsSection>

          <TermsSection section={privacy("privacy-security")}>
            <p>
              We protect your data with safeguards such as encrypted connections, hashed sign-in codes and restricted
              access. No system is perfectly secure, so please keep your phone and its messages safe.
            </p>
          </TermsSection>

          <TermsSection section={privacy("privacy-choices")}>
            <ul>
              <li>You can update your profile details in the app.</li>
              <li>
                You can stop text notifications at any time by replying <strong className={styles.keyword}>STOP</strong>
                .
              </li>
              <li>You can turn push notifications off for a device in Settings, which removes it.</li>
              <li>You can download everything we keep about you from Settings.</li>
              <li>You can ask us for a copy of your data, to correct it, or to delete your account.</li>
            </ul>
          </TermsSection>
        </section>

        <section id="terms-and-conditions" className={styles.part} aria-labelledby="terms-title">
          <h2 id="terms-title" className={styles.partTitle}>
            Terms and Conditions
          </h2>

          <TermsSection section={terms("terms-acceptance")}>
            <p>
              By creating an account or using Quad you agree to these Terms and Conditions and to the Privacy Policy
              above. If you do not agree, please do not use Quad.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-eligibility")}>
            <ul>
              <li>
                You must be <strong>18 years of age or older</strong>.
              </li>
              <li>You must be a student at a university that Quad supports.</li>
              <li>
                A school e-mail address (ending in <strong>.edu</strong>) is required to use Quad.
              </li>
              <li>You may have only one account, registered to a US mobile number you control.</li>
            </ul>
          </TermsSection>

          <TermsSection section={terms("terms-account")}>
            <p>
              You sign in with your phone number and a code we text you. Keep your phone secure: anyone who can read
              your messages could sign in as you. The details you give must be true and must be your own, including your
              photo and Instagram handle.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-how")}>
            <ul>
              <li>Each round shows a prompt and two students from your school. You vote for one, or skip.</li>
              <li>Votes are anonymous. The student you voted for sees the prompt, not who you are.</li>
              <li>
                A student who receives your vote can spend an unlock credit to reveal your name, photo, class year,
                emojis and Instagram handle, to them alone.
              </li>
              <li>The number of votes and skips you can use in a period is limited; votes come back over time.</li>
            </ul>
          </TermsSection>

          <TermsSection section={terms("terms-conduct")}>
            <p>To keep Quad fun and safe, you agree not to:</p>
            <ul>
              <li>impersonate anyone or use someone else&rsquo;s photo or Instagram handle;</li>
              <li>harass, bully, threaten or shame other students, on or off Quad, using what you learn here;</li>
              <li>upload nudity, violence, hate or anything illegal;</li>
              <li>use bots, scrape the service, or try to discover anonymous voters without an unlock;</li>
              <li>interfere with the service or other people&rsquo;s use of it.</li>
            </ul>
          </TermsSection>

          <TermsSection section={terms("terms-purchases")}>
            <p>Quad offers optional purchases:</p>
            <ul>
              <li>
                <strong>Unlocks</strong> reveal who voted for you. A single unlock costs{" "}
                <strong>{SINGLE_UNLOCK_PRICE}</strong> as a one-off purchase; discounted packs and limited-time offers
                may be shown in the app.
              </li>
              <li>
                <strong>Boosts</strong> make your profile appear more often to other students for a set time (
                {BOOST_DURATIONS} days).
              </li>
            </ul>
            <p>
              The price is always shown before you pay. Payments are processed by our card payment provider and are
              charged in US dollars. Unlocks and boosts are digital services delivered as soon as the payment succeeds;
              they have no cash value and cannot be transferred.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-refunds")}>
            <p className={styles.callout}>
              <strong>All payments are final. There are no refunds</strong>, including for unused unlocks, boosts that
              have started, or accounts that are closed, except where the law requires otherwise.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-sms")}>
            <p>
              By agreeing to text messages you ask Quad to text you verification codes and notifications when you
              receive votes. Message frequency varies. Message and data rates may apply. Reply{" "}
              <strong className={styles.keyword}>STOP</strong> to opt out and{" "}
              <strong className={styles.keyword}>HELP</strong> for help. Agreeing to texts is not a condition of any
              purchase. Carriers are not liable for delayed or undelivered messages.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-content")}>
            <p>
              You own the photos and details you add. You give Quad permission to store them and show them as described
              in the Privacy Policy, only to run the service. We may remove content that breaks these terms.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-termination")}>
            <p>
              We may suspend or close accounts that break these terms or put other students at risk. You may stop using
              Quad at any time. Purchases are not refunded when an account is closed.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-disclaimers")}>
            <p>
              Quad is provided &ldquo;as is&rdquo;. Votes are opinions of other students, not statements by Quad. To the
              fullest extent the law allows, Quad is not liable for indirect or consequential losses, and our total
              liability is limited to the amount you paid us in the twelve months before the claim.
            </p>
          </TermsSection>

          <TermsSection section={terms("terms-changes")}>
            <p>
              We may update these terms. The &ldquo;last updated&rdquo; date above shows when; if a change matters, we
              will tell you in the app before it applies. For help, reply{" "}
              <strong className={styles.keyword}>HELP</strong> to any text from Quad.
            </p>
          </TermsSection>
        </section>

        <footer className={styles.footer}>
          <p>
            Effective {POLICY_EFFECTIVE_DATE}. Last updated {POLICY_UPDATED_DATE}.
          </p>
          <Link to="/" className={styles.backLink}>
            <Icon name="arrowLeft" size={18} />
            Back to Quad
          </Link>
        </footer>
      </article>
    </AppShell>
  );
}
