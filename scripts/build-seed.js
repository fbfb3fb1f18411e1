// Run by `npm run build` (and so by `npm install`): writes the empty embedded cluster the first start loads.
import { writeSeedCluster } from '../dist/db/seed.js';

await writeSeedCluster();
