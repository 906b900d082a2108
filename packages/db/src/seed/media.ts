import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";

/** Where the seed stores generated images; the server's media storage implements it. */
export interface MediaSink {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
}

/** Stores `<root>/<key>`; keys are relative paths and may not climb out of root. */
export function createDiskMediaSink(root: string): MediaSink {
  const base = resolve(root);
  return {
    async put(key, data) {
      const path = resolve(join(base, key));
      if (!path.startsWith(base + sep)) throw new Error(`Invalid media key: ${key}`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
  };
}

export interface StoredMedia {
  data: Uint8Array;
  contentType: string;
}

/** Keeps everything in a Map: for tests and throwaway databases. */
export function createMemoryMediaSink(): MediaSink & { files: Map<string, StoredMedia> } {
  const files = new Map<string, StoredMedia>();
  return {
    files,
    async put(key, data, contentType) {
      files.set(key, { data, contentType });
    },
  };
}
