import { b } from './cycle-b.mjs';
export const a = 'a';
export const seenFromA = b;
