import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import type { SafetySubject } from "./subject";
import { SAFETY_TEXT } from "./texts";

/** safety.block with its toasts; answers whether the block went through. */
export function useBlockStudent() {
  const mutation = trpc.safety.block.useMutation();

  const block = async (subject: SafetySubject): Promise<boolean> => {
    try {
      await mutation.mutateAsync(subject.target);
    } catch (error) {
      notify.error(toUserMessage(error, SAFETY_TEXT.blockFailed));
      return false;
    }
    notify.success(SAFETY_TEXT.blocked(subject.name));
    return true;
  };

  return { block, blocking: mutation.isPending };
}
