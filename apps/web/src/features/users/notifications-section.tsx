import { TOASTS } from "@quad/contracts";
import { useState } from "react";
import { Spinner, Switch } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { PushDeviceSetting } from "../push/push-device-setting";
import { PUSH_TEXT } from "../push/texts";
import sectionText from "../settings/section-text.module.css";
import { USERS_TEXT } from "./texts";

/**
 * Vote notifications: by push on this device, and by SMS (the server records
 * that choice as a consent record). Push replaces texts while any device has it on.
 */
export function NotificationsSection() {
  const [pushOn, setPushOn] = useState(false);
  const settings = trpc.users.smsSettings.useQuery();
  const setSms = trpc.users.setSms.useMutation({
    onError: (error) => notify.error(toUserMessage(error, TOASTS.processRequestFailed)),
  });

  if (settings.isPending) return <Spinner label="Loading notification settings" />;
  if (settings.isError) return <p className={sectionText.muted}>{TOASTS.fetchUserFailed}</p>;

  const { enabled, optedOutBySms } = settings.data;
  return (
    <>
      <Switch
        label="Text me when I get votes"
        description={enabled ? (pushOn ? USERS_TEXT.smsWhilePush : USERS_TEXT.smsOn) : USERS_TEXT.smsOff}
        checked={enabled}
        busy={setSms.isPending}
        onChange={(next) => setSms.mutate({ enabled: next })}
      />
      {optedOutBySms && <p className={sectionText.note}>{USERS_TEXT.smsOptedOut}</p>}
      <PushDeviceSetting onStateChange={setPushOn} />
      <p className={sectionText.muted}>{PUSH_TEXT.replacesTexts}</p>
    </>
  );
}
