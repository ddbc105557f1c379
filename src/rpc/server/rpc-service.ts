import type { Logger } from 'pino';
import type { RpcError } from '../errors.js';
import { EVENT_STREAM_PATH } from '../node-stream-event.js';
import type { RpcHandlers } from '../rpc-handlers.js';
import type { AnswerStyle } from '../rpc-method.js';
import { type AdminApiKey, adminKeyBanner, resolveAdminApiKey } from './admin-api-key.js';
import { AdminAuthenticator } from './admin-authenticator.js';
import { type EventFeed, EventStream } from './event-stream.js';
import { MethodDispatcher } from './method-dispatcher.js';
import { quickListen } from './quick-listen.js';
import { RpcListener, type StatusReport } from './rpc-listener.js';
import { type ComponentVersions, versionHeaders } from './version-headers.js';

export interface RpcServiceOptions {
  readonly host: string;
  readonly port: number;
  readonly adminHost: string;
  readonly adminPort: number;
  readonly maxBodySize: number;
  readonly maxBatchSize: number;
  readonly maxResponseSize: number;
  readonly maxRequestsPerConnection: number;
  /** The forms results are written in (`--rpc-answer-style`); default `aztec`. */
  readonly answerStyle?: AnswerStyle;
  readonly corsOrigin: string;
  readonly dataDirectory: string | undefined;
  readonly adminApiKeyHash: string | undefined;
  readonly disableAdminApiKey: boolean;
  readonly resetAdminApiKey: boolean;
  readonly versions: ComponentVersions;
  readonly handlers: RpcHandlers;
  /** Body of GET /status. */
  readonly status: () => StatusReport;
  /** Undefined while the node serves; otherwise its state, answered as NOT_READY. */
  readonly notServing: () => string | undefined;
  /** The node's events, served as a WebSocket stream on the admin listener (GET /events, same API key). */
  readonly events?: EventFeed;
  /** Turns a failure the node recognises (a full disk) into its application error. */
  readonly translateError?: (err: unknown) => RpcError | undefined;
  /** Told of every call a handler answered (metrics). */
  readonly observeCall?: (call: {
    listener: 'public' | 'admin';
    method: string;
    seconds: number;
    code: number;
  }) => void;
  readonly log: Logger;
  /** Where the once-only admin key banner goes (stdout). */
  readonly print: (text: string) => void;
}

/**
 * The node's two JSON-RPC listeners as one service (spec part 1): public (`node_`, CORS, version
 * headers) and admin (`nodeAdmin_`, API key). The admin key is resolved before anything listens, so a
 * bad key setup stops start-up with nothing bound.
 */
export class RpcService {
  readonly name = 'rpc';
  private publicListener: RpcListener | undefined;
  private adminListener: RpcListener | undefined;
  private eventStream: EventStream | undefined;
  #adminKey: AdminApiKey | undefined;

  constructor(private readonly options: RpcServiceOptions) {}

  get publicUrl(): string {
    return this.listening(this.publicListener).url;
  }

  get adminUrl(): string {
    return this.listening(this.adminListener).url;
  }

  /** How the admin listener authenticates; `newKey` is set when this start-up generated the key (start banner). */
  get adminKey(): AdminApiKey {
    if (!this.#adminKey) throw new Error('The RPC service is not started');
    return this.#adminKey;
  }

  async start(): Promise<void> {
    const o = this.options;
    const key = resolveAdminApiKey(o, o.log);
    const headers = versionHeaders(o.versions);
    const common = {
      maxBodySize: o.maxBodySize,
      maxRequestsPerConnection: o.maxRequestsPerConnection,
      headers,
      status: o.status,
      log: o.log,
    };
    const dispatcher = (listener: 'public' | 'admin') =>
      new MethodDispatcher({
        listener,
        handlers: o.handlers,
        maxBatchSize: o.maxBatchSize,
        maxResponseSize: o.maxResponseSize,
        answerStyle: o.answerStyle,
        log: o.log,
        notServing: o.notServing,
        translateError: o.translateError,
        observe: o.observeCall && ((method, seconds, code) => o.observeCall?.({ listener, method, seconds, code })),
      });
    const publicListener = new RpcListener({
      ...common,
      listener: 'public',
      host: o.host,
      port: o.port,
      dispatcher: dispatcher('public'),
      corsOrigin: o.corsOrigin,
    });
    const eventStream = o.events && new EventStream({ feed: o.events, log: o.log });
    const adminListener = new RpcListener({
      ...common,
      listener: 'admin',
      host: o.adminHost,
      port: o.adminPort,
      dispatcher: dispatcher('admin'),
      auth: key.enabled ? new AdminAuthenticator(key.hash) : undefined,
      upgrade: eventStream && {
        path: EVENT_STREAM_PATH,
        handle: (req, socket, head) => eventStream.handleUpgrade(req, socket, head),
      },
    });
    await quickListen(async () => {
      await publicListener.start();
      try {
        await adminListener.start();
      } catch (err) {
        await publicListener.stop();
        throw err;
      }
    });
    this.publicListener = publicListener;
    this.adminListener = adminListener;
    eventStream?.start();
    this.eventStream = eventStream;
    this.#adminKey = key;
    this.announce(key);
  }

  async stop(): Promise<void> {
    // The stream's sockets are closed alongside: an upgraded socket would hold the admin listener's close.
    await Promise.all([this.eventStream?.close(), this.publicListener?.stop(), this.adminListener?.stop()]);
  }

  private announce(key: AdminApiKey): void {
    const { log, adminHost } = this.options;
    const publicUrl = this.publicUrl;
    const adminUrl = this.adminUrl;
    // One machine-readable line with both bound URLs (tests and scripts start the node on port 0).
    log.info({ publicUrl, adminUrl, adminAuth: key.enabled ? 'api-key' : 'disabled' }, 'rpc listening');
    const exposure = adminExposureWarning(adminHost, adminUrl, key.enabled);
    if (exposure) log.warn({ adminHost }, exposure);
    if (key.enabled && key.newKey) this.options.print(adminKeyBanner(key.newKey, adminUrl, key.file));
  }

  private listening(l: RpcListener | undefined): RpcListener {
    if (!l) throw new Error('The RPC service is not started');
    return l;
  }
}

/** The start-up warning for an admin listener reachable from other machines, if it is (docs/architecture.md section 4.8). */
export function adminExposureWarning(adminHost: string, adminUrl: string, authEnabled: boolean): string | undefined {
  if (isLoopback(adminHost)) return undefined;
  if (authEnabled) return `the admin listener is bound to ${adminHost}, beyond this machine; keep the API key secret`;
  return (
    `THE ADMIN LISTENER IS BOUND TO ${adminHost} WITHOUT AUTHENTICATION: anyone who can reach ${adminUrl} ` +
    'controls the node. Bind it to 127.0.0.1 (--admin-host) or enable the admin API key.'
  );
}

export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
