/**
 * File names whose format is binary by its definition (images, archives,
 * compiled code, fonts, media, office documents): the drift signals' word
 * search does not read them (docs/signals.md "What counts as code"). On
 * PowerShell-Docs they are nine tenths of the code blobs' bytes.
 *
 * @module
 */

/**
 * Extensions (lower case, without the dot) of formats that are binary by
 * their definition. Not `svg`, `pdf` nor `dat`: they may be text.
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  ..."png jpg jpeg gif bmp ico icns webp avif heic tif tiff psd".split(" "), // images
  ..."zip gz tgz bz2 xz zst 7z rar jar war nupkg whl".split(" "), // archives, packages
  ..."exe dll so dylib o a lib class pyc wasm pdb".split(" "), // compiled
  ..."woff woff2 ttf otf eot".split(" "), // fonts
  ..."mp3 mp4 m4a wav ogg flac webm mov avi mkv".split(" "), // media
  ..."docx xlsx pptx odt ods odp mdb sqlite".split(" "), // documents, databases
]);

/**
 * Whether `path`'s extension (compared in lower case) names a binary format
 * ({@linkcode BINARY_EXTENSIONS}).
 *
 * @example
 * ```ts
 * import { isBinaryName } from "./_is_binary_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isBinaryName("docs/media/Shot.PNG"));
 * assert.ok(!isBinaryName("src/logo.svg"));
 * assert.ok(!isBinaryName("Makefile"));
 * ```
 */
export function isBinaryName(path: string): boolean {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return false;
  return BINARY_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}
