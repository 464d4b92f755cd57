// Waits at top level on a gate the test makes fail.
import { gate } from './order-setup.mjs';
await gate;
