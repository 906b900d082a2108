import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where uploaded and generated images live. Local disk now; an object store
 * later implements the same four calls. Keys are relative paths such as
 * "photos/<uuid>.jpg" and are served at /api/media/<key>.
 */
export interface MediaStorage {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** Every stored key under a folder ("teasers/"), for clean-up steps; never on a request path. */
  list(folder: string): Promise<string[]>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_-]*\.(jpg|jpeg|png|webp|svg)$/i;
const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** Rejects anything that could climb out of the media folder. */
export function isValidMediaKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split("/").some((part) => part === ".." || part === "");
}

export function mediaUrl(key: string): string {
  return `/api/media/${key}`;
}

const NO_SUCH_FILE = new Set(["ENOENT", "ENAMETOOLONG", "ENOTDIR"]);

export function createDiskStorage(root: string): MediaStorage {
  const fileOf = (key: string) => {
    if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, data);
      await rename(temp, file);
    },
    async get(key) {
      if (!isValidMediaKey(key)) return null;
      try {
        const data = await readFile(fileOf(key));
        const ext = key.split(".").pop()!.toLowerCase();
        return { data, contentType: CONTENT_TYPES[ext] ?? "application/octet-stream" };
      } catch (error) {
        // Not there, or a name no file could have (a part past the file system's 255 bytes, a path through a file).
        if (NO_SUCH_FILE.has((error as NodeJS.ErrnoException).code ?? "")) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async list(folder) {
      const prefix = folder.replace(/\/*$/, "/");
      if (!isValidMediaKey(`${prefix}x.jpg`)) throw new Error(`Invalid media folder: ${folder}`);
      try {
        const entries = await readdir(path.join(root, prefix), { recursive: true, withFileTypes: true });
        const keys = entries
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
        // Half-written temp files are not keys.
        return keys.filter(isValidMediaKey).sort();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
    },
  };
}
