import type { AtriumModule } from '../shared/atrium-module.js';
import { consoleRoutes } from './routes/console.js';

export const consoleModule: AtriumModule = { name: 'console', pages: (ctx) => [consoleRoutes(ctx)] };
