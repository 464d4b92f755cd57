import { log } from './tla-log.mjs';
log.push('b');
