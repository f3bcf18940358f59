/** What the consent page was asked for. */
export interface ConsentRequest {
  client_id: string;
  redirect_uri: string;
  scopes: string[];
  state: string | null;
  offline: boolean;
  prompt: string | null;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The stand-in's consent page: marked TEST MODE so no one mistakes it for Google's. Its form sends the decision to
 * /o/oauth2/v2/auth/decide with each scope as a ticked box (untick one to grant less, as Google's granular consent
 * lets a user), and Allow or Deny; the stand-in then redirects to redirect_uri with a code or access_denied.
 */
export function consentPage(request: ConsentRequest): string {
  const hidden = (name: string, value: string | null) => (value === null ? '' : `<input type="hidden" name="${name}" value="${escape(value)}">`);
  const scopes = request.scopes
    .map((scope) => `<label><input type="checkbox" name="scope" value="${escape(scope)}" checked> ${escape(scope)}</label><br>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>TEST MODE — Google Analytics stand-in</title></head>
<body>
<h1>TEST MODE — Google Analytics stand-in</h1>
<p>This is not Google. <strong>${escape(request.client_id)}</strong> asks to:</p>
<form method="get" action="/o/oauth2/v2/auth/decide">
${scopes}
${hidden('redirect_uri', request.redirect_uri)}
${hidden('state', request.state)}
${hidden('offline', request.offline ? '1' : '0')}
${hidden('prompt', request.prompt)}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body>
</html>
`;
}
