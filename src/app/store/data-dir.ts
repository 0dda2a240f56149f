/**
 * Opening the embedded store under DATA_DIR, with an error that says what to fix. SQLite's own
 * words ("unable to open database file", "file is not a database") name neither the directory
 * nor the file. Nothing here writes to a file that is not a database: a damaged or foreign file is
 * left exactly as it was, and the message says how to move it aside.
 */
import { resolve } from "node:path";
import { AppConfigurationError } from "../env.js";

/** The file the embedded App keeps its state in, under DATA_DIR. */
export const DATABASE_FILE_NAME = "bridge.sqlite";

/** DATA_DIR or its database cannot be used; the message names both and what to do. Exit code 2, like every setting that is wrong. */
class DataDirError extends AppConfigurationError {
  override name = "DataDirError";
  constructor(problem: string) {
    super([], [`DATA_DIR (${problem})`]);
    this.message = `The GitHub App cannot start: ${problem}`;
  }
}

const UNWRITABLE_DIRECTORY = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "EEXIST", "ENOSPC", "ELOOP", "ENAMETOOLONG"]);
const NOT_A_DATABASE = new Set(["SQLITE_NOTADB", "SQLITE_CORRUPT"]);

/** What went wrong opening `file` in `dataDir`, as an operator can act on it; the error itself when it is none of these. */
function dataDirProblem(error: unknown, dataDir: string, file: string): Error {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message;
  // Node's own messages start with their code already ("ENOTDIR: not a directory, mkdir …").
  const detail = typeof code === "string" && !message.startsWith(code) ? `${code}: ${message}` : message;
  const directory = `DATA_DIR is ${resolve(dataDir)}`;
  const elsewhere = "or set REDIS_URL to keep the state in Redis instead";
  if (typeof code !== "string") return error as Error;
  if (UNWRITABLE_DIRECTORY.has(code))
    return new DataDirError(
      `${directory}, and the App cannot create or write that directory (${detail}). ` +
        `Point DATA_DIR at a directory the App's user can write (in a container, a volume that user owns), ${elsewhere}.`,
    );
  if (NOT_A_DATABASE.has(code))
    return new DataDirError(
      `${resolve(file)} is not an SQLite database, or is damaged (${detail}); ${directory}. The App left the file as it is. ` +
        `Move it aside and start again with an empty store: mv ${resolve(file)} ${resolve(file)}.broken ` +
        `(and its -wal and -shm files, if there are any); or point DATA_DIR at another directory.`,
    );
  if (
    code === "SQLITE_CANTOPEN" ||
    code === "SQLITE_READONLY" ||
    code === "SQLITE_PERM" ||
    code === "SQLITE_IOERR" ||
    code.startsWith("SQLITE_IOERR_")
  )
    return new DataDirError(
      `the App cannot open or write ${resolve(file)} (${detail}); ${directory}. ` +
        `DATA_DIR must be a directory the App's user can write, and ${DATABASE_FILE_NAME} in it a file that user can write (or absent), ${elsewhere}.`,
    );
  return error as Error;
}

/** `open()`, with its error said in DATA_DIR's terms (dataDirProblem). */
export function openOrExplain<T>(open: () => T, dataDir: string, file: string): T {
  try {
    return open();
  } catch (error) {
    throw dataDirProblem(error, dataDir, file);
  }
}
