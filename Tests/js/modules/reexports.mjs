export * from './values.mjs';
export * as all from './values.mjs';
export { '*' as starAgain } from './values.mjs';
export { one as default, two as deux } from './values.mjs';
