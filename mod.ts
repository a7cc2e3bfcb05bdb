/**
 * dochygiene as a library: root resolution, config, the state store and the
 * seams' building blocks.
 *
 * @module
 */

export * from "./lib/dochygiene_error.ts";
export * from "./lib/clock.ts";
export * from "./lib/find_root.ts";
export * from "./lib/state_dir.ts";
export * from "./lib/atomic_write.ts";
export * from "./lib/with_lock.ts";
export * from "./lib/state_file.ts";
export * from "./lib/load_config.ts";
export * from "./lib/permission_flags.ts";
export * from "./lib/version.ts";
