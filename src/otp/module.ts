import type { AtriumModule } from '../shared/atrium-module.js';
import { otpPages, sendSignUpCode } from './pages.js';
import { otpRoutes } from './routes/otp.js';

export const otpModule: AtriumModule = {
  name: 'otp',
  catalogs: (ctx) => ({ customers: [otpRoutes(ctx)] }),
  pages: (ctx) => [otpPages(ctx)],
  realmPages: { signUpCode: sendSignUpCode },
};
