import { act, cleanup, render, screen } from "@testing-library/react";
import { createRef, type Ref } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import ImageCropper, { type ImageCropperHandle } from "./image-cropper";
import { PHOTO_TEXT } from "./photo-texts";

/**
 * jsdom cannot load or draw a photo: cropperjs is stood in for by one that,
 * like cropperjs, has no canvas to give until its `ready`, which the test fires.
 */
const stand = vi.hoisted(() => ({ isReady: false, ready: null as null | (() => void), cropped: 0 }));

vi.mock("react-cropper", () => ({
  Cropper: function FakeCropper({ ref, ready }: { ref?: Ref<unknown>; ready?: () => void }) {
    const cropper = {
      getContainerData: () => ({ width: 300, height: 400 }),
      getImageData: () => ({ naturalWidth: 300, naturalHeight: 400, width: 300 }),
      getData: () => ({ x: 0, y: 0, width: 300, height: 400, rotate: 0, scaleX: 1, scaleY: 1 }),
      zoomTo: () => {},
      getCroppedCanvas: () => {
        if (!stand.isReady) return null;
        stand.cropped++;
        return { toBlob: (done: (blob: Blob) => void) => done(new Blob(["crop"], { type: "image/jpeg" })) };
      },
    };
    if (typeof ref === "function") ref({ cropper });
    else if (ref) (ref as { current: unknown }).current = { cropper };
    stand.ready = () => {
      stand.isReady = true;
      ready?.();
    };
    return <div data-testid="cropper" />;
  },
}));

afterEach(() => {
  cleanup();
  Object.assign(stand, { isReady: false, ready: null, cropped: 0 });
});

describe("ImageCropper", () => {
  it("a crop asked for before ready waits for ready, then crops", async () => {
    const handle = createRef<ImageCropperHandle>();
    const onReady = vi.fn();
    render(<ImageCropper ref={handle} src="blob:photo" onReady={onReady} />);
    expect(screen.getByText(PHOTO_TEXT.loading)).toBeTruthy();
    expect(screen.getByLabelText("Zoom")).toHaveProperty("disabled", true);

    let settled = false;
    const cropped = handle.current!.crop().finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect(stand.cropped).toBe(0);

    act(() => stand.ready!());
    const { blob, data } = await cropped;
    expect(blob.type).toBe("image/jpeg");
    expect(data.width).toBe(300);
    expect(stand.cropped).toBe(1);
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(PHOTO_TEXT.loading)).toBeNull();
    expect(screen.getByLabelText("Zoom")).toHaveProperty("disabled", false);
  });

  it("a crop still waiting when the cropper closes is called off, not failed", async () => {
    const handle = createRef<ImageCropperHandle>();
    const { unmount } = render(<ImageCropper ref={handle} src="blob:photo" />);
    const cropped = handle.current!.crop();
    unmount();
    await expect(cropped).rejects.toMatchObject({ name: "AbortError" });
  });
});
