export const h = 'preact h';
