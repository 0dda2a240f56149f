/**
 * The names of the environment variables the App reads, taken from its settings parser itself (src/app/env.ts): an
 * environment that records every name asked of it (and answers the required ones, so that parsing runs to the end)
 * is handed to parseAppEnv, so a deployment file that sets a name the App never reads (a typo, a renamed setting) is
 * caught without a list kept by hand. The same values are the base environment of the tests of parseAppEnv,
 * and appConfigurationError reads what it refuses.
 */
import { AppConfigurationError, parseAppEnv } from "../../src/app/env.js";

/** Just enough for parseAppEnv to accept: it reads the optional settings after checking these. */
export const REQUIRED_VALUES: Readonly<Record<string, string>> = {
  APP_ID: "1",
  PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----",
  WEBHOOK_SECRET: "secret",
  AGENT_RUN_API_URL: "https://agents.example.com",
  AGENT_RUN_API_TOKEN: "token",
  AGENT_RUN_ORG_ID: "1",
};

export function appSettingNames(): Set<string> {
  const asked = new Set<string>();
  const recording = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, name) => {
        if (typeof name !== "string") return undefined;
        asked.add(name);
        return REQUIRED_VALUES[name];
      },
    },
  );
  parseAppEnv(recording);
  return asked;
}

/** What the App cannot start without (AppConfigurationError names them); PRIVATE_KEY may be PRIVATE_KEY_PATH instead. */
export const REQUIRED_SETTINGS = Object.keys(REQUIRED_VALUES);

/** The AppConfigurationError parseAppEnv throws for `env`; fails when it accepts it or throws anything else. */
export function appConfigurationError(env: Record<string, string>): AppConfigurationError {
  try {
    parseAppEnv(env);
  } catch (error) {
    if (error instanceof AppConfigurationError) return error;
    throw error;
  }
  throw new Error("parseAppEnv accepted the environment");
}
