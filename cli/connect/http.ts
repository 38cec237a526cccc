/** One HTTP request whose every wait (name lookup, connection, answer, body) ends within the bound. */

export type Answer = { status: number; headers: Headers; body: string } | { failure: string; timedOut: boolean };

export async function request(url: string, init: RequestInit, seconds: number): Promise<Answer> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(seconds * 1000) });
    return { status: response.status, headers: response.headers, body: await response.text() };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return { failure: `did not answer within ${seconds} s`, timedOut: true };
    }
    const why = (error as { cause?: Error }).cause?.message ?? (error as Error).message ?? String(error);
    return { failure: `could not be reached (${why})`, timedOut: false };
  }
}

/** An answer's body as JSON, or undefined when it is not. */
export function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * An answer's status and error code (PostgREST's {code, message, …}, Supabase's gateway's
 * {message}), and both with its message as one phrase for the owner.
 */
export function whatItSaid({ status, body }: { status: number; body: string }) {
  const { code, message } = Object(parsed(body)) as { code?: string; message?: string };
  return { status, code, said: [status, code, message && JSON.stringify(message)].filter(Boolean).join(' ') };
}
