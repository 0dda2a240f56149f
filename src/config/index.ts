export * from "./schema.js";
export * from "./glob.js";
export * from "./issues.js";
export * from "./inputs.js";
export * from "./json-schema.js";
export * from "./key-suggestions.js";
export * from "./salvage.js";
export * from "./check-file.js";
