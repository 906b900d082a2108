import { SCREEN_TEXT, TOASTS, type Gender } from "@quad/contracts";
import { Button } from "../../components";
import { PREFERENCE_OPTIONS } from "./preference-switch";
import { RoundMessage } from "./round-message";
import { RoundStage } from "./round-stage";
import { usePreviewRound } from "./use-preview-round";

export interface LandingPreviewProps {
  /** The visitor's choice; null until they make one. */
  gender: Gender | null;
  onChooseGender: (gender: Gender) => void;
  /** Voting or unlocking: the visitor has to sign up first. */
  onJoin: () => void;
}

/**
 * The landing's preview round (`/` in docs/product.md "Screens": gender, loading, prompt).
 * Loaded after the first paint: the page shows the gender question first.
 */
export function LandingPreview({ gender, onChooseGender, onJoin }: LandingPreviewProps) {
  const preview = usePreviewRound(gender);

  if (preview.status === "idle") {
    return (
      <RoundMessage
        icon="users"
        title={SCREEN_TEXT.whoDoYouWantToSee}
        actions={PREFERENCE_OPTIONS.map(({ gender: option, label }) => (
          <Button key={option} variant="secondary" onClick={() => onChooseGender(option)}>
            {label}
          </Button>
        ))}
      />
    );
  }

  return (
    <>
      {(preview.status === "loading" || preview.status === "ready") && (
        <RoundStage
          round={preview.status === "ready" ? preview.round : null}
          eyebrow="Preview round"
          onVote={onJoin}
          onUnlockInstagram={onJoin}
        />
      )}
      {preview.status === "empty" && (
        <RoundMessage
          icon="users"
          title={preview.error.error === "no_candidates" ? SCREEN_TEXT.noStudents : preview.error.message}
        />
      )}
      {preview.status === "failed" && (
        <RoundMessage
          icon="refresh"
          role="alert"
          title={TOASTS.loadPromptFailed}
          actions={
            <Button variant="secondary" onClick={preview.retry}>
              Try again
            </Button>
          }
        />
      )}
    </>
  );
}
