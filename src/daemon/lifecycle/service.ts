/** A part of the daemon with a start and a stop; the node starts services in order and stops them in reverse. */
export interface Service {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}
