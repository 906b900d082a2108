import { TOASTS, type MeUser } from "@quad/contracts";
import { useEffect, useRef, useState } from "react";
import { Button, Modal } from "../../components";
import { useRestClient } from "../../app/api-provider";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { ProfileImageStep, releasePhoto, type PhotoDraft } from "../auth/signup/steps/profile-image-step";
import { USERS_TEXT } from "./texts";

export interface PhotoDialogProps {
  onClose: () => void;
}

/**
 * A new profile photo through the sign-up's own picker and 3:4 cropper: pick,
 * crop, preview, then save the previewed crop (multipart PATCH /users/update).
 */
export function PhotoDialog({ onClose }: PhotoDialogProps) {
  const rest = useRestClient();
  const [photo, setPhoto] = useState<PhotoDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // The dialog is unmounted when closed: free the draft's object URLs then.
  const latest = useRef<PhotoDraft | null>(null);
  useEffect(() => {
    latest.current = photo;
  }, [photo]);
  useEffect(() => () => releasePhoto(latest.current), []);

  const save = async () => {
    if (!photo?.cropped) {
      setError(photo ? TOASTS.previewImageFirst : TOASTS.uploadProfileImage);
      return;
    }
    const form = new FormData();
    form.append("profileImage", new File([photo.cropped], "profile.jpg", { type: "image/jpeg" }));
    setSaving(true);
    try {
      // The answer reaches the cached profile through lib/refresh-after.ts (as users.update).
      await rest.request<{ user: MeUser }>("/users/update", { method: "PATCH", body: form });
      notify.success(USERS_TEXT.photoSaved);
      onClose();
    } catch (failure) {
      const message = toUserMessage(failure, TOASTS.processRequestFailed);
      setError(message);
      notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!saving}
      hideCloseButton={saving}
      title="Change photo"
      description="Pick a clear photo of you. Crop it, preview it, then save."
      footer={
        <>
          <Button size="lg" block onClick={() => void save()} loading={saving} disabled={!photo?.cropped}>
            Save photo
          </Button>
          <Button variant="ghost" block onClick={onClose} disabled={saving}>
            Cancel
          </Button>
        </>
      }
    >
      <ProfileImageStep photo={photo} onPhotoChange={setPhoto} error={error} onError={setError} disabled={saving} />
    </Modal>
  );
}
