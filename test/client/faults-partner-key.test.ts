/** The client fault matrix, partner-key profile (test/client/fault-matrix.ts). */
import { clientFaultMatrix } from './fault-matrix.js';

clientFaultMatrix('partner-key');
