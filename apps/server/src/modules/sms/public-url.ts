/**
 * $PUBLIC_URL joined with a path, keeping any path prefix PUBLIC_URL has:
 * links in texts, the StatusCallback we give Twilio, and the URL Twilio
 * signed when it calls our webhooks (behind a proxy only PUBLIC_URL knows it).
 */
export function publicUrlOf(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}
