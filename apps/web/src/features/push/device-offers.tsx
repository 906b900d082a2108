import { useState, useSyncExternalStore, type ReactNode } from "react";
import { Button, Icon } from "../../components";
import { installPromptReady, isIosSafariTab, onInstallPromptChange, promptInstall } from "../../lib/install-prompt";
import { rememberNotNow, saidNotNow } from "../../lib/not-now";
import { usePublicConfig } from "../config/use-public-config";
import { browserPushSupport } from "./push-device";
import { usePushDevice } from "./push-device-setting";
import { OFFER_TEXT } from "./texts";
import styles from "./device-offers.module.css";

interface OfferCardProps {
  title: string;
  body?: string;
  action?: { label: string; onClick: () => void; busy?: boolean };
  onNotNow?: () => void;
  children?: ReactNode;
}

function OfferCard({ title, body, action, onNotNow, children }: OfferCardProps) {
  return (
    <section className={styles.offer} aria-label={title}>
      <p className={styles.title}>{title}</p>
      {body && <p className={styles.body}>{body}</p>}
      {children}
      {(action || onNotNow) && (
        <div className={styles.actions}>
          {action && (
            <Button size="md" icon={<Icon name="bell" size={18} />} loading={action.busy} onClick={action.onClick}>
              {action.label}
            </Button>
          )}
          {onNotNow && (
            <Button variant="ghost" onClick={onNotNow}>
              {OFFER_TEXT.notNow}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

function IosSteps({ then, onNotNow }: { then?: string; onNotNow?: () => void }) {
  return (
    <OfferCard title={OFFER_TEXT.iosStepsTitle} onNotNow={onNotNow}>
      <ol className={styles.steps}>
        {OFFER_TEXT.iosSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {then && <p className={styles.body}>{then}</p>}
    </OfferCard>
  );
}

interface PushOfferProps {
  title: string;
  body: string;
  /** Offers "Not now" and calls this after it is remembered. */
  onNotNow?: () => void;
}

function PushSwitchOffer({ vapidPublicKey, title, body, onNotNow }: PushOfferProps & { vapidPublicKey: string }) {
  const device = usePushDevice(vapidPublicKey);
  // Turned on here: say so, rather than vanish.
  const [turnedOn, setTurnedOn] = useState(false);
  if (device.state === "checking") return null;
  if (device.state === "on") return turnedOn ? <p className={styles.done}>{OFFER_TEXT.turnedOn}</p> : null;
  return (
    <OfferCard
      title={title}
      body={body}
      action={{
        label: OFFER_TEXT.turnOn,
        busy: device.busy,
        onClick: () => {
          setTurnedOn(true);
          device.change(true);
        },
      }}
      onNotNow={onNotNow}
    />
  );
}

/**
 * One tap to turn on this device's notifications, or the iPhone's way there; nothing where the browser has
 * none. "Not now" keeps every notifications offer away for a week (lib/not-now.ts).
 */
export function PushOffer({ title, body, onNotNow }: PushOfferProps) {
  const [support] = useState(browserPushSupport);
  const [declined, setDeclined] = useState(() => saidNotNow("push"));
  const key = usePublicConfig().data?.vapidPublicKey ?? null;
  const notNow = () => {
    rememberNotNow("push");
    setDeclined(true);
    onNotNow?.();
  };
  if (declined) return null;
  if (support === "ios-install-first") return <IosSteps then={OFFER_TEXT.iosThenNotifications} onNotNow={notNow} />;
  if (support !== "supported" || !key) return null;
  return <PushSwitchOffer vapidPublicKey={key} title={title} body={body} onNotNow={notNow} />;
}

/** The install offer where the browser makes one, the Add to Home Screen steps on iOS Safari. */
export function InstallOffer({ onNotNow }: { onNotNow: () => void }) {
  const ready = useSyncExternalStore(onInstallPromptChange, installPromptReady, () => false);
  if (isIosSafariTab()) return <IosSteps onNotNow={onNotNow} />;
  if (!ready) return null;
  return (
    <OfferCard
      title={OFFER_TEXT.installTitle}
      body={OFFER_TEXT.installBody}
      action={{ label: OFFER_TEXT.install, onClick: () => void promptInstall() }}
      onNotNow={onNotNow}
    />
  );
}

/**
 * After a vote: notifications first, then installing, one offer at a time;
 * "Not now" keeps that offer away for a week (lib/not-now.ts).
 */
export function AfterVoteOffer() {
  const [, rerender] = useState(0);
  const decline = (offer: "push" | "install") => {
    rememberNotNow(offer);
    rerender((n) => n + 1);
  };
  const pushAvailable = browserPushSupport() === "supported";
  if (pushAvailable && !saidNotNow("push")) {
    return (
      <PushOffer title={OFFER_TEXT.afterVoteTitle} body={OFFER_TEXT.afterVoteBody} onNotNow={() => decline("push")} />
    );
  }
  if (!saidNotNow("install")) return <InstallOffer onNotNow={() => decline("install")} />;
  return null;
}
