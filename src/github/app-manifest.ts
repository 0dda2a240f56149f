/**
 * The last step of GitHub's manifest flow: the code from the redirect becomes the new App's
 * credentials (`POST /app-manifests/{code}/conversions`, no authentication, once per code, within
 * an hour of it). The answer's secrets are returned to the caller, never put in an error.
 */
import { Octokit } from "@octokit/core";
import { conversionPath, type RegisteredApp } from "../core/app-registration.js";

/** The conversion failed; the message says what to do next and never quotes the code or a secret. */
class ManifestConversionError extends Error {
  override name = "ManifestConversionError";
}

interface ConversionAnswer {
  id?: unknown;
  slug?: unknown;
  name?: unknown;
  html_url?: unknown;
  pem?: unknown;
  webhook_secret?: unknown;
  owner?: { login?: unknown } | null;
}

/** Exchanges `code` at `apiBaseUrl` (api.github.com, or an Enterprise Server's `/api/v3`). */
export async function convertManifestCode(apiBaseUrl: string, code: string, fetchImpl: typeof fetch = fetch): Promise<RegisteredApp> {
  const octokit = new Octokit({ baseUrl: apiBaseUrl, request: { fetch: fetchImpl, retries: 0 } });
  let data: ConversionAnswer;
  try {
    // The path is built here (the code URL-encoded), so octokit's template sees no parameter to fill.
    data = (await octokit.request(`POST ${conversionPath(code)}`)).data as ConversionAnswer;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404) {
      throw new ManifestConversionError(
        "GitHub no longer knows this registration's code: a code works once, within an hour of the App's creation. " +
          "If the App was created, open its settings page on GitHub, generate a private key and a webhook secret there, " +
          "and set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET by hand; or delete it and run `agent-run app register` again.",
      );
    }
    const why = status === undefined ? `could not reach ${apiBaseUrl}: ${(error as Error).message}` : `GitHub answered ${status}`;
    throw new ManifestConversionError(
      `The App's credentials could not be fetched (${why}). The code works for an hour: if the App was created, ` +
        "run `agent-run app register` again only after deleting it, or set its credentials by hand from its settings page.",
    );
  }
  const { id, slug, name, html_url: htmlUrl, pem, webhook_secret: webhookSecret } = data;
  const ownerLogin = data.owner?.login;
  if (
    typeof id !== "number" ||
    typeof slug !== "string" ||
    typeof htmlUrl !== "string" ||
    typeof pem !== "string" ||
    !pem.includes("PRIVATE KEY") ||
    typeof webhookSecret !== "string" ||
    typeof ownerLogin !== "string"
  ) {
    throw new ManifestConversionError(
      `${apiBaseUrl} answered the conversion without an App's id, slug, html_url, owner, pem and webhook_secret: is it a GitHub API?`,
    );
  }
  return { id, slug, name: typeof name === "string" ? name : slug, ownerLogin, htmlUrl, pem, webhookSecret };
}
