/** The slice of a logger the flows use (pino in the App, the step's log in the Action); its own file so that every flow can take it without importing the shared shapes. */
export interface FlowLogger {
  debug?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
