/** What the photo step says while it crops. */
export const PHOTO_TEXT = {
  /** Until the cropper has the photo on screen: a tap on Preview Crop waits for it. */
  loading: "Loading photo…",
  previewCrop: "Preview Crop",
  removeImage: "Remove Image",
} as const;
