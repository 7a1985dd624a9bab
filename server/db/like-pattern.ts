/** A LIKE pattern matching `text` literally anywhere (its %, _ and \ are not wildcards). */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
