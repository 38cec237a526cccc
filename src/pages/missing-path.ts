/** docs/product.md §2: the not-found page writes the missing path to the console. */
export function logMissingPath(pathname: string) {
  console.error('404 Error: User attempted to access non-existent route:', pathname);
}
