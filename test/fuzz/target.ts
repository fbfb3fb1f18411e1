import type { Harness } from '../helpers/harness.js';
import { ensureOwner, issueOwnerToken } from '../../src/bootstrap.js';

/** A request as the fuzzer sends it: no credential but what its headers carry. */
export interface TargetRequest {
  method: string;
  /** Path and query, sent as they are (broken escapes included). */
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

/** An answer as a client sees it. */
export interface TargetAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
  /** The cookies its Set-Cookie headers set, by name. */
  cookies: { name: string; value: string }[];
}

/** What the catalog fuzzer runs against: the application in-process, or real servers over HTTP. */
export interface FuzzTarget {
  request(request: TargetRequest): Promise<TargetAnswer>;
  /** The owner's id (a team member). */
  ownerId: number;
  /** A valid owner access token at the start. */
  ownerToken: string;
  /** A new owner access token, the owner made again if need be (a fuzzed request may revoke the one in use). */
  freshOwnerToken(): Promise<string>;
  /** Statuses the transport answers by itself, without a body, before any route sees the request; counted, not judged. */
  transportStatuses?: number[];
}

/** The in-process harness as a target: `app.inject`, no socket. */
export function harnessTarget(h: Harness): FuzzTarget {
  return {
    ownerId: h.ownerId,
    ownerToken: h.ownerToken,
    request: async ({ method, url, headers, payload }) => {
      const res = await h.app.inject({ method: method as 'GET', url, headers, payload });
      return { statusCode: res.statusCode, headers: res.headers as TargetAnswer['headers'], body: res.body, json: () => res.json(), cookies: res.cookies };
    },
    freshOwnerToken: async () => (await issueOwnerToken(h.ctx, await ensureOwner(h.ctx))).token.token!,
  };
}
