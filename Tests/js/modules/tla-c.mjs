import { log } from './tla-log.mjs';
import './tla-a.mjs';
import './tla-b.mjs';
log.push('c');
