// line 2 asks for an export values.mjs does not have
import { nothing } from './values.mjs';
export default nothing;
