import type { Context } from '../context.js';

type TargetCheck = (ctx: Context, uid: string) => Promise<boolean>;

/**
 * How a role target is known to exist, per role context. The features that own realms and spaces
 * register their check; a context with no check accepts any well-formed uid.
 */
const checks = new Map<string, TargetCheck>();

export function registerTargetCheck(context: string, check: TargetCheck): void {
  checks.set(context, check);
}

export async function targetExists(ctx: Context, context: string, uid: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(uid)) return false;
  const check = checks.get(context);
  return check ? check(ctx, uid) : true;
}
