import { DeleteAccountInput, TOASTS } from "@quad/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button, Modal } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { useSessionStore } from "../../lib/session-store";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { TextField } from "../auth/ui/fields";
import styles from "./account.module.css";
import { ACCOUNT_TEXT } from "./texts";

export interface DeleteAccountDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Deleting is final and takes effect at once, so the student types DELETE
 * (checked by the contracts' schema, as on the server). Afterwards this
 * device forgets the session and goes to /login, as Logout does.
 */
export function DeleteAccountDialog({ open, onClose }: DeleteAccountDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const remove = trpc.account.delete.useMutation();
  const confirmed = DeleteAccountInput.safeParse({ confirm: typed.trim() });

  const close = () => {
    setTyped("");
    setError(null);
    onClose();
  };

  const submit = async () => {
    if (!confirmed.success) {
      setError(confirmed.error.issues[0]?.message ?? null);
      return;
    }
    try {
      await remove.mutateAsync(confirmed.data);
    } catch (failure) {
      notify.error(toUserMessage(failure, TOASTS.processRequestFailed));
      return;
    }
    useSessionStore.getState().clear();
    void navigate("/login", { replace: true });
    queryClient.clear();
    notify.success(ACCOUNT_TEXT.deleted);
  };

  return (
    <Modal
      open={open}
      onClose={close}
      dismissible={!remove.isPending}
      hideCloseButton={remove.isPending}
      size="sm"
      title="Delete your account?"
      description="This can't be undone."
      footer={
        <>
          <Button
            variant="danger"
            size="lg"
            block
            onClick={() => void submit()}
            loading={remove.isPending}
            disabled={!confirmed.success}
          >
            Delete my account
          </Button>
          <Button variant="ghost" block onClick={close} disabled={remove.isPending}>
            Keep my account
          </Button>
        </>
      }
    >
      <p className={styles.dialogText}>{ACCOUNT_TEXT.deleteDescription}</p>
      <TextField
        label={ACCOUNT_TEXT.deleteConfirmLabel}
        name="confirm"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="DELETE"
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          setError(null);
        }}
        error={error}
        disabled={remove.isPending}
      />
    </Modal>
  );
}
