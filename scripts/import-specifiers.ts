/**
 * What a source file imports, as written: every module specifier of its static and dynamic
 * imports, `import type` and re-exports, read by TypeScript's own scanner (no type checking).
 */
import ts from 'typescript';

export const importSpecifiers = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);

/** A specifier that names a file by its path (`./`, `../`), not a package, `node:`, `npm:` or a URL. */
export const isRelative = (specifier: string) => /^\.\.?\//.test(specifier);
