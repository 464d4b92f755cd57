import { log } from './tla-log.mjs';
log.push('a start');
await new Promise((resolve) => setTimeout(resolve, 20));
log.push('a end');
