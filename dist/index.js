import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import {
  Octokit
} from "./chunk-5YYDRU23.js";
import {
  __export
} from "./chunk-LWR4YCW7.js";

// node_modules/@actions/core/lib/command.js
import * as os from "os";

// node_modules/@actions/core/lib/utils.js
function toCommandValue(input) {
  if (input === null || input === void 0) {
    return "";
  } else if (typeof input === "string" || input instanceof String) {
    return input;
  }
  return JSON.stringify(input);
}
function toCommandProperties(annotationProperties) {
  if (!Object.keys(annotationProperties).length) {
    return {};
  }
  return {
    title: annotationProperties.title,
    file: annotationProperties.file,
    line: annotationProperties.startLine,
    endLine: annotationProperties.endLine,
    col: annotationProperties.startColumn,
    endColumn: annotationProperties.endColumn
  };
}

// node_modules/@actions/core/lib/command.js
function issueCommand(command, properties, message) {
  const cmd = new Command(command, properties, message);
  process.stdout.write(cmd.toString() + os.EOL);
}
var CMD_STRING = "::";
var Command = class {
  constructor(command, properties, message) {
    if (!command) {
      command = "missing.command";
    }
    this.command = command;
    this.properties = properties;
    this.message = message;
  }
  toString() {
    let cmdStr = CMD_STRING + this.command;
    if (this.properties && Object.keys(this.properties).length > 0) {
      cmdStr += " ";
      let first = true;
      for (const key in this.properties) {
        if (this.properties.hasOwnProperty(key)) {
          const val = this.properties[key];
          if (val) {
            if (first) {
              first = false;
            } else {
              cmdStr += ",";
            }
            cmdStr += `${key}=${escapeProperty(val)}`;
          }
        }
      }
    }
    cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
    return cmdStr;
  }
};
function escapeData(s) {
  return toCommandValue(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(s) {
  return toCommandValue(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/:/g, "%3A").replace(/,/g, "%2C");
}

// node_modules/@actions/core/lib/file-command.js
import * as crypto from "crypto";
import * as fs from "fs";
import * as os2 from "os";
function issueFileCommand(command, message) {
  const filePath = process.env[`GITHUB_${command}`];
  if (!filePath) {
    throw new Error(`Unable to find environment variable for file command ${command}`);
  }
  if (!fs.existsSync(filePath)) {
    throw new Error(`Missing file at path: ${filePath}`);
  }
  fs.appendFileSync(filePath, `${toCommandValue(message)}${os2.EOL}`, {
    encoding: "utf8"
  });
}
function prepareKeyValueMessage(key, value2) {
  const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  const convertedValue = toCommandValue(value2);
  if (key.includes(delimiter)) {
    throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
  }
  if (convertedValue.includes(delimiter)) {
    throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
  }
  return `${key}<<${delimiter}${os2.EOL}${convertedValue}${os2.EOL}${delimiter}`;
}

// node_modules/@actions/core/lib/core.js
import * as os4 from "os";

// node_modules/@actions/http-client/lib/proxy.js
function getProxyUrl(reqUrl) {
  const usingSsl = reqUrl.protocol === "https:";
  if (checkBypass(reqUrl)) {
    return void 0;
  }
  const proxyVar = (() => {
    if (usingSsl) {
      return process.env["https_proxy"] || process.env["HTTPS_PROXY"];
    } else {
      return process.env["http_proxy"] || process.env["HTTP_PROXY"];
    }
  })();
  if (proxyVar) {
    try {
      return new DecodedURL(proxyVar);
    } catch (_a3) {
      if (!proxyVar.startsWith("http://") && !proxyVar.startsWith("https://"))
        return new DecodedURL(`http://${proxyVar}`);
    }
  } else {
    return void 0;
  }
}
function checkBypass(reqUrl) {
  if (!reqUrl.hostname) {
    return false;
  }
  const reqHost = reqUrl.hostname;
  if (isLoopbackAddress(reqHost)) {
    return true;
  }
  const noProxy = process.env["no_proxy"] || process.env["NO_PROXY"] || "";
  if (!noProxy) {
    return false;
  }
  let reqPort;
  if (reqUrl.port) {
    reqPort = Number(reqUrl.port);
  } else if (reqUrl.protocol === "http:") {
    reqPort = 80;
  } else if (reqUrl.protocol === "https:") {
    reqPort = 443;
  }
  const upperReqHosts = [reqUrl.hostname.toUpperCase()];
  if (typeof reqPort === "number") {
    upperReqHosts.push(`${upperReqHosts[0]}:${reqPort}`);
  }
  for (const upperNoProxyItem of noProxy.split(",").map((x) => x.trim().toUpperCase()).filter((x) => x)) {
    if (upperNoProxyItem === "*" || upperReqHosts.some((x) => x === upperNoProxyItem || x.endsWith(`.${upperNoProxyItem}`) || upperNoProxyItem.startsWith(".") && x.endsWith(`${upperNoProxyItem}`))) {
      return true;
    }
  }
  return false;
}
function isLoopbackAddress(host) {
  const hostLower = host.toLowerCase();
  return hostLower === "localhost" || hostLower.startsWith("127.") || hostLower.startsWith("[::1]") || hostLower.startsWith("[0:0:0:0:0:0:0:1]");
}
var DecodedURL = class extends URL {
  constructor(url, base) {
    super(url, base);
    this._decodedUsername = decodeURIComponent(super.username);
    this._decodedPassword = decodeURIComponent(super.password);
  }
  get username() {
    return this._decodedUsername;
  }
  get password() {
    return this._decodedPassword;
  }
};

// node_modules/@actions/core/lib/summary.js
import { EOL as EOL3 } from "os";
import { constants, promises } from "fs";
var __awaiter = function(thisArg, _arguments, P, generator) {
  function adopt(value2) {
    return value2 instanceof P ? value2 : new P(function(resolve2) {
      resolve2(value2);
    });
  }
  return new (P || (P = Promise))(function(resolve2, reject) {
    function fulfilled(value2) {
      try {
        step(generator.next(value2));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value2) {
      try {
        step(generator["throw"](value2));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve2(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var { access, appendFile, writeFile } = promises;
var SUMMARY_ENV_VAR = "GITHUB_STEP_SUMMARY";
var Summary = class {
  constructor() {
    this._buffer = "";
  }
  /**
   * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
   * Also checks r/w permissions.
   *
   * @returns step summary file path
   */
  filePath() {
    return __awaiter(this, void 0, void 0, function* () {
      if (this._filePath) {
        return this._filePath;
      }
      const pathFromEnv = process.env[SUMMARY_ENV_VAR];
      if (!pathFromEnv) {
        throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
      }
      try {
        yield access(pathFromEnv, constants.R_OK | constants.W_OK);
      } catch (_a3) {
        throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
      }
      this._filePath = pathFromEnv;
      return this._filePath;
    });
  }
  /**
   * Wraps content in an HTML tag, adding any HTML attributes
   *
   * @param {string} tag HTML tag to wrap
   * @param {string | null} content content within the tag
   * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
   *
   * @returns {string} content wrapped in HTML element
   */
  wrap(tag, content, attrs = {}) {
    const htmlAttrs = Object.entries(attrs).map(([key, value2]) => ` ${key}="${value2}"`).join("");
    if (!content) {
      return `<${tag}${htmlAttrs}>`;
    }
    return `<${tag}${htmlAttrs}>${content}</${tag}>`;
  }
  /**
   * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
   *
   * @param {SummaryWriteOptions} [options] (optional) options for write operation
   *
   * @returns {Promise<Summary>} summary instance
   */
  write(options) {
    return __awaiter(this, void 0, void 0, function* () {
      const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
      const filePath = yield this.filePath();
      const writeFunc = overwrite ? writeFile : appendFile;
      yield writeFunc(filePath, this._buffer, { encoding: "utf8" });
      return this.emptyBuffer();
    });
  }
  /**
   * Clears the summary buffer and wipes the summary file
   *
   * @returns {Summary} summary instance
   */
  clear() {
    return __awaiter(this, void 0, void 0, function* () {
      return this.emptyBuffer().write({ overwrite: true });
    });
  }
  /**
   * Returns the current summary buffer as a string
   *
   * @returns {string} string of summary buffer
   */
  stringify() {
    return this._buffer;
  }
  /**
   * If the summary buffer is empty
   *
   * @returns {boolen} true if the buffer is empty
   */
  isEmptyBuffer() {
    return this._buffer.length === 0;
  }
  /**
   * Resets the summary buffer without writing to summary file
   *
   * @returns {Summary} summary instance
   */
  emptyBuffer() {
    this._buffer = "";
    return this;
  }
  /**
   * Adds raw text to the summary buffer
   *
   * @param {string} text content to add
   * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
   *
   * @returns {Summary} summary instance
   */
  addRaw(text2, addEOL = false) {
    this._buffer += text2;
    return addEOL ? this.addEOL() : this;
  }
  /**
   * Adds the operating system-specific end-of-line marker to the buffer
   *
   * @returns {Summary} summary instance
   */
  addEOL() {
    return this.addRaw(EOL3);
  }
  /**
   * Adds an HTML codeblock to the summary buffer
   *
   * @param {string} code content to render within fenced code block
   * @param {string} lang (optional) language to syntax highlight code
   *
   * @returns {Summary} summary instance
   */
  addCodeBlock(code, lang) {
    const attrs = Object.assign({}, lang && { lang });
    const element = this.wrap("pre", this.wrap("code", code), attrs);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML list to the summary buffer
   *
   * @param {string[]} items list of items to render
   * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
   *
   * @returns {Summary} summary instance
   */
  addList(items, ordered = false) {
    const tag = ordered ? "ol" : "ul";
    const listItems = items.map((item) => this.wrap("li", item)).join("");
    const element = this.wrap(tag, listItems);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML table to the summary buffer
   *
   * @param {SummaryTableCell[]} rows table rows
   *
   * @returns {Summary} summary instance
   */
  addTable(rows) {
    const tableBody = rows.map((row2) => {
      const cells = row2.map((cell) => {
        if (typeof cell === "string") {
          return this.wrap("td", cell);
        }
        const { header, data, colspan, rowspan } = cell;
        const tag = header ? "th" : "td";
        const attrs = Object.assign(Object.assign({}, colspan && { colspan }), rowspan && { rowspan });
        return this.wrap(tag, data, attrs);
      }).join("");
      return this.wrap("tr", cells);
    }).join("");
    const element = this.wrap("table", tableBody);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds a collapsable HTML details element to the summary buffer
   *
   * @param {string} label text for the closed state
   * @param {string} content collapsable content
   *
   * @returns {Summary} summary instance
   */
  addDetails(label, content) {
    const element = this.wrap("details", this.wrap("summary", label) + content);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML image tag to the summary buffer
   *
   * @param {string} src path to the image you to embed
   * @param {string} alt text description of the image
   * @param {SummaryImageOptions} options (optional) addition image attributes
   *
   * @returns {Summary} summary instance
   */
  addImage(src, alt, options) {
    const { width, height } = options || {};
    const attrs = Object.assign(Object.assign({}, width && { width }), height && { height });
    const element = this.wrap("img", null, Object.assign({ src, alt }, attrs));
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML section heading element
   *
   * @param {string} text heading text
   * @param {number | string} [level=1] (optional) the heading level, default: 1
   *
   * @returns {Summary} summary instance
   */
  addHeading(text2, level) {
    const tag = `h${level}`;
    const allowedTag = ["h1", "h2", "h3", "h4", "h5", "h6"].includes(tag) ? tag : "h1";
    const element = this.wrap(allowedTag, text2);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML thematic break (<hr>) to the summary buffer
   *
   * @returns {Summary} summary instance
   */
  addSeparator() {
    const element = this.wrap("hr", null);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML line break (<br>) to the summary buffer
   *
   * @returns {Summary} summary instance
   */
  addBreak() {
    const element = this.wrap("br", null);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML blockquote to the summary buffer
   *
   * @param {string} text quote text
   * @param {string} cite (optional) citation url
   *
   * @returns {Summary} summary instance
   */
  addQuote(text2, cite) {
    const attrs = Object.assign({}, cite && { cite });
    const element = this.wrap("blockquote", text2, attrs);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML anchor tag to the summary buffer
   *
   * @param {string} text link text/content
   * @param {string} href hyperlink
   *
   * @returns {Summary} summary instance
   */
  addLink(text2, href) {
    const element = this.wrap("a", text2, { href });
    return this.addRaw(element).addEOL();
  }
};
var _summary = new Summary();
var summary = _summary;

// node_modules/@actions/core/lib/platform.js
import os3 from "os";

// node_modules/@actions/io/lib/io-util.js
import * as fs2 from "fs";
var { chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink } = fs2.promises;
var IS_WINDOWS = process.platform === "win32";
var READONLY = fs2.constants.O_RDONLY;

// node_modules/@actions/exec/lib/toolrunner.js
var IS_WINDOWS2 = process.platform === "win32";

// node_modules/@actions/core/lib/platform.js
var platform = os3.platform();
var arch = os3.arch();

// node_modules/@actions/core/lib/core.js
var ExitCode;
(function(ExitCode2) {
  ExitCode2[ExitCode2["Success"] = 0] = "Success";
  ExitCode2[ExitCode2["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
function setSecret(secret) {
  issueCommand("add-mask", {}, secret);
}
function setOutput(name, value2) {
  const filePath = process.env["GITHUB_OUTPUT"] || "";
  if (filePath) {
    return issueFileCommand("OUTPUT", prepareKeyValueMessage(name, value2));
  }
  process.stdout.write(os4.EOL);
  issueCommand("set-output", { name }, toCommandValue(value2));
}
function setFailed(message) {
  process.exitCode = ExitCode.Failure;
  error(message);
}
function error(message, properties = {}) {
  issueCommand("error", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function warning(message, properties = {}) {
  issueCommand("warning", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function notice(message, properties = {}) {
  issueCommand("notice", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function info(message) {
  process.stdout.write(message + os4.EOL);
}

// node_modules/zod/v4/core/util.js
var util_exports = {};
__export(util_exports, {
  BIGINT_FORMAT_RANGES: () => BIGINT_FORMAT_RANGES,
  CONSTANT_CATCH: () => CONSTANT_CATCH,
  Class: () => Class,
  NUMBER_FORMAT_RANGES: () => NUMBER_FORMAT_RANGES,
  aborted: () => aborted,
  allowsEval: () => allowsEval,
  assert: () => assert,
  assertEqual: () => assertEqual,
  assertIs: () => assertIs,
  assertNever: () => assertNever,
  assertNotEqual: () => assertNotEqual,
  assignProp: () => assignProp,
  attachSchema: () => attachSchema,
  base64ToUint8Array: () => base64ToUint8Array,
  base64urlToUint8Array: () => base64urlToUint8Array,
  cached: () => cached,
  captureStackTrace: () => captureStackTrace,
  cleanEnum: () => cleanEnum,
  cleanRegex: () => cleanRegex,
  clone: () => clone,
  cloneDef: () => cloneDef,
  codePointLength: () => codePointLength,
  constantCatch: () => constantCatch,
  createTransparentProxy: () => createTransparentProxy,
  defineLazy: () => defineLazy,
  defineLazyInternal: () => defineLazyInternal,
  derived: () => derived,
  esc: () => esc,
  escapeRegex: () => escapeRegex,
  explicitlyAborted: () => explicitlyAborted,
  extend: () => extend,
  finalizeIssue: () => finalizeIssue,
  floatSafeRemainder: () => floatSafeRemainder,
  getElementAtPath: () => getElementAtPath,
  getEnumValues: () => getEnumValues,
  getLengthableOrigin: () => getLengthableOrigin,
  getParsedType: () => getParsedType,
  getSizableOrigin: () => getSizableOrigin,
  hexToUint8Array: () => hexToUint8Array,
  hide: () => hide,
  installLazyProp: () => installLazyProp,
  isObject: () => isObject,
  isPlainObject: () => isPlainObject,
  issue: () => issue2,
  joinValues: () => joinValues,
  jsonStringifyReplacer: () => jsonStringifyReplacer,
  members: () => members,
  merge: () => merge,
  mergeDefs: () => mergeDefs,
  normalizeParams: () => normalizeParams,
  nullish: () => nullish,
  numKeys: () => numKeys,
  objectClone: () => objectClone,
  omit: () => omit,
  optionalKeys: () => optionalKeys,
  own: () => own,
  parsedType: () => parsedType,
  partial: () => partial,
  pick: () => pick,
  prefixIssues: () => prefixIssues,
  primitiveTypes: () => primitiveTypes,
  promiseAllObject: () => promiseAllObject,
  propertyKeyTypes: () => propertyKeyTypes,
  randomString: () => randomString,
  rawShape: () => rawShape,
  required: () => required,
  safeExtend: () => safeExtend,
  shallowClone: () => shallowClone,
  sizeCaps: () => sizeCaps,
  slugify: () => slugify,
  stringifyPrimitive: () => stringifyPrimitive,
  toZod: () => toZod,
  uint8ArrayToBase64: () => uint8ArrayToBase64,
  uint8ArrayToBase64url: () => uint8ArrayToBase64url,
  uint8ArrayToHex: () => uint8ArrayToHex,
  unwrapMessage: () => unwrapMessage
});
function assertEqual(val) {
  return val;
}
function assertNotEqual(val) {
  return val;
}
function toZod() {
  return (schema) => schema;
}
function assertIs(_arg) {
}
function assertNever(_x) {
  throw new Error("Unexpected value in exhaustive check");
}
function assert(_) {
}
function getEnumValues(entries) {
  const numericValues = Object.values(entries).filter((v) => typeof v === "number");
  const values = Object.entries(entries).filter(([k, _]) => numericValues.indexOf(+k) === -1).map(([_, v]) => v);
  return values;
}
function joinValues(array2, separator = "|") {
  return array2.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value2) {
  if (typeof value2 === "bigint")
    return value2.toString();
  return value2;
}
var Cached = class {
  constructor(getter) {
    this._getter = getter;
    this._value = void 0;
  }
  get value() {
    const getter = this._getter;
    if (getter !== void 0) {
      this._value = getter();
      this._getter = void 0;
    }
    return this._value;
  }
};
function cached(getter) {
  return new Cached(getter);
}
function nullish(input) {
  return input === null || input === void 0;
}
function cleanRegex(source) {
  const start = source.startsWith("^") ? 1 : 0;
  const end = source.endsWith("$") ? source.length - 1 : source.length;
  return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
  const ratio = val / step;
  const roundedRatio = Math.round(ratio);
  const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
  if (Math.abs(ratio - roundedRatio) < tolerance)
    return 0;
  return ratio - roundedRatio;
}
var EVALUATING = /* @__PURE__ */ Symbol("evaluating");
function defineLazy(object, key, getter) {
  let value2 = void 0;
  Object.defineProperty(object, key, {
    get() {
      if (value2 === EVALUATING) {
        return void 0;
      }
      if (value2 === void 0) {
        value2 = EVALUATING;
        value2 = getter();
      }
      return value2;
    },
    set(v) {
      Object.defineProperty(object, key, {
        value: v
        // configurable: true,
      });
    },
    configurable: true
  });
}
function objectClone(obj) {
  return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
}
function assignProp(target, prop, value2) {
  Object.defineProperty(target, prop, {
    value: value2,
    writable: true,
    enumerable: true,
    configurable: true
  });
}
function rawShape(def) {
  const desc = Object.getOwnPropertyDescriptor(def, "shape");
  return desc?.get ? desc.get.raw : desc?.value;
}
function sourceShape(schema) {
  return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
function deferProp(target, key, getter) {
  Object.defineProperty(target, key, {
    get() {
      const value2 = getter();
      assignProp(this, key, value2);
      return value2;
    },
    enumerable: true,
    configurable: true
  });
}
function putProp(target, key, value2) {
  if (key in target)
    assignProp(target, key, value2);
  else
    target[key] = value2;
}
function mirrorShape(target, source, keys, wrap) {
  const raw = sourceShape(source);
  for (const key of keys) {
    const desc = Object.getOwnPropertyDescriptor(raw, key);
    if (!desc.enumerable)
      continue;
    if (desc.get) {
      deferProp(target, key, () => {
        const value2 = source._zod.def.shape[key];
        return wrap ? wrap(value2, key) : value2;
      });
    } else
      putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
  }
}
function mirrorProps(target, source) {
  for (const key of Reflect.ownKeys(source)) {
    const desc = Object.getOwnPropertyDescriptor(source, key);
    if (!desc.enumerable)
      continue;
    if (desc.get)
      deferProp(target, key, () => source[key]);
    else
      putProp(target, key, desc.value);
  }
}
function mergeDefs(...defs) {
  const mergedDescriptors = {};
  for (const def of defs) {
    const descriptors = Object.getOwnPropertyDescriptors(def);
    Object.assign(mergedDescriptors, descriptors);
  }
  return Object.defineProperties({}, mergedDescriptors);
}
function cloneDef(schema) {
  return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
  if (!path)
    return obj;
  return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
  const keys = Object.keys(promisesObj);
  const promises3 = keys.map((key) => promisesObj[key]);
  return Promise.all(promises3).then((results) => {
    const resolvedObj = {};
    for (let i = 0; i < keys.length; i++) {
      resolvedObj[keys[i]] = results[i];
    }
    return resolvedObj;
  });
}
function randomString(length = 10) {
  const chars = "abcdefghijklmnopqrstuvwxyz";
  let str = "";
  for (let i = 0; i < length; i++) {
    str += chars[Math.floor(Math.random() * chars.length)];
  }
  return str;
}
function esc(str) {
  return JSON.stringify(str);
}
function slugify(input) {
  return input.toLowerCase().trim().replace(/[^\w\s-]/g, "").replace(/[\s_-]+/g, "-").replace(/^-+|-+$/g, "");
}
var captureStackTrace = "captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => {
};
function isObject(data) {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}
var allowsEval = /* @__PURE__ */ cached(() => {
  if (globalConfig.jitless) {
    return false;
  }
  if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
    return false;
  }
  try {
    const F = Function;
    new F("");
    return true;
  } catch (_) {
    return false;
  }
});
function isPlainObject(o) {
  if (isObject(o) === false)
    return false;
  const ctor = o.constructor;
  if (ctor === void 0)
    return true;
  if (typeof ctor !== "function")
    return true;
  const prot = ctor.prototype;
  if (isObject(prot) === false)
    return false;
  if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
    return false;
  }
  return true;
}
function shallowClone(o) {
  if (isPlainObject(o))
    return { ...o };
  if (Array.isArray(o))
    return [...o];
  if (o instanceof Map)
    return new Map(o);
  if (o instanceof Set)
    return new Set(o);
  return o;
}
function numKeys(data) {
  let keyCount = 0;
  for (const key in data) {
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      keyCount++;
    }
  }
  return keyCount;
}
var getParsedType = (data) => {
  const t = typeof data;
  switch (t) {
    case "undefined":
      return "undefined";
    case "string":
      return "string";
    case "number":
      return Number.isNaN(data) ? "nan" : "number";
    case "boolean":
      return "boolean";
    case "function":
      return "function";
    case "bigint":
      return "bigint";
    case "symbol":
      return "symbol";
    case "object":
      if (Array.isArray(data)) {
        return "array";
      }
      if (data === null) {
        return "null";
      }
      if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
        return "promise";
      }
      if (typeof Map !== "undefined" && data instanceof Map) {
        return "map";
      }
      if (typeof Set !== "undefined" && data instanceof Set) {
        return "set";
      }
      if (typeof Date !== "undefined" && data instanceof Date) {
        return "date";
      }
      if (typeof File !== "undefined" && data instanceof File) {
        return "file";
      }
      return "object";
    default:
      throw new Error(`Unknown data type: ${t}`);
  }
};
var propertyKeyTypes = /* @__PURE__ */ new Set(["string", "number", "symbol"]);
var primitiveTypes = /* @__PURE__ */ new Set([
  "string",
  "number",
  "bigint",
  "boolean",
  "symbol",
  "undefined"
]);
function escapeRegex(str) {
  return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function clone(inst, def, params) {
  const cl = new inst._zod.constr(def ?? inst._zod.def);
  if (!def || params?.parent)
    cl._zod.parent = inst;
  return cl;
}
function normalizeParams(_params) {
  const params = _params;
  if (!params)
    return {};
  if (typeof params === "string")
    return { error: () => params };
  if (params?.message !== void 0) {
    if (params?.error !== void 0)
      throw new Error("Cannot specify both `message` and `error` params");
    params.error = params.message;
  }
  delete params.message;
  if (typeof params.error === "string")
    return { ...params, error: () => params.error };
  return params;
}
function createTransparentProxy(getter) {
  let target;
  return new Proxy({}, {
    get(_, prop, receiver) {
      target ?? (target = getter());
      return Reflect.get(target, prop, receiver);
    },
    set(_, prop, value2, receiver) {
      target ?? (target = getter());
      return Reflect.set(target, prop, value2, receiver);
    },
    has(_, prop) {
      target ?? (target = getter());
      return Reflect.has(target, prop);
    },
    deleteProperty(_, prop) {
      target ?? (target = getter());
      return Reflect.deleteProperty(target, prop);
    },
    ownKeys(_) {
      target ?? (target = getter());
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(_, prop) {
      target ?? (target = getter());
      return Reflect.getOwnPropertyDescriptor(target, prop);
    },
    defineProperty(_, prop, descriptor) {
      target ?? (target = getter());
      return Reflect.defineProperty(target, prop, descriptor);
    }
  });
}
function stringifyPrimitive(value2) {
  if (typeof value2 === "bigint")
    return value2.toString() + "n";
  if (typeof value2 === "string")
    return `"${value2}"`;
  return `${value2}`;
}
function optionalKeys(shape) {
  return Object.keys(shape).filter((k) => {
    return shape[k]._zod.optin !== void 0 && shape[k]._zod.optout === "optional";
  });
}
var NUMBER_FORMAT_RANGES = /* @__PURE__ */ (() => ({
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-34028234663852886e22, 34028234663852886e22],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE]
}))();
var BIGINT_FORMAT_RANGES = {
  int64: [/* @__PURE__ */ BigInt("-9223372036854775808"), /* @__PURE__ */ BigInt("9223372036854775807")],
  uint64: [/* @__PURE__ */ BigInt(0), /* @__PURE__ */ BigInt("18446744073709551615")]
};
function pick(schema, mask) {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(".pick() cannot be used on object schemas containing refinements");
  }
  const newShape = {};
  mirrorShape(newShape, schema, maskedKeys(schema, mask));
  return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function maskedKeys(schema, mask) {
  const raw = sourceShape(schema);
  const keys = [];
  for (const key of Reflect.ownKeys(mask)) {
    if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
      throw new Error(`Unrecognized key: "${String(key)}"`);
    }
    if (mask[key])
      keys.push(key);
  }
  return keys;
}
function omit(schema, mask) {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(".omit() cannot be used on object schemas containing refinements");
  }
  const omitted = new Set(maskedKeys(schema, mask));
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
  return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
  if (!isPlainObject(shape)) {
    throw new Error("Invalid input to extend: expected a plain object");
  }
  const checks = schema._zod.def.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    const existingShape = sourceShape(schema);
    for (const key of Reflect.ownKeys(shape)) {
      if (Object.getOwnPropertyDescriptor(existingShape, key) !== void 0) {
        throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
      }
    }
  }
  return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function extended(schema, shape) {
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
  mirrorProps(newShape, shape);
  return newShape;
}
function safeExtend(schema, shape) {
  if (!isPlainObject(shape)) {
    throw new Error("Invalid input to safeExtend: expected a plain object");
  }
  return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
  if (!b?._zod?.def) {
    throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
  }
  if (a._zod.def.checks?.length) {
    throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
  }
  const newShape = {};
  mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
  mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
  const def = mergeDefs(a._zod.def, {
    shape: newShape,
    get catchall() {
      return b._zod.def.catchall;
    },
    checks: b._zod.def.checks ?? []
  });
  return clone(a, def);
}
function partial(Class2, schema, mask, name = "partial") {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
  }
  const selected = mask ? new Set(maskedKeys(schema, mask)) : void 0;
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class2 && ((value2, key) => selected && !selected.has(key) ? value2 : new Class2({ type: "optional", innerType: value2 })));
  return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class2, schema, mask) {
  const selected = mask ? new Set(maskedKeys(schema, mask)) : void 0;
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value2, key) => (
    // overwrite with non-optional
    selected && !selected.has(key) ? value2 : new Class2({ type: "nonoptional", innerType: value2 })
  ));
  return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
function aborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue !== true) {
      return true;
    }
  }
  return false;
}
function explicitlyAborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue === false) {
      return true;
    }
  }
  return false;
}
function prefixIssues(path, issues) {
  return issues.map((iss) => {
    var _a3;
    (_a3 = iss).path ?? (_a3.path = []);
    iss.path.unshift(path);
    return iss;
  });
}
function unwrapMessage(message) {
  return typeof message === "string" ? message : message?.message;
}
function sizeCaps(defChecks) {
  const caps = [];
  for (const ch of defChecks ?? []) {
    const d = ch._zod.def;
    if (!/_(length|size)$|_equals$/.test(d.check))
      break;
    const max = d.maximum ?? d.length ?? d.size;
    if (max >= 0)
      caps.push([max, ch]);
  }
  return caps;
}
function attachSchema(issues, start, inst) {
  var _a3;
  for (let i = start; i < issues.length; i++) {
    (_a3 = issues[i]).schema ?? (_a3.schema = inst);
  }
}
function finalizeIssue(iss, ctx, config2) {
  var _a3;
  const traits = iss.inst?._zod?.traits;
  if (traits?.has("$ZodType")) {
    if (traits.has("$ZodCheck"))
      (_a3 = iss).schema ?? (_a3.schema = iss.inst);
    else
      iss.schema = iss.inst;
  }
  const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : void 0;
  const message = iss.message ? iss.message : unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ?? unwrapMessage(schemaError?.(iss)) ?? unwrapMessage(ctx?.error?.(iss)) ?? unwrapMessage(config2.customError?.(iss)) ?? unwrapMessage(config2.localeError?.(iss)) ?? "Invalid input";
  const full = {};
  for (const k of Object.keys(iss)) {
    if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
      continue;
    full[k] = iss[k];
  }
  full.path ?? (full.path = []);
  full.message = message;
  if (ctx?.reportInput) {
    full.input = iss.input;
  }
  return full;
}
function getSizableOrigin(input) {
  if (input instanceof Set)
    return "set";
  if (input instanceof Map)
    return "map";
  if (input instanceof File)
    return "file";
  return "unknown";
}
var highSurrogate = /[\uD800-\uDBFF]/;
function codePointLength(str) {
  const units = str.length;
  if (!highSurrogate.test(str))
    return units;
  let count = units;
  for (let i = 0; i < units - 1; i++) {
    if ((str.charCodeAt(i) & 64512) === 55296 && (str.charCodeAt(i + 1) & 64512) === 56320) {
      count--;
      i++;
    }
  }
  return count;
}
function getLengthableOrigin(input) {
  if (Array.isArray(input))
    return "array";
  if (typeof input === "string")
    return "string";
  return "unknown";
}
function parsedType(data) {
  const t = typeof data;
  switch (t) {
    case "number": {
      return Number.isNaN(data) ? "nan" : "number";
    }
    case "object": {
      if (data === null) {
        return "null";
      }
      if (Array.isArray(data)) {
        return "array";
      }
      const obj = data;
      if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
        return obj.constructor.name;
      }
    }
  }
  return t;
}
function issue2(...args) {
  const [iss, input, inst] = args;
  if (typeof iss === "string") {
    return {
      message: iss,
      code: "custom",
      input,
      inst
    };
  }
  return { ...iss };
}
function cleanEnum(obj) {
  return Object.entries(obj).filter(([k, _]) => {
    return Number.isNaN(Number.parseInt(k, 10));
  }).map((el) => el[1]);
}
function base64ToUint8Array(base642) {
  const binaryString = atob(base642);
  const bytes = new Uint8Array(binaryString.length);
  for (let i = 0; i < binaryString.length; i++) {
    bytes[i] = binaryString.charCodeAt(i);
  }
  return bytes;
}
function uint8ArrayToBase64(bytes) {
  let binaryString = "";
  for (let i = 0; i < bytes.length; i++) {
    binaryString += String.fromCharCode(bytes[i]);
  }
  return btoa(binaryString);
}
function base64urlToUint8Array(base64url2) {
  const base642 = base64url2.replace(/-/g, "+").replace(/_/g, "/");
  const padding = "=".repeat((4 - base642.length % 4) % 4);
  return base64ToUint8Array(base642 + padding);
}
function uint8ArrayToBase64url(bytes) {
  return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
  const cleanHex = hex.replace(/^0x/, "");
  if (cleanHex.length % 2 !== 0) {
    throw new Error("Invalid hex string length");
  }
  const bytes = new Uint8Array(cleanHex.length / 2);
  for (let i = 0; i < cleanHex.length; i += 2) {
    bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
  }
  return bytes;
}
function uint8ArrayToHex(bytes) {
  return Array.from(bytes).map((b) => b.toString(16).padStart(2, "0")).join("");
}
var Class = class {
  constructor(..._args) {
  }
};
function members(proto, table) {
  for (const key in table) {
    const desc = Object.getOwnPropertyDescriptor(table, key);
    if (desc.get)
      Object.defineProperty(proto, key, { ...desc, enumerable: false });
    else
      defineBound(proto, key, desc.value);
  }
}
function own(inst, key, value2, enumerable = true) {
  Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value: value2 });
  return value2;
}
function hide(inst, key, value2) {
  return own(inst, key, value2, false);
}
// @__NO_SIDE_EFFECTS__
function derived(computes, table) {
  for (const key in computes) {
    const compute = computes[key];
    Object.defineProperty(table, key, {
      configurable: true,
      enumerable: true,
      get() {
        return own(this, key, compute(this));
      },
      set(value2) {
        own(this, key, value2);
      }
    });
  }
  return table;
}
function defineBound(proto, key, fn) {
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      return this == null ? fn : own(this, key, fn.bind(this));
    },
    set(value2) {
      own(this, key, value2);
    }
  });
}
function claim(inst, sentinel) {
  const proto = Object.getPrototypeOf(inst);
  return sentinel in proto ? void 0 : proto;
}
var installing;
var broke = false;
var breaker = {
  configurable: true,
  get() {
    broke = true;
    return void 0;
  }
};
function defineLazyInternal(inst, key, compute) {
  const proto = Object.getPrototypeOf(inst._zod);
  if (key in proto && installing !== inst._zod) {
    installing = void 0;
    return;
  }
  installing = inst._zod;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      Object.defineProperty(this, key, breaker);
      const outer = broke;
      broke = false;
      try {
        const value2 = compute(this);
        if (broke)
          delete this[key];
        else
          Object.defineProperty(this, key, { configurable: true, writable: true, value: value2 });
        broke = broke || outer;
        return value2;
      } catch (err) {
        delete this[key];
        broke = broke || outer;
        throw err;
      }
    },
    set(value2) {
      Object.defineProperty(this, key, { configurable: true, writable: true, value: value2 });
    }
  });
}
function installLazyProp(inst, key, make, enumerable) {
  const proto = claim(inst, key);
  if (!proto)
    return;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      const desc = { configurable: true, writable: true, enumerable, value: void 0 };
      Object.defineProperty(this, key, desc);
      desc.value = make(this);
      Object.defineProperty(this, key, desc);
      return desc.value;
    },
    set(value2) {
      Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value: value2 });
    }
  });
}
var CONSTANT_CATCH = "~constantCatch";
function constantCatch(value2) {
  const fn = () => value2;
  fn[CONSTANT_CATCH] = true;
  return fn;
}

// node_modules/zod/v4/core/core.js
var _a;
var NEVER = /* @__PURE__ */ Object.freeze({
  status: "aborted"
});
var _zodDesc = { value: void 0, enumerable: false };
var _E = "captureStackTrace" in Error ? Error : null;
function newError(Definition) {
  const E = _E;
  if (E) {
    const saved = E.stackTraceLimit;
    if (typeof saved === "number") {
      try {
        E.stackTraceLimit = 0;
      } catch {
        _E = null;
        return new Definition();
      }
      try {
        return new Definition();
      } finally {
        E.stackTraceLimit = saved;
      }
    }
  }
  return new Definition();
}
// @__NO_SIDE_EFFECTS__
function $constructor(name, initializer3, proto, params) {
  const zodProto = {};
  function Internals(def) {
    this.def = def;
    this.constr = _;
    this.traits = /* @__PURE__ */ new Set();
  }
  Internals.prototype = zodProto;
  const protoMembers = proto;
  const initialized = protoMembers && /* @__PURE__ */ new WeakSet();
  function init(inst, def) {
    if (!inst._zod) {
      _zodDesc.value = new Internals(def);
      try {
        Object.defineProperty(inst, "_zod", _zodDesc);
      } finally {
        _zodDesc.value = void 0;
      }
    } else if (inst._zod.traits.has(name)) {
      return;
    }
    inst._zod.traits.add(name);
    initializer3(inst, def);
    if (initialized) {
      const own2 = Object.getPrototypeOf(inst);
      const ctorProto = inst._zod.constr.prototype;
      let up = own2;
      while (up && up !== ctorProto)
        up = Object.getPrototypeOf(up);
      const target = up ?? own2;
      if (!initialized.has(target)) {
        initialized.add(target);
        members(target, protoMembers);
      }
    }
    const proto2 = _.prototype;
    for (const k in proto2) {
      if (!Object.prototype.hasOwnProperty.call(proto2, k))
        continue;
      if (!(k in inst)) {
        inst[k] = proto2[k].bind(inst);
      }
    }
  }
  const Parent = params?.Parent ?? Object;
  class Definition extends Parent {
  }
  Object.defineProperty(Definition, "name", { value: name });
  function _(def) {
    const inst = params?.Parent ? newError(Definition) : this;
    init(inst, def);
    const deferred = inst._zod.deferred;
    if (deferred) {
      for (const fn of deferred) {
        fn();
      }
      inst._zod.deferred = void 0;
    }
    const pp = globalThis.__zod_globalConfig?.postProcessor;
    if (pp)
      pp(inst);
    return inst;
  }
  Object.defineProperty(_, "init", { value: init });
  Object.defineProperty(_, Symbol.hasInstance, {
    value: (inst) => {
      if (params?.Parent && inst instanceof params.Parent)
        return true;
      return inst?._zod?.traits?.has(name);
    }
  });
  Object.defineProperty(_, "name", { value: name });
  return _;
}
var $ZodAsyncError = class extends Error {
  constructor() {
    super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
  }
};
var $ZodEncodeError = class extends Error {
  constructor(name) {
    super(`Encountered unidirectional transform during encode: ${name}`);
    this.name = "ZodEncodeError";
  }
};
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
var globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
  if (newConfig)
    Object.assign(globalConfig, newConfig);
  return globalConfig;
}

// node_modules/zod/v4/core/errors.js
function _getMessage() {
  const internals = this._zod;
  internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
  return internals.message;
}
function _setMessage(value2) {
  this._zod.message = value2;
}
var _messageDesc = {
  get: _getMessage,
  set: _setMessage,
  enumerable: true,
  configurable: true
};
var _issuesDesc = { value: void 0, enumerable: false };
var _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
var initializer = (inst, def) => {
  inst.name = "$ZodError";
  _issuesDesc.value = def;
  Object.defineProperty(inst, "issues", _issuesDesc);
  _issuesDesc.value = void 0;
  Object.defineProperty(inst, "message", _messageDesc);
  const proto = Object.getPrototypeOf(inst);
  if (!_installedToString.has(proto)) {
    _installedToString.add(proto);
    Object.defineProperty(proto, "toString", {
      configurable: true,
      enumerable: false,
      get() {
        const value2 = () => this.message;
        Object.defineProperty(this, "toString", { value: value2, configurable: true, writable: true });
        return value2;
      },
      set(value2) {
        Object.defineProperty(this, "toString", { value: value2, configurable: true, writable: true });
      }
    });
  }
};
var $ZodError = $constructor("$ZodError", initializer);
var $ZodRealError = $constructor("$ZodError", initializer, void 0, {
  Parent: Error
});
function node(obj, key, make) {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) {
    if (key === "__proto__") {
      Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
    } else {
      obj[key] = make();
    }
  }
  return obj[key];
}
function flattenError(error3, mapper = (issue3) => issue3.message) {
  const fieldErrors = {};
  const formErrors = [];
  for (const sub2 of error3.issues) {
    if (sub2.path.length > 0) {
      node(fieldErrors, sub2.path[0], () => []).push(mapper(sub2));
    } else {
      formErrors.push(mapper(sub2));
    }
  }
  return { formErrors, fieldErrors };
}
function formatError(error3, mapper = (issue3) => issue3.message) {
  const fieldErrors = { _errors: [] };
  const processError = (error4, path = []) => {
    for (const issue3 of error4.issues) {
      if (issue3.code === "invalid_union" && issue3.errors.length) {
        issue3.errors.map((issues) => processError({ issues }, [...path, ...issue3.path]));
      } else if (issue3.code === "invalid_key") {
        processError({ issues: issue3.issues }, [...path, ...issue3.path]);
      } else if (issue3.code === "invalid_element") {
        processError({ issues: issue3.issues }, [...path, ...issue3.path]);
      } else {
        const fullpath = [...path, ...issue3.path];
        if (fullpath.length === 0) {
          fieldErrors._errors.push(mapper(issue3));
        } else {
          let curr = fieldErrors;
          let i = 0;
          while (i < fullpath.length) {
            const el = fullpath[i];
            const terminal = i === fullpath.length - 1;
            if (el === "_errors") {
              if (terminal)
                curr._errors.push(mapper(issue3));
              i++;
              continue;
            }
            if (!Object.prototype.hasOwnProperty.call(curr, el)) {
              Object.defineProperty(curr, el, {
                value: { _errors: [] },
                enumerable: true,
                writable: true,
                configurable: true
              });
            }
            const node2 = curr[el];
            if (terminal) {
              node2._errors.push(mapper(issue3));
            }
            curr = node2;
            i++;
          }
        }
      }
    }
  };
  processError(error3);
  return fieldErrors;
}

// node_modules/zod/v4/core/parse.js
function finalizeParams(callee, params) {
  return { callee: params?.callee ?? callee, Err: params?.Err };
}
var _parse = (_Err) => {
  const fn = (schema, value2, _ctx, _params) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value: value2, issues: [] }, ctx);
    if (result instanceof Promise) {
      throw new $ZodAsyncError();
    }
    if (result.issues.length) {
      const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, _params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var _parseAsync = (_Err) => {
  const fn = async (schema, value2, _ctx, params) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value: value2, issues: [] }, ctx);
    if (result instanceof Promise)
      result = await result;
    if (result.issues.length) {
      const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var _safeParse = (_Err) => (schema, value2, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
  const result = schema._zod.run({ value: value2, issues: [] }, ctx);
  if (result instanceof Promise) {
    throw new $ZodAsyncError();
  }
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
function failure(Err, issues, ctx) {
  let error3;
  return {
    success: false,
    get error() {
      if (!error3) {
        error3 = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
        issues = void 0;
        ctx = void 0;
      }
      return error3;
    },
    set error(e) {
      error3 = e;
      issues = void 0;
      ctx = void 0;
    }
  };
}
var _safeParseAsync = (_Err) => async (schema, value2, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
  let result = schema._zod.run({ value: value2, issues: [] }, ctx);
  if (result instanceof Promise)
    result = await result;
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
var COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
var COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
var validate = ((schema, value2, _ctx) => {
  const validator = schema._zod.bag.validator;
  if (validator !== void 0) {
    if (validator(value2) !== COMPILE_INVALID)
      return true;
    if (validator.definite === true && _ctx === void 0)
      return false;
  }
  return validateFallback(schema, value2, _ctx);
});
function validateFallback(schema, value2, _ctx) {
  const ctx = _ctx ? { ..._ctx, async: false, abortEarly: true } : { async: false, abortEarly: true };
  const fallbackRun = schema._zod.bag.fallbackRun;
  let result;
  if (fallbackRun) {
    ctx[COMPILE_FALLBACK] = true;
    result = fallbackRun({ value: value2, issues: [] }, ctx);
  } else {
    result = schema._zod.run({ value: value2, issues: [] }, ctx);
  }
  if (result instanceof Promise) {
    throw new $ZodAsyncError();
  }
  return result.issues.length === 0;
}
var validateAsync = async (schema, value2, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: true, abortEarly: true } : { async: true, abortEarly: true };
  let result = schema._zod.run({ value: value2, issues: [] }, ctx);
  if (result instanceof Promise)
    result = await result;
  return result.issues.length === 0;
};
var _encode = (_Err) => {
  const parse3 = _parse(_Err);
  const fn = (schema, value2, _ctx, _params) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return parse3(schema, value2, ctx, finalizeParams(fn, _params));
  };
  return fn;
};
var _decode = (_Err) => {
  const parse3 = _parse(_Err);
  const fn = (schema, value2, _ctx, _params) => {
    return parse3(schema, value2, _ctx, finalizeParams(fn, _params));
  };
  return fn;
};
var _encodeAsync = (_Err) => {
  const parseAsync2 = _parseAsync(_Err);
  const fn = async (schema, value2, _ctx, _params) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return await parseAsync2(schema, value2, ctx, finalizeParams(fn, _params));
  };
  return fn;
};
var _decodeAsync = (_Err) => {
  const parseAsync2 = _parseAsync(_Err);
  const fn = async (schema, value2, _ctx, _params) => {
    return await parseAsync2(schema, value2, _ctx, finalizeParams(fn, _params));
  };
  return fn;
};
var _safeEncode = (_Err) => (schema, value2, _ctx) => {
  const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
  return _safeParse(_Err)(schema, value2, ctx);
};
var _safeDecode = (_Err) => (schema, value2, _ctx) => {
  return _safeParse(_Err)(schema, value2, _ctx);
};
var _safeEncodeAsync = (_Err) => async (schema, value2, _ctx) => {
  const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
  return _safeParseAsync(_Err)(schema, value2, ctx);
};
var _safeDecodeAsync = (_Err) => async (schema, value2, _ctx) => {
  return _safeParseAsync(_Err)(schema, value2, _ctx);
};

// node_modules/zod/v4/core/regexes.js
var cuid = /^[cC][0-9a-z]{6,}$/;
var cuid2 = /^[0-9a-z]+$/;
var ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
var xid = /^[0-9a-vA-V]{20}$/;
var ksuid = /^[A-Za-z0-9]{27}$/;
var nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
  return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
var duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
var guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
var uuid = (version2) => {
  if (!version2)
    return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
  return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version2}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
var email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
var _emoji = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
  return new RegExp(_emoji, "u");
}
var ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
var ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
var cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
var cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
var base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
var base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
var httpProtocol = /^https?$/;
var e164 = /^\+[1-9]\d{6,14}$/;
var dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
function anchor(source) {
  return new RegExp(`^${source}$`);
}
var date = /* @__PURE__ */ anchor(dateSource);
function timeSource(args) {
  const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
  const regex = typeof args.precision === "number" ? args.precision === -1 ? `${hhmm}` : args.precision === 0 ? `${hhmm}:[0-5]\\d` : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}` : args.seconds ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?` : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
  return regex;
}
function time(args) {
  return new RegExp(`^${timeSource(args)}$`);
}
function datetime(args) {
  const opts = ["Z"];
  if (args.offset)
    opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
  const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
  const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
  return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
var anyString = /^[\s\S]{0,}$/;
var integer = /^-?\d+$/;
var number = /^-?\d+(?:\.\d+)?$/;
var boolean = /^(?:true|false)$/i;
var lowercase = /^[^A-Z]*$/;
var uppercase = /^[^a-z]*$/;

// node_modules/zod/v4/core/checks.js
var $ZodCheck = /* @__PURE__ */ $constructor("$ZodCheck", (inst, def) => {
  var _a3;
  inst._zod ?? (inst._zod = {});
  inst._zod.def = def;
  (_a3 = inst._zod).onattach ?? (_a3.onattach = []);
});
var _whenHasLength = (payload) => {
  const val = payload.value;
  return !nullish(val) && val.length !== void 0;
};
var numericOriginMap = {
  number: "number",
  bigint: "bigint",
  object: "date"
};
var $ZodCheckLessThan = /* @__PURE__ */ $constructor("$ZodCheckLessThan", (inst, def) => {
  $ZodCheck.init(inst, def);
  const origin = numericOriginMap[typeof def.value];
  inst._zod.check = (payload) => {
    if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
      return;
    }
    payload.issues.push({
      origin: numericOriginMap[typeof payload.value] ?? origin,
      code: "too_big",
      maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
      input: payload.value,
      inclusive: def.inclusive,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckGreaterThan = /* @__PURE__ */ $constructor("$ZodCheckGreaterThan", (inst, def) => {
  $ZodCheck.init(inst, def);
  const origin = numericOriginMap[typeof def.value];
  inst._zod.check = (payload) => {
    if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
      return;
    }
    payload.issues.push({
      origin: numericOriginMap[typeof payload.value] ?? origin,
      code: "too_small",
      minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
      input: payload.value,
      inclusive: def.inclusive,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckMultipleOf = /* @__PURE__ */ $constructor("$ZodCheckMultipleOf", (inst, def) => {
  $ZodCheck.init(inst, def);
  inst._zod.check = (payload) => {
    if (typeof payload.value !== typeof def.value)
      throw new Error("Cannot mix number and bigint in multiple_of check.");
    const isMultiple = typeof payload.value === "bigint" ? (
      // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
      def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
    ) : floatSafeRemainder(payload.value, def.value) === 0;
    if (isMultiple)
      return;
    payload.issues.push({
      origin: typeof payload.value,
      code: "not_multiple_of",
      divisor: def.value,
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckNumberFormat = /* @__PURE__ */ $constructor("$ZodCheckNumberFormat", (inst, def) => {
  $ZodCheck.init(inst, def);
  def.format = def.format || "float64";
  const isInt = def.format?.includes("int");
  const origin = isInt ? "int" : "number";
  const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
  inst._zod.check = (payload) => {
    const input = payload.value;
    if (isInt) {
      if (!Number.isInteger(input)) {
        payload.issues.push({
          expected: origin,
          format: def.format,
          code: "invalid_type",
          continue: false,
          input,
          inst
        });
        return;
      }
      if (!Number.isSafeInteger(input)) {
        if (input > 0) {
          payload.issues.push({
            input,
            code: "too_big",
            maximum: Number.MAX_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        } else {
          payload.issues.push({
            input,
            code: "too_small",
            minimum: Number.MIN_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        }
        return;
      }
    }
    if (input < minimum) {
      payload.issues.push({
        origin: "number",
        input,
        code: "too_small",
        minimum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
    if (input > maximum) {
      payload.issues.push({
        origin: "number",
        input,
        code: "too_big",
        maximum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
  };
});
var $ZodCheckMaxLength = /* @__PURE__ */ $constructor("$ZodCheckMaxLength", (inst, def) => {
  var _a3;
  $ZodCheck.init(inst, def);
  (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
  inst._zod.check = (payload) => {
    const input = payload.value;
    const units = input.length;
    const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
    if (length <= def.maximum)
      return;
    const origin = getLengthableOrigin(input);
    payload.issues.push({
      origin,
      code: "too_big",
      maximum: def.maximum,
      inclusive: true,
      input,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckMinLength = /* @__PURE__ */ $constructor("$ZodCheckMinLength", (inst, def) => {
  var _a3;
  $ZodCheck.init(inst, def);
  (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
  inst._zod.check = (payload) => {
    const input = payload.value;
    const units = input.length;
    const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2 ? codePointLength(input) : units;
    if (length >= def.minimum)
      return;
    const origin = getLengthableOrigin(input);
    payload.issues.push({
      origin,
      code: "too_small",
      minimum: def.minimum,
      inclusive: true,
      input,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckLengthEquals = /* @__PURE__ */ $constructor("$ZodCheckLengthEquals", (inst, def) => {
  var _a3;
  $ZodCheck.init(inst, def);
  (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
  inst._zod.check = (payload) => {
    const input = payload.value;
    const units = input.length;
    const length = typeof input === "string" && units >= def.length && units <= def.length * 2 ? codePointLength(input) : units;
    if (length === def.length)
      return;
    const origin = getLengthableOrigin(input);
    const tooBig = length > def.length;
    payload.issues.push({
      origin,
      ...tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length },
      inclusive: true,
      exact: true,
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckStringFormat = /* @__PURE__ */ $constructor("$ZodCheckStringFormat", (inst, def) => {
  var _a3, _b;
  $ZodCheck.init(inst, def);
  if (def.pattern)
    (_a3 = inst._zod).check ?? (_a3.check = (payload) => {
      def.pattern.lastIndex = 0;
      if (def.pattern.test(payload.value))
        return;
      payload.issues.push({
        origin: "string",
        code: "invalid_format",
        format: def.format,
        input: payload.value,
        ...def.pattern ? { pattern: def.pattern.toString() } : {},
        inst,
        continue: !def.abort
      });
    });
  else
    (_b = inst._zod).check ?? (_b.check = () => {
    });
});
var $ZodCheckRegex = /* @__PURE__ */ $constructor("$ZodCheckRegex", (inst, def) => {
  $ZodCheckStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    def.pattern.lastIndex = 0;
    if (def.pattern.test(payload.value))
      return;
    payload.issues.push({
      origin: "string",
      code: "invalid_format",
      format: "regex",
      input: payload.value,
      pattern: def.pattern.toString(),
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckLowerCase = /* @__PURE__ */ $constructor("$ZodCheckLowerCase", (inst, def) => {
  def.pattern ?? (def.pattern = lowercase);
  $ZodCheckStringFormat.init(inst, def);
});
var $ZodCheckUpperCase = /* @__PURE__ */ $constructor("$ZodCheckUpperCase", (inst, def) => {
  def.pattern ?? (def.pattern = uppercase);
  $ZodCheckStringFormat.init(inst, def);
});
var $ZodCheckIncludes = /* @__PURE__ */ $constructor("$ZodCheckIncludes", (inst, def) => {
  $ZodCheck.init(inst, def);
  const escapedRegex = escapeRegex(def.includes);
  const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
  def.pattern = pattern;
  inst._zod.check = (payload) => {
    if (payload.value.includes(def.includes, def.position))
      return;
    payload.issues.push({
      origin: "string",
      code: "invalid_format",
      format: "includes",
      includes: def.includes,
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckStartsWith = /* @__PURE__ */ $constructor("$ZodCheckStartsWith", (inst, def) => {
  $ZodCheck.init(inst, def);
  const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
  def.pattern ?? (def.pattern = pattern);
  inst._zod.check = (payload) => {
    if (payload.value.startsWith(def.prefix))
      return;
    payload.issues.push({
      origin: "string",
      code: "invalid_format",
      format: "starts_with",
      prefix: def.prefix,
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckEndsWith = /* @__PURE__ */ $constructor("$ZodCheckEndsWith", (inst, def) => {
  $ZodCheck.init(inst, def);
  const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
  def.pattern ?? (def.pattern = pattern);
  inst._zod.check = (payload) => {
    if (payload.value.endsWith(def.suffix))
      return;
    payload.issues.push({
      origin: "string",
      code: "invalid_format",
      format: "ends_with",
      suffix: def.suffix,
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckOverwrite = /* @__PURE__ */ $constructor("$ZodCheckOverwrite", (inst, def) => {
  $ZodCheck.init(inst, def);
  inst._zod.check = (payload) => {
    payload.value = def.tx(payload.value);
  };
});

// node_modules/zod/v4/core/doc.js
var Doc = class {
  constructor(args = [], closed = {}) {
    this.content = [];
    this.indent = 0;
    this.args = args;
    this.closed = closed;
  }
  // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
  indented(fn) {
    this.indent += 1;
    try {
      fn(this);
    } finally {
      this.indent -= 1;
    }
  }
  write(arg) {
    if (typeof arg === "function") {
      arg(this, { execution: "sync" });
      arg(this, { execution: "async" });
      return;
    }
    const content = arg;
    const lines2 = content.split("\n").filter((x) => x);
    const minIndent = Math.min(...lines2.map((x) => x.length - x.trimStart().length));
    const dedented = lines2.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
    for (const line of dedented) {
      this.content.push(line);
    }
  }
  compile() {
    const F = Function;
    const content = this?.content ?? [``];
    const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {
${content.join("\n")}
};`);
    return factory(...Object.values(this.closed));
  }
};

// node_modules/zod/v4/core/versions.js
var version = {
  major: 4,
  minor: 6,
  patch: 7
};

// node_modules/zod/v4/core/schemas.js
var $ZodType = /* @__PURE__ */ $constructor("$ZodType", (inst, def) => {
  var _a3;
  inst ?? (inst = {});
  inst._zod.def = def;
  inst._zod.bag = inst._zod.bag || {};
  inst._zod.version = version;
  const defChecks = inst._zod.def.checks;
  const checks = inst._zod.traits.has("$ZodCheck") ? [inst, ...defChecks ?? []] : defChecks?.length ? [...defChecks] : [];
  for (const ch of checks) {
    for (const fn of ch._zod.onattach) {
      fn(inst);
    }
  }
  if (checks.length === 0) {
    (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
    inst._zod.deferred?.push(() => {
      inst._zod.run = inst._zod.parse;
    });
  } else {
    const runChecks = (payload, checks2, ctx) => {
      if (payload.memo)
        return payload;
      let isAborted = aborted(payload);
      let asyncResult;
      for (const ch of checks2) {
        if (ch._zod.def.when) {
          if (explicitlyAborted(payload))
            continue;
          const shouldRun = ch._zod.def.when(payload);
          if (!shouldRun)
            continue;
        } else if (isAborted) {
          continue;
        }
        const currLen = payload.issues.length;
        const _ = ch._zod.check(payload);
        if (_ instanceof Promise && ctx?.async === false) {
          throw new $ZodAsyncError();
        }
        if (asyncResult || _ instanceof Promise) {
          asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
            await _;
            const nextLen = payload.issues.length;
            if (nextLen === currLen)
              return;
            attachSchema(payload.issues, currLen, inst);
            if (!isAborted)
              isAborted = aborted(payload, currLen);
          });
        } else {
          const nextLen = payload.issues.length;
          if (nextLen === currLen)
            continue;
          attachSchema(payload.issues, currLen, inst);
          if (!isAborted)
            isAborted = aborted(payload, currLen);
        }
      }
      if (asyncResult) {
        return asyncResult.then(() => {
          return payload;
        });
      }
      return payload;
    };
    const handleCanaryResult = (canary, payload, ctx) => {
      if (aborted(canary)) {
        canary.aborted = true;
        return canary;
      }
      const checkResult = runChecks(payload, checks, ctx);
      if (checkResult instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return checkResult.then((checkResult2) => inst._zod.parse(checkResult2, ctx));
      }
      return inst._zod.parse(checkResult, ctx);
    };
    inst._zod.run = (payload, ctx) => {
      if (ctx.skipChecks) {
        return inst._zod.parse(payload, ctx);
      }
      if (ctx.direction === "backward") {
        const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
        if (canary instanceof Promise) {
          return canary.then((canary2) => {
            return handleCanaryResult(canary2, payload, ctx);
          });
        }
        return handleCanaryResult(canary, payload, ctx);
      }
      const result = inst._zod.parse(payload, ctx);
      if (result instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return result.then((result2) => runChecks(result2, checks, ctx));
      }
      return runChecks(result, checks, ctx);
    };
  }
}, {
  // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
  get "~standard"() {
    return hide(this, "~standard", standardProps(this));
  },
  set "~standard"(value2) {
    own(this, "~standard", value2);
  }
});
var toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync2(inst, value2) {
  const ctx = { async: true };
  return toStandardResult(await inst._zod.run({ value: value2, issues: [] }, ctx), ctx);
}
function standardProps(inst) {
  return {
    validate: (value2) => {
      const ctx = { async: false };
      try {
        const r = inst._zod.run({ value: value2, issues: [] }, ctx);
        if (!(r instanceof Promise))
          return toStandardResult(r, ctx);
      } catch (_) {
      }
      return validateAsync2(inst, value2);
    },
    vendor: "zod",
    version: 1
  };
}
var $ZodString = /* @__PURE__ */ $constructor("$ZodString", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = def.pattern ?? anyString;
  inst._zod.parse = (payload, _) => {
    if (def.coerce)
      try {
        payload.value = String(payload.value);
      } catch (_2) {
      }
    if (typeof payload.value === "string")
      return payload;
    payload.issues.push({
      expected: "string",
      code: "invalid_type",
      input: payload.value,
      inst
    });
    return payload;
  };
});
var $ZodStringFormat = /* @__PURE__ */ $constructor("$ZodStringFormat", (inst, def) => {
  $ZodCheckStringFormat.init(inst, def);
  $ZodString.init(inst, def);
});
var $ZodGUID = /* @__PURE__ */ $constructor("$ZodGUID", (inst, def) => {
  def.pattern ?? (def.pattern = guid);
  $ZodStringFormat.init(inst, def);
});
var $ZodUUID = /* @__PURE__ */ $constructor("$ZodUUID", (inst, def) => {
  if (def.version) {
    const versionMap = {
      v1: 1,
      v2: 2,
      v3: 3,
      v4: 4,
      v5: 5,
      v6: 6,
      v7: 7,
      v8: 8
    };
    const v = versionMap[def.version];
    if (v === void 0)
      throw new Error(`Invalid UUID version: "${def.version}"`);
    def.pattern ?? (def.pattern = uuid(v));
  } else
    def.pattern ?? (def.pattern = uuid());
  $ZodStringFormat.init(inst, def);
});
var $ZodEmail = /* @__PURE__ */ $constructor("$ZodEmail", (inst, def) => {
  def.pattern ?? (def.pattern = email);
  $ZodStringFormat.init(inst, def);
});
var URL_BAD_FORMAT = 1;
var URL_UNPARSEABLE = 2;
function canParseURL(input) {
  try {
    if (typeof URL !== "undefined" && typeof URL.canParse === "function")
      return URL.canParse(input);
    new URL(input);
    return true;
  } catch {
    return false;
  }
}
function validateURL(trimmed, def) {
  if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
    return canParseURL(trimmed) || URL_UNPARSEABLE;
  }
  return parseURLObject(trimmed, def);
}
function parseURLObject(trimmed, def) {
  if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
    return URL_BAD_FORMAT;
  }
  try {
    if (typeof URL !== "undefined") {
      const URLStatic = URL;
      if (typeof URLStatic.parse === "function")
        return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
    }
    return new URL(trimmed);
  } catch {
    return URL_UNPARSEABLE;
  }
}
var asciiTabOrNewline = /[\t\n\r]/g;
function stripTabAndNewline(value2) {
  return value2.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
  hostname.lastIndex = 0;
  return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
  protocol.lastIndex = 0;
  return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
var $ZodURL = /* @__PURE__ */ $constructor("$ZodURL", (inst, def) => {
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    try {
      const trimmed = payload.value.trim();
      const url = validateURL(trimmed, def);
      if (url === URL_BAD_FORMAT) {
        payload.issues.push({
          code: "invalid_format",
          format: "url",
          note: "Invalid URL format",
          input: payload.value,
          inst,
          continue: !def.abort
        });
        return;
      }
      if (url === URL_UNPARSEABLE) {
        payload.issues.push({
          code: "invalid_format",
          format: "url",
          input: payload.value,
          inst,
          continue: !def.abort
        });
        return;
      }
      if (url === true) {
        payload.value = stripTabAndNewline(trimmed);
        return;
      }
      if (def.hostname && !urlHostnameOk(url, def.hostname)) {
        payload.issues.push({
          code: "invalid_format",
          format: "url",
          note: "Invalid hostname",
          pattern: def.hostname.source,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      }
      if (def.protocol && !urlProtocolOk(url, def.protocol)) {
        payload.issues.push({
          code: "invalid_format",
          format: "url",
          note: "Invalid protocol",
          pattern: def.protocol.source,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      }
      payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
      return;
    } catch (_) {
      payload.issues.push({
        code: "invalid_format",
        format: "url",
        input: payload.value,
        inst,
        continue: !def.abort
      });
    }
  };
});
var $ZodEmoji = /* @__PURE__ */ $constructor("$ZodEmoji", (inst, def) => {
  def.pattern ?? (def.pattern = emoji());
  $ZodStringFormat.init(inst, def);
});
var $ZodNanoID = /* @__PURE__ */ $constructor("$ZodNanoID", (inst, def) => {
  if (def.length !== void 0 && (!Number.isInteger(def.length) || def.length < 1))
    throw new Error(`Invalid nanoid length: ${def.length}`);
  def.pattern ?? (def.pattern = def.length === void 0 ? nanoid : nanoidOfLength(def.length));
  $ZodStringFormat.init(inst, def);
});
var $ZodCUID = /* @__PURE__ */ $constructor("$ZodCUID", (inst, def) => {
  def.pattern ?? (def.pattern = cuid);
  $ZodStringFormat.init(inst, def);
});
var $ZodCUID2 = /* @__PURE__ */ $constructor("$ZodCUID2", (inst, def) => {
  def.pattern ?? (def.pattern = cuid2);
  $ZodStringFormat.init(inst, def);
});
var $ZodULID = /* @__PURE__ */ $constructor("$ZodULID", (inst, def) => {
  def.pattern ?? (def.pattern = ulid);
  $ZodStringFormat.init(inst, def);
});
var $ZodXID = /* @__PURE__ */ $constructor("$ZodXID", (inst, def) => {
  def.pattern ?? (def.pattern = xid);
  $ZodStringFormat.init(inst, def);
});
var $ZodKSUID = /* @__PURE__ */ $constructor("$ZodKSUID", (inst, def) => {
  def.pattern ?? (def.pattern = ksuid);
  $ZodStringFormat.init(inst, def);
});
var $ZodISODateTime = /* @__PURE__ */ $constructor("$ZodISODateTime", (inst, def) => {
  def.pattern ?? (def.pattern = datetime(def));
  $ZodStringFormat.init(inst, def);
});
var $ZodISODate = /* @__PURE__ */ $constructor("$ZodISODate", (inst, def) => {
  def.pattern ?? (def.pattern = date);
  $ZodStringFormat.init(inst, def);
});
var $ZodISOTime = /* @__PURE__ */ $constructor("$ZodISOTime", (inst, def) => {
  def.pattern ?? (def.pattern = time(def));
  $ZodStringFormat.init(inst, def);
});
var $ZodISODuration = /* @__PURE__ */ $constructor("$ZodISODuration", (inst, def) => {
  def.pattern ?? (def.pattern = duration);
  $ZodStringFormat.init(inst, def);
});
var $ZodIPv4 = /* @__PURE__ */ $constructor("$ZodIPv4", (inst, def) => {
  def.pattern ?? (def.pattern = ipv4);
  $ZodStringFormat.init(inst, def);
});
var ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value2) {
  if (!ipv6Alphabet.test(value2))
    return false;
  return canParseURL(`http://[${value2}]`);
}
var $ZodIPv6 = /* @__PURE__ */ $constructor("$ZodIPv6", (inst, def) => {
  def.pattern ?? (def.pattern = ipv6);
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    if (!isValidIPv6(payload.value)) {
      payload.issues.push({
        code: "invalid_format",
        format: "ipv6",
        input: payload.value,
        inst,
        continue: !def.abort
      });
    }
  };
});
var $ZodCIDRv4 = /* @__PURE__ */ $constructor("$ZodCIDRv4", (inst, def) => {
  def.pattern ?? (def.pattern = cidrv4);
  $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value2) {
  const parts = value2.split("/");
  if (parts.length !== 2)
    return false;
  const [address, prefix] = parts;
  if (!prefix)
    return false;
  const prefixNum = Number(prefix);
  if (`${prefixNum}` !== prefix)
    return false;
  if (prefixNum < 0 || prefixNum > 128)
    return false;
  return isValidIPv6(address);
}
var $ZodCIDRv6 = /* @__PURE__ */ $constructor("$ZodCIDRv6", (inst, def) => {
  def.pattern ?? (def.pattern = cidrv6);
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    if (!isValidCIDRv6(payload.value)) {
      payload.issues.push({
        code: "invalid_format",
        format: "cidrv6",
        input: payload.value,
        inst,
        continue: !def.abort
      });
    }
  };
});
function isValidBase64(data) {
  if (data === "")
    return true;
  if (/\s/.test(data))
    return false;
  if (data.length % 4 !== 0)
    return false;
  try {
    atob(data);
    return true;
  } catch {
    return false;
  }
}
var base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
var $ZodBase64 = /* @__PURE__ */ $constructor("$ZodBase64", (inst, def) => {
  def.pattern ?? (def.pattern = base64Charset);
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    if (isValidBase64(payload.value))
      return;
    payload.issues.push({
      code: "invalid_format",
      format: "base64",
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
  if (!base64urlCharset.test(data))
    return false;
  const base642 = data.replace(/[-_]/g, (c) => c === "-" ? "+" : "/");
  const padded = base642.padEnd(Math.ceil(base642.length / 4) * 4, "=");
  return isValidBase64(padded);
}
var $ZodBase64URL = /* @__PURE__ */ $constructor("$ZodBase64URL", (inst, def) => {
  def.pattern ?? (def.pattern = base64urlCharset);
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    if (isValidBase64URL(payload.value))
      return;
    payload.issues.push({
      code: "invalid_format",
      format: "base64url",
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodE164 = /* @__PURE__ */ $constructor("$ZodE164", (inst, def) => {
  def.pattern ?? (def.pattern = e164);
  $ZodStringFormat.init(inst, def);
});
function isValidJWT(token, algorithm = null) {
  try {
    const tokensParts = token.split(".");
    if (tokensParts.length !== 3)
      return false;
    const [header] = tokensParts;
    if (!header)
      return false;
    const parsedHeader = JSON.parse(atob(header));
    if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
      return false;
    if (!parsedHeader.alg)
      return false;
    if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
      return false;
    return true;
  } catch {
    return false;
  }
}
var $ZodJWT = /* @__PURE__ */ $constructor("$ZodJWT", (inst, def) => {
  $ZodStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    if (isValidJWT(payload.value, def.alg))
      return;
    payload.issues.push({
      code: "invalid_format",
      format: "jwt",
      input: payload.value,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodNumber = /* @__PURE__ */ $constructor("$ZodNumber", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = number;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Number(payload.value);
      } catch (_) {
      }
    const input = payload.value;
    if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
      return payload;
    }
    const received = typeof input === "number" ? Number.isNaN(input) ? "NaN" : !Number.isFinite(input) ? String(input) : void 0 : void 0;
    payload.issues.push({
      expected: "number",
      code: "invalid_type",
      input,
      inst,
      ...received ? { received } : {}
    });
    return payload;
  };
});
var $ZodNumberFormat = /* @__PURE__ */ $constructor("$ZodNumberFormat", (inst, def) => {
  $ZodCheckNumberFormat.init(inst, def);
  $ZodNumber.init(inst, def);
});
var $ZodBoolean = /* @__PURE__ */ $constructor("$ZodBoolean", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = boolean;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Boolean(payload.value);
      } catch (_) {
      }
    const input = payload.value;
    if (typeof input === "boolean")
      return payload;
    payload.issues.push({
      expected: "boolean",
      code: "invalid_type",
      input,
      inst
    });
    return payload;
  };
});
var $ZodUnknown = /* @__PURE__ */ $constructor("$ZodUnknown", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.parse = (payload) => payload;
});
var $ZodNever = /* @__PURE__ */ $constructor("$ZodNever", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.parse = (payload, _ctx) => {
    payload.issues.push({
      expected: "never",
      code: "invalid_type",
      input: payload.value,
      inst
    });
    return payload;
  };
});
function capSize(inst, size) {
  const caps = sizeCaps(inst._zod.def.checks);
  if (!caps.length)
    return;
  const cap = Math.min(...caps.map((c) => c[0]));
  const parse3 = inst._zod.parse;
  inst._zod.parse = (payload, ctx) => {
    const n = size(payload.value);
    if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
      for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
        if (n > max && ch._zod.def.when(payload)) {
          const start = payload.issues.length;
          ch._zod.check(payload);
          payload.issues[start].continue = false;
          attachSchema(payload.issues, start, inst);
          return payload;
        }
      }
    }
    return parse3(payload, ctx);
  };
}
var arraySize = (input) => Array.isArray(input) ? input.length : -1;
function handleArrayResult(result, final, index) {
  if (result.issues.length) {
    final.issues.push(...prefixIssues(index, result.issues));
  }
  final.value[index] = result.value;
}
var $ZodArray = /* @__PURE__ */ $constructor("$ZodArray", (inst, def) => {
  $ZodType.init(inst, def);
  const memo2 = globalConfig.memoizer;
  memo2?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    const input = payload.value;
    if (!Array.isArray(input)) {
      payload.issues.push({
        expected: "array",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    payload.value = memo2 ? memo2.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
    const proms = [];
    const abortEarly = ctx?.abortEarly;
    for (let i = 0; i < input.length; i++) {
      const item = input[i];
      const result = def.element._zod.run({
        value: item,
        issues: []
      }, ctx);
      if (result instanceof Promise) {
        proms.push(result.then((result2) => handleArrayResult(result2, payload, i)));
      } else {
        handleArrayResult(result, payload, i);
        if (abortEarly && result.issues.length !== 0 && aborted(result))
          break;
      }
    }
    if (proms.length) {
      return Promise.all(proms).then(() => payload);
    }
    return payload;
  };
  capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
  const isPresent = key in input;
  const isOptionalOut = optout === "optional";
  if (!isPresent && isOptionalOut && optin === "optional") {
    return;
  }
  if (result.issues.length) {
    if (optin !== void 0 && isOptionalOut && !isPresent) {
      return;
    }
    final.issues.push(...prefixIssues(key, result.issues));
  }
  if (!isPresent && optin === void 0) {
    if (!result.issues.length) {
      final.issues.push({
        code: "invalid_type",
        expected: "nonoptional",
        input: void 0,
        path: [key]
      });
    }
    return;
  }
  if (result.value === void 0) {
    if (isPresent || optin === "defaulted" && !isOptionalOut) {
      final.value[key] = void 0;
    }
  } else {
    final.value[key] = result.value;
  }
}
var NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
  const keys = Object.keys(def.shape);
  const ownSymbols = Object.getOwnPropertySymbols(def.shape);
  const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
  const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
  for (const k of allKeys) {
    if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
      throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
    }
  }
  const okeys = optionalKeys(def.shape);
  return {
    ...def,
    allKeys,
    symbolKeys,
    // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
    keySet: new Set(keys),
    numKeys: keys.length,
    optionalKeys: new Set(okeys)
  };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
  const unrecognized = [];
  const keySet = def.keySet;
  const _catchall = def.catchall._zod;
  const t = _catchall.def.type;
  const optin = _catchall.optin;
  const optout = _catchall.optout;
  let seen = 0;
  for (const key in input) {
    if (abortEarly && payload.issues.length !== seen) {
      if (aborted(payload, seen))
        break;
      seen = payload.issues.length;
    }
    if (keySet.has(key))
      continue;
    if (key === "__proto__") {
      if (t === "never")
        unrecognized.push(key);
      continue;
    }
    if (t === "never") {
      unrecognized.push(key);
      continue;
    }
    const r = _catchall.run({ value: input[key], issues: [] }, ctx);
    if (r instanceof Promise) {
      proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
    } else {
      handlePropertyResult(r, payload, key, input, optin, optout);
    }
  }
  if (unrecognized.length) {
    payload.issues.push({
      code: "unrecognized_keys",
      keys: unrecognized,
      input,
      inst,
      // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
      continue: true
    });
  }
  if (!proms.length)
    return payload;
  return Promise.all(proms).then(() => {
    return payload;
  });
}
var $ZodObject = /* @__PURE__ */ $constructor("$ZodObject", (inst, def) => {
  $ZodType.init(inst, def);
  const desc = Object.getOwnPropertyDescriptor(def, "shape");
  const sh = desc?.get ? desc.get.raw : def.shape ?? {};
  if (sh) {
    const get = () => {
      const newSh = { ...sh };
      Object.defineProperty(def, "shape", { value: newSh });
      get.raw = newSh;
      return newSh;
    };
    get.raw = sh;
    Object.defineProperty(def, "shape", { get });
  }
  const _normalized = cached(() => normalizeDef(def));
  defineLazyInternal(inst, "propValues", (zod) => {
    const shape = zod.def.shape;
    const propValues = {};
    for (const key in shape) {
      const field = shape[key]._zod;
      if (field.values) {
        if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
          assignProp(propValues, key, /* @__PURE__ */ new Set());
        }
        for (const v of field.values)
          propValues[key].add(v);
        if (field.optin !== void 0)
          propValues[key].add(void 0);
      }
    }
    return propValues;
  });
  const isObject2 = isObject;
  const catchall = def.catchall;
  let value2;
  const memo2 = globalConfig.memoizer;
  memo2?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    value2 ?? (value2 = _normalized.value);
    const input = payload.value;
    if (!isObject2(input)) {
      payload.issues.push({
        expected: "object",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
    const proms = [];
    const shape = value2.shape;
    const abortEarly = ctx?.abortEarly;
    let seen = payload.issues.length;
    for (const key of value2.allKeys) {
      if (abortEarly && payload.issues.length !== seen) {
        if (aborted(payload, seen))
          break;
        seen = payload.issues.length;
      }
      if (key === "__proto__")
        continue;
      const el = shape[key];
      const optin = el._zod.optin;
      const optout = el._zod.optout;
      const r = el._zod.run({ value: input[key], issues: [] }, ctx);
      if (r instanceof Promise) {
        proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
      } else {
        handlePropertyResult(r, payload, key, input, optin, optout);
      }
    }
    if (!catchall) {
      return proms.length ? Promise.all(proms).then(() => payload) : payload;
    }
    return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
  };
});
var $ZodObjectJIT = /* @__PURE__ */ $constructor("$ZodObjectJIT", (inst, def) => {
  $ZodObject.init(inst, def);
  const superParse = inst._zod.parse;
  const _normalized = cached(() => normalizeDef(def));
  const memo2 = globalConfig.memoizer;
  const generateFastpass = (shape) => {
    const normalized = _normalized.value;
    const syms = normalized.symbolKeys;
    const doc = new Doc(["payload", "ctx"], { shape, inst, memo: memo2, syms });
    const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
    const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
    doc.write(`const input = payload.value;`);
    const ids = /* @__PURE__ */ Object.create(null);
    let counter = 0;
    for (const key of normalized.allKeys) {
      ids[key] = `key_${counter++}`;
    }
    doc.write(memo2 ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
    for (const key of normalized.allKeys) {
      if (key === "__proto__")
        continue;
      const id = ids[key];
      const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
      const isPresent = `${k} in input`;
      const schema = shape[key];
      const optin = schema?._zod?.optin;
      const isOptionalIn = optin !== void 0;
      const isOptionalOut = schema?._zod?.optout === "optional";
      doc.write(`const ${id} = ${parseStr(k)};`);
      if (isOptionalIn && isOptionalOut) {
        const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
        doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
      } else if (!isOptionalIn) {
        doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
      } else {
        doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
        if (optin === "defaulted") {
          doc.write(`newResult[${k}] = ${id}.value;`);
        } else {
          doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
        }
      }
    }
    doc.write(`payload.value = newResult;`);
    doc.write(`return payload;`);
    return doc.compile();
  };
  let fastpass;
  const isObject2 = isObject;
  const jit = !globalConfig.jitless;
  const allowsEval2 = allowsEval;
  const fastEnabled = jit && allowsEval2.value;
  const catchall = def.catchall;
  let value2;
  inst._zod.parse = (payload, ctx) => {
    value2 ?? (value2 = _normalized.value);
    const input = payload.value;
    if (!isObject2(input)) {
      payload.issues.push({
        expected: "object",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
      if (!fastpass)
        fastpass = generateFastpass(def.shape);
      payload = fastpass(payload, ctx);
      if (!catchall)
        return payload;
      return handleCatchall([], input, payload, ctx, value2, inst, ctx?.abortEarly === true);
    }
    return superParse(payload, ctx);
  };
});
function handleUnionResults(results, final, inst, ctx) {
  for (const result of results) {
    if (result.issues.length === 0) {
      final.value = result.value;
      return final;
    }
  }
  const nonaborted = results.filter((r) => !aborted(r));
  if (nonaborted.length === 1) {
    final.value = nonaborted[0].value;
    return nonaborted[0];
  }
  final.issues.push({
    code: "invalid_union",
    input: final.value,
    inst,
    errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config())))
  });
  return final;
}
var $ZodUnion = /* @__PURE__ */ $constructor("$ZodUnion", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted") ? "defaulted" : zod.def.options.some((o) => o._zod.optin !== void 0) ? "optional" : void 0);
  defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : void 0);
  defineLazyInternal(inst, "values", (zod) => {
    if (zod.def.options.every((o) => o._zod.values)) {
      return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
    }
    return void 0;
  });
  defineLazyInternal(inst, "pattern", (zod) => {
    if (zod.def.options.every((o) => o._zod.pattern)) {
      const patterns = zod.def.options.map((o) => o._zod.pattern);
      return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
    }
    return void 0;
  });
  const first = def.options.length === 1 ? def.options[0]._zod.run : null;
  inst._zod.parse = (payload, ctx) => {
    if (first) {
      return first(payload, ctx);
    }
    let async = false;
    const results = [];
    for (const option of def.options) {
      const result = option._zod.run({
        value: payload.value,
        issues: []
      }, ctx);
      if (result instanceof Promise) {
        results.push(result);
        async = true;
      } else {
        if (result.issues.length === 0)
          return result;
        results.push(result);
      }
    }
    if (!async)
      return handleUnionResults(results, payload, inst, ctx);
    return Promise.all(results).then((results2) => {
      return handleUnionResults(results2, payload, inst, ctx);
    });
  };
});
var $ZodIntersection = /* @__PURE__ */ $constructor("$ZodIntersection", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.parse = (payload, ctx) => {
    const input = payload.value;
    const left = def.left._zod.run({ value: input, issues: [] }, ctx);
    const right = def.right._zod.run({ value: input, issues: [] }, ctx);
    const async = left instanceof Promise || right instanceof Promise;
    if (async) {
      return Promise.all([left, right]).then(([left2, right2]) => {
        return handleIntersectionResults(payload, left2, right2);
      });
    }
    return handleIntersectionResults(payload, left, right);
  };
});
function mergeValues(a, b) {
  if (a === b) {
    return { valid: true, data: a };
  }
  if (a instanceof Date && b instanceof Date && +a === +b) {
    return { valid: true, data: a };
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const bKeys = Object.keys(b);
    const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
    const newObj = { ...a, ...b };
    if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
      delete newObj.__proto__;
    for (const key of sharedKeys) {
      if (key === "__proto__")
        continue;
      const sharedValue = mergeValues(a[key], b[key]);
      if (!sharedValue.valid) {
        return {
          valid: false,
          mergeErrorPath: [key, ...sharedValue.mergeErrorPath]
        };
      }
      newObj[key] = sharedValue.data;
    }
    return { valid: true, data: newObj };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      return { valid: false, mergeErrorPath: [] };
    }
    const newArray = [];
    for (let index = 0; index < a.length; index++) {
      const itemA = a[index];
      const itemB = b[index];
      const sharedValue = mergeValues(itemA, itemB);
      if (!sharedValue.valid) {
        return {
          valid: false,
          mergeErrorPath: [index, ...sharedValue.mergeErrorPath]
        };
      }
      newArray.push(sharedValue.data);
    }
    return { valid: true, data: newArray };
  }
  return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
  const unrecKeys = /* @__PURE__ */ new Map();
  let unrecIssue;
  const keyIssues = /* @__PURE__ */ new Map();
  const collect = (iss, side) => {
    let keys;
    if (iss.code === "unrecognized_keys" && !iss.path?.length) {
      unrecIssue ?? (unrecIssue = iss);
      keys = iss.keys;
    } else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
      const k = String(iss.path[0]);
      if (!keyIssues.has(k))
        keyIssues.set(k, iss);
      keys = [k];
    } else {
      return false;
    }
    for (const k of keys) {
      if (!unrecKeys.has(k))
        unrecKeys.set(k, {});
      unrecKeys.get(k)[side] = true;
    }
    return true;
  };
  for (const iss of left.issues) {
    if (!collect(iss, "l"))
      result.issues.push(iss);
  }
  for (const iss of right.issues) {
    if (!collect(iss, "r"))
      result.issues.push(iss);
  }
  const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
  if (bothKeys.length) {
    const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
    if (aggregated.length)
      result.issues.push({ ...unrecIssue, keys: aggregated });
    for (const k of bothKeys) {
      if (!aggregated.includes(k) && keyIssues.has(k))
        result.issues.push(keyIssues.get(k));
    }
  }
  const merged = mergeValues(left.value, right.value);
  if (!merged.valid) {
    if (aborted(result))
      return result;
    throw new Error(`Unmergable intersection. Error path: ${JSON.stringify(merged.mergeErrorPath)}`);
  }
  result.value = merged.data;
  return result;
}
var $ZodRecord = /* @__PURE__ */ $constructor("$ZodRecord", (inst, def) => {
  $ZodType.init(inst, def);
  const memo2 = globalConfig.memoizer;
  memo2?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    const input = payload.value;
    if (!isPlainObject(input)) {
      payload.issues.push({
        expected: "record",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    const proms = [];
    const values = def.keyType._zod.values;
    if (values && !def.partial) {
      payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
      const recordKeys = /* @__PURE__ */ new Set();
      for (const key of values) {
        if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
          recordKeys.add(typeof key === "number" ? key.toString() : key);
          if (key === "__proto__")
            continue;
          const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
          if (keyResult instanceof Promise) {
            throw new Error("Async schemas not supported in object keys currently");
          }
          if (keyResult.issues.length) {
            payload.issues.push({
              code: "invalid_key",
              origin: "record",
              issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
              input: key,
              path: [key],
              inst
            });
            continue;
          }
          const outKey = keyResult.value;
          if (outKey === "__proto__")
            continue;
          const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
          if (result instanceof Promise) {
            proms.push(result.then((result2) => {
              if (result2.issues.length) {
                payload.issues.push(...prefixIssues(key, result2.issues));
              }
              payload.value[outKey] = result2.value;
            }));
          } else {
            if (result.issues.length) {
              payload.issues.push(...prefixIssues(key, result.issues));
            }
            payload.value[outKey] = result.value;
          }
        }
      }
      let unrecognized;
      for (const key in input) {
        if (!recordKeys.has(key)) {
          if (def.mode === "loose") {
            if (key === "__proto__")
              continue;
            payload.value[key] = input[key];
          } else {
            unrecognized = unrecognized ?? [];
            unrecognized.push(key);
          }
        }
      }
      if (unrecognized && unrecognized.length > 0) {
        payload.issues.push({
          code: "unrecognized_keys",
          input,
          inst,
          keys: unrecognized,
          continue: true
        });
      }
    } else {
      payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
      let unrecognized;
      for (const key of Reflect.ownKeys(input)) {
        if (key === "__proto__")
          continue;
        if (!Object.prototype.propertyIsEnumerable.call(input, key))
          continue;
        let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
        if (keyResult instanceof Promise) {
          throw new Error("Async schemas not supported in object keys currently");
        }
        const checkNumericKey = typeof key === "string" && number.test(key) && keyResult.issues.length;
        if (checkNumericKey) {
          const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
          if (retryResult instanceof Promise) {
            throw new Error("Async schemas not supported in object keys currently");
          }
          if (retryResult.issues.length === 0) {
            keyResult = retryResult;
          }
        }
        if (keyResult.issues.length) {
          if (def.mode === "loose") {
            payload.value[key] = input[key];
          } else if (values) {
            unrecognized = unrecognized ?? [];
            unrecognized.push(key);
          } else {
            payload.issues.push({
              code: "invalid_key",
              origin: "record",
              issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
              input: key,
              path: [key],
              inst
            });
          }
          continue;
        }
        const outKey = keyResult.value;
        if (outKey === "__proto__")
          continue;
        const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
        if (result instanceof Promise) {
          proms.push(result.then((result2) => {
            if (result2.issues.length) {
              payload.issues.push(...prefixIssues(key, result2.issues));
            }
            payload.value[outKey] = result2.value;
          }));
        } else {
          if (result.issues.length) {
            payload.issues.push(...prefixIssues(key, result.issues));
          }
          payload.value[outKey] = result.value;
        }
      }
      if (unrecognized && unrecognized.length > 0) {
        payload.issues.push({
          code: "unrecognized_keys",
          input,
          inst,
          keys: unrecognized,
          continue: true
        });
      }
    }
    if (proms.length) {
      return Promise.all(proms).then(() => payload);
    }
    return payload;
  };
});
var $ZodEnum = /* @__PURE__ */ $constructor("$ZodEnum", (inst, def) => {
  $ZodType.init(inst, def);
  const values = getEnumValues(def.entries);
  const valuesSet = new Set(values);
  inst._zod.values = valuesSet;
  defineLazyInternal(inst, "pattern", (zod) => {
    const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
    return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input = payload.value;
    if (valuesSet.has(input)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values,
      input,
      inst
    });
    return payload;
  };
});
var $ZodLiteral = /* @__PURE__ */ $constructor("$ZodLiteral", (inst, def) => {
  $ZodType.init(inst, def);
  const values = new Set(def.values);
  inst._zod.values = values;
  defineLazyInternal(inst, "pattern", (zod) => {
    const vals = zod.def.values;
    return new RegExp(vals.length ? `^(${vals.map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o)).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input = payload.value;
    if (values.has(input)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values: def.values,
      input,
      inst
    });
    return payload;
  };
});
var $ZodTransform = /* @__PURE__ */ $constructor("$ZodTransform", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.optin = "optional";
  globalConfig.memoizer?.guard(inst);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      throw new $ZodEncodeError(inst.constructor.name);
    }
    const _out = def.transform(payload.value, payload);
    if (ctx.async) {
      const output = _out instanceof Promise ? _out : Promise.resolve(_out);
      return output.then((output2) => {
        payload.value = output2;
        return payload;
      });
    }
    if (_out instanceof Promise) {
      throw new $ZodAsyncError();
    }
    payload.value = _out;
    return payload;
  };
});
function handleOptionalResult(payload, result) {
  payload.value = result.issues.length ? void 0 : result.value;
  return payload;
}
var $ZodOptional = /* @__PURE__ */ $constructor("$ZodOptional", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
  inst._zod.optout = "optional";
  defineLazyInternal(inst, "values", (zod) => {
    const values = zod.def.innerType._zod.values;
    return values ? /* @__PURE__ */ new Set([...values, void 0]) : void 0;
  });
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === void 0) {
      if (def.innerType._zod.optin !== "defaulted")
        return payload;
      const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
      if (result instanceof Promise)
        return result.then((result2) => handleOptionalResult(payload, result2));
      return handleOptionalResult(payload, result);
    }
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodExactOptional = /* @__PURE__ */ $constructor("$ZodExactOptional", (inst, def) => {
  $ZodOptional.init(inst, def);
  defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
  defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
  inst._zod.parse = (payload, ctx) => {
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodNullable = /* @__PURE__ */ $constructor("$ZodNullable", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
  defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : void 0;
  });
  defineLazyInternal(inst, "values", (zod) => {
    return zod.def.innerType._zod.values ? /* @__PURE__ */ new Set([...zod.def.innerType._zod.values, null]) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === null)
      return payload;
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodDefault = /* @__PURE__ */ $constructor("$ZodDefault", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.optin = "defaulted";
  defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      return def.innerType._zod.run(payload, ctx);
    }
    if (payload.value === void 0) {
      payload.value = def.defaultValue;
      return payload;
    }
    const result = def.innerType._zod.run(payload, ctx);
    if (result instanceof Promise) {
      return result.then((result2) => handleDefaultResult(result2, def));
    }
    return handleDefaultResult(result, def);
  };
});
function handleDefaultResult(payload, def) {
  if (payload.value === void 0) {
    payload.value = def.defaultValue;
  }
  return payload;
}
var $ZodPrefault = /* @__PURE__ */ $constructor("$ZodPrefault", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.optin = "defaulted";
  defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      return def.innerType._zod.run(payload, ctx);
    }
    if (payload.value === void 0) {
      payload.value = def.defaultValue;
    }
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodNonOptional = /* @__PURE__ */ $constructor("$ZodNonOptional", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "values", (zod) => {
    const v = zod.def.innerType._zod.values;
    return v ? new Set([...v].filter((x) => x !== void 0)) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    const result = def.innerType._zod.run(payload, ctx);
    if (result instanceof Promise) {
      return result.then((result2) => handleNonOptionalResult(result2, inst));
    }
    return handleNonOptionalResult(result, inst);
  };
});
function handleNonOptionalResult(payload, inst) {
  if (!payload.issues.length && payload.value === void 0) {
    payload.issues.push({
      code: "invalid_type",
      expected: "nonoptional",
      input: payload.value,
      inst
    });
  }
  return payload;
}
function handleCatchResult(payload, result, def, ctx) {
  if (!result.issues.length) {
    payload.value = result.value;
    if (result.memo)
      payload.memo = true;
    return payload;
  }
  payload.value = def.catchValue({
    ...result,
    value: payload.value,
    error: {
      issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config()))
    },
    input: payload.value
  });
  return payload;
}
var $ZodCatch = /* @__PURE__ */ $constructor("$ZodCatch", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
  defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
  defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      return def.innerType._zod.run(payload, ctx);
    }
    const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
    if (result instanceof Promise) {
      return result.then((result2) => handleCatchResult(payload, result2, def, ctx));
    }
    return handleCatchResult(payload, result, def, ctx);
  };
});
var $ZodPipe = /* @__PURE__ */ $constructor("$ZodPipe", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
  defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
  defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
  defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      const right = def.out._zod.run(payload, ctx);
      if (right instanceof Promise) {
        return right.then((right2) => handlePipeResult(right2, def.in, ctx));
      }
      return handlePipeResult(right, def.in, ctx);
    }
    const left = def.in._zod.run(payload, ctx);
    if (left instanceof Promise) {
      return left.then((left2) => handlePipeResult(left2, def.out, ctx));
    }
    return handlePipeResult(left, def.out, ctx);
  };
});
function handlePipeResult(left, next, ctx) {
  if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
    left.aborted = true;
    return left;
  }
  return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
var $ZodReadonly = /* @__PURE__ */ $constructor("$ZodReadonly", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
  defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
  defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === "backward") {
      return def.innerType._zod.run(payload, ctx);
    }
    const result = def.innerType._zod.run(payload, ctx);
    if (result instanceof Promise) {
      return result.then(handleReadonlyResult);
    }
    return handleReadonlyResult(result);
  };
});
function handleReadonlyResult(payload) {
  if (!payload.memo)
    payload.value = Object.freeze(payload.value);
  return payload;
}
var $ZodCustom = /* @__PURE__ */ $constructor("$ZodCustom", (inst, def) => {
  $ZodCheck.init(inst, def);
  $ZodType.init(inst, def);
  inst._zod.parse = (payload, _) => {
    return payload;
  };
  inst._zod.check = (payload) => {
    const input = payload.value;
    const r = def.fn(input);
    if (r instanceof Promise) {
      return r.then((r2) => handleRefineResult(r2, payload, input, inst));
    }
    handleRefineResult(r, payload, input, inst);
    return;
  };
});
function handleRefineResult(result, payload, input, inst) {
  if (!result) {
    const _iss = {
      code: "custom",
      input,
      inst,
      // incorporates params.error into issue reporting
      path: [...inst._zod.def.path ?? []],
      // incorporates params.error into issue reporting
      continue: !inst._zod.def.abort
      // params: inst._zod.def.params,
    };
    if (inst._zod.def.params)
      _iss.params = inst._zod.def.params;
    payload.issues.push(issue2(_iss));
  }
}

// node_modules/zod/v4/core/memoizer.js
var $ZodCyclicError = class extends Error {
  constructor() {
    super(`Cannot parse a reference cycle that closes through a transform`);
    this.name = "ZodCyclicError";
  }
};
var STATE = "~memo";
var NO_ISSUES = [];
function isRef(value2) {
  return value2 !== null && typeof value2 === "object";
}
function cloneIssues(issues) {
  return issues.map((iss) => iss.path ? { ...iss, path: iss.path.slice() } : { ...iss });
}
var recursive = /* @__PURE__ */ new WeakMap();
var NONE = 0;
var ASSUMED = 1;
var PROVEN = 2;
function isRecursive(inst, stack, resolve2) {
  const cached2 = recursive.get(inst);
  if (cached2 !== void 0)
    return cached2 ? PROVEN : NONE;
  if (stack.has(inst))
    return PROVEN;
  stack.add(inst);
  let result = NONE;
  const check = (child) => {
    if (result !== PROVEN && child?._zod) {
      const answer = isRecursive(child, stack, resolve2);
      if (answer > result)
        result = answer;
    }
  };
  const shape = (sh, spread) => {
    let answer = NONE;
    for (const key of Reflect.ownKeys(sh)) {
      const desc = Object.getOwnPropertyDescriptor(sh, key);
      if (spread && !desc.enumerable)
        continue;
      const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack, resolve2) : NONE;
      if (child > answer)
        answer = child;
    }
    return answer;
  };
  const merge2 = (answer) => {
    if (answer > result)
      result = answer;
  };
  const def = inst._zod.def;
  const kind = def.type;
  switch (kind) {
    case "object": {
      const raw = rawShape(def);
      merge2(raw ? shape(raw, true) : ASSUMED);
      check(def.catchall);
      break;
    }
    case "array":
      check(def.element);
      break;
    case "tuple":
      for (const el of def.items)
        check(el);
      check(def.rest);
      break;
    case "record":
    case "map":
      check(def.keyType);
      check(def.valueType);
      break;
    case "set":
      check(def.valueType);
      break;
    case "union":
      for (const el of def.options)
        check(el);
      break;
    case "intersection":
      check(def.left);
      check(def.right);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "promise":
    case "success":
      check(def.innerType);
      break;
    case "pipe":
      check(def.in);
      check(def.out);
      break;
    case "function":
      check(def.input);
      check(def.output);
      break;
    // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
    case "lazy": {
      const inner = def._cachedInner ?? (resolve2 ? inst._zod.innerType : void 0);
      merge2(inner ? isRecursive(inner, stack, false) : ASSUMED);
      break;
    }
    // a leaf by choice: `parts` are regex fragments, not data positions
    case "template_literal":
    // leaves
    case "string":
    case "number":
    case "int":
    case "boolean":
    case "bigint":
    case "symbol":
    case "undefined":
    case "null":
    case "void":
    case "never":
    case "any":
    case "unknown":
    case "date":
    case "nan":
    case "enum":
    case "literal":
    case "file":
    case "transform":
    case "custom":
      break;
    default: {
      kind;
      for (const key in def) {
        const desc = Object.getOwnPropertyDescriptor(def, key);
        if (!desc || desc.get)
          continue;
        const value2 = desc.value;
        if (!value2 || typeof value2 !== "object")
          continue;
        if (value2._zod)
          check(value2);
        else if (Array.isArray(value2))
          for (const el of value2)
            check(el);
      }
    }
  }
  stack.delete(inst);
  return settle(inst, result);
}
function settle(inst, answer) {
  if (answer !== ASSUMED)
    recursive.set(inst, answer === PROVEN);
  return answer;
}
function bucketFor(state, inst) {
  let bucket = state.buckets.get(inst);
  if (!bucket) {
    bucket = /* @__PURE__ */ new WeakMap();
    state.buckets.set(inst, bucket);
  }
  return bucket;
}
var handoff;
var open2 = [];
var memo = {
  alloc(_inst, payload, empty) {
    const bucket = handoff;
    if (!bucket)
      return empty;
    handoff = void 0;
    const entry = { value: empty, issues: null };
    bucket.set(payload.value, entry);
    open2.push(entry);
    return empty;
  },
  guard(inst) {
    var _a3;
    (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
    inst._zod.deferred.push(() => {
      const base = inst._zod.parse;
      const wrapped = (payload, ctx) => {
        if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
          throw new $ZodCyclicError();
        return base(payload, ctx);
      };
      inst._zod.parse = wrapped;
      if (inst._zod.run === base)
        inst._zod.run = wrapped;
    });
  },
  attach(inst) {
    var _a3;
    let isRecursiveInst;
    let rechecked = false;
    let lastCtx;
    let lastBucket;
    (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
    inst._zod.deferred.push(() => {
      const base = inst._zod.parse;
      const wrapped = (payload, ctx) => {
        if (isRecursiveInst === void 0) {
          const walked = isRecursive(inst, /* @__PURE__ */ new Set(), false);
          if (walked === NONE) {
            inst._zod.parse = base;
            if (inst._zod.run === wrapped)
              inst._zod.run = base;
            return base(payload, ctx);
          }
          if (walked === PROVEN || rechecked)
            isRecursiveInst = true;
          else
            rechecked = true;
        }
        const input = payload.value;
        if (!isRef(input))
          return base(payload, ctx);
        let state = ctx[STATE];
        if (!state) {
          state = { buckets: /* @__PURE__ */ new WeakMap(), backEdges: void 0 };
          ctx[STATE] = state;
        }
        let bucket;
        if (lastCtx === ctx) {
          bucket = lastBucket;
        } else {
          bucket = bucketFor(state, inst);
          lastCtx = ctx;
          lastBucket = bucket;
        }
        const hit = bucket.get(input);
        if (hit) {
          payload.value = hit.value;
          if (hit.issues) {
            if (hit.issues.length)
              payload.issues.push(...cloneIssues(hit.issues));
          } else {
            payload.memo = true;
            state.backEdges ?? (state.backEdges = /* @__PURE__ */ new WeakSet());
            state.backEdges.add(hit.value);
          }
          return payload;
        }
        handoff = bucket;
        const depth = open2.length;
        const result = base(payload, ctx);
        handoff = void 0;
        const entry = open2.length > depth ? open2.pop() : void 0;
        if (result instanceof Promise) {
          return result.then((r) => {
            if (entry)
              entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
            return r;
          });
        }
        if (entry)
          entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
        return result;
      };
      inst._zod.parse = wrapped;
      if (inst._zod.run === base)
        inst._zod.run = wrapped;
    });
  }
};
function memoizer() {
  return memo;
}
function isBackEdge(ctx, value2) {
  const backEdges = ctx[STATE]?.backEdges;
  return backEdges !== void 0 && isRef(value2) && backEdges.has(value2);
}

// node_modules/zod/v4/locales/en.js
var error2 = () => {
  const Sizable = {
    string: { unit: "characters", verb: "to have" },
    file: { unit: "bytes", verb: "to have" },
    array: { unit: "items", verb: "to have" },
    set: { unit: "items", verb: "to have" },
    map: { unit: "entries", verb: "to have" }
  };
  function getSizing(origin) {
    return Sizable[origin] ?? null;
  }
  const FormatDictionary = {
    regex: "input",
    email: "email address",
    url: "URL",
    emoji: "emoji",
    uuid: "UUID",
    uuidv4: "UUIDv4",
    uuidv6: "UUIDv6",
    nanoid: "nanoid",
    guid: "GUID",
    cuid: "cuid",
    cuid2: "cuid2",
    ulid: "ULID",
    xid: "XID",
    ksuid: "KSUID",
    datetime: "ISO datetime",
    date: "ISO date",
    time: "ISO time",
    duration: "ISO duration",
    ipv4: "IPv4 address",
    ipv6: "IPv6 address",
    mac: "MAC address",
    cidrv4: "IPv4 range",
    cidrv6: "IPv6 range",
    base64: "base64-encoded string",
    base64url: "base64url-encoded string",
    json_string: "JSON string",
    e164: "E.164 number",
    currency_code: "currency code",
    credit_card: "credit card number",
    iban: "IBAN",
    jwt: "JWT",
    template_literal: "input"
  };
  const TypeDictionary = {
    // Compatibility: "nan" -> "NaN" for display
    nan: "NaN"
    // All other type names omitted - they fall back to raw values via ?? operator
  };
  function getTypeName(type, input) {
    if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
      return String(input);
    }
    return TypeDictionary[type] ?? type;
  }
  return (issue3) => {
    switch (issue3.code) {
      case "invalid_type": {
        const expected = getTypeName(issue3.expected);
        const receivedType = parsedType(issue3.input);
        const received = getTypeName(receivedType, issue3.input);
        return `Invalid input: expected ${expected}, received ${received}`;
      }
      case "invalid_value":
        if (issue3.values.length === 1)
          return `Invalid input: expected ${stringifyPrimitive(issue3.values[0])}`;
        return `Invalid option: expected one of ${joinValues(issue3.values, "|")}`;
      case "too_big": {
        const adj = issue3.exact ? "exactly " : issue3.inclusive ? "<=" : "<";
        const sizing = getSizing(issue3.origin);
        if (sizing)
          return `Too big: expected ${issue3.origin ?? "value"} to have ${adj}${issue3.maximum.toString()} ${sizing.unit ?? "elements"}`;
        return `Too big: expected ${issue3.origin ?? "value"} to be ${adj}${issue3.maximum.toString()}`;
      }
      case "too_small": {
        const adj = issue3.exact ? "exactly " : issue3.inclusive ? ">=" : ">";
        const sizing = getSizing(issue3.origin);
        if (sizing) {
          return `Too small: expected ${issue3.origin} to have ${adj}${issue3.minimum.toString()} ${sizing.unit}`;
        }
        return `Too small: expected ${issue3.origin} to be ${adj}${issue3.minimum.toString()}`;
      }
      case "invalid_format": {
        const _issue = issue3;
        if (_issue.format === "starts_with") {
          return `Invalid string: must start with "${_issue.prefix}"`;
        }
        if (_issue.format === "ends_with")
          return `Invalid string: must end with "${_issue.suffix}"`;
        if (_issue.format === "includes")
          return `Invalid string: must include "${_issue.includes}"`;
        if (_issue.format === "regex")
          return `Invalid string: must match pattern ${_issue.pattern}`;
        return `Invalid ${FormatDictionary[_issue.format] ?? issue3.format}`;
      }
      case "not_multiple_of":
        return `Invalid number: must be a multiple of ${issue3.divisor}`;
      case "unrecognized_keys":
        return `Unrecognized key${issue3.keys.length > 1 ? "s" : ""}: ${joinValues(issue3.keys, ", ")}`;
      case "invalid_key":
        return `Invalid key in ${issue3.origin}`;
      case "invalid_union":
        if (issue3.options && Array.isArray(issue3.options) && issue3.options.length > 0) {
          const opts = issue3.options.map((o) => `'${o}'`).join(" | ");
          return `Invalid discriminator value. Expected ${opts}`;
        }
        if (issue3.inclusive === false) {
          return "Invalid input: more than one option matched";
        }
        return "Invalid input";
      case "invalid_element":
        return `Invalid value in ${issue3.origin}`;
      default:
        return `Invalid input`;
    }
  };
};
function en_default() {
  return {
    localeError: error2()
  };
}

// node_modules/zod/v4/core/registries.js
var _a2;
var $ZodRegistry = class {
  constructor() {
    this._map = /* @__PURE__ */ new WeakMap();
    this._idmap = /* @__PURE__ */ new Map();
  }
  add(schema, ..._meta) {
    const meta2 = _meta[0];
    this._map.set(schema, meta2);
    if (meta2 && typeof meta2 === "object" && "id" in meta2) {
      this._idmap.set(meta2.id, schema);
    }
    return this;
  }
  clear() {
    this._map = /* @__PURE__ */ new WeakMap();
    this._idmap = /* @__PURE__ */ new Map();
    return this;
  }
  remove(schema) {
    const meta2 = this._map.get(schema);
    if (meta2 && typeof meta2 === "object" && "id" in meta2) {
      this._idmap.delete(meta2.id);
    }
    this._map.delete(schema);
    return this;
  }
  get(schema) {
    const p = schema._zod.parent;
    if (p) {
      const pm = { ...this.get(p) ?? {} };
      delete pm.id;
      const f = { ...pm, ...this._map.get(schema) };
      return Object.keys(f).length ? f : void 0;
    }
    return this._map.get(schema);
  }
  has(schema) {
    return this._map.has(schema);
  }
};
function registry() {
  return new $ZodRegistry();
}
(_a2 = globalThis).__zod_globalRegistry ?? (_a2.__zod_globalRegistry = registry());
var globalRegistry = globalThis.__zod_globalRegistry;

// node_modules/zod/v4/core/api.js
function snapshotChecks(def) {
  if (def.checks)
    def.checks = [...def.checks];
  return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class2, params) {
  return new Class2(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class2, params) {
  return new Class2({
    type: "string",
    format: "email",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class2, params) {
  return new Class2({
    type: "string",
    format: "guid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v4",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v6",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v7",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _url(Class2, params) {
  return new Class2({
    type: "string",
    format: "url",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _emoji2(Class2, params) {
  return new Class2({
    type: "string",
    format: "emoji",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class2, params) {
  return new Class2({
    type: "string",
    format: "nanoid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "cuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class2, params) {
  return new Class2({
    type: "string",
    format: "cuid2",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class2, params) {
  return new Class2({
    type: "string",
    format: "ulid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class2, params) {
  return new Class2({
    type: "string",
    format: "xid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "ksuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "ipv4",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "ipv6",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "cidrv4",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "cidrv6",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class2, params) {
  return new Class2({
    type: "string",
    format: "base64",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class2, params) {
  return new Class2({
    type: "string",
    format: "base64url",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class2, params) {
  return new Class2({
    type: "string",
    format: "e164",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class2, params) {
  return new Class2({
    type: "string",
    format: "jwt",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class2, params) {
  return new Class2({
    type: "string",
    format: "datetime",
    check: "string_format",
    offset: false,
    local: false,
    precision: null,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class2, params) {
  return new Class2({
    type: "string",
    format: "date",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class2, params) {
  return new Class2({
    type: "string",
    format: "time",
    check: "string_format",
    precision: null,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class2, params) {
  return new Class2({
    type: "string",
    format: "duration",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _number(Class2, params) {
  return new Class2(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class2, params) {
  return new Class2({
    type: "number",
    check: "number_format",
    abort: false,
    format: "safeint",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class2, params) {
  return new Class2({
    type: "boolean",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class2) {
  return new Class2({
    type: "unknown"
  });
}
// @__NO_SIDE_EFFECTS__
function _never(Class2, params) {
  return new Class2({
    type: "never",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _lt(value2, params) {
  return new $ZodCheckLessThan({
    check: "less_than",
    ...normalizeParams(params),
    value: value2,
    inclusive: false
  });
}
// @__NO_SIDE_EFFECTS__
function _lte(value2, params) {
  return new $ZodCheckLessThan({
    check: "less_than",
    ...normalizeParams(params),
    value: value2,
    inclusive: true
  });
}
// @__NO_SIDE_EFFECTS__
function _gt(value2, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value: value2,
    inclusive: false
  });
}
// @__NO_SIDE_EFFECTS__
function _gte(value2, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value: value2,
    inclusive: true
  });
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value2, params) {
  return new $ZodCheckMultipleOf({
    check: "multiple_of",
    ...normalizeParams(params),
    value: value2
  });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
  const ch = new $ZodCheckMaxLength({
    check: "max_length",
    ...normalizeParams(params),
    maximum
  });
  return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
  return new $ZodCheckMinLength({
    check: "min_length",
    ...normalizeParams(params),
    minimum
  });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
  return new $ZodCheckLengthEquals({
    check: "length_equals",
    ...normalizeParams(params),
    length
  });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
  return new $ZodCheckRegex({
    check: "string_format",
    format: "regex",
    ...normalizeParams(params),
    pattern
  });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
  return new $ZodCheckLowerCase({
    check: "string_format",
    format: "lowercase",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
  return new $ZodCheckUpperCase({
    check: "string_format",
    format: "uppercase",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
  return new $ZodCheckIncludes({
    check: "string_format",
    format: "includes",
    ...normalizeParams(params),
    includes
  });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
  return new $ZodCheckStartsWith({
    check: "string_format",
    format: "starts_with",
    ...normalizeParams(params),
    prefix
  });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
  return new $ZodCheckEndsWith({
    check: "string_format",
    format: "ends_with",
    ...normalizeParams(params),
    suffix
  });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
  return new $ZodCheckOverwrite({
    check: "overwrite",
    tx
  });
}
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
  return /* @__PURE__ */ _overwrite((input) => input.normalize(form));
}
// @__NO_SIDE_EFFECTS__
function _trim() {
  return /* @__PURE__ */ _overwrite((input) => input.trim());
}
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
  return /* @__PURE__ */ _overwrite((input) => input.toLowerCase());
}
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
  return /* @__PURE__ */ _overwrite((input) => input.toUpperCase());
}
// @__NO_SIDE_EFFECTS__
function _slugify() {
  return /* @__PURE__ */ _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class2, element, params) {
  return new Class2({
    type: "array",
    element,
    // get element() {
    //   return element;
    // },
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _refine(Class2, fn, _params) {
  const schema = new Class2({
    type: "custom",
    check: "custom",
    fn,
    ...normalizeParams(_params)
  });
  return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
  const ch = /* @__PURE__ */ _check((payload) => {
    payload.addIssue = (issue3) => {
      if (typeof issue3 === "string") {
        payload.issues.push(issue2(issue3, payload.value, ch._zod.def));
      } else {
        const _issue = issue3;
        if (_issue.fatal)
          _issue.continue = false;
        _issue.code ?? (_issue.code = "custom");
        if (!("input" in _issue))
          _issue.input = payload.value;
        _issue.inst ?? (_issue.inst = ch);
        _issue.continue ?? (_issue.continue = !ch._zod.def.abort);
        payload.issues.push(issue2(_issue));
      }
    };
    return fn(payload.value, payload);
  }, params);
  return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
  const ch = new $ZodCheck({
    check: "custom",
    ...normalizeParams(params)
  });
  ch._zod.check = fn;
  return ch;
}

// node_modules/zod/v4/core/to-json-schema.js
function assignProps(target, ...sources) {
  for (const source of sources) {
    for (const key of Reflect.ownKeys(source)) {
      if (Object.prototype.propertyIsEnumerable.call(source, key)) {
        assignProp(target, key, source[key]);
      }
    }
  }
  return target;
}
function initializeContext(params) {
  let target = params?.target ?? "draft-2020-12";
  if (target === "draft-4")
    target = "draft-04";
  if (target === "draft-7")
    target = "draft-07";
  return {
    processors: params.processors ?? {},
    metadataRegistry: params?.metadata ?? globalRegistry,
    target,
    unrepresentable: params?.unrepresentable ?? "throw",
    override: params?.override ?? (() => {
    }),
    io: params?.io ?? "output",
    counter: 0,
    seen: /* @__PURE__ */ new Map(),
    sharedDefsExtractedFor: void 0,
    sharedEmitDoneFor: void 0,
    cycles: params?.cycles ?? "ref",
    reused: params?.reused ?? "inline",
    intersections: [],
    deferred: [],
    external: params?.external ?? void 0
  };
}
function handleUnrepresentable(schema, ctx, json, params, message) {
  const result = typeof ctx.unrepresentable === "function" ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message }) : ctx.unrepresentable;
  if (result === "any")
    return false;
  if (result === void 0 || result === "throw")
    throw new Error(message);
  Object.assign(json, result);
  return true;
}
function processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
  var _a3;
  const def = schema._zod.def;
  const seen = ctx.seen.get(schema);
  if (seen) {
    seen.count++;
    const isCycle = _params.schemaPath.includes(schema);
    if (isCycle) {
      seen.cycle = _params.path;
    }
    return seen.schema;
  }
  const result = { schema: {}, count: 1, cycle: void 0, path: _params.path };
  ctx.seen.set(schema, result);
  ctx.sharedDefsExtractedFor = void 0;
  ctx.sharedEmitDoneFor = void 0;
  const overrideSchema = schema._zod.toJSONSchema?.();
  if (overrideSchema) {
    result.schema = overrideSchema;
  } else {
    const params = {
      ..._params,
      schemaPath: [..._params.schemaPath, schema],
      path: _params.path
    };
    if (schema._zod.processJSONSchema) {
      schema._zod.processJSONSchema(ctx, result.schema, params);
    } else {
      const _json = result.schema;
      const processor = ctx.processors[def.type];
      if (!processor) {
        throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
      }
      processor(schema, ctx, _json, params);
    }
    const parent = schema._zod.parent;
    if (parent) {
      if (!result.ref)
        result.ref = parent;
      processSchema(parent, ctx, params);
      ctx.seen.get(parent).isParent = true;
    }
  }
  const meta2 = ctx.metadataRegistry.get(schema);
  if (meta2)
    assignProps(result.schema, meta2);
  if (ctx.io === "input" && isTransforming(schema)) {
    delete result.schema.examples;
    delete result.schema.default;
  }
  if (ctx.io === "input" && "_prefault" in result.schema)
    (_a3 = result.schema).default ?? (_a3.default = result.schema._prefault);
  delete result.schema._prefault;
  const _result = ctx.seen.get(schema);
  return _result.schema;
}
function encodeJSONPointerSegment(segment) {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function extractDefs(ctx, schema) {
  const root = ctx.seen.get(schema);
  if (!root)
    throw new Error("Unprocessed schema. This is a bug in Zod.");
  if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
    return;
  const idToSchema = /* @__PURE__ */ new Map();
  for (const entry of ctx.seen.entries()) {
    const id = ctx.metadataRegistry.get(entry[0])?.id;
    if (id) {
      const existing = idToSchema.get(id);
      if (existing && existing !== entry[0]) {
        throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
      }
      idToSchema.set(id, entry[0]);
    }
  }
  const makeURI = (entry) => {
    const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
    if (ctx.external) {
      const externalId = ctx.external.registry.get(entry[0])?.id;
      const uriGenerator = ctx.external.uri ?? ((id2) => id2);
      if (externalId) {
        return { ref: uriGenerator(externalId) };
      }
      const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
      entry[1].defId = id;
      return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
    }
    const uriPrefix = `#`;
    const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
    if (entry[1] === root && !entry[1].schema.id) {
      return { ref: uriPrefix };
    }
    const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
    return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
  };
  const extractToDef = (entry) => {
    if (entry[1].schema.$ref) {
      return;
    }
    const seen = entry[1];
    const { ref, defId } = makeURI(entry);
    seen.def = { ...seen.schema };
    if (defId)
      seen.defId = defId;
    const schema2 = seen.schema;
    for (const key in schema2) {
      delete schema2[key];
    }
    schema2.$ref = ref;
  };
  if (ctx.cycles === "throw") {
    for (const entry of ctx.seen.entries()) {
      const seen = entry[1];
      if (seen.cycle) {
        throw new Error(`Cycle detected: #/${seen.cycle?.join("/")}/<root>

Set the \`cycles\` parameter to \`"ref"\` to resolve cyclical schemas with defs.`);
      }
    }
  }
  for (const entry of ctx.seen.entries()) {
    const seen = entry[1];
    if (schema === entry[0]) {
      extractToDef(entry);
      continue;
    }
    if (ctx.external) {
      const ext = ctx.external.registry.get(entry[0])?.id;
      if (schema !== entry[0] && ext) {
        extractToDef(entry);
        continue;
      }
    }
    const id = ctx.metadataRegistry.get(entry[0])?.id;
    if (id) {
      extractToDef(entry);
      continue;
    }
    if (seen.cycle) {
      extractToDef(entry);
      continue;
    }
    if (seen.count > 1) {
      if (ctx.reused === "ref") {
        extractToDef(entry);
      }
    }
  }
  if (ctx.external)
    ctx.sharedDefsExtractedFor = ctx.external;
}
function compactTypeUnion(schema) {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length === 0 || schema.type !== void 0)
    return;
  const types = [];
  for (const option of options) {
    if (!option || typeof option !== "object")
      return;
    compactTypeUnion(option);
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== "type")
      return;
    const type = option.type;
    for (const member of Array.isArray(type) ? type : [type]) {
      if (typeof member !== "string")
        return;
      if (!types.includes(member))
        types.push(member);
    }
  }
  delete schema.anyOf;
  schema.type = types.length === 1 ? types[0] : types;
}
var FOLDABLE_KEYS = /* @__PURE__ */ new Set(["type", "properties", "required", "additionalProperties"]);
var UNION_KEYS = ["oneOf", "anyOf"];
function undeclaredConstraint(member) {
  const extra = member.additionalProperties;
  if (extra === void 0 || extra === false || typeof extra !== "object" || extra === null)
    return null;
  return Object.keys(extra).length ? extra : null;
}
function foldObjects(members2) {
  const objects = [];
  for (const member of members2) {
    if (typeof member !== "object" || member.type !== "object")
      return null;
    for (const key in member) {
      if (!FOLDABLE_KEYS.has(key))
        return null;
    }
    objects.push(member);
  }
  const properties = {};
  const required3 = /* @__PURE__ */ new Set();
  for (const object of objects) {
    for (const key in object.properties) {
      if (Object.prototype.hasOwnProperty.call(properties, key))
        continue;
      const parts = [];
      for (const other of objects) {
        const part = other.properties?.[key] ?? undeclaredConstraint(other);
        if (part === null || part === void 0)
          continue;
        if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
          parts.push(part);
      }
      const merged = parts.length === 1 ? parts[0] : foldObjects(parts) ?? { allOf: parts };
      assignProp(properties, key, merged);
    }
    for (const key of object.required ?? [])
      required3.add(key);
  }
  const folded = { type: "object", properties };
  if (required3.size)
    folded.required = [...required3];
  if (objects.every((object) => object.additionalProperties === false)) {
    folded.additionalProperties = false;
  } else {
    const constraints = [];
    for (const object of objects) {
      const constraint = undeclaredConstraint(object);
      if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
        constraints.push(constraint);
    }
    if (constraints.length === 1)
      folded.additionalProperties = constraints[0];
    else if (constraints.length > 1)
      folded.additionalProperties = { allOf: constraints };
  }
  return folded;
}
function foldIntersection(json) {
  const allOf = json.allOf;
  if (!Array.isArray(allOf) || allOf.length < 2)
    return;
  for (const key of FOLDABLE_KEYS)
    if (key in json)
      return;
  const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
  let folded = null;
  if (!unions.length) {
    folded = foldObjects(allOf);
  } else {
    const union2 = unions[0];
    const keyword = UNION_KEYS.find((k) => Array.isArray(union2[k]));
    if (Object.keys(union2).length !== 1)
      return;
    const rest = allOf.filter((m) => m !== union2);
    const branches = union2[keyword].map((branch) => foldObjects([...rest, branch]));
    if (branches.some((b) => !b))
      return;
    folded = { [keyword]: branches };
  }
  if (!folded)
    return;
  delete json.allOf;
  assignProps(json, folded);
}
function finalize(ctx, schema) {
  const root = ctx.seen.get(schema);
  if (!root)
    throw new Error("Unprocessed schema. This is a bug in Zod.");
  const flattenRef = (zodSchema) => {
    const seen = ctx.seen.get(zodSchema);
    if (seen.ref === null)
      return;
    const schema2 = seen.def ?? seen.schema;
    const _cached = { ...schema2 };
    const ref = seen.ref;
    seen.ref = null;
    if (ref) {
      flattenRef(ref);
      const refSeen = ctx.seen.get(ref);
      const refSchema = refSeen.schema;
      if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
        schema2.allOf = schema2.allOf ?? [];
        schema2.allOf.push(refSchema);
      } else {
        assignProps(schema2, refSchema);
      }
      assignProps(schema2, _cached);
      const isParentRef = zodSchema._zod.parent === ref;
      if (isParentRef) {
        for (const key in schema2) {
          if (key === "$ref" || key === "allOf")
            continue;
          if (!(key in _cached)) {
            delete schema2[key];
          }
        }
      }
      if (refSchema.$ref && refSeen.def) {
        for (const key in schema2) {
          if (key === "$ref" || key === "allOf")
            continue;
          if (key in refSeen.def && JSON.stringify(schema2[key]) === JSON.stringify(refSeen.def[key])) {
            delete schema2[key];
          }
        }
      }
    }
    const parent = zodSchema._zod.parent;
    if (parent && parent !== ref) {
      flattenRef(parent);
      const parentSeen = ctx.seen.get(parent);
      if (parentSeen?.schema.$ref) {
        schema2.$ref = parentSeen.schema.$ref;
        if (parentSeen.def) {
          for (const key in schema2) {
            if (key === "$ref" || key === "allOf")
              continue;
            if (key in parentSeen.def && JSON.stringify(schema2[key]) === JSON.stringify(parentSeen.def[key])) {
              delete schema2[key];
            }
          }
        }
      }
    }
    ctx.override({
      zodSchema,
      jsonSchema: schema2,
      path: seen.path ?? []
    });
  };
  if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
    for (const entry of [...ctx.seen.entries()].reverse()) {
      flattenRef(entry[0]);
    }
    if (ctx.target !== "openapi-3.0") {
      for (const entry of ctx.seen.entries()) {
        compactTypeUnion(entry[1].def ?? entry[1].schema);
      }
    }
    for (const rewrite of ctx.deferred)
      rewrite();
    if (ctx.intersections.length) {
      const carriers = /* @__PURE__ */ new Map();
      for (const seen of ctx.seen.values()) {
        for (const json of [seen.schema, seen.def]) {
          const allOf = json?.allOf;
          if (!Array.isArray(allOf))
            continue;
          const existing = carriers.get(allOf);
          if (existing)
            existing.push(json);
          else
            carriers.set(allOf, [json]);
        }
      }
      for (const allOf of ctx.intersections) {
        for (const json of carriers.get(allOf) ?? [])
          foldIntersection(json);
      }
    }
  }
  const result = {};
  if (ctx.target === "draft-2020-12") {
    result.$schema = "https://json-schema.org/draft/2020-12/schema";
  } else if (ctx.target === "draft-07") {
    result.$schema = "http://json-schema.org/draft-07/schema#";
  } else if (ctx.target === "draft-04") {
    result.$schema = "http://json-schema.org/draft-04/schema#";
  } else if (ctx.target === "openapi-3.0") {
  } else {
  }
  if (ctx.external?.uri) {
    const id = ctx.external.registry.get(schema)?.id;
    if (!id)
      throw new Error("Schema is missing an `id` property");
    result.$id = ctx.external.uri(id);
  }
  assignProps(result, root.defId ? root.schema : root.def ?? root.schema);
  const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
  if (rootMetaId !== void 0 && result.id === rootMetaId)
    delete result.id;
  const defs = ctx.external?.defs ?? {};
  if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
    for (const entry of ctx.seen.entries()) {
      const seen = entry[1];
      if (seen.def && seen.defId) {
        if (seen.def.id === seen.defId)
          delete seen.def.id;
        assignProp(defs, seen.defId, seen.def);
      }
    }
  }
  if (ctx.external)
    ctx.sharedEmitDoneFor = ctx.external;
  if (ctx.external) {
  } else {
    if (Object.keys(defs).length > 0) {
      if (ctx.target === "draft-2020-12") {
        result.$defs = defs;
      } else {
        result.definitions = defs;
      }
    }
  }
  try {
    const finalized = JSON.parse(JSON.stringify(result));
    Object.defineProperty(finalized, "~standard", {
      value: {
        ...schema["~standard"],
        jsonSchema: {
          input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
          output: createStandardJSONSchemaMethod(schema, "output", ctx.processors)
        }
      },
      enumerable: false,
      writable: false
    });
    return finalized;
  } catch (_err) {
    throw new Error("Error converting schema to JSON.");
  }
}
function isTransforming(_schema, _ctx) {
  const ctx = _ctx ?? { seen: /* @__PURE__ */ new Set() };
  if (ctx.seen.has(_schema))
    return false;
  ctx.seen.add(_schema);
  const def = _schema._zod.def;
  if (def.type === "transform")
    return true;
  if (def.type === "array")
    return isTransforming(def.element, ctx);
  if (def.type === "set")
    return isTransforming(def.valueType, ctx);
  if (def.type === "lazy")
    return isTransforming(def.getter(), ctx);
  if (def.type === "promise" || def.type === "optional" || def.type === "nonoptional" || def.type === "nullable" || def.type === "readonly" || def.type === "default" || def.type === "prefault" || def.type === "catch") {
    return isTransforming(def.innerType, ctx);
  }
  if (def.type === "intersection") {
    return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
  }
  if (def.type === "record" || def.type === "map") {
    return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
  }
  if (def.type === "pipe") {
    if (_schema._zod.traits.has("$ZodCodec"))
      return true;
    return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
  }
  if (def.type === "object") {
    for (const key in def.shape) {
      if (isTransforming(def.shape[key], ctx))
        return true;
    }
    return false;
  }
  if (def.type === "union") {
    for (const option of def.options) {
      if (isTransforming(option, ctx))
        return true;
    }
    return false;
  }
  if (def.type === "tuple") {
    for (const item of def.items) {
      if (isTransforming(item, ctx))
        return true;
    }
    if (def.rest && isTransforming(def.rest, ctx))
      return true;
    return false;
  }
  return false;
}
var createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
  const ctx = initializeContext({ ...params, processors });
  processSchema(schema, ctx);
  extractDefs(ctx, schema);
  return finalize(ctx, schema);
};
var createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
  const { libraryOptions, target } = params ?? {};
  const ctx = initializeContext({ ...libraryOptions ?? {}, target, io, processors });
  processSchema(schema, ctx);
  extractDefs(ctx, schema);
  return finalize(ctx, schema);
};

// node_modules/zod/v4/core/json-schema-processors.js
var narrowMin = (agg, key, value2) => {
  if (agg[key] === void 0 || value2 > agg[key])
    agg[key] = value2;
};
var narrowMax = (agg, key, value2) => {
  if (agg[key] === void 0 || value2 < agg[key])
    agg[key] = value2;
};
var narrowBoth = (agg, value2) => {
  narrowMin(agg, "minimum", value2);
  narrowMax(agg, "maximum", value2);
};
var addDivisor = (agg, value2) => {
  agg.multipleOf ?? (agg.multipleOf = []);
  if (!agg.multipleOf.includes(value2))
    agg.multipleOf.push(value2);
};
var addPattern = (agg, pattern) => {
  agg.patterns ?? (agg.patterns = /* @__PURE__ */ new Set());
  agg.patterns.add(pattern);
};
var intersectMime = (agg, mime) => {
  agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
var setFormat = (agg, format) => {
  agg.format = format;
  if (format.includes("int"))
    agg.isInt = true;
};
var minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
var maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
var formatContributor = (ranges) => (agg, def) => {
  setFormat(agg, def.format);
  const [minimum, maximum] = ranges[def.format];
  narrowMin(agg, "minimum", minimum);
  narrowMax(agg, "maximum", maximum);
};
var contributors = {
  greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
  less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
  multiple_of: (agg, def) => addDivisor(agg, def.value),
  number_format: formatContributor(NUMBER_FORMAT_RANGES),
  bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
  min_length: minContributor,
  max_length: maxContributor,
  length_equals: (agg, def) => narrowBoth(agg, def.length),
  min_size: minContributor,
  max_size: maxContributor,
  size_equals: (agg, def) => narrowBoth(agg, def.size),
  string_format: (agg, def) => {
    setFormat(agg, def.format);
    if (def.pattern)
      addPattern(agg, def.pattern);
    if (def.format === "base64" || def.format === "base64url")
      agg.contentEncoding = def.format;
    if (def.local || def.precision === -1)
      agg.laxFormat = true;
  },
  mime_type: (agg, def) => intersectMime(agg, def.mime)
};
function aggregateChecks(schema) {
  const agg = {};
  const def = schema._zod.def;
  const list = schema._zod.traits.has("$ZodCheck") ? [schema, ...def.checks ?? []] : def.checks ?? [];
  for (const ch of list)
    contributors[ch._zod.def.check]?.(agg, ch._zod.def);
  const bag = schema._zod.bag;
  if (bag.minimum !== void 0)
    narrowMin(agg, "minimum", bag.minimum);
  if (bag.exclusiveMinimum !== void 0)
    narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
  if (bag.maximum !== void 0)
    narrowMax(agg, "maximum", bag.maximum);
  if (bag.exclusiveMaximum !== void 0)
    narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
  if (bag.multipleOf !== void 0)
    addDivisor(agg, bag.multipleOf);
  if (bag.format !== void 0) {
    agg.format ?? (agg.format = bag.format);
    if (bag.format.includes("int"))
      agg.isInt = true;
  }
  if (bag.mime)
    intersectMime(agg, bag.mime);
  for (const pattern of bag.patterns ?? [])
    addPattern(agg, pattern);
  return agg;
}
var formatMap = {
  guid: "uuid",
  url: "uri",
  datetime: "date-time",
  json_string: "json-string",
  regex: ""
  // do not set
};
var exactPatterns = /* @__PURE__ */ new Map([
  [base64Charset, base64],
  [base64urlCharset, base64url]
]);
var exactPattern = (p) => exactPatterns.get(p) ?? p;
var stringProcessor = (schema, ctx, _json, _params) => {
  const json = _json;
  json.type = "string";
  const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
  if (typeof minimum === "number")
    json.minLength = minimum;
  if (typeof maximum === "number")
    json.maxLength = maximum;
  if (format) {
    json.format = formatMap[format] ?? format;
    if (json.format === "")
      delete json.format;
    if (format === "time" || laxFormat) {
      delete json.format;
    }
  }
  if (contentEncoding)
    json.contentEncoding = contentEncoding;
  if (patterns && patterns.size > 0) {
    const patternList = [...patterns].map(exactPattern);
    if (patternList.length === 1)
      json.pattern = patternList[0].source;
    else if (patternList.length > 1) {
      json.allOf = [
        ...patternList.map((regex) => ({
          ...ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0" ? { type: "string" } : {},
          pattern: regex.source
        }))
      ];
    }
  }
};
var numberProcessor = (schema, ctx, _json, params) => {
  const json = _json;
  const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
  json.type = isInt ? "integer" : "number";
  const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
  const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
  const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
  if (exMin) {
    if (legacy) {
      json.minimum = exclusiveMinimum;
      json.exclusiveMinimum = true;
    } else {
      json.exclusiveMinimum = exclusiveMinimum;
    }
  } else if (typeof minimum === "number") {
    json.minimum = minimum;
  }
  if (exMax) {
    if (legacy) {
      json.maximum = exclusiveMaximum;
      json.exclusiveMaximum = true;
    } else {
      json.exclusiveMaximum = exclusiveMaximum;
    }
  } else if (typeof maximum === "number") {
    json.maximum = maximum;
  }
  if (multipleOf) {
    const divisors = /* @__PURE__ */ new Set();
    for (const divisor of multipleOf) {
      if (Number.isFinite(divisor) && divisor !== 0)
        divisors.add(Math.abs(divisor));
      else
        handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
    }
    const [first, ...rest] = divisors;
    if (first !== void 0)
      json.multipleOf = first;
    if (rest.length)
      json.allOf = [...json.allOf ?? [], ...rest.map((m) => ({ multipleOf: m }))];
  }
};
var booleanProcessor = (_schema, _ctx, json, _params) => {
  json.type = "boolean";
};
var bigintProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "BigInt cannot be represented in JSON Schema");
};
var symbolProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Symbols cannot be represented in JSON Schema");
};
var nullProcessor = (_schema, ctx, json, _params) => {
  if (ctx.target === "openapi-3.0") {
    json.type = "string";
    json.nullable = true;
    json.enum = [null];
  } else {
    json.type = "null";
  }
};
var undefinedProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Undefined cannot be represented in JSON Schema");
};
var voidProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Void cannot be represented in JSON Schema");
};
var neverProcessor = (_schema, _ctx, json, _params) => {
  json.not = {};
};
var anyProcessor = (_schema, _ctx, _json, _params) => {
};
var unknownProcessor = (_schema, _ctx, _json, _params) => {
};
var dateProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Date cannot be represented in JSON Schema");
};
var enumProcessor = (schema, _ctx, json, _params) => {
  const def = schema._zod.def;
  const values = getEnumValues(def.entries);
  if (values.length === 0) {
    json.not = {};
    return;
  }
  if (values.every((v) => typeof v === "number"))
    json.type = "number";
  if (values.every((v) => typeof v === "string"))
    json.type = "string";
  json.enum = values;
};
var literalProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  if (def.values.length === 0) {
    json.not = {};
    return;
  }
  const vals = [];
  for (const val of def.values) {
    if (val === void 0) {
      if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
        return;
    } else if (typeof val === "bigint") {
      if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
        return;
      vals.push(Number(val));
    } else {
      vals.push(val);
    }
  }
  if (vals.length === 0) {
  } else if (vals.length === 1) {
    const val = vals[0];
    json.type = val === null ? "null" : typeof val;
    if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
      json.enum = [val];
    } else {
      json.const = val;
    }
  } else {
    if (vals.every((v) => typeof v === "number"))
      json.type = "number";
    if (vals.every((v) => typeof v === "string"))
      json.type = "string";
    if (vals.every((v) => typeof v === "boolean"))
      json.type = "boolean";
    if (vals.every((v) => v === null))
      json.type = "null";
    json.enum = vals;
  }
};
var nanProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "NaN cannot be represented in JSON Schema");
};
var templateLiteralProcessor = (schema, _ctx, json, _params) => {
  const _json = json;
  const pattern = schema._zod.pattern;
  if (!pattern)
    throw new Error("Pattern not found in template literal");
  _json.type = "string";
  _json.pattern = pattern.source;
};
var fileProcessor = (schema, _ctx, json, _params) => {
  const _json = json;
  _json.type = "string";
  _json.format = "binary";
  _json.contentEncoding = "binary";
  const { minimum, maximum, mime } = aggregateChecks(schema);
  if (minimum !== void 0)
    _json.minLength = minimum;
  if (maximum !== void 0)
    _json.maxLength = maximum;
  if (!mime)
    return;
  if (mime.length === 0)
    _json.not = {};
  else if (mime.length === 1)
    _json.contentMediaType = mime[0];
  else
    _json.anyOf = mime.map((m) => ({ contentMediaType: m }));
};
var successProcessor = (_schema, _ctx, json, _params) => {
  json.type = "boolean";
};
var customProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
var functionProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Function types cannot be represented in JSON Schema");
};
var transformProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
var mapProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Map cannot be represented in JSON Schema");
};
var setProcessor = (schema, ctx, json, params) => {
  handleUnrepresentable(schema, ctx, json, params, "Set cannot be represented in JSON Schema");
};
var arrayProcessor = (schema, ctx, _json, params) => {
  const json = _json;
  const def = schema._zod.def;
  const { minimum, maximum } = aggregateChecks(schema);
  if (typeof minimum === "number")
    json.minItems = minimum;
  if (typeof maximum === "number")
    json.maxItems = maximum;
  json.type = "array";
  json.items = processSchema(def.element, ctx, {
    ...params,
    path: [...params.path, "items"]
  });
};
function inputOptin(schema) {
  const def = schema._zod.def;
  if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
    return inputOptin(def.out);
  }
  if (def.type === "catch") {
    return inputOptin(def.innerType);
  }
  return schema._zod.optin;
}
var objectProcessor = (schema, ctx, _json, params) => {
  const json = _json;
  const def = schema._zod.def;
  const shape = def.shape;
  const symbolKeys = Object.getOwnPropertySymbols(shape);
  if (symbolKeys.length && handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
    return;
  }
  json.type = "object";
  json.properties = {};
  for (const key in shape) {
    assignProp(json.properties, key, processSchema(shape[key], ctx, {
      ...params,
      path: [...params.path, "properties", key]
    }));
  }
  const requiredKeys = [];
  for (const key of Object.keys(shape)) {
    const field = def.shape[key];
    if (ctx.io === "input" ? inputOptin(field) === void 0 : field._zod.optout === void 0) {
      requiredKeys.push(key);
    }
  }
  if (requiredKeys.length > 0) {
    json.required = requiredKeys;
  }
  if (def.catchall?._zod.def.type === "never") {
    json.additionalProperties = false;
  } else if (!def.catchall) {
    if (ctx.io === "output")
      json.additionalProperties = false;
  } else if (def.catchall) {
    json.additionalProperties = processSchema(def.catchall, ctx, {
      ...params,
      path: [...params.path, "additionalProperties"]
    });
  }
};
var unionProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  const isExclusive = def.inclusive === false;
  const options = def.options.map((x, i) => processSchema(x, ctx, {
    ...params,
    path: [...params.path, isExclusive ? "oneOf" : "anyOf", i]
  }));
  if (isExclusive) {
    json.oneOf = options;
  } else {
    json.anyOf = options;
  }
};
var intersectionProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  const a = processSchema(def.left, ctx, {
    ...params,
    path: [...params.path, "allOf", 0]
  });
  const b = processSchema(def.right, ctx, {
    ...params,
    path: [...params.path, "allOf", 1]
  });
  const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
  const allOf = [
    ...isSimpleIntersection(a) ? a.allOf : [a],
    ...isSimpleIntersection(b) ? b.allOf : [b]
  ];
  json.allOf = allOf;
  ctx.intersections.push(allOf);
};
var tupleProcessor = (schema, ctx, _json, params) => {
  const json = _json;
  const def = schema._zod.def;
  json.type = "array";
  const prefixPath = ctx.target === "draft-2020-12" ? "prefixItems" : "items";
  const restPath = ctx.target === "draft-2020-12" ? "items" : ctx.target === "openapi-3.0" ? "items" : "additionalItems";
  const prefixItems = def.items.map((x, i) => processSchema(x, ctx, {
    ...params,
    path: [...params.path, prefixPath, i]
  }));
  const rest = def.rest ? processSchema(def.rest, ctx, {
    ...params,
    path: [...params.path, restPath, ...ctx.target === "openapi-3.0" ? [def.items.length] : []]
  }) : null;
  let minItems = def.items.length;
  while (minItems > 0) {
    const item = def.items[minItems - 1];
    const optional2 = ctx.io === "input" ? inputOptin(item) !== void 0 : item._zod.optout === "optional";
    if (!optional2)
      break;
    minItems--;
  }
  const maxItems = def.items.length;
  const isClosed = !def.rest;
  if (ctx.target === "draft-2020-12") {
    json.prefixItems = prefixItems;
    if (isClosed) {
      json.items = false;
    } else if (rest) {
      json.items = rest;
    }
    if (minItems > 0)
      json.minItems = minItems;
    if (isClosed)
      json.maxItems = maxItems;
  } else if (ctx.target === "openapi-3.0") {
    json.items = {
      anyOf: prefixItems
    };
    if (rest) {
      json.items.anyOf.push(rest);
    }
    if (minItems > 0)
      json.minItems = minItems;
    if (isClosed)
      json.maxItems = maxItems;
  } else {
    json.items = prefixItems;
    if (isClosed) {
      json.additionalItems = false;
    } else if (rest) {
      json.additionalItems = rest;
    }
    if (minItems > 0)
      json.minItems = minItems;
    if (isClosed)
      json.maxItems = maxItems;
  }
  const { minimum, maximum } = aggregateChecks(schema);
  if (typeof minimum === "number")
    json.minItems = minimum;
  if (typeof maximum === "number")
    json.maxItems = maximum;
};
function stringifyKeyNames(bySchema, json, visited) {
  if (json.$ref) {
    if (visited.has(json))
      return json;
    visited.add(json);
    const def = bySchema.get(json)?.def;
    if (!def)
      return json;
    const inlined = stringifyKeyNames(bySchema, def, visited);
    return inlined === def ? json : inlined;
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = json[keyword];
    if (!Array.isArray(branches))
      continue;
    const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
    if (mapped.some((branch, i) => branch !== branches[i]))
      json = { ...json, [keyword]: mapped };
  }
  const types = Array.isArray(json.type) ? json.type : [json.type];
  const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
  const values = json.enum ?? (json.const !== void 0 ? [json.const] : void 0);
  if (!numericType && !values?.some((v) => typeof v === "number"))
    return json;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
  if (rest.enum)
    rest.enum = rest.enum.map((v) => typeof v === "number" ? String(v) : v);
  else if (typeof rest.const === "number")
    rest.const = String(rest.const);
  if (!numericType)
    return rest;
  rest.type = "string";
  if (!values)
    rest.pattern = (types.includes("number") ? number : integer).source;
  return rest;
}
var pendingRecords = /* @__PURE__ */ new WeakMap();
function rewriteKeyNames(ctx) {
  const bySchema = /* @__PURE__ */ new Map();
  for (const entry of ctx.seen.values()) {
    if (entry.def && !bySchema.has(entry.schema))
      bySchema.set(entry.schema, entry);
  }
  const rewrites = /* @__PURE__ */ new Map();
  for (const record2 of pendingRecords.get(ctx) ?? []) {
    const seen = ctx.seen.get(record2);
    const names = (seen?.def ?? seen?.schema)?.propertyNames;
    if (!names || names === true || rewrites.has(names))
      continue;
    const rewritten = stringifyKeyNames(bySchema, names, /* @__PURE__ */ new Set());
    if (rewritten !== names)
      rewrites.set(names, rewritten);
  }
  if (!rewrites.size)
    return;
  for (const entry of ctx.seen.values()) {
    for (const carrier of [entry.schema, entry.def]) {
      const rewritten = carrier && rewrites.get(carrier.propertyNames);
      if (rewritten)
        carrier.propertyNames = rewritten;
    }
  }
}
var recordProcessor = (schema, ctx, _json, params) => {
  const json = _json;
  const def = schema._zod.def;
  json.type = "object";
  const keyType = def.keyType;
  const patterns = aggregateChecks(keyType).patterns;
  if (def.mode === "loose" && patterns && patterns.size > 0) {
    const valueSchema = processSchema(def.valueType, ctx, {
      ...params,
      path: [...params.path, "patternProperties", "*"]
    });
    json.patternProperties = {};
    for (const pattern of patterns) {
      assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
    }
  } else {
    if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
      json.propertyNames = processSchema(def.keyType, ctx, {
        ...params,
        path: [...params.path, "propertyNames"]
      });
      let pending = pendingRecords.get(ctx);
      if (!pending) {
        pending = [];
        pendingRecords.set(ctx, pending);
        ctx.deferred.push(() => rewriteKeyNames(ctx));
      }
      pending.push(schema);
    }
    json.additionalProperties = processSchema(def.valueType, ctx, {
      ...params,
      path: [...params.path, "additionalProperties"]
    });
  }
  const keyValues = keyType._zod.values;
  const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== void 0;
  if (keyValues && !def.partial && !omittableOnInput) {
    const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
    if (validKeyValues.length > 0) {
      json.required = validKeyValues.map(String);
    }
  }
};
var nullableProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  const inner = processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  if (ctx.target === "openapi-3.0") {
    seen.ref = def.innerType;
    json.nullable = true;
  } else {
    json.anyOf = [inner, { type: "null" }];
  }
};
var nonoptionalProcessor = (schema, ctx, _json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
};
var UNREPRESENTABLE_DEFAULT = /* @__PURE__ */ Symbol();
function serializeDefaultValue(value2, schema, ctx, json, params) {
  let unrepresentable = false;
  const serialized = JSON.stringify(value2, (_, val) => {
    if (typeof val !== "bigint")
      return val;
    unrepresentable = true;
    return null;
  });
  if (!unrepresentable)
    return JSON.parse(serialized);
  handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
  return UNREPRESENTABLE_DEFAULT;
}
var defaultProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
  const value2 = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
  if (value2 !== UNREPRESENTABLE_DEFAULT)
    json.default = value2;
};
var prefaultProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
  if (ctx.io !== "input")
    return;
  const value2 = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
  if (value2 !== UNREPRESENTABLE_DEFAULT)
    json._prefault = value2;
};
var catchProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
  let catchValue;
  try {
    catchValue = def.catchValue(void 0);
  } catch {
    handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
    return;
  }
  json.default = catchValue;
};
var pipeProcessor = (schema, ctx, _json, params) => {
  const def = schema._zod.def;
  const inIsTransform = def.in._zod.traits.has("$ZodTransform");
  const innerType = ctx.io === "input" ? inIsTransform ? def.out : def.in : def.out;
  processSchema(innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = innerType;
};
var readonlyProcessor = (schema, ctx, json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
  json.readOnly = true;
};
var promiseProcessor = (schema, ctx, _json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
};
var optionalProcessor = (schema, ctx, _json, params) => {
  const def = schema._zod.def;
  processSchema(def.innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = def.innerType;
};
var lazyProcessor = (schema, ctx, _json, params) => {
  const innerType = schema._zod.innerType;
  processSchema(innerType, ctx, params);
  const seen = ctx.seen.get(schema);
  seen.ref = innerType;
};
var allProcessors = {
  string: stringProcessor,
  number: numberProcessor,
  boolean: booleanProcessor,
  bigint: bigintProcessor,
  symbol: symbolProcessor,
  null: nullProcessor,
  undefined: undefinedProcessor,
  void: voidProcessor,
  never: neverProcessor,
  any: anyProcessor,
  unknown: unknownProcessor,
  date: dateProcessor,
  enum: enumProcessor,
  literal: literalProcessor,
  nan: nanProcessor,
  template_literal: templateLiteralProcessor,
  file: fileProcessor,
  success: successProcessor,
  custom: customProcessor,
  function: functionProcessor,
  transform: transformProcessor,
  map: mapProcessor,
  set: setProcessor,
  array: arrayProcessor,
  object: objectProcessor,
  union: unionProcessor,
  intersection: intersectionProcessor,
  tuple: tupleProcessor,
  record: recordProcessor,
  nullable: nullableProcessor,
  nonoptional: nonoptionalProcessor,
  default: defaultProcessor,
  prefault: prefaultProcessor,
  catch: catchProcessor,
  pipe: pipeProcessor,
  readonly: readonlyProcessor,
  promise: promiseProcessor,
  optional: optionalProcessor,
  lazy: lazyProcessor
};
function toJSONSchema(input, params) {
  if ("_idmap" in input) {
    const registry2 = input;
    const ctx2 = initializeContext({ ...params, processors: allProcessors });
    const defs = {};
    for (const entry of registry2._idmap.entries()) {
      const [_, schema] = entry;
      processSchema(schema, ctx2);
    }
    const schemas2 = {};
    const external = {
      registry: registry2,
      uri: params?.uri,
      defs
    };
    ctx2.external = external;
    for (const entry of registry2._idmap.entries()) {
      const [key, schema] = entry;
      extractDefs(ctx2, schema);
      assignProp(schemas2, key, finalize(ctx2, schema));
    }
    if (Object.keys(defs).length > 0) {
      const defsSegment = ctx2.target === "draft-2020-12" ? "$defs" : "definitions";
      schemas2.__shared = {
        [defsSegment]: defs
      };
    }
    return { schemas: schemas2 };
  }
  const ctx = initializeContext({ ...params, processors: allProcessors });
  processSchema(input, ctx);
  extractDefs(ctx, input);
  return finalize(ctx, input);
}

// node_modules/zod/v4/classic/errors.js
var _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
function _lazyMethod(proto, key, make) {
  Object.defineProperty(proto, key, {
    configurable: true,
    enumerable: false,
    get() {
      const value2 = make(this);
      Object.defineProperty(this, key, { value: value2, configurable: true, writable: true });
      return value2;
    },
    set(value2) {
      Object.defineProperty(this, key, { value: value2, configurable: true, writable: true });
    }
  });
}
var initializer2 = (inst, issues) => {
  $ZodError.init(inst, issues);
  inst.name = "ZodError";
  const proto = Object.getPrototypeOf(inst);
  if (_installedErrorProtos.has(proto))
    return;
  _installedErrorProtos.add(proto);
  _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
  _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
  _lazyMethod(proto, "addIssue", (self) => (issue3) => {
    self.issues.push(issue3);
    self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
  });
  _lazyMethod(proto, "addIssues", (self) => (issues2) => {
    self.issues.push(...issues2);
    self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
  });
  Object.defineProperty(proto, "isEmpty", {
    configurable: true,
    enumerable: false,
    get() {
      return this.issues.length === 0;
    }
  });
};
var ZodRealError = /* @__PURE__ */ $constructor("ZodError", initializer2, void 0, {
  Parent: Error
});

// node_modules/zod/v4/classic/parse.js
var parse = /* @__PURE__ */ _parse(ZodRealError);
var parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
var safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
var safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);
var encode = /* @__PURE__ */ _encode(ZodRealError);
var decode = /* @__PURE__ */ _decode(ZodRealError);
var encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
var decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
var safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
var safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
var safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
var safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

// node_modules/zod/v4/classic/schemas.js
function _ensureDefaultLocale() {
  if (!globalConfig.localeError)
    config(en_default());
}
function _ensureDefaultMemoizer() {
  if (!globalConfig.memoizer)
    config({ memoizer: memoizer() });
}
var ZodType = /* @__PURE__ */ $constructor("ZodType", (inst, def) => {
  _ensureDefaultLocale();
  $ZodType.init(inst, def);
  inst.def = def;
  inst.type = def.type;
  return inst;
}, {
  check(...chks) {
    const def = this.def;
    return this.clone(util_exports.mergeDefs(def, {
      checks: [
        ...def.checks ?? [],
        ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch)
      ]
    }), { parent: true });
  },
  with(...chks) {
    return this.check(...chks);
  },
  clone(def, params) {
    return clone(this, def, params);
  },
  brand() {
    return this;
  },
  register(reg, meta2) {
    reg.add(this, meta2);
    return this;
  },
  refine(check, params) {
    return this.check(refine(check, params));
  },
  superRefine(refinement, params) {
    return this.check(superRefine(refinement, params));
  },
  overwrite(fn) {
    return this.check(_overwrite(fn));
  },
  optional() {
    return optional(this);
  },
  exactOptional() {
    return exactOptional(this);
  },
  nullable() {
    return nullable(this);
  },
  nullish() {
    return optional(nullable(this));
  },
  nonoptional(params) {
    return nonoptional(this, params);
  },
  array() {
    return array(this);
  },
  or(arg) {
    return union([this, arg]);
  },
  and(arg) {
    return intersection(this, arg);
  },
  transform(tx) {
    return pipe(this, transform(tx));
  },
  default(d) {
    return _default(this, d);
  },
  prefault(d) {
    return prefault(this, d);
  },
  catch(params) {
    return _catch(this, params);
  },
  pipe(target) {
    return pipe(this, target);
  },
  readonly() {
    return readonly(this);
  },
  describe(description) {
    const cl = this.clone();
    globalRegistry.add(cl, { description });
    return cl;
  },
  meta(...args) {
    if (args.length === 0)
      return globalRegistry.get(this);
    const cl = this.clone();
    globalRegistry.add(cl, args[0]);
    return cl;
  },
  isOptional() {
    return this.safeParse(void 0).success;
  },
  isNullable() {
    return this.safeParse(null).success;
  },
  apply(fn, ...args) {
    return args.length === 0 ? fn(this) : fn(this, ...args);
  },
  // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
  get "~standard"() {
    return util_exports.hide(this, "~standard", {
      ...standardProps(this),
      jsonSchema: {
        input: createStandardJSONSchemaMethod(this, "input"),
        output: createStandardJSONSchemaMethod(this, "output")
      }
    });
  },
  set "~standard"(value2) {
    util_exports.own(this, "~standard", value2);
  },
  parse: function _parse2(data, params) {
    return parse(this, data, params, { callee: _parse2 });
  },
  parseAsync: async function _parseAsync2(data, params) {
    return await parseAsync(this, data, params, { callee: _parseAsync2 });
  },
  safeParse(data, params) {
    return safeParse(this, data, params);
  },
  async safeParseAsync(data, params) {
    return safeParseAsync(this, data, params);
  },
  // `spa` is an alias: same function object as `safeParseAsync`, as before.
  get spa() {
    return this?.safeParseAsync;
  },
  set spa(value2) {
    util_exports.own(this, "spa", value2);
  },
  validate(data, params) {
    return validate(this, data, params);
  },
  validateAsync(data, params) {
    return validateAsync(this, data, params);
  },
  encode: function _encode2(data, params) {
    return encode(this, data, params, { callee: _encode2 });
  },
  decode: function _decode2(data, params) {
    return decode(this, data, params, { callee: _decode2 });
  },
  encodeAsync: async function _encodeAsync2(data, params) {
    return await encodeAsync(this, data, params, { callee: _encodeAsync2 });
  },
  decodeAsync: async function _decodeAsync2(data, params) {
    return await decodeAsync(this, data, params, { callee: _decodeAsync2 });
  },
  safeEncode(data, params) {
    return safeEncode(this, data, params);
  },
  safeDecode(data, params) {
    return safeDecode(this, data, params);
  },
  async safeEncodeAsync(data, params) {
    return safeEncodeAsync(this, data, params);
  },
  async safeDecodeAsync(data, params) {
    return safeDecodeAsync(this, data, params);
  },
  toJSONSchema(params) {
    return createToJSONSchemaMethod(this, {})(params);
  },
  // Reads through to the registry on every access, so it must not cache.
  get description() {
    return globalRegistry.get(this)?.description;
  },
  // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
  get _def() {
    return this._zod.def;
  }
});
var _ZodString = /* @__PURE__ */ $constructor(
  "_ZodString",
  (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json, params);
  },
  /* @__PURE__ */ util_exports.derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null
  }, {
    regex(...args) {
      return this.check(_regex(...args));
    },
    includes(...args) {
      return this.check(_includes(...args));
    },
    startsWith(...args) {
      return this.check(_startsWith(...args));
    },
    endsWith(...args) {
      return this.check(_endsWith(...args));
    },
    min(...args) {
      return this.check(_minLength(...args));
    },
    max(...args) {
      return this.check(_maxLength(...args));
    },
    length(...args) {
      return this.check(_length(...args));
    },
    nonempty(...args) {
      return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
      return this.check(_lowercase(params));
    },
    uppercase(params) {
      return this.check(_uppercase(params));
    },
    trim() {
      return this.check(_trim());
    },
    normalize(...args) {
      return this.check(_normalize(...args));
    },
    toLowerCase() {
      return this.check(_toLowerCase());
    },
    toUpperCase() {
      return this.check(_toUpperCase());
    },
    slugify() {
      return this.check(_slugify());
    }
  })
);
var ZodString = /* @__PURE__ */ $constructor("ZodString", (inst, def) => {
  $ZodString.init(inst, def);
  _ZodString.init(inst, def);
}, {
  email(params) {
    return this.check(_email(ZodEmail, params));
  },
  url(params) {
    return this.check(_url(ZodURL, params));
  },
  jwt(params) {
    return this.check(_jwt(ZodJWT, params));
  },
  emoji(params) {
    return this.check(_emoji2(ZodEmoji, params));
  },
  guid(params) {
    return this.check(_guid(ZodGUID, params));
  },
  uuid(params) {
    return this.check(_uuid(ZodUUID, params));
  },
  uuidv4(params) {
    return this.check(_uuidv4(ZodUUID, params));
  },
  uuidv6(params) {
    return this.check(_uuidv6(ZodUUID, params));
  },
  uuidv7(params) {
    return this.check(_uuidv7(ZodUUID, params));
  },
  nanoid(params) {
    return this.check(_nanoid(ZodNanoID, params));
  },
  cuid(params) {
    return this.check(_cuid(ZodCUID, params));
  },
  cuid2(params) {
    return this.check(_cuid2(ZodCUID2, params));
  },
  ulid(params) {
    return this.check(_ulid(ZodULID, params));
  },
  base64(params) {
    return this.check(_base64(ZodBase64, params));
  },
  base64url(params) {
    return this.check(_base64url(ZodBase64URL, params));
  },
  xid(params) {
    return this.check(_xid(ZodXID, params));
  },
  ksuid(params) {
    return this.check(_ksuid(ZodKSUID, params));
  },
  ipv4(params) {
    return this.check(_ipv4(ZodIPv4, params));
  },
  ipv6(params) {
    return this.check(_ipv6(ZodIPv6, params));
  },
  cidrv4(params) {
    return this.check(_cidrv4(ZodCIDRv4, params));
  },
  cidrv6(params) {
    return this.check(_cidrv6(ZodCIDRv6, params));
  },
  e164(params) {
    return this.check(_e164(ZodE164, params));
  },
  datetime(params) {
    return this.check(_isoDateTime(ZodISODateTime, params));
  },
  date(params) {
    return this.check(_isoDate(ZodISODate, params));
  },
  time(params) {
    return this.check(_isoTime(ZodISOTime, params));
  },
  duration(params) {
    return this.check(_isoDuration(ZodISODuration, params));
  }
});
function string2(params) {
  return _string(ZodString, params);
}
var ZodStringFormat = /* @__PURE__ */ $constructor("ZodStringFormat", (inst, def) => {
  $ZodStringFormat.init(inst, def);
  _ZodString.init(inst, def);
});
var ZodISODateTime = /* @__PURE__ */ $constructor("ZodISODateTime", (inst, def) => {
  $ZodISODateTime.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodISODate = /* @__PURE__ */ $constructor("ZodISODate", (inst, def) => {
  $ZodISODate.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodISOTime = /* @__PURE__ */ $constructor("ZodISOTime", (inst, def) => {
  $ZodISOTime.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodISODuration = /* @__PURE__ */ $constructor("ZodISODuration", (inst, def) => {
  $ZodISODuration.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodEmail = /* @__PURE__ */ $constructor("ZodEmail", (inst, def) => {
  $ZodEmail.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodGUID = /* @__PURE__ */ $constructor("ZodGUID", (inst, def) => {
  $ZodGUID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodUUID = /* @__PURE__ */ $constructor("ZodUUID", (inst, def) => {
  $ZodUUID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodURL = /* @__PURE__ */ $constructor("ZodURL", (inst, def) => {
  $ZodURL.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodEmoji = /* @__PURE__ */ $constructor("ZodEmoji", (inst, def) => {
  $ZodEmoji.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodNanoID = /* @__PURE__ */ $constructor("ZodNanoID", (inst, def) => {
  $ZodNanoID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodCUID = /* @__PURE__ */ $constructor("ZodCUID", (inst, def) => {
  $ZodCUID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodCUID2 = /* @__PURE__ */ $constructor("ZodCUID2", (inst, def) => {
  $ZodCUID2.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodULID = /* @__PURE__ */ $constructor("ZodULID", (inst, def) => {
  $ZodULID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodXID = /* @__PURE__ */ $constructor("ZodXID", (inst, def) => {
  $ZodXID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodKSUID = /* @__PURE__ */ $constructor("ZodKSUID", (inst, def) => {
  $ZodKSUID.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodIPv4 = /* @__PURE__ */ $constructor("ZodIPv4", (inst, def) => {
  $ZodIPv4.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodIPv6 = /* @__PURE__ */ $constructor("ZodIPv6", (inst, def) => {
  $ZodIPv6.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodCIDRv4 = /* @__PURE__ */ $constructor("ZodCIDRv4", (inst, def) => {
  $ZodCIDRv4.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodCIDRv6 = /* @__PURE__ */ $constructor("ZodCIDRv6", (inst, def) => {
  $ZodCIDRv6.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodBase64 = /* @__PURE__ */ $constructor("ZodBase64", (inst, def) => {
  $ZodBase64.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodBase64URL = /* @__PURE__ */ $constructor("ZodBase64URL", (inst, def) => {
  $ZodBase64URL.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodE164 = /* @__PURE__ */ $constructor("ZodE164", (inst, def) => {
  $ZodE164.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodJWT = /* @__PURE__ */ $constructor("ZodJWT", (inst, def) => {
  $ZodJWT.init(inst, def);
  ZodStringFormat.init(inst, def);
});
var ZodNumber = /* @__PURE__ */ $constructor(
  "ZodNumber",
  (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
  },
  /* @__PURE__ */ util_exports.derived({
    minValue: (inst) => {
      const { minimum, exclusiveMinimum } = aggregateChecks(inst);
      return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
      const { maximum, exclusiveMaximum } = aggregateChecks(inst);
      return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
      const { isInt, multipleOf } = aggregateChecks(inst);
      return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null
  }, {
    gt(value2, params) {
      return this.check(_gt(value2, params));
    },
    gte(value2, params) {
      return this.check(_gte(value2, params));
    },
    min(value2, params) {
      return this.check(_gte(value2, params));
    },
    lt(value2, params) {
      return this.check(_lt(value2, params));
    },
    lte(value2, params) {
      return this.check(_lte(value2, params));
    },
    max(value2, params) {
      return this.check(_lte(value2, params));
    },
    int(params) {
      return this.check(int(params));
    },
    safe(params) {
      return this.check(int(params));
    },
    positive(params) {
      return this.check(_gt(0, params));
    },
    nonnegative(params) {
      return this.check(_gte(0, params));
    },
    negative(params) {
      return this.check(_lt(0, params));
    },
    nonpositive(params) {
      return this.check(_lte(0, params));
    },
    multipleOf(value2, params) {
      return this.check(_multipleOf(value2, params));
    },
    step(value2, params) {
      return this.check(_multipleOf(value2, params));
    },
    finite() {
      return this;
    }
  })
);
function number2(params) {
  return _number(ZodNumber, params);
}
var ZodNumberFormat = /* @__PURE__ */ $constructor("ZodNumberFormat", (inst, def) => {
  $ZodNumberFormat.init(inst, def);
  ZodNumber.init(inst, def);
});
function int(params) {
  return _int(ZodNumberFormat, params);
}
var ZodBoolean = /* @__PURE__ */ $constructor("ZodBoolean", (inst, def) => {
  $ZodBoolean.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json, params);
});
function boolean2(params) {
  return _boolean(ZodBoolean, params);
}
var ZodUnknown = /* @__PURE__ */ $constructor("ZodUnknown", (inst, def) => {
  $ZodUnknown.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor(inst, ctx, json, params);
});
function unknown() {
  return _unknown(ZodUnknown);
}
var ZodNever = /* @__PURE__ */ $constructor("ZodNever", (inst, def) => {
  $ZodNever.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json, params);
});
function never(params) {
  return _never(ZodNever, params);
}
var ZodArray = /* @__PURE__ */ $constructor("ZodArray", (inst, def) => {
  _ensureDefaultMemoizer();
  $ZodArray.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
  inst.element = def.element;
}, {
  min(n, params) {
    return this.check(_minLength(n, params));
  },
  nonempty(params) {
    return this.check(_minLength(1, params));
  },
  max(n, params) {
    return this.check(_maxLength(n, params));
  },
  length(n, params) {
    return this.check(_length(n, params));
  },
  unwrap() {
    return this.element;
  }
});
function array(element, params) {
  return _array(ZodArray, element, params);
}
var ZodObject = /* @__PURE__ */ $constructor("ZodObject", (inst, def) => {
  _ensureDefaultMemoizer();
  $ZodObjectJIT.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
  util_exports.installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
  keyof() {
    return _enum(Object.keys(this._zod.def.shape));
  },
  catchall(catchall) {
    return this.clone(util_exports.mergeDefs(this._zod.def, { catchall }));
  },
  passthrough() {
    return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: unknown() }));
  },
  loose() {
    return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: unknown() }));
  },
  strict() {
    return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: never() }));
  },
  strip() {
    return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: void 0 }));
  },
  extend(incoming) {
    return util_exports.extend(this, incoming);
  },
  safeExtend(incoming) {
    return util_exports.safeExtend(this, incoming);
  },
  merge(other) {
    return util_exports.merge(this, other);
  },
  pick(mask) {
    return util_exports.pick(this, mask);
  },
  omit(mask) {
    return util_exports.omit(this, mask);
  },
  partial(...args) {
    return util_exports.partial(ZodOptional, this, args[0]);
  },
  exactPartial(...args) {
    return util_exports.partial(ZodExactOptional, this, args[0], "exactPartial");
  },
  required(...args) {
    return util_exports.required(ZodNonOptional, this, args[0]);
  }
});
function strictObject(shape, params) {
  return new ZodObject({
    type: "object",
    shape,
    catchall: never(),
    ...util_exports.normalizeParams(params)
  });
}
function looseObject(shape, params) {
  return new ZodObject({
    type: "object",
    shape,
    catchall: unknown(),
    ...util_exports.normalizeParams(params)
  });
}
var ZodUnion = /* @__PURE__ */ $constructor("ZodUnion", (inst, def) => {
  $ZodUnion.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
  inst.options = def.options;
});
function union(options, params) {
  return new ZodUnion({
    type: "union",
    options,
    ...util_exports.normalizeParams(params)
  });
}
var ZodIntersection = /* @__PURE__ */ $constructor("ZodIntersection", (inst, def) => {
  $ZodIntersection.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
  return new ZodIntersection({
    type: "intersection",
    left,
    right
  });
}
var ZodRecord = /* @__PURE__ */ $constructor("ZodRecord", (inst, def) => {
  _ensureDefaultMemoizer();
  $ZodRecord.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
  inst.keyType = def.keyType;
  inst.valueType = def.valueType;
});
function record(keyType, valueType, params) {
  if (!valueType || !valueType._zod) {
    return new ZodRecord({
      type: "record",
      keyType: string2(),
      valueType: keyType,
      ...util_exports.normalizeParams(valueType)
    });
  }
  return new ZodRecord({
    type: "record",
    keyType,
    valueType,
    ...util_exports.normalizeParams(params)
  });
}
var ZodEnum = /* @__PURE__ */ $constructor("ZodEnum", (inst, def) => {
  $ZodEnum.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json, params);
  inst.enum = def.entries;
  inst.options = [...inst._zod.values];
  const keys = new Set(Object.keys(def.entries));
  inst.extract = (values, params) => {
    const newEntries = {};
    for (const value2 of values) {
      if (keys.has(value2)) {
        newEntries[value2] = def.entries[value2];
      } else
        throw new Error(`Key ${value2} not found in enum`);
    }
    return new ZodEnum({
      ...def,
      checks: [],
      ...util_exports.normalizeParams(params),
      entries: newEntries
    });
  };
  inst.exclude = (values, params) => {
    const newEntries = { ...def.entries };
    for (const value2 of values) {
      if (keys.has(value2)) {
        delete newEntries[value2];
      } else
        throw new Error(`Key ${value2} not found in enum`);
    }
    return new ZodEnum({
      ...def,
      checks: [],
      ...util_exports.normalizeParams(params),
      entries: newEntries
    });
  };
});
function _enum(values, params) {
  const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
  return new ZodEnum({
    type: "enum",
    entries,
    ...util_exports.normalizeParams(params)
  });
}
var ZodLiteral = /* @__PURE__ */ $constructor("ZodLiteral", (inst, def) => {
  $ZodLiteral.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => literalProcessor(inst, ctx, json, params);
  inst.values = new Set(def.values);
  Object.defineProperty(inst, "value", {
    get() {
      if (def.values.length > 1) {
        throw new Error("This schema contains multiple valid literal values. Use `.values` instead.");
      }
      return def.values[0];
    }
  });
});
function literal(value2, params) {
  return new ZodLiteral({
    type: "literal",
    values: Array.isArray(value2) ? value2 : [value2],
    ...util_exports.normalizeParams(params)
  });
}
var ZodTransform = /* @__PURE__ */ $constructor("ZodTransform", (inst, def) => {
  _ensureDefaultMemoizer();
  $ZodTransform.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
  inst._zod.parse = (payload, _ctx) => {
    if (_ctx.direction === "backward") {
      throw new $ZodEncodeError(inst.constructor.name);
    }
    payload.addIssue = (issue3) => {
      if (typeof issue3 === "string") {
        payload.issues.push(util_exports.issue(issue3, payload.value, def));
      } else {
        const _issue = issue3;
        if (_issue.fatal)
          _issue.continue = false;
        _issue.code ?? (_issue.code = "custom");
        if (!("input" in _issue))
          _issue.input = payload.value;
        _issue.inst ?? (_issue.inst = inst);
        payload.issues.push(util_exports.issue(_issue));
      }
    };
    const output = def.transform(payload.value, payload);
    if (output instanceof Promise) {
      return output.then((output2) => {
        payload.value = output2;
        return payload;
      });
    }
    payload.value = output;
    return payload;
  };
});
function transform(fn) {
  return new ZodTransform({
    type: "transform",
    transform: fn
  });
}
var ZodOptional = /* @__PURE__ */ $constructor("ZodOptional", (inst, def) => {
  $ZodOptional.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
  return new ZodOptional({
    type: "optional",
    innerType
  });
}
var ZodExactOptional = /* @__PURE__ */ $constructor("ZodExactOptional", (inst, def) => {
  $ZodExactOptional.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
  return new ZodExactOptional({
    type: "optional",
    innerType
  });
}
var ZodNullable = /* @__PURE__ */ $constructor("ZodNullable", (inst, def) => {
  $ZodNullable.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
  return new ZodNullable({
    type: "nullable",
    innerType
  });
}
var ZodDefault = /* @__PURE__ */ $constructor("ZodDefault", (inst, def) => {
  $ZodDefault.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
  inst.removeDefault = inst.unwrap;
});
function _default(innerType, defaultValue) {
  return new ZodDefault({
    type: "default",
    innerType,
    get defaultValue() {
      return typeof defaultValue === "function" ? defaultValue() : util_exports.shallowClone(defaultValue);
    }
  });
}
var ZodPrefault = /* @__PURE__ */ $constructor("ZodPrefault", (inst, def) => {
  $ZodPrefault.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
  return new ZodPrefault({
    type: "prefault",
    innerType,
    get defaultValue() {
      return typeof defaultValue === "function" ? defaultValue() : util_exports.shallowClone(defaultValue);
    }
  });
}
var ZodNonOptional = /* @__PURE__ */ $constructor("ZodNonOptional", (inst, def) => {
  $ZodNonOptional.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
  return new ZodNonOptional({
    type: "nonoptional",
    innerType,
    ...util_exports.normalizeParams(params)
  });
}
var ZodCatch = /* @__PURE__ */ $constructor("ZodCatch", (inst, def) => {
  $ZodCatch.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
  inst.removeCatch = inst.unwrap;
});
function _catch(innerType, catchValue) {
  return new ZodCatch({
    type: "catch",
    innerType,
    catchValue: typeof catchValue === "function" ? catchValue : util_exports.constantCatch(catchValue)
  });
}
var ZodPipe = /* @__PURE__ */ $constructor("ZodPipe", (inst, def) => {
  $ZodPipe.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
  inst.in = def.in;
  inst.out = def.out;
});
function pipe(in_, out) {
  return new ZodPipe({
    type: "pipe",
    in: in_,
    out
    // ...util.normalizeParams(params),
  });
}
var ZodReadonly = /* @__PURE__ */ $constructor("ZodReadonly", (inst, def) => {
  $ZodReadonly.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
  inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
  return new ZodReadonly({
    type: "readonly",
    innerType
  });
}
var ZodCustom = /* @__PURE__ */ $constructor("ZodCustom", (inst, def) => {
  $ZodCustom.init(inst, def);
  ZodType.init(inst, def);
  inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
function refine(fn, _params = {}) {
  return _refine(ZodCustom, fn, _params);
}
function superRefine(fn, params) {
  return _superRefine(fn, params);
}

// src/service/wire.ts
var API_PATHS = {
  createRun: (orgId) => `/v1/organizations/${orgId}/agent/run`,
  getRun: (orgId, runId) => `/v1/organizations/${orgId}/agent/run/${runId}`,
  resumeRun: (orgId) => `/v1/organizations/${orgId}/agent/run/resume`,
  runLogs: (orgId, runId) => `/v1/organizations/${orgId}/agent/run/${runId}/logs`,
  runLogsAlpha: (orgId, runId) => `/v1/alpha/organizations/${orgId}/agent/run/${runId}/logs`,
  listRuns: (orgId) => `/v1/organizations/${orgId}/agent/runs`,
  listRepositories: (orgId) => `/v1/organizations/${orgId}/repos`
};
var LOGS_PATH_CHOICES = ["auto", "spec", "alpha"];
var LogsPathChoiceSchema = _enum(LOGS_PATH_CHOICES, { error: `must be one of: ${LOGS_PATH_CHOICES.join(", ")}` });
var SOURCE_TYPES = [
  "LOCAL",
  "MESSAGING",
  "GIT_HOST",
  "GIT_HOST_CHECK_SUITE",
  "GIT_HOST_PR_REVIEW",
  "ISSUE_TRACKER_A",
  "API",
  "CHAT",
  "ISSUE_TRACKER_B",
  "ISSUE_TRACKER_C",
  "WORK_MGMT",
  "SETUP_COMMANDS"
];
var SourceTypeSchema = _enum(SOURCE_TYPES);
var SOURCE = {
  gitHost: "GIT_HOST",
  gitHostCheckSuite: "GIT_HOST_CHECK_SUITE",
  gitHostPrReview: "GIT_HOST_PR_REVIEW",
  api: "API",
  local: "LOCAL"
};
var AGENT_TYPES = ["native", "partner_code"];
var AgentTypeSchema = _enum(AGENT_TYPES);
var MESSAGE_TYPES = [
  "ACTION",
  "PLAN_EVALUATION",
  "FINAL_ANSWER",
  "ERROR",
  "USER_MESSAGE",
  "USER_GIT_HOST_ISSUE_COMMENT",
  "INITIAL_PR_GENERATION",
  "DETECT_PR_ERRORS",
  "FIX_PR_ERRORS",
  "PR_CREATION_FAILED",
  "PR_EVALUATION",
  "COMMIT_EVALUATION",
  "AGENT_RUN_LINK"
];
var TOOL_NAMES = { search: "ripgrep_search", write: "file_write" };
var LOGS_PAGE_MAX = 100;
var LOGS_PAGE_DEFAULT = 100;
var LIST_PAGE_MAX = 100;
var RATE_LIMITS = {
  standard: { points: 60, durationSeconds: 30 },
  sharedStrict: { points: 60, durationSeconds: 60 },
  create: { points: 10, durationSeconds: 60 },
  setupCommands: { points: 5, durationSeconds: 60 },
  logAnalysis: { points: 5, durationSeconds: 60 }
};
var KNOWN_STATUSES = {
  inProgress: ["ACTIVE", "PENDING", "RUNNING", "EVALUATION", "queued", "in_progress"],
  waitingForInput: ["PAUSED", "waiting_for_input"],
  succeeded: ["COMPLETE", "completed"],
  stopped: ["STOPPED", "CANCELLED"],
  failed: ["ERROR", "FAILED", "TIMEOUT", "MAX_ITERATIONS_REACHED", "OUT_OF_TOKENS"]
};
var nullableString = string2().nullish();
var GitHostPullRequestSchema = looseObject({
  id: number2().int().nullish(),
  title: nullableString,
  url: nullableString,
  created_at: nullableString,
  head_branch_name: nullableString
});
var AgentRunSchema = looseObject({
  id: number2({ error: "the response has no numeric run `id`" }).int(),
  organization_id: number2().int().nullish(),
  status: nullableString,
  created_at: nullableString,
  web_url: nullableString,
  result: nullableString,
  summary: nullableString,
  // An unknown source type is kept as a string rather than rejecting the whole run.
  source_type: string2().nullish(),
  git_host_pull_requests: array(GitHostPullRequestSchema).nullish(),
  metadata: record(string2(), unknown()).nullish()
});
var LogEntrySchema = looseObject({
  agent_run_id: number2().int().nullish(),
  created_at: nullableString,
  message_type: string2().nullish(),
  thought: nullableString,
  tool_name: nullableString,
  tool_input: unknown().optional(),
  tool_output: unknown().optional(),
  observation: unknown().optional()
});
var AgentRunWithLogsSchema = looseObject({
  id: number2({ error: "the logs response has no numeric run `id`" }).int(),
  organization_id: number2().int().nullish(),
  status: nullableString,
  created_at: nullableString,
  web_url: nullableString,
  result: nullableString,
  logs: array(LogEntrySchema).nullish().transform((logs) => logs ?? []),
  total_logs: number2().int().nullish(),
  page: number2().int().nullish(),
  size: number2().int().nullish(),
  pages: number2().int().nullish()
});
function pageOf(item) {
  return looseObject({
    items: array(item).nullish().transform((items) => items ?? []),
    total: number2().int().nullish(),
    page: number2().int().nullish(),
    size: number2().int().nullish(),
    pages: number2().int().nullish()
  });
}
var RunsPageSchema = pageOf(AgentRunSchema);
var ServiceRepositorySchema = looseObject({
  id: number2({ error: "a repository has no numeric `id`" }).int(),
  name: nullableString,
  full_name: nullableString,
  github_id: number2().int().nullish()
});
var RepositoriesPageSchema = pageOf(ServiceRepositorySchema);
var ErrorBodySchema = looseObject({
  message: string2().optional(),
  detail: union([
    string2(),
    array(
      looseObject({
        loc: array(union([string2(), number2()])).optional(),
        msg: string2().optional(),
        type: string2().optional()
      })
    )
  ]).optional(),
  status_code: number2().int().optional()
});
var DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/;
var ImageDataUriSchema = string2().regex(DATA_URI, { error: "each image must be a base64 data URI such as data:image/png;base64,iVBOR…" });
var MetadataSchema = record(string2(), unknown(), {
  error: 'metadata must be a JSON object such as {"key":"value"}'
});
var CreateRunRequestSchema = strictObject({
  prompt: string2({ error: "prompt is required" }).trim().min(1, { error: "prompt must not be empty" }),
  images: array(ImageDataUriSchema).nullish(),
  metadata: MetadataSchema.nullish(),
  repo_id: number2().int().positive({ error: "repo_id must be a positive integer" }).nullish(),
  model: string2().min(1).nullish(),
  agent_type: _enum(AGENT_TYPES, { error: `agent_type must be one of: ${AGENT_TYPES.join(", ")}` }).nullish()
});
var ResumeRunRequestSchema = strictObject({
  agent_run_id: number2().int().positive({ error: "agent_run_id must be a positive integer" }),
  prompt: string2({ error: "prompt is required" }).trim().min(1, { error: "prompt must not be empty" })
});
var LogsQuerySchema = strictObject({
  skip: number2().int().min(0, { error: "skip must be 0 or more" }).default(0),
  limit: number2().int().min(1, { error: `limit must be between 1 and ${LOGS_PAGE_MAX}` }).max(LOGS_PAGE_MAX, { error: `limit must be between 1 and ${LOGS_PAGE_MAX}` }).default(LOGS_PAGE_DEFAULT)
});
var pageQuery = {
  skip: number2().int().min(0, { error: "skip must be 0 or more" }).default(0),
  limit: number2().int().min(1, { error: `limit must be between 1 and ${LIST_PAGE_MAX}` }).max(LIST_PAGE_MAX, { error: `limit must be between 1 and ${LIST_PAGE_MAX}` }).default(LIST_PAGE_MAX)
};
var ListRunsQuerySchema = strictObject({
  ...pageQuery,
  source_type: SourceTypeSchema.optional(),
  user_id: number2().int().positive({ error: "user_id must be a positive integer" }).optional()
});
var ListRepositoriesQuerySchema = strictObject(pageQuery);
var BRIDGE_METADATA_KEYS = { deliveryId: "delivery_id", bridgeTaskId: "bridge_task_id" };

// src/config/issues.ts
function formatFieldPath(path) {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
function valueAt(input, path) {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return { found: false, value: void 0 };
    const record2 = current;
    if (!(segment in record2)) return { found: false, value: void 0 };
    current = record2[segment];
  }
  return { found: true, value: current };
}
function describeGivenValue(value2) {
  if (value2 === null) return "null";
  if (Array.isArray(value2)) return value2.length === 0 ? "an empty list" : `a list of ${value2.length}`;
  if (typeof value2 === "object") return "a mapping";
  if (typeof value2 === "string") {
    const quoted = JSON.stringify(value2.length > 60 ? `${value2.slice(0, 57)}...` : value2);
    return value2.length > 60 ? `${quoted}, ${value2.length} characters` : quoted;
  }
  return String(value2);
}
function distance(a, b) {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}
function closestKey(key, allowed) {
  let best;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : void 0;
}
function describeIssues(issues, input, options = {}) {
  return locateIssues(issues, input, options).map((problem) => problem.message);
}
function locateIssues(issues, input, options = {}) {
  const label = options.label ?? ((path) => path === "" ? "configuration" : `\`${path}\``);
  const problems = [];
  for (const issue3 of issues) {
    if (issue3.code === "unrecognized_keys") {
      const allowed = options.allowedKeysAt?.(issue3.path) ?? [];
      for (const key of issue3.keys) {
        const path = [...issue3.path, key];
        const guess = (options.suggest ?? closestKey)(key, allowed);
        const hint = guess ? ` Did you mean \`${guess}\`?` : "";
        const list = allowed.length > 0 ? ` Allowed keys here: ${allowed.join(", ")}.` : "";
        problems.push({ path, unknownKey: true, message: `${label(formatFieldPath(path))}: unknown key (a typo?).${hint}${list}` });
      }
      continue;
    }
    const given = valueAt(input, issue3.path);
    const got = given.found ? ` (got ${describeGivenValue(given.value)})` : " (missing)";
    problems.push({ path: [...issue3.path], message: `${label(formatFieldPath(issue3.path))}: ${issue3.message}${got}` });
  }
  return problems;
}

// src/config/key-suggestions.ts
var KEY_ALIASES = {
  trigger_phrase: ["trigger", "phrase", "command", "prefix", "trigger_word", "keyword"],
  mention: ["mentions", "on_mention", "mention_trigger"],
  repo_id: ["repository_id", "repo", "repository"],
  model: ["models", "llm"],
  agent_type: ["agent", "type", "agent_kind"],
  permissions: ["permission", "access", "allow", "allowed", "who"],
  minimum: ["min", "min_role", "role", "minimum_role", "level"],
  users: ["user", "allowed_users", "logins", "people"],
  teams: ["team", "allowed_teams"],
  label: ["labels", "trigger_label", "on_label"],
  reviews: ["review", "pull_request_review", "pr_reviews"],
  check_suite: ["check_suites", "checks", "ci", "auto_fix", "autofix", "ci_fix", "ci_fixes", "workflow_run", "fix_ci"],
  enabled: ["auto_fix", "autofix", "enable", "on", "active", "activated", "fix", "auto", "run"],
  max_attempts: ["attempts", "max_attempt", "max_retries", "retries", "max_tries", "tries", "max_fixes", "limit"],
  branches: ["branch", "only_branches", "include_branches", "branch_patterns"],
  ignore_checks: ["ignore", "ignored_checks", "skip_checks", "exclude_checks", "ignore_check", "ignored"],
  allow_forks: ["forks", "fork", "allow_fork", "include_forks", "fork_prs"],
  limits: ["limit", "quota", "quotas", "spend_limits", "guards", "budget"],
  runs_per_thread_per_day: ["per_thread", "thread", "runs_per_thread", "per_thread_per_day", "thread_runs_per_day"],
  runs_per_repo_per_hour: ["per_repo", "runs_per_repo", "per_hour", "runs_per_hour", "repo_runs_per_hour"],
  ci_fixes_per_repo_per_day: ["ci_fixes", "ci_fixes_per_day", "fixes_per_day", "ci_per_day"],
  kill_switch_label: ["kill_switch", "killswitch", "off_label", "stop_label", "disable_label", "pause_label", "off_switch"],
  follow_up: ["followup", "follow_ups", "followups", "follow_up_policy"],
  instructions: ["instruction", "prompt", "system_prompt", "rules", "custom_instructions", "guidelines"]
};
var normalise = (key) => key.trim().toLowerCase().replace(/[-\s.]+/g, "_");
function suggestKey(key, allowed) {
  const wanted = normalise(key);
  const exact = allowed.find((candidate) => candidate === wanted);
  if (exact) return exact;
  const aliased = allowed.find((candidate) => KEY_ALIASES[candidate]?.includes(wanted));
  return aliased ?? closestKey(wanted, allowed);
}

// src/config/schema.ts
var REPO_ROLES = ["none", "read", "triage", "write", "maintain", "admin"];
var MINIMUM_ROLES = ["write", "maintain", "admin"];
var FOLLOW_UP_POLICIES = ["queue", "new"];
var INSTRUCTIONS_MAX_CHARS = 4e3;
var MAX_ATTEMPTS_LIMIT = 20;
var objectError = (keys) => (issue3) => issue3.code === "invalid_type" ? `must be a mapping with the keys ${keys}` : void 0;
var booleanField = () => boolean2({ error: "must be true or false" });
var intBetween = (min, max) => {
  const error3 = `must be an integer between ${min} and ${max}`;
  return number2({ error: error3 }).int({ error: error3 }).min(min, { error: error3 }).max(max, { error: error3 });
};
var LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
var TEAM = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?\/)?[A-Za-z0-9][A-Za-z0-9_.-]*$/;
var TriggerPhraseSchema = string2({ error: 'must be a string such as "/agent"' }).regex(/^\S(?:[^\r\n]*\S)?$/, {
  error: 'must be one line that starts and ends with a non-space character, such as "/agent"'
}).max(100, { error: "must be at most 100 characters" }).default("/agent").meta({
  description: "Text that starts a run when a comment line begins with it (case-insensitive), e.g. `/agent fix the typo`. `/agent new …` forces a fresh run."
});
var MentionSchema = booleanField().default(true).meta({ description: "Whether a mention of the app (`@<app-slug>` or `@<app-slug>[bot]`) anywhere in a comment also starts a run." });
var RepoIdSchema = number2({ error: "must be a positive integer (the service's repository id)" }).int({ error: "must be a positive integer (the service's repository id)" }).positive({ error: "must be a positive integer (the service's repository id)" }).optional().meta({
  description: "The Agent Run Service's id of this repository. Unset: the id the service lists for this GitHub repository (asked once an hour), else none and the organization's default applies."
});
var ModelSchema = string2({ error: "must be a model name (a string)" }).min(1, { error: "must not be empty; remove the key to use the organization's default model" }).optional().meta({ description: "Model for the runs. Unset: the organization's default." });
var AgentTypeFieldSchema = _enum(AGENT_TYPES, { error: `must be one of: ${AGENT_TYPES.join(", ")}` }).optional().meta({ description: "Agent type for the runs. Unset: the organization's default." });
var PermissionsSchema = strictObject(
  {
    minimum: _enum(MINIMUM_ROLES, { error: `must be one of: ${MINIMUM_ROLES.join(", ")}` }).default("write").meta({ description: "Lowest repository role that may trigger a run." }),
    users: array(
      string2({ error: 'each entry must be a GitHub login such as "octocat"' }).regex(LOGIN, {
        error: 'each entry must be a GitHub login such as "octocat" (without the @)'
      }),
      { error: 'must be a list of GitHub logins such as ["octocat"]' }
    ).default([]).meta({ description: "Logins that may trigger a run whatever their role." }),
    teams: array(
      string2({ error: 'each entry must be a team such as "my-org/reviewers" or "reviewers"' }).regex(TEAM, {
        error: `each entry must be a team such as "my-org/reviewers" or "reviewers" (the repository owner's organization)`
      }),
      { error: 'must be a list of teams such as ["my-org/reviewers"]' }
    ).default([]).meta({
      description: "Teams (`org/team-slug`, or `team-slug` in the repository owner's organization) whose members may trigger a run whatever their role."
    })
  },
  { error: objectError("minimum, users, teams") }
).prefault({}).meta({
  description: "Who may trigger a run: anyone whose role is at least `minimum`, OR listed in `users`, OR a member of one of `teams`. CI auto-fix is started by GitHub itself and needs no permission."
});
var LabelSchema = strictObject(
  {
    enabled: booleanField().default(true).meta({ description: "Whether adding the label to an issue starts a run." }),
    name: string2({ error: 'must be a label name such as "agent"' }).trim().min(1, { error: 'must not be empty (a label name such as "agent")' }).max(50, { error: "must be at most 50 characters (GitHub's limit for label names)" }).default("agent").meta({ description: "Label that starts a run on the issue it is added to (case-insensitive)." })
  },
  { error: objectError("enabled, name") }
).prefault({}).meta({ description: "Start a run when a label is added to an issue." });
var ReviewsSchema = strictObject(
  {
    enabled: booleanField().default(true).meta({
      description: "Whether pull request reviews start runs: a review requesting changes, or a review or review comment containing the trigger."
    })
  },
  { error: objectError("enabled") }
).prefault({}).meta({ description: "Act on pull request reviews." });
var CheckSuiteSchema = strictObject(
  {
    enabled: booleanField().default(false).meta({ description: "Whether failing CI on a pull request starts a run that tries to fix it." }),
    max_attempts: intBetween(1, MAX_ATTEMPTS_LIMIT).default(3).meta({ description: "Fix attempts per pull request before it is handed back to humans." }),
    branches: array(
      string2({ error: 'each entry must be a glob pattern such as "feature/**"' }).regex(/^[^!\s]/, {
        error: 'each entry must be a non-empty glob pattern such as "feature/**" (a leading "!" is not supported: list the branches to include)'
      }),
      { error: 'must be a list of glob patterns such as ["main", "feature/**"]' }
    ).default([]).meta({ description: "Glob patterns on the pull request's head branch (`*`, `**`, `?`). Empty: every branch." }),
    ignore_checks: array(
      string2({ error: 'each entry must be a check name or glob pattern such as "lint*"' }).min(1, { error: 'each entry must be a non-empty check name or glob pattern such as "lint*"' }),
      { error: 'must be a list of check names or glob patterns such as ["lint*"]' }
    ).default([]).meta({ description: "Check run (or job) names whose failure is ignored; glob patterns allowed." }),
    allow_forks: booleanField().default(false).meta({ description: "Whether failing CI on pull requests from forks is fixed too." })
  },
  { error: objectError("enabled, max_attempts, branches, ignore_checks, allow_forks") }
).prefault({}).meta({ description: "Fix failing CI on pull requests (check suites in the App, workflow runs in the Action)." });
var FollowUpSchema = _enum(FOLLOW_UP_POLICIES, { error: `must be one of: ${FOLLOW_UP_POLICIES.join(", ")}` }).default("queue").meta({
  description: "What a follow-up comment does while the thread's run is still working: `queue` (resume the run when it finishes) or `new` (start another run)."
});
var InstructionsSchema = string2({ error: "must be text (a string)" }).max(INSTRUCTIONS_MAX_CHARS, { error: `must be at most ${INSTRUCTIONS_MAX_CHARS} characters` }).default("").meta({ description: "Text appended to every prompt, e.g. house rules for the agent." });
var RUN_LIMIT_MAX = 1e4;
var RUN_LIMIT_NAMES = ["runs_per_thread_per_day", "runs_per_repo_per_hour", "ci_fixes_per_repo_per_day"];
var LimitsSchema = strictObject(
  {
    runs_per_thread_per_day: intBetween(1, RUN_LIMIT_MAX).default(20).meta({ description: "Runs one issue or pull request may start (created or resumed, CI fixes included) in any 24 hours." }),
    runs_per_repo_per_hour: intBetween(1, RUN_LIMIT_MAX).default(30).meta({ description: "Runs the whole repository may start (created or resumed) in any 60 minutes." }),
    ci_fixes_per_repo_per_day: intBetween(1, RUN_LIMIT_MAX).default(20).meta({ description: "CI auto-fix runs the whole repository may start in any 24 hours." })
  },
  { error: objectError(RUN_LIMIT_NAMES.join(", ")) }
).prefault({}).meta({
  description: "Spend guards. Over a limit, nothing is sent to the service and the thread gets one short reply saying which limit, its count and when it frees (at most one such reply per thread per window)."
});
var KillSwitchLabelSchema = string2({ error: 'must be a label name such as "agent:off"' }).trim().min(1, { error: 'must not be empty (a label name such as "agent:off")' }).max(50, { error: "must be at most 50 characters (GitHub's limit for label names)" }).default("agent:off").meta({
  description: "Label that switches the agent off in its issue or pull request (case-insensitive): while it is there, no run of any kind starts there, CI auto-fix included."
});
var REPO_CONFIG_FIELDS = {
  trigger_phrase: TriggerPhraseSchema,
  mention: MentionSchema,
  repo_id: RepoIdSchema,
  model: ModelSchema,
  agent_type: AgentTypeFieldSchema,
  permissions: PermissionsSchema,
  label: LabelSchema,
  reviews: ReviewsSchema,
  check_suite: CheckSuiteSchema,
  limits: LimitsSchema,
  kill_switch_label: KillSwitchLabelSchema,
  follow_up: FollowUpSchema,
  instructions: InstructionsSchema
};
var RepoConfigSchema = strictObject(REPO_CONFIG_FIELDS, {
  error: (issue3) => issue3.code === "invalid_type" ? "must be a YAML mapping of keys to values, such as `trigger_phrase: /agent`" : void 0
});
var DEFAULT_REPO_CONFIG = RepoConfigSchema.parse({});
function objectSchemaOf(schema) {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof ZodObject) return current;
    const def = current._zod.def;
    if (!def.innerType) return void 0;
    current = def.innerType;
  }
  return void 0;
}
function allowedKeysAt(schema, path) {
  let object = objectSchemaOf(schema);
  for (const segment of path) {
    if (!object || typeof segment !== "string") return void 0;
    const child = object.shape[segment];
    object = child ? objectSchemaOf(child) : void 0;
  }
  return object ? Object.keys(object.shape) : void 0;
}
function parseRepoConfig(raw, options = {}) {
  const result = validateRepoConfig(raw, options);
  return result.ok ? result : { ok: false, errors: result.problems.map((problem) => problem.message) };
}
function validateRepoConfig(raw, options = {}) {
  let input = raw ?? {};
  if (input !== null && typeof input === "object" && !Array.isArray(input) && "_extends" in input) {
    const { _extends: _ignored, ...rest } = input;
    input = rest;
  }
  const result = RepoConfigSchema.safeParse(input);
  if (result.success) return { ok: true, config: result.data };
  const problems = locateIssues(result.error.issues, input, {
    allowedKeysAt: (path) => allowedKeysAt(RepoConfigSchema, path),
    label: options.label,
    suggest: suggestKey
  });
  return { ok: false, problems };
}

// src/action/inputs.ts
var MODES = ["auto", "create", "resume"];
var COMMENT_MODES = ["auto", "true", "false"];
var MAX_TIMEOUT_MINUTES = 7200;
var MAX_IMAGES = 10;
var INPUT_NAMES = [
  "api-url",
  "api-token",
  "org-id",
  "prompt",
  "mode",
  "run-id",
  "repo-id",
  "model",
  "agent-type",
  "metadata",
  "images",
  "trigger-phrase",
  "wait",
  "timeout-minutes",
  "comment",
  "github-token",
  "allowed-bots",
  "fail-on-error",
  "logs-path"
];
var SECRET_INPUTS = /* @__PURE__ */ new Set(["api-token", "github-token"]);
var QUOTED_BY_MESSAGE = /* @__PURE__ */ new Set(["metadata", "images", "allowed-bots", "prompt"]);
var InputError = class extends Error {
  name = "InputError";
  problems;
  constructor(problems) {
    super(`Invalid input${problems.length === 1 ? "" : "s"}: ${problems.join("; ")}.`);
    this.problems = problems;
  }
};
function inputVariable(name) {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}
function rawInput(env, name) {
  return (env[inputVariable(name)] ?? "").trim();
}
var required2 = (what) => (issue3) => issue3.input === void 0 ? `is required: ${what}` : void 0;
var positiveInt = (error3) => string2().regex(/^\d+$/, { error: error3 }).transform(Number).pipe(number2().int().positive({ error: error3 }).max(Number.MAX_SAFE_INTEGER, { error: error3 }));
var httpUrl = string2({ error: required2("the service's base URL, such as https://agents.example.com") }).refine(
  (value2) => {
    try {
      const url = new URL(value2);
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  },
  { error: "must be an http(s) URL such as https://agents.example.com, without credentials in it" }
);
var booleanText = (fallback) => _enum(["true", "True", "TRUE", "false", "False", "FALSE"], { error: "must be true or false" }).optional().transform((value2) => value2 === void 0 ? fallback : value2.toLowerCase() === "true");
var choiceText = (options, fallback) => string2().transform((value2) => value2.toLowerCase()).pipe(_enum(options, { error: `must be one of: ${options.join(", ")}` })).optional().transform((value2) => value2 ?? fallback);
var metadataText = string2().transform((text2, ctx) => {
  try {
    return JSON.parse(text2);
  } catch (error3) {
    ctx.addIssue({ code: "custom", message: `must be a JSON object such as {"ticket":"ENG-1"}, but it is not valid JSON (${error3.message})` });
    return NEVER;
  }
}).pipe(record(string2(), unknown(), { error: 'must be a JSON object such as {"ticket":"ENG-1"}, not an array, a string, a number or null' })).optional();
var lines = (text2, separator) => text2.split(separator).map((line) => line.trim()).filter((line) => line !== "");
var imagesText = string2().transform((text2, ctx) => {
  const entries = lines(text2, /\r?\n/);
  if (entries.length > MAX_IMAGES) {
    ctx.addIssue({ code: "custom", message: `lists ${entries.length} images; at most ${MAX_IMAGES} are accepted` });
    return NEVER;
  }
  return entries.map((entry, index) => {
    if (!entry.startsWith("data:")) return { kind: "file", path: entry };
    if (!ImageDataUriSchema.safeParse(entry).success) {
      ctx.addIssue({ code: "custom", message: `line ${index + 1} is not a base64 data URI such as data:image/png;base64,iVBOR…` });
    }
    return { kind: "data_uri", uri: entry };
  });
}).optional().transform((images) => images ?? []);
var LOGIN_OR_BOT = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
var allowedBotsText = string2().transform((text2, ctx) => {
  const entries = lines(text2, /[,\n]/).map((entry) => entry.replace(/^@/, ""));
  if (entries.includes("*")) return { all: true, logins: [] };
  for (const entry of entries) {
    if (!LOGIN_OR_BOT.test(entry)) ctx.addIssue({ code: "custom", message: `has ${JSON.stringify(entry)}, which is not a login such as renovate[bot] (or * for every bot)` });
  }
  return { all: false, logins: entries };
}).optional().transform((bots) => bots ?? { all: false, logins: [] });
var timeoutText = string2().regex(/^\d+(\.\d+)?$/, { error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` }).transform(Number).pipe(
  number2().positive({ error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` }).max(MAX_TIMEOUT_MINUTES, { error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` })
).optional().transform((minutes) => minutes ?? 60);
var triggerPhraseText = TriggerPhraseSchema.unwrap().optional();
var CROSS_INPUT = { crossInput: true };
var ActionInputsSchema = strictObject({
  "api-url": httpUrl,
  "api-token": string2({ error: required2("pass the service's API token from a secret, e.g. `api-token: ${{ secrets.AGENT_RUN_API_TOKEN }}`") }),
  "org-id": string2({ error: required2("the service's organization id, a positive integer") }).pipe(positiveInt("must be a positive integer (the service's organization id)")),
  prompt: string2().optional(),
  mode: choiceText(MODES, "auto"),
  "run-id": positiveInt("must be a positive integer (the id of the run to continue)").optional(),
  "repo-id": positiveInt("must be a positive integer (the service's repository id)").pipe(RepoIdSchema.unwrap()).optional(),
  model: ModelSchema,
  "agent-type": AgentTypeFieldSchema,
  metadata: metadataText,
  images: imagesText,
  "trigger-phrase": triggerPhraseText,
  wait: booleanText(true),
  "timeout-minutes": timeoutText,
  comment: choiceText(COMMENT_MODES, "auto"),
  "github-token": string2().optional(),
  "allowed-bots": allowedBotsText,
  "fail-on-error": booleanText(true),
  "logs-path": choiceText(LOGS_PATH_CHOICES, "auto")
}).superRefine((inputs, ctx) => {
  if (inputs.mode === "resume") {
    if (inputs["run-id"] === void 0) ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["run-id"], message: "is required with `mode: resume`: the id of the run to continue" });
    if (inputs.prompt === void 0) ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["prompt"], message: "is required with `mode: resume`: the follow-up instruction for the run" });
  } else if (inputs["run-id"] !== void 0) {
    ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["run-id"], message: `is only used with \`mode: resume\` (mode is ${inputs.mode}): remove it, or set \`mode: resume\`` });
  }
}).transform(
  (i) => ({
    apiUrl: i["api-url"],
    apiToken: i["api-token"],
    orgId: i["org-id"],
    prompt: i.prompt,
    mode: i.mode,
    runId: i.mode === "resume" ? i["run-id"] : void 0,
    repoId: i["repo-id"],
    model: i.model,
    agentType: i["agent-type"],
    metadata: i.metadata,
    images: i.images,
    triggerPhrase: i["trigger-phrase"],
    wait: i.wait,
    timeoutMinutes: i["timeout-minutes"],
    comment: i.comment,
    githubToken: i["github-token"] ?? "",
    allowedBots: i["allowed-bots"],
    failOnError: i["fail-on-error"],
    logsPath: i["logs-path"]
  })
);
var quote = (value2) => JSON.stringify(value2.length > 60 ? `${value2.slice(0, 57)}...` : value2);
function readInputs(env) {
  const raw = {};
  for (const name of INPUT_NAMES) {
    const value2 = rawInput(env, name);
    if (value2 !== "") raw[name] = value2;
  }
  const result = ActionInputsSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = [];
  for (const issue3 of result.error.issues) {
    const name = String(issue3.path[0] ?? "inputs");
    const given = raw[name];
    const crossInput = issue3.code === "custom" && issue3.params?.crossInput === true;
    const echo = given !== void 0 && !crossInput && !SECRET_INPUTS.has(name) && !QUOTED_BY_MESSAGE.has(name) && !issue3.message.startsWith("is required");
    const problem = `\`${name}\` ${issue3.message}${echo ? `, got ${quote(given)}` : ""}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  throw new InputError(problems);
}

// src/service/errors.ts
var AgentRunError = class extends Error {
  name = "AgentRunError";
  method;
  path;
  status;
  serverMessage;
  /** The rejected fields, when the service named them (empty otherwise). */
  fieldIssues;
  constructor(message, details = {}) {
    super(composeMessage(message, details), details.cause === void 0 ? void 0 : { cause: details.cause });
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.fieldIssues = details.fieldIssues ?? [];
  }
  /** The names of the rejected fields, e.g. ["prompt"]. */
  get rejectedFields() {
    return [...new Set(this.fieldIssues.map((issue3) => issue3.field))];
  }
};
function composeMessage(message, d) {
  const where = d.method && d.path ? ` [${d.method} ${d.path}]` : "";
  const server = d.serverMessage ? ` Server said: ${d.serverMessage}` : "";
  return `${message}${where}${server}`;
}
var RequestValidationError = class extends AgentRunError {
  name = "RequestValidationError";
  issues;
  constructor(what, issues) {
    super(`Invalid ${what}: ${issues.join("; ")}. Nothing was sent.`);
    this.issues = issues;
  }
};
var ConfigurationError = class extends AgentRunError {
  name = "ConfigurationError";
};
var InvalidResponseError = class extends AgentRunError {
  name = "InvalidResponseError";
};
var BadRequestError = class extends AgentRunError {
  name = "BadRequestError";
};
var AuthenticationError = class extends AgentRunError {
  name = "AuthenticationError";
};
var PermissionError = class extends AgentRunError {
  name = "PermissionError";
};
var NotFoundError = class extends AgentRunError {
  name = "NotFoundError";
};
var PaymentRequiredError = class extends AgentRunError {
  name = "PaymentRequiredError";
};
var UnprocessableError = class extends AgentRunError {
  name = "UnprocessableError";
};
var RateLimitError = class extends AgentRunError {
  name = "RateLimitError";
  retryAfterSeconds;
  constructor(message, details = {}) {
    super(message, details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
};
var ClientRequestError = class extends AgentRunError {
  name = "ClientRequestError";
};
var ServerError = class extends AgentRunError {
  name = "ServerError";
};
var NetworkError = class extends AgentRunError {
  name = "NetworkError";
  certainlyNotSent;
  constructor(message, details) {
    super(message, details);
    this.certainlyNotSent = details.certainlyNotSent;
  }
};
var TimeoutError = class extends AgentRunError {
  name = "TimeoutError";
};
var DeadlineError = class extends AgentRunError {
  name = "DeadlineError";
};
function listFields(fields) {
  if (fields.length <= 1) return fields.join("");
  return `${fields.slice(0, -1).join(", ")} and ${fields.at(-1)}`;
}
function errorForStatus(status, details) {
  const d = { ...details, status };
  const fields = [...new Set((details.fieldIssues ?? []).map((issue3) => issue3.field))];
  const named = fields.length > 0 ? listFields(fields.map((field) => `\`${field}\``)) : void 0;
  switch (status) {
    case 400:
      return new BadRequestError(
        named ? `The service rejected ${named} (400): fix ${fields.length === 1 ? "that field" : "those fields"} and send again.` : "The service rejected the request parameters (400): check the values sent.",
        d
      );
    case 401:
      return new AuthenticationError(
        "The API token was rejected (401): check AGENT_RUN_API_TOKEN (or --token / api-token).",
        d
      );
    case 403:
      return new PermissionError(
        "The API token has no permission for this organization or run (403): check AGENT_RUN_ORG_ID and the token's access.",
        d
      );
    case 404:
      return new NotFoundError(
        "Not found (404): check the run id and that it belongs to the organization in AGENT_RUN_ORG_ID.",
        d
      );
    case 402:
      return new PaymentRequiredError(
        "The organization's plan allowance is used up (402): add credits or raise the plan before starting more runs.",
        d
      );
    case 422:
      return new UnprocessableError(
        named ? `The service rejected ${named} (422): fix ${fields.length === 1 ? "that field" : "those fields"} and send again.` : "The service could not process the request (422): fix the fields it names.",
        d
      );
    case 429:
      return new RateLimitError(
        "The service's rate limit was exceeded (429): slow down, or wait for the window to pass.",
        d
      );
    default:
      if (status >= 500) {
        return new ServerError(`The service failed (${status}): try again later; if it persists, report it.`, d);
      }
      return new ClientRequestError(`The service refused the request (${status}).`, d);
  }
}
function certainlyNotActedOn(error3) {
  if (error3 instanceof RateLimitError) return true;
  if (error3 instanceof NetworkError) return error3.certainlyNotSent;
  return false;
}
function readErrorBody(text2) {
  if (!text2) return { fieldIssues: [] };
  let json;
  try {
    json = JSON.parse(text2);
  } catch {
    const plain = text2.slice(0, 300).trim();
    return plain ? { serverMessage: plain, fieldIssues: [] } : { fieldIssues: [] };
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) return { fieldIssues: [] };
  const { message, detail } = parsed.data;
  if (Array.isArray(detail)) {
    const fieldIssues = detail.map((issue3) => ({ field: fieldName(issue3.loc ?? []), message: (issue3.msg ?? issue3.type ?? "invalid").trim() }));
    const serverMessage = fieldIssues.map((issue3) => issue3.field ? `${issue3.field}: ${issue3.message}` : issue3.message).join("; ").slice(0, 500);
    return { serverMessage: serverMessage || message?.slice(0, 500), fieldIssues };
  }
  const said = typeof detail === "string" ? detail : message;
  return said ? { serverMessage: said.slice(0, 500), fieldIssues: [] } : { fieldIssues: [] };
}
function fieldName(loc) {
  const [where, ...rest] = loc.map(String);
  if (where === "body") return rest.join(".");
  return [where, ...rest].filter((part) => part !== void 0).join(".");
}

// src/action/runner-env.ts
import { readFile } from "node:fs/promises";
var RunnerEnvError = class extends Error {
  name = "RunnerEnvError";
};
var value = (env, name) => {
  const text2 = env[name]?.trim();
  return text2 ? text2 : null;
};
function readRunnerEnv(env) {
  const eventName = value(env, "GITHUB_EVENT_NAME");
  if (!eventName) {
    throw new RunnerEnvError("GITHUB_EVENT_NAME is not set: this action runs as a step of a GitHub Actions workflow (the runner sets it).");
  }
  return {
    eventName,
    eventPath: value(env, "GITHUB_EVENT_PATH"),
    repository: value(env, "GITHUB_REPOSITORY"),
    apiUrl: (value(env, "GITHUB_API_URL") ?? "https://api.github.com").replace(/\/+$/, ""),
    serverUrl: (value(env, "GITHUB_SERVER_URL") ?? "https://github.com").replace(/\/+$/, ""),
    runId: value(env, "GITHUB_RUN_ID"),
    runAttempt: value(env, "GITHUB_RUN_ATTEMPT"),
    workflow: value(env, "GITHUB_WORKFLOW"),
    workspace: value(env, "GITHUB_WORKSPACE") ?? process.cwd(),
    actor: value(env, "GITHUB_ACTOR")
  };
}
async function readEventPayload(runner) {
  if (!runner.eventPath) return {};
  let text2;
  try {
    text2 = await readFile(runner.eventPath, "utf8");
  } catch (error3) {
    const code = error3.code;
    throw new RunnerEnvError(`Cannot read the event payload at GITHUB_EVENT_PATH (${String(code ?? error3)}).`);
  }
  try {
    return JSON.parse(text2);
  } catch {
    throw new RunnerEnvError("The event payload at GITHUB_EVENT_PATH is not JSON.");
  }
}
function workflowRunUrl(runner) {
  return runner.repository && runner.runId ? `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}` : null;
}

// src/core/actors.ts
var loginOf = (actor2) => typeof actor2 === "string" ? actor2 : actor2.login;
var bareLogin = (login) => login.toLowerCase().replace(/\[bot\]$/, "");
function isBotAccount(actor2) {
  return typeof actor2 !== "string" && actor2.type === "Bot" || loginOf(actor2).toLowerCase().endsWith("[bot]");
}
function isOwnLogin(login, self) {
  const lower = login.toLowerCase();
  if (self.appSlug && lower === `${self.appSlug.toLowerCase()}[bot]`) return true;
  return self.botLogins.some((own2) => own2.toLowerCase() === lower);
}
function isAllowListed(login, allowed) {
  if (!allowed) return false;
  return allowed.all || allowed.logins.some((entry) => bareLogin(entry) === bareLogin(login));
}
function classifyActor(actor2, self) {
  const login = loginOf(actor2);
  if (isOwnLogin(login, self)) return "self";
  if (!isBotAccount(actor2)) return "person";
  return isAllowListed(login, self.allowedBots) ? "allowed_bot" : "bot";
}
var actsAsPerson = (kind) => kind === "person" || kind === "allowed_bot";

// src/core/sanitize-output.ts
var MARKER_NAMESPACE = "agent-run-bridge";
var MARKER_OPENING = new RegExp(`<!--\\s*${MARKER_NAMESPACE}`, "gi");
var ZERO_WIDTH_SPACE = "​";
var ELLIPSIS = "…";
function md(strings, ...values) {
  let out = strings[0] ?? "";
  values.forEach((value2, index) => {
    out += value2 + (strings[index + 1] ?? "");
  });
  return out;
}
function joinMarkdown(pieces, separator) {
  return pieces.join(separator);
}
var SPOOFING_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/g;
var ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
function cleanText(text2) {
  return text2.replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n").replace(ANSI_ESCAPE, "").replace(SPOOFING_CHARACTERS, "");
}
function truncateText(text2, max) {
  if (text2.length <= max) return text2;
  if (max <= 0) return "";
  let cut2 = max - ELLIPSIS.length;
  if (cut2 > 0 && isHighSurrogate(text2.charCodeAt(cut2 - 1))) cut2--;
  return text2.slice(0, Math.max(cut2, 0)) + ELLIPSIS;
}
var isHighSurrogate = (code) => code >= 55296 && code <= 56319;
var escapeRegExp = (text2) => text2.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
var ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
var ASCII_ALNUM = /[A-Za-z0-9]/;
function isEscaped(text2, index) {
  let count = 0;
  for (let i = index - 1; i >= 0 && text2[i] === "\\"; i--) count++;
  return count % 2 === 1;
}
function neutraliseMarkerOpenings(text2) {
  return text2.replace(MARKER_OPENING, (match) => `<!-${ZERO_WIDTH_SPACE}-${match.slice(4)}`);
}
function longestRun(text2, char) {
  let longest = 0;
  let current = 0;
  for (const c of text2) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}
var CODE_ELEMENT_ESCAPES = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\\": "&#92;",
  "`": "&#96;",
  "*": "&#42;",
  _: "&#95;",
  "~": "&#126;",
  "[": "&#91;",
  "]": "&#93;",
  "!": "&#33;",
  "|": "&#124;",
  // Not a mention inside <code> on GitHub, but raw-text scanners (our trigger parser) would see one.
  "@": "&#64;"
};
function inlineCode(text2, options = {}) {
  let content = cleanText(text2).replace(/[\n\t]/g, " ");
  if (options.maxLength !== void 0) content = truncateText(content, options.maxLength);
  if (content.includes("|")) {
    return `<code>${content.replace(/[&<>\\`*_~[\]!|@]/g, (c) => CODE_ELEMENT_ESCAPES[c] ?? c)}</code>`;
  }
  content = neutraliseMarkerOpenings(content);
  if (content === "") return "` `";
  const fence = "`".repeat(longestRun(content, "`") + 1);
  const pad = content.startsWith("`") || content.endsWith("`") || content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "" ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}
function codeBlock(text2, options = {}) {
  let content = cleanText(text2).replace(/\n+$/, "");
  if (options.maxLength !== void 0) content = truncateText(content, options.maxLength);
  content = neutraliseMarkerOpenings(content);
  const fence = "`".repeat(Math.max(3, longestRun(content, "`") + 1));
  const language = options.language && /^[\w+#.-]{1,30}$/.test(options.language) ? options.language : "";
  return `${fence}${language}
${content === "" ? "" : `${content}
`}${fence}`;
}
var AUTOLINKED_URL = /https?:\/\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+(?:[/?#:](?:(?!&lt;|&gt;)[^\s`])*)?/gi;
var MENTION = "@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][A-Za-z0-9_-]*)?";
var wrapPatterns = /* @__PURE__ */ new Map();
function wrapPattern(triggerPhrase) {
  const phrase = triggerPhrase?.trim() ?? "";
  const known = wrapPatterns.get(phrase);
  if (known) return known;
  const before = /^\w/.test(phrase) ? "(?<![A-Za-z0-9_])" : "";
  const after = /\w$/.test(phrase) ? "(?![A-Za-z0-9_])" : "";
  const pattern = phrase === "" ? new RegExp(`()(${MENTION})`, "gi") : new RegExp(`(${before}${escapeRegExp(phrase)}${after})|(${MENTION})`, "gi");
  if (wrapPatterns.size < 64) wrapPatterns.set(phrase, pattern);
  return pattern;
}
function wrapMentionsAndTrigger(text2, options, atLineStart) {
  const pattern = wrapPattern(options.triggerPhrase);
  const urls = [...text2.matchAll(AUTOLINKED_URL)].filter((m) => m.index === 0 ? atLineStart : /[\s*_~(]/.test(text2[m.index - 1])).map((m) => [m.index, m.index + m[0].length]);
  let urlIndex = 0;
  const inUrl = (index) => {
    while (urlIndex < urls.length && urls[urlIndex][1] <= index) urlIndex++;
    const url = urls[urlIndex];
    return url !== void 0 && index > url[0] && index < url[1];
  };
  const out = new OutputBuilder();
  let cursor = 0;
  let lastWrappedEnd = -1;
  for (const match of text2.matchAll(pattern)) {
    const start = match.index;
    const isMention = match[1] === void 0 || match[1] === "";
    if (isMention && start > 0 && start !== lastWrappedEnd && ASCII_ALNUM.test(text2[start - 1])) continue;
    if (inUrl(start)) continue;
    let head = text2.slice(cursor, start);
    if (isEscaped(text2, start)) head = head.slice(0, -1);
    out.append(head);
    if (needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(inlineCode(match[0]));
    cursor = start + match[0].length;
    lastWrappedEnd = cursor;
  }
  out.append(text2.slice(cursor));
  return out.toString();
}
function needsSpaceBeforeCode(before) {
  if (before.endsWith("`")) return true;
  const limit = Math.max(0, before.length - WORD_WINDOW);
  let start = before.length;
  while (start > limit && !/\s/.test(before[start - 1])) start--;
  if (start === limit && limit > 0) return true;
  return /[a-z][a-z0-9+.-]*:\/\/|www\./i.test(before.slice(start));
}
var WORD_WINDOW = 2048;
var OutputBuilder = class {
  parts = [];
  /** The last WORD_WINDOW characters or more: enough for needsSpaceBeforeCode. */
  tail = "";
  get isEmpty() {
    return this.parts.length === 0;
  }
  append(piece) {
    if (piece === "") return;
    this.parts.push(piece);
    this.tail = piece.length >= WORD_WINDOW ? piece : (this.tail + piece).slice(-2 * WORD_WINDOW);
  }
  toString() {
    return this.parts.join("");
  }
};
var HTTP_DESTINATION = /\(\s*https?:\/\//iy;
function escapeStructure(text2, options) {
  let out = "";
  for (let i = 0; i < text2.length; i++) {
    const c = text2[i];
    const escaped = (c === "]" || c === "[" || c === "~") && isEscaped(text2, i);
    if (c === "]" && !escaped) {
      if (text2[i + 1] === ":" || options.linkText) {
        out += "\\]";
        continue;
      }
      HTTP_DESTINATION.lastIndex = i + 1;
      if (text2[i + 1] === "(" && !HTTP_DESTINATION.test(text2)) {
        out += "]\\(";
        i++;
        continue;
      }
    }
    if (c === "[" && !escaped && options.linkText) {
      out += "\\[";
      continue;
    }
    if (c === "~" && !escaped) {
      let run = 0;
      while (text2[i + run] === "~") run++;
      out += run >= 3 ? "\\~".repeat(run) : "~".repeat(run);
      i += run - 1;
      continue;
    }
    out += c;
  }
  return out;
}
function transformPlain(text2, options, atLineStart) {
  return wrapMentionsAndTrigger(escapeStructure(text2, options), options, atLineStart);
}
var BacktickRuns = class {
  starts = /* @__PURE__ */ new Map();
  constructor(line) {
    for (let i = 0; i < line.length; ) {
      if (line[i] !== "`") {
        i++;
        continue;
      }
      let length = 0;
      while (line[i + length] === "`") length++;
      const list = this.starts.get(length) ?? [];
      list.push(i);
      this.starts.set(length, list);
      i += length;
    }
  }
  /** The first run of exactly `length` backticks starting after `index`, or -1. */
  next(length, index) {
    const list = this.starts.get(length) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = low + high >> 1;
      if (list[mid] <= index) low = mid + 1;
      else high = mid;
    }
    return list[low] ?? -1;
  }
};
function sanitizeProseLine(line, options) {
  const out = new OutputBuilder();
  let plain = "";
  const flush = () => {
    const transformed = transformPlain(plain, options, out.isEmpty);
    if (transformed.startsWith("`") && needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(transformed);
    plain = "";
  };
  const emitCode = (code) => {
    flush();
    if (needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(code);
  };
  const runs = new BacktickRuns(line);
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\" && i + 1 < line.length && ASCII_PUNCTUATION.test(line[i + 1])) {
      const next = line[i + 1];
      if (next === "<") plain += "&lt;";
      else if (next === ">") plain += "&gt;";
      else if (next === "@") plain += "@";
      else if (next === "`") plain += LITERAL_BACKTICK;
      else plain += `\\${next}`;
      i += 2;
      continue;
    }
    if (c === "`") {
      let length = 0;
      while (line[i + length] === "`") length++;
      const close = runs.next(length, i);
      if (close === -1) {
        plain += LITERAL_BACKTICK.repeat(length);
        i += length;
        continue;
      }
      let content = line.slice(i + length, close);
      if (content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "") content = content.slice(1, -1);
      emitCode(inlineCode(content));
      i = close + length;
      continue;
    }
    if (c === "<") plain += "&lt;";
    else if (c === ">") plain += "&gt;";
    else if (c === "&") plain += "&amp;";
    else plain += c;
    i++;
  }
  flush();
  return out.toString();
}
var FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
var LITERAL_BACKTICK = "&#96;";
function sanitizeMarkdown(text2, options = {}) {
  if (!text2) return "";
  let source = cleanText(text2);
  if (options.maxLength !== void 0) source = truncateText(source, options.maxLength);
  const lines2 = source.split("\n");
  const out = [];
  for (let i = 0; i < lines2.length; i++) {
    const line = lines2[i];
    const open3 = FENCE_OPEN.exec(line);
    if (open3 && !(open3[2].startsWith("`") && open3[3].includes("`"))) {
      const indent = open3[1].length;
      const char = open3[2][0];
      const close = new RegExp(`^ {0,3}${escapeRegExp(char)}{${open3[2].length},}[ \\t]*$`);
      const content = [];
      let j = i + 1;
      while (j < lines2.length && !close.test(lines2[j])) {
        content.push(lines2[j].replace(new RegExp(`^ {0,${indent}}`), ""));
        j++;
      }
      const language = open3[3].trim().split(/\s+/)[0];
      out.push(codeBlock(content.join("\n"), { language }));
      i = j;
      continue;
    }
    out.push(sanitizeProseLine(line, { triggerPhrase: options.triggerPhrase }));
  }
  return out.join("\n").trim();
}
function sanitizeInline(text2, options = {}) {
  if (!text2) return "";
  let source = cleanText(text2).replace(/\s+/g, " ").trim();
  if (options.maxLength !== void 0) source = truncateText(source, options.maxLength);
  return sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase });
}
function safeHttpUrl(url) {
  if (!url) return null;
  let parsed;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.username !== "" || parsed.password !== "") return null;
  return parsed.href.replace(/[()\s<>"`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
function renderLink(text2, url, options = {}) {
  const href = safeHttpUrl(url);
  const cleaned = cleanText(text2).replace(/\s+/g, " ").trim();
  const source = options.maxLength !== void 0 ? truncateText(cleaned, options.maxLength) : cleaned;
  if (href === null) return sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase });
  const label = sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase, linkText: true });
  return `[${label === "" ? "link" : label}](${href})`;
}

// src/core/markers.ts
var RUN_MARKER_STATES = ["queued", "running", "done"];
var RUN_OUTCOMES = ["succeeded", "failed", "stopped", "waiting_for_input", "unknown", "watch_timed_out"];
var MARKER_LIMITS = { json: 3e3, branches: 10, branchLength: 200, requestId: 100 };
var BranchSchema = string2().min(1).max(MARKER_LIMITS.branchLength).regex(/^[^\s\u0000-\u001f\u007f]+$/, { error: "a branch name has no whitespace or control characters" });
var RunMarkerSchema = strictObject({
  v: literal(1),
  /** Null only while `queued` for a run that does not exist yet (and after a stop that came before it did). */
  runId: number2().int().nonnegative().nullable(),
  orgId: number2().int().nonnegative(),
  sourceType: SourceTypeSchema,
  /** Head branches the run works on or produced, newest last. */
  branches: array(BranchSchema).max(MARKER_LIMITS.branches),
  state: _enum(RUN_MARKER_STATES),
  /** Set exactly when `state` is `done`. */
  outcome: _enum(RUN_OUTCOMES).optional(),
  /** What started this cycle (e.g. the webhook delivery id): a redelivery finds its comment. */
  requestId: string2().max(MARKER_LIMITS.requestId).regex(/^[A-Za-z0-9._:-]+$/).optional(),
  /** For CI fixes: the head commit whose failure this cycle answers. */
  headSha: string2().regex(/^[0-9a-f]{40}$/).optional()
}).superRefine((marker, ctx) => {
  if (marker.runId === null && marker.state !== "queued" && marker.outcome !== "stopped") {
    ctx.addIssue({ code: "custom", path: ["runId"], message: `a "${marker.state}" marker needs a runId` });
  }
  if (marker.state === "done" !== (marker.outcome !== void 0)) {
    ctx.addIssue({ code: "custom", path: ["outcome"], message: "outcome is set exactly when state is done" });
  }
});
var BOT_COMMENT_KINDS = ["run", "refusal", "config_error", "hand_back", "service_error", "over_limit", "stop"];
function markerJson(value2) {
  return JSON.stringify(value2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function renderMarker(marker) {
  const checked = RunMarkerSchema.safeParse(marker);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue3) => `${issue3.path.join(".") || "marker"}: ${issue3.message}`);
    throw new TypeError(`renderMarker: invalid run marker (${issues.join("; ")})`);
  }
  const m = checked.data;
  const ordered = {
    v: m.v,
    runId: m.runId,
    orgId: m.orgId,
    sourceType: m.sourceType,
    branches: m.branches,
    state: m.state,
    ...m.outcome !== void 0 ? { outcome: m.outcome } : {},
    ...m.requestId !== void 0 ? { requestId: m.requestId } : {},
    ...m.headSha !== void 0 ? { headSha: m.headSha } : {}
  };
  const json = markerJson(ordered);
  if (json.length > MARKER_LIMITS.json) {
    throw new TypeError(`renderMarker: the marker JSON is ${json.length} characters, over the ${MARKER_LIMITS.json} limit`);
  }
  return `<!-- ${MARKER_NAMESPACE}:run ${json} -->`;
}
function renderKindMarker(kind) {
  return `<!-- ${MARKER_NAMESPACE}:${kind} -->`;
}
var OverLimitMarkerSchema = strictObject({ v: literal(1), limit: _enum(RUN_LIMIT_NAMES) });
function renderOverLimitMarker(limit) {
  return `<!-- ${MARKER_NAMESPACE}:over_limit ${markerJson({ v: 1, limit })} -->`;
}
var RUN_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:run (\\{[^\\n]*\\}) -->[ \\t]*$`, "m");
var KIND_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:([a-z_]+) -->[ \\t]*$`, "m");
var OVER_LIMIT_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:over_limit (\\{[^\\n]{1,200}\\}) -->[ \\t]*$`, "m");
var MAX_BODY_LENGTH = 65536;
function countMarkerOpenings(body) {
  return body.match(MARKER_OPENING)?.length ?? 0;
}
function parseMarker(body) {
  if (!body || body.length > MAX_BODY_LENGTH) return null;
  if (countMarkerOpenings(body) !== 1) return null;
  const line = RUN_MARKER_LINE.exec(body);
  if (!line || line[1].length > MARKER_LIMITS.json) return null;
  let json;
  try {
    json = JSON.parse(line[1]);
  } catch {
    return null;
  }
  const parsed = RunMarkerSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
function parseOverLimitMarker(body) {
  if (!body || body.length > MAX_BODY_LENGTH || countMarkerOpenings(body) !== 1) return null;
  const line = OVER_LIMIT_MARKER_LINE.exec(body);
  if (!line) return null;
  try {
    const parsed = OverLimitMarkerSchema.safeParse(JSON.parse(line[1]));
    return parsed.success ? parsed.data.limit : null;
  } catch {
    return null;
  }
}
function parseCommentKind(body) {
  if (!body || body.length > MAX_BODY_LENGTH) return null;
  if (parseMarker(body) !== null) return "run";
  if (parseOverLimitMarker(body) !== null) return "over_limit";
  if (countMarkerOpenings(body) !== 1) return null;
  const kind = KIND_MARKER_LINE.exec(body)?.[1];
  return kind !== void 0 && kind !== "run" && kind !== "over_limit" && BOT_COMMENT_KINDS.includes(kind) ? kind : null;
}
function isTrustedAuthor(comment, self) {
  const login = comment.user?.login;
  if (!login || classifyActor(login, self) !== "self") return false;
  const type = comment.user?.type;
  return !(isBotAccount(login) && type !== void 0 && type !== "Bot");
}
function listTrustedRunMarkers(comments, self) {
  const found = [];
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self)) continue;
    const marker = parseMarker(comment.body);
    if (marker) found.push({ marker, commentId: comment.id });
  }
  return found.sort((a, b) => b.commentId - a.commentId);
}
function normalizeBranch(branch) {
  return branch.replace(/^refs\/heads\//, "");
}
function findRunForBranch(comments, branch, self) {
  const wanted = normalizeBranch(branch);
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId !== null && marker.branches.includes(wanted)) ?? null;
}
function findLatestMarkerForRun(comments, runId, self) {
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId === runId) ?? null;
}
function countFixAttempts(comments, branch, self) {
  const wanted = normalizeBranch(branch);
  const cycles = listTrustedRunMarkers(comments, self).filter(
    ({ marker }) => marker.sourceType === SOURCE.gitHostCheckSuite && marker.branches.includes(wanted)
  );
  const headShas = [...new Set(cycles.map(({ marker }) => marker.headSha).filter((sha) => sha !== void 0))];
  return { attempts: cycles.length, headShas };
}
function findTrustedComment(comments, kind, self) {
  let newest = null;
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self) || parseCommentKind(comment.body) !== kind) continue;
    if (newest === null || comment.id > newest.id) newest = comment;
  }
  return newest;
}
function outcomeForPhase(phase) {
  return phase === "in_progress" ? "watch_timed_out" : phase;
}
function withBranches(marker, branches) {
  const merged = [];
  for (const branch of [...marker.branches, ...branches]) {
    if (!branch) continue;
    const name = normalizeBranch(branch);
    if (!BranchSchema.safeParse(name).success) continue;
    const existing = merged.indexOf(name);
    if (existing !== -1) merged.splice(existing, 1);
    merged.push(name);
  }
  return { ...marker, branches: merged.slice(-MARKER_LIMITS.branches) };
}
function resultMarker(marker, run, phase) {
  const prBranches = (run.git_host_pull_requests ?? []).map((pr) => pr.head_branch_name);
  return { ...withBranches(marker, prBranches), runId: run.id, state: "done", outcome: outcomeForPhase(phase) };
}
function newRunMarker(fields) {
  const state = fields.state ?? (fields.runId === null ? "queued" : "running");
  return withBranches(
    {
      v: 1,
      runId: fields.runId,
      orgId: fields.orgId,
      sourceType: fields.sourceType,
      branches: [],
      state,
      ...fields.requestId !== void 0 ? { requestId: fields.requestId } : {},
      ...fields.headSha !== void 0 ? { headSha: fields.headSha } : {}
    },
    fields.branches ?? []
  );
}

// src/core/render.ts
var GITHUB_COMMENT_MAX_LENGTH = 65536;
var MIN_RESULT_LENGTH = 4096;
var toMs = (time2) => time2 instanceof Date ? time2.getTime() : time2;
function formatElapsed(ms) {
  const totalSeconds = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1e3) : 0;
  const days = Math.floor(totalSeconds / 86400);
  const hours = Math.floor(totalSeconds % 86400 / 3600);
  const minutes = Math.floor(totalSeconds % 3600 / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}
function linkTarget(url) {
  const href = safeHttpUrl(url);
  return href !== null && href.length <= 2e3 ? href : null;
}
function runLink(runId, webUrl) {
  const id = String(runId);
  return webUrl ? `[#${id}](${webUrl})` : id;
}
function runPageNote(webUrl) {
  return webUrl ? `the full text is on [the run page](${webUrl})` : md`the full text is on the run page`;
}
function sub(text2) {
  return md`<sub>${text2}</sub>`;
}
function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}
function triggerNote(sourceType, triggerUrl) {
  const link = (text2) => triggerUrl ? renderLink(text2, triggerUrl) : text2;
  switch (sourceType) {
    case SOURCE.gitHostCheckSuite:
      return md`Started because ${link("checks failed")}`;
    case SOURCE.gitHostPrReview:
      return md`Started for ${link("this review")}`;
    default:
      return triggerUrl ? md`Triggered by ${link("this comment")}` : null;
  }
}
function followUpNote(count) {
  return count === 1 ? md`📝 Your follow-up is queued: it will be sent when the run finishes.` : `📝 ${count} follow-ups are queued: they will be sent when the run finishes.`;
}
function renderTrackingComment(input) {
  const webUrl = linkTarget(input.webUrl);
  const runId = input.marker.runId;
  if (runId === null && (input.phase === "resuming" || input.phase === "queued_follow_up")) {
    throw new TypeError(`renderTrackingComment: the "${input.phase}" phase is about an existing run, but the marker has no runId`);
  }
  const state = input.phase === "queued" || runId === null ? "queued" : "running";
  const { outcome: _finalOutcome, ...identity } = input.marker;
  const marker = renderMarker({ ...identity, state });
  const link = runId === null ? md`` : runLink(runId, webUrl);
  const elapsed = formatElapsed(toMs(input.now) - toMs(input.startedAt));
  const position = input.queuePosition !== void 0 && Number.isInteger(input.queuePosition) && input.queuePosition > 0 ? ` (position ${input.queuePosition})` : md``;
  const followUps = Math.max(0, Math.floor(input.followUps ?? 0));
  const lines2 = [];
  switch (input.phase) {
    case "queued":
      lines2.push(
        runId === null ? md`⏳ **Queued**${position}: waiting for the Agent Run Service's rate budget. The run starts by itself.` : md`⏳ A follow-up for agent run ${link} is **queued**${position}: waiting for the Agent Run Service's rate budget.`
      );
      break;
    case "starting":
      lines2.push(runId === null ? md`🤖 Starting an agent run…` : md`🤖 Agent run ${link} started…`);
      break;
    case "running":
      lines2.push(runId === null ? md`🤖 An agent run is working · ${elapsed} so far` : md`🤖 Agent run ${link} is working · ${elapsed} so far`);
      break;
    case "resuming": {
      const source = input.sourceType ?? input.marker.sourceType;
      const why = source === SOURCE.gitHostCheckSuite ? md`to fix the failing checks` : source === SOURCE.gitHostPrReview ? md`with this review` : md`with your follow-up`;
      lines2.push(md`🔁 Resuming agent run ${link} ${why}…`);
      break;
    }
    case "queued_follow_up":
      lines2.push(md`🤖 Agent run ${link} is still working · ${elapsed} so far`);
      break;
  }
  const step = input.currentStep && input.currentStep.length <= 2e3 ? input.currentStep : null;
  if (step && (input.phase === "running" || input.phase === "queued_follow_up" || input.phase === "resuming")) {
    lines2.push(md`**Now:** ${step}`);
  }
  if (input.phase === "queued_follow_up" || followUps > 0 && input.phase !== "queued") {
    lines2.push(followUpNote(Math.max(1, followUps)));
  }
  if (input.orgDefaultRepository && input.phase !== "resuming" && input.phase !== "queued_follow_up") {
    lines2.push(md`ℹ️ No \`repo_id\` is configured for this repository and the Agent Run Service did not list it, so the organization's default repository applies.`);
  }
  const note = triggerNote(input.sourceType ?? input.marker.sourceType, linkTarget(input.triggerUrl));
  const footer = note ? md`${note} · this comment updates as the run progresses.` : md`This comment updates as the run progresses.`;
  lines2.push(sub(footer));
  return `${marker}
${joinMarkdown(lines2, "\n\n")}`;
}
function fitBlock(block, budget) {
  const full = block.render(block.natural);
  if (full.length <= budget) return full;
  let best = "";
  let low = 0;
  let high = block.natural - 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const rendered = block.render(mid);
    if (rendered.length <= budget) {
      best = rendered;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}
function fitBlocks(blocks, budget) {
  const full = blocks.map((block) => block.render(block.natural));
  if (full.reduce((sum, text2) => sum + text2.length, 0) <= budget) return full;
  const out = new Array(blocks.length).fill("");
  const order = blocks.map((_, index) => index).sort((a, b) => full[a].length - full[b].length);
  let remaining = budget;
  order.forEach((index, position) => {
    const share = Math.floor(remaining / (order.length - position));
    out[index] = full[index].length <= share ? full[index] : fitBlock(blocks[index], share);
    remaining -= out[index].length;
  });
  return out;
}
function textBlock(title, text2, cutNote, triggerPhrase) {
  return {
    natural: text2.length,
    render(allowance) {
      if (allowance <= 0) return "";
      const body = sanitizeMarkdown(truncateText(text2, allowance), { triggerPhrase });
      const note = allowance < text2.length ? `

*… cut to fit in a comment: ${cutNote}.*` : "";
      return `${title}

${body}${note}`;
    }
  };
}
function traceErrorsBlock(errors, cutNote) {
  const minimumEach = 200;
  const total = errors.reduce((sum, error3) => sum + error3.length, 0);
  return {
    natural: total,
    render(allowance) {
      if (errors.length === 0) return "";
      const heading = `**${plural(errors.length, "error", "errors")}**`;
      let shown;
      let hidden = 0;
      if (allowance >= total) {
        shown = [...errors];
      } else if (Math.floor(allowance / errors.length) >= minimumEach) {
        shown = errors.map((error3) => truncateText(error3, Math.floor(allowance / errors.length)));
      } else {
        const keep = Math.floor(allowance / minimumEach);
        shown = keep === 0 ? [] : errors.slice(-keep).map((error3) => truncateText(error3, minimumEach));
        hidden = errors.length - shown.length;
      }
      const parts = [heading];
      if (hidden > 0) parts.push(`*${plural(hidden, "earlier error is", "earlier errors are")} not shown: ${cutNote}.*`);
      for (const error3 of shown) parts.push(codeBlock(error3, { language: "text" }));
      return parts.join("\n\n");
    }
  };
}
function traceStepsBlock(steps) {
  return {
    natural: steps.length,
    render(count) {
      if (steps.length === 0 || count <= 0) return "";
      const shown = steps.slice(-count);
      const heading = count < steps.length ? `**Last ${shown.length} of ${steps.length} steps**` : `**Last steps**`;
      return `${heading}

${shown.map((step) => `- ${step}`).join("\n")}`;
    }
  };
}
function pullRequestLines(prs, webUrl, triggerPhrase) {
  if (prs.length === 0) return null;
  const maxShown = 20;
  const lines2 = prs.slice(0, maxShown).map((pr) => {
    const title = pr.title?.trim() ? pr.title : "Pull request";
    const link = renderLink(title, linkTarget(pr.url), { maxLength: 200, triggerPhrase });
    const branch = pr.head_branch_name ? md` · ${inlineCode(pr.head_branch_name, { maxLength: 100 })}` : md``;
    return md`- ${link}${branch}`;
  });
  if (prs.length > maxShown) {
    const more = `- … and ${prs.length - maxShown} more`;
    lines2.push(webUrl ? md`${more} on [the run page](${webUrl})` : more);
  }
  const heading = prs.length === 1 ? md`**Pull request**` : md`**Pull requests**`;
  return md`${heading}\n\n${joinMarkdown(lines2, "\n")}`;
}
function stoppedVerb(status) {
  return /cancel/i.test(status ?? "") ? md`cancelled` : md`stopped`;
}
function headline(phase, link, elapsed, status) {
  switch (phase) {
    case "succeeded":
      return md`### ✅ Agent run ${link} succeeded`;
    case "failed":
      return md`### ❌ Agent run ${link} failed`;
    case "stopped":
      return md`### ⏹️ Agent run ${link} was ${stoppedVerb(status)}`;
    case "waiting_for_input":
      return md`### ⏸️ Agent run ${link} is waiting for your input`;
    case "in_progress":
      return md`### ⏳ Agent run ${link} is still running after ${elapsed}`;
    case "unknown":
      return md`### ❔ Agent run ${link} reports a status the bridge does not recognise`;
  }
}
function statusLine(input, elapsed, webUrl) {
  const status = input.run.status?.trim() ? inlineCode(input.run.status, { maxLength: 40 }) : md`(none)`;
  const page = webUrl ? md`[the run page](${webUrl})` : md`the run page`;
  switch (input.phase) {
    case "in_progress":
      return md`Status ${status}. The bridge stopped watching it; follow it on ${page}. This comment will not update by itself.`;
    case "unknown":
      return md`Status ${status} after ${elapsed}. Check ${page} for its outcome.`;
    default:
      return md`Status ${status} · took ${elapsed}`;
  }
}
function renderResultComment(input) {
  const maxLength = input.maxLength ?? GITHUB_COMMENT_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < MIN_RESULT_LENGTH || maxLength > GITHUB_COMMENT_MAX_LENGTH) {
    throw new RangeError(`renderResultComment: maxLength must be a whole number from ${MIN_RESULT_LENGTH} to ${GITHUB_COMMENT_MAX_LENGTH}, got ${String(maxLength)}`);
  }
  const { run, phase, triggerPhrase } = input;
  const webUrl = linkTarget(run.web_url);
  const marker = renderMarker(resultMarker(input.marker, run, phase));
  const link = runLink(run.id, webUrl);
  const elapsed = formatElapsed(toMs(input.finishedAt) - toMs(input.startedAt));
  const cutNote = runPageNote(webUrl);
  const trace = input.trace ?? null;
  const head = md`${headline(phase, link, elapsed, run.status)}\n\n${statusLine(input, elapsed, webUrl)}`;
  const prs = pullRequestLines(run.git_host_pull_requests ?? [], webUrl, triggerPhrase);
  const hint = inlineCode(`${triggerPhrase.trim()} <instructions>`, { maxLength: 100 });
  const footer = phase === "waiting_for_input" ? sub(md`Reply with ${hint} to answer and continue this run.`) : phase === "in_progress" ? sub(md`Reply with ${hint} once it has finished to continue it.`) : sub(md`Reply with ${hint} to continue this run.`);
  const blocks = [];
  const latestError = phase === "failed" ? trace?.errors.at(-1) : void 0;
  if (latestError) blocks.push(errorHighlight(latestError, cutNote));
  const summary2 = run.summary?.trim() ?? "";
  const result = run.result?.trim() || trace?.finalAnswer?.trim() || "";
  if (summary2) blocks.push(textBlock(md`**Summary**`, summary2, cutNote, triggerPhrase));
  if (result && result !== summary2) blocks.push(textBlock(md`**Result**`, result, cutNote, triggerPhrase));
  const traceBlocks = trace ? [traceErrorsBlock(trace.errors, cutNote), traceStepsBlock(trace.lastSteps)] : [];
  const traceSummary = trace ? `Trace: ${plural(trace.totalEntries, "log entry", "log entries")}${trace.errors.length > 0 ? `, ${plural(trace.errors.length, "error", "errors")}` : ""}` : "";
  const detailsOpen = `<details>
<summary>${traceSummary}</summary>

`;
  const detailsClose = "\n\n</details>";
  const emptyTrace = `*Nothing to show here: ${cutNote}.*`;
  const fixed = [marker, head, prs ?? "", footer].join("\n\n").length + (trace ? detailsOpen.length + detailsClose.length + emptyTrace.length + 2 : 0);
  const separators = 2 * (blocks.length + traceBlocks.length + 2);
  const budget = maxLength - fixed - separators;
  if (budget < 0) return minimalResult(marker, md`${headline(phase, link, elapsed, run.status)}`, cutNote, maxLength);
  const fitted = fitBlocks([...blocks, ...traceBlocks], budget);
  const agentParts = fitted.slice(0, blocks.length).filter((part) => part !== "");
  const traceParts = fitted.slice(blocks.length).filter((part) => part !== "");
  const parts = [marker, head];
  if (prs) parts.push(prs);
  parts.push(...agentParts);
  if (trace) parts.push(`${detailsOpen}${traceParts.length > 0 ? traceParts.join("\n\n") : emptyTrace}${detailsClose}`);
  parts.push(footer);
  const body = parts.join("\n\n");
  return body.length <= maxLength ? body : minimalResult(marker, md`${headline(phase, link, elapsed, run.status)}`, cutNote, maxLength);
}
function errorHighlight(error3, cutNote) {
  return {
    natural: error3.length,
    render(allowance) {
      if (allowance <= 0) return "";
      const note = allowance < error3.length ? `

*… cut to fit in a comment: ${cutNote}.*` : "";
      return `**Error**

${codeBlock(truncateText(error3, allowance), { language: "text" })}${note}`;
    }
  };
}
function minimalResult(marker, head, cutNote, maxLength) {
  const body = `${marker}

${head}

The result does not fit in a comment: ${cutNote}.`;
  return body.length <= maxLength ? body : `${marker}

The result does not fit in a comment: see the run page.`;
}
var GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
function renderRefusal(input) {
  const who2 = GITHUB_LOGIN.test(input.login) ? `@${input.login}` : inlineCode(input.login, { maxLength: 60 });
  const reason = sanitizeInline(input.reason, { maxLength: 500 });
  const because = reason === "" ? md`.` : md`: ${reason}`;
  return `${renderKindMarker("refusal")}
🚫 ${who2}, I can't start the agent for you${because}`;
}
function renderConfigError(input) {
  const maxShown = 30;
  const file = inlineCode(input.file, { maxLength: 200 });
  const errors = input.errors.slice(0, maxShown).map((error3) => md`- ${sanitizeInline(error3, { maxLength: 500 })}`);
  if (input.errors.length > maxShown) errors.push(`- … and ${input.errors.length - maxShown} more`);
  const list = errors.length > 0 ? md`\n\n${joinMarkdown(errors, "\n")}` : md``;
  return `${renderKindMarker("config_error")}
⚠️ **The agent configuration in ${file} is invalid**, so nothing was started.${list}

Fix the file on the default branch, then trigger the agent again.`;
}
function renderHandBack(input) {
  const attempts = Math.max(0, Math.floor(input.attempts));
  const pr = input.prUrl && linkTarget(input.prUrl) ? renderLink("this pull request", linkTarget(input.prUrl)) : md`this pull request`;
  const again = input.triggerPhrase?.trim() ? md`Comment ${inlineCode(`${input.triggerPhrase.trim()} <what to do>`, { maxLength: 100 })} to ask me again.` : md`Ask me again in a comment if you want another try.`;
  const tries = plural(attempts, "time", "times");
  return `${renderKindMarker("hand_back")}
🙋 I tried to fix ${pr} ${tries} and the checks still fail, so I am handing it back to you. I will not start new fix runs for it on my own. ${again}`;
}
var REDACTED = "[redacted]";
function redact(text2, secrets) {
  let out = text2.replace(/\b(Bearer|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`);
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}
function renderServiceError(input) {
  const secrets = input.secrets ?? [];
  const message = sanitizeInline(redact(input.message, secrets), { maxLength: 500 });
  const whatToDo = sanitizeMarkdown(redact(input.whatToDo, secrets), { maxLength: 2e3 });
  return `${renderKindMarker("service_error")}
⚠️ **The agent could not run: ${message}**${whatToDo === "" ? "" : `

${whatToDo}`}`;
}
function serviceErrorForComment(error3) {
  if (error3 instanceof PaymentRequiredError) {
    return {
      message: "the organization's allowance for agent runs is used up (402).",
      whatToDo: "A maintainer needs to add credits or raise the plan on the Agent Run Service, then trigger the agent again."
    };
  }
  if (error3 instanceof AuthenticationError) {
    return {
      message: "the Agent Run Service rejected the bridge's API token (401).",
      whatToDo: "A maintainer needs to replace the API token the bridge is configured with (for the Action, the secret passed as `api-token`)."
    };
  }
  if (error3 instanceof PermissionError) {
    return {
      message: "the API token has no access to the configured organization (403).",
      whatToDo: "A maintainer needs to check the organization id and what the token may access."
    };
  }
  if (error3 instanceof RateLimitError || error3 instanceof DeadlineError) {
    return { message: "the Agent Run Service is busy (rate limit).", whatToDo: "Try again in a few minutes." };
  }
  if (error3 instanceof ServerError || error3 instanceof NetworkError || error3 instanceof TimeoutError) {
    return {
      message: "the Agent Run Service could not be reached or failed.",
      whatToDo: "Try again later. If it keeps happening, tell a maintainer."
    };
  }
  if (error3 instanceof NotFoundError) {
    return { message: "the run was not found on the Agent Run Service (404).", whatToDo: "Start a new run instead." };
  }
  if (error3 instanceof BadRequestError || error3 instanceof UnprocessableError || error3 instanceof RequestValidationError) {
    const fields = error3.rejectedFields.filter((field) => /^[A-Za-z_][\w.]{0,40}$/.test(field));
    return {
      message: fields.length > 0 ? `the Agent Run Service rejected the request's ${fields.join(", ")}.` : "the Agent Run Service rejected the request.",
      whatToDo: "A maintainer should check the agent configuration (model, agent type, repository id)."
    };
  }
  if (error3 instanceof AgentRunError) {
    return { message: "the Agent Run Service refused the request.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
  }
  return { message: "an unexpected error stopped it.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
}

// src/core/limits.ts
var HOUR_MS = 36e5;
var DAY_MS = 24 * HOUR_MS;
var LIMIT_WINDOW_MS = {
  runs_per_thread_per_day: DAY_MS,
  runs_per_repo_per_hour: HOUR_MS,
  ci_fixes_per_repo_per_day: DAY_MS
};
function checkOne(limit, max, starts, now) {
  const windowMs = LIMIT_WINDOW_MS[limit];
  const inWindow = starts.filter((at) => at > now - windowMs && at <= now).sort((a, b) => a - b);
  if (inWindow.length < max) return null;
  return { limit, max, count: inWindow.length, windowMs, freesAt: inWindow[inWindow.length - max] + windowMs };
}
function checkRunLimits(input) {
  const { starts, limits, now } = input;
  const over = [
    checkOne("runs_per_thread_per_day", limits.runs_per_thread_per_day, starts.thread, now),
    checkOne("runs_per_repo_per_hour", limits.runs_per_repo_per_hour, starts.repo, now),
    input.isCiFix ? checkOne("ci_fixes_per_repo_per_day", limits.ci_fixes_per_repo_per_day, starts.ciFixes, now) : null
  ].filter((found) => found !== null);
  if (over.length === 0) return { allowed: true };
  return { allowed: false, over: over.reduce((latest, found) => found.freesAt > latest.freesAt ? found : latest) };
}
function overLimitReplyDue(input) {
  const since = input.now - input.over.windowMs;
  return !input.earlierReplies.some((reply) => reply.limit === input.over.limit && reply.at > since && reply.at <= input.now);
}
function describeCount(over, threadKind) {
  const runs = over.count === 1 ? "1 run" : `${over.count} runs`;
  switch (over.limit) {
    case "runs_per_thread_per_day":
      return `this ${threadKind === "issue" ? "issue" : "pull request"} has started ${runs} in the last 24 hours`;
    case "runs_per_repo_per_hour":
      return `this repository has started ${runs} in the last hour`;
    case "ci_fixes_per_repo_per_day":
      return `this repository has started ${over.count === 1 ? "1 CI fix run" : `${over.count} CI fix runs`} in the last 24 hours`;
  }
}
function utcMinute(ms) {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
function renderOverLimitReply(input) {
  const { over } = input;
  const freesAt = Math.ceil(over.freesAt / 6e4) * 6e4;
  const wait = formatElapsed(Math.max(6e4, freesAt - input.now));
  const key = inlineCode(`limits.${over.limit}: ${over.max}`, { maxLength: 80 });
  return `${renderOverLimitMarker(over.limit)}
${md`⏸️ I did not start the agent: ${describeCount(over, input.threadKind)}, the limit set by ${key}. The next run can start at ${utcMinute(freesAt)} (in ${wait}). A maintainer can change the limit in \`.github/agent-run.yml\`.`}`;
}
function judgeSpendLimits(input) {
  const verdict = checkRunLimits(input);
  if (verdict.allowed) return verdict;
  const { over } = verdict;
  const reason = `Over \`limits.${over.limit}\` (${over.count} of ${over.max}); another run can start at ${new Date(over.freesAt).toISOString()}. Nothing was sent to the service.`;
  const due = input.threadKind !== null && overLimitReplyDue({ over, earlierReplies: input.earlierReplies, now: input.now });
  return { allowed: false, over, reason, reply: due ? renderOverLimitReply({ over, now: input.now, threadKind: input.threadKind }) : null };
}
var createdAt = (comment) => {
  const at = comment.created_at ? Date.parse(comment.created_at) : Number.NaN;
  return Number.isFinite(at) ? at : null;
};
function runStartsFromComments(comments, self) {
  const starts = [];
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self)) continue;
    const marker = parseMarker(comment.body);
    const at = createdAt(comment);
    if (!marker || marker.requestId === void 0 || at === null) continue;
    starts.push({ at, ciFix: marker.sourceType === SOURCE.gitHostCheckSuite });
  }
  return starts;
}
function overLimitRepliesFromComments(comments, self) {
  const replies = [];
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self)) continue;
    const limit = parseOverLimitMarker(comment.body);
    const at = createdAt(comment);
    if (limit !== null && at !== null) replies.push({ limit, at });
  }
  return replies;
}

// src/config/glob.ts
function globToRegExp(pattern, options = {}) {
  const pathAware = options.pathAware ?? true;
  const one = pathAware ? "[^/]" : "[\\s\\S]";
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        source += "[\\s\\S]*";
        i++;
      } else {
        source += `${one}*`;
      }
    } else if (ch === "?") {
      source += one;
    } else {
      source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`, options.ignoreCase ? "i" : "");
}
function matchesGlob(value2, pattern, options = {}) {
  return globToRegExp(pattern, options).test(value2);
}
function firstMatchingGlob(value2, patterns, options = {}) {
  return patterns.find((pattern) => matchesGlob(value2, pattern, options));
}

// src/core/kill-switch.ts
function findKillSwitch(labels, config2) {
  const wanted = config2.kill_switch_label.trim().toLowerCase();
  return labels.find((label) => label.trim().toLowerCase() === wanted) ?? null;
}
function killSwitchReason(label, where) {
  const thread = where === "issue" ? "issue" : "pull request";
  return `The ${thread} carries the kill-switch label "${label}" (\`kill_switch_label\`): no run starts here until it is removed.`;
}

// src/core/sanitize-input.ts
var INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
function isInvisibleCodePoint(codePoint) {
  return codePoint === 173 || codePoint === 6158 || codePoint >= 8203 && codePoint <= 8207 || codePoint >= 8234 && codePoint <= 8238 || codePoint >= 8288 && codePoint <= 8292 || codePoint >= 8294 && codePoint <= 8297 || codePoint === 65279 || codePoint >= 917504 && codePoint <= 917631;
}
var NAMED_INVISIBLE_ENTITIES = /&(?:zwj|zwnj|lrm|rlm|shy|ZeroWidthSpace|NoBreak|InvisibleTimes|InvisibleComma|af|it|ic);/g;
function normalizeNewlines(text2) {
  return text2.replace(/\r\n?/g, "\n").replace(/[\u2028\u2029\u0085]/g, "\n");
}
function stripInvisibleCharacters(text2) {
  return text2.replace(INVISIBLE, "").replace(/&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));/gi, (entity, hex, dec) => {
    const codePoint = hex !== void 0 ? parseInt(hex, 16) : parseInt(dec ?? "", 10);
    return isInvisibleCodePoint(codePoint) ? "" : entity;
  }).replace(NAMED_INVISIBLE_ENTITIES, "");
}
function stripAnsiEscapes(text2) {
  return text2.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g, "");
}
var FENCE_OPEN2 = /^ {0,3}(`{3,}|~{3,})(.*)$/;
var FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;
function classifyLines(text2) {
  const lines2 = [];
  let fence = null;
  for (const line of text2.split("\n")) {
    if (!fence) {
      const open3 = FENCE_OPEN2.exec(line);
      if (open3 && !(open3[1].startsWith("`") && open3[2].includes("`"))) {
        fence = { char: open3[1][0], length: open3[1].length };
      }
      lines2.push({ text: line, code: fence !== null });
    } else {
      lines2.push({ text: line, code: true });
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
    }
  }
  return lines2;
}
function splitByCodeFences(text2) {
  const segments = [];
  const lines2 = classifyLines(text2);
  lines2.forEach((line, index) => {
    const piece = index < lines2.length - 1 ? `${line.text}
` : line.text;
    const last = segments[segments.length - 1];
    if (last && last.code === line.code) last.text += piece;
    else segments.push({ text: piece, code: line.code });
  });
  return segments;
}
function stripHtmlComments(text2) {
  const codeRanges = [];
  let offset = 0;
  for (const segment of splitByCodeFences(text2)) {
    if (segment.code) codeRanges.push([offset, offset + segment.text.length]);
    offset += segment.text.length;
  }
  const inCode = (index) => codeRanges.some(([start, end]) => index >= start && index < end);
  let out = "";
  let cursor = 0;
  while (cursor < text2.length) {
    let start = text2.indexOf("<!--", cursor);
    while (start !== -1 && inCode(start)) start = text2.indexOf("<!--", start + 4);
    if (start === -1) break;
    out += text2.slice(cursor, start);
    const end = text2.indexOf("-->", start + 4);
    cursor = end === -1 ? text2.length : end + 3;
  }
  return out + text2.slice(cursor);
}
var HIDDEN_ATTRIBUTE = /\s(?:alt|title|aria-[\w-]+|data-[\w-]+|placeholder)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)/gi;
function stripHiddenMarkupInProse(text2) {
  return text2.replace(/<[a-zA-Z][^<>]*>/g, (tag) => tag.replace(HIDDEN_ATTRIBUTE, "")).replace(/!\[[^\]\n]*\]\(/g, "![](").replace(/(\]\(\s*(?:<[^>\n]*>|[^\s()]+))\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))\s*\)/g, "$1)").replace(
    /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/gm,
    (line, dest) => dest === "#" || dest === "<>" || dest === "<#>" ? "" : line.replace(/[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))[ \t]*$/, "")
  ).replace(/\n{3,}/g, "\n\n");
}
function sanitizeUserText(text2) {
  if (!text2) return "";
  const visible = stripHtmlComments(stripInvisibleCharacters(normalizeNewlines(text2)));
  return splitByCodeFences(visible).map((segment) => segment.code ? segment.text : stripHiddenMarkupInProse(segment.text)).join("").trim();
}
var TRUNCATION_MARKER = "\n[… truncated …]\n";
function truncate(text2, max, marker = TRUNCATION_MARKER, keep = "head") {
  if (text2.length <= max) return text2;
  if (max <= 0) return "";
  if (marker.length >= max) return marker.slice(0, max);
  const room = max - marker.length;
  if (keep === "head") {
    let cut2 = room;
    if (isHighSurrogate2(text2.charCodeAt(cut2 - 1))) cut2--;
    return text2.slice(0, cut2) + marker;
  }
  let start = text2.length - room;
  if (isLowSurrogate(text2.charCodeAt(start))) start++;
  return marker + text2.slice(start);
}
var isHighSurrogate2 = (code) => code >= 55296 && code <= 56319;
var isLowSurrogate = (code) => code >= 56320 && code <= 57343;

// src/core/trigger.ts
var escapeRegExp2 = (text2) => text2.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
var QUOTE_LINE = /^ {0,3}>/;
var INLINE_CODE = /(`+)(?:(?!\1)[\s\S])*?\1/g;
function mentionPattern(appSlug, flags, anchored) {
  const name = `@${escapeRegExp2(appSlug)}(?:\\[bot\\])?(?![\\w-])`;
  return anchored ? new RegExp(`^ {0,3}${name}[,:]?`, flags) : new RegExp(`(?:^|[^\\w@/.-])${name}`, flags);
}
var STOP_WORD = /^\s*stop[.!]?\s*$/i;
function instructionFrom(rest, following) {
  if (STOP_WORD.test(rest)) return { kind: "stop", instruction: "", forceNew: false };
  let head = rest.trimStart();
  let forceNew = false;
  const newMatch = /^new(?=\s|$)/i.exec(head);
  if (newMatch) {
    forceNew = true;
    head = head.slice(newMatch[0].length).trimStart();
  }
  const instruction = [head, ...following].join("\n").trim();
  return { kind: "run", instruction, forceNew };
}
function parseTriggerComment(body, grammar) {
  const text2 = sanitizeUserText(body);
  if (text2 === "") return null;
  const lines2 = classifyLines(text2);
  const eligible = (index) => !lines2[index].code && !QUOTE_LINE.test(lines2[index].text);
  const following = (index) => lines2.slice(index + 1).map((line) => line.text);
  const phrase = grammar.phrase.trim();
  if (phrase !== "") {
    const atLineStart = new RegExp(`^ {0,3}${escapeRegExp2(phrase)}(?=\\s|$)`, "i");
    for (let i = 0; i < lines2.length; i++) {
      if (!eligible(i)) continue;
      const match = atLineStart.exec(lines2[i].text);
      if (match) return { ...instructionFrom(lines2[i].text.slice(match[0].length), following(i)), matchedBy: "phrase" };
    }
  }
  if (!grammar.mention || !grammar.appSlug) return null;
  const leading = mentionPattern(grammar.appSlug, "i", true);
  for (let i = 0; i < lines2.length; i++) {
    if (!eligible(i)) continue;
    const match = leading.exec(lines2[i].text);
    if (match) return { ...instructionFrom(lines2[i].text.slice(match[0].length), following(i)), matchedBy: "mention" };
  }
  const anywhere = mentionPattern(grammar.appSlug, "i", false);
  for (let i = 0; i < lines2.length; i++) {
    if (eligible(i) && anywhere.test(lines2[i].text.replace(INLINE_CODE, ""))) {
      return { kind: "run", instruction: text2, forceNew: false, matchedBy: "mention" };
    }
  }
  return null;
}

// src/core/plan.ts
var FAILING_CONCLUSIONS = ["failure", "timed_out"];
var isCheckFailureTrigger = (trigger) => trigger.flow === "check_suite" || trigger.flow === "workflow_run";
function triggerThread(trigger) {
  if (isCheckFailureTrigger(trigger)) {
    return { kind: "pull_request", number: trigger.pullRequest.number, url: trigger.pullRequest.url };
  }
  const thread = trigger.thread;
  return thread ? { kind: thread.kind, number: thread.number, url: thread.url } : null;
}
var ignore = (code, reason) => ({ kind: "ignore", code, reason });
function isBotActor(actor2, self) {
  return !!actor2 && !actsAsPerson(classifyActor(actor2, self));
}
var isSelf = (actor2, self) => classifyActor(actor2, self) === "self";
var grammarOf = (config2, self) => ({
  phrase: config2.trigger_phrase,
  appSlug: self.appSlug,
  mention: config2.mention
});
var onlyAction = (event, wanted, what) => ignore(
  "unsupported_action",
  `${event.name}.${event.action ?? "(no action)"}: only ${what} start runs (\`${event.name}.${wanted}\`).`
);
var byBot = (actor2, what) => ignore("bot_sender", `${what} by the bot account @${actor2.login}: bots do not start runs (this also prevents loops).`);
function noTriggerReason(config2, self, what) {
  const mention = config2.mention && self.appSlug ? ` or a mention of @${self.appSlug}` : "";
  return `${what} has no line starting with \`${config2.trigger_phrase}\`${mention}.`;
}
var noTrigger = (config2, self, what) => ignore("no_trigger", noTriggerReason(config2, self, what));
var stopRequested = (what) => ignore("stop_requested", `${what} asks to stop the thread's run: that is a stop request (detectStopRequest), not a task.`);
function unlessKillSwitch(thread, config2, detection) {
  const label = findKillSwitch(thread.labels, config2);
  return label === null ? detection : ignore("kill_switch", killSwitchReason(label, thread.kind));
}
function detectComment(event, config2, self) {
  if (event.action !== "created") return onlyAction(event, "created", "new comments");
  if (isBotActor(event.comment.author, self)) return byBot(event.comment.author, "Comment");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Comment");
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config2, self));
  if (!parsed) return noTrigger(config2, self, "The comment");
  if (parsed.kind === "stop") return stopRequested("The comment");
  return unlessKillSwitch(event.thread, config2, {
    kind: "trigger",
    trigger: {
      flow: "comment",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.comment.author,
      dedupeKey: `comment:${event.comment.id}`,
      forceNew: parsed.forceNew,
      thread: event.thread,
      comment: event.comment,
      instruction: parsed.instruction
    }
  });
}
function detectLabel(event, config2, self) {
  if (event.action !== "labeled" || !event.label) return onlyAction(event, "labeled", "added labels");
  if (!config2.label.enabled) return ignore("label_disabled", "Label triggers are off (`label.enabled: false`).");
  if (event.label.name.toLowerCase() !== config2.label.name.toLowerCase()) {
    return ignore("other_label", `The label "${event.label.name}" is not the configured one ("${config2.label.name}").`);
  }
  if (isSelf(event.sender, self)) return byBot(event.sender, "Label added");
  return unlessKillSwitch(event.thread, config2, {
    kind: "trigger",
    trigger: {
      flow: "label",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.sender,
      dedupeKey: `label:${event.thread.number}:${event.label.name.toLowerCase()}`,
      forceNew: false,
      thread: event.thread,
      label: event.label.name
    }
  });
}
function detectReview(event, config2, self) {
  if (event.action !== "submitted") return onlyAction(event, "submitted", "submitted reviews");
  const author = event.review.author ?? event.sender;
  if (isBotActor(author, self)) return byBot(author, "Review");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review");
  const parsed = parseTriggerComment(event.review.body, grammarOf(config2, self));
  if (parsed?.kind === "stop") return stopRequested("The review");
  const changesRequested = event.review.state === "changes_requested";
  if (!parsed && !changesRequested) {
    const why = noTriggerReason(config2, self, `The review (state ${event.review.state})`);
    return ignore("no_trigger", `${why} Only reviews requesting changes start runs without it.`);
  }
  if (!config2.reviews.enabled) return ignore("reviews_disabled", "Review triggers are off (`reviews.enabled: false`).");
  return unlessKillSwitch(event.thread, config2, {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor: author,
      dedupeKey: `review:${event.review.id}`,
      forceNew: parsed?.forceNew ?? false,
      thread: event.thread,
      pullRequest: event.pullRequest,
      review: event.review,
      reviewComment: null,
      reason: parsed ? "trigger" : "changes_requested",
      instruction: parsed?.instruction ?? ""
    }
  });
}
function detectReviewComment(event, config2, self) {
  if (event.action !== "created") return onlyAction(event, "created", "new review comments");
  if (isBotActor(event.comment.author, self)) return byBot(event.comment.author, "Review comment");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review comment");
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config2, self));
  if (!parsed) return noTrigger(config2, self, "The review comment");
  if (parsed.kind === "stop") return stopRequested("The review comment");
  if (!config2.reviews.enabled) {
    return ignore("reviews_disabled", "The review comment has the trigger, but review triggers are off (`reviews.enabled: false`).");
  }
  return unlessKillSwitch(event.thread, config2, {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor: event.comment.author,
      // Inline comments submitted with a review share its key: one run per review.
      dedupeKey: event.comment.reviewId !== null ? `review:${event.comment.reviewId}` : `review-comment:${event.comment.id}`,
      forceNew: parsed.forceNew,
      thread: event.thread,
      pullRequest: event.pullRequest,
      review: null,
      reviewComment: event.comment,
      reason: "trigger",
      instruction: parsed.instruction
    }
  });
}
function guardCheckFailure(input, config2) {
  const settings = config2.check_suite;
  if (!settings.enabled) {
    return { ok: false, ignored: ignore("check_suite_disabled", "CI auto-fix is off (`check_suite.enabled: false`).") };
  }
  if (!FAILING_CONCLUSIONS.includes(input.conclusion ?? "")) {
    return {
      ok: false,
      ignored: ignore("not_failed", `The ${input.what} concluded "${input.conclusion ?? "none"}": only ${FAILING_CONCLUSIONS.join(" or ")} start a fix.`)
    };
  }
  if (input.runIsFork && !settings.allow_forks) {
    return { ok: false, ignored: ignore("fork", `The ${input.what} ran on a fork's commit; fixing forks is off (\`check_suite.allow_forks: false\`).`) };
  }
  if (input.pullRequests.length === 0) {
    return { ok: false, ignored: ignore("no_pull_request", `The ${input.what} belongs to no open pull request of this repository.`) };
  }
  const notForks = settings.allow_forks ? input.pullRequests : input.pullRequests.filter((pr) => !pr.isFork);
  if (notForks.length === 0) {
    return { ok: false, ignored: ignore("fork", `The ${input.what}'s pull request comes from a fork; fixing forks is off (\`check_suite.allow_forks: false\`).`) };
  }
  const eligible = settings.branches.length === 0 ? notForks : notForks.filter((pr) => firstMatchingGlob(pr.headRef, settings.branches) !== void 0);
  if (eligible.length === 0) {
    const branches = [...new Set(notForks.map((pr) => pr.headRef))].join(", ");
    return {
      ok: false,
      ignored: ignore("branch_not_matched", `The branch ${branches} matches none of \`check_suite.branches\` (${settings.branches.join(", ")}).`)
    };
  }
  return { ok: true, eligible };
}
function detectCheckSuite(event, config2, self) {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed check suites");
  const app = event.checkSuite.app;
  if (self.appSlug && app?.slug?.toLowerCase() === self.appSlug.toLowerCase()) {
    return ignore("own_check_suite", "The check suite belongs to this app.");
  }
  const guarded = guardCheckFailure(
    { conclusion: event.checkSuite.conclusion, pullRequests: event.checkSuite.pullRequests, runIsFork: false, what: "check suite" },
    config2
  );
  if (!guarded.ok) return guarded.ignored;
  return {
    kind: "trigger",
    trigger: { flow: "check_suite", event, checkSuite: event.checkSuite, ...checkFailureFields(event, event.checkSuite.headSha, guarded.eligible) }
  };
}
function checkFailureFields(event, headSha, eligible) {
  const [pullRequest] = eligible;
  return {
    sourceType: SOURCE.gitHostCheckSuite,
    repo: event.repo,
    actor: event.sender,
    dedupeKey: `ci:${headSha}`,
    forceNew: false,
    pullRequest,
    pullRequests: eligible,
    headSha,
    headBranch: pullRequest.headRef
  };
}
function detectWorkflowRun(event, config2) {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed workflow runs");
  const run = event.workflowRun;
  const guarded = guardCheckFailure(
    { conclusion: run.conclusion, pullRequests: run.pullRequests, runIsFork: run.isFork, what: `workflow run "${run.name}"` },
    config2
  );
  if (!guarded.ok) return guarded.ignored;
  return { kind: "trigger", trigger: { flow: "workflow_run", event, workflowRun: run, ...checkFailureFields(event, run.headSha, guarded.eligible) } };
}
function dispatchTrigger(event, prompt, config2) {
  const thread = "thread" in event ? event.thread : null;
  const killSwitch = thread ? findKillSwitch(thread.labels, config2) : null;
  if (thread && killSwitch !== null) return ignore("kill_switch", killSwitchReason(killSwitch, thread.kind));
  return {
    kind: "trigger",
    trigger: {
      flow: "dispatch",
      sourceType: SOURCE.api,
      event,
      repo: event.repo,
      actor: event.sender,
      dedupeKey: `dispatch:${event.name}:${thread?.number ?? "-"}`,
      // An automation's prompt is its own task, never a follow-up to someone's run.
      forceNew: true,
      prompt,
      thread
    }
  };
}
function detectTrigger(event, config2, self, options = {}) {
  const explicit = options.explicitPrompt?.trim();
  if (explicit) return dispatchTrigger(event, explicit, config2);
  switch (event.kind) {
    case "issue_comment":
      return detectComment(event, config2, self);
    case "issues":
      return detectLabel(event, config2, self);
    case "pull_request_review":
      return detectReview(event, config2, self);
    case "pull_request_review_comment":
      return detectReviewComment(event, config2, self);
    case "check_suite":
      return detectCheckSuite(event, config2, self);
    case "workflow_run":
      return detectWorkflowRun(event, config2);
    case "other":
      return ignore("unsupported_event", `The bridge does not act on "${event.name}" events unless given an explicit prompt.`);
  }
}
function planCheckFailure(trigger, facts) {
  const ci = facts.checkSuite;
  if (!ci) throw new TypeError(`planRun: facts.checkSuite is required for the ${trigger.flow} flow`);
  if (ci.headShaAlreadyAttempted) {
    return { action: "ignore", reason: `A fix was already started for commit ${trigger.headSha.slice(0, 7)}.` };
  }
  if (ci.relevantFailures === 0) {
    return { action: "ignore", reason: "Every failing check is listed in `check_suite.ignore_checks`." };
  }
  if (ci.attemptsSoFar >= ci.maxAttempts) {
    if (ci.alreadyHandedBack) {
      return { action: "ignore", reason: `The pull request was already handed back after ${ci.attemptsSoFar} fix attempts.` };
    }
    const again = facts.triggerPhrase ? `Comment \`${facts.triggerPhrase} <what to do>\` to ask me again.` : "Ask me again in a comment if you want another try.";
    const plural2 = ci.attemptsSoFar === 1 ? "attempt" : "attempts";
    return {
      action: "hand_back",
      reason: `${ci.attemptsSoFar} fix ${plural2} reached the limit of ${ci.maxAttempts} (\`check_suite.max_attempts\`).`,
      reply: `CI is still failing on \`${trigger.headBranch}\` after ${ci.attemptsSoFar} fix ${plural2} (the limit set by \`check_suite.max_attempts\`), so I am stopping here and handing this pull request back to you. ${again}`
    };
  }
  if (facts.mode?.kind === "create") {
    return { action: "create", sourceType: trigger.sourceType, reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a new fix run (\`mode: create\`).` };
  }
  const known = facts.knownRun;
  if (known) {
    if (known.inProgress) {
      return { action: "queue", runId: known.runId, orgId: known.orgId, reason: `Run ${known.runId} is still working on this pull request; the failure is queued for it.` };
    }
    return { action: "resume", runId: known.runId, orgId: known.orgId, reason: `Resuming run ${known.runId} with the CI failure.` };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a fix.` };
}
function planRun(trigger, facts) {
  if (isCheckFailureTrigger(trigger)) return planCheckFailure(trigger, facts);
  if (!facts.permission.allowed) {
    const who2 = trigger.actor ? `@${trigger.actor.login} ` : "";
    return {
      action: "refuse",
      reason: facts.permission.why,
      reply: `${who2}I did not start the agent: ${facts.permission.why} A maintainer can run it for you, or list you under \`permissions\` in \`.github/agent-run.yml\`.`
    };
  }
  const mode = facts.mode ?? { kind: "auto" };
  if (mode.kind === "resume") {
    return { action: "resume", runId: mode.runId, orgId: mode.orgId, reason: `Resuming run ${mode.runId}, as asked (\`mode: resume\`).` };
  }
  if (mode.kind === "create") return { action: "create", sourceType: trigger.sourceType, reason: "A new run was asked for (`mode: create`)." };
  if (trigger.forceNew) {
    return { action: "create", sourceType: trigger.sourceType, reason: trigger.flow === "dispatch" ? "An explicit prompt always starts a new run." : "A fresh run was asked for (`new`)." };
  }
  const known = facts.knownRun;
  if (known && !known.inProgress) {
    return { action: "resume", runId: known.runId, orgId: known.orgId, reason: `Resuming run ${known.runId}, which handled this thread before.` };
  }
  if (known && known.inProgress) {
    if (facts.followUp === "queue") {
      return { action: "queue", runId: known.runId, orgId: known.orgId, reason: `Run ${known.runId} is still in progress; the follow-up is queued (\`follow_up: queue\`).` };
    }
    return { action: "create", sourceType: trigger.sourceType, reason: `Run ${known.runId} is still in progress; starting another one (\`follow_up: new\`).` };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: "No run is attached to this thread yet." };
}
function selectFailedChecks(checks, ignoreChecks) {
  const failed = [];
  const ignored = [];
  for (const check of checks) {
    if (!FAILING_CONCLUSIONS.includes(check.conclusion ?? "")) continue;
    if (firstMatchingGlob(check.name, ignoreChecks, { pathAware: false, ignoreCase: true }) !== void 0) ignored.push(check);
    else failed.push(check);
  }
  return { failed, ignored };
}

// src/github/client.ts
function toActor(user) {
  if (!user) return { login: "ghost", type: "User", isBot: false };
  const type = user.type ?? "User";
  return { login: user.login, type, isBot: isBotAccount({ login: user.login, type }) };
}
var MAX_PER_PAGE = 100;
function lastPageFromLink(link) {
  if (!link) return void 0;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="last"/.exec(part);
    if (!match) continue;
    const page = Number(new URL(match[1]).searchParams.get("page"));
    return Number.isInteger(page) && page > 0 ? page : void 0;
  }
  return void 0;
}
function hasNextPage(link) {
  return link !== void 0 && /rel="next"/.test(link);
}
async function collectPages(fetchPage, limit = Number.POSITIVE_INFINITY) {
  const items = [];
  for (let page = 1; items.length < limit; page++) {
    const result = await fetchPage(page, MAX_PER_PAGE);
    items.push(...result.items);
    if (!hasNextPage(result.link) || result.items.length === 0) break;
  }
  return items.slice(0, limit);
}
async function collectLastItems(fetchPage, limit) {
  const first = await fetchPage(1, MAX_PER_PAGE);
  const lastPage = lastPageFromLink(first.link);
  if (lastPage === void 0 || lastPage <= 1) {
    return { items: first.items.slice(-limit), total: first.items.length };
  }
  const firstTailPage = Math.max(2, lastPage - Math.ceil(limit / MAX_PER_PAGE));
  const tail = firstTailPage === 2 ? [...first.items] : [];
  let lastPageLength = 0;
  for (let page = firstTailPage; page <= lastPage; page++) {
    const result = await fetchPage(page, MAX_PER_PAGE);
    tail.push(...result.items);
    lastPageLength = result.items.length;
  }
  return { items: tail.slice(-limit), total: (lastPage - 1) * MAX_PER_PAGE + lastPageLength };
}

// src/github/errors.ts
var GitHubError = class extends Error {
  name = "GitHubError";
  status;
  method;
  path;
  githubMessage;
  constructor(message, details = {}) {
    const where = details.method && details.path ? ` [${details.method} ${details.path}]` : "";
    const said = details.githubMessage ? ` GitHub said: ${details.githubMessage}` : "";
    super(`${message}${where}${said}`, details.cause === void 0 ? void 0 : { cause: details.cause });
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.githubMessage = details.githubMessage;
  }
};
var GitHubInputError = class extends GitHubError {
  name = "GitHubInputError";
};
var GitHubAuthenticationError = class extends GitHubError {
  name = "GitHubAuthenticationError";
};
var GitHubPermissionError = class extends GitHubError {
  name = "GitHubPermissionError";
};
var GitHubNotFoundError = class extends GitHubError {
  name = "GitHubNotFoundError";
};
var GitHubValidationError = class extends GitHubError {
  name = "GitHubValidationError";
};
var GitHubRateLimitError = class extends GitHubError {
  name = "GitHubRateLimitError";
  retryAfterSeconds;
  /** What GitHub said about waiting, so a pacer can tell "retry-after: 60" from "no advice, 60 s by default". */
  signals;
  constructor(message, retryAfterSeconds2, details = {}, signals = {}) {
    super(message, details);
    this.retryAfterSeconds = retryAfterSeconds2;
    this.signals = signals;
  }
};
var GitHubServerError = class extends GitHubError {
  name = "GitHubServerError";
};
var GitHubNetworkError = class extends GitHubError {
  name = "GitHubNetworkError";
};
function isRequestError(error3) {
  return error3 instanceof Error && typeof error3.status === "number";
}
function retryAfterSeconds(headers, nowMs = Date.now()) {
  const retryAfter = Number(headers["retry-after"]);
  if (headers["retry-after"] !== void 0 && Number.isFinite(retryAfter)) return Math.max(0, retryAfter);
  if (String(headers["x-ratelimit-remaining"]) === "0") {
    const reset = Number(headers["x-ratelimit-reset"]);
    if (Number.isFinite(reset)) return Math.max(1, Math.ceil(reset - nowMs / 1e3));
  }
  return void 0;
}
function numericHeader(headers, name) {
  const raw = headers[name];
  if (raw === void 0 || String(raw).trim() === "") return void 0;
  const value2 = Number(raw);
  return Number.isFinite(value2) ? value2 : void 0;
}
function rateLimitSignals(headers) {
  return {
    retryAfterSeconds: numericHeader(headers, "retry-after"),
    remaining: numericHeader(headers, "x-ratelimit-remaining"),
    resetEpochSeconds: numericHeader(headers, "x-ratelimit-reset")
  };
}
function githubWords(data) {
  if (typeof data === "string") return data.trim().slice(0, 300) || void 0;
  if (typeof data !== "object" || data === null) return void 0;
  const { message, errors } = data;
  const parts = [];
  if (typeof message === "string") parts.push(message);
  if (Array.isArray(errors)) {
    for (const e of errors) {
      if (typeof e === "string") parts.push(e);
      else if (typeof e === "object" && e !== null) {
        const { field, code, message: m } = e;
        parts.push([field, m ?? code].filter((x) => typeof x === "string").join(": "));
      }
    }
  }
  return parts.filter(Boolean).join("; ") || void 0;
}
function pathOnly(url) {
  if (!url) return void 0;
  try {
    return new URL(url).pathname;
  } catch {
    return url.split("?")[0];
  }
}
function toGitHubError(error3, doing) {
  if (error3 instanceof GitHubError) return error3;
  if (!isRequestError(error3) || error3.status === 0 || error3.status === 500 && !error3.response) {
    const reason = error3 instanceof Error ? error3.message : String(error3);
    return new GitHubNetworkError(`Could not reach GitHub while ${doing}: ${reason}. Check the API URL and the network.`, { cause: error3 });
  }
  const status = error3.status;
  const headers = error3.response?.headers ?? {};
  const details = {
    status,
    method: error3.request?.method,
    path: pathOnly(error3.request?.url),
    githubMessage: githubWords(error3.response?.data),
    cause: error3
  };
  const wait = retryAfterSeconds(headers);
  const saysRateLimit = /rate limit/i.test(details.githubMessage ?? "");
  if (status === 429 || status === 403 && (wait !== void 0 || saysRateLimit)) {
    const seconds = wait ?? 60;
    return new GitHubRateLimitError(`GitHub rate-limited ${doing} (${status}); retry in ${seconds} s.`, seconds, details, rateLimitSignals(headers));
  }
  if (status === 401) {
    return new GitHubAuthenticationError(
      `GitHub rejected the credentials while ${doing} (401): check the App's ID and private key, or the token you passed, and that it has not expired.`,
      details
    );
  }
  if (status === 403) {
    return new GitHubPermissionError(
      `GitHub refused ${doing} (403): the token lacks a permission. For the App, check its permissions and that it is installed on the repository; in a workflow, grant it under \`permissions:\`.`,
      details
    );
  }
  if (status === 404 || status === 410) {
    return new GitHubNotFoundError(
      `GitHub found nothing while ${doing} (${status}): it does not exist any more, or this token cannot see it (private repository, App not installed there).`,
      details
    );
  }
  if (status === 422) return new GitHubValidationError(`GitHub rejected the data while ${doing} (422).`, details);
  if (status >= 500) return new GitHubServerError(`GitHub failed while ${doing} (${status}); try again later.`, details);
  return new GitHubError(`GitHub answered ${status} while ${doing}.`, details);
}
async function callGitHub(doing, call) {
  try {
    return await call();
  } catch (error3) {
    throw toGitHubError(error3, doing);
  }
}
function isNotFound(error3) {
  return error3 instanceof GitHubNotFoundError || isRequestError(error3) && (error3.status === 404 || error3.status === 410);
}

// src/github/comments.ts
var MAX_COMMENT_CHARS = 65536;
var DEFAULT_COMMENT_LIMIT = 300;
function toIssueComment(data) {
  const app = data.performed_via_github_app;
  return {
    id: Number(data.id),
    body: data.body ?? "",
    author: toActor(data.user),
    viaApp: app ? { id: Number(app.id), slug: app.slug ?? "" } : null,
    authorAssociation: data.author_association ?? "NONE",
    createdAt: data.created_at,
    updatedAt: data.updated_at,
    htmlUrl: data.html_url
  };
}
function checkBody(body) {
  if (body.trim() === "") throw new GitHubInputError("Refusing to post an empty comment: GitHub requires a body. Nothing was sent.");
  if (body.length > MAX_COMMENT_CHARS) {
    throw new GitHubInputError(
      `Refusing to post a comment of ${body.length} characters: GitHub accepts at most ${MAX_COMMENT_CHARS}. Shorten it (e.g. link to the full text). Nothing was sent.`
    );
  }
}
async function createComment(octokit, repo, issueNumber, body) {
  checkBody(body);
  const { data } = await callGitHub(
    `creating a comment on ${repo.owner}/${repo.repo}#${issueNumber}`,
    () => octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issueNumber, body })
  );
  return toIssueComment(data);
}
async function updateComment(octokit, repo, commentId, body) {
  checkBody(body);
  const { data } = await callGitHub(
    `updating comment ${commentId} in ${repo.owner}/${repo.repo}`,
    () => octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...repo, comment_id: commentId, body })
  );
  return toIssueComment(data);
}
async function getComment(octokit, repo, commentId) {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...repo, comment_id: commentId });
    return toIssueComment(data);
  } catch (error3) {
    if (isNotFound(error3)) return null;
    throw toGitHubError(error3, `reading comment ${commentId} in ${repo.owner}/${repo.repo}`);
  }
}
async function listIssueComments(octokit, repo, issueNumber, options = {}) {
  const limit = options.limit ?? DEFAULT_COMMENT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new GitHubInputError(`limit must be a positive integer, got ${limit}.`);
  const { items, total } = await callGitHub(
    `listing the comments of ${repo.owner}/${repo.repo}#${issueNumber}`,
    () => collectLastItems(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: issueNumber,
        per_page: perPage,
        page
      });
      return { items: response.data, link: response.headers.link };
    }, limit)
  );
  return { comments: items.map(toIssueComment), total };
}
async function listRepositoryCommentsSince(octokit, repo, since, options = {}) {
  const maxPages = options.maxPages ?? 10;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new GitHubInputError(`maxPages must be a positive integer, got ${maxPages}.`);
  const iso = since.toISOString();
  const comments = [];
  let complete = false;
  await callGitHub(`listing the comments of ${repo.owner}/${repo.repo} since ${iso}`, async () => {
    for (let page = 1; page <= maxPages; page++) {
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/comments", { ...repo, since: iso, sort: "created", direction: "asc", per_page: 100, page });
      comments.push(...response.data.map(toIssueComment));
      if (!hasNextPage(response.headers.link) || response.data.length === 0) {
        complete = true;
        return;
      }
    }
  });
  return { comments: comments.filter((comment) => Date.parse(comment.createdAt) >= since.getTime()), complete };
}

// src/config/permissions.ts
var rank = (role) => REPO_ROLES.indexOf(role);
function asRole(value2) {
  const lower = value2?.toLowerCase();
  return REPO_ROLES.includes(lower ?? "") ? lower : void 0;
}
function effectiveRole(facts) {
  return asRole(facts.role) ?? asRole(facts.basePermission) ?? "none";
}
function roleSatisfies(role, minimum) {
  return rank(role) >= rank(minimum);
}
function rolesAtLeast(minimum) {
  const roles = MINIMUM_ROLES.filter((role) => rank(role) >= rank(minimum));
  return roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(", ")} or ${roles[roles.length - 1]}`;
}
function teamsToCheck(policy, repoOwner) {
  const seen = /* @__PURE__ */ new Set();
  const teams = [];
  for (const entry of policy.teams) {
    const [org, slug] = entry.includes("/") ? entry.split("/", 2) : [repoOwner, entry];
    const name = `${org}/${slug}`.toLowerCase();
    if (seen.has(name)) continue;
    seen.add(name);
    teams.push({ org: org.toLowerCase(), slug: slug.toLowerCase(), name });
  }
  return teams;
}
function isAllowListed2(login, policy) {
  const wanted = login.toLowerCase();
  return policy.users.some((user) => user.toLowerCase() === wanted);
}
function needsTeamCheck(facts, policy) {
  return !roleSatisfies(effectiveRole(facts), policy.minimum) && !isAllowListed2(facts.login, policy) && policy.teams.length > 0;
}
function decidePermission(facts, policy) {
  const role = effectiveRole(facts);
  const who2 = `@${facts.login}`;
  if (roleSatisfies(role, policy.minimum)) {
    return { allowed: true, why: `${who2} has the ${role} role on this repository (${rolesAtLeast(policy.minimum)} is required).` };
  }
  if (isAllowListed2(facts.login, policy)) {
    return { allowed: true, why: `${who2} is listed in \`permissions.users\`.` };
  }
  const member = new Set((facts.memberOfTeams ?? []).map((team2) => team2.toLowerCase()));
  const team = teamsToCheck(policy, facts.repoOwner).find((candidate) => member.has(candidate.name));
  if (team) {
    return { allowed: true, why: `${who2} is a member of the team \`${team.name}\` listed in \`permissions.teams\`.` };
  }
  const has = facts.role === null && !facts.basePermission ? "is not a collaborator on this repository" : `has the ${role} role`;
  const alternatives = policy.teams.length > 0 ? ", is not listed in `permissions.users` and is not a member of a team in `permissions.teams`" : " and is not listed in `permissions.users`";
  return {
    allowed: false,
    why: `${who2} ${has}${alternatives}; the ${rolesAtLeast(policy.minimum)} role is required.`
  };
}

// src/github/permissions.ts
async function getCollaboratorRole(octokit, repo, login) {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...repo, username: login });
    return { roleName: data.role_name || null, permission: data.permission || null };
  } catch (error3) {
    if (isNotFound(error3)) return { roleName: null, permission: null };
    throw toGitHubError(error3, `reading the repository permission of ${login} on ${repo.owner}/${repo.repo}`);
  }
}
async function isTeamMember(octokit, org, teamSlug, login) {
  try {
    const { data } = await octokit.request("GET /orgs/{org}/teams/{team_slug}/memberships/{username}", {
      org,
      team_slug: teamSlug,
      username: login
    });
    return data.state === "active";
  } catch (error3) {
    if (isNotFound(error3)) return false;
    throw toGitHubError(error3, `checking whether ${login} is a member of the team ${org}/${teamSlug}`);
  }
}
async function checkTriggerPermission(octokit, repo, actor2, policy) {
  const login = typeof actor2 === "string" ? actor2 : actor2.login;
  if (isBotAccount(actor2)) return { allowed: false, why: `@${login} is a bot; bots cannot trigger runs.` };
  const { roleName, permission } = await getCollaboratorRole(octokit, repo, login);
  const facts = { login, repoOwner: repo.owner, role: roleName, basePermission: permission };
  if (!needsTeamCheck(facts, policy) || isAllowListed2(login, policy)) return decidePermission(facts, policy);
  const memberOfTeams = [];
  const unreadable = [];
  for (const team of teamsToCheck(policy, repo.owner)) {
    try {
      if (await isTeamMember(octokit, team.org, team.slug, login)) {
        memberOfTeams.push(team.name);
        break;
      }
    } catch (error3) {
      if (!(error3 instanceof GitHubPermissionError)) throw error3;
      unreadable.push(team.name);
    }
  }
  const decision = decidePermission({ ...facts, memberOfTeams }, policy);
  if (decision.allowed || unreadable.length === 0) return decision;
  return {
    allowed: false,
    why: `${decision.why} The membership of ${unreadable.map((t) => `\`${t}\``).join(", ")} could not be read (the token needs the organization's members: read permission).`
  };
}

// src/service/status.ts
var PHASE_OF_STATUS_GROUP = {
  inProgress: "in_progress",
  waitingForInput: "waiting_for_input",
  succeeded: "succeeded",
  stopped: "stopped",
  failed: "failed"
};
var PHASE_BY_STATUS = /* @__PURE__ */ new Map();
for (const [group, phase] of Object.entries(PHASE_OF_STATUS_GROUP)) {
  for (const status of KNOWN_STATUSES[group]) PHASE_BY_STATUS.set(status.toLowerCase(), phase);
}
function classifyRunStatus(status) {
  if (status == null || status.trim() === "") return "in_progress";
  return PHASE_BY_STATUS.get(status.trim().toLowerCase()) ?? "unknown";
}
function isFinalPhase(phase) {
  return phase === "succeeded" || phase === "failed" || phase === "stopped" || phase === "waiting_for_input";
}

// src/flows/facts.ts
function asMarkerComments(comments) {
  return comments.map((comment) => ({
    id: comment.id,
    body: comment.body,
    created_at: comment.createdAt,
    user: { login: comment.author.login, type: comment.author.type },
    performed_via_github_app: comment.viaApp ? { slug: comment.viaApp.slug } : null
  }));
}
async function triggerPermission(octokit, repo, trigger, config2, self) {
  if (isCheckFailureTrigger(trigger)) return { allowed: true, why: "CI failures need no permission." };
  if (trigger.flow === "dispatch" || !trigger.actor) return { allowed: true, why: "An explicit prompt from the workflow." };
  const login = trigger.actor.login;
  if (classifyActor(trigger.actor, self) === "allowed_bot") {
    return { allowed: true, why: `@${login} is a bot this workflow allows to trigger runs.` };
  }
  return checkTriggerPermission(octokit, repo, trigger.actor, config2.permissions);
}
function headBranchOf(trigger, pullRequest) {
  if (isCheckFailureTrigger(trigger)) return trigger.headBranch;
  if (trigger.flow === "review") return trigger.pullRequest.headRef;
  return pullRequest?.headRef ?? null;
}
async function findKnownRun(query) {
  const { repo, lookup, client, self } = query;
  const active = await lookup.activeRunInThread(repo, query.threadNumber);
  if (active && active.orgId === client.orgId) {
    return { known: { runId: active.runId ?? 0, orgId: active.orgId, inProgress: true }, pending: active.runId === null, from: "an unfinished run in this thread" };
  }
  const sameOrg = (candidate2) => candidate2 && candidate2.orgId === client.orgId ? candidate2 : null;
  const fromThread = () => {
    const found = listTrustedRunMarkers(query.comments, self).find(({ marker }) => marker.runId !== null && marker.orgId === client.orgId);
    return found ? { runId: found.marker.runId, orgId: found.marker.orgId, from: `the bot's comment ${found.commentId} in this thread` } : null;
  };
  const fromBranch = async () => {
    if (!query.headBranch) return null;
    const recorded = await lookup.runForBranch(repo, query.headBranch);
    if (recorded) return sameOrg({ ...recorded, from: `the run that produced the branch ${query.headBranch}` });
    const found = findRunForBranch(query.comments, query.headBranch, self);
    return found ? sameOrg({ runId: found.marker.runId, orgId: found.marker.orgId, from: `the bot's comment ${found.commentId} naming the branch ${query.headBranch}` }) : null;
  };
  const candidate = query.branchFirst ? await fromBranch() ?? fromThread() : fromThread() ?? await fromBranch();
  if (!candidate) return { known: null, pending: false, from: null };
  let inProgress = await lookup.isRunInProgress(candidate.runId);
  if (inProgress === null) {
    try {
      inProgress = classifyRunStatus((await client.getRun(candidate.runId)).status) === "in_progress";
    } catch (error3) {
      if (error3 instanceof NotFoundError) return { known: null, pending: false, from: null };
      throw error3;
    }
  }
  return { known: { runId: candidate.runId, orgId: candidate.orgId, inProgress }, pending: false, from: candidate.from };
}
async function checkFailureFacts(input) {
  const recorded = await input.lookup.checkAttempts(input.repo, input.prNumber, input.branch);
  const { attempts, headShas } = recorded ?? countFixAttempts(input.comments, input.branch, input.self);
  return {
    attemptsSoFar: attempts,
    headShaAlreadyAttempted: headShas.includes(input.headSha),
    maxAttempts: input.config.check_suite.max_attempts,
    alreadyHandedBack: findTrustedComment(input.comments, "hand_back", input.self) !== null,
    ...input.relevantFailures !== void 0 ? { relevantFailures: input.relevantFailures } : {}
  };
}

// src/core/metadata.ts
var MAX_VALUE_CHARS = 2048;
var SECRET_PATTERNS = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/,
  // JWTs (installation and app tokens are exchanged with them)
  /\bbearer\s+[\w.~+/-]{8,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:sk|xox[abprs])-[A-Za-z0-9-]{16,}/,
  /:\/\/[^/\s:@]+:[^/\s@]+@/
  // credentials in a URL
];
function looksLikeSecret(value2) {
  return SECRET_PATTERNS.some((pattern) => pattern.test(value2));
}
function buildRunMetadata(trigger, event, extras) {
  const fields = {
    trigger_flow: trigger.flow,
    github_event: event.name,
    github_action: event.action,
    [BRIDGE_METADATA_KEYS.deliveryId]: extras.deliveryId,
    repository: event.repo?.fullName,
    repository_id: event.repo?.id,
    installation_id: event.installationId,
    sender: trigger.actor?.login ?? event.sender?.login,
    status_comment_id: extras.statusCommentId,
    status_comment_url: extras.statusCommentUrl
  };
  const thread = triggerThread(trigger);
  if (thread) {
    fields[thread.kind === "pull_request" ? "pull_request_number" : "issue_number"] = thread.number;
    fields.html_url = thread.url;
  }
  switch (trigger.flow) {
    case "comment":
      fields.comment_id = trigger.comment.id;
      fields.comment_url = trigger.comment.url;
      break;
    case "label":
      fields.label = trigger.label;
      break;
    case "review":
      fields.head_sha = trigger.pullRequest.headSha;
      fields.head_branch = trigger.pullRequest.headRef;
      if (trigger.review) {
        fields.review_id = trigger.review.id;
        fields.review_url = trigger.review.url;
        fields.review_state = trigger.review.state;
      }
      if (trigger.reviewComment) {
        fields.review_id = trigger.reviewComment.reviewId;
        fields.comment_id = trigger.reviewComment.id;
        fields.comment_url = trigger.reviewComment.url;
      }
      break;
    case "check_suite":
      fields.check_suite_id = trigger.checkSuite.id;
      fields.check_suite_url = trigger.checkSuite.url;
      fields.conclusion = trigger.checkSuite.conclusion;
      fields.head_sha = trigger.headSha;
      fields.head_branch = trigger.headBranch;
      break;
    case "workflow_run":
      fields.workflow_run_id = trigger.workflowRun.id;
      fields.workflow_run_url = trigger.workflowRun.url;
      fields.workflow_name = trigger.workflowRun.name;
      fields.conclusion = trigger.workflowRun.conclusion;
      fields.head_sha = trigger.headSha;
      fields.head_branch = trigger.headBranch;
      break;
    case "dispatch":
      break;
  }
  const metadata = {
    source_type: trigger.sourceType,
    bridge: { name: extras.appName, version: extras.appVersion }
  };
  for (const [key, value2] of Object.entries(fields)) {
    if (value2 === void 0 || value2 === null || value2 === "") continue;
    if (typeof value2 === "string") {
      if (looksLikeSecret(value2)) continue;
      metadata[key] = value2.length > MAX_VALUE_CHARS ? value2.slice(0, MAX_VALUE_CHARS) : value2;
    } else {
      metadata[key] = value2;
    }
  }
  return metadata;
}

// src/core/prompt.ts
var DEFAULT_PROMPT_LIMITS = {
  totalChars: 6e4,
  instructionChars: 2e4,
  threadBodyChars: 8e3,
  comments: 20,
  commentChars: 3e3,
  reviewComments: 30,
  diffHunkChars: 1500,
  checks: 10,
  checkSummaryChars: 2e3,
  annotationsPerCheck: 10,
  annotationChars: 500,
  logExcerptChars: 6e3
};
var limitsOf = (options) => ({ ...DEFAULT_PROMPT_LIMITS, ...options.limits });
var cut = (text2, max, what) => truncate(text2, max, `
[… ${what} truncated …]`);
var userText = (text2, max, what) => cut(sanitizeUserText(text2), max, what);
var oneLine = (text2, max = 300) => truncate(stripInvisibleCharacters(normalizeNewlines(text2 ?? "")).replace(/\s+/g, " ").trim(), max, "…");
function fenced(content, language = "") {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}
${content}
${fence}`;
}
var threadNoun = (kind) => kind === "pull_request" ? "pull request" : "issue";
function isBotComment(comment, botLogins) {
  return classifyActor({ login: comment.author, type: comment.authorType }, { botLogins }) !== "person";
}
function threadSection(thread, options, exclude = {}) {
  const limits = limitsOf(options);
  const noun = threadNoun(thread.kind);
  const lines2 = [`## ${noun === "issue" ? "Issue" : "Pull request"} ${thread.repository}#${thread.number}: ${oneLine(thread.title)}`, `URL: ${thread.url}`];
  const pr = thread.pullRequest;
  if (pr) {
    const from = pr.isFork && pr.headRepoFullName ? ` (from the fork ${pr.headRepoFullName})` : "";
    lines2.push(`Branches: \`${oneLine(pr.headRef)}\`${from} into \`${oneLine(pr.baseRef)}\``);
  }
  const body = userText(thread.body, limits.threadBodyChars, "description");
  lines2.push("", `### Description${thread.author ? ` (by @${thread.author})` : ""}`, body === "" ? "(no description)" : body);
  const human = (thread.comments ?? []).filter(
    (comment) => !isBotComment(comment, options.botLogins ?? []) && !(exclude.id !== void 0 && comment.id === exclude.id) && !(exclude.url && comment.url === exclude.url)
  );
  const recent = human.slice(-limits.comments);
  if (recent.length > 0) {
    const total = human.length + Math.max(0, thread.omittedComments ?? 0);
    const shown = recent.length < total ? `, the last ${recent.length} of ${total}` : "";
    lines2.push("", `### Comments (oldest first${shown})`);
    for (const comment of recent) {
      const when = comment.createdAt ? ` at ${comment.createdAt}` : "";
      const text2 = userText(comment.body, limits.commentChars, "comment");
      lines2.push("", `#### @${comment.author}${when}`, text2 === "" ? "(empty)" : text2);
    }
  }
  return lines2.join("\n");
}
function reviewSection(review, comments, options) {
  const limits = limitsOf(options);
  const lines2 = [];
  if (review) {
    const body = userText(review.body, limits.commentChars, "review");
    lines2.push(`## Review by @${review.author} (${review.state.replace(/_/g, " ")})`, `URL: ${review.url}`, body === "" ? "(no summary)" : body);
  }
  const shown = comments.slice(0, limits.reviewComments);
  if (shown.length > 0) {
    const more = shown.length < comments.length ? ` (the first ${shown.length} of ${comments.length})` : "";
    lines2.push("", `## Inline comments${more}`);
    for (const comment of shown) {
      const range = comment.startLine && comment.line && comment.startLine !== comment.line ? `${comment.startLine}-${comment.line}` : comment.line;
      const where = `${oneLine(comment.path)}${range ? `:${range}` : ""}`;
      lines2.push("", `### ${where} (by @${comment.author})`);
      if (comment.url) lines2.push(`URL: ${comment.url}`);
      if (comment.diffHunk) {
        const hunk = truncate(stripInvisibleCharacters(normalizeNewlines(comment.diffHunk)), limits.diffHunkChars, "[… earlier lines of the hunk truncated …]\n", "tail");
        lines2.push(fenced(hunk, "diff"));
      }
      lines2.push(userText(comment.body, limits.commentChars, "comment"));
    }
  }
  return lines2.join("\n").trim();
}
function checkFailureSection(ci, options) {
  const limits = limitsOf(options);
  const lines2 = [];
  const failures = ci.failures.slice(0, limits.checks);
  if (failures.length === 0) lines2.push("(The bridge could not read which checks failed: open the link above.)");
  if (ci.failures.length > failures.length) lines2.push(`${ci.failures.length} checks failed; the first ${failures.length} are shown.`);
  for (const check of failures) {
    lines2.push("", `## Failed: ${oneLine(check.name)} (${check.conclusion ?? "failed"})`);
    if (check.url) lines2.push(`URL: ${check.url}`);
    if (check.title) lines2.push(`Title: ${oneLine(check.title)}`);
    if (check.failedSteps && check.failedSteps.length > 0) lines2.push(`Failed steps: ${check.failedSteps.map((step) => oneLine(step, 200)).join(", ")}`);
    const summary2 = userText(check.summary, limits.checkSummaryChars, "summary");
    if (summary2) lines2.push("Summary:", summary2);
    const annotations = check.annotations ?? [];
    if (annotations.length > 0) {
      const shown = annotations.slice(0, limits.annotationsPerCheck);
      lines2.push(`Annotations${shown.length < annotations.length ? ` (the first ${shown.length} of ${annotations.length})` : ""}:`);
      for (const note of shown) {
        const range = note.startLine ? `:${note.startLine}${note.endLine && note.endLine !== note.startLine ? `-${note.endLine}` : ""}` : "";
        const title = note.title ? `${oneLine(note.title, 200)}: ` : "";
        const message = oneLine(sanitizeUserText(note.message), limits.annotationChars);
        lines2.push(`- ${oneLine(note.path)}${range}${note.level ? ` (${note.level})` : ""}: ${title}${message}`);
      }
    }
    if (check.logExcerpt) {
      const log = stripInvisibleCharacters(stripAnsiEscapes(normalizeNewlines(check.logExcerpt))).trimEnd();
      lines2.push("Log (end):", fenced(truncate(log, limits.logExcerptChars, "[… earlier log lines truncated …]\n", "tail"), "text"));
    }
  }
  return lines2.join("\n").trim();
}
function checkFailureHeader(ci, again) {
  const pr = ci.pullRequest;
  const title = pr.title ? ` "${oneLine(pr.title)}"` : "";
  const what = ci.runName ? `The workflow "${oneLine(ci.runName)}"` : "CI";
  const lines2 = [
    `${what} ${again ? "failed again" : "failed"} on pull request ${ci.repository}#${pr.number}${title} (${pr.url}), branch \`${oneLine(pr.headRef)}\`${pr.baseRef ? ` into \`${oneLine(pr.baseRef)}\`` : ""}, commit ${ci.headSha.slice(0, 12)}.`,
    "Find the cause of each failure below, fix it on the pull request's branch and push. Do not disable or skip the failing checks."
  ];
  if (ci.runUrl) lines2.push(`Run: ${ci.runUrl}`);
  if (ci.attempt) lines2.push(`This is fix attempt ${ci.attempt.number} of ${ci.attempt.max}.`);
  return lines2.join("\n");
}
function instructionText(instruction, options) {
  return cut(sanitizeUserText(instruction), limitsOf(options).instructionChars, "instruction");
}
var PROMPT_TRUNCATION_MARKER = (max) => `

[… context truncated by agent-run-bridge to keep the prompt within ${max} characters …]

`;
function fit(head, context, options) {
  const limits = limitsOf(options);
  const instructions = sanitizeUserText(options.instructions);
  const tail = instructions ? `

## Repository instructions
${instructions}` : "";
  const separator = context ? "\n\n" : "";
  const whole = `${head}${separator}${context}${tail}`;
  if (whole.length <= limits.totalChars) return whole;
  const marker = PROMPT_TRUNCATION_MARKER(limits.totalChars);
  const room = limits.totalChars - head.length - separator.length - tail.length;
  if (room > marker.length + 200) return `${head}${separator}${truncate(context, room, marker)}${tail}`;
  return truncate(`${head}${tail}`, limits.totalChars, marker);
}
function buildRunPrompt(input, options = {}) {
  switch (input.flow) {
    case "comment": {
      const noun = threadNoun(input.thread.kind);
      const instruction = instructionText(input.instruction, options);
      const head = [
        `@${input.requester} asked for help on ${noun} ${input.thread.repository}#${input.thread.number} (${input.commentUrl}):`,
        "",
        instruction === "" ? `(No instruction was given: read the ${noun} below and do what it asks.)` : instruction
      ].join("\n");
      return fit(head, threadSection(input.thread, options, { id: input.commentId, url: input.commentUrl }), options);
    }
    case "label": {
      const head = `@${input.requester} added the label "${oneLine(input.label)}" to issue ${input.thread.repository}#${input.thread.number} (${input.thread.url}). Resolve the issue described below.`;
      return fit(head, threadSection(input.thread, options), options);
    }
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const where = `pull request ${input.thread.repository}#${input.thread.number} (${input.thread.url})`;
      const head = [
        input.review && input.review.state === "changes_requested" && instruction === "" ? `@${input.requester} requested changes on ${where}. Address the review below and push to the pull request's branch.` : `@${input.requester} asked for help in a review of pull request ${input.thread.repository}#${input.thread.number} (${input.triggerCommentUrl ?? input.review?.url ?? input.thread.url}):`,
        ...instruction === "" ? [] : ["", instruction]
      ].join("\n");
      const context = [reviewSection(input.review, input.reviewComments, options), threadSection(input.thread, options)].filter(Boolean).join("\n\n");
      return fit(head, context, options);
    }
    case "check_suite":
    case "workflow_run":
      return fit(checkFailureHeader(input, false), checkFailureSection(input, options), options);
    case "dispatch": {
      const head = instructionText(input.prompt, options);
      return fit(head, input.thread ? threadSection(input.thread, options) : "", options);
    }
  }
}
function buildResumePrompt(input, options = {}) {
  switch (input.flow) {
    case "comment": {
      const instruction = instructionText(input.instruction, options);
      const head = `Follow-up from @${input.requester} on ${input.commentUrl}:

${instruction === "" ? "(No new instruction: check the thread for what changed and continue.)" : instruction}`;
      return fit(head, "", options);
    }
    case "label":
      return fit(
        `@${input.requester} added the label "${oneLine(input.label)}" again on ${input.thread.url}. Check the issue for what changed and continue.`,
        "",
        options
      );
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const url = input.triggerCommentUrl ?? input.review?.url ?? input.thread.url;
      const head = `Follow-up review from @${input.requester} on ${url}${instruction === "" ? ". Address it and push to the pull request's branch." : `:

${instruction}`}`;
      return fit(head, reviewSection(input.review, input.reviewComments, options), options);
    }
    case "check_suite":
    case "workflow_run":
      return fit(checkFailureHeader(input, true), checkFailureSection(input, options), options);
    case "dispatch":
      return fit(instructionText(input.prompt, options), "", options);
  }
}
var ATTACHMENT_HOSTS = /* @__PURE__ */ new Set(["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"]);
function isGitHubAttachmentUrl(candidate) {
  let url;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  if (ATTACHMENT_HOSTS.has(url.hostname)) return true;
  return url.hostname === "github.com" && url.pathname.startsWith("/user-attachments/");
}
var MAX_IMAGE_ATTACHMENTS = 4;
function parseImageAttachments(body, max = MAX_IMAGE_ATTACHMENTS) {
  const prose = classifyLines(sanitizeUserText(body)).filter((line) => !line.code).map((line) => line.text.replace(/`[^`\n]*`/g, "")).join("\n");
  const found = [];
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
    found.push({ index: match.index, url: match[1] });
  }
  for (const match of prose.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    found.push({ index: match.index, url: match[1] ?? match[2] ?? match[3] });
  }
  const urls = [];
  for (const { url } of found.sort((a, b) => a.index - b.index)) {
    const decoded = url.replace(/&amp;/g, "&");
    if (isGitHubAttachmentUrl(decoded) && !urls.includes(decoded)) urls.push(decoded);
    if (urls.length >= max) break;
  }
  return urls;
}
function threadContextFrom(repo, thread, fetched = {}) {
  const pr = fetched.pullRequest;
  return {
    repository: repo.fullName,
    kind: thread.kind,
    number: thread.number,
    url: thread.url,
    title: thread.title,
    body: thread.body,
    author: thread.author?.login ?? null,
    comments: fetched.comments ?? [],
    omittedComments: fetched.omittedComments ?? 0,
    pullRequest: pr ? { url: pr.url, baseRef: pr.baseRef, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName ?? null, isFork: pr.isFork ?? false } : null
  };
}
function reviewCommentContextFrom(comment) {
  return {
    id: comment.id,
    author: comment.author.login,
    path: comment.path,
    line: comment.line,
    startLine: comment.startLine,
    diffHunk: comment.diffHunk,
    body: comment.body,
    url: comment.url
  };
}

// src/core/stop.ts
function detectStopRequest(event, config2, self) {
  const grammar = { phrase: config2.trigger_phrase, appSlug: self.appSlug, mention: config2.mention };
  const isStop = (body) => parseTriggerComment(body, grammar)?.kind === "stop";
  const person = (actor2) => actor2 !== null && !isBotActor(actor2, self) && !isBotActor(event.sender, self);
  switch (event.kind) {
    case "issue_comment":
      if (event.action !== "created" || !person(event.comment.author) || !isStop(event.comment.body)) return null;
      return {
        repo: event.repo,
        thread: event.thread,
        actor: event.comment.author,
        reaction: { kind: "issue_comment", id: event.comment.id },
        url: event.comment.url,
        dedupeKey: `stop:comment:${event.comment.id}`
      };
    case "pull_request_review_comment":
      if (event.action !== "created" || !person(event.comment.author) || !isStop(event.comment.body)) return null;
      return {
        repo: event.repo,
        thread: event.thread,
        actor: event.comment.author,
        reaction: { kind: "review_comment", id: event.comment.id },
        url: event.comment.url,
        dedupeKey: `stop:review-comment:${event.comment.id}`
      };
    case "pull_request_review": {
      const author = event.review.author ?? event.sender;
      if (event.action !== "submitted" || !person(author) || !isStop(event.review.body)) return null;
      return { repo: event.repo, thread: event.thread, actor: author, reaction: null, url: event.review.url, dedupeKey: `stop:review:${event.review.id}` };
    }
    default:
      return null;
  }
}
var GITHUB_LOGIN2 = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
var who = (login) => GITHUB_LOGIN2.test(login) ? `@${login}` : inlineCode(login, { maxLength: 60 });
function runRef(runId, webUrl) {
  if (runId === null) return md`the run`;
  const href = safeHttpUrl(webUrl);
  return href && href.length <= 2e3 ? renderLink(`#${runId}`, href) : `${runId}`;
}
function cancelNote(webUrl) {
  const href = safeHttpUrl(webUrl);
  const page = href && href.length <= 2e3 ? renderLink("its page", href) : md`its page on the Agent Run Service`;
  return md`The Agent Run Service has no cancel call, so **the run itself may still be working**: stop it on ${page} if it should not finish.`;
}
function renderStoppedComment(input) {
  const { outcome: _previous, ...identity } = input.marker;
  const marker = renderMarker({ ...identity, state: "done", outcome: "stopped" });
  const link = runRef(input.marker.runId, input.webUrl);
  const again = inlineCode(`${input.triggerPhrase} <instructions>`, { maxLength: 100 });
  if (input.role === "follow_up") {
    return `${marker}
${md`⏹️ **Dropped:** ${who(input.stoppedBy)} stopped agent run ${link} before this follow-up was sent. Reply with ${again} to ask again.`}`;
  }
  const lines2 = [
    md`### ⏹️ Agent run ${link} stopped by ${who(input.stoppedBy)}`,
    md`I stopped watching this run and will not post its result here. ${cancelNote(input.webUrl)}`,
    md`<sub>Reply with ${again} to continue this run.</sub>`
  ];
  return `${marker}
${lines2.join("\n\n")}`;
}
function renderStopReply(input) {
  const phrase = inlineCode(input.triggerPhrase, { maxLength: 100 });
  const ci = input.pullRequest ? md` CI auto-fix is paused on this pull request until the next ${phrase} comment.` : md``;
  const dropped = input.droppedFollowUps > 0 ? ` and dropped ${input.droppedFollowUps === 1 ? "the follow-up" : `${input.droppedFollowUps} follow-ups`} waiting for it` : md``;
  const body = input.stopped ? md`⏹️ ${who(input.stoppedBy)}, I stopped watching agent run ${runRef(input.stopped.runId, input.stopped.webUrl)}${dropped}. ${cancelNote(input.stopped.webUrl)}${ci}` : md`⏹️ ${who(input.stoppedBy)}, nothing is running in this thread, so there was nothing to stop.${ci}`;
  return `${renderKindMarker("stop")}
${body}`;
}
function isCiPausedByStop(comments, config2, self) {
  let lastStop = -1;
  for (const comment of comments) {
    if (comment.id > lastStop && isTrustedAuthor(comment, self) && parseCommentKind(comment.body) === "stop") lastStop = comment.id;
  }
  if (lastStop === -1) return false;
  const grammar = { phrase: config2.trigger_phrase, appSlug: self.appSlug, mention: config2.mention };
  return !comments.some((comment) => {
    if (comment.id <= lastStop || !comment.user) return false;
    if (isBotActor({ login: comment.user.login, type: comment.user.type ?? "User" }, self)) return false;
    return parseTriggerComment(comment.body, grammar)?.kind === "run";
  });
}

// src/github/pulls.ts
function toPullRequest(data) {
  const headRepo = data.head.repo;
  return {
    number: data.number,
    title: data.title,
    body: data.body ?? "",
    state: data.state === "closed" ? "closed" : "open",
    draft: data.draft ?? false,
    // The list endpoint has no `merged`, only `merged_at`.
    merged: data.merged ?? data.merged_at !== null,
    author: toActor(data.user),
    head: { ref: data.head.ref, sha: data.head.sha, repoFullName: headRepo?.full_name ?? null, fork: headRepo?.fork ?? false },
    base: { ref: data.base.ref, sha: data.base.sha, repoFullName: data.base.repo.full_name },
    fromFork: headRepo === null || headRepo.full_name.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
    htmlUrl: data.html_url,
    labels: (data.labels ?? []).map((label) => typeof label === "string" ? label : label.name ?? "").filter((name) => name !== "")
  };
}
async function getPullRequest(octokit, repo, number3) {
  const { data } = await callGitHub(
    `reading pull request ${repo.owner}/${repo.repo}#${number3}`,
    () => octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...repo, pull_number: number3 })
  );
  return toPullRequest(data);
}
async function findPullRequestsForBranch(octokit, repo, branch, options = {}) {
  if (branch.trim() === "") throw new GitHubInputError("findPullRequestsForBranch needs a branch name. Nothing was sent.");
  const head = `${options.headOwner ?? repo.owner}:${branch}`;
  const pulls = await callGitHub(
    `finding pull requests for ${head} in ${repo.owner}/${repo.repo}`,
    () => collectPages(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/pulls", {
        ...repo,
        head,
        state: options.state ?? "open",
        per_page: perPage,
        page
      });
      return { items: response.data, link: response.headers.link };
    }, options.limit ?? 100)
  );
  return pulls.map(toPullRequest);
}
function toReviewComment(data) {
  return {
    id: Number(data.id),
    reviewId: data.pull_request_review_id === null ? null : Number(data.pull_request_review_id),
    body: data.body,
    path: data.path,
    line: data.line ?? data.position ?? null,
    diffHunk: data.diff_hunk,
    inReplyToId: data.in_reply_to_id === void 0 ? null : Number(data.in_reply_to_id),
    author: toActor(data.user),
    createdAt: data.created_at,
    htmlUrl: data.html_url
  };
}
async function listReviewComments(octokit, repo, prNumber, reviewId, options = {}) {
  const comments = await callGitHub(
    `listing the comments of review ${reviewId} on ${repo.owner}/${repo.repo}#${prNumber}`,
    () => collectPages(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments", {
        ...repo,
        pull_number: prNumber,
        review_id: reviewId,
        per_page: perPage,
        page
      });
      return { items: response.data, link: response.headers.link };
    }, options.limit ?? 300)
  );
  return comments.map(toReviewComment);
}

// src/github/checks.ts
var FAILED_CONCLUSIONS = ["failure", "timed_out", "startup_failure"];
var DEFAULT_MAX_ANNOTATIONS = 20;
var DEFAULT_MAX_LOG_BYTES = 2e4;
var MAX_LISTED = 500;
function isIgnored(name, ignore2) {
  return firstMatchingGlob(name, ignore2, { pathAware: false, ignoreCase: true }) !== void 0;
}
var LEVEL_ORDER = { failure: 0, warning: 1, notice: 2 };
async function listFailedCheckRuns(octokit, repo, checkSuiteId, options = {}) {
  const ignore2 = options.ignore ?? [];
  const maxAnnotations = options.maxAnnotations ?? DEFAULT_MAX_ANNOTATIONS;
  const where = `${repo.owner}/${repo.repo}`;
  const runs = await callGitHub(
    `listing the check runs of check suite ${checkSuiteId} in ${where}`,
    () => collectPages(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs", {
        ...repo,
        check_suite_id: checkSuiteId,
        filter: "latest",
        per_page: perPage,
        page
      });
      return { items: response.data.check_runs, link: response.headers.link };
    }, MAX_LISTED)
  );
  const failed = [];
  for (const run of runs) {
    if (!run.conclusion || !FAILED_CONCLUSIONS.includes(run.conclusion) || isIgnored(run.name, ignore2)) continue;
    const id = Number(run.id);
    const total = run.output.annotations_count;
    const annotations = total > 0 && maxAnnotations > 0 ? await listAnnotations(octokit, repo, id, total, maxAnnotations) : [];
    failed.push({
      id,
      name: run.name,
      conclusion: run.conclusion,
      title: run.output.title ?? null,
      summary: run.output.summary ?? null,
      text: run.output.text ?? null,
      htmlUrl: run.html_url ?? run.details_url ?? null,
      annotations,
      annotationsTotal: total
    });
  }
  return failed;
}
async function listAnnotations(octokit, repo, checkRunId, total, max) {
  const wanted = Math.min(total, Math.max(max, 300));
  const items = await callGitHub(
    `listing the annotations of check run ${checkRunId}`,
    () => collectPages(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations", {
        ...repo,
        check_run_id: checkRunId,
        per_page: perPage,
        page
      });
      return { items: response.data, link: response.headers.link };
    }, wanted)
  );
  return items.map((a) => ({
    path: a.path,
    startLine: a.start_line,
    endLine: a.end_line,
    level: a.annotation_level ?? "notice",
    title: a.title,
    message: a.message ?? ""
  })).sort((a, b) => (LEVEL_ORDER[a.level] ?? 3) - (LEVEL_ORDER[b.level] ?? 3)).slice(0, max);
}
async function listFailedJobs(octokit, repo, workflowRunId, options = {}) {
  const maxLogBytes = options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES;
  const ignore2 = options.ignore ?? [];
  const jobs = await callGitHub(
    `listing the jobs of workflow run ${workflowRunId} in ${repo.owner}/${repo.repo}`,
    () => collectPages(async (page, perPage) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs", {
        ...repo,
        run_id: workflowRunId,
        filter: "latest",
        per_page: perPage,
        page
      });
      return { items: response.data.jobs, link: response.headers.link };
    }, MAX_LISTED)
  );
  const failed = [];
  for (const job of jobs) {
    if (!job.conclusion || !FAILED_CONCLUSIONS.includes(job.conclusion) || isIgnored(job.name, ignore2)) continue;
    const id = Number(job.id);
    const log = maxLogBytes > 0 ? await readJobLog(octokit, repo, id) : { text: "", unavailable: null };
    const tail = tailBytes(log.text, maxLogBytes);
    failed.push({
      id,
      name: job.name,
      conclusion: job.conclusion,
      htmlUrl: job.html_url,
      failedSteps: (job.steps ?? []).filter((s) => s.conclusion !== null && FAILED_CONCLUSIONS.includes(s.conclusion)).map((s) => ({ number: s.number, name: s.name, conclusion: s.conclusion })),
      logTail: tail.text,
      logTruncated: tail.truncated,
      logUnavailable: log.unavailable
    });
  }
  return failed;
}
async function readJobLog(octokit, repo, jobId) {
  try {
    const response = await octokit.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", { ...repo, job_id: jobId });
    const data = response.data;
    if (typeof data === "string") return { text: data, unavailable: null };
    if (data instanceof ArrayBuffer) return { text: Buffer.from(data).toString("utf8"), unavailable: null };
    return { text: "", unavailable: "the log download returned no text" };
  } catch (error3) {
    const mapped = toGitHubError(error3, `downloading the log of job ${jobId}`);
    if (mapped instanceof GitHubRateLimitError || mapped instanceof GitHubAuthenticationError) throw mapped;
    return { text: "", unavailable: mapped.message };
  }
}
function tailBytes(text2, maxBytes) {
  const bytes = Buffer.from(text2, "utf8");
  if (bytes.length <= maxBytes) return { text: text2, truncated: false };
  let tail = bytes.subarray(bytes.length - maxBytes).toString("utf8");
  tail = tail.replace(/^\uFFFD+/, "");
  const newline = tail.indexOf("\n");
  if (newline !== -1 && newline < tail.length - 1) tail = tail.slice(newline + 1);
  return { text: tail, truncated: true };
}

// src/flows/context.ts
function asPromptComments(comments) {
  return comments.map((comment) => ({
    id: comment.id,
    author: comment.author.login,
    authorType: comment.author.type,
    body: comment.body,
    createdAt: comment.createdAt,
    url: comment.htmlUrl
  }));
}
var threadContext = (repo, fetched) => threadContextFrom(repo, fetched.thread, {
  comments: asPromptComments(fetched.comments),
  omittedComments: fetched.omitted,
  pullRequest: fetched.pullRequest
});
async function fetchCheckFailures(octokit, repo, trigger, config2, limits) {
  const ignore2 = config2.check_suite.ignore_checks;
  if (trigger.flow === "check_suite") {
    const runs = await listFailedCheckRuns(octokit, repo, trigger.checkSuite.id, { maxAnnotations: limits.annotationsPerCheck });
    const { failed: failed2, ignored: ignored2 } = selectFailedChecks(runs, ignore2);
    return {
      relevantFailures: failed2.length + ignored2.length > 0 ? failed2.length : void 0,
      failures: failed2.map((run) => ({
        name: run.name,
        conclusion: run.conclusion,
        url: run.htmlUrl,
        title: run.title,
        summary: run.summary,
        annotations: run.annotations.map((a) => ({ path: a.path, startLine: a.startLine, endLine: a.endLine, level: a.level, title: a.title, message: a.message }))
      }))
    };
  }
  const jobs = await listFailedJobs(octokit, repo, trigger.workflowRun.id, { maxLogBytes: limits.logExcerptChars * 2 });
  const { failed, ignored } = selectFailedChecks(jobs, ignore2);
  return {
    relevantFailures: failed.length + ignored.length > 0 ? failed.length : void 0,
    failures: failed.map((job) => ({
      name: job.name,
      conclusion: job.conclusion,
      url: job.htmlUrl,
      failedSteps: job.failedSteps.map((step) => step.name),
      logExcerpt: job.logTail || (job.logUnavailable ? `(log unavailable: ${job.logUnavailable})` : null)
    }))
  };
}
async function fetchReviewComments(octokit, repo, trigger) {
  if (trigger.reviewComment) return [reviewCommentContextFrom(trigger.reviewComment)];
  if (!trigger.review) return [];
  const comments = await listReviewComments(octokit, repo, trigger.pullRequest.number, trigger.review.id);
  return comments.map((comment) => ({
    id: comment.id,
    author: comment.author.login,
    path: comment.path,
    line: comment.line,
    diffHunk: comment.diffHunk,
    body: comment.body,
    url: comment.htmlUrl
  }));
}
function promptInputFor(trigger, fetched) {
  const thread = fetched.thread;
  switch (trigger.flow) {
    case "comment":
      return {
        flow: "comment",
        instruction: trigger.instruction,
        requester: trigger.actor.login,
        commentUrl: trigger.comment.url,
        commentId: trigger.comment.id,
        thread: threadContext(trigger.repo, thread)
      };
    case "label":
      return { flow: "label", label: trigger.label, requester: trigger.actor.login, thread: threadContext(trigger.repo, thread) };
    case "review": {
      const review = trigger.review;
      return {
        flow: "review",
        instruction: trigger.instruction,
        requester: trigger.actor.login,
        thread: threadContext(trigger.repo, thread),
        review: review ? { author: review.author?.login ?? trigger.actor.login, state: review.state, body: review.body, url: review.url } : null,
        reviewComments: fetched.reviewComments ?? [],
        triggerCommentUrl: trigger.reviewComment?.url ?? null
      };
    }
    case "check_suite":
    case "workflow_run": {
      const pr = trigger.pullRequest;
      return {
        flow: trigger.flow,
        repository: trigger.repo.fullName,
        pullRequest: { number: pr.number, url: pr.url, headRef: pr.headRef, baseRef: pr.baseRef },
        headSha: trigger.headSha,
        runName: trigger.flow === "workflow_run" ? trigger.workflowRun.name : null,
        runUrl: trigger.flow === "workflow_run" ? trigger.workflowRun.url : trigger.checkSuite.url,
        failures: fetched.checks?.failures ?? [],
        ...fetched.attempt ? { attempt: fetched.attempt } : {}
      };
    }
    case "dispatch":
      return { flow: "dispatch", prompt: trigger.prompt, thread: thread && trigger.repo ? threadContext(trigger.repo, thread) : null };
  }
}

// src/core/image-types.ts
var IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
var startsWith = (bytes, signature, offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
var ascii = (text2) => [...text2].map((c) => c.charCodeAt(0));
function sniffImageType(bytes) {
  if (startsWith(bytes, [137, 80, 78, 71, 13, 10, 26, 10])) return "image/png";
  if (startsWith(bytes, [255, 216, 255])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return void 0;
}
function toDataUri(type, bytes) {
  return `data:${type};base64,${Buffer.from(bytes).toString("base64")}`;
}

// src/github/attachments.ts
var DEFAULT_TOKEN_ORIGINS = ["https://github.com"];
var MAX_REDIRECTS = 5;
async function downloadImagesAsDataUris(urls, options) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const tokenOrigins = new Set((options.tokenOrigins ?? DEFAULT_TOKEN_ORIGINS).map(originOf).filter((o) => o !== null));
  const images = [];
  const seen = /* @__PURE__ */ new Set();
  const skip = (url, reason) => options.onSkip?.({ url, reason });
  for (const url of urls) {
    if (seen.has(url)) continue;
    seen.add(url);
    if (images.length >= Math.max(0, options.maxCount)) {
      skip(url, `more than ${options.maxCount} images; only the first ${options.maxCount} are sent`);
      continue;
    }
    const result = await downloadImage(url, doFetch, tokenOrigins, options);
    if ("reason" in result) skip(url, result.reason);
    else images.push(toDataUri(result.type, result.bytes));
  }
  return images;
}
async function downloadImage(url, doFetch, tokenOrigins, options) {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 15e3), ...options.signal ? [options.signal] : []];
  const signal = AbortSignal.any(signals);
  try {
    let current = url;
    let response;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const origin = originOf(current);
      if (origin === null) return { reason: "not an http(s) URL" };
      const headers = { accept: IMAGE_TYPES.join(", ") };
      if (options.token && tokenOrigins.has(origin)) headers.authorization = `token ${options.token}`;
      response = await doFetch(current, { headers, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current).toString();
        response = void 0;
        continue;
      }
      break;
    }
    if (!response) return { reason: `more than ${MAX_REDIRECTS} redirects` };
    if (!response.ok) {
      await response.body?.cancel();
      return { reason: `download answered HTTP ${response.status}` };
    }
    const declared = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const declaredImage = IMAGE_TYPES.find((t) => t === declared);
    const mayBeImage = declaredImage !== void 0 || declared === "" || declared === "application/octet-stream";
    if (!mayBeImage) {
      await response.body?.cancel();
      return { reason: `content type ${declared} is not a supported image (${IMAGE_TYPES.join(", ")})` };
    }
    const length = Number(response.headers.get("content-length"));
    if (Number.isFinite(length) && length > options.maxBytes) {
      await response.body?.cancel();
      return { reason: `${length} bytes is larger than the limit of ${options.maxBytes} bytes` };
    }
    const bytes = await readAtMost(response, options.maxBytes);
    if (bytes === null) return { reason: `larger than the limit of ${options.maxBytes} bytes` };
    const type = declaredImage ?? sniffImageType(bytes);
    if (!type) return { reason: "the bytes are not a PNG, JPEG, GIF or WebP image" };
    return { type, bytes };
  } catch (error3) {
    const reason = signal.aborted ? "timed out or aborted" : error3 instanceof Error ? error3.message : String(error3);
    return { reason: `download failed: ${reason}` };
  }
}
async function readAtMost(response, maxBytes) {
  if (!response.body) return Buffer.alloc(0);
  const chunks = [];
  let size = 0;
  const reader = response.body.getReader();
  for (; ; ) {
    const { done: done2, value: value2 } = await reader.read();
    if (done2) break;
    size += value2.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value2);
  }
  return Buffer.concat(chunks);
}
function originOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

// src/flows/images.ts
var DEFAULT_MAX_IMAGE_BYTES = 3 * 1024 * 1024;
function triggerBody(trigger) {
  switch (trigger.flow) {
    case "comment":
      return trigger.comment.body;
    case "review":
      return trigger.reviewComment?.body ?? trigger.review?.body ?? "";
    default:
      return "";
  }
}
async function triggerImages(trigger, settings = {}) {
  const maxCount = settings.maxCount ?? MAX_IMAGE_ATTACHMENTS;
  const urls = parseImageAttachments(triggerBody(trigger), maxCount);
  if (urls.length === 0) return { images: [], skipped: [] };
  const token = typeof settings.token === "function" ? await settings.token() : settings.token;
  const skipped = [];
  const images = await downloadImagesAsDataUris(urls, {
    maxCount,
    maxBytes: settings.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES,
    onSkip: (skip) => skipped.push(skip),
    ...token ? { token } : {},
    ...settings.tokenOrigins ? { tokenOrigins: settings.tokenOrigins } : {},
    ...settings.fetch ? { fetch: settings.fetch } : {},
    ...settings.timeoutMs !== void 0 ? { timeoutMs: settings.timeoutMs } : {}
  });
  return { images, skipped };
}

// src/flows/repository-id.ts
var REPOSITORY_ID_CACHE_MS = 60 * 6e4;
var MAX_REPOSITORY_PAGES = 20;
var RepositoryIdDirectory = class {
  entries = /* @__PURE__ */ new WeakMap();
  ttlMs;
  maxPages;
  now;
  constructor(options = {}) {
    this.ttlMs = options.ttlMs ?? REPOSITORY_ID_CACHE_MS;
    this.maxPages = options.maxPages ?? MAX_REPOSITORY_PAGES;
    this.now = options.now ?? Date.now;
  }
  /** The repository's id on the service: by `github_id` when the service lists one, else by `full_name`. */
  async lookup(lister, repo, logger) {
    let index;
    try {
      index = await this.indexFor(lister);
    } catch (error3) {
      logger?.warn({ err: error3, repository: repo.fullName }, "could not list the service's repositories; the run is sent without repo_id");
      return { repoId: null, why: "lookup_failed" };
    }
    if (index === "unsupported") return { repoId: null, why: "no_endpoint" };
    const found = (repo.githubId !== void 0 ? index.byGithubId.get(repo.githubId) : void 0) ?? index.byFullName.get(repo.fullName.toLowerCase());
    if (found !== void 0) return { repoId: found, from: "service" };
    if (!index.complete) {
      logger?.warn({ repository: repo.fullName, pages: this.maxPages }, "the service lists more repositories than the bridge reads; set repo_id in the configuration");
    }
    return { repoId: null, why: "not_listed" };
  }
  indexFor(lister) {
    const cached2 = this.entries.get(lister);
    if (cached2 && this.now() - cached2.at < this.ttlMs) return cached2.index;
    const index = this.readIndex(lister);
    const entry = { at: this.now(), index };
    this.entries.set(lister, entry);
    index.catch(() => {
      if (this.entries.get(lister) === entry) this.entries.delete(lister);
    });
    return index;
  }
  async readIndex(lister) {
    const index = { byGithubId: /* @__PURE__ */ new Map(), byFullName: /* @__PURE__ */ new Map(), complete: false };
    let skip = 0;
    for (let pages = 0; pages < this.maxPages; pages++) {
      const listing = await lister.listRepositories({ skip, limit: LIST_PAGE_MAX });
      if (listing.kind === "unsupported") return "unsupported";
      const { items, total, size } = listing.page;
      for (const repository of items) {
        if (typeof repository.github_id === "number" && !index.byGithubId.has(repository.github_id)) index.byGithubId.set(repository.github_id, repository.id);
        const fullName = repository.full_name?.toLowerCase();
        if (fullName && !index.byFullName.has(fullName)) index.byFullName.set(fullName, repository.id);
      }
      skip += items.length;
      const ended = typeof total === "number" ? skip >= total : items.length < Math.min(LIST_PAGE_MAX, size ?? LIST_PAGE_MAX);
      if (ended || items.length === 0) {
        index.complete = true;
        return index;
      }
    }
    return index;
  }
};
var sharedRepositoryIds = new RepositoryIdDirectory();

// src/flows/prepare.ts
var THREAD_COMMENT_SCAN_LIMIT = 300;
var repoRefOf = (trigger) => trigger.repo ? { owner: trigger.repo.owner, repo: trigger.repo.name } : null;
function replyThreadOf(trigger) {
  const thread = triggerThread(trigger);
  return thread ? { kind: thread.kind, number: thread.number, url: thread.url } : null;
}
function reactionTargetOf(trigger) {
  switch (trigger.flow) {
    case "comment":
      return { kind: "issue_comment", id: trigger.comment.id };
    case "label":
      return { kind: "issue", id: trigger.thread.number };
    case "review":
      return trigger.reviewComment ? { kind: "review_comment", id: trigger.reviewComment.id } : null;
    default:
      return null;
  }
}
function triggerUrlOf(trigger) {
  switch (trigger.flow) {
    case "comment":
      return trigger.comment.url;
    case "label":
      return trigger.thread.url;
    case "review":
      return trigger.reviewComment?.url ?? trigger.review?.url ?? trigger.thread.url;
    case "check_suite":
      return trigger.checkSuite.url;
    case "workflow_run":
      return trigger.workflowRun.url;
    case "dispatch":
      return null;
  }
}
function promptThreadOf(trigger) {
  if (isCheckFailureTrigger(trigger)) return null;
  return trigger.thread;
}
async function fetchPullRequestDetails(octokit, repo, trigger) {
  if (trigger.flow === "review") return trigger.pullRequest;
  const thread = promptThreadOf(trigger);
  if (!thread || thread.kind !== "pull_request") return null;
  const pr = await getPullRequest(octokit, repo, thread.number);
  return { url: pr.htmlUrl, baseRef: pr.base.ref, headRef: pr.head.ref, headRepoFullName: pr.head.repoFullName, isFork: pr.fromFork };
}
async function prepareRun(input) {
  const { trigger, octokit, config: config2, self, lookup, client } = input;
  const limits = { ...DEFAULT_PROMPT_LIMITS, ...input.promptLimits };
  const repo = repoRefOf(trigger);
  const thread = replyThreadOf(trigger);
  const baseFacts = { followUp: config2.follow_up, triggerPhrase: config2.trigger_phrase, ...input.mode ? { mode: input.mode } : {} };
  const identity = { botLogins: [...self.botLogins] };
  if (isCheckFailureTrigger(trigger) && repo) {
    const pr = await getPullRequest(octokit, repo, trigger.pullRequest.number);
    const label = findKillSwitch(pr.labels, config2);
    if (label !== null) {
      const facts2 = { ...baseFacts, permission: { allowed: true, why: "CI failures need no permission." }, knownRun: null };
      return finishEarly(trigger, facts2, { action: "ignore", reason: killSwitchReason(label, "pull_request") }, thread, config2);
    }
  }
  const permission = repo ? await triggerPermission(octokit, repo, trigger, config2, self) : { allowed: true, why: "No repository." };
  if (!permission.allowed) {
    const facts2 = { ...baseFacts, permission, knownRun: null };
    return finishEarly(trigger, facts2, planRun(trigger, facts2), thread, config2);
  }
  const scan = thread && repo ? listIssueComments(octokit, repo, thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT }) : Promise.resolve({ comments: [], total: 0 });
  const details = repo ? fetchPullRequestDetails(octokit, repo, trigger) : Promise.resolve(null);
  const reviewComments = trigger.flow === "review" && repo ? fetchReviewComments(octokit, repo, trigger) : Promise.resolve([]);
  const checks = isCheckFailureTrigger(trigger) && repo ? fetchCheckFailures(octokit, repo, trigger, config2, limits) : Promise.resolve(void 0);
  const [listed, pullRequest, inline, failures] = await Promise.all([scan, details, reviewComments, checks]);
  const markerComments = asMarkerComments(listed.comments);
  if (isCheckFailureTrigger(trigger) && isCiPausedByStop(markerComments, config2, { ...identity, appSlug: self.appSlug })) {
    const facts2 = { ...baseFacts, permission, knownRun: null };
    const reason = `CI auto-fix is paused on this pull request: its run was stopped with \`${config2.trigger_phrase} stop\`, and nobody has asked with \`${config2.trigger_phrase}\` since.`;
    return finishEarly(trigger, facts2, { action: "ignore", reason }, thread, config2);
  }
  const knownRun = thread && repo ? await findKnownRun({
    repo,
    threadNumber: thread.number,
    comments: markerComments,
    headBranch: headBranchOf(trigger, pullRequest),
    branchFirst: trigger.flow === "review" || isCheckFailureTrigger(trigger),
    self: identity,
    lookup,
    client
  }) : { known: null, pending: false, from: null };
  const facts = { ...baseFacts, permission, knownRun: knownRun.known };
  if (isCheckFailureTrigger(trigger) && repo) {
    facts.checkSuite = await checkFailureFacts({
      repo,
      prNumber: trigger.pullRequest.number,
      branch: trigger.headBranch,
      headSha: trigger.headSha,
      comments: markerComments,
      config: config2,
      self: identity,
      lookup,
      relevantFailures: failures?.relevantFailures
    });
  }
  let plan = planRun(trigger, facts);
  if (knownRun.pending && plan.action === "queue") plan = { ...plan, reason: "The thread's run is still being started; the follow-up is queued for it." };
  if (plan.action !== "create" && plan.action !== "resume" && plan.action !== "queue") return finishEarly(trigger, facts, plan, thread, config2);
  const promptThread = promptThreadOf(trigger);
  const fetchedThread = promptThread ? { thread: promptThread, comments: listed.comments, omitted: Math.max(0, listed.total - listed.comments.length), pullRequest } : null;
  const attempt = facts.checkSuite ? { number: facts.checkSuite.attemptsSoFar + 1, max: facts.checkSuite.maxAttempts } : void 0;
  const promptInput = promptInputFor(trigger, { thread: fetchedThread, reviewComments: inline, ...failures ? { checks: failures } : {}, ...attempt ? { attempt } : {} });
  const promptOptions = { instructions: config2.instructions, limits, botLogins: self.botLogins };
  const headBranch = headBranchOf(trigger, pullRequest);
  const common2 = {
    trigger,
    facts,
    reason: knownRun.from && plan.action !== "create" ? `${plan.reason} (found through ${knownRun.from})` : plan.reason,
    thread,
    reaction: reactionTargetOf(trigger),
    requester: trigger.actor?.login ?? null,
    sourceType: trigger.sourceType,
    markerHints: {
      sourceType: trigger.sourceType,
      branches: headBranch ? [headBranch] : [],
      ...isCheckFailureTrigger(trigger) ? { headSha: trigger.headSha } : {}
    },
    checkAttempt: isCheckFailureTrigger(trigger) && attempt ? { prNumber: trigger.pullRequest.number, headSha: trigger.headSha, number: attempt.number, max: attempt.max } : null,
    triggerUrl: triggerUrlOf(trigger),
    promptInput,
    resumePrompt: buildResumePrompt(promptInput, promptOptions)
  };
  switch (plan.action) {
    case "resume":
      return { ...common2, plan, action: "resume", runId: plan.runId, orgId: plan.orgId };
    case "queue":
      return { ...common2, plan, action: "queue", runId: knownRun.pending ? null : plan.runId, orgId: plan.orgId };
    case "create": {
      const { images, skipped } = await triggerImages(trigger, input.images);
      for (const skip of skipped) input.logger?.warn({ url: skip.url, reason: skip.reason }, "an image of the trigger was not sent");
      const metadata = buildRunMetadata(trigger, trigger.event, {
        appName: input.origin.appName,
        appVersion: input.origin.appVersion,
        ...input.origin.deliveryId ? { deliveryId: input.origin.deliveryId } : {}
      });
      const repository = await resolveRepositoryId(input);
      const request = {
        prompt: buildRunPrompt(promptInput, promptOptions),
        metadata,
        ...images.length > 0 ? { images } : {},
        ...repository.repoId !== null ? { repo_id: repository.repoId } : {},
        ...serviceSettings(config2)
      };
      return { ...common2, plan, action: "create", request, repository, skippedImages: skipped };
    }
  }
}
async function resolveRepositoryId(input) {
  const { config: config2, trigger, client } = input;
  if (config2.repo_id !== void 0) return { repoId: config2.repo_id, from: "config" };
  if (!trigger.repo) return { repoId: null, why: "no_repository" };
  if (!client.listRepositories) return { repoId: null, why: "no_endpoint" };
  const lister = client;
  const directory = input.repositoryIds ?? sharedRepositoryIds;
  const found = await directory.lookup(lister, { fullName: trigger.repo.fullName, githubId: trigger.repo.id }, input.logger);
  if (found.repoId !== null) input.logger?.debug?.({ repository: trigger.repo.fullName, repoId: found.repoId }, "repo_id found in the service's repository list");
  return found;
}
function serviceSettings(config2) {
  return {
    ...config2.model !== void 0 ? { model: config2.model } : {},
    ...config2.agent_type !== void 0 ? { agent_type: config2.agent_type } : {}
  };
}
function finishEarly(trigger, facts, plan, thread, config2) {
  const common2 = { trigger, facts, plan, reason: plan.reason, thread };
  if (plan.action === "refuse" && thread) {
    return { ...common2, action: "refuse", thread, body: renderRefusal({ login: trigger.actor?.login ?? "you", reason: plan.reason }) };
  }
  if (plan.action === "hand_back" && thread) {
    const prUrl = isCheckFailureTrigger(trigger) ? trigger.pullRequest.url : thread.url;
    const body = renderHandBack({ attempts: facts.checkSuite?.attemptsSoFar ?? 0, prUrl, triggerPhrase: config2.trigger_phrase });
    return { ...common2, action: "hand_back", thread, body };
  }
  return { ...common2, action: "ignore" };
}

// src/flows/spend-limits.ts
var REPOSITORY_COMMENT_PAGES = 10;
async function checkSpendLimitsFromComments(input) {
  const { octokit, repo, prepared, self, now } = input;
  const longestWindow = Math.max(...Object.values(LIMIT_WINDOW_MS));
  const [threadComments, recent] = await Promise.all([
    prepared.thread ? listIssueComments(octokit, repo, prepared.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT }).then((listed) => asMarkerComments(listed.comments)) : Promise.resolve([]),
    listRepositoryCommentsSince(octokit, repo, new Date(now - longestWindow), { maxPages: REPOSITORY_COMMENT_PAGES })
  ]);
  const repoStarts = runStartsFromComments(asMarkerComments(recent.comments), self);
  const verdict = judgeSpendLimits({
    starts: {
      thread: runStartsFromComments(threadComments, self).map((start) => start.at),
      repo: repoStarts.map((start) => start.at),
      ciFixes: repoStarts.filter((start) => start.ciFix).map((start) => start.at)
    },
    earlierReplies: overLimitRepliesFromComments(threadComments, self),
    limits: input.config.limits,
    isCiFix: isCheckFailureTrigger(prepared.trigger),
    now,
    threadKind: prepared.thread?.kind ?? null
  });
  return { verdict, complete: recent.complete };
}

// src/action/spend-limits.ts
async function holdBySpendLimits(input) {
  if (!input.repo) return null;
  let checked;
  try {
    checked = await checkSpendLimitsFromComments({ ...input, repo: input.repo });
  } catch (error3) {
    warning(`Could not count the recent runs for the spend limits, so they were not applied: ${error3.message}`);
    return null;
  }
  if (!checked.complete) {
    warning(`More than ${REPOSITORY_COMMENT_PAGES * 100} comments in this repository in the last day: the repository's run counts are lower bounds.`);
  }
  const { verdict } = checked;
  if (verdict.allowed) return null;
  const comment = verdict.reply === null ? null : await input.thread.reply(verdict.reply);
  if (verdict.reply === null) info("The thread was already told about this limit in its window; no second reply.");
  notice(verdict.reason, { title: "Agent run held back by a spend limit" });
  return { kind: "over_limit", reason: verdict.reason, comment };
}

// src/core/events.ts
var isThreadEvent = (e) => "thread" in e;
var EventPayloadError = class extends Error {
  name = "EventPayloadError";
  eventName;
  issues;
  constructor(eventName, issues) {
    super(`The "${eventName}" webhook payload cannot be read: ${issues.join("; ")}. Is it a real GitHub payload?`);
    this.eventName = eventName;
    this.issues = issues;
  }
};
var text = string2().nullish().transform((value2) => value2 ?? "");
var optionalString = string2().nullish().transform((value2) => value2 ?? null);
var optionalInt = number2().int().nullish().transform((value2) => value2 ?? null);
var UserSchema = looseObject({ login: string2(), type: string2().nullish() });
var RepositorySchema = looseObject({
  id: number2().int(),
  name: string2(),
  full_name: string2(),
  private: boolean2().nullish(),
  html_url: string2().nullish(),
  default_branch: string2().nullish(),
  owner: looseObject({ login: string2() }).nullish()
});
var CommonSchema = looseObject({
  action: string2().nullish(),
  repository: RepositorySchema,
  installation: looseObject({ id: number2().int() }).nullish(),
  sender: UserSchema
});
var LabelsSchema = array(looseObject({ name: string2() })).nullish().transform((labels) => (labels ?? []).map((label) => label.name));
var IssueSchema = looseObject({
  number: number2().int(),
  title: text,
  body: text,
  html_url: string2(),
  state: optionalString,
  user: UserSchema.nullish(),
  pull_request: looseObject({}).nullish(),
  labels: LabelsSchema
});
var CommentSchema = looseObject({
  id: number2().int(),
  body: text,
  html_url: string2(),
  user: UserSchema,
  created_at: optionalString
});
var PullRequestSchema = looseObject({
  number: number2().int(),
  html_url: string2(),
  title: text,
  body: text,
  state: optionalString,
  draft: boolean2().nullish(),
  user: UserSchema.nullish(),
  labels: LabelsSchema,
  head: looseObject({
    ref: string2(),
    sha: string2(),
    repo: looseObject({ id: number2().int(), full_name: string2() }).nullish()
  }),
  base: looseObject({
    ref: string2(),
    repo: looseObject({ id: number2().int(), full_name: string2() })
  })
});
var LinkedPullRequestSchema = looseObject({
  number: number2().int(),
  head: looseObject({ ref: string2(), sha: string2(), repo: looseObject({ id: number2().int() }) }),
  base: looseObject({ ref: string2(), repo: looseObject({ id: number2().int() }) })
});
var schemas = {
  issue_comment: CommonSchema.extend({ issue: IssueSchema, comment: CommentSchema }),
  issues: CommonSchema.extend({ issue: IssueSchema, label: looseObject({ name: string2() }).nullish() }),
  pull_request_review: CommonSchema.extend({
    pull_request: PullRequestSchema,
    review: looseObject({
      id: number2().int(),
      body: text,
      state: string2(),
      html_url: string2(),
      commit_id: optionalString,
      user: UserSchema.nullish()
    })
  }),
  pull_request_review_comment: CommonSchema.extend({
    pull_request: PullRequestSchema,
    comment: CommentSchema.extend({
      path: string2(),
      line: optionalInt,
      original_line: optionalInt,
      start_line: optionalInt,
      diff_hunk: text,
      pull_request_review_id: optionalInt,
      in_reply_to_id: optionalInt,
      commit_id: optionalString
    })
  }),
  check_suite: CommonSchema.extend({
    check_suite: looseObject({
      id: number2().int(),
      status: optionalString,
      conclusion: optionalString,
      head_sha: string2(),
      head_branch: optionalString,
      app: looseObject({ id: number2().int().nullish(), slug: string2().nullish(), name: string2().nullish() }).nullish(),
      pull_requests: array(LinkedPullRequestSchema).nullish()
    })
  }),
  workflow_run: CommonSchema.extend({
    workflow_run: looseObject({
      id: number2().int(),
      name: string2().nullish(),
      display_title: string2().nullish(),
      status: optionalString,
      conclusion: optionalString,
      head_sha: string2(),
      head_branch: optionalString,
      html_url: string2(),
      event: string2(),
      run_attempt: number2().int().nullish(),
      run_number: optionalInt,
      check_suite_id: optionalInt,
      workflow_id: optionalInt,
      head_repository: looseObject({ id: number2().int(), full_name: string2() }).nullish(),
      pull_requests: array(LinkedPullRequestSchema).nullish()
    })
  })
};
function parseKnown(name, payload) {
  const result = schemas[name].safeParse(payload);
  if (!result.success) throw new EventPayloadError(name, describeIssues(result.error.issues, payload));
  return result.data;
}
var actor = (user) => ({ login: user.login, type: user.type ?? "User" });
function repoRef(repository) {
  const [ownerFromName = "", nameFromFull = repository.name] = repository.full_name.split("/");
  const owner = repository.owner?.login ?? ownerFromName;
  return {
    owner,
    name: repository.name || nameFromFull,
    fullName: repository.full_name,
    id: repository.id,
    private: repository.private ?? false,
    htmlUrl: (repository.html_url ?? `https://github.com/${repository.full_name}`).replace(/\/+$/, ""),
    defaultBranch: repository.default_branch ?? null
  };
}
function common(name, payload) {
  return {
    name,
    action: payload.action ?? null,
    repo: repoRef(payload.repository),
    installationId: payload.installation?.id ?? null,
    sender: actor(payload.sender)
  };
}
function issueThread(issue3) {
  return {
    kind: issue3.pull_request ? "pull_request" : "issue",
    number: issue3.number,
    url: issue3.html_url,
    title: issue3.title,
    body: issue3.body,
    author: issue3.user ? actor(issue3.user) : null,
    state: issue3.state,
    labels: issue3.labels
  };
}
function pullRequestThread(pr) {
  return {
    kind: "pull_request",
    number: pr.number,
    url: pr.html_url,
    title: pr.title,
    body: pr.body,
    author: pr.user ? actor(pr.user) : null,
    state: pr.state,
    labels: pr.labels
  };
}
function pullRequestRef(pr) {
  const headRepo = pr.head.repo ?? null;
  return {
    number: pr.number,
    url: pr.html_url,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    headRepoFullName: headRepo?.full_name ?? null,
    // A deleted head repository can only have been a fork.
    isFork: headRepo === null || headRepo.id !== pr.base.repo.id,
    draft: pr.draft ?? false
  };
}
function linkedPullRequests(list, repo) {
  return (list ?? []).filter((pr) => pr.base.repo.id === repo.id).map((pr) => ({
    number: pr.number,
    url: `${repo.htmlUrl}/pull/${pr.number}`,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    isFork: pr.head.repo.id !== pr.base.repo.id
  }));
}
var asRecord = (value2) => value2 !== null && typeof value2 === "object" && !Array.isArray(value2) ? value2 : null;
function parseOther(name, payload) {
  const record2 = asRecord(payload);
  const repository = RepositorySchema.safeParse(record2?.repository);
  const sender = UserSchema.safeParse(record2?.sender);
  const installation = asRecord(record2?.installation);
  return {
    kind: "other",
    name,
    action: typeof record2?.action === "string" ? record2.action : null,
    repo: repository.success ? repoRef(repository.data) : null,
    installationId: typeof installation?.id === "number" ? installation.id : null,
    sender: sender.success ? actor(sender.data) : null,
    raw: payload
  };
}
function parseWebhookEvent(name, payload) {
  switch (name) {
    case "issue_comment": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: issueThread(p.issue),
        comment: { id: p.comment.id, body: p.comment.body, url: p.comment.html_url, author: actor(p.comment.user), createdAt: p.comment.created_at },
        raw: payload
      };
    }
    case "issues": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: issueThread(p.issue),
        label: p.label ? { name: p.label.name } : null,
        raw: payload
      };
    }
    case "pull_request_review": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: pullRequestThread(p.pull_request),
        pullRequest: pullRequestRef(p.pull_request),
        review: {
          id: p.review.id,
          body: p.review.body,
          state: p.review.state.toLowerCase(),
          url: p.review.html_url,
          commitId: p.review.commit_id,
          author: p.review.user ? actor(p.review.user) : null
        },
        raw: payload
      };
    }
    case "pull_request_review_comment": {
      const p = parseKnown(name, payload);
      const c = p.comment;
      return {
        kind: name,
        ...common(name, p),
        thread: pullRequestThread(p.pull_request),
        pullRequest: pullRequestRef(p.pull_request),
        comment: {
          id: c.id,
          body: c.body,
          url: c.html_url,
          author: actor(c.user),
          createdAt: c.created_at,
          path: c.path,
          line: c.line ?? c.original_line,
          startLine: c.start_line,
          diffHunk: c.diff_hunk,
          reviewId: c.pull_request_review_id,
          inReplyToId: c.in_reply_to_id,
          commitId: c.commit_id
        },
        raw: payload
      };
    }
    case "check_suite": {
      const p = parseKnown(name, payload);
      const base = common(name, p);
      const s = p.check_suite;
      return {
        kind: name,
        ...base,
        checkSuite: {
          id: s.id,
          status: s.status,
          conclusion: s.conclusion,
          headSha: s.head_sha,
          headBranch: s.head_branch,
          url: `${base.repo.htmlUrl}/commit/${s.head_sha}/checks`,
          app: s.app ? { id: s.app.id ?? null, slug: s.app.slug ?? null, name: s.app.name ?? null } : null,
          pullRequests: linkedPullRequests(s.pull_requests, base.repo)
        },
        raw: payload
      };
    }
    case "workflow_run": {
      const p = parseKnown(name, payload);
      const base = common(name, p);
      const r = p.workflow_run;
      const headRepo = r.head_repository ?? null;
      return {
        kind: name,
        ...base,
        workflowRun: {
          id: r.id,
          name: r.name ?? "",
          displayTitle: r.display_title ?? null,
          status: r.status,
          conclusion: r.conclusion,
          headSha: r.head_sha,
          headBranch: r.head_branch,
          url: r.html_url,
          event: r.event,
          runAttempt: r.run_attempt ?? 1,
          runNumber: r.run_number,
          checkSuiteId: r.check_suite_id,
          workflowId: r.workflow_id,
          headRepoFullName: headRepo?.full_name ?? null,
          isFork: headRepo !== null && headRepo.id !== base.repo.id,
          pullRequests: linkedPullRequests(r.pull_requests, base.repo)
        },
        raw: payload
      };
    }
    default:
      return parseOther(name, payload);
  }
}

// src/flows/types.ts
var MARKERS_ONLY_LOOKUP = {
  activeRunInThread: () => null,
  isRunInProgress: () => null,
  runForBranch: () => null,
  checkAttempts: () => null
};

// src/config/salvage.ts
var isRecord = (value2) => value2 !== null && typeof value2 === "object" && !Array.isArray(value2);
var PERMISSIVE_WHEN_UNREADABLE = {
  mention: true,
  "label.enabled": true,
  "reviews.enabled": true,
  "check_suite.enabled": true,
  "check_suite.allow_forks": true
};
function placeKeys(record2, allowed) {
  const placed = {};
  const unplaced = [];
  for (const [key, value2] of Object.entries(record2)) {
    if (allowed.includes(key)) placed[key] = value2;
  }
  for (const [key, value2] of Object.entries(record2)) {
    if (allowed.includes(key)) continue;
    const meant = suggestKey(key, allowed);
    if (meant !== void 0 && !(meant in placed)) placed[meant] = value2;
    else unplaced.push(key);
  }
  return { placed, unplaced };
}
var SECTIONS = Object.keys(REPO_CONFIG_FIELDS).filter((key) => objectSchemaOf(REPO_CONFIG_FIELDS[key]) !== void 0);
function sectionKeys(section) {
  const object = objectSchemaOf(REPO_CONFIG_FIELDS[section]);
  return object ? Object.keys(object.shape) : [];
}
function allUnreadable() {
  const paths = new Set(Object.keys(REPO_CONFIG_FIELDS).filter((key) => !SECTIONS.includes(key)));
  for (const section of SECTIONS) for (const key of sectionKeys(section)) paths.add(`${section}.${key}`);
  return paths;
}
function salvageConfig(raw) {
  if (!isRecord(raw)) return { config: DEFAULT_REPO_CONFIG, unreadable: allUnreadable(), labelNames: [] };
  const { _extends: _ignored, ...file } = raw;
  const unreadable = /* @__PURE__ */ new Set();
  const labelNames = [];
  const config2 = { ...DEFAULT_REPO_CONFIG };
  const top = placeKeys(file, Object.keys(REPO_CONFIG_FIELDS)).placed;
  for (const [key, schema] of Object.entries(REPO_CONFIG_FIELDS)) {
    const value2 = top[key];
    if (!SECTIONS.includes(key)) {
      const parsed = schema.safeParse(value2);
      if (parsed.success) config2[key] = parsed.data;
      else unreadable.add(key);
      continue;
    }
    const keys = sectionKeys(key);
    if (value2 === void 0 || value2 === null) continue;
    if (!isRecord(value2)) {
      for (const field of keys) unreadable.add(`${key}.${field}`);
      continue;
    }
    const { placed, unplaced } = placeKeys(value2, keys);
    const readable = {};
    const fields = objectSchemaOf(schema).shape;
    for (const field of keys) {
      if (!(field in placed)) {
        if (unplaced.length > 0) unreadable.add(`${key}.${field}`);
        continue;
      }
      const parsed = fields[field].safeParse(placed[field]);
      if (parsed.success) readable[field] = parsed.data;
      else unreadable.add(`${key}.${field}`);
    }
    if (key === "label") {
      for (const candidate of [placed.name, ...unplaced.map((name) => value2[name])]) {
        if (typeof candidate === "string" && candidate.trim() !== "") labelNames.push(candidate.trim());
      }
    }
    config2[key] = schema.parse(readable);
  }
  return { config: config2, unreadable, labelNames };
}
function configForJudging(salvaged, addedLabel = null) {
  const config2 = structuredClone(salvaged.config);
  for (const [path, value2] of Object.entries(PERMISSIVE_WHEN_UNREADABLE)) {
    if (!salvaged.unreadable.has(path)) continue;
    const [section, field] = path.split(".");
    if (field === void 0) config2[section] = value2;
    else config2[section][field] = value2;
  }
  if (addedLabel !== null && salvaged.unreadable.has("label.name")) {
    const candidates = [DEFAULT_REPO_CONFIG.label.name, ...salvaged.labelNames].map((name) => name.toLowerCase());
    if (candidates.includes(addedLabel.toLowerCase())) config2.label = { ...config2.label, name: addedLabel };
  }
  return config2;
}

// src/flows/config-errors.ts
var REPO_CONFIG_FILE = ".github/agent-run.yml";
function detectDespiteConfigError(event, raw, self) {
  const addedLabel = event.kind === "issues" && event.action === "labeled" ? event.label?.name ?? null : null;
  return detectTrigger(event, configForJudging(salvageConfig(raw), addedLabel), self);
}
async function configErrorReply(input) {
  const body = renderConfigError({ errors: input.errors, file: input.file ?? REPO_CONFIG_FILE });
  const { comments } = await listIssueComments(input.octokit, input.repo, input.threadNumber, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const latest = findTrustedComment(asMarkerComments(comments), "config_error", input.self);
  return latest?.body?.trim() === body.trim() ? null : body;
}

// src/flows/stop.ts
async function prepareStop(input) {
  const { octokit, request, config: config2 } = input;
  const repo = { owner: request.repo.owner, repo: request.repo.name };
  const permission = await checkTriggerPermission(octokit, repo, request.actor, config2.permissions);
  if (!permission.allowed) {
    return { action: "refuse", reason: permission.why, body: renderRefusal({ login: request.actor.login, reason: permission.why }) };
  }
  const identity = { botLogins: [...input.self.botLogins] };
  const { comments } = await listIssueComments(octokit, repo, request.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const open3 = listTrustedRunMarkers(asMarkerComments(comments), identity).filter(({ marker }) => marker.state !== "done");
  const ownerOf = /* @__PURE__ */ new Map();
  for (const found of [...open3].reverse()) {
    const key = found.marker.runId === null ? `request:${found.commentId}` : `run:${found.marker.runId}`;
    if (!ownerOf.has(key)) ownerOf.set(key, found.commentId);
  }
  const webUrls = /* @__PURE__ */ new Map();
  for (const runId of new Set(open3.map(({ marker }) => marker.runId).filter((id) => id !== null))) {
    webUrls.set(runId, await pageOf2(input.client, runId));
  }
  const edits = open3.map(({ marker, commentId }) => {
    const key = marker.runId === null ? `request:${commentId}` : `run:${marker.runId}`;
    const role = ownerOf.get(key) === commentId ? "run" : "follow_up";
    const webUrl = marker.runId === null ? null : webUrls.get(marker.runId) ?? null;
    return { commentId, marker, role, body: renderStoppedComment({ marker, webUrl, stoppedBy: request.actor.login, role, triggerPhrase: config2.trigger_phrase }) };
  });
  const runs = edits.filter((edit) => edit.role === "run");
  const newest = runs.find((edit) => edit.marker.runId !== null) ?? runs[0] ?? null;
  const newestRunId = newest?.marker.runId ?? null;
  const reply = renderStopReply({
    stoppedBy: request.actor.login,
    stopped: newest ? { runId: newestRunId, webUrl: newestRunId === null ? null : webUrls.get(newestRunId) ?? null } : null,
    droppedFollowUps: edits.length - runs.length,
    pullRequest: request.thread.kind === "pull_request",
    triggerPhrase: config2.trigger_phrase
  });
  const stoppedRuns = runs.map((edit) => edit.marker.runId).filter((id) => id !== null);
  const reason = edits.length === 0 ? `@${request.actor.login} asked to stop, but nothing is running in this thread.` : `@${request.actor.login} stopped ${stoppedRuns.length === 0 ? "a queued request" : `run ${stoppedRuns.join(", ")}`}${edits.length > runs.length ? ` and dropped ${edits.length - runs.length} follow-up(s)` : ""}.`;
  return { action: "stop", reason, reaction: request.reaction, edits, reply, stoppedRuns };
}
async function pageOf2(client, runId) {
  if (!client) return null;
  try {
    return (await client.getRun(runId)).web_url ?? null;
  } catch {
    return null;
  }
}

// src/version.ts
var BRIDGE_NAME = "agent-run-bridge";
var BRIDGE_VERSION = "0.1.0";

// src/config/inputs.ts
var leafKinds;
function configLeafKinds() {
  leafKinds ??= computeLeafKinds();
  return leafKinds;
}
function computeLeafKinds() {
  const kinds = /* @__PURE__ */ new Map();
  const visit = (properties, prefix) => {
    for (const [key, node2] of Object.entries(properties)) {
      const path = `${prefix}${key}`;
      if (node2.properties) visit(node2.properties, `${path}.`);
      else kinds.set(path, node2.type === "boolean" ? "boolean" : node2.type === "integer" ? "integer" : node2.type === "array" ? "list" : "string");
    }
  };
  visit(toJSONSchema(RepoConfigSchema, { io: "input" }).properties ?? {}, "");
  return kinds;
}
function readAs(kind, raw) {
  const text2 = raw.trim();
  switch (kind) {
    case "boolean":
      return /^true$/i.test(text2) ? true : /^false$/i.test(text2) ? false : raw;
    case "integer":
      return /^[+-]?\d+$/.test(text2) ? Number(text2) : raw;
    case "list":
      return text2.split(/[\n,]/).map((item) => item.trim()).filter((item) => item !== "");
    default:
      return raw;
  }
}
var isPlainObject2 = (value2) => value2 !== null && typeof value2 === "object" && !Array.isArray(value2);
function configInputFromStrings(values, base = {}) {
  if (!isPlainObject2(base)) return base ?? {};
  const merged = structuredClone(base);
  const set = Object.entries(values).filter((entry) => entry[1] !== void 0 && entry[1].trim() !== "");
  const kinds = set.length > 0 ? configLeafKinds() : /* @__PURE__ */ new Map();
  for (const [path, raw] of set) {
    const keys = path.split(".");
    let target = merged;
    for (const key of keys.slice(0, -1)) {
      if (!isPlainObject2(target[key])) target[key] = {};
      target = target[key];
    }
    target[keys[keys.length - 1]] = readAs(kinds.get(path), raw);
  }
  return merged;
}

// src/action/repo-config.ts
var CONFIG_PATH = ".github/agent-run.yml";
async function fetchConfigFile(octokit, repo) {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...repo, path: CONFIG_PATH });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return void 0;
    return Buffer.from(data.content, "base64").toString("utf8");
  } catch (error3) {
    if (isNotFound(error3)) return void 0;
    const mapped = toGitHubError(error3, `reading ${CONFIG_PATH} in ${repo.owner}/${repo.repo}`);
    mapped.message += " The workflow's token needs `contents: read` to read the configuration.";
    throw mapped;
  }
}
async function parseConfigFile(text2) {
  if (text2 === void 0) return { ok: true, raw: void 0, found: false, warnings: [] };
  const { parse: parseYaml } = await import("./dist-YGHUIZFH.js");
  let raw;
  try {
    raw = parseYaml(text2);
  } catch (error3) {
    return { ok: false, errors: [`${CONFIG_PATH} is not valid YAML: ${error3.message.split("\n")[0]}`] };
  }
  const warnings = [];
  if (raw !== null && typeof raw === "object" && "_extends" in raw) {
    warnings.push(`${CONFIG_PATH}: \`_extends\` is resolved by the App only; the Action reads this file alone.`);
  }
  return { ok: true, raw: raw ?? void 0, found: true, warnings };
}
var INPUT_BY_PATH = {
  trigger_phrase: "trigger-phrase",
  repo_id: "repo-id",
  model: "model",
  agent_type: "agent-type"
};
function setsCheckSuiteEnabled(raw) {
  if (raw === null || typeof raw !== "object") return false;
  const section = raw.check_suite;
  return section !== null && typeof section === "object" && "enabled" in section;
}
function layeredConfigInput(fileRaw, inputs, eventName) {
  const values = {
    trigger_phrase: inputs.triggerPhrase,
    repo_id: inputs.repoId === void 0 ? void 0 : String(inputs.repoId),
    model: inputs.model,
    agent_type: inputs.agentType
  };
  if (eventName === "workflow_run" && !setsCheckSuiteEnabled(fileRaw)) values["check_suite.enabled"] = "true";
  return configInputFromStrings(values, fileRaw ?? {});
}
function effectiveConfig(fileRaw, inputs, eventName) {
  return parseRepoConfig(layeredConfigInput(fileRaw, inputs, eventName), {
    label: (path) => INPUT_BY_PATH[path] ? `input \`${INPUT_BY_PATH[path]}\`` : `\`${path}\` in ${CONFIG_PATH}`
  });
}

// src/core/trace.ts
var TRACE_LIMITS = { errorLength: 4e3, finalAnswerLength: 6e4, excerptLength: 120, patternLength: 80, pathLength: 120 };
var KNOWN_TYPES = new Set(MESSAGE_TYPES);
function messageTypeOf(entry) {
  const raw = typeof entry.message_type === "string" ? entry.message_type.trim().toUpperCase() : "";
  return KNOWN_TYPES.has(raw) ? raw : null;
}
function asRecord2(value2) {
  if (typeof value2 === "string") {
    const trimmed = value2.trim();
    if (!trimmed.startsWith("{")) return null;
    try {
      return asRecord2(JSON.parse(trimmed));
    } catch {
      return null;
    }
  }
  return typeof value2 === "object" && value2 !== null && !Array.isArray(value2) ? value2 : null;
}
function nonEmptyString(value2) {
  return typeof value2 === "string" && value2.trim() !== "" ? value2.trim() : null;
}
function observationText(value2) {
  if (value2 === null || value2 === void 0) return null;
  if (typeof value2 === "string") return nonEmptyString(value2);
  if (typeof value2 === "number" || typeof value2 === "boolean") return String(value2);
  const record2 = asRecord2(value2);
  if (record2) {
    for (const key of ["message", "error", "detail", "content", "text", "result", "answer", "output"]) {
      const text2 = nonEmptyString(record2[key]);
      if (text2) return text2;
    }
  }
  try {
    const json = JSON.stringify(value2);
    return json === void 0 || json === "{}" || json === "[]" ? null : json;
  } catch {
    return null;
  }
}
function firstLine(text2) {
  return text2.split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
}
function excerpt(text2, options) {
  return sanitizeInline(firstLine(text2), { maxLength: TRACE_LIMITS.excerptLength, triggerPhrase: options.triggerPhrase });
}
function pathsOf(input) {
  const single = nonEmptyString(input.path) ?? nonEmptyString(input.file_path) ?? nonEmptyString(input.directory);
  if (single) return single;
  if (Array.isArray(input.paths)) {
    const names = input.paths.map(nonEmptyString).filter((name) => name !== null);
    if (names.length > 0) return names.join(", ");
  }
  return null;
}
function describeTool(entry) {
  const tool = nonEmptyString(entry.tool_name);
  if (!tool) return null;
  const input = asRecord2(entry.tool_input) ?? {};
  switch (tool.toLowerCase()) {
    case TOOL_NAMES.search: {
      const pattern = nonEmptyString(input.pattern) ?? nonEmptyString(input.query) ?? nonEmptyString(input.regex);
      const path = pathsOf(input);
      if (!pattern) return path ? md`Searching the code in ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}` : md`Searching the code`;
      const what = inlineCode(pattern, { maxLength: TRACE_LIMITS.patternLength });
      return path ? md`Searching the code for ${what} in ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}` : md`Searching the code for ${what}`;
    }
    case TOOL_NAMES.write: {
      const path = pathsOf(input);
      return path ? md`Writing ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}` : md`Writing a file`;
    }
    default:
      return md`Running ${inlineCode(tool, { maxLength: 60 })}`;
  }
}
function errorText(entry) {
  return observationText(entry.observation) ?? nonEmptyString(entry.thought);
}
function describeError(entry, lead, options) {
  const tool = nonEmptyString(entry.tool_name);
  const where = tool ? md`${lead} in ${inlineCode(tool, { maxLength: 60 })}` : lead;
  const text2 = errorText(entry);
  return text2 ? md`${where}: ${excerpt(text2, options)}` : where;
}
var DESCRIBE = {
  ACTION: (entry) => describeTool(entry) ?? md`Taking an action`,
  PLAN_EVALUATION: () => md`Evaluating the plan`,
  FINAL_ANSWER: () => md`Writing the final answer`,
  ERROR: (entry, options) => describeError(entry, md`Error`, options),
  USER_MESSAGE: () => md`Reading a message from the user`,
  USER_GIT_HOST_ISSUE_COMMENT: () => md`Reading a comment from the thread`,
  INITIAL_PR_GENERATION: () => md`Opening a pull request`,
  DETECT_PR_ERRORS: () => md`Checking the pull request for errors`,
  FIX_PR_ERRORS: () => md`Fixing errors in the pull request`,
  PR_CREATION_FAILED: (entry, options) => describeError(entry, md`Error: the pull request could not be created`, options),
  PR_EVALUATION: () => md`Reviewing the pull request`,
  COMMIT_EVALUATION: () => md`Reviewing the commits`,
  AGENT_RUN_LINK: () => md`Linking a related agent run`
};
var ERROR_TYPES = /* @__PURE__ */ new Set(["ERROR", "PR_CREATION_FAILED"]);
function isEntry(value2) {
  return typeof value2 === "object" && value2 !== null;
}
function describeStep(entry, options = {}) {
  if (!isEntry(entry)) return null;
  const type = messageTypeOf(entry);
  if (type === null) return describeTool(entry);
  return DESCRIBE[type](entry, options);
}
function describeCurrentStep(entries, options = {}) {
  for (let i = entries.length - 1; i >= 0; i--) {
    const step = describeStep(entries[i], options);
    if (step !== null) return step;
  }
  return null;
}
function digestTrace(entries, options) {
  if (!Number.isInteger(options.maxSteps) || options.maxSteps < 0) {
    throw new RangeError(`digestTrace: maxSteps must be a whole number of 0 or more, got ${String(options.maxSteps)}`);
  }
  const errorCounts = /* @__PURE__ */ new Map();
  const steps = [];
  let finalAnswer = null;
  for (const entry of entries) {
    if (!isEntry(entry)) continue;
    const type = messageTypeOf(entry);
    if (type !== null && ERROR_TYPES.has(type)) {
      const tool = nonEmptyString(entry.tool_name);
      const text2 = errorText(entry) ?? "(no details given)";
      const key = truncateText(tool ? `${tool}: ${text2}` : text2, TRACE_LIMITS.errorLength);
      errorCounts.set(key, (errorCounts.get(key) ?? 0) + 1);
    }
    if (type === "FINAL_ANSWER") {
      const text2 = observationText(entry.observation) ?? nonEmptyString(entry.thought);
      if (text2) finalAnswer = truncateText(text2, TRACE_LIMITS.finalAnswerLength);
    }
    const step = describeStep(entry, options);
    if (step !== null) steps.push(step);
  }
  const errors = [...errorCounts].map(([text2, count]) => count > 1 ? `${text2} (×${count})` : text2);
  return {
    errors,
    lastSteps: options.maxSteps === 0 ? [] : steps.slice(-options.maxSteps),
    finalAnswer,
    totalEntries: entries.length
  };
}

// node_modules/is-network-error/index.js
var objectToString = Object.prototype.toString;
var isError = (value2) => objectToString.call(value2) === "[object Error]";
var errorMessages = /* @__PURE__ */ new Set([
  "network error",
  // Chrome
  "NetworkError when attempting to fetch resource.",
  // Firefox
  "The Internet connection appears to be offline.",
  // Safari 16
  "Network request failed",
  // `cross-fetch`
  "fetch failed",
  // Undici (Node.js)
  "terminated",
  // Undici (Node.js)
  " A network error occurred.",
  // Bun (WebKit)
  "Network connection lost"
  // Cloudflare Workers (fetch)
]);
function isNetworkError(error3) {
  const isValid = error3 && isError(error3) && error3.name === "TypeError" && typeof error3.message === "string";
  if (!isValid) {
    return false;
  }
  const { message, stack } = error3;
  if (message === "Load failed" || message.startsWith("Load failed (") && message.endsWith(")")) {
    return stack === void 0 || "__sentry_captured__" in error3;
  }
  if (message.startsWith("error sending request for url")) {
    return true;
  }
  if (message === "Failed to fetch" || message.startsWith("Failed to fetch (") && message.endsWith(")")) {
    return true;
  }
  return errorMessages.has(message);
}

// node_modules/p-retry/index.js
function validateRetries(retries) {
  if (typeof retries === "number") {
    if (retries < 0) {
      throw new TypeError("Expected `retries` to be a non-negative number.");
    }
    if (Number.isNaN(retries)) {
      throw new TypeError("Expected `retries` to be a valid number or Infinity, got NaN.");
    }
  } else if (retries !== void 0) {
    throw new TypeError("Expected `retries` to be a number or Infinity.");
  }
}
function validateNumberOption(name, value2, { min = 0, allowInfinity = false } = {}) {
  if (value2 === void 0) {
    return;
  }
  if (typeof value2 !== "number" || Number.isNaN(value2)) {
    throw new TypeError(`Expected \`${name}\` to be a number${allowInfinity ? " or Infinity" : ""}.`);
  }
  if (!allowInfinity && !Number.isFinite(value2)) {
    throw new TypeError(`Expected \`${name}\` to be a finite number.`);
  }
  if (value2 < min) {
    throw new TypeError(`Expected \`${name}\` to be ≥ ${min}.`);
  }
}
var AbortError = class extends Error {
  constructor(message) {
    super();
    if (message instanceof Error) {
      this.originalError = message;
      ({ message } = message);
    } else {
      this.originalError = new Error(message);
      this.originalError.stack = this.stack;
    }
    this.name = "AbortError";
    this.message = message;
  }
};
function calculateDelay(retriesConsumed, options) {
  const attempt = Math.max(1, retriesConsumed + 1);
  const random = options.randomize ? Math.random() + 1 : 1;
  let timeout = Math.round(random * options.minTimeout * options.factor ** (attempt - 1));
  timeout = Math.min(timeout, options.maxTimeout);
  return timeout;
}
function calculateRemainingTime(start, max) {
  if (!Number.isFinite(max)) {
    return max;
  }
  return max - (performance.now() - start);
}
async function onAttemptFailure({ error: error3, attemptNumber, retriesConsumed, startTime, options }) {
  const normalizedError = error3 instanceof Error ? error3 : new TypeError(`Non-error was thrown: "${error3}". You should only throw errors.`);
  if (normalizedError instanceof AbortError) {
    throw normalizedError.originalError;
  }
  const retriesLeft = Number.isFinite(options.retries) ? Math.max(0, options.retries - retriesConsumed) : options.retries;
  const maxRetryTime = options.maxRetryTime ?? Number.POSITIVE_INFINITY;
  const context = Object.freeze({
    error: normalizedError,
    attemptNumber,
    retriesLeft,
    retriesConsumed
  });
  await options.onFailedAttempt(context);
  if (calculateRemainingTime(startTime, maxRetryTime) <= 0) {
    throw normalizedError;
  }
  const consumeRetry = await options.shouldConsumeRetry(context);
  const remainingTime = calculateRemainingTime(startTime, maxRetryTime);
  if (remainingTime <= 0 || retriesLeft <= 0) {
    throw normalizedError;
  }
  if (normalizedError instanceof TypeError && !isNetworkError(normalizedError)) {
    if (consumeRetry) {
      throw normalizedError;
    }
    options.signal?.throwIfAborted();
    return false;
  }
  if (!await options.shouldRetry(context)) {
    throw normalizedError;
  }
  if (!consumeRetry) {
    options.signal?.throwIfAborted();
    return false;
  }
  const delayTime = calculateDelay(retriesConsumed, options);
  const finalDelay = Math.min(delayTime, remainingTime);
  options.signal?.throwIfAborted();
  if (finalDelay > 0) {
    await new Promise((resolve2, reject) => {
      const onAbort = () => {
        clearTimeout(timeoutToken);
        options.signal?.removeEventListener("abort", onAbort);
        reject(options.signal.reason);
      };
      const timeoutToken = setTimeout(() => {
        options.signal?.removeEventListener("abort", onAbort);
        resolve2();
      }, finalDelay);
      if (options.unref) {
        timeoutToken.unref?.();
      }
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  options.signal?.throwIfAborted();
  return true;
}
async function pRetry(input, options = {}) {
  options = { ...options };
  validateRetries(options.retries);
  if (Object.hasOwn(options, "forever")) {
    throw new Error("The `forever` option is no longer supported. For many use-cases, you can set `retries: Infinity` instead.");
  }
  options.retries ??= 10;
  options.factor ??= 2;
  options.minTimeout ??= 1e3;
  options.maxTimeout ??= Number.POSITIVE_INFINITY;
  options.maxRetryTime ??= Number.POSITIVE_INFINITY;
  options.randomize ??= false;
  options.onFailedAttempt ??= () => {
  };
  options.shouldRetry ??= () => true;
  options.shouldConsumeRetry ??= () => true;
  validateNumberOption("factor", options.factor, { min: 0, allowInfinity: false });
  validateNumberOption("minTimeout", options.minTimeout, { min: 0, allowInfinity: false });
  validateNumberOption("maxTimeout", options.maxTimeout, { min: 0, allowInfinity: true });
  validateNumberOption("maxRetryTime", options.maxRetryTime, { min: 0, allowInfinity: true });
  if (!(options.factor > 0)) {
    options.factor = 1;
  }
  options.signal?.throwIfAborted();
  let attemptNumber = 0;
  let retriesConsumed = 0;
  const startTime = performance.now();
  while (Number.isFinite(options.retries) ? retriesConsumed <= options.retries : true) {
    attemptNumber++;
    try {
      options.signal?.throwIfAborted();
      const result = await input(attemptNumber);
      options.signal?.throwIfAborted();
      return result;
    } catch (error3) {
      if (await onAttemptFailure({
        error: error3,
        attemptNumber,
        retriesConsumed,
        startTime,
        options
      })) {
        retriesConsumed++;
      }
    }
  }
  throw new Error("Retry attempts exhausted without throwing an error.");
}

// src/service/sliding-window.ts
var SlidingWindowLog = class {
  constructor(limit, windowMs) {
    this.limit = limit;
    this.windowMs = windowMs;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${windowMs}`);
  }
  limit;
  windowMs;
  stamps = [];
  /** Milliseconds until one more event fits (0 when it fits now). */
  delayUntilFree(now) {
    this.prune(now);
    if (this.stamps.length < this.limit) return 0;
    const oldest = this.stamps[this.stamps.length - this.limit];
    return Math.max(0, oldest + this.windowMs - now);
  }
  record(now) {
    this.stamps.push(now);
  }
  /** Events counted in the window ending at `now`. */
  count(now) {
    this.prune(now);
    return this.stamps.length;
  }
  prune(now) {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.stamps.length && this.stamps[drop] <= cutoff) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
  }
};

// src/service/budget.ts
function defaultWindows(timeScale = 1) {
  return {
    shared: { points: RATE_LIMITS.sharedStrict.points, durationMs: RATE_LIMITS.sharedStrict.durationSeconds * 1e3 * timeScale },
    create: { points: RATE_LIMITS.create.points, durationMs: RATE_LIMITS.create.durationSeconds * 1e3 * timeScale }
  };
}
function resolveWindows(options) {
  const scale = options.timeScale ?? 1;
  if (!(scale > 0)) throw new RangeError(`timeScale must be a positive number, got ${scale}`);
  const base = defaultWindows(scale);
  return { shared: options.windows?.shared ?? base.shared, create: options.windows?.create ?? base.create };
}
function defaultMargin(windows) {
  return Math.max(100, Math.round(windows.shared.durationMs * 0.02));
}
var QueuedBudget = class {
  queues = { create: [], read: [] };
  timer;
  pumping = false;
  waiting(kind) {
    return this.queues[kind].length;
  }
  busy(kind) {
    return this.queues[kind].length > 0 || this.peekWait(kind) > 0;
  }
  /** Milliseconds a call of `kind` would wait now, without taking anything (0 when unknown). */
  peekWait(_kind) {
    return 0;
  }
  acquire(kind, options = {}) {
    const { signal, deadline } = options;
    if (signal?.aborted) return Promise.reject(abortedError(kind, signal));
    if (deadline !== void 0 && Date.now() >= deadline) return Promise.reject(deadlineError(kind));
    return new Promise((resolve2, reject) => {
      let deadlineTimer;
      const onAbort = () => this.drop(waiter, abortedError(kind, signal));
      const waiter = {
        kind,
        resolve: resolve2,
        reject,
        cleanup: () => {
          signal?.removeEventListener("abort", onAbort);
          if (deadlineTimer) clearTimeout(deadlineTimer);
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (deadline !== void 0) {
        deadlineTimer = setTimeout(() => this.drop(waiter, deadlineError(kind)), Math.max(0, deadline - Date.now()));
        deadlineTimer.unref?.();
      }
      this.queues[kind].push(waiter);
      void this.pump();
    });
  }
  drop(waiter, error3) {
    const queue = this.queues[waiter.kind];
    const index = queue.indexOf(waiter);
    if (index < 0) return;
    queue.splice(index, 1);
    waiter.cleanup();
    waiter.reject(error3);
  }
  /** Serves queue heads while budget allows, then sleeps until the earliest one can fit. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = void 0;
    }
    try {
      let nextWake = Infinity;
      for (; ; ) {
        let served = false;
        nextWake = Infinity;
        for (const kind of ["create", "read"]) {
          const head = this.queues[kind][0];
          if (!head) continue;
          let wait;
          try {
            wait = await this.tryTake(kind);
          } catch (error3) {
            this.queues[kind].shift();
            head.cleanup();
            head.reject(error3 instanceof Error ? error3 : new Error(String(error3)));
            served = true;
            continue;
          }
          if (this.queues[kind][0] !== head) {
            served = true;
            continue;
          }
          if (wait <= 0) {
            this.queues[kind].shift();
            head.cleanup();
            head.resolve();
            served = true;
          } else {
            nextWake = Math.min(nextWake, wait);
          }
        }
        if (!served) break;
      }
      if (nextWake !== Infinity) {
        this.timer = setTimeout(() => void this.pump(), Math.max(1, Math.ceil(nextWake)));
      }
    } finally {
      this.pumping = false;
    }
  }
};
function abortedError(kind, signal) {
  return new DeadlineError(`Stopped waiting for ${kind} rate budget: ${String(signal?.reason ?? "aborted")}.`);
}
function deadlineError(kind) {
  return new DeadlineError(
    `Gave up waiting for ${kind} rate budget before the deadline: too many calls share this API token; retry later or raise the deadline.`
  );
}
var InProcessBudget = class extends QueuedBudget {
  shared;
  create;
  margin;
  now;
  pausedUntil = { create: 0, read: 0 };
  constructor(options) {
    super();
    const windows = resolveWindows(options);
    this.margin = options.marginMs ?? defaultMargin(windows);
    this.shared = new SlidingWindowLog(windows.shared.points, windows.shared.durationMs + this.margin);
    this.create = new SlidingWindowLog(windows.create.points, windows.create.durationMs + this.margin);
    this.now = options.now ?? Date.now;
  }
  peekWait(kind) {
    const now = this.now();
    const paused = Math.max(this.pausedUntil.read, kind === "create" ? this.pausedUntil.create : 0) - now;
    return Math.max(paused, this.shared.delayUntilFree(now), kind === "create" ? this.create.delayUntilFree(now) : 0);
  }
  tryTake(kind) {
    const now = this.now();
    const wait = this.peekWait(kind);
    if (wait > 0) return wait;
    this.shared.record(now);
    if (kind === "create") this.create.record(now);
    return 0;
  }
  async usage() {
    const now = this.now();
    return {
      shared: { used: this.shared.count(now), limit: this.shared.limit, windowMs: this.shared.windowMs },
      create: { used: this.create.count(now), limit: this.create.limit, windowMs: this.create.windowMs }
    };
  }
  pause(kind, ms) {
    this.pausedUntil[kind] = Math.max(this.pausedUntil[kind], this.now() + ms);
    void this.pump();
  }
};
function createInProcessBudget(options = {}) {
  return new InProcessBudget(options);
}

// src/service/client.ts
var defaultLogger = { warn: (message) => console.warn(`agent-run-bridge: ${message}`) };
var DEFAULT_CALL_DEADLINE_MS = 10 * 6e4;
var RunStillGoingError = class extends DeadlineError {
  constructor(message, lastRun) {
    super(message);
    this.lastRun = lastRun;
  }
  lastRun;
  name = "RunStillGoingError";
};
var AgentRunClient = class {
  orgId;
  budget;
  baseUrl;
  token;
  timeoutMs;
  retries;
  backoff;
  userAgent;
  fetchImpl;
  timeScale;
  logger;
  /** The logs path in use: pinned by the options, or the one that answered first. */
  logsPathInUse;
  unsupported = /* @__PURE__ */ new Set();
  reportedStatuses = /* @__PURE__ */ new Set();
  constructor(options) {
    const problems = [];
    let base;
    try {
      base = new URL(options.baseUrl);
      if (base.protocol !== "http:" && base.protocol !== "https:") problems.push("the base URL must be http(s)");
    } catch {
      problems.push("the base URL is missing or not a URL (set AGENT_RUN_API_URL or --api-url)");
    }
    if (!options.token || typeof options.token !== "string") {
      problems.push("the API token is missing (set AGENT_RUN_API_TOKEN or --token)");
    }
    if (!Number.isInteger(options.orgId) || options.orgId <= 0) {
      problems.push("the organization id must be a positive integer (set AGENT_RUN_ORG_ID or --org-id)");
    }
    const logsPath = LogsPathChoiceSchema.safeParse(options.logsPath ?? "auto");
    if (!logsPath.success) problems.push(`the logs path must be auto, spec or alpha (AGENT_RUN_LOGS_PATH), got "${String(options.logsPath)}"`);
    if (problems.length > 0 || !base) throw new ConfigurationError(`Cannot create the Agent Run client: ${problems.join("; ")}.`);
    this.baseUrl = base.toString().replace(/\/+$/, "");
    this.token = options.token;
    this.orgId = options.orgId;
    this.timeScale = options.timeScale ?? 1;
    this.budget = options.budget ?? createInProcessBudget({ timeScale: this.timeScale });
    this.timeoutMs = options.timeoutMs ?? 3e4;
    this.retries = options.retries ?? 5;
    this.backoff = { minMs: options.backoff?.minMs ?? 500, maxMs: options.backoff?.maxMs ?? 3e4 };
    this.userAgent = options.userAgent ?? `${BRIDGE_NAME}/${BRIDGE_VERSION}`;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.logger = options.logger ?? defaultLogger;
    this.logsPathInUse = logsPath.data === "auto" ? void 0 : logsPath.data;
  }
  /** Which logs path this client uses now: `spec`, `alpha`, or undefined while not yet detected. */
  get logsPath() {
    return this.logsPathInUse;
  }
  /** Whether an optional endpoint answered 404/405 to this client (it is not asked again). */
  isUnsupported(endpoint) {
    return this.unsupported.has(endpoint);
  }
  /** Starts a run. Retried only when the service certainly did not act (429, connection refused). */
  async createRun(request, options = {}) {
    const body = validate2(CreateRunRequestSchema, request, "create request");
    const data = await this.send("POST", API_PATHS.createRun(this.orgId), { ...options, body: dropNullish(body), kind: "create", idempotent: false });
    return this.noteStatus(parse2(AgentRunSchema, data, "create response"));
  }
  async getRun(runId, options = {}) {
    const id = validateRunId(runId);
    const data = await this.send("GET", API_PATHS.getRun(this.orgId, id), { ...options, kind: "read", idempotent: true });
    return this.noteStatus(parse2(AgentRunSchema, data, "run"));
  }
  /** Continues a finished run with a follow-up. Sends exactly `agent_run_id` and `prompt` (spec §4.3). */
  async resumeRun(runId, prompt, options = {}) {
    const body = validate2(ResumeRunRequestSchema, { agent_run_id: runId, prompt }, "resume request");
    const data = await this.send("POST", API_PATHS.resumeRun(this.orgId), { ...options, body, kind: "read", idempotent: false });
    return this.noteStatus(parse2(AgentRunSchema, data, "resume response"));
  }
  /**
   * One page of a run's logs (ALPHA). Until a path has answered, a 404 on the spec's path is tried
   * again on the `/v1/alpha/` path; the one that answers is kept for every later call. When both
   * answer 404 the run itself is missing, and the spec path's NotFoundError is thrown.
   */
  async listLogs(runId, query = {}, options = {}) {
    const id = validateRunId(runId);
    const q = validate2(LogsQuerySchema, query, "logs query");
    const fetchFrom = async (which2) => {
      const path = which2 === "alpha" ? API_PATHS.runLogsAlpha(this.orgId, id) : API_PATHS.runLogs(this.orgId, id);
      const data = await this.send("GET", path, { ...options, query: { skip: q.skip, limit: q.limit }, kind: "read", idempotent: true });
      return this.noteStatus(parse2(AgentRunWithLogsSchema, data, "logs response"));
    };
    if (this.logsPathInUse) return fetchFrom(this.logsPathInUse);
    let page;
    try {
      page = await fetchFrom("spec");
    } catch (specError) {
      if (!(specError instanceof NotFoundError)) throw specError;
      try {
        page = await fetchFrom("alpha");
      } catch (alphaError) {
        throw alphaError instanceof NotFoundError ? specError : alphaError;
      }
      if (!this.logsPathInUse) {
        this.logger.warn(`The logs endpoint answers at ${pathTemplate(API_PATHS.runLogsAlpha(this.orgId, id))} (not the spec's path): this client uses that path from now on.`);
      }
      this.logsPathInUse = "alpha";
      return page;
    }
    this.logsPathInUse = "spec";
    return page;
  }
  /**
   * One page of the organization's runs, newest first (real deployments; not in the spec). A
   * deployment without the endpoint (404/405) gets `unsupported`, said once, and is not asked again.
   */
  async listRuns(query = {}, options = {}) {
    const q = validate2(ListRunsQuerySchema, query, "runs query");
    return this.listOptional("listRuns", API_PATHS.listRuns(this.orgId), definedOnly(q), options, RunsPageSchema, "runs page");
  }
  /** One page of the organization's repositories (real deployments; not in the spec), detected like `listRuns`. */
  async listRepositories(query = {}, options = {}) {
    const q = validate2(ListRepositoriesQuerySchema, query, "repositories query");
    return this.listOptional("listRepositories", API_PATHS.listRepositories(this.orgId), definedOnly(q), options, RepositoriesPageSchema, "repositories page");
  }
  async listOptional(endpoint, path, query, options, schema, what) {
    if (this.unsupported.has(endpoint)) return { kind: "unsupported", endpoint };
    let data;
    try {
      data = await this.send("GET", path, { ...options, query, kind: "read", idempotent: true });
    } catch (error3) {
      if (error3 instanceof AgentRunError && (error3.status === 404 || error3.status === 405)) {
        if (!this.unsupported.has(endpoint)) {
          this.unsupported.add(endpoint);
          this.logger.warn(`The service has no ${pathTemplate(path)} endpoint (${error3.status}): ${OPTIONAL_FEATURE[endpoint]} is off for this client.`);
        }
        return { kind: "unsupported", endpoint };
      }
      throw error3;
    }
    return { kind: "page", page: parse2(schema, data, what) };
  }
  /** Says once per value that a status is unknown: such runs are watched until their deadline. */
  noteStatus(run) {
    const status = run.status;
    if (typeof status === "string" && classifyRunStatus(status) === "unknown" && !this.reportedStatuses.has(status)) {
      this.reportedStatuses.add(status);
      this.logger.warn(`The service reported the run status "${status.slice(0, 60)}", which the bridge does not know: such runs are watched until their deadline.`);
    }
    return run;
  }
  /** Every log entry of a run from `skip` on, in as few requests as the page size allows. */
  async *iterateLogs(runId, options = {}) {
    const limit = Math.min(options.pageSize ?? LOGS_PAGE_MAX, LOGS_PAGE_MAX);
    let skip = options.skip ?? 0;
    for (; ; ) {
      const page = await this.listLogs(runId, { skip, limit }, options);
      for (const entry of page.logs) yield entry;
      skip += page.logs.length;
      const total = page.total_logs;
      if (page.logs.length < limit) return;
      if (typeof total === "number" && skip >= total) return;
    }
  }
  /** Polls until the run reaches a final phase; the interval grows from short to a cap, jittered. */
  async waitForRun(runId, options = {}) {
    const initial = options.intervalMs?.initial ?? 2e3;
    const max = options.intervalMs?.max ?? 3e4;
    const factor = options.intervalMs?.factor ?? 1.5;
    let interval = initial;
    let lastStatus = void 0;
    let first = true;
    for (; ; ) {
      const callDeadline = options.deadline === void 0 ? void 0 : options.deadline + this.timeoutMs;
      const run = await this.getRun(runId, { signal: options.signal, deadline: callDeadline });
      const phase = classifyRunStatus(run.status);
      if (first || run.status !== lastStatus) options.onUpdate?.(run, phase);
      first = false;
      lastStatus = run.status;
      if (isFinalPhase(phase)) return run;
      let pause = jitter(interval);
      if (options.deadline !== void 0) {
        const left = options.deadline - Date.now();
        if (left <= 0) {
          throw new RunStillGoingError(
            `Run ${runId} is still ${run.status ?? "running"} at the deadline; it keeps going: follow it at ${run.web_url ?? "its web page"}.`,
            run
          );
        }
        pause = Math.min(pause, left);
      }
      await sleep(pause, options.signal);
      interval = Math.min(max, interval * factor);
    }
  }
  async send(method, path, options) {
    try {
      return await this.sendWithRetries(method, path, options);
    } catch (error3) {
      if (options.signal?.aborted && !(error3 instanceof AgentRunError)) {
        throw new DeadlineError(`The request was cancelled: ${String(options.signal.reason ?? "aborted")}.`, { method, path });
      }
      throw error3;
    }
  }
  async sendWithRetries(method, path, options) {
    const deadline = options.deadline ?? Date.now() + DEFAULT_CALL_DEADLINE_MS;
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const attempt = async () => {
      await this.budget.acquire(options.kind, { signal: options.signal, deadline });
      await options.beforeSend?.();
      return this.sendOnce(method, path, url, options);
    };
    return pRetry(attempt, {
      retries: this.retries,
      factor: 2,
      minTimeout: this.backoff.minMs,
      maxTimeout: this.backoff.maxMs,
      randomize: true,
      maxRetryTime: Math.max(0, deadline - Date.now()),
      signal: options.signal,
      onFailedAttempt: async ({ error: error3 }) => {
        if (error3 instanceof RateLimitError) {
          const windows = defaultWindows(this.timeScale);
          const windowMs = options.kind === "create" ? windows.create.durationMs : windows.shared.durationMs;
          const waitMs = error3.retryAfterSeconds !== void 0 ? error3.retryAfterSeconds * 1e3 : windowMs;
          if (Date.now() + waitMs > deadline) throw error3;
          this.budget.pause(options.kind === "create" ? "create" : "read", waitMs);
        }
      },
      // A 429 is the service pacing us, not a failure: it does not use up a retry (the deadline bounds it).
      shouldConsumeRetry: ({ error: error3 }) => !(error3 instanceof RateLimitError),
      shouldRetry: ({ error: error3 }) => {
        if (Date.now() >= deadline) return false;
        if (!options.idempotent) return certainlyNotActedOn(error3);
        return error3 instanceof RateLimitError || error3 instanceof ServerError || error3 instanceof NetworkError || error3 instanceof TimeoutError;
      }
    });
  }
  async sendOnce(method, path, url, options) {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers: {
          accept: "application/json",
          authorization: `Bearer ${this.token}`,
          "user-agent": this.userAgent,
          ...options.body !== void 0 ? { "content-type": "application/json" } : {}
        },
        body: options.body !== void 0 ? JSON.stringify(options.body) : void 0,
        signal
      });
    } catch (error3) {
      throw this.transportError(error3, method, path, options.signal, timeout);
    }
    const text2 = await response.text().catch((error3) => {
      throw this.transportError(error3, method, path, options.signal, timeout);
    });
    if (!response.ok) {
      throw errorForStatus(response.status, {
        method,
        path,
        ...readErrorBody(text2),
        retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"))
      });
    }
    try {
      return text2 === "" ? null : JSON.parse(text2);
    } catch {
      throw new InvalidResponseError(`The service answered ${response.status} with a body that is not JSON.`, { method, path, status: response.status });
    }
  }
  transportError(error3, method, path, userSignal, timeout) {
    if (error3 instanceof AgentRunError) return error3;
    if (userSignal?.aborted) {
      return new DeadlineError(`The request was cancelled: ${String(userSignal.reason ?? "aborted")}.`, { method, path });
    }
    if (timeout.aborted) {
      return new TimeoutError(
        `No answer within ${this.timeoutMs} ms: the service may still have acted on it; check before repeating a create.`,
        { method, path }
      );
    }
    const code = networkCode(error3);
    const notSent = code !== void 0 && NOT_SENT_CODES.has(code);
    return new NetworkError(
      notSent ? `Cannot reach the service (${code}): check AGENT_RUN_API_URL and that the service is up.` : `The connection to the service failed (${code ?? "network error"}): the request may or may not have reached it.`,
      { method, path, certainlyNotSent: notSent, cause: error3 }
    );
  }
};
var NOT_SENT_CODES = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);
function networkCode(error3) {
  let current = error3;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = current.code;
    if (typeof code === "string") return code;
    const errors = current.errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = current.cause;
  }
  return void 0;
}
function validate2(schema, value2, what) {
  const result = schema.safeParse(value2);
  if (!result.success) {
    throw new RequestValidationError(
      what,
      result.error.issues.map((i) => i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)
    );
  }
  return result.data;
}
function validateRunId(runId) {
  if (!Number.isInteger(runId) || runId <= 0) throw new RequestValidationError("run id", [`must be a positive integer, got ${String(runId)}`]);
  return runId;
}
function parse2(schema, value2, what) {
  const result = schema.safeParse(value2);
  if (!result.success) {
    const detail = result.error.issues.map((i) => i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message).join("; ");
    throw new InvalidResponseError(`The service's ${what} cannot be read: ${detail}.`);
  }
  return result.data;
}
var OPTIONAL_FEATURE = {
  listRuns: "finding runs whose create was interrupted (crash recovery)",
  listRepositories: "finding a repository's repo_id from the service's list"
};
function pathTemplate(path) {
  return path.replace(/\/organizations\/\d+/, "/organizations/{org_id}").replace(/\/run\/\d+(?=\/|$)/, "/run/{id}");
}
function definedOnly(query) {
  return Object.fromEntries(Object.entries(query).filter((entry) => entry[1] !== void 0));
}
function dropNullish(body) {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== void 0 && v !== null));
}
function parseRetryAfter(value2) {
  if (!value2) return void 0;
  const trimmed = value2.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date2 = Date.parse(trimmed);
  if (Number.isNaN(date2)) return void 0;
  return Math.max(0, (date2 - Date.now()) / 1e3);
}
function jitter(ms) {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}
function sleep(ms, signal) {
  return new Promise((resolve2, reject) => {
    if (signal?.aborted) return reject(new DeadlineError(`Stopped waiting: ${String(signal.reason ?? "aborted")}.`));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve2();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DeadlineError(`Stopped waiting: ${String(signal?.reason ?? "aborted")}.`));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// src/action/runs.ts
function repositoryRunReader(client, repositoryFullName) {
  return {
    orgId: client.orgId,
    listRepositories: (query, options) => client.listRepositories(query, options),
    async getRun(runId) {
      const run = await client.getRun(runId);
      const recorded = run.metadata?.repository;
      if (repositoryFullName && typeof recorded === "string" && recorded.toLowerCase() !== repositoryFullName.toLowerCase()) {
        throw new NotFoundError(`Run ${runId} belongs to ${recorded}, not ${repositoryFullName}: it is not this thread's run.`);
      }
      return run;
    }
  };
}
var DEFAULT_POLL = { initial: 5e3, max: 6e4, factor: 1.5 };
function pollScheduleFrom(seconds) {
  const value2 = Number(seconds);
  if (!seconds || !Number.isFinite(value2) || value2 <= 0) return DEFAULT_POLL;
  const initial = Math.max(1, Math.round(value2 * 1e3));
  return { initial, max: initial * (DEFAULT_POLL.max / DEFAULT_POLL.initial), factor: DEFAULT_POLL.factor };
}
async function watchRun(client, started, options) {
  let last = started;
  try {
    const run = await client.waitForRun(started.id, {
      deadline: options.deadline,
      intervalMs: options.poll,
      // Aborted (a stop seen in the thread): ends like the deadline, with the last state seen.
      ...options.signal ? { signal: options.signal } : {},
      onUpdate: (run2, phase) => {
        last = run2;
        options.onUpdate?.(run2, phase);
      }
    });
    return { timedOut: false, run, phase: classifyRunStatus(run.status) };
  } catch (error3) {
    if (error3 instanceof RunStillGoingError) return { timedOut: true, run: error3.lastRun, phase: classifyRunStatus(error3.lastRun.status) };
    if (error3 instanceof RateLimitError || error3 instanceof DeadlineError) return { timedOut: true, run: last, phase: classifyRunStatus(last.status) };
    throw error3;
  }
}
var MAX_TRACE_PAGES = 20;
var TRACE_PAGE = 100;
async function readTraceDigest(client, runId, options) {
  const entries = [];
  try {
    const first = await client.listLogs(runId, { skip: 0, limit: TRACE_PAGE }, { deadline: options.deadline });
    const total = first.total_logs ?? first.logs.length;
    const maxEntries = MAX_TRACE_PAGES * TRACE_PAGE;
    if (total <= TRACE_PAGE || first.logs.length < TRACE_PAGE) {
      entries.push(...first.logs);
    } else {
      const skip = Math.max(TRACE_PAGE, total - (maxEntries - TRACE_PAGE));
      entries.push(...first.logs);
      for await (const entry of client.iterateLogs(runId, { skip, pageSize: TRACE_PAGE, deadline: options.deadline })) entries.push(entry);
    }
  } catch {
    return null;
  }
  return digestTrace(entries, { maxSteps: 8, triggerPhrase: options.triggerPhrase });
}
async function readCurrentStep(client, runId, options) {
  try {
    const head = await client.listLogs(runId, { skip: 0, limit: 1 }, { deadline: options.deadline });
    const total = head.total_logs ?? 0;
    if (total <= 1) return describeCurrentStep(head.logs, { triggerPhrase: options.triggerPhrase });
    const tail = await client.listLogs(runId, { skip: Math.max(0, total - 10), limit: 10 }, { deadline: options.deadline });
    return describeCurrentStep(tail.logs, { triggerPhrase: options.triggerPhrase });
  } catch {
    return null;
  }
}

// src/service/reconcile.ts
var INTERRUPTED_RUN_DEFAULTS = { maxPages: 3, pageSize: LIST_PAGE_MAX, clockSkewMs: 5 * 6e4 };
var ORDER_TOLERANCE_MS = 1e3;
async function findInterruptedRun(client, query) {
  const wanted = wantedMetadata(query.match);
  if (!Number.isFinite(query.sentAfter)) throw new RequestValidationError("interrupted run search", ["sentAfter must be an epoch time in milliseconds"]);
  const maxPages = query.maxPages ?? INTERRUPTED_RUN_DEFAULTS.maxPages;
  const pageSize = query.pageSize ?? INTERRUPTED_RUN_DEFAULTS.pageSize;
  const windowStart = query.sentAfter - (query.clockSkewMs ?? INTERRUPTED_RUN_DEFAULTS.clockSkewMs);
  const callOptions = { signal: query.signal, deadline: query.deadline };
  let skip = 0;
  let previous;
  for (let pagesRead = 1; pagesRead <= maxPages; pagesRead++) {
    const listing = await client.listRuns({ skip, limit: pageSize }, callOptions);
    if (listing.kind === "unsupported") return { kind: "unsupported" };
    const { items, total, size } = listing.page;
    let reachedWindowStart = false;
    for (const run of items) {
      if (matches(run, wanted)) return { kind: "found", run, pagesRead };
      const createdAt2 = parseServiceTimestamp(run.created_at);
      if (createdAt2 === void 0) continue;
      if (previous !== void 0 && createdAt2 > previous + ORDER_TOLERANCE_MS) {
        return { kind: "inconclusive", reason: "the service does not list runs newest first, so the listing cannot be bounded by time", pagesRead };
      }
      previous = createdAt2;
      if (createdAt2 < windowStart) reachedWindowStart = true;
    }
    if (reachedWindowStart) return { kind: "not_found", pagesRead };
    skip += items.length;
    const ended = typeof total === "number" ? skip >= total : items.length === 0 || items.length < Math.min(pageSize, size ?? pageSize);
    if (ended || items.length === 0) return { kind: "not_found", pagesRead };
  }
  return {
    kind: "inconclusive",
    reason: `${maxPages} page(s) of runs did not reach back to when the create was sent`,
    pagesRead: maxPages
  };
}
function wantedMetadata(match) {
  const wanted = [];
  if (match.delivery_id !== void 0 && String(match.delivery_id) !== "") wanted.push([BRIDGE_METADATA_KEYS.deliveryId, String(match.delivery_id)]);
  if (match.bridge_task_id !== void 0 && String(match.bridge_task_id) !== "") wanted.push([BRIDGE_METADATA_KEYS.bridgeTaskId, String(match.bridge_task_id)]);
  if (wanted.length === 0) {
    throw new RequestValidationError("interrupted run search", ["match needs delivery_id or bridge_task_id"]);
  }
  return wanted;
}
function matches(run, wanted) {
  const metadata = run.metadata;
  if (!metadata) return false;
  return wanted.every(([key, value2]) => {
    const found = metadata[key];
    return (typeof found === "string" || typeof found === "number") && String(found) === value2;
  });
}
function parseServiceTimestamp(value2) {
  if (!value2) return void 0;
  const text2 = value2.trim().replace(" ", "T");
  const zoned = !text2.includes("T") || /T.*(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(text2) ? text2 : `${text2}Z`;
  const parsed = Date.parse(zoned);
  return Number.isNaN(parsed) ? void 0 : parsed;
}

// src/action/steps/rerun.ts
async function findEarlierAttempt(step, prepared) {
  const { runId: workflowRun, runAttempt } = step.runner;
  const attempt = Number(runAttempt ?? "1");
  if (!workflowRun || !(attempt > 1) || !step.repo || !prepared.thread) return null;
  const { comments } = await listIssueComments(step.octokit, step.repo, prepared.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const prefix = `actions:${workflowRun}:`;
  const earlierAttemptOf = (requestId) => requestId?.startsWith(prefix) ? Number(requestId.slice(prefix.length)) : Number.NaN;
  const interrupted = listTrustedRunMarkers(asMarkerComments(comments), { botLogins: [...step.self.botLogins] }).find(({ marker }) => marker.runId === null && earlierAttemptOf(marker.requestId) < attempt);
  if (!interrupted) return null;
  const comment = comments.find((c) => c.id === interrupted.commentId);
  const earlier = earlierAttemptOf(interrupted.marker.requestId);
  const reused = { id: comment.id, url: comment.htmlUrl };
  const search = await findInterruptedRun(step.client, { sentAfter: Date.parse(comment.createdAt), match: { delivery_id: `${workflowRun}-${earlier}` }, deadline: step.deadline });
  switch (search.kind) {
    case "found":
      info(`Attempt ${earlier} of this workflow run was stopped while starting run ${search.run.id}; this attempt watches that run instead of starting another.`);
      return { comment: reused, run: search.run };
    case "not_found":
      info(`Attempt ${earlier} of this workflow run was stopped before its run started; starting it now.`);
      return { comment: reused, run: null };
    case "inconclusive":
    case "unsupported":
      warning(
        `Attempt ${earlier} of this workflow run was stopped while starting a run, and the service ${search.kind === "unsupported" ? "does not list runs" : `could not tell (${search.reason})`}: starting one now, so two runs may exist.`
      );
      return { comment: reused, run: null };
  }
}

// src/action/stop.ts
async function stopFromThread(input) {
  const prepared = await prepareStop({ octokit: input.octokit, request: input.request, config: input.config, self: input.self, client: input.client });
  if (prepared.action === "refuse") {
    const comment2 = await input.thread.reply(prepared.body);
    notice(prepared.reason, { title: "Stop refused" });
    return { kind: "refused", reason: prepared.reason, comment: comment2 };
  }
  for (const edit of prepared.edits) {
    try {
      await updateComment(input.octokit, input.repo, edit.commentId, edit.body);
    } catch (error3) {
      warning(`Could not mark comment ${edit.commentId} as stopped: ${error3.message}`);
    }
  }
  await input.thread.react(prepared.reaction, "+1");
  const comment = await input.thread.reply(prepared.reply);
  info(prepared.reason);
  return { kind: "stopped", reason: prepared.reason, comment };
}

// src/action/identity.ts
var ACTIONS_BOT_LOGIN = "github-actions[bot]";
async function readViewerLogin(octokit) {
  try {
    const response = await octokit.request("POST /graphql", { query: "query { viewer { login } }" });
    const data = response.data;
    const login = data?.data?.viewer?.login;
    return typeof login === "string" && login !== "" ? login : null;
  } catch {
    return null;
  }
}
function identityFor(viewerLogin) {
  const botLogins = [ACTIONS_BOT_LOGIN];
  if (viewerLogin && isBotAccount(viewerLogin) && viewerLogin.toLowerCase() !== ACTIONS_BOT_LOGIN) {
    botLogins.push(viewerLogin);
  }
  return { botLogins, viewerLogin };
}
async function resolveIdentity(octokit) {
  return identityFor(await readViewerLogin(octokit));
}

// src/action/images.ts
import { readFile as readFile2, stat as stat2 } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
var MAX_IMAGE_BYTES = 5 * 1024 * 1024;
async function loadImages(sources, workspace) {
  const problems = [];
  const images = [];
  for (const source of sources) {
    if (source.kind === "data_uri") {
      images.push(source.uri);
      continue;
    }
    const path = isAbsolute(source.path) ? source.path : resolve(workspace, source.path);
    try {
      const info2 = await stat2(path);
      if (!info2.isFile()) {
        problems.push(`\`images\`: ${source.path} is not a file`);
        continue;
      }
      if (info2.size > MAX_IMAGE_BYTES) {
        problems.push(`\`images\`: ${source.path} is ${info2.size} bytes; at most ${MAX_IMAGE_BYTES} are accepted per image`);
        continue;
      }
      const bytes = await readFile2(path);
      const type = sniffImageType(bytes);
      if (!type) {
        problems.push(`\`images\`: ${source.path} is not a PNG, JPEG, GIF or WebP image`);
        continue;
      }
      images.push(toDataUri(type, bytes));
    } catch (error3) {
      const code = error3.code;
      const reason = code === "ENOENT" ? "no such file (paths are relative to the workspace)" : code === "EACCES" ? "permission denied" : String(code ?? error3);
      problems.push(`\`images\`: cannot read ${source.path}: ${reason}`);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return images;
}

// src/action/node-fetch.ts
import { createRequire } from "node:module";
var load = createRequire(import.meta.url);
var transports;
var transportFor = (protocol) => {
  transports ??= { "http:": load("node:http"), "https:": load("node:https") };
  return transports[protocol];
};
var MAX_REDIRECTS2 = 20;
var ResponseHeaders = class {
  values = /* @__PURE__ */ new Map();
  constructor(raw) {
    for (const [name, value2] of Object.entries(raw)) {
      if (value2 === void 0) continue;
      this.values.set(name.toLowerCase(), Array.isArray(value2) ? value2.join(", ") : value2);
    }
  }
  get(name) {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  [Symbol.iterator]() {
    return this.values.entries();
  }
};
var BufferedResponse = class {
  constructor(status, statusText, headers, url, bytes, redirected) {
    this.status = status;
    this.statusText = statusText;
    this.headers = headers;
    this.url = url;
    this.bytes = bytes;
    this.ok = status >= 200 && status < 300;
    this.redirected = redirected;
  }
  status;
  statusText;
  headers;
  url;
  bytes;
  ok;
  redirected;
  async text() {
    return this.bytes.toString("utf8");
  }
  async json() {
    return JSON.parse(this.bytes.toString("utf8"));
  }
  async arrayBuffer() {
    return this.bytes.buffer.slice(this.bytes.byteOffset, this.bytes.byteOffset + this.bytes.byteLength);
  }
};
function canUseNodeFetch(init) {
  const body = init?.body;
  return body === void 0 || body === null || typeof body === "string" || body instanceof Uint8Array;
}
var nodeFetch = (async (input, init) => {
  if (!(typeof input === "string" || input instanceof URL) || !canUseNodeFetch(init)) return globalThis.fetch(input, init);
  let url = new URL(input);
  let method = (init?.method ?? "GET").toUpperCase();
  let body = init?.body;
  const headers = headerRecord(init?.headers);
  const signal = init?.signal ?? void 0;
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, method, headers, body, signal);
    const location = response.headers.location;
    const status = response.statusCode ?? 0;
    if (init?.redirect !== "manual" && [301, 302, 303, 307, 308].includes(status) && typeof location === "string") {
      response.resume();
      if (init?.redirect === "error") throw new TypeError("fetch failed", { cause: new Error(`redirected to ${location} with redirect: "error"`) });
      if (redirects >= MAX_REDIRECTS2) throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
      if (status === 303 || (status === 301 || status === 302) && method === "POST") {
        method = "GET";
        body = void 0;
        for (const name of Object.keys(headers)) if (/^content-/.test(name)) delete headers[name];
      }
      const next = new URL(location, url);
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
      continue;
    }
    const bytes = await readAll(response, signal);
    return new BufferedResponse(status, response.statusMessage ?? "", new ResponseHeaders(response.headers), url.href, bytes, redirects > 0);
  }
});
function headerRecord(headers) {
  const record2 = {};
  if (!headers) return record2;
  const entries = Array.isArray(headers) ? headers : typeof headers.entries === "function" ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value2] of entries) record2[name.toLowerCase()] = String(value2);
  return record2;
}
function send(url, method, headers, body, signal) {
  const transport = transportFor(url.protocol);
  if (!transport) return Promise.reject(new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) }));
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve2, reject) => {
    const outgoing = { ...headers };
    if (body !== void 0 && body !== null) outgoing["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    const request = transport.request(url, { method, headers: outgoing }, (response) => {
      signal?.removeEventListener("abort", onAbort);
      resolve2(response);
    });
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.once("error", (error3) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("fetch failed", { cause: error3 }));
    });
    request.end(body ?? void 0);
  });
}
function readAll(response, signal) {
  return new Promise((resolve2, reject) => {
    const chunks = [];
    const onAbort = () => {
      response.destroy();
      reject(signal.reason);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    response.on("data", (chunk) => chunks.push(chunk));
    response.once("end", () => {
      signal?.removeEventListener("abort", onAbort);
      resolve2(Buffer.concat(chunks));
    });
    response.once("error", (error3) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("terminated", { cause: error3 }));
    });
  });
}

// src/action/octokit.ts
async function createActionOctokit(token, baseUrl, userAgent) {
  if (proxyFor(baseUrl)) {
    const { getOctokit } = await import("./github-YIHBNYAP.js");
    return getOctokit(token, { baseUrl, userAgent });
  }
  return new Octokit({ auth: `token ${token}`, baseUrl, userAgent: withOrchestrationId(userAgent), request: { fetch: nodeFetch } });
}
function proxyFor(baseUrl) {
  try {
    return getProxyUrl(new URL(baseUrl)) !== void 0;
  } catch {
    return false;
  }
}
function withOrchestrationId(userAgent) {
  const id = process.env.ACTIONS_ORCHESTRATION_ID?.trim();
  if (!id) return userAgent;
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, "_")}`;
  return userAgent.includes(tag) ? userAgent : `${userAgent} ${tag}`;
}

// src/github/reactions.ts
var REACTION_CONTENTS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];
async function addReaction(octokit, repo, target, content) {
  if (!REACTION_CONTENTS.includes(content)) {
    throw new GitHubInputError(`Unknown reaction ${JSON.stringify(content)}: use one of ${REACTION_CONTENTS.join(", ")}. Nothing was sent.`);
  }
  const doing = `adding a ${content} reaction to ${target.kind.replace("_", " ")} ${target.id} in ${repo.owner}/${repo.repo}`;
  const response = await callGitHub(doing, () => {
    switch (target.kind) {
      case "issue_comment":
        return octokit.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", { ...repo, comment_id: target.id, content });
      case "review_comment":
        return octokit.request("POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", { ...repo, comment_id: target.id, content });
      case "issue":
        return octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", { ...repo, issue_number: target.id, content });
    }
  });
  return { id: response.data.id, content, created: response.status === 201 };
}

// src/action/thread.ts
var MAX_RATE_LIMIT_WAIT_MS = 9e4;
var RATE_LIMIT_RETRIES = 3;
var sleep2 = (ms) => new Promise((resolve2) => setTimeout(resolve2, ms));
var ThreadReporter = class {
  constructor(octokit, repo, threadNumber, log) {
    this.octokit = octokit;
    this.repo = repo;
    this.threadNumber = threadNumber;
    this.log = log;
  }
  octokit;
  repo;
  threadNumber;
  log;
  tracking = null;
  get enabled() {
    return this.threadNumber !== null;
  }
  /** The issue or pull request written to, or null. */
  get number() {
    return this.threadNumber;
  }
  /** The tracking comment, once posted. */
  get comment() {
    return this.tracking;
  }
  async react(target, content) {
    if (!this.enabled || !target) return;
    await this.attempt(`add a ${content} reaction`, () => addReaction(this.octokit, this.repo, target, content));
  }
  /** Posts a one-off reply (refusal, hand-back, config error). */
  async reply(body) {
    if (this.threadNumber === null) return null;
    const number3 = this.threadNumber;
    const posted = await this.attempt("post a comment", () => createComment(this.octokit, this.repo, number3, body));
    return posted ? { id: posted.id, url: posted.htmlUrl } : null;
  }
  /** Carries on in a tracking comment an earlier attempt of this job posted, instead of posting another. */
  continueTracking(comment) {
    this.tracking ??= comment;
  }
  /** Posts the tracking comment the first time, edits it afterwards (re-posting it if someone deleted it). */
  async track(body) {
    if (this.threadNumber === null) return null;
    const number3 = this.threadNumber;
    const current = this.tracking;
    if (current) {
      try {
        const updated = await this.retrying(() => updateComment(this.octokit, this.repo, current.id, body));
        return this.tracking = { id: updated.id, url: updated.htmlUrl };
      } catch (error3) {
        if (!(error3 instanceof GitHubNotFoundError)) {
          this.log.warning(`Could not update the tracking comment: ${error3.message}`);
          return current;
        }
        this.log.info("The tracking comment was deleted; posting a new one.");
      }
    }
    const posted = await this.attempt("post the tracking comment", () => createComment(this.octokit, this.repo, number3, body));
    if (posted) this.tracking = { id: posted.id, url: posted.htmlUrl };
    return this.tracking;
  }
  async attempt(what, write) {
    try {
      return await this.retrying(write);
    } catch (error3) {
      this.log.warning(`Could not ${what}: ${error3.message}`);
      return null;
    }
  }
  async retrying(write) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error3) {
        const waitMs = error3 instanceof GitHubRateLimitError ? error3.retryAfterSeconds * 1e3 : Number.POSITIVE_INFINITY;
        if (attempt >= RATE_LIMIT_RETRIES || waitMs > MAX_RATE_LIMIT_WAIT_MS) throw error3;
        this.log.info(`GitHub rate-limited a write; retrying in ${Math.ceil(waitMs / 1e3)} s.`);
        await sleep2(waitMs);
      }
    }
  }
};

// src/action/steps/step.ts
var ACTION_NAME = `${BRIDGE_NAME}/action`;
async function openStep(inputs, env, now) {
  const runner = readRunnerEnv(env);
  const event = parseWebhookEvent(runner.eventName, await readEventPayload(runner));
  const images = await loadImages(inputs.images, runner.workspace);
  const startedAt = now();
  const repoFullName = event.repo?.fullName ?? runner.repository;
  const [owner, name] = (repoFullName ?? "").split("/");
  if (inputs.githubToken === "") {
    throw new InputError(["`github-token` is empty: leave it unset (the job's token is the default) or pass a token that can write issue comments"]);
  }
  const userAgent = `${ACTION_NAME}/${BRIDGE_VERSION}`;
  return {
    inputs,
    runner,
    event,
    repo: owner && name ? { owner, repo: name } : null,
    repoFullName,
    octokit: await createActionOctokit(inputs.githubToken, runner.apiUrl, userAgent),
    client: new AgentRunClient({
      baseUrl: inputs.apiUrl,
      token: inputs.apiToken,
      orgId: inputs.orgId,
      userAgent,
      logsPath: inputs.logsPath,
      logger: { warn: (message) => warning(message) },
      // Through a proxy, Node's own fetch as before; otherwise node:http, which starts faster.
      ...proxyFor(inputs.apiUrl) ? {} : { fetch: nodeFetch }
    }),
    images,
    now,
    startedAt,
    deadline: startedAt + inputs.timeoutMinutes * 6e4,
    poll: pollScheduleFrom(env.AGENT_RUN_POLL_INTERVAL),
    self: { botLogins: identityFor(null).botLogins, allowedBots: inputs.allowedBots },
    summary: {
      thread: isThreadEvent(event) ? { label: `${repoFullName ?? event.repo.fullName}#${event.thread.number}`, url: event.thread.url } : null,
      triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase
    }
  };
}
function identify(step) {
  step.identity ??= resolveIdentity(step.octokit).then((identity) => step.self = { ...step.self, botLogins: identity.botLogins });
  return step.identity;
}
function identifyAhead(step) {
  identify(step).catch(() => void 0);
}
function commentThread(step, thread) {
  if (!step.repo) return null;
  switch (step.inputs.comment) {
    case "false":
      return null;
    case "true":
      if (!thread) warning("`comment: true`, but this event has no issue or pull request to comment on.");
      return thread?.number ?? null;
    case "auto":
      return thread?.number ?? null;
  }
}
var logSink = { info: (message) => info(message), warning: (message) => warning(message) };
function threadReporter(step, thread) {
  return new ThreadReporter(step.octokit, step.repo ?? { owner: "", repo: "" }, commentThread(step, thread), logSink);
}
function deliveryId(runner) {
  return runner.runId ? `${runner.runId}-${runner.runAttempt ?? "1"}` : void 0;
}
function requestIdOf(runner) {
  return runner.runId ? `actions:${runner.runId}:${runner.runAttempt ?? "1"}` : void 0;
}
function softFailure(step, message) {
  if (step.inputs.failOnError) return message;
  warning(message);
  return null;
}
function fail(step, message, run, comment = null, resumed = false) {
  return { outcome: { kind: "error", message, run, resumed, comment }, failure: softFailure(step, message) };
}
function errorMessage(error3) {
  if (error3 instanceof Error) return error3.message;
  return String(error3);
}

// src/action/steps/decide.ts
async function loadConfig(step) {
  const text2 = step.repo ? await fetchConfigFile(step.octokit, step.repo) : void 0;
  const file = await parseConfigFile(text2);
  if (!file.ok) return { ok: false, errors: file.errors, fileRaw: void 0 };
  for (const warning2 of file.warnings) warning(warning2);
  const parsed = effectiveConfig(file.raw, step.inputs, step.event.name);
  return parsed.ok ? { ok: true, config: parsed.config } : { ok: false, errors: parsed.errors, fileRaw: layeredConfigInput(file.raw, step.inputs, step.event.name) };
}
async function reportConfigError(step, config2) {
  const message = `The agent configuration is invalid, so nothing was started: ${config2.errors.join("; ")}`;
  const despite = detectDespiteConfigError(step.event, config2.fileRaw, step.self);
  const wouldTrigger = step.inputs.prompt !== void 0 || step.inputs.mode === "resume" || despite.kind === "trigger";
  if (!wouldTrigger) {
    warning(message);
    return { outcome: { kind: "ignored", reason: message }, failure: null };
  }
  const self = await identify(step);
  const threadNumber = isThreadEvent(step.event) ? step.event.thread.number : despite.kind === "trigger" ? triggerThread(despite.trigger)?.number ?? null : null;
  const thread = threadReporter(step, threadNumber === null ? null : { number: threadNumber });
  let comment = null;
  if (thread.enabled && step.repo && threadNumber !== null) {
    const body = await configErrorReply({ octokit: step.octokit, repo: step.repo, threadNumber, errors: config2.errors, self: { botLogins: [...self.botLogins] }, file: CONFIG_PATH });
    if (body) comment = await thread.reply(body);
  }
  return fail(step, message, null, comment);
}
var done = (result) => ({ kind: "done", result });
async function decide(step, config2) {
  const { inputs, event } = step;
  const explicitPrompt = inputs.prompt ? { explicitPrompt: inputs.prompt } : {};
  const stop = inputs.prompt || inputs.mode === "resume" ? null : detectStopRequest(event, config2, step.self);
  if (stop && step.repo) {
    const self = await identify(step);
    const thread2 = threadReporter(step, { number: stop.thread.number });
    return done({ outcome: await stopFromThread({ octokit: step.octokit, repo: step.repo, request: stop, config: config2, self, client: repositoryRunReader(step.client, step.repoFullName), thread: thread2 }), failure: null });
  }
  const detect = () => detectTrigger(event, config2, step.self, explicitPrompt);
  let detection = detect();
  if (detection.kind !== "ignore") {
    await identify(step);
    detection = detect();
  }
  if (detection.kind === "ignore") {
    if (detection.code === "unsupported_event") {
      return done(fail(step, `The "${event.name}" event has no comment, review or failing CI to act on: give the action a \`prompt\` input to start a run from it.`, null));
    }
    info(`Nothing to do: ${detection.reason}`);
    return done({ outcome: { kind: "ignored", reason: detection.reason }, failure: null });
  }
  if (inputs.mode === "resume") return resumeAsNamed(step, config2, detection.trigger);
  const prepared = await prepareRun({
    octokit: step.octokit,
    trigger: detection.trigger,
    config: config2,
    self: step.self,
    mode: inputs.mode === "create" ? { kind: "create" } : { kind: "auto" },
    client: repositoryRunReader(step.client, step.repoFullName),
    lookup: MARKERS_ONLY_LOOKUP,
    origin: { deliveryId: deliveryId(step.runner), appName: ACTION_NAME, appVersion: BRIDGE_VERSION },
    images: { token: inputs.githubToken, tokenOrigins: [step.runner.serverUrl] },
    logger: { warn: (_obj, message) => warning(message) }
  });
  info(prepared.reason);
  if (prepared.thread && step.repoFullName) step.summary.thread = { label: `${step.repoFullName}#${prepared.thread.number}`, url: prepared.thread.url };
  const thread = threadReporter(step, prepared.thread);
  switch (prepared.action) {
    case "ignore":
      return done({ outcome: { kind: "ignored", reason: prepared.reason }, failure: null });
    case "refuse":
    case "hand_back": {
      const comment = await thread.reply(prepared.body);
      const kind = prepared.action === "refuse" ? "refused" : "handed_back";
      notice(prepared.reason, { title: prepared.action === "refuse" ? "Agent run refused" : "Pull request handed back" });
      return done({ outcome: { kind, reason: prepared.reason, comment }, failure: null });
    }
    case "queue":
      if (prepared.runId === null) return done(fail(step, "The thread's run is still being created; trigger the agent again once it has started.", null));
      return { kind: "start", start: startFor(step, prepared), thread, prepared };
    case "resume":
      return { kind: "start", start: startFor(step, prepared), thread, prepared };
    case "create": {
      const earlier = await findEarlierAttempt(step, prepared);
      if (earlier) thread.continueTracking(earlier.comment);
      const adopted = earlier?.run;
      if (!adopted) return { kind: "start", start: startFor(step, prepared), thread, prepared };
      return { kind: "start", start: { ...startFor(step, prepared), send: () => Promise.resolve(adopted) }, thread, prepared: null };
    }
  }
}
function decideAhead(step) {
  if (step.inputs.prompt !== void 0 || step.inputs.mode === "resume") identifyAhead(step);
}
function resumeAsNamed(step, config2, trigger) {
  const { inputs, event } = step;
  const mode = { kind: "resume", runId: inputs.runId, orgId: inputs.orgId };
  const plan = planRun(trigger, { mode, permission: { allowed: true, why: "The workflow names the run (`mode: resume`)." }, knownRun: null, followUp: config2.follow_up, triggerPhrase: config2.trigger_phrase });
  if (plan.action !== "resume") return done(fail(step, `\`mode: resume\` could not resume run ${mode.runId}: ${plan.reason}`, null));
  info(plan.reason);
  if (step.images.length > 0 || inputs.metadata) warning("`images` and `metadata` are only sent when a run is created; a resume sends the prompt alone.");
  const thread = threadReporter(step, isThreadEvent(event) ? { number: event.thread.number } : null);
  const marker = newRunMarker({ runId: plan.runId, orgId: plan.orgId, sourceType: SOURCE.api, requestId: requestIdOf(step.runner) });
  return {
    kind: "start",
    thread,
    prepared: null,
    start: { marker, phase: "resuming", triggerUrl: null, reaction: null, resumed: true, send: () => step.client.resumeRun(plan.runId, inputs.prompt, { deadline: step.deadline }) }
  };
}
function startFor(step, prepared) {
  const { inputs, client } = step;
  const marker = newRunMarker({
    runId: prepared.action === "create" ? null : prepared.runId,
    orgId: inputs.orgId,
    sourceType: prepared.markerHints.sourceType,
    branches: prepared.markerHints.branches,
    requestId: requestIdOf(step.runner),
    ...prepared.markerHints.headSha ? { headSha: prepared.markerHints.headSha } : {}
  });
  const common2 = { marker, triggerUrl: prepared.triggerUrl, reaction: prepared.reaction };
  switch (prepared.action) {
    case "create": {
      const request = createRequest(step, prepared.request);
      return { ...common2, phase: "starting", resumed: false, orgDefaultRepository: request.repo_id == null, send: () => client.createRun(request, { deadline: step.deadline }) };
    }
    case "resume":
      return { ...common2, phase: "resuming", resumed: true, send: () => client.resumeRun(prepared.runId, prepared.resumePrompt, { deadline: step.deadline }) };
    case "queue": {
      const runId = prepared.runId;
      return { ...common2, phase: "queued_follow_up", resumed: true, waitFor: runId, send: () => client.resumeRun(runId, prepared.resumePrompt, { deadline: step.deadline }) };
    }
  }
}
function createRequest(step, prepared) {
  const workflowRun = workflowRunUrl(step.runner);
  const metadata = {
    ...prepared.metadata,
    ...workflowRun ? { github_actions_run_url: workflowRun } : {},
    ...step.inputs.metadata,
    // The origin stays what the event says, whatever the workflow merges in.
    source_type: prepared.metadata.source_type
  };
  const images = [...prepared.images ?? [], ...step.images];
  return { ...prepared, metadata, ...images.length > 0 ? { images } : {} };
}

// src/action/links.ts
var MAX_LINKED_PULL_REQUESTS = 5;
function renderPullRequestLink(input) {
  const marker = renderMarker({ ...newRunMarker({ runId: input.run.id, orgId: input.orgId, sourceType: input.sourceType, branches: [input.branch] }), state: "done", outcome: input.outcome });
  const run = input.run.web_url ? renderLink(`#${input.run.id}`, input.run.web_url) : `#${input.run.id}`;
  const hint = inlineCode(`${input.triggerPhrase} <instructions>`, { maxLength: 100 });
  return `${marker}
${md`🤖 This pull request comes from agent run ${run}. Comment ${hint} here, or request changes in a review, to continue that run.`}`;
}
async function linkPullRequests(octokit, repo, input) {
  const branches = [...new Set((input.run.git_host_pull_requests ?? []).map((pr) => pr.head_branch_name).filter((b) => !!b))];
  const linked = [];
  for (const branch of branches.slice(0, MAX_LINKED_PULL_REQUESTS)) {
    try {
      for (const pull of await findPullRequestsForBranch(octokit, repo, branch, { limit: 3 })) {
        if (pull.number === input.skipThread || pull.fromFork) continue;
        const { comments } = await listIssueComments(octokit, repo, pull.number, { limit: 100 });
        if (findLatestMarkerForRun(asMarkerComments(comments), input.run.id, input.self)) continue;
        await createComment(octokit, repo, pull.number, renderPullRequestLink({ ...input, branch }));
        linked.push(pull.number);
      }
    } catch (error3) {
      input.log.warning(`Could not link the pull request of branch ${branch} to run ${input.run.id}: ${error3.message}`);
    }
  }
  return linked;
}

// src/action/steps/finish.ts
function leftRunning(step, tracked, run, watch, endedAt) {
  return { outcome: { kind: "run", run, resumed: tracked.start.resumed, watch, phase: classifyRunStatus(run.status), comment: tracked.thread.comment, startedAt: step.startedAt, endedAt }, failure: null };
}
function startedOnly(step, tracked, run) {
  return leftRunning(step, tracked, run, "started", step.now());
}
function stoppedFromThread(step, tracked, run, endedAt) {
  notice(`Agent run ${run.id} was stopped from the thread; this step stopped watching it. The service has no cancel call: ${run.web_url ?? "stop it on its page"}.`, { title: "Agent stopped" });
  return leftRunning(step, tracked, run, "stopped", endedAt);
}
async function finishRun(step, tracked, watched, endedAt) {
  const { inputs } = step;
  const { thread, start } = tracked;
  const run = watched.run;
  const triggerPhrase = tracked.config.trigger_phrase;
  const trace = thread.enabled ? await readTraceDigest(step.client, run.id, { deadline: endedAt + 6e4, triggerPhrase }) : null;
  const phase = watched.timedOut ? "in_progress" : watched.phase;
  await thread.track(renderResultComment({ marker: tracked.marker, run, phase, startedAt: step.startedAt, finishedAt: endedAt, trace, triggerPhrase }));
  if (phase === "succeeded") await thread.react(start.reaction, "rocket");
  if (phase === "failed") await thread.react(start.reaction, "confused");
  if (thread.enabled && step.repo && (run.git_host_pull_requests ?? []).length > 0) {
    await linkPullRequests(step.octokit, step.repo, {
      run,
      orgId: inputs.orgId,
      sourceType: tracked.marker.sourceType,
      outcome: outcomeForPhase(phase),
      triggerPhrase,
      self: { botLogins: [...step.self.botLogins] },
      log: logSink,
      skipThread: thread.number
    });
  }
  const outcome = { kind: "run", run, resumed: start.resumed, watch: watched.timedOut ? "timed_out" : "finished", phase, comment: thread.comment, startedAt: step.startedAt, endedAt };
  const link = run.web_url ? `: ${run.web_url}` : "";
  if (watched.timedOut) {
    return { outcome, failure: softFailure(step, `Agent run ${run.id} is still ${run.status ?? "running"} after ${inputs.timeoutMinutes} minute(s) (timeout-minutes); it keeps going${link}`) };
  }
  if (phase === "failed") return { outcome, failure: softFailure(step, `Agent run ${run.id} failed (status ${run.status ?? "none"})${link}`) };
  if (phase === "stopped") return { outcome, failure: softFailure(step, `Agent run ${run.id} was stopped before it finished (status ${run.status ?? "none"})${link}`) };
  if (phase === "waiting_for_input") notice(`Agent run ${run.id} is waiting for input${link}. Reply with \`${triggerPhrase} <answer>\` to continue it.`);
  return { outcome, failure: null };
}
async function reportServiceError(step, tracked, error3) {
  await tracked.thread.track(renderServiceError({ ...serviceErrorForComment(error3), secrets: [step.inputs.apiToken] }));
  return fail(step, errorMessage(error3), tracked.run, tracked.thread.comment, tracked.start.resumed);
}

// src/action/stop-watch.ts
function stopCheckIntervalMs(poll) {
  return Math.max(poll.initial, Math.min(poll.max, 15e3));
}
var StopWatch = class {
  constructor(octokit, repo, commentId, self, intervalMs, warn) {
    this.octokit = octokit;
    this.repo = repo;
    this.commentId = commentId;
    this.self = self;
    this.intervalMs = intervalMs;
    this.warn = warn;
  }
  octokit;
  repo;
  commentId;
  self;
  intervalMs;
  warn;
  controller = new AbortController();
  timer = null;
  found = false;
  warned = false;
  /** Aborted once the stop is seen: pass it to the watch so that it ends at once. */
  get signal() {
    return this.controller.signal;
  }
  get stopped() {
    return this.found;
  }
  /** Starts looking every `intervalMs` until `close()`. */
  start() {
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.check().then((stopped) => {
          if (!stopped && this.timer !== null) tick();
        });
      }, this.intervalMs);
      this.timer.unref();
    };
    tick();
    return this;
  }
  /** Whether the tracking comment is now in the stopped state (read now). A failed read counts as not stopped. */
  async check() {
    if (this.found) return true;
    const id = this.commentId();
    if (id === null) return false;
    try {
      const comment = await getComment(this.octokit, this.repo, id);
      const asMarked = comment && { id: comment.id, body: comment.body, user: { login: comment.author.login, type: comment.author.type } };
      if (asMarked && isTrustedAuthor(asMarked, this.self) && parseMarker(asMarked.body)?.outcome === "stopped") {
        this.found = true;
        this.controller.abort(new Error("stopped from the thread"));
      }
    } catch (error3) {
      if (!this.warned) this.warn(`Could not read the tracking comment to see whether the run was stopped: ${error3.message}`);
      this.warned = true;
    }
    return this.found;
  }
  close() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
};

// src/action/steps/start.ts
var TrackedRun = class {
  constructor(step, start, thread, config2) {
    this.step = step;
    this.start = start;
    this.thread = thread;
    this.config = config2;
    this.marker = start.marker;
  }
  step;
  start;
  thread;
  config;
  marker;
  run = null;
  /** Rewrites the tracking comment in a phase (the result is written by finish.ts). */
  track(phase, webUrl, currentStep) {
    return this.thread.track(
      renderTrackingComment({
        marker: this.marker,
        webUrl,
        phase,
        startedAt: this.step.startedAt,
        now: this.step.now(),
        triggerUrl: this.start.triggerUrl,
        currentStep,
        orgDefaultRepository: this.start.orgDefaultRepository
      })
    );
  }
};
function watchForStop(step, thread) {
  if (!step.repo || !thread.enabled) return null;
  return new StopWatch(step.octokit, step.repo, () => thread.comment?.id ?? null, { botLogins: [...step.self.botLogins] }, stopCheckIntervalMs(step.poll), (message) => warning(message)).start();
}
async function startRun(step, tracked, stopWatch) {
  const { start, thread } = tracked;
  await thread.react(start.reaction, "eyes");
  await tracked.track(start.phase, null);
  if (start.waitFor !== void 0) {
    info(`Run ${start.waitFor} is still working on this thread; waiting for it before sending the follow-up.`);
    const earlier = await watchRun(step.client, await step.client.getRun(start.waitFor, { deadline: step.deadline }), {
      deadline: step.deadline,
      poll: step.poll,
      ...stopWatch ? { signal: stopWatch.signal } : {}
    });
    if (stopWatch?.stopped) return stoppedBeforeStart(thread);
    if (earlier.timedOut) {
      const message = `Run ${start.waitFor} was still working at the timeout, so the follow-up was not sent; trigger the agent again once it has finished.`;
      await thread.track(renderServiceError({ message: "the thread's run was still working when this step stopped waiting, so your follow-up was not sent.", whatToDo: "Ask again once the run has finished." }));
      return { kind: "done", result: fail(step, message, earlier.run, thread.comment) };
    }
  }
  if (await stopWatch?.check()) return stoppedBeforeStart(thread);
  const run = await start.send();
  tracked.run = run;
  tracked.marker = { ...tracked.marker, runId: run.id };
  info(`Agent run ${run.id} ${start.resumed ? "resumed" : "started"}: ${run.web_url ?? "(no web URL)"}`);
  if (!await stopWatch?.check()) await tracked.track(start.resumed ? "resuming" : "starting", run.web_url ?? null);
  return { kind: "started", run };
}
function stoppedBeforeStart(thread) {
  notice("Stopped from the thread before anything was sent; nothing was started.", { title: "Agent stopped" });
  return { kind: "done", result: { outcome: { kind: "stopped", reason: "Stopped from the thread before the follow-up was sent.", comment: thread.comment }, failure: null } };
}

// src/action/steps/watch.ts
async function watchToEnd(step, tracked, stopWatch) {
  const { client } = step;
  const run = tracked.run;
  const triggerPhrase = tracked.config.trigger_phrase;
  let progress = Promise.resolve();
  let final = false;
  const watched = await watchRun(client, run, {
    deadline: step.deadline,
    poll: step.poll,
    onUpdate: (latest, phase) => {
      if (phase !== "in_progress" || !tracked.thread.enabled) return;
      progress = progress.then(async () => {
        const current = await readCurrentStep(client, run.id, { deadline: step.deadline, triggerPhrase });
        if (!final && !await stopWatch?.check()) await tracked.track("running", latest.web_url ?? null, current);
      });
    },
    ...stopWatch ? { signal: stopWatch.signal } : {}
  });
  final = true;
  await progress;
  tracked.run = watched.run;
  return watched;
}

// src/action/main.ts
async function main(env, now) {
  let inputs = null;
  try {
    inputs = readInputs(env);
    const step = await openStep(inputs, env, now);
    decideAhead(step);
    const config2 = await loadConfig(step);
    if (!config2.ok) return { ...await reportConfigError(step, config2), context: step.summary };
    const decision = await decide(step, config2.config);
    if (decision.kind === "done") return { ...decision.result, context: step.summary };
    if (decision.prepared) {
      const held = await holdBySpendLimits({ octokit: step.octokit, repo: step.repo, prepared: decision.prepared, config: config2.config, self: { botLogins: [...step.self.botLogins] }, now: now(), thread: decision.thread });
      if (held) return { outcome: held, failure: null, context: step.summary };
    }
    return { ...await runToTheEnd(step, config2.config, decision), context: step.summary };
  } catch (error3) {
    const message = errorMessage(error3);
    const hard = error3 instanceof InputError || error3 instanceof RunnerEnvError || !inputs || inputs.failOnError;
    return { outcome: { kind: "error", message, run: null, resumed: false, comment: null }, failure: hard ? message : null };
  }
}
async function runToTheEnd(step, config2, decision) {
  const tracked = new TrackedRun(step, decision.start, decision.thread, config2);
  const stopWatch = watchForStop(step, decision.thread);
  try {
    const started = await startRun(step, tracked, stopWatch);
    if (started.kind === "done") return started.result;
    if (!step.inputs.wait) return startedOnly(step, tracked, started.run);
    const watched = await watchToEnd(step, tracked, stopWatch);
    const endedAt = step.now();
    if (stopWatch?.stopped || await stopWatch?.check()) return stoppedFromThread(step, tracked, watched.run, endedAt);
    return await finishRun(step, tracked, watched, endedAt);
  } catch (error3) {
    if (!(error3 instanceof AgentRunError)) throw error3;
    return reportServiceError(step, tracked, error3);
  } finally {
    stopWatch?.close();
  }
}

// src/action/report.ts
var JOB_SUMMARY_MAX_BYTES = 1024 * 1024;
var OUTPUT_NAMES = ["run-id", "status", "web-url", "result", "summary", "pull-requests", "comment-id", "resumed"];
function pullRequestsJson(prs) {
  return JSON.stringify(
    (prs ?? []).map((pr) => ({
      id: pr.id ?? null,
      title: pr.title ?? null,
      url: pr.url ?? null,
      created_at: pr.created_at ?? null,
      head_branch_name: pr.head_branch_name ?? null
    }))
  );
}
var OUTPUT_TEXT_MAX_BYTES = { result: 4e5, summary: 2e5 };
function truncateUtf8(text2, maxBytes) {
  if (Buffer.byteLength(text2, "utf8") <= maxBytes) return text2;
  const ellipsis = "…";
  let cut2 = Buffer.from(text2, "utf8").subarray(0, Math.max(0, maxBytes - Buffer.byteLength(ellipsis))).toString("utf8");
  cut2 = cut2.replace(/\uFFFD+$/, "");
  return cut2 + ellipsis;
}
var EMPTY_OUTPUTS = {
  "run-id": "",
  status: "",
  "web-url": "",
  result: "",
  summary: "",
  "pull-requests": "",
  "comment-id": "",
  resumed: ""
};
function outputsFor(outcome) {
  switch (outcome.kind) {
    case "ignored":
      return { ...EMPTY_OUTPUTS };
    case "refused":
    case "handed_back":
    case "over_limit":
    case "stopped":
      return { ...EMPTY_OUTPUTS, "comment-id": outcome.comment ? String(outcome.comment.id) : "" };
    case "run":
    case "error": {
      const run = outcome.run;
      return {
        "run-id": run ? String(run.id) : "",
        status: run?.status ?? "",
        "web-url": run?.web_url ?? "",
        result: truncateUtf8(run?.result ?? "", OUTPUT_TEXT_MAX_BYTES.result),
        summary: truncateUtf8(run?.summary ?? "", OUTPUT_TEXT_MAX_BYTES.summary),
        "pull-requests": run ? pullRequestsJson(run.git_host_pull_requests) : "",
        "comment-id": outcome.comment ? String(outcome.comment.id) : "",
        resumed: run ? String(outcome.resumed) : ""
      };
    }
  }
}
function headline2(outcome) {
  const id = `#${outcome.run.id}`;
  if (outcome.watch === "started") return `▶️ Agent run ${id} ${outcome.resumed ? "resumed" : "started"}`;
  if (outcome.watch === "timed_out") return `⏳ Agent run ${id} is still running after ${formatElapsed(outcome.endedAt - outcome.startedAt)}`;
  if (outcome.watch === "stopped") return `⏹️ Stopped watching agent run ${id} (\`stop\` from the thread)`;
  switch (outcome.phase) {
    case "succeeded":
      return `✅ Agent run ${id} succeeded`;
    case "failed":
      return `❌ Agent run ${id} failed`;
    case "waiting_for_input":
      return `⏸️ Agent run ${id} is waiting for input`;
    case "stopped":
      return `⏹️ Agent run ${id} was ${/cancel/i.test(outcome.run.status ?? "") ? "cancelled" : "stopped"}`;
    default:
      return `❔ Agent run ${id} ended with a status the bridge does not recognise`;
  }
}
var row = (label, value2) => `| ${label} | ${value2} |`;
var utf8Bytes = (text2) => Buffer.byteLength(text2, "utf8");
function fitText(text2, maxBytes, triggerPhrase) {
  const render = (chars2) => sanitizeMarkdown(truncateText(text2, chars2), { triggerPhrase });
  let chars = Math.min(text2.length, maxBytes);
  for (let attempt = 0; attempt < 8 && chars > 0; attempt++) {
    const candidate = render(chars);
    const bytes = utf8Bytes(candidate);
    if (bytes <= maxBytes) return candidate;
    chars = Math.floor(chars * maxBytes * 0.97 / bytes);
  }
  return "";
}
var REPLY_TITLES = {
  refused: "🚫 Agent run refused",
  handed_back: "🙋 Pull request handed back",
  over_limit: "⏸️ Agent run held back by a spend limit",
  stopped: "⏹️ Agent stopped in this thread"
};
function renderJobSummary(outcome, context, maxBytes = JOB_SUMMARY_MAX_BYTES) {
  const thread = context.thread ? renderLink(context.thread.label, context.thread.url) : null;
  const commentLink = (comment) => comment ? renderLink("the bot's comment", comment.url) : null;
  switch (outcome.kind) {
    case "ignored":
      return "";
    case "refused":
    case "handed_back":
    case "over_limit":
    case "stopped": {
      const title = REPLY_TITLES[outcome.kind];
      const lines2 = [`## ${title}`, "", sanitizeMarkdown(outcome.reason, { triggerPhrase: context.triggerPhrase })];
      const where = [thread, commentLink(outcome.comment)].filter(Boolean).join(" · ");
      if (where) lines2.push("", where);
      return `${lines2.join("\n")}
`;
    }
    case "error": {
      const lines2 = [`## ⚠️ Agent run ${outcome.run ? `#${outcome.run.id} ` : ""}could not be completed`, "", sanitizeMarkdown(outcome.message, { triggerPhrase: context.triggerPhrase })];
      if (outcome.run?.web_url) lines2.push("", renderLink("Open the run", outcome.run.web_url));
      const where = [thread, commentLink(outcome.comment)].filter(Boolean).join(" · ");
      if (where) lines2.push("", where);
      return `${lines2.join("\n")}
`;
    }
    case "run":
      return renderRunSummary(outcome, context, thread, commentLink(outcome.comment), maxBytes);
  }
}
function renderRunSummary(outcome, context, thread, comment, maxBytes) {
  const { run } = outcome;
  const table = ["| | |", "|---|---|", row("Status", run.status ? inlineCode(run.status, { maxLength: 60 }) : "(none)")];
  table.push(row("Run", run.web_url ? renderLink(`#${run.id}`, run.web_url) : `#${run.id}`));
  table.push(row("Started as", outcome.resumed ? "a follow-up to an existing run (resumed)" : "a new run"));
  if (outcome.watch !== "started") table.push(row("Watched for", formatElapsed(outcome.endedAt - outcome.startedAt)));
  if (thread) table.push(row("Thread", comment ? `${thread} · ${comment}` : thread));
  const head = [`## ${headline2(outcome)}`, "", ...table];
  if (outcome.watch === "timed_out") head.push("", "The run keeps going on the service; the step stopped watching it at `timeout-minutes`.");
  if (outcome.watch === "stopped") head.push("", "Someone stopped it from the thread. The service has no cancel call, so the run may keep going: stop it on the run page.");
  if (outcome.watch === "started") head.push("", "Not waited for (`wait: false`): follow it on the run page.");
  const prs = run.git_host_pull_requests ?? [];
  if (prs.length > 0) {
    head.push("", "### Pull requests", "");
    for (const pr of prs.slice(0, 50)) {
      const link = renderLink(pr.title?.trim() || "Pull request", pr.url, { maxLength: 200, triggerPhrase: context.triggerPhrase });
      head.push(`- ${link}${pr.head_branch_name ? ` · ${inlineCode(pr.head_branch_name, { maxLength: 100 })}` : ""}`);
    }
    if (prs.length > 50) head.push(`- … and ${prs.length - 50} more on the run page`);
  }
  const fixed = `${head.join("\n")}
`;
  const texts = [];
  const summary2 = run.summary?.trim() ?? "";
  const result = run.result?.trim() ?? "";
  if (summary2) texts.push({ title: "Summary", text: summary2 });
  if (result && result !== summary2) texts.push({ title: "Result", text: result });
  const overhead = texts.reduce((sum, part) => sum + utf8Bytes(`
### ${part.title}


`), 0) + 256;
  let budget = maxBytes - utf8Bytes(fixed) - overhead;
  const blocks = [];
  texts.forEach((part, index) => {
    const share = Math.floor(budget / (texts.length - index));
    const fitted = share > 0 ? fitText(part.text, share, context.triggerPhrase) : "";
    budget -= utf8Bytes(fitted);
    if (fitted) blocks.push(`
### ${part.title}

${fitted}
`);
  });
  return fixed + blocks.join("");
}

// src/action/runner.ts
async function runAction(options = {}) {
  const env = options.env ?? process.env;
  for (const name of ["api-token", "github-token"]) {
    const secret = rawInput(env, name);
    if (secret) setSecret(secret);
  }
  const result = await main(env, options.now ?? Date.now);
  await report(result, env);
  return result;
}
async function report(result, env) {
  const outputs = outputsFor(result.outcome);
  for (const name of OUTPUT_NAMES) setOutput(name, outputs[name]);
  const summary2 = renderJobSummary(result.outcome, result.context ?? { thread: null, triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase });
  if (summary2 !== "" && env.GITHUB_STEP_SUMMARY) {
    try {
      await summary.addRaw(summary2).write();
    } catch (error3) {
      warning(`Could not write the job summary: ${errorMessage(error3)}`);
    }
  }
  if (result.failure !== null) setFailed(result.failure);
}

// src/action/index.ts
await runAction();
