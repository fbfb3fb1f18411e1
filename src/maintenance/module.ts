import type { AtriumModule } from '../shared/atrium-module.js';
import { expiredRowsJob } from './expired-rows.js';

export const maintenanceModule: AtriumModule = { name: 'maintenance', jobs: [expiredRowsJob] };
