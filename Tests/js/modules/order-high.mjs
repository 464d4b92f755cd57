// Imports the module that will fail.
import './order-low.mjs';
