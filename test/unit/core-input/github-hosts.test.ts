import { describe, expect, it } from "vitest";
import { GITHUB_COM, githubServerFromGheEnv, graphqlUrlOfApiUrl, webUrlOfApiUrl } from "../../../src/core/github-hosts.js";

describe("the GitHub a shell serves", () => {
  it("from GHE_HOST and GHE_PROTOCOL (the App)", () => {
    expect(githubServerFromGheEnv(undefined, undefined)).toBe(GITHUB_COM);
    expect(githubServerFromGheEnv("ghe.example.com", undefined)).toEqual({
      webOrigin: "https://ghe.example.com",
      enterprise: true,
      imageHosts: ["ghe.example.com", "media.ghe.example.com"],
      tokenOrigins: ["https://ghe.example.com"],
    });
    expect(githubServerFromGheEnv("ghe.example.com:8080", "http").tokenOrigins).toEqual(["http://ghe.example.com:8080"]);
  });

  it("the web URL behind a REST base: only an /api/v3 base is an Enterprise Server", () => {
    expect(webUrlOfApiUrl("https://ghe.example.com/api/v3/")).toBe("https://ghe.example.com");
    expect(webUrlOfApiUrl("https://api.github.com")).toBe("https://github.com");
    expect(webUrlOfApiUrl("http://127.0.0.1:3000")).toBe("https://github.com");
    expect(webUrlOfApiUrl(undefined)).toBe("https://github.com");
  });

  it("GraphQL beside the REST base, as GitHub lays them out", () => {
    expect(graphqlUrlOfApiUrl("https://api.github.com")).toBe("https://api.github.com/graphql");
    expect(graphqlUrlOfApiUrl("https://ghe.example.com/api/v3/")).toBe("https://ghe.example.com/api/graphql");
  });
});
