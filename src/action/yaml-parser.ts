/**
 * The YAML parser, for a repository with a configuration file (config-yaml.ts). A library that shares
 * nothing with the step, so the build makes it a file of its own (dist/yaml-parser.js), loaded whole
 * then: as a chunk of the step's build it shared esbuild's helpers with the start path, one more file
 * for every start to load.
 */
export { parseDocument } from "yaml";
