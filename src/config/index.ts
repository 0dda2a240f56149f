export * from "./schema.js";
export * from "./permissions.js";
export * from "./glob.js";
export * from "./issues.js";
export * from "./inputs.js";
