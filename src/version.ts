/** The package version, kept equal to package.json by a unit test (bundles cannot read package.json). */
export const BRIDGE_NAME = "agent-run-bridge";
export const BRIDGE_VERSION = "0.1.0";
