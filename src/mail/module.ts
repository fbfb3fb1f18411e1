import type { AtriumModule } from '../shared/atrium-module.js';
import { mailQueue } from './queue.js';

/** Transactional mail, queued with the code or link it carries and sent by whichever process claims it. */
export const mailModule: AtriumModule = { name: 'mail', taskQueues: [mailQueue] };
