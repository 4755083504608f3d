/** The client fault matrix, personal-token profile (test/client/fault-matrix.ts). */
import { clientFaultMatrix } from './fault-matrix.js';

clientFaultMatrix('personal-token');
