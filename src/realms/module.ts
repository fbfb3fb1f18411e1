import type { AtriumModule } from '../shared/atrium-module.js';
import { activationPages } from './pages/activation.js';
import { emailChangePages } from './pages/email-change.js';
import { passwordPages } from './pages/password.js';
import { realmPages } from './pages/routes.js';
import { signUpPage } from './pages/signup.js';
import { realmExists } from './realms.js';
import { resolvePathRealm } from './path-realm.js';
import { avatarFileRoutes } from './routes/avatar-files.js';
import { customFieldRoutes } from './routes/custom-fields.js';
import { realmEventRoutes } from './routes/events.js';
import { realmRoutes } from './routes/realms.js';
import { realmUserRoutes } from './routes/users.js';

const nothing = async () => '' as const;

export const realmsModule: AtriumModule = {
  name: 'realms',
  catalogs: (ctx) => ({ admin: [realmRoutes(ctx), realmUserRoutes(ctx), customFieldRoutes(ctx), realmEventRoutes(ctx)] }),
  pages: (ctx, modules) => {
    const parts = Object.assign({}, ...modules.map((m) => m.realmPages));
    if (!parts.signUpCode) throw new Error('no module sends the sign-up code of an otp realm (realmPages.signUpCode)');
    return [
      realmPages(ctx, { signInOptions: parts.signInOptions ?? nothing, sessionNotice: parts.sessionNotice ?? nothing }),
      signUpPage(ctx, parts.signUpCode), activationPages(ctx), emailChangePages(ctx), passwordPages(ctx), avatarFileRoutes(ctx),
    ];
  },
  adminPreHandlers: (ctx) => [resolvePathRealm(ctx)],
  roleTargets: { realm: realmExists },
  webhookEvents: {
    'realm_user.created': 'A user of a realm was created (admin API, sign-up, invitation accepted, delegated sign-in); data: the user as the admin API shows it',
    'realm_user.updated': 'A user of a realm was changed (admin API or the user\'s own PUT /me); data: the user, and `changed` (attribute names)',
    'realm_user.deleted': 'A user of a realm was deleted; data: its id, identifier and email',
  },
};
