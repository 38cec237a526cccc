/** The one way the owner's files write a moment: ISO 8601 in UTC to the second ("2026-11-25T13:42:09Z"), in SQL. */
export const utcTimestamp = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
