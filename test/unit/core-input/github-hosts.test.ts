import { describe, expect, it } from "vitest";
import { GITHUB_COM, githubServerAt, graphqlUrlOfApiUrl, webUrlOfApiUrl } from "../../../src/core/github-hosts.js";

describe("the GitHub a shell serves", () => {
  it("from the App's GHE_HOST and GHE_PROTOCOL (through its /api/v3 base)", () => {
    expect(githubServerAt(webUrlOfApiUrl(undefined))).toBe(GITHUB_COM);
    expect(githubServerAt(webUrlOfApiUrl("https://ghe.example.com/api/v3"))).toEqual({
      webOrigin: "https://ghe.example.com",
      enterprise: true,
      tokenOrigins: ["https://ghe.example.com"],
    });
    expect(githubServerAt(webUrlOfApiUrl("http://ghe.example.com:8080/api/v3")).tokenOrigins).toEqual(["http://ghe.example.com:8080"]);
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
