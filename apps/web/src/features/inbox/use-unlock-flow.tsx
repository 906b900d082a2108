import { SCREEN_TEXT, TOASTS, type VoteCard } from "@quad/contracts";
import { useState, type ReactNode } from "react";
import { Button, Icon, Modal } from "../../components";
import { errorCodeOf, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { FlashSaleDialog, UNLOCK_REVEALS, unlockCountLabel } from "../payments";
import { useProfilePart } from "../users/use-profile";
import styles from "./use-unlock-flow.module.css";

type Step = "idle" | "confirm" | "flashSale";

/** A card payment can be confirmed a moment before the server has added the credit (Stripe webhooks). */
const CREDIT_WAIT_ATTEMPTS = 5;
const CREDIT_WAIT_MS = 1_000;

export interface UnlockFlow {
  /** "Unlock Details": confirm with a credit, or offer the flash sale without one. */
  start: () => void;
  unlocking: boolean;
  /** The flow's dialogs; render them beside the vote detail. */
  dialogs: ReactNode;
}

/**
 * The unlock decision tree of docs/product.md: with credits left, "Use Unlock
 * Credit?" then unlock; with none, the flash-sale dialog, and once that
 * purchase succeeds the unlock proceeds by itself. Success toasts "Profile
 * unlocked! 🎉"; the revealed card and the credits left reach the list and
 * the profile through lib/refresh-after.ts.
 */
export function useUnlockFlow(card: VoteCard): UnlockFlow {
  const [step, setStep] = useState<Step>("idle");
  const credits = useProfilePart((me) => me.remainingUnlocks) ?? 0;
  const utils = trpc.useUtils();
  const mutation = trpc.inbox.unlock.useMutation();
  const [waitingForCredit, setWaitingForCredit] = useState(false);

  const unlock = async ({ afterPurchase }: { afterPurchase: boolean }) => {
    setStep("idle");
    try {
      await mutation.mutateAsync({ userId: card.id });
      notify.success(TOASTS.profileUnlocked);
    } catch (error) {
      notify.error(toUserMessage(error, TOASTS.unlockFailed));
      // Straight after a purchase, offering another one would go round in circles.
      if (errorCodeOf(error) === "PAYMENT_REQUIRED" && !afterPurchase) setStep("flashSale");
    }
  };

  const unlockAfterPurchase = async () => {
    setStep("idle");
    setWaitingForCredit(true);
    // The payment dialog has reloaded the profile; a provider's webhook may still be adding the credit.
    let left = utils.users.me.getData()?.remainingUnlocks ?? 0;
    for (let attempt = 1; attempt < CREDIT_WAIT_ATTEMPTS && left === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, CREDIT_WAIT_MS));
      const me = await utils.users.me.fetch(undefined, { staleTime: 0 }).catch(() => null);
      left = me?.remainingUnlocks ?? 0;
    }
    setWaitingForCredit(false);
    await unlock({ afterPurchase: true });
  };

  const start = () => {
    if (card.isUnlocked || mutation.isPending || waitingForCredit) return;
    setStep(credits > 0 ? "confirm" : "flashSale");
  };

  const dialogs = (
    <>
      <Modal
        open={step === "confirm"}
        onClose={() => setStep("idle")}
        size="sm"
        title={SCREEN_TEXT.useUnlockCredit}
        description={`${UNLOCK_REVEALS} You have ${unlockCountLabel(credits)} left.`}
        footer={
          <>
            <Button
              size="lg"
              block
              icon={<Icon name="unlock" size={20} />}
              onClick={() => void unlock({ afterPurchase: false })}
            >
              Use 1 unlock
            </Button>
            <Button variant="ghost" block onClick={() => setStep("idle")}>
              Cancel
            </Button>
          </>
        }
      >
        <p className={styles.after}>
          After this you'll have <strong>{unlockCountLabel(Math.max(credits - 1, 0))}</strong>.
        </p>
      </Modal>
      <FlashSaleDialog
        open={step === "flashSale"}
        onClose={() => setStep("idle")}
        onPaid={() => void unlockAfterPurchase()}
      />
    </>
  );

  return { start, unlocking: mutation.isPending || waitingForCredit, dialogs };
}
