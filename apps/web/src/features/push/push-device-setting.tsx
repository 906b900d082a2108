import { TOASTS } from "@quad/contracts";
import { useEffect, useState } from "react";
import { Switch } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { usePublicConfig } from "../config/use-public-config";
import sectionText from "../settings/section-text.module.css";
import { browserPushSupport, currentSubscription, subscribeThisDevice, subscriptionInput } from "./push-device";
import { PUSH_TEXT } from "./texts";

type DeviceState = "checking" | "on" | "off";

/** This device's vote notifications: on asks the browser's permission and subscribes; off removes the subscription. */
export function usePushDevice(vapidPublicKey: string | null) {
  const [state, setState] = useState<DeviceState>("checking");
  const [busy, setBusy] = useState(false);
  const { client } = trpc.useUtils();

  useEffect(() => {
    let live = true;
    currentSubscription()
      .then(async (subscription) => {
        if (!live) return;
        setState(subscription ? "on" : "off");
        // Keeps the server in step with the browser (a device that signed in as someone else).
        if (subscription) await client.push.subscribe.mutate(subscriptionInput(subscription));
      })
      .catch(() => live && setState("off"));
    return () => {
      live = false;
    };
  }, [client]);

  async function turnOn(key: string) {
    const outcome = await subscribeThisDevice(key);
    if ("refused" in outcome) {
      if (outcome.refused === "denied") notify.error(PUSH_TEXT.blocked);
      return;
    }
    try {
      await client.push.subscribe.mutate(subscriptionInput(outcome.subscription));
      setState("on");
    } catch (error) {
      // The server did not store it: the browser must not keep a subscription nobody sends to.
      await outcome.subscription.unsubscribe().catch(() => undefined);
      throw error;
    }
  }

  async function turnOff() {
    const subscription = await currentSubscription();
    if (subscription) {
      await client.push.unsubscribe.mutate({ endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    setState("off");
  }

  const change = (on: boolean) => {
    if (busy || (on && !vapidPublicKey)) return;
    setBusy(true);
    (on ? turnOn(vapidPublicKey!) : turnOff())
      .catch((error: unknown) =>
        notify.error(toUserMessage(error, on ? PUSH_TEXT.failed : TOASTS.processRequestFailed)),
      )
      .finally(() => setBusy(false));
  };
  return { state, busy, change };
}

interface PushDeviceSettingProps {
  /** Told whether this device has notifications on (the texts' switch says they are paused). */
  onStateChange?: (on: boolean) => void;
}

function PushSwitch({ vapidPublicKey, onStateChange }: PushDeviceSettingProps & { vapidPublicKey: string }) {
  const device = usePushDevice(vapidPublicKey);
  useEffect(() => onStateChange?.(device.state === "on"), [device.state, onStateChange]);
  return (
    <Switch
      label={PUSH_TEXT.title}
      description={device.state === "on" ? PUSH_TEXT.on : PUSH_TEXT.off}
      checked={device.state === "on"}
      busy={device.busy || device.state === "checking"}
      onChange={device.change}
    />
  );
}

/** "Notifications on this device", or why this device cannot have them. */
export function PushDeviceSetting({ onStateChange }: PushDeviceSettingProps) {
  const [support] = useState(browserPushSupport);
  const config = usePublicConfig();
  const key = config.data?.vapidPublicKey ?? null;
  if (support === "supported" && key) return <PushSwitch vapidPublicKey={key} onStateChange={onStateChange} />;
  if (support === "supported" && config.isPending) return null;
  return (
    <>
      <Switch label={PUSH_TEXT.title} checked={false} disabled onChange={() => undefined} />
      <p className={sectionText.note}>
        {support === "ios-install-first" ? PUSH_TEXT.iosInstallFirst : PUSH_TEXT.unsupported}
      </p>
    </>
  );
}
