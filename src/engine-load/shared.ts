// The modules the engine shares with the entry points, by path from the package's root: the build
// replaces this module with one that answers the kernel's table (`kernelImports` in
// tsup.config.ts; decisions/0072), which holds each of them. Read on the first load of the
// engine, not at import: the kernel imports the engine's loader, which imports the kernel.
// Empty in the source tree, where nothing reads it.
export function shared(): Readonly<Record<string, object>> {
  return {}
}
