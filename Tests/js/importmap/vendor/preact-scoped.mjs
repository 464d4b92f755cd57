export const h = 'scoped preact h';
