import { useId, useState, type CSSProperties } from "react";
import type { CandidateOption } from "@quad/contracts";
import { Button } from "../../components";
import styles from "./candidate-card.module.css";
import { classOf } from "./class-year";
import { Icon } from "../../components/icon";
// The button alone, not the feature's index: the landing shares this card and must not load the data layer.
import { CardMoreButton } from "../safety/card-more-button";

/** How many chips fit a card on a phone before "+N" takes over. */
const MAX_INTERESTS = 3;

export interface CandidateCardProps {
  candidate: CandidateOption;
  /** Position in the pair (0 or 1): staggers the entrance. */
  index: number;
  onVote: (candidate: CandidateOption) => void;
  /** This card's vote is being sent. */
  voting?: boolean;
  /** The vote went to this card (a short "Voted" flash before the next round). */
  chosen?: boolean;
  /** The vote went to the other card: this one steps back while the pick shows. */
  passed?: boolean;
  /** Another vote is in flight or the round is changing. */
  disabled?: boolean;
  /**
   * The blurred Instagram placeholder. Candidates never carry a handle, so it
   * is only ever the word "instagram" behind the blur. On the landing it is a
   * button that leads to sign-up ("unlock").
   */
  onUnlockInstagram?: (candidate: CandidateOption) => void;
  /** Opens block and report (signed-in rounds only; the landing preview has none). */
  onMore?: (candidate: CandidateOption) => void;
}

/** One student of a round: 3:4 photo, name and class, clubs, interests, hidden Instagram, Vote. */
export function CandidateCard({
  candidate,
  index,
  onVote,
  voting = false,
  chosen = false,
  passed = false,
  disabled = false,
  onUnlockInstagram,
  onMore,
}: CandidateCardProps) {
  const nameId = useId();
  const [photoLoaded, setPhotoLoaded] = useState(false);
  const { firstName, graduationYear, organizations, interests, profileImageUrl } = candidate;
  const shownInterests = interests.slice(0, MAX_INTERESTS);
  const moreInterests = interests.length - shownInterests.length;
  const [firstOrganization, ...otherOrganizations] = organizations;

  return (
    <article
      className={`${styles.card} ${chosen ? styles.chosen : ""} ${passed ? styles.passed : ""}`}
      aria-labelledby={nameId}
      style={{ "--i": index } as CSSProperties}
    >
      <div className={styles.photo}>
        <img
          src={profileImageUrl}
          alt={`Photo of ${firstName}`}
          width={900}
          height={1200}
          decoding="async"
          draggable={false}
          className={photoLoaded ? styles.loaded : undefined}
          onLoad={() => setPhotoLoaded(true)}
          onError={() => setPhotoLoaded(true)}
        />
        <div className={styles.identity}>
          <h3 id={nameId} className={styles.name}>
            {firstName}
          </h3>
          <p className={styles.classYear}>{classOf(graduationYear)}</p>
        </div>
        {onMore && !chosen && <CardMoreButton name={firstName} disabled={disabled} onClick={() => onMore(candidate)} />}
        {chosen && (
          <span className={styles.votedBadge} aria-hidden="true">
            <Icon name="check" size={16} />
            Voted
          </span>
        )}
      </div>

      <div className={styles.body}>
        {firstOrganization && (
          <p className={styles.organizations}>
            <Icon name="badge" size={14} className={styles.organizationIcon} />
            <span className="visually-hidden">Organizations: </span>
            <span className={styles.organization} title={firstOrganization}>
              {firstOrganization}
            </span>
            {otherOrganizations.length > 0 && (
              <span className={styles.more} title={otherOrganizations.join(", ")} aria-hidden="true">
                +{otherOrganizations.length}
              </span>
            )}
            {otherOrganizations.length > 0 && (
              <span className="visually-hidden">{`, ${otherOrganizations.join(", ")}`}</span>
            )}
          </p>
        )}

        {shownInterests.length > 0 && (
          <ul className={styles.interests} aria-label={`${firstName}'s interests`}>
            {shownInterests.map((interest) => (
              <li key={interest} className={styles.chip}>
                {interest}
              </li>
            ))}
            {moreInterests > 0 && (
              <li className={`${styles.chip} ${styles.chipMore}`} aria-label={`and ${moreInterests} more`}>
                +{moreInterests}
              </li>
            )}
          </ul>
        )}

        {onUnlockInstagram ? (
          <button
            type="button"
            className={`${styles.instagram} ${styles.instagramButton}`}
            onClick={() => onUnlockInstagram(candidate)}
            aria-label={`Unlock ${firstName}'s Instagram`}
          >
            <InstagramPlaceholder />
          </button>
        ) : (
          <p className={styles.instagram}>
            <InstagramPlaceholder />
            <span className="visually-hidden">Instagram hidden</span>
          </p>
        )}

        <Button
          className={styles.vote}
          block
          loading={voting}
          disabled={disabled && !voting}
          onClick={() => onVote(candidate)}
          aria-label={`Vote for ${firstName}`}
        >
          Vote
        </Button>
      </div>
    </article>
  );
}

/** The word "instagram", blurred: there is no handle behind it. */
function InstagramPlaceholder() {
  return (
    <>
      <Icon name="instagram" size={16} className={styles.instagramIcon} />
      <span className={styles.instagramText} aria-hidden="true">
        instagram
      </span>
      <Icon name="lock" size={14} className={styles.lockIcon} />
    </>
  );
}

/** The same footprint as a card, shimmering: rounds load without the page jumping. */
export function CandidateCardSkeleton() {
  return (
    <div className={`${styles.card} ${styles.skeleton}`} aria-hidden="true">
      <div className={styles.photo} />
      <div className={styles.body}>
        <span className={`${styles.bone} ${styles.boneWide}`} />
        <span className={styles.chipsBone}>
          <span className={styles.bone} />
          <span className={styles.bone} />
        </span>
        <span className={`${styles.bone} ${styles.boneInstagram}`} />
        <span className={`${styles.bone} ${styles.boneButton}`} />
      </div>
    </div>
  );
}
