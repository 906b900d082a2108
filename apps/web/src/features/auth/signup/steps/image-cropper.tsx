import { CROP, PHOTO } from "@quad/contracts";
import type CropperJs from "cropperjs";
import "cropperjs/dist/cropper.css";
import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from "react";
import { Cropper, type ReactCropperElement } from "react-cropper";
import styles from "./image-cropper.module.css";
import { PhotoLoading } from "./photo-loading";

/**
 * The react-cropper wrapper of the image step, in its own lazily loaded
 * module so cropperjs and its CSS are only fetched on that step.
 */

export type CropData = CropperJs.Data;

export interface CroppedImage {
  /** The crop as a 3:4 JPEG, what gets uploaded. */
  blob: Blob;
  /** Where the crop was, to restore it when the student goes back to re-crop. */
  data: CropData;
}

export interface ImageCropperHandle {
  /** Crops the photo; called before the cropper is ready, it waits for ready. */
  crop(): Promise<CroppedImage>;
}

export interface ImageCropperProps {
  src: string;
  /** A previous crop to start from. */
  initialData?: CropData | null;
  disabled?: boolean;
  /** Called once the photo is in the cropper and can be cropped. */
  onReady?: () => void;
  ref?: Ref<ImageCropperHandle>;
}

const JPEG_QUALITY = 0.9;

function clampZoom(zoom: number): number {
  const stepped = Math.round(zoom / CROP.zoomStep) * CROP.zoomStep;
  return Math.min(CROP.maxZoom, Math.max(CROP.minZoom, Number(stepped.toFixed(1))));
}

function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("Could not encode the crop"))),
      "image/jpeg",
      JPEG_QUALITY,
    );
  });
}

/**
 * A fixed 3:4 frame over the photo: drag to move, pinch or use the slider to
 * zoom from 1× (the whole photo fits) to 3× in steps of 0.1 (docs/product.md).
 */
export default function ImageCropper({ src, initialData, disabled, onReady: onReadyProp, ref }: ImageCropperProps) {
  const cropperRef = useRef<ReactCropperElement>(null);
  /** Cropper's zoom ratio at which the whole photo fits: our 1×. */
  const fitRatio = useRef(1);
  const [zoom, setZoom] = useState<number>(CROP.minZoom);
  const [ready, setReady] = useState(false);
  /** Crops asked for before ready (cropperjs has no canvas to take until then). */
  const readyWaiters = useRef<{ resolve: () => void; reject: (error: DOMException) => void }[]>([]);
  const isReady = useRef(false);
  // react-cropper hands its `ready` to cropperjs once, at mount: the latest prop is read from here.
  const latestOnReady = useRef(onReadyProp);
  const sliderId = useId();

  useEffect(() => {
    latestOnReady.current = onReadyProp;
  }, [onReadyProp]);

  useEffect(() => {
    const waiters = readyWaiters.current;
    return () => {
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new DOMException("The cropper closed before it was ready", "AbortError"));
      }
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      async crop() {
        if (!isReady.current) {
          await new Promise<void>((resolve, reject) => readyWaiters.current.push({ resolve, reject }));
        }
        const cropper = cropperRef.current?.cropper;
        if (!cropper) throw new Error("The cropper is not ready");
        const canvas = cropper.getCroppedCanvas({
          width: PHOTO.outputWidth,
          height: PHOTO.outputHeight,
          fillColor: "#fff",
          imageSmoothingEnabled: true,
          imageSmoothingQuality: "high",
        }) as HTMLCanvasElement | null;
        if (!canvas) throw new Error("The cropper has no canvas to crop");
        return { blob: await canvasToJpeg(canvas), data: cropper.getData(true) };
      },
    }),
    [],
  );

  const onReady = () => {
    const cropper = cropperRef.current?.cropper;
    if (!cropper) return;
    const container = cropper.getContainerData();
    const image = cropper.getImageData();
    fitRatio.current = Math.min(container.width / image.naturalWidth, container.height / image.naturalHeight);
    setZoom(clampZoom(image.width / image.naturalWidth / fitRatio.current));
    setReady(true);
    isReady.current = true;
    for (const waiter of readyWaiters.current.splice(0)) waiter.resolve();
    latestOnReady.current?.();
  };

  const onZoom = (event: CropperJs.ZoomEvent) => {
    const relative = event.detail.ratio / fitRatio.current;
    // Pinches and wheel turns outside 1×–3× are refused, like the slider's ends.
    if (relative < CROP.minZoom - 0.001 || relative > CROP.maxZoom + 0.001) {
      event.preventDefault();
      return;
    }
    setZoom(clampZoom(relative));
  };

  const zoomTo = (value: number) => {
    setZoom(value);
    cropperRef.current?.cropper.zoomTo(value * fitRatio.current);
  };

  return (
    <div className={styles.wrap}>
      <div className={styles.frame} style={{ height: CROP.previewHeightPx }}>
        {!ready && <PhotoLoading overlay />}
        <Cropper
          ref={cropperRef}
          src={src}
          style={{ height: "100%", width: "100%" }}
          aspectRatio={CROP.aspectRatio}
          viewMode={1}
          dragMode="move"
          autoCropArea={0.92}
          cropBoxMovable={false}
          cropBoxResizable={false}
          toggleDragModeOnDblclick={false}
          guides={false}
          center={false}
          highlight={false}
          background={false}
          responsive
          checkOrientation
          data={initialData ?? undefined}
          ready={onReady}
          zoom={onZoom}
          alt="Your photo, to crop"
        />
      </div>
      <div className={styles.zoom}>
        <label htmlFor={sliderId} className={styles.zoomLabel}>
          Zoom
        </label>
        <input
          id={sliderId}
          type="range"
          className={styles.slider}
          min={CROP.minZoom}
          max={CROP.maxZoom}
          step={CROP.zoomStep}
          value={zoom}
          onChange={(event) => zoomTo(Number(event.target.value))}
          disabled={disabled || !ready}
          aria-valuetext={`${zoom.toFixed(1)}×`}
          style={{ ["--fill" as string]: `${((zoom - CROP.minZoom) / (CROP.maxZoom - CROP.minZoom)) * 100}%` }}
        />
        <output htmlFor={sliderId} className={styles.zoomValue}>
          {zoom.toFixed(1)}×
        </output>
      </div>
    </div>
  );
}
