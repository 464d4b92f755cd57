import { fine } from './broken.mjs';
export default fine;
