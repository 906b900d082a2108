import { CROP, TOASTS } from "@quad/contracts";
import { lazy, Suspense, useId, useRef, useState, type ChangeEvent } from "react";
import { Button, Icon } from "../../../../components";
import { notify } from "../../../../lib/toast";
import { AuthIcon } from "../../ui/auth-icons";
import { FieldError } from "../../ui/fields";
import type { CropData, ImageCropperHandle } from "./image-cropper";
import { PhotoLoading } from "./photo-loading";
import { PHOTO_TEXT } from "./photo-texts";
import styles from "./profile-image-step.module.css";

// react-cropper, cropperjs and the cropper's CSS load with this step only.
const ImageCropper = lazy(() => import("./image-cropper"));

/** The photo as it moves through pick → crop → preview. */
export interface PhotoDraft {
  file: File;
  /** Object URL of `file`, for the cropper. */
  sourceUrl: string;
  /** The previewed crop: what gets uploaded. Null until "Preview Crop". */
  cropped: Blob | null;
  previewUrl: string | null;
  cropData: CropData | null;
}

export interface ProfileImageStepProps {
  photo: PhotoDraft | null;
  onPhotoChange: (photo: PhotoDraft | null) => void;
  error?: string | null;
  onError: (message: string | null) => void;
  disabled?: boolean;
}

/** Frees the object URLs a draft holds. */
export function releasePhoto(photo: PhotoDraft | null): void {
  if (!photo) return;
  URL.revokeObjectURL(photo.sourceUrl);
  if (photo.previewUrl) URL.revokeObjectURL(photo.previewUrl);
}

/**
 * Pick a file or take a photo, crop it at 3:4 with zoom, preview the crop
 * (required), and go back to re-crop or remove it (docs/product.md "Signing
 * up and signing in"). The wizard's Complete button uploads the previewed crop.
 */
export function ProfileImageStep({ photo, onPhotoChange, error, onError, disabled }: ProfileImageStepProps) {
  const cropper = useRef<ImageCropperHandle>(null);
  const [cropping, setCropping] = useState(false);
  // A tap on Preview Crop while the cropper was still loading: carried out when it is ready, never dropped.
  const previewAsked = useRef(false);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be picked again after removing it.
    event.target.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      onError("That file isn't a photo. Please choose an image.");
      return;
    }
    releasePhoto(photo);
    previewAsked.current = false;
    onError(null);
    onPhotoChange({ file, sourceUrl: URL.createObjectURL(file), cropped: null, previewUrl: null, cropData: null });
  };

  const preview = async () => {
    if (!photo) return;
    setCropping(true);
    if (!cropper.current) {
      previewAsked.current = true;
      return;
    }
    try {
      const { blob, data } = await cropper.current.crop();
      onError(null);
      onPhotoChange({ ...photo, cropped: blob, previewUrl: URL.createObjectURL(blob), cropData: data });
      // "Please preview your image first" (or any photo error) is answered now.
      notify.dismiss();
    } catch (error) {
      // The photo was removed while its cropper was loading: nothing failed.
      if (error instanceof DOMException && error.name === "AbortError") return;
      notify.error(TOASTS.processRequestFailed);
    } finally {
      setCropping(false);
    }
  };

  const cropperReady = () => {
    if (!previewAsked.current) return;
    previewAsked.current = false;
    void preview();
  };

  const recrop = () => {
    if (!photo) return;
    if (photo.previewUrl) URL.revokeObjectURL(photo.previewUrl);
    onPhotoChange({ ...photo, cropped: null, previewUrl: null });
  };

  const remove = () => {
    previewAsked.current = false;
    setCropping(false);
    releasePhoto(photo);
    onError(null);
    onPhotoChange(null);
  };

  const removeButton = (
    <Button variant="ghost" onClick={remove} disabled={disabled} className={styles.remove}>
      {PHOTO_TEXT.removeImage}
    </Button>
  );

  return (
    <div className={styles.step}>
      {!photo && <PhotoPicker onPick={pick} disabled={disabled} />}

      {photo && !photo.previewUrl && (
        <>
          <Suspense fallback={<PhotoLoading height={CROP.previewHeightPx} />}>
            <ImageCropper
              ref={cropper}
              src={photo.sourceUrl}
              initialData={photo.cropData}
              disabled={disabled}
              onReady={cropperReady}
            />
          </Suspense>
          <div className={styles.actions}>
            {removeButton}
            <Button
              variant="secondary"
              onClick={() => void preview()}
              loading={cropping}
              disabled={disabled}
              className={styles.previewButton}
            >
              {PHOTO_TEXT.previewCrop}
            </Button>
          </div>
        </>
      )}

      {photo?.previewUrl && (
        <>
          <figure className={styles.preview} style={{ height: CROP.previewHeightPx }}>
            <img src={photo.previewUrl} alt="Your cropped profile photo" className={styles.previewImage} />
            <button
              type="button"
              className={styles.recrop}
              onClick={recrop}
              disabled={disabled}
              aria-label="Back to cropping"
            >
              <Icon name="arrowLeft" size={22} />
            </button>
            <figcaption className={styles.caption}>
              <AuthIcon name="check" size={16} strokeWidth={3} />
              Looking good
            </figcaption>
          </figure>
          <div className={styles.actions}>{removeButton}</div>
        </>
      )}

      {error && <FieldError>{error}</FieldError>}
    </div>
  );
}

interface PhotoPickerProps {
  onPick: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled?: boolean;
}

function PhotoPicker({ onPick, disabled }: PhotoPickerProps) {
  const chooseId = useId();
  const takeId = useId();
  return (
    <div className={styles.picker}>
      <div className={styles.placeholder} aria-hidden="true">
        <AuthIcon name="person" size={56} strokeWidth={1.6} />
        <span className={styles.placeholderText}>3:4 portrait · your face, clearly</span>
      </div>
      <div className={styles.pickButtons}>
        <input
          id={chooseId}
          type="file"
          accept="image/*"
          className={styles.fileInput}
          onChange={onPick}
          disabled={disabled}
        />
        <label htmlFor={chooseId} className={`${styles.pickButton} ${styles.primaryPick}`}>
          <AuthIcon name="image" />
          Choose photo
        </label>
        <input
          id={takeId}
          type="file"
          accept="image/*"
          capture="user"
          className={styles.fileInput}
          onChange={onPick}
          disabled={disabled}
        />
        <label htmlFor={takeId} className={styles.pickButton}>
          <AuthIcon name="camera" />
          Take photo
        </label>
      </div>
    </div>
  );
}
